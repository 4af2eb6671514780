package main

import (
	"context"
	"time"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/serve"
	"github.com/campaign-journal/journal/web"
)

func (a *app) serveCommand() *cobra.Command {
	var o serve.Options
	cmd := &cobra.Command{
		Use:   "serve [--http ADDR] [--nats-listen ADDR]",
		Short: "Run the HTTP API, the live dashboard and the metrics, with projections kept live",
		Args:  cobra.NoArgs,
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
