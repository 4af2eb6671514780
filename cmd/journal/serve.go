package main

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/jetstore"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/live"
	"github.com/campaign-journal/journal/web"
)

// serveOptions are the flags of `journal serve`.
type serveOptions struct {
	httpAddr   string
	natsListen string
	every      int
	interval   time.Duration
	grace      time.Duration
	// publicHosts is --public-host (serve_http.go).
	publicHosts []string
}

func (a *app) serveCommand() *cobra.Command {
	var o serveOptions
	cmd := &cobra.Command{
		Use:   "serve [--http ADDR] [--nats-listen ADDR]",
		Short: "Run the HTTP API, the live dashboard and the metrics, with projections kept live",
		Long: `serve runs what a group leaves running for a campaign: the JSON API under
/api/ (the same commands as this CLI), the dashboard at / (live rolls, sheets,
initiative, transcript, luck charts, and a verify button that re-derives each
roll in the browser), and Prometheus metrics at /metrics.

Projections are kept live from the stream and checkpointed in the JetStream
bucket ` + live.Bucket + `, so a restart resumes where it stopped. On a
journal of several partitions (--partitions at its creation) one projector
follows each partition's stream, with its own checkpoint; /healthz then sums
their figures, lists each partition's under "partitions", and is stuck when
any partition is.
Every event the live projection folds is also published on core NATS, on
the journal's own connection, on journalfeed.<campaign> (body: the
CloudEvent; headers Journal-Seq, Journal-Type, Content-Type
application/cloudevents+json), and the HTTP event streams follow the same
projection: readers cost the NATS server no consumer each. Event streams
are limited per user (16) and in all (16384), 429 beyond.
On the embedded store, serve owns the data folder and shares it: other journal
commands on the same --data go through it (a loopback port behind a random
token in <data>/server.json, mode 0600); --nats-listen also opens it to the
NATS users of the access file (the nats tool, other services), and is refused
without one. SIGINT or SIGTERM stops it
gracefully: requests finish, a final checkpoint is written, the server stops.

With --access FILE (or $JOURNAL_ACCESS) the embedded NATS server admits only
the file's users, with their roles' permissions; every /api/ request needs
"Authorization: Bearer <token>" (the dashboard has a token field; its event
stream sends ?access_token=), and serve also answers the NATS command service
(journalcmd.<user>.<campaign>.<command>, package access/natscmd), replying
only on the requester's own inbox (_INBOX.<user>.…: set the client's inbox
prefix, e.g. the nats tool's --inbox-prefix _INBOX.<user>). serve warns at
start about every example credential of deploy/access.example.json in use. The
dashboard's files, /metrics and /healthz stay public.

Without an access file serve answers on loopback only: a non-loopback --http
is refused. Every request's Host must be localhost, a loopback address or the
address it arrived on (or a name given with --public-host NAME[:PORT], which
needs --access), and a request from another site's page (Origin,
Sec-Fetch-Site) is refused: a DNS-rebinding page can do nothing.`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return a.serve(c.Context(), o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.httpAddr, "http", "127.0.0.1:8080", "address of the HTTP API, dashboard and metrics (a loopback one unless --access is given)")
	f.StringVar(&o.natsListen, "nats-listen", "", "open the embedded NATS server to the access file's users on this address (e.g. 127.0.0.1:4222); needs --access")
	f.IntVar(&o.every, "checkpoint-every", 1000, "checkpoint the projections after this many events")
	f.DurationVar(&o.interval, "checkpoint-interval", 5*time.Second, "checkpoint the projections at least this often while events arrive")
	f.DurationVar(&o.grace, "shutdown-grace", 15*time.Second, "how long requests in flight may take to finish on shutdown")
	serveHTTPFlags(cmd, &o)
	return cmd
}

// serve runs until ctx ends (SIGINT or SIGTERM), then shuts down in order:
// HTTP (in-flight requests finish, event streams close), the live
// projection, its final checkpoint, then the store (closed by a.close).
func (a *app) serve(ctx context.Context, o serveOptions) error {
	if a.natsURL != "" && o.natsListen != "" {
		return msgerr.New("serve: --nats-listen opens the embedded server; with --nats there is none to open")
	}
	if err := a.checkNATS(o); err != nil {
		return err
	}
	if err := a.checkHTTPBind(ctx, o); err != nil {
		return err
	}
	logger := slog.New(slog.NewTextHandler(a.stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	opened, err := a.openStore(ctx, true, o.natsListen)
	if err != nil {
		return err
	}
	st, ok := opened.(web.Store)
	if !ok {
		return msgerr.Errorf("serve: the store %T cannot tell its last sequence", opened)
	}
	if a.srv != nil && a.srv.Remote() {
		return msgerr.Errorf("serve: %s is already served by another process (NATS at %s): stop it first, or use another --data", a.dataDir, a.srv.ClientURL())
	}
	js, replicas, err := a.serveJetStream()
	if err != nil {
		return err
	}
	kv, err := live.OpenBucket(ctx, js, replicas)
	if err != nil {
		return err
	}
	// One journal runs every command of this process, HTTP and NATS alike:
	// one cache of folded campaigns over the one store.
	// The access file's limits on appends hold every user of it but the
	// journal role's (serve_limits.go).
	commands := command.New(st, command.Options{Clock: time.Now, Rand: rand.Reader, IDs: events.NewV7(time.Now, rand.Reader), Checkpoints: kv,
		Limiter: a.limiter(time.Now)})
	stopCommands, err := a.startCommandService(ctx, st, commands, logger, o.natsListen)
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
	proj, err := serveProjectors(st, kv, live.Options{
		Every: o.every, Interval: o.interval, Logger: logger,
		OnEvent: metrics.Folded, OnError: metrics.FoldFailed,
		OnFeed: natsFeed(a.nc, logger, startLast), // the core-NATS feed, journalfeed.<campaign>
		Lang:   a.pageLang(),                      // the table's log speaks the pages' language (Spanish unless --lang)
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
	if a.access != nil && a.accessFile != "" {
		if shareKey, err = web.LoadOrCreatePermalinkKey(web.PermalinkKeyPath(a.accessFile)); err != nil {
			return msgerr.Errorf("serve: %w", err)
		}
	}
	ws, err := web.New(web.Options{
		Store: st, Projectors: proj, Metrics: metrics, Logger: logger, Commands: commands, Clock: time.Now,
		Actor: envOr("JOURNAL_ACTOR", "api"), Access: a.access, PublicHosts: o.publicHosts, Devices: a.devices(),
		Lang: a.pageLang(), DefaultLang: a.language(), PermalinkKey: shareKey,
	})
	if err != nil {
		return err
	}
	ln, err := a.listenHTTP(o)
	if err != nil {
		return err
	}
	// Where it listens, for journal healthcheck (healthcheck.go); removed
	// once HTTP has stopped.
	removeHTTPInfo, err := a.writeHTTPInfo(ln.Addr())
	if err != nil {
		ln.Close()
		return err
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
	case a.natsURL != "":
		where = "NATS " + redactURLs(a.natsURL)
	case a.srv != nil && a.srv.ClientURL() != "":
		where = "NATS " + a.srv.ClientURL() + " (data " + a.dataDir + ")"
	}
	if a.access != nil {
		where += fmt.Sprintf(" · access: %d users (%s), command service on %s.>", len(a.access.Users), a.accessFile, access.CommandPrefix)
		where += a.limitsBanner()
	}
	resumed := resumedFrom(from)
	a.warnExampleCredentials()
	fmt.Fprintf(a.stdout, "journal serve: listening on http://%s/ · %s · %s\n", ln.Addr(), where, resumed)

	var runErr error
	select {
	case <-ctx.Done():
	case err := <-httpDone:
		runErr = msgerr.Errorf("serve: http: %w", err)
	case err := <-projDone:
		projDone <- err
		runErr = msgerr.Errorf("serve: live projection stopped: %w", err)
	}

	grace, cancel := context.WithTimeout(context.Background(), o.grace)
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
	fmt.Fprintf(a.stdout, "journal serve: stopped at sequence %d, checkpoint at %d\n", stats.Position, stats.CheckpointSeq)
	return runErr
}

// serveProjectors returns the live projection of the journal in st: one
// projector over the stream for a journal of one partition (checkpoint
// keys "position" and "campaign.<id>", as always), one per partition for
// more, projector p over partition p's stream alone with its checkpoint
// keys under "partition-<p>." (live.PartitionKV).
func serveProjectors(st web.Store, kv live.KV, opts live.Options) (*live.Group, error) {
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

// serveJetStream returns the JetStream context for the checkpoint bucket,
// and the journal's replicas (openStore's, for a new bucket; an existing
// one keeps its own): the embedded server's, or a connection of its own
// to --nats (closed by a.close).
func (a *app) serveJetStream() (jetstream.JetStream, int, error) {
	if a.srv != nil {
		return a.srv.JetStream(), a.jsReplicas, nil
	}
	nc, err := nats.Connect(a.natsURL, nats.Name("journal serve"), nats.Timeout(5*time.Second))
	if err != nil {
		return nil, 0, msgerr.Errorf("connect to NATS at %s: %w", redactURLs(a.natsURL), err)
	}
	a.closers = append(a.closers, nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, 0, err
	}
	return js, a.jsReplicas, nil
}
