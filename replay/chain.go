package replay

// The campaign's chain (events/chain.go; docs/design.md §3.2 "Chain", §3.3
// "One chain per campaign, from its first event"), checked on the stored
// bytes the input gives (Input: an export's line, a stream's message),
// never on a re-encoding:
//
//   - The chain of a campaign begins at the first of its events in the
//     input that carries prevhash (a campaign created since every event is
//     chained: its second event), at its chain anchor, or at its first
//     journal-dice-v2 session's start (a campaign of an earlier journal,
//     chained from there). From there on every event of the campaign must
//     carry prevhash = hex(SHA-256(the stored bytes of the campaign's
//     previous event in the input)): an event without one (a stripped
//     chain), with another (an event dropped, inserted, reordered, edited
//     or re-spaced), or whose previous event has no stored bytes in the
//     input is a chain mismatch. Before, an event carries none.
//   - A chain anchor (journal.chain.anchored.v1) must be the campaign's
//     only one, and name the count of the campaign's events before it in
//     the input and the SHA-256 of their stored bytes, each followed by
//     "\n" (events.ChainAnchored): an input that does not hold every one
//     of them, or holds them changed, does not match it.
//
// An outsider cannot tell, from a file alone, a campaign of an earlier
// journal that was never chained (no v2 session, never appended to since)
// from a newer one stripped of every prevhash: that file verifies as the
// old campaign would (docs/trust.md).

import (
	"fmt"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/rules/dice"
)

// MismatchChain: an event of a chained campaign whose prevhash is not the
// hash of the stored bytes of the campaign's previous event in the input
// (an event dropped, inserted, reordered or edited), or that lacks one; or
// a chain anchor that does not cover the events before it.
const MismatchChain MismatchKind = "chain"

// chainState is what the Verifier keeps of a campaign's chain.
type chainState struct {
	// chained: the chain has begun; every event from here on carries
	// prevhash.
	chained bool
	// hasLast says the campaign has an event in the input before this one;
	// lastRaw is its stored bytes (nil: none given), lastID its id.
	hasLast bool
	lastRaw []byte
	lastID  string
	// anchor hashes the campaign's events in the input until its anchor
	// (anchored), for the anchor to be checked against; unstored counts
	// those without stored bytes.
	anchor   *events.AnchorHash
	anchored bool
	unstored int
}

// begins reports whether ev begins its campaign's chain: it carries
// prevhash, or it is a chain anchor or a journal-dice-v2 session's start.
func begins(ev events.Event) bool {
	return ev.PrevHash != "" || ev.Type == events.TypeChainAnchored || isV2Start(ev)
}

// isV2Start reports whether ev is the start of a journal-dice-v2 session.
func isV2Start(ev events.Event) bool {
	if ev.Type != events.TypeSessionStarted {
		return false
	}
	p, err := ev.Payload()
	if err != nil {
		return false
	}
	d, ok := p.(*events.SessionStarted)
	return ok && d.Algorithm == dice.AlgorithmV2
}

// checkChain checks rec's place in its campaign's chain (see the top of
// the file) and records any mismatch.
func (v *Verifier) checkChain(c *campaign, m Mismatch, rec events.Recorded) {
	if !c.v2 && isV2Start(rec.Event) {
		c.v2 = true
	}
	for _, what := range c.chain.check(rec) {
		m.Kind, m.What = MismatchChain, what
		v.record(v.sessionOf(rec.Event), m)
	}
}

// check checks rec, the campaign's next event in the input, and returns
// what is wrong with its place in the chain (nothing: it holds).
func (ch *chainState) check(rec events.Recorded) []string {
	ev := rec.Event
	var out []string
	bad := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	defer func() {
		if !ch.anchored {
			if ch.anchor == nil {
				ch.anchor = events.NewAnchorHash()
			}
			ch.anchor.Add(rec.Raw)
			if rec.Raw == nil {
				ch.unstored++
			}
		}
		ch.hasLast, ch.lastRaw, ch.lastID = true, rec.Raw, ev.ID
	}()
	if ev.Type == events.TypeChainAnchored {
		ch.checkAnchor(ev, bad)
	}
	if !ch.chained && !begins(ev) {
		return out
	}
	ch.chained = true
	switch {
	case !ch.hasLast && ev.PrevHash == "":
		return out // the campaign's first event in the input: nothing before it to name
	case !ch.hasLast:
		bad("prevhash %s, but the event is the campaign's first in the input: events before it are missing", ev.PrevHash)
		return out
	case ch.lastRaw == nil:
		bad("the previous event %s has no stored bytes in the input to check this event's prevhash against", ch.lastID)
		return out
	}
	want := events.ChainHash(ch.lastRaw)
	switch {
	case ev.PrevHash == want:
	case ev.PrevHash == "":
		bad("no prevhash in a chained campaign: the previous event %s hashes to %s (a chain stripped, or an event inserted)", ch.lastID, want)
	default:
		bad("prevhash %s is not the hash %s of the stored bytes of the previous event %s: the chain is broken (an event dropped, inserted, reordered, changed or re-spaced)", ev.PrevHash, want, ch.lastID)
	}
	return out
}

// checkAnchor checks a chain anchor against the campaign's events before
// it in the input.
func (ch *chainState) checkAnchor(ev events.Event, bad func(string, ...any)) {
	if ch.anchored {
		bad("a second chain anchor: the campaign's chain was anchored before")
		return
	}
	ch.anchored = true
	var d events.ChainAnchored
	if err := ev.DecodeData(&d); err != nil {
		return // reported as a fold error
	}
	if ch.anchor == nil {
		ch.anchor = events.NewAnchorHash()
	}
	got := ch.anchor.Anchor()
	switch {
	case ch.unstored > 0:
		bad("%d of the campaign's events before the anchor have no stored bytes in the input to check it against", ch.unstored)
	case d.Events != got.Events:
		bad("the anchor covers %d earlier events, the input holds %d of the campaign before it: events are missing or added", d.Events, got.Events)
	case d.Hash != got.Hash:
		bad("the anchor's hash %s is not %s, the hash of the stored bytes of the campaign's %d events before it: one of them was changed", d.Hash, got.Hash, got.Events)
	}
}

// ChainChecker checks, one event at a time in stream order, each event's
// place in its campaign's chain — what Verify checks of the chain, alone —
// for a reader that shows the events and says where a chain breaks
// (journal log). The zero value is ready to use; it is not safe for
// concurrent use.
type ChainChecker struct {
	campaigns map[string]*chainState
}

// Check checks rec, the next event of its campaign, and returns what is
// wrong with its place in the chain: nothing when it holds.
func (k *ChainChecker) Check(rec events.Recorded) []string {
	if k.campaigns == nil {
		k.campaigns = map[string]*chainState{}
	}
	ch := k.campaigns[rec.Event.Campaign]
	if ch == nil {
		ch = &chainState{}
		k.campaigns[rec.Event.Campaign] = ch
	}
	return ch.check(rec)
}
