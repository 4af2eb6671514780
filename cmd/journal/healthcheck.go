package main

import (
	"context"
	"net"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/healthcheck"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// DefaultHealthURL is the /healthz of a `journal serve --http 0.0.0.0:8080`
// (or 127.0.0.1:8080) on the same machine or container: the Dockerfile's
// HEALTHCHECK names it with --url.
const DefaultHealthURL = "http://127.0.0.1:8080/healthz"

// HTTPInfoFile is the file `journal serve` keeps in the data folder it owns
// while it runs (healthcheck.InfoFile).
const HTTPInfoFile = healthcheck.InfoFile

// httpInfo is the content of HTTPInfoFile.
type httpInfo = healthcheck.Info

// writeHTTPInfo writes HTTPInfoFile for the HTTP listener at addr, when
// serve owns an embedded data folder (with --nats there is none), and
// returns what removes it.
func (a *app) writeHTTPInfo(addr net.Addr) (remove func(), err error) {
	if a.srv == nil || a.srv.Remote() || a.dataDir == "" {
		return func() {}, nil
	}
	return healthcheck.WriteInfo(a.dataDir, addr)
}

// servedHealthURL is the /healthz of the serve running on the data folder,
// from its HTTPInfoFile.
func (a *app) servedHealthURL() (string, error) {
	if a.natsURL != "" {
		return "", msgerr.New("healthcheck: with --nats, no data folder names the serve to ask: give --url")
	}
	if err := a.resolveDataDir(); err != nil {
		return "", err
	}
	return healthcheck.ServedURL(a.dataDir)
}

// healthReport is what `journal healthcheck` prints (package healthcheck).
type healthReport = healthcheck.Report

// healthcheckCommand is `journal healthcheck`: a probe for a container's
// HEALTHCHECK or a monitor, with no tool but the journal's binary (the
// image has no curl). It exits 0 only when /healthz answers 200.
func (a *app) healthcheckCommand() *cobra.Command {
	var target string
	cmd := &cobra.Command{
		Use:   "healthcheck [--url URL]",
		Short: "Ask a journal serve's /healthz; exit non-zero unless it answers 200",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if !c.Flags().Changed("url") {
				served, err := a.servedHealthURL()
				if err != nil {
					return err
				}
				target = served
			}
			return a.healthcheck(c.Context(), target)
		},
	}
	cmd.Flags().StringVar(&target, "url", "", "the /healthz `URL` of the journal serve to ask (default: the serve of the --data folder)")
	return cmd
}

func (a *app) healthcheck(ctx context.Context, target string) error {
	rep, err := healthcheck.Probe(ctx, target)
	if err != nil {
		return err
	}
	if err := a.emit(rep, rep.WriteText); err != nil {
		return err
	}
	return rep.Err()
}
