// Package healthcheck is the probe of `journal healthcheck`: it GETs the
// /healthz of a running journal serve, with a bound on the wait, and
// reports the code and status it answered; and the file (InfoFile) by
// which a serve tells the probe of its data folder where it listens.
//
// Invariants:
//   - The probe follows no redirect and waits at most Timeout.
//   - InfoFile is written whole (a temporary file renamed, mode 0600) and
//     names a dialable address: an unspecified IP becomes the loopback one.
package healthcheck

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/campaign-journal/journal/internal/msgerr"
)

// Timeout bounds the whole probe, so that a container's HEALTHCHECK never
// hangs on a server that accepts and never answers.
const Timeout = 10 * time.Second

// Report is what `journal healthcheck` prints: the status the server
// gave, and the HTTP code.
type Report struct {
	URL    string `json:"url"`
	Code   int    `json:"code"`
	Status string `json:"status,omitempty"`
	Lag    uint64 `json:"lag"`
}

// Probe asks target (an http:// or https:// URL) once, following no
// redirect. Its error is that of a probe without an answer (a bad URL, no
// server, no answer within Timeout); an answer that is not 200 is
// Report.Err.
func Probe(ctx context.Context, target string) (Report, error) {
	u, err := url.Parse(target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return Report{}, msgerr.Errorf("healthcheck: --url %q: want an http:// or https:// URL", target)
	}
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return Report{}, msgerr.Errorf("healthcheck: %w", err)
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		return Report{}, msgerr.Errorf("healthcheck: %w", err)
	}
	defer resp.Body.Close()
	rep := Report{URL: u.String(), Code: resp.StatusCode}
	var body struct {
		Status string `json:"status"`
		Lag    uint64 `json:"lag"`
	}
	if b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20)); err == nil && json.Unmarshal(b, &body) == nil {
		rep.Status, rep.Lag = body.Status, body.Lag
	}
	return rep, nil
}

// WriteText writes the report's one line.
func (r Report) WriteText(w io.Writer) {
	fmt.Fprintf(w, "journal healthcheck: %s answered %d %s (lag %d)\n", r.URL, r.Code, r.Status, r.Lag)
}

// Err is nil when the server answered 200 (ok, degraded or lagging).
func (r Report) Err() error {
	if r.Code != http.StatusOK {
		return msgerr.Errorf("healthcheck: %s answered %d, not 200", r.URL, r.Code)
	}
	return nil
}
