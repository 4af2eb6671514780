package web

import (
	"context"
	"net/http"
	"time"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/live"
)

// healthLastTimeout bounds /healthz's question to the store for the
// stream's last sequence.
const healthLastTimeout = 2 * time.Second

// healthJSON is the body of /healthz.
type healthJSON struct {
	// Status is the live projection's health (live.Health*), or
	// "unavailable" when the store does not answer.
	Status     string `json:"status"`
	Position   uint64 `json:"position"`
	StreamLast uint64 `json:"stream_last"`
	Lag        uint64 `json:"lag"`
	// ProgressAt is when the projection last moved or was seen caught up.
	ProgressAt           time.Time    `json:"progress_at"`
	SinceProgressSeconds float64      `json:"since_progress_seconds"`
	StuckAfterSeconds    float64      `json:"stuck_after_seconds"`
	ForeignMessages      int          `json:"foreign_messages"`
	LastForeign          *foreignJSON `json:"last_foreign,omitempty"`
	FoldErrors           int          `json:"fold_errors"`
	CheckpointSeq        uint64       `json:"checkpoint_seq"`
	UptimeSeconds        int          `json:"uptime_seconds"`
	StoreError           string       `json:"store_error,omitempty"`
	// DeletedMessages and LostMessages are what the journal's streams say
	// they lost (events.Missing): sequences with no message, and messages
	// the server found damaged in its files. The streams deny deletes, so
	// any is a loss of the record: the status is then at least "degraded".
	DeletedMessages uint64           `json:"deleted_messages"`
	LostMessages    uint64           `json:"lost_messages"`
	Missing         []events.Missing `json:"missing,omitempty"`
	// Partitions is each partition's projection, by partition, on a
	// journal of more than one partition (absent on one): the figures
	// above then sum theirs (position, stream_last, lag, …), and status
	// is the worst of theirs.
	Partitions []partitionJSON `json:"partitions,omitempty"`
}

// partitionJSON is one partition's projection in /healthz.
type partitionJSON struct {
	Partition     int    `json:"partition"`
	Status        string `json:"status"`
	Position      uint64 `json:"position"`
	StreamLast    uint64 `json:"stream_last"`
	Lag           uint64 `json:"lag"`
	CheckpointSeq uint64 `json:"checkpoint_seq"`
}

// foreignJSON is a message of the stream that is not an event.
type foreignJSON struct {
	Seq     uint64 `json:"seq"`
	Subject string `json:"subject"`
	Reason  string `json:"reason"`
}

// health serves /healthz: the live projection's position against the
// stream's last sequence (asked of the store now), when it last moved,
// and what it skipped. It answers 503 when the projection is stuck
// (behind the stream and not moving for live.Options.StuckAfter) or the
// store does not answer, 200 otherwise: "ok", "degraded" (caught up, but
// it skipped messages that are not events or events its fold refused:
// see foreign_messages and fold_errors; or the streams lost messages:
// deleted_messages, lost_messages) or "lagging" (behind, moving).
func (s *Server) health(w http.ResponseWriter, r *http.Request) error {
	ctx, cancel := context.WithTimeout(r.Context(), healthLastTimeout)
	var lastErr error
	if s.proj.Partitions() == 1 {
		var last uint64
		if last, lastErr = s.opts.Store.Last(ctx, events.AllFilter); lastErr == nil {
			s.proj.Partition(0).NoteStreamLast(last)
		}
	} else {
		lastErr = s.proj.PollLast(ctx) // each partition's stream's last sequence
	}
	var missing []events.Missing
	if m, ok := s.opts.Store.(interface {
		Missing(ctx context.Context, filter string) ([]events.Missing, error)
	}); ok && lastErr == nil {
		missing, lastErr = m.Missing(ctx, events.AllFilter)
	}
	cancel()
	gh := s.proj.Health()
	h := gh.Health
	out := healthJSON{
		Status: h.Status, Position: h.Position, StreamLast: h.StreamLast, Lag: h.Lag(),
		ProgressAt: h.ProgressAt.UTC(), SinceProgressSeconds: h.SinceProgress.Seconds(), StuckAfterSeconds: h.StuckAfter.Seconds(),
		ForeignMessages: h.Foreign, FoldErrors: h.Failures, CheckpointSeq: h.CheckpointSeq,
		UptimeSeconds: int(s.opts.Clock().Sub(s.startedAt).Seconds()),
	}
	if f := h.LastForeign; f != nil {
		out.LastForeign = &foreignJSON{Seq: f.Seq, Subject: f.Subject, Reason: f.Err.Error()}
	}
	if len(gh.Partitions) > 1 {
		for i, ph := range gh.Partitions {
			out.Partitions = append(out.Partitions, partitionJSON{Partition: i, Status: ph.Status, Position: ph.Position,
				StreamLast: ph.StreamLast, Lag: ph.Lag(), CheckpointSeq: ph.CheckpointSeq})
		}
	}
	for _, m := range missing {
		out.DeletedMessages += m.Deleted
		out.LostMessages += m.Lost
		if m.Any() {
			out.Missing = append(out.Missing, m)
		}
	}
	if len(out.Missing) > 0 && out.Status == live.HealthOK {
		out.Status = live.HealthDegraded
	}
	code := http.StatusOK
	switch {
	case lastErr != nil:
		out.Status, out.StoreError, code = "unavailable", lastErr.Error(), http.StatusServiceUnavailable
	case h.Status == live.HealthStuck:
		code = http.StatusServiceUnavailable
	}
	return writeJSON(w, code, out)
}
