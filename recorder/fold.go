// Package recorder is the command line's record path without its wiring:
// one invocation's fold of a campaign (Fold), the state before what its
// commands recorded to describe them on (Fold.StateBefore, CatchUpTo),
// the retry of a command whose outcome a timeout left unknown (Retry),
// and the report of what the commands recorded, as text or as the JSON
// of --json (Describe, Text, Document). The cobra commands, the flags and
// the journal's opening stay in cmd/journal.
//
// Invariants:
//   - One fold per invocation: Fold.Current folds the campaign the first
//     time a command asks and returns that same state until a command
//     records (Fold.Moved) or the caller asks afresh (Fold.Drop). The
//     state is shared: read it, never change it.
//   - What commands recorded is described on the state the first of them
//     was decided on, caught up with what another writer recorded in
//     between (CatchUpTo); else on a fold up to them; never on a state
//     past them (a void among the tail folds instead).
//   - A retry runs the command again under the same request id, so that
//     the journal records it at most once; only an unknown outcome (a
//     timeout, never a cancellation by the user) is retried, and at most
//     attempts times in all, each retry with one warning.
//   - The report is the CLI's output, byte for byte: one transcript line
//     per event with its event id and sequence, or the JSON document of
//     Document; a request run again says so once ("rec.repeated").
//   - No cobra and no flags: the package imports no part of the command
//     line.
package recorder

import (
	"context"
	"errors"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/projections"
)

// Journal is what a Fold folds a campaign through: the journal's command
// handler (command.Handler).
type Journal interface {
	// Load folds the campaign up to sequence upTo (0: now).
	Load(ctx context.Context, campaign string, upTo uint64) (*projections.Campaign, error)
	// Current is the campaign's state now, the journal's cached fold that
	// the next command decides on.
	Current(ctx context.Context, campaign string) (*projections.Campaign, error)
}

// Reader reads the store's messages (events.Store's Read): CatchUpTo reads
// the tail of a campaign through it.
type Reader interface {
	Read(ctx context.Context, q events.Query, fn func(events.Recorded) error) error
}

// Fold is one invocation's fold of a campaign, and the state before the
// commands it recorded since its last report. The zero Fold holds none.
type Fold struct {
	// camp is this invocation's fold of the campaign, as Current returned
	// it (nil: not asked for since the last command recorded); before is
	// the state the commands recorded since the last report were decided
	// on, to describe what they recorded (Moved, StateBefore).
	camp, before *projections.Campaign
}

// Current returns the campaign's state now: this invocation's one fold
// of it (Journal.Current), made the first time a command asks and kept
// until a command records. The command that runs next decides on the
// journal's own cached fold, the same state, without reading the campaign
// again; what it records is described on this state (StateBefore). The
// state is shared: read it, never change it. readOnly (a command that
// only reads) folds with Load: no command follows, no cache to fill,
// nothing to copy.
func (f *Fold) Current(ctx context.Context, j Journal, campaign string, readOnly bool) (*projections.Campaign, error) {
	if f.camp != nil && f.camp.ID == campaign {
		return f.camp, nil
	}
	var c *projections.Campaign
	var err error
	if readOnly {
		c, err = j.Load(ctx, campaign, 0) // no command follows: no cache to fill, nothing to copy
	} else {
		c, err = j.Current(ctx, campaign)
	}
	if err != nil {
		return nil, err
	}
	f.camp = c
	return c, nil
}

// Drop forgets the state Current returned, so that the next Current
// catches up with the stream (a follow that waits for others' events asks
// again); the state kept before the commands recorded stays.
func (f *Fold) Drop() { f.camp = nil }

// Moved notes that a command recorded: the state Current returned is now
// the state before it (kept, to describe what it recorded, unless a state
// before an earlier command of this report is kept already), and the next
// look at the campaign catches up with the stream.
func (f *Fold) Moved() {
	if f.before == nil {
		f.before = f.camp
	}
	f.camp = nil
}

// StateBefore returns the campaign's state before the first of recs (all
// of one campaign, in stream order), to describe them on, and forgets it:
// the state the command was decided on (this invocation's fold, kept by
// Moved) caught up through st with what another writer recorded between
// it and them, the tail read from the stream; else (nothing kept, a state
// past them: a request run again returns what it recorded earlier, a void
// among the tail) a fold up to them. The state is the caller's: the
// report folds recs into it.
func (f *Fold) StateBefore(ctx context.Context, j Journal, st Reader, campaign string, recs []events.Recorded) *projections.Campaign {
	pre := f.before
	f.before = nil
	if len(recs) == 0 {
		if pre != nil {
			return pre
		}
		return projections.NewCampaign(campaign)
	}
	first := recs[0].Seq
	if pre != nil && pre.ID == campaign && pre.LastSeq < first && CatchUpTo(ctx, st, pre, first-1) == nil {
		return pre
	}
	if first > 1 {
		if b, err := j.Load(ctx, campaign, first-1); err == nil {
			return b
		}
	}
	return projections.NewCampaign(campaign)
}

// CatchUpTo folds into c the campaign's messages after c.LastSeq up to
// sequence to, read through st; nothing is read when there is none
// (c.LastSeq == to). A void of an event c had folded (a refold needed) is
// an error: c is then not the state, and is left to the caller to drop.
// No store (st nil) is an error too.
func CatchUpTo(ctx context.Context, st Reader, c *projections.Campaign, to uint64) error {
	if c.LastSeq >= to {
		return nil
	}
	if st == nil {
		return errNoStore
	}
	filter, err := events.CampaignFilter(c.ID)
	if err != nil {
		return err
	}
	q := events.Query{Subject: filter, From: c.LastSeq + 1, To: to, OnForeign: func(f events.Foreign) error {
		c.LastSeq = max(c.LastSeq, f.Seq)
		return nil
	}}
	if err := st.Read(ctx, q, c.Apply); err != nil {
		return err
	}
	if c.RefoldNeeded {
		return errNoStore
	}
	return nil
}

// errNoStore: CatchUpTo could not bring a state up to date (StateBefore
// folds instead).
var errNoStore = errors.New("journal: the state cannot be caught up")
