package web

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/campaign-journal/journal/events"
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

// streamBuffer is how many events may wait between the store's follower
// and a slow client before the follower waits too.
const streamBuffer = 256

// streamEvents serves the campaign's events as Server-Sent Events: one
// CloudEvent (structured JSON, one line) per "data:" line, with "id:" its
// stream sequence. It starts after Last-Event-ID when the client resumes,
// else at ?from= (default: the first event), and follows new events until
// the client goes away or the server shuts down. Comments keep an idle
// stream open through proxies.
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
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	stop := context.AfterFunc(s.streamsCtx, cancel)
	defer stop()

	if _, err := s.campaignLast(ctx, id, filter); err != nil {
		return err
	}

	rc := http.NewResponseController(w)
	_ = rc.SetWriteDeadline(time.Time{}) // a stream outlives any write timeout
	h := w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	out := bufio.NewWriter(w)
	fmt.Fprintf(out, "retry: 2000\n: following campaign %s from sequence %d\n\n", id, max(from, 1))
	if err := flush(out, rc); err != nil {
		return nil
	}
	s.metrics.sseClients.Inc()
	defer s.metrics.sseClients.Dec()

	recs := make(chan events.Recorded, streamBuffer)
	followed := make(chan error, 1)
	go func() {
		followed <- s.opts.Store.Follow(ctx, events.Query{Subject: filter, From: from}, func(rec events.Recorded) error {
			select {
			case recs <- rec:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		})
	}()
	keepalive := time.NewTicker(s.opts.Keepalive)
	defer keepalive.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case err := <-followed:
			if err != nil && ctx.Err() == nil && !errors.Is(err, context.Canceled) {
				s.opts.Logger.Error("event stream failed", "campaign", id, "err", err)
				fmt.Fprintf(out, ": stream failed: %s\n\n", strings.ReplaceAll(err.Error(), "\n", " "))
				_ = flush(out, rc)
			}
			return nil
		case <-keepalive.C:
			fmt.Fprint(out, ": keepalive\n\n")
			if err := flush(out, rc); err != nil {
				return nil
			}
		case rec := <-recs:
			// Write what is waiting, then flush once.
			for more := true; more; {
				if err := writeEvent(out, rec); err != nil {
					s.opts.Logger.Error("event stream: encode", "seq", rec.Seq, "err", err)
					return nil
				}
				select {
				case rec = <-recs:
				default:
					more = false
				}
			}
			if err := flush(out, rc); err != nil {
				return nil
			}
		}
	}
}

// writeEvent writes one event of the stream.
func writeEvent(out *bufio.Writer, rec events.Recorded) error {
	doc, err := events.Encode(rec.Event)
	if err != nil {
		return err
	}
	if strings.ContainsAny(string(doc), "\r\n") {
		return fmt.Errorf("event %s encodes on more than one line", rec.Event.ID)
	}
	fmt.Fprintf(out, "id: %d\ndata: %s\n\n", rec.Seq, doc)
	return nil
}

func flush(out *bufio.Writer, rc *http.ResponseController) error {
	if err := out.Flush(); err != nil {
		return err
	}
	return rc.Flush()
}
