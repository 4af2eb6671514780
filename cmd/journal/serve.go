package main

import (
	"context"
	"time"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/live"
	"github.com/campaign-journal/journal/serve"
	"github.com/campaign-journal/journal/web"
)

func (a *app) serveCommand() *cobra.Command {
	var o serve.Options
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
	f.StringVar(&o.HTTPAddr, "http", "127.0.0.1:8080", "address of the HTTP API, dashboard and metrics (a loopback one unless --access is given)")
	f.StringVar(&o.NATSListen, "nats-listen", "", "open the embedded NATS server to the access file's users on this address (e.g. 127.0.0.1:4222); needs --access")
	f.IntVar(&o.Every, "checkpoint-every", 1000, "checkpoint the projections after this many events")
	f.DurationVar(&o.Interval, "checkpoint-interval", 5*time.Second, "checkpoint the projections at least this often while events arrive")
	f.DurationVar(&o.Grace, "shutdown-grace", 15*time.Second, "how long requests in flight may take to finish on shutdown")
	f.StringSliceVar(&o.PublicHosts, "public-host", nil,
		"a host name (or IP), optionally with :port, that browsers reach the journal by through a proxy, a port mapping or DNS; accepted in Host besides localhost, the loopback and listening addresses (repeatable; needs --access)")
	return cmd
}

// serve runs a journal server (package serve) over the store of --data
// or --nats, shared by this process, until ctx ends (SIGINT or SIGTERM);
// the store is closed by a.close.
func (a *app) serve(ctx context.Context, o serve.Options) error {
	o.NATSURL = a.natsURL
	if err := serve.CheckListen(o); err != nil {
		return err
	}
	if err := a.loadAccess(); err != nil {
		return err
	}
	o.Access, o.AccessFile = a.access, a.accessFile
	if err := serve.Check(ctx, o); err != nil {
		return err
	}
	opened, err := a.openStore(ctx, true, o.NATSListen)
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
	o.Actor = envOr("JOURNAL_ACTOR", "api")
	o.Devices, o.Lang, o.DefaultLang = a.devices(), a.pageLang(), a.language()
	o.Stdout, o.Stderr, o.Warn, o.HTTPInfo = a.stdout, a.stderr, a.warnf, a.writeHTTPInfo
	return serve.Run(ctx, o, serve.Journal{Store: st, Embedded: a.srv, Conn: a.nc, DataDir: a.dataDir, Replicas: a.jsReplicas})
}
