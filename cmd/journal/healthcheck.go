package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/spf13/cobra"
)

// DefaultHealthURL is where `journal healthcheck` asks by default: the
// /healthz of a `journal serve --http 0.0.0.0:8080` (or 127.0.0.1:8080) on
// the same machine or container.
const DefaultHealthURL = "http://127.0.0.1:8080/healthz"

// healthcheckTimeout bounds the whole question, so that a container's
// HEALTHCHECK never hangs on a server that accepts and never answers.
const healthcheckTimeout = 10 * time.Second

// healthReport is what `journal healthcheck` prints: the status the
// server gave, and the HTTP code.
type healthReport struct {
	URL    string `json:"url"`
	Code   int    `json:"code"`
	Status string `json:"status,omitempty"`
	Lag    uint64 `json:"lag"`
}

// healthcheckCommand is `journal healthcheck`: a probe for a container's
// HEALTHCHECK or a monitor, with no tool but the journal's binary (the
// image has no curl). It exits 0 only when /healthz answers 200.
func (a *app) healthcheckCommand() *cobra.Command {
	var target string
	cmd := &cobra.Command{
		Use:   "healthcheck [--url URL]",
		Short: "Ask a journal serve's /healthz; exit non-zero unless it answers 200",
		Long: `healthcheck GETs the /healthz of a running journal serve (` + DefaultHealthURL + `
by default) and exits 0 when it answers 200 (status ok, degraded or lagging),
1 otherwise: 503 (the live projection is stuck, or the store does not answer),
another code, no answer within 10 s, or no server. It opens no store and
needs no access file (/healthz is public). For a container's HEALTHCHECK.`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error { return a.healthcheck(c.Context(), target) },
	}
	cmd.Flags().StringVar(&target, "url", DefaultHealthURL, "the /healthz URL of the journal serve to ask")
	return cmd
}

func (a *app) healthcheck(ctx context.Context, target string) error {
	u, err := url.Parse(target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("healthcheck: --url %q: want an http:// or https:// URL", target)
	}
	ctx, cancel := context.WithTimeout(ctx, healthcheckTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return fmt.Errorf("healthcheck: %w", err)
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("healthcheck: %w", err)
	}
	defer resp.Body.Close()
	rep := healthReport{URL: u.String(), Code: resp.StatusCode}
	var body struct {
		Status string `json:"status"`
		Lag    uint64 `json:"lag"`
	}
	if b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20)); err == nil && json.Unmarshal(b, &body) == nil {
		rep.Status, rep.Lag = body.Status, body.Lag
	}
	if err := a.emit(rep, func(w io.Writer) {
		fmt.Fprintf(w, "journal healthcheck: %s answered %d %s (lag %d)\n", u, resp.StatusCode, rep.Status, rep.Lag)
	}); err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("healthcheck: %s answered %d, not 200", u, resp.StatusCode)
	}
	return nil
}
