package reproduce

import (
	"context"
	"slices"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/replay"
)

// Report re-runs recorded commands; what differs is a replay.Mismatch of one
// of these kinds.
const (
	// MismatchReproduced: the re-run command produced the event with other
	// contents (faces, totals, outcomes, …): What lists each field.
	MismatchReproduced replay.MismatchKind = "reproduced"
	// MismatchNotReproduced: a recorded event the re-run command did not produce.
	MismatchNotReproduced replay.MismatchKind = "not-reproduced"
	// MismatchExtra: an event the re-run command produced that is not recorded.
	MismatchExtra replay.MismatchKind = "extra"
	// MismatchRefused: the command was refused on re-run; the recorded events
	// are copied into the reproduction so that it can go on.
	MismatchRefused replay.MismatchKind = "refused"
	// MismatchUnmapped: recorded events that no command produces in that
	// shape; they are copied into the reproduction so that it can go on.
	MismatchUnmapped replay.MismatchKind = "unmapped"
	// MismatchSheet: a final character sheet that differs between the
	// recorded events and the reproduction.
	MismatchSheet replay.MismatchKind = "sheet"
	// MismatchUnknownRules: recorded rolls of a rules version this journal
	// has no judge for (rolls.Known): their command is not re-run under
	// other rules, and the recorded events are copied.
	MismatchUnknownRules replay.MismatchKind = "unknown-rules"
)

// Status is the verdict of reproducing one session.
type Status string

// The verdicts of a reproduced session.
const (
	// StatusIdentical: every command of the session, re-run with its seed,
	// produced exactly the recorded events.
	StatusIdentical Status = "identical"
	// StatusDifferent: at least one difference.
	StatusDifferent Status = "different"
	// StatusUnrevealed: the session's seed is not known (not yet ended and
	// none given), so it was not re-run. Not a failure.
	StatusUnrevealed Status = "not yet revealed"
)

// Report is what re-running the recorded commands gave.
type Report struct {
	Sessions  []Session  `json:"sessions"`
	Campaigns []Campaign `json:"campaigns"`
	// Mismatches are the differences outside any session (campaign set-up,
	// rests between sessions) and the final sheets that differ.
	Mismatches []replay.Mismatch `json:"mismatches"`
	Omitted    int               `json:"omitted,omitempty"`
	Totals     Totals            `json:"totals"`
}

// Session is the verdict on one session.
type Session struct {
	Campaign string `json:"campaign"`
	Session  string `json:"session"`
	Status   Status `json:"status"`
	// SeedSource is "revealed" (the session-ended event) or "given"
	// (replay.Options.Seeds), or "" when the seed is unknown.
	SeedSource string `json:"seed_source,omitempty"`
	// Commands counts the commands re-run; Events the recorded events
	// compared; Rolls the rolls compared nonce by nonce, Identical those
	// reproduced exactly.
	Commands   int               `json:"commands"`
	Events     int               `json:"events"`
	Rolls      int               `json:"rolls"`
	Identical  int               `json:"rolls_identical"`
	Mismatches []replay.Mismatch `json:"mismatches"`
	Omitted    int               `json:"omitted,omitempty"`
}

// Campaign sums up one campaign's reproduction: how far it went,
// the final sheets, and the transcript of what was reproduced.
type Campaign struct {
	Campaign string `json:"campaign"`
	System   string `json:"system,omitempty"`
	// Events counts the campaign's recorded events read; Reproduced those
	// re-run (and compared), Copied those copied as recorded (unmapped or
	// refused), Skipped those after where the reproduction stopped.
	Events     int `json:"events"`
	Commands   int `json:"commands"`
	Reproduced int `json:"reproduced"`
	Copied     int `json:"copied"`
	Skipped    int `json:"skipped"`
	// Stopped says why the reproduction stopped before the last event.
	Stopped string `json:"stopped,omitempty"`
	// stopKey and stopArgs are Stopped as a catalogue message, to write it
	// in any language (empty when read from JSON).
	stopKey  i18n.Key
	stopArgs []any
	// Characters counts the final sheets compared; SheetsIdentical says
	// whether they all agree.
	Characters      int  `json:"characters"`
	SheetsIdentical bool `json:"sheets_identical"`
	// Transcript is the reproduced journal's transcript (of replay.Options.Session
	// only, when set).
	Transcript []projections.Line `json:"transcript"`
}

// stop says why the reproduction of the campaign stopped: Stopped in
// English, the message kept for StoppedIn.
func (c *Campaign) stop(key i18n.Key, args ...any) {
	c.Stopped, c.stopKey, c.stopArgs = i18n.EN.T(key, args...), key, args
}

// StoppedIn is Stopped in l.
func (c Campaign) StoppedIn(l i18n.Lang) string {
	if c.stopKey == "" {
		return c.Stopped
	}
	return l.T(c.stopKey, c.stopArgs...)
}

// Totals sum a reproduction up.
type Totals struct {
	Events             int `json:"events"`
	Commands           int `json:"commands"`
	Reproduced         int `json:"reproduced"`
	Copied             int `json:"copied"`
	Skipped            int `json:"skipped"`
	Rolls              int `json:"rolls"`
	RollsIdentical     int `json:"rolls_identical"`
	Sessions           int `json:"sessions"`
	SessionsIdentical  int `json:"sessions_identical"`
	SessionsDifferent  int `json:"sessions_different"`
	SessionsUnrevealed int `json:"sessions_unrevealed"`
	// Mismatches counts every difference, omitted ones included.
	Mismatches int `json:"mismatches"`
}

// OK reports whether the reproduction found no difference. Sessions not yet
// revealed do not make it fail.
func (r Report) OK() bool { return r.Totals.Mismatches == 0 }

// Reproduce re-runs the recorded commands of src into a fresh in-memory
// journal (events/memstore and package command) and compares what they
// produce with what was recorded, event by event and roll by roll (nonce,
// faces, totals, outcomes, every field), and the final character sheets.
//
// Each recorded event is mapped back to the command that produced it;
// events one command produced are consecutive, share a time and end with
// the command's closing event (a contest after its two rolls, an attack
// after its attack roll, damage roll and damage). A session is re-run with
// its revealed seed (or the one replay.Options.Seeds gives), which the fresh
// journal's StartSession draws as its seed. The re-run commands are given
// the recorded times, event ids and actors — inputs, not results — so that
// a faithful journal reproduces every event exactly.
//
// With replay.Options.Session the campaign holding that session is re-run from its
// start to that session's end, and the transcript is that session's.
// A campaign stops at a session whose seed is not known: that session is
// "not yet revealed", which is not a failure. A command refused on re-run,
// or events that map to no command, are differences; their recorded events
// are copied into the reproduction so that it can go on.
//
// Unlike Verify, Reproduce reads src once and keeps the events (and the
// reproduction) in memory. The error is src's, ctx's, a bad option, or
// replay.ErrNotFound for a session not in src.
func Run(ctx context.Context, src replay.Source, opts replay.Options) (Report, error) {
	r, err := newReproducer(opts)
	if err != nil {
		return Report{}, err
	}
	var order []string
	byCampaign := map[string][]rec{}
	pos := 0
	err = src(ctx, replay.EventsOnly(func(x events.Recorded) error {
		pos++
		id := x.Event.Campaign
		if opts.Campaign != "" && id != opts.Campaign {
			return nil
		}
		if _, ok := byCampaign[id]; !ok {
			order = append(order, id)
		}
		byCampaign[id] = append(byCampaign[id], rec{Recorded: x, pos: pos})
		return nil
	}))
	if err != nil {
		return Report{}, err
	}
	found := opts.Session == ""
	for _, id := range order {
		evs := byCampaign[id]
		if opts.Session != "" && !slices.ContainsFunc(evs, func(x rec) bool {
			return x.Event.Type == events.TypeSessionStarted && x.Event.Session == opts.Session
		}) {
			continue
		}
		found = true
		if err := r.campaign(ctx, id, evs); err != nil {
			return Report{}, err
		}
	}
	if !found {
		return Report{}, msgerr.Errorf("%w: no session %s in the input", replay.ErrNotFound, opts.Session)
	}
	return r.report(), nil
}

// rec is a recorded event and its place in the input (from 1).
type rec struct {
	events.Recorded
	pos int
}

// report assembles the Report.
func (r *reproducer) report() Report {
	out := Report{Sessions: []Session{}, Campaigns: r.campaigns, Mismatches: r.global, Omitted: r.omitted}
	if out.Campaigns == nil {
		out.Campaigns = []Campaign{}
	}
	if out.Mismatches == nil {
		out.Mismatches = []replay.Mismatch{}
	}
	t := &out.Totals
	for _, s := range r.sessions {
		if r.opts.Session != "" && s.Session != r.opts.Session && len(s.Mismatches) == 0 && s.Omitted == 0 {
			// Sessions before the one asked for are re-run to rebuild its
			// state; they are listed only when they differ.
			continue
		}
		switch {
		case len(s.Mismatches) > 0 || s.Omitted > 0:
			s.Status = StatusDifferent
			t.SessionsDifferent++
		case s.Status == StatusUnrevealed:
			t.SessionsUnrevealed++
		default:
			s.Status = StatusIdentical
			t.SessionsIdentical++
		}
		t.Sessions++
		t.Rolls += s.Rolls
		t.RollsIdentical += s.Identical
		out.Sessions = append(out.Sessions, *s)
	}
	for _, c := range r.campaigns {
		t.Events += c.Events
		t.Commands += c.Commands
		t.Reproduced += c.Reproduced
		t.Copied += c.Copied
		t.Skipped += c.Skipped
	}
	t.Mismatches = r.total
	return out
}

// sessionKey is how Options.Seeds names a session of a campaign.
func sessionKey(campaign, session string) string { return campaign + "/" + session }

// clip shortens s to n bytes for messages.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
