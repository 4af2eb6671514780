// Package serve runs a journal server, what `journal serve` leaves running
// for a campaign: over a store already opened (embedded or on --nats) it
// assembles the live projection and its checkpoints, the one command
// handler of HTTP and NATS, the HTTP API and pages, the NATS command
// service, the core-NATS feed, the consumer guard, the metrics and the
// limits on appends, and runs them until its context ends.
//
// Invariants:
//   - Check refuses, before anything is opened, what would let others in
//     unchecked: --nats-listen or a non-loopback --http or --public-host
//     without an access file. Run checks the bound address again.
//   - One command handler (command.Handler) runs every command of the
//     process, HTTP and NATS alike, with the access file's limits.
//   - Shutdown is in order: HTTP (requests in flight finish within
//     Grace, event streams close), the command service, the live
//     projection, then its final checkpoint; a failed final checkpoint
//     is an error. The store is closed by whoever opened it.
//   - The feed publishes only what is recorded while the server runs
//     (natsFeed): a restart does not replay history on core NATS.
package serve

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/jetstore"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/invite"
	"github.com/campaign-journal/journal/live"
	"github.com/campaign-journal/journal/serve/connect"
	"github.com/campaign-journal/journal/web"
)

// Options are what a journal server runs with: the flags of `journal
// serve` and what the CLI resolved from its global flags.
type Options struct {
	HTTPAddr    string        // --http
	NATSListen  string        // --nats-listen
	Every       int           // --checkpoint-every
	Interval    time.Duration // --checkpoint-interval
	Grace       time.Duration // --shutdown-grace
	PublicHosts []string      // --public-host

	Access     *access.Config // the access file loaded (nil: none)
	AccessFile string         // its path
	NATSURL    string         // --nats ("": the embedded server)
	Actor      string         // the actor of HTTP requests without an access file
	Devices    *invite.Book   // the table's book (nil: none)
	Lang       i18n.Lang      // the pages' language
	// DefaultLang is the language of replies that ask for none.
	DefaultLang i18n.Lang

	Stdout io.Writer // the banner and the last line
	Stderr io.Writer // the log
	// Warn prints one warning line (a msgerr format, rendered in the
	// CLI's language).
	Warn func(format string, args ...any)
	// HTTPInfo, when set, records where HTTP listens (journal
	// healthcheck) and returns what removes the record.
	HTTPInfo func(net.Addr) (remove func(), err error)
}

// Journal is the opened journal a server runs over.
type Journal struct {
	Store    web.Store
	Embedded *embedded.Server // nil on --nats
	Conn     *nats.Conn       // the journal's own connection (publishes the feed)
	DataDir  string           // the embedded server's folder, for the banner
	Replicas int              // the journal's replicas, for a new checkpoint bucket
}

// CheckListen refuses --nats-listen with --nats: there is no embedded
// server to open. It needs no access file.
func CheckListen(o Options) error {
	if o.NATSURL != "" && o.NATSListen != "" {
		return msgerr.New("serve: --nats-listen opens the embedded server; with --nats there is none to open")
	}
	return nil
}

// Check refuses, before anything is opened, what CheckListen refuses,
// --nats-listen without an access file, and an --http or --public-host
// other machines reach without one.
func Check(ctx context.Context, o Options) error {
	if err := CheckListen(o); err != nil {
		return err
	}
	if o.NATSListen != "" && o.Access == nil {
		return errNATSListenNoAccess
	}
	return checkHTTPBind(ctx, o)
}

// Run runs the server until ctx ends (SIGINT or SIGTERM), then shuts down
// in order: HTTP (in-flight requests finish, event streams close), the
// live projection, its final checkpoint. The store stays open.
func Run(ctx context.Context, o Options, j Journal) error {
	st := j.Store
	logger := slog.New(slog.NewTextHandler(o.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	js, closeJS, err := jetStream(o, j)
	if err != nil {
		return err
	}
	defer closeJS()
	kv, err := live.OpenBucket(ctx, js, j.Replicas)
	if err != nil {
		return err
	}
	// One journal runs every command of this process, HTTP and NATS alike:
	// one cache of folded campaigns over the one store.
	// The access file's limits on appends hold every user of it but the
	// journal role's (limits.go).
	commands := command.New(st, command.Options{Clock: time.Now, Rand: rand.Reader, IDs: events.NewV7(time.Now, rand.Reader), Checkpoints: kv,
		Limiter: Limiter(o.Access, time.Now)})
	stopCommands, err := startCommandService(ctx, o, j, commands, logger)
	if err != nil {
		return err
	}
	defer stopCommands()
	stopGuard, err := jetstore.StartGuard(ctx, js, func(name, why string, err error) {
		if err != nil {
			logger.Warn("consumer guard", "consumer", name, "err", err)
			return
		}
		logger.Warn("deleted a consumer of the journal's stream: only ordered consumers are allowed", "consumer", name, "why", why)
	})
	if err != nil {
		return msgerr.Errorf("serve: %w", err)
	}
	defer stopGuard()

	metrics := web.NewMetrics()
	startLast, err := partitionLasts(ctx, st)
	if err != nil {
		return msgerr.Errorf("serve: the stream's last sequence: %w", err)
	}
	proj, err := Projectors(st, kv, live.Options{
		Every: o.Every, Interval: o.Interval, Logger: logger,
		OnEvent: metrics.Folded, OnError: metrics.FoldFailed,
		OnFeed: natsFeed(j.Conn, logger, startLast), // the core-NATS feed, journalfeed.<campaign>
		Lang:   o.Lang,                              // the table's log speaks the pages' language
	})
	if err != nil {
		return err
	}
	from, err := proj.Restore(ctx)
	if err != nil {
		return msgerr.Errorf("serve: restore the projections: %w", err)
	}
	// The share key of the permalinks' capabilities, kept beside the access
	// file (mode 0600); without one, a key in memory (loopback only).
	var shareKey []byte
	if o.Access != nil && o.AccessFile != "" {
		if shareKey, err = web.LoadOrCreatePermalinkKey(web.PermalinkKeyPath(o.AccessFile)); err != nil {
			return msgerr.Errorf("serve: %w", err)
		}
	}
	ws, err := web.New(web.Options{
		Store: st, Projectors: proj, Metrics: metrics, Logger: logger, Commands: commands, Clock: time.Now,
		Actor: o.Actor, Access: o.Access, PublicHosts: o.PublicHosts, Devices: o.Devices,
		Lang: o.Lang, DefaultLang: o.DefaultLang, PermalinkKey: shareKey,
	})
	if err != nil {
		return err
	}
	ln, err := listenHTTP(o)
	if err != nil {
		return err
	}
	// Where it listens, for journal healthcheck; removed once HTTP has
	// stopped.
	removeHTTPInfo := func() {}
	if o.HTTPInfo != nil {
		if removeHTTPInfo, err = o.HTTPInfo(ln.Addr()); err != nil {
			ln.Close()
			return err
		}
	}
	defer removeHTTPInfo()
	hs := &http.Server{
		Handler:           ws,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	hs.RegisterOnShutdown(ws.CloseStreams)

	projCtx, stopProj := context.WithCancel(context.Background())
	defer stopProj()
	projDone := make(chan error, 1)
	go func() { projDone <- proj.Run(projCtx) }()
	httpDone := make(chan error, 1)
	go func() { httpDone <- hs.Serve(ln) }()

	where := "NATS in-process only"
	switch {
	case o.NATSURL != "":
		where = "NATS " + access.RedactURLs(o.NATSURL)
	case j.Embedded != nil && j.Embedded.ClientURL() != "":
		where = "NATS " + j.Embedded.ClientURL() + " (data " + j.DataDir + ")"
	}
	if o.Access != nil {
		where += fmt.Sprintf(" · access: %d users (%s), command service on %s.>", len(o.Access.Users), o.AccessFile, access.CommandPrefix)
		where += LimitsBanner(o.Access)
	}
	resumed := resumedFrom(from)
	if o.Warn != nil {
		for _, w := range ExampleCredentialWarnings(o.Access, o.NATSURL) {
			o.Warn("journal serve: warning: %s, known to everyone who has read the repository: change it (docs/cluster.md)", w)
		}
	}
	fmt.Fprintf(o.Stdout, "journal serve: listening on http://%s/ · %s · %s\n", ln.Addr(), where, resumed)

	var runErr error
	select {
	case <-ctx.Done():
	case err := <-httpDone:
		runErr = msgerr.Errorf("serve: http: %w", err)
	case err := <-projDone:
		projDone <- err
		runErr = msgerr.Errorf("serve: live projection stopped: %w", err)
	}

	grace, cancel := context.WithTimeout(context.Background(), o.Grace)
	defer cancel()
	if err := hs.Shutdown(grace); err != nil {
		logger.Warn("http shutdown", "err", err)
		_ = hs.Close()
	}
	removeHTTPInfo()
	stopCommands()
	stopProj()
	if err := <-projDone; err != nil && !errors.Is(err, context.Canceled) && runErr == nil {
		runErr = err
	}
	if err := proj.Checkpoint(grace); err != nil {
		logger.Error("final checkpoint failed", "err", err)
		if runErr == nil {
			runErr = msgerr.Errorf("serve: final checkpoint: %w", err)
		}
	}
	stats := proj.Stats()
	fmt.Fprintf(o.Stdout, "journal serve: stopped at sequence %d, checkpoint at %d\n", stats.Position, stats.CheckpointSeq)
	return runErr
}

// Projectors returns the live projection of the journal in st: one
// projector over the stream for a journal of one partition (checkpoint
// keys "position" and "campaign.<id>", as always), one per partition for
// more, projector p over partition p's stream alone with its checkpoint
// keys under "partition-<p>." (live.PartitionKV).
func Projectors(st web.Store, kv live.KV, opts live.Options) (*live.Group, error) {
	k := 1
	if ps, ok := st.(interface{ Partitions() int }); ok {
		k = ps.Partitions()
	}
	if k <= 1 {
		return live.NewGroup(live.New(st, kv, opts)), nil
	}
	js, ok := st.(*jetstore.Store)
	if !ok {
		return nil, msgerr.Errorf("serve: the store %T of %d partitions cannot be read one partition at a time", st, k)
	}
	ps := make([]*live.Projector, k)
	for p := range ps {
		ps[p] = live.New(js.Partition(p), live.PartitionKV(kv, p, k), opts)
	}
	return live.NewGroup(ps...), nil
}

// resumedFrom tells where the projections resumed, by partition.
func resumedFrom(from []uint64) string {
	var parts []string
	some := false
	for p, f := range from {
		some = some || f > 0
		parts = append(parts, fmt.Sprintf("%d: %d", p, f))
	}
	switch {
	case !some:
		return "folding the stream from the start"
	case len(from) == 1:
		return fmt.Sprintf("resumed from checkpoint at sequence %d", from[0])
	}
	return "resumed from checkpoints at sequences (by partition) " + strings.Join(parts, ", ")
}

// jetStream returns the JetStream context for the checkpoint bucket: the
// embedded server's, or a connection of its own to --nats, and what
// closes it.
func jetStream(o Options, j Journal) (jetstream.JetStream, func(), error) {
	if j.Embedded != nil {
		return j.Embedded.JetStream(), func() {}, nil
	}
	conn, err := connect.Open(context.Background(), connect.Options{NATSURL: o.NATSURL, Name: "journal serve"})
	if err != nil {
		return nil, nil, err
	}
	return conn.JetStream, conn.Close, nil
}
