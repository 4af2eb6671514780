package serve

import (
	"context"
	"log/slog"
	"strconv"

	"github.com/nats-io/nats.go"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/jetstore"
	"github.com/campaign-journal/journal/feed"
	"github.com/campaign-journal/journal/web"
)

// natsFeed returns the live projection's OnFeed of the server: it
// publishes every event the projection carries on the core-NATS feed
// access.FeedSubject(campaign), on nc, the journal's own connection (the
// only one allowed to publish there), with the CloudEvent as its body
// (events.Encode: what Append stored for every event this codec wrote)
// and the headers access.FeedSeqHeader (the stream sequence: a history
// read resumes from it plus one), Content-Type access.FeedContentType and
// events.HeaderType.
//
// It runs in the projector's goroutine, after the fold, never in the
// stream's: core NATS takes the message into the connection's buffer and
// waits for no subscriber. A failed publish (a connection closed or over
// its reconnect buffer) is logged and the event skipped: followers of
// the feed find it by a history read, from the sequences they see.
// The feed carries what is recorded while serve runs: an event at or below
// its partition's last sequence when serve started (since, a projection
// restored from its checkpoint or folding the stream from the start
// goes over them again) is not published, so a restart does not replay
// the history on core NATS; followers read it with a history request.
// startLast holds each partition's last sequence at start, by partition
// (events.Partition of the campaign among len(startLast)).
func natsFeed(nc *nats.Conn, logger *slog.Logger, startLast []uint64) func(*feed.Event) {
	return func(ev *feed.Event) {
		if k := len(startLast); k > 0 && ev.Seq <= startLast[events.Partition(ev.Campaign, k)] {
			return
		}
		m := &nats.Msg{Subject: access.FeedSubject(ev.Campaign), Data: ev.Doc, Header: nats.Header{}}
		m.Header.Set(access.FeedSeqHeader, strconv.FormatUint(ev.Seq, 10))
		m.Header.Set("Content-Type", access.FeedContentType)
		m.Header.Set(events.HeaderType, ev.Type)
		if err := nc.PublishMsg(m); err != nil {
			logger.Warn("live feed: publish on NATS failed; event skipped", "subject", m.Subject, "seq", ev.Seq, "err", err)
		}
	}
}

// partitionLasts returns the last sequence of each of st's partitions'
// streams (one for a journal of one partition), for natsFeed.
func partitionLasts(ctx context.Context, st web.Store) ([]uint64, error) {
	js, ok := st.(*jetstore.Store)
	if !ok || js.Partitions() <= 1 {
		last, err := st.Last(ctx, events.AllFilter)
		return []uint64{last}, err
	}
	lasts := make([]uint64, js.Partitions())
	for p := range lasts {
		last, err := js.Partition(p).Last(ctx, events.AllFilter)
		if err != nil {
			return nil, err
		}
		lasts[p] = last
	}
	return lasts, nil
}
