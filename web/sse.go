package web

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/feed"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// wantsStream reports whether the client asks for Server-Sent Events.
func wantsStream(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept"), ",") {
		if mt, _, err := mime.ParseMediaType(strings.TrimSpace(part)); err == nil && mt == "text/event-stream" {
			return true
		}
	}
	return false
}

// Bounds of an event stream's writes and history reads.
const (
	// streamWriteTimeout bounds each write of an event stream: a client
	// that reads nothing for that long is cut off (it would otherwise
	// hold its slot, and a history read's, for ever).
	streamWriteTimeout = 30 * time.Second
	// historyReadsAtOnce bounds the history reads of event streams that
	// run at once (a long one may use a consumer of the server, deleted
	// after: Store.Read), so that many readers starting from the past
	// cannot pile up consumers.
	historyReadsAtOnce = 32
)

// streamEvents serves the campaign's events as Server-Sent Events: one
// CloudEvent (structured JSON, one line) per "data:" line, with "id:" its
// stream sequence. It starts after Last-Event-ID when the client resumes,
// else at ?from= (default: the first event), and follows new events until
// the client goes away, falls behind, its device is revoked, or the server
// shuts down. Comments keep an idle stream open through proxies.
//
// The stream costs the NATS server nothing of its own: it subscribes to
// the live projection's feed (live.Group.Subscribe) first, then reads what
// it asks for of the past from the store, up to the campaign's last
// sequence as it is when the read starts (a bounded read, at most
// historyReadsAtOnce of them at once), and then takes the feed, skipping
// what the read already sent: every event is sent once, in order. A
// reader that lets the feed's buffer fill up is closed with a comment
// saying so; the client reconnects with Last-Event-ID and resumes from the
// store. Streams are counted per user (per address without access
// control) and in all: one over MaxStreamsPerUser or MaxStreams is
// refused with 429.
func (s *Server) streamEvents(w http.ResponseWriter, r *http.Request) error {
	id, filter, err := campaignOf(r)
	if err != nil {
		return err
	}
	from, err := uintParam(r, "from")
	if err != nil {
		return err
	}
	if v := r.Header.Get("Last-Event-ID"); v != "" {
		last, err := strconv.ParseUint(strings.TrimSpace(v), 10, 64)
		if err != nil {
			return badRequest("Last-Event-ID %q: want the stream sequence of the last event received", v)
		}
		from = last + 1
	}
	ctx, cancel := context.WithCancelCause(r.Context())
	defer cancel(nil)
	stop := context.AfterFunc(s.streamsCtx, func() { cancel(errStreamShutdown) })
	defer stop()

	open, watch, err := s.streams.open(streamOwner(r), deviceOf(r), cancel)
	if err != nil {
		s.metrics.sseRefused.Inc()
		w.Header().Set("Retry-After", "10")
		return err
	}
	defer s.streams.close(open)
	if watch {
		go s.streams.watchRevoked(s.streamsCtx, s.opts.Devices, s.opts.RevokeCheck)
	}

	// Subscribe before asking the campaign's last sequence: whatever the
	// feed does not bring was folded before, so stored up to that last.
	sub := s.proj.Subscribe(id)
	defer sub.Close()
	last, err := s.campaignLast(ctx, id, filter)
	if err != nil {
		return err
	}

	s.metrics.sseClients.Inc()
	defer s.metrics.sseClients.Dec()

	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	// net/http buffers the response: flush sends it.
	out := deadlineWriter{w, rc}
	next := max(from, 1) // the next sequence to send
	fmt.Fprintf(out, "retry: 2000\n: following campaign %s from sequence %d\n\n", id, next)
	if err := flush(rc); err != nil {
		return nil
	}

	if next <= last {
		// Without To: a read up to the last sequence on the filter when it
		// starts (at least last) is checked to reach it on a replicated
		// stream, where one bounded by To may end short.
		err := s.readHistory(ctx, events.Query{Subject: filter, From: next}, func(rec events.Recorded) error {
			doc, err := events.Encode(rec.Event)
			if err != nil {
				return msgerr.Errorf("encode event %d: %w", rec.Seq, err)
			}
			if err := writeEvent(out, rec.Seq, doc); err != nil {
				return err
			}
			next = rec.Seq + 1
			return nil
		})
		if err != nil {
			if ctx.Err() == nil && !errors.Is(err, errStreamWrite) {
				s.opts.Logger.Error("event stream: history", "campaign", id, "err", err)
				fmt.Fprintf(out, ": stream failed: %s\n\n", strings.ReplaceAll(err.Error(), "\n", " "))
				_ = flush(rc)
			}
			return nil
		}
		next = max(next, last+1)
		if err := flush(rc); err != nil {
			return nil
		}
	}

	keepalive := time.NewTicker(s.opts.Keepalive)
	defer keepalive.Stop()
	for {
		select {
		case <-ctx.Done():
			if cause := context.Cause(ctx); errors.Is(cause, errStreamRevoked) || errors.Is(cause, errStreamShutdown) {
				fmt.Fprintf(out, ": closed: %s\n\n", cause)
				_ = flush(rc)
			}
			return nil
		case <-keepalive.C:
			fmt.Fprint(out, ": keepalive\n\n")
			if err := flush(rc); err != nil {
				return nil
			}
		case ev, ok := <-sub.Events():
			// Write what is waiting, then flush once.
			for ok {
				if ev.Seq >= next { // else the history read sent it
					if err := writeEvent(out, ev.Seq, ev.Doc); err != nil {
						if !errors.Is(err, errStreamWrite) {
							s.opts.Logger.Error("event stream", "campaign", id, "seq", ev.Seq, "err", err)
						}
						return nil
					}
					next = ev.Seq + 1
				}
				select {
				case ev, ok = <-sub.Events():
				default:
					ok = false
				}
			}
			if err := sub.Err(); err != nil {
				// Closed by the feed: too slow, or an event it cannot carry.
				if errors.Is(err, feed.ErrSlow) {
					s.metrics.sseSlow.Inc()
				} else {
					s.opts.Logger.Error("event stream: the live feed closed", "campaign", id, "err", err)
				}
				fmt.Fprintf(out, ": closed: %s; resume with Last-Event-ID\n\n", err)
				_ = flush(rc)
				return nil
			}
			if err := flush(rc); err != nil {
				return nil
			}
		}
	}
}

// readHistory reads q from the store for an event stream, once one of the
// historyReadsAtOnce slots is free.
func (s *Server) readHistory(ctx context.Context, q events.Query, fn func(events.Recorded) error) error {
	select {
	case s.historyReads <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-s.historyReads }()
	return s.opts.Store.Read(ctx, q, fn)
}

// errStreamWrite is a write to the client that failed: it went away, or
// read nothing for streamWriteTimeout.
var errStreamWrite = msgerr.New("event stream: write")

// writeEvent writes one event of the stream: its sequence and document.
func writeEvent(out io.Writer, seq uint64, doc []byte) error {
	if bytes.ContainsAny(doc, "\r\n") {
		return msgerr.Errorf("event %d encodes on more than one line", seq)
	}
	if _, err := fmt.Fprintf(out, "id: %d\ndata: %s\n\n", seq, doc); err != nil {
		return msgerr.Errorf("%w: %w", errStreamWrite, err)
	}
	return nil
}

// deadlineWriter gives every write of an event stream streamWriteTimeout.
type deadlineWriter struct {
	w  io.Writer
	rc *http.ResponseController
}

func (d deadlineWriter) Write(b []byte) (int, error) {
	_ = d.rc.SetWriteDeadline(time.Now().Add(streamWriteTimeout))
	return d.w.Write(b)
}

func flush(rc *http.ResponseController) error {
	_ = rc.SetWriteDeadline(time.Now().Add(streamWriteTimeout))
	return rc.Flush()
}
