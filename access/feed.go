package access

import "github.com/campaign-journal/journal/events"

// FeedPrefix starts the journal's core-NATS live feed: `journal serve`
// publishes every event it folds, its stored bytes verbatim, on
// FeedSubject(campaign), from its live projection and outside the stream's
// goroutine. The feed is outside the stream's subjects (journal.>), so
// nothing published on it is ever taken for an event, and only the journal
// role may publish on it; every role may subscribe to its own campaign's
// (a gm or dashboard of "*" to every campaign's). Users follow a campaign
// with a subscription to its feed and page through its history with the
// command service's read (ReadCommand): they never reach the JetStream API.
const FeedPrefix = "journalfeed"

// FeedSubject is the subject of campaign's live feed: journalfeed.<campaign>.
// A campaign "*" gives the wildcard of every campaign's feed.
func FeedSubject(campaign string) string { return FeedPrefix + "." + campaign }

// Feed message headers, set on every message of the feed beside the
// CloudEvent in its body (Content-Type application/cloudevents+json).
const (
	// FeedSeqHeader is the event's stream sequence (decimal): the From of
	// a history read that resumes after it is that plus one.
	FeedSeqHeader = "Journal-Seq"
	// FeedContentType is the feed's and the history's Content-Type.
	FeedContentType = events.MediaType
)
