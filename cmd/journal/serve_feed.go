package main

import (
	"log/slog"
	"strconv"

	"github.com/nats-io/nats.go"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/feed"
)

// natsFeed returns the live projection's OnFeed of `journal serve`: it
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
// After a restart the feed carries the events from where the projection
// resumes, so a follower may see an event twice: it keeps the highest
// sequence seen.
func natsFeed(nc *nats.Conn, logger *slog.Logger) func(*feed.Event) {
	return func(ev *feed.Event) {
		m := &nats.Msg{Subject: access.FeedSubject(ev.Campaign), Data: ev.Doc, Header: nats.Header{}}
		m.Header.Set(access.FeedSeqHeader, strconv.FormatUint(ev.Seq, 10))
		m.Header.Set("Content-Type", access.FeedContentType)
		m.Header.Set(events.HeaderType, ev.Type)
		if err := nc.PublishMsg(m); err != nil {
			logger.Warn("live feed: publish on NATS failed; event skipped", "subject", m.Subject, "seq", ev.Seq, "err", err)
		}
	}
}
