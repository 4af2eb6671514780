package main

import (
	"context"
	"crypto/rand"
	"errors"
	"os"
	"path/filepath"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/jetstore"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/live"
	"github.com/campaign-journal/journal/serve/connect"
	"github.com/campaign-journal/journal/sheettext"
)

// store is what the CLI reads and writes.
type store interface {
	command.Store
	events.Follower
	events.Secrets
}

// openStore connects to the journal's JetStream: an external server with
// --nats, else the embedded server on --data (or the `journal serve` that
// owns that folder). share makes this process the one others connect through.
// A journal of the old layout (written before 2026-12-01) is refused with
// one message naming `journal migrate` (jetstore.ErrOldLayout). The
// journal's partitions and replicas are its own, fixed at its creation:
// --partitions or --replicas other than those is refused, changing
// nothing (jetstore.ErrPartitions, jetstore.ErrReplicas).
func (a *app) openStore(ctx context.Context, share bool, listen string) (store, error) {
	if a.st != nil {
		return a.st, nil
	}
	if user, _, ok := a.serviceCreds(); ok && !share && listen == "" { // remote.go
		st, err := a.openRemoteStore(user)
		if err != nil {
			return nil, err
		}
		a.st = st
		return st, nil
	}
	js, replicas, err := a.openJetStream(ctx, share, listen)
	if err != nil {
		return nil, err
	}
	st, err := jetstore.Open(ctx, js, jetstore.Options{Replicas: replicas, Partitions: a.partitions})
	if err != nil {
		if errors.Is(err, jetstore.ErrPartitions) {
			return nil, msgerr.Errorf("--partitions %d: %w", a.partitions, err)
		}
		if errors.Is(err, jetstore.ErrReplicas) {
			return nil, msgerr.Errorf("--replicas %d: %w", a.replicas, err)
		}
		return nil, err
	}
	a.st, a.js, a.jsReplicas = st, js, st.Replicas()
	return st, nil
}

// openJetStream connects to the journal's JetStream as openStore does,
// without opening the store, and returns the replicas to open it with:
// --replicas (0, the journal's, unless given). The embedded server is one
// node: --replicas above 1 without --nats is refused.
func (a *app) openJetStream(ctx context.Context, share bool, listen string) (jetstream.JetStream, int, error) {
	if err := a.loadAccess(); err != nil {
		return nil, 0, err
	}
	if a.natsURL != "" {
		conn, err := connect.Open(ctx, connect.Options{NATSURL: a.natsURL, Name: "journal"})
		if err != nil {
			return nil, 0, err
		}
		a.closers = append(a.closers, conn.Close)
		a.nc = conn.NC
		return conn.JetStream, a.replicas, nil
	}
	if err := a.embeddedReplicas(); err != nil {
		return nil, 0, err
	}
	if err := a.resolveDataDir(); err != nil {
		return nil, 0, err
	}
	if a.readOnly {
		if !embedded.HasJournal(a.dataDir) {
			return nil, 0, msgerr.Errorf("%w in %s: create a campaign first with 'journal --data %s campaign create ID --system ryf|galaxia|tor'",
				errNoJournal, a.dataDir, sheettext.QuoteArg(a.dataDir))
		}
	} else if err := os.MkdirAll(a.dataDir, 0o700); err != nil {
		return nil, 0, msgerr.Errorf("data folder %s: %w", a.dataDir, err)
	}
	conn, err := connect.Open(ctx, connect.Options{DataDir: a.dataDir, Sync: a.sync, Share: share, Listen: listen, Access: a.access})
	if err != nil {
		return nil, 0, err
	}
	a.srv, a.nc = conn.Server, conn.NC
	a.closers = append(a.closers, conn.Close)
	return conn.JetStream, a.replicas, nil
}

// embeddedReplicas refuses --replicas above 1 for the embedded server, a
// single node whose journal has one replica.
func (a *app) embeddedReplicas() error {
	if a.replicas > 1 {
		return usagef("--replicas %d: the embedded server is one node, its journal has 1 replica (--replicas is for a journal on a cluster, with --nats)", a.replicas)
	}
	return nil
}

// resolveDataDir makes --data absolute, so that every message names the
// folder it read whatever the current directory.
func (a *app) resolveDataDir() error {
	if a.dataDir == "" || filepath.IsAbs(a.dataDir) {
		return nil
	}
	abs, err := filepath.Abs(a.dataDir)
	if err != nil {
		return msgerr.Errorf("--data %s: %w", a.dataDir, err)
	}
	a.dataDir = abs
	return nil
}

// loadAccess loads --access once (a.access stays nil without it).
func (a *app) loadAccess() error {
	if a.accessFile == "" || a.access != nil {
		return nil
	}
	cfg, err := access.Load(a.accessFile)
	if err != nil {
		return msgerr.Errorf("--access: %w", err)
	}
	a.access = cfg
	return nil
}

// journal returns the command handlers over the opened store, as the
// CLI's user. The handlers are made once per invocation, so that every
// look at a campaign and every command of it share one cache of folded
// campaigns (current, commands.go): the campaign is folded once.
func (a *app) journal(ctx context.Context) (*command.Handler, error) {
	st, err := a.openStore(ctx, false, "")
	if err != nil {
		return nil, err
	}
	actor := a.cliActor() // identity.go; "" only for a command that acts not (record checks)
	if a.handlers == nil {
		var cs command.Store = st
		if a.wrapStore != nil {
			cs = a.wrapStore(cs)
		}
		cp, every := a.checkpoints(ctx)
		a.handlers = command.New(cs, command.Options{
			Clock: time.Now, Rand: rand.Reader, IDs: events.NewV7(time.Now, rand.Reader),
			Secrets: st, Checkpoints: cp, CheckpointEvery: every,
		})
	}
	return a.handlers.For(command.Call{Actor: actor}) // "" is the journal's default, as command.New's
}

// checkpoints returns the bucket of the campaigns' checkpoints, so that a
// command on a cold campaign reads its checkpoint and the events after it
// (see command.Checkpoints), and how often to write them: a command that
// only reads uses the bucket if it exists and writes nothing; another
// makes the bucket when it is missing (an existing one is left as it is
// configured). Without the bucket (a client that may not open it) loads
// fold from the start.
func (a *app) checkpoints(ctx context.Context) (command.Checkpoints, int) {
	if a.js == nil {
		return nil, 0
	}
	kv, err := live.LookupBucket(ctx, a.js)
	if a.readOnly {
		if err != nil {
			return nil, 0
		}
		return kv, -1
	}
	if errors.Is(err, events.ErrNotFound) {
		kv, err = live.OpenBucket(ctx, a.js, a.jsReplicas)
	}
	if err != nil {
		return nil, 0
	}
	return kv, 0 // command.DefaultCheckpointEvery
}
