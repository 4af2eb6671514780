package replay

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/memstore"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/rules/ryf"
)

// Reproduction re-runs recorded commands; what differs is a Mismatch of one
// of these kinds.
const (
	// MismatchReproduced: the re-run command produced the event with other
	// contents (faces, totals, outcomes, …): What lists each field.
	MismatchReproduced MismatchKind = "reproduced"
	// MismatchNotReproduced: a recorded event the re-run command did not produce.
	MismatchNotReproduced MismatchKind = "not-reproduced"
	// MismatchExtra: an event the re-run command produced that is not recorded.
	MismatchExtra MismatchKind = "extra"
	// MismatchRefused: the command was refused on re-run; the recorded events
	// are copied into the reproduction so that it can go on.
	MismatchRefused MismatchKind = "refused"
	// MismatchUnmapped: recorded events that no command produces in that
	// shape; they are copied into the reproduction so that it can go on.
	MismatchUnmapped MismatchKind = "unmapped"
	// MismatchSheet: a final character sheet that differs between the
	// recorded events and the reproduction.
	MismatchSheet MismatchKind = "sheet"
)

// ReproStatus is the verdict of reproducing one session.
type ReproStatus string

// The verdicts of a reproduced session.
const (
	// ReproIdentical: every command of the session, re-run with its seed,
	// produced exactly the recorded events.
	ReproIdentical ReproStatus = "identical"
	// ReproDifferent: at least one difference.
	ReproDifferent ReproStatus = "different"
	// ReproUnrevealed: the session's seed is not known (not yet ended and
	// none given), so it was not re-run. Not a failure.
	ReproUnrevealed ReproStatus = "not yet revealed"
)

// Reproduction is what re-running the recorded commands gave.
type Reproduction struct {
	Sessions  []ReproducedSession  `json:"sessions"`
	Campaigns []ReproducedCampaign `json:"campaigns"`
	// Mismatches are the differences outside any session (campaign set-up,
	// rests between sessions) and the final sheets that differ.
	Mismatches []Mismatch         `json:"mismatches"`
	Omitted    int                `json:"omitted,omitempty"`
	Totals     ReproductionTotals `json:"totals"`
}

// ReproducedSession is the verdict on one session.
type ReproducedSession struct {
	Campaign string      `json:"campaign"`
	Session  string      `json:"session"`
	Status   ReproStatus `json:"status"`
	// SeedSource is "revealed" (the session-ended event) or "given"
	// (Options.Seeds), or "" when the seed is unknown.
	SeedSource string `json:"seed_source,omitempty"`
	// Commands counts the commands re-run; Events the recorded events
	// compared; Rolls the rolls compared nonce by nonce, Identical those
	// reproduced exactly.
	Commands   int        `json:"commands"`
	Events     int        `json:"events"`
	Rolls      int        `json:"rolls"`
	Identical  int        `json:"rolls_identical"`
	Mismatches []Mismatch `json:"mismatches"`
	Omitted    int        `json:"omitted,omitempty"`
}

// ReproducedCampaign sums up one campaign's reproduction: how far it went,
// the final sheets, and the transcript of what was reproduced.
type ReproducedCampaign struct {
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
	// Characters counts the final sheets compared; SheetsIdentical says
	// whether they all agree.
	Characters      int  `json:"characters"`
	SheetsIdentical bool `json:"sheets_identical"`
	// Transcript is the reproduced journal's transcript (of Options.Session
	// only, when set).
	Transcript []projections.Line `json:"transcript"`
}

// ReproductionTotals sum a reproduction up.
type ReproductionTotals struct {
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
func (r Reproduction) OK() bool { return r.Totals.Mismatches == 0 }

// Reproduce re-runs the recorded commands of src into a fresh in-memory
// journal (events/memstore and package command) and compares what they
// produce with what was recorded, event by event and roll by roll (nonce,
// faces, totals, outcomes, every field), and the final character sheets.
//
// Each recorded event is mapped back to the command that produced it;
// events one command produced are consecutive, share a time and end with
// the command's closing event (a contest after its two rolls, an attack
// after its attack roll, damage roll and damage). A session is re-run with
// its revealed seed (or the one Options.Seeds gives), which the fresh
// journal's StartSession draws as its seed. The re-run commands are given
// the recorded times, event ids and actors — inputs, not results — so that
// a faithful journal reproduces every event exactly.
//
// With Options.Session the campaign holding that session is re-run from its
// start to that session's end, and the transcript is that session's.
// A campaign stops at a session whose seed is not known: that session is
// "not yet revealed", which is not a failure. A command refused on re-run,
// or events that map to no command, are differences; their recorded events
// are copied into the reproduction so that it can go on.
//
// Unlike Verify, Reproduce reads src once and keeps the events (and the
// reproduction) in memory. The error is src's, ctx's, a bad option, or
// ErrNotFound for a session not in src.
func Reproduce(ctx context.Context, src Source, opts Options) (Reproduction, error) {
	r, err := newReproducer(opts)
	if err != nil {
		return Reproduction{}, err
	}
	var order []string
	byCampaign := map[string][]rec{}
	pos := 0
	err = src(ctx, func(x events.Recorded) error {
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
	})
	if err != nil {
		return Reproduction{}, err
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
			return Reproduction{}, err
		}
	}
	if !found {
		return Reproduction{}, fmt.Errorf("%w: no session %s in the input", ErrNotFound, opts.Session)
	}
	return r.report(), nil
}

// rec is a recorded event and its place in the input (from 1).
type rec struct {
	events.Recorded
	pos int
}

type reproducer struct {
	opts  Options
	max   int
	given map[string]dice.Seed

	store *actorStore
	j     *command.Journal
	now   time.Time
	ids   *idQueue
	seeds *seedReader

	sessions  []*ReproducedSession
	bySession map[string]*ReproducedSession
	campaigns []ReproducedCampaign
	global    []Mismatch
	omitted   int
	total     int
}

func newReproducer(opts Options) (*reproducer, error) {
	r := &reproducer{
		opts: opts, max: opts.MaxMismatches, given: map[string]dice.Seed{},
		bySession: map[string]*ReproducedSession{}, seeds: &seedReader{},
	}
	if r.max <= 0 {
		r.max = DefaultMaxMismatches
	}
	for k, text := range opts.Seeds {
		s, err := dice.ParseSeed(strings.TrimSpace(text))
		if err != nil {
			return nil, fmt.Errorf("%w: seed of session %q: %w", ErrInvalidOptions, k, err)
		}
		r.given[k] = s
	}
	r.store = &actorStore{Store: memstore.New(memstore.Options{}), stored: map[string]bool{}}
	r.ids = &idQueue{stored: r.store.stored}
	r.j = command.New(r.store, command.Options{
		// The clock is read once per attempt of a command: each attempt
		// takes the recorded ids afresh.
		Clock: func() time.Time { r.ids.next = 0; return r.now },
		Rand:  r.seeds, IDs: r.ids, Actor: "gm",
	})
	return r, nil
}

// actorStore is the fresh journal's store: it records each event under the
// recorded actor of the command being re-run.
type actorStore struct {
	*memstore.Store
	actor  string
	stored map[string]bool
}

func (s *actorStore) Append(ctx context.Context, expect events.Expect, evs ...events.Event) ([]uint64, error) {
	out := make([]events.Event, len(evs))
	for i, e := range evs {
		e.Actor = s.actor
		out[i] = e
	}
	seqs, err := s.Store.Append(ctx, expect, out...)
	if err == nil {
		for _, e := range out {
			s.stored[e.ID] = true
		}
	}
	return seqs, err
}

// idQueue gives a re-run command the recorded ids of its events, in order,
// then (for events the record does not have) ids of its own.
type idQueue struct {
	ids    []string
	next   int
	extra  int
	stored map[string]bool
}

var reproduceNamespace = uuid.MustParse("6f1c2a64-5d3e-4b7a-9c1e-2f0a8b7d4e11")

func (q *idQueue) NewID() (string, error) {
	for q.next < len(q.ids) {
		id := q.ids[q.next]
		q.next++
		if !q.stored[id] {
			return id, nil
		}
	}
	q.extra++
	return uuid.NewSHA1(reproduceNamespace, []byte("extra-"+strconv.Itoa(q.extra))).String(), nil
}

// seedReader yields the seed of the session being started, once.
type seedReader struct{ b []byte }

func (s *seedReader) Read(p []byte) (int, error) {
	if len(s.b) == 0 {
		return 0, errors.New("no seed for this session")
	}
	n := copy(p, s.b)
	s.b = s.b[n:]
	return n, nil
}

// seedOf returns a session's seed: revealed in the input, else given.
func (r *reproducer) seedOf(campaign, session string, revealed map[string]string) (dice.Seed, string, error) {
	if text, ok := revealed[session]; ok {
		s, err := dice.ParseSeed(text)
		if err != nil {
			return dice.Seed{}, "", fmt.Errorf("the revealed seed %q is not %d hex digits", clip(text, 80), 2*dice.SeedSize)
		}
		return s, "revealed", nil
	}
	if s, ok := r.given[sessionKey(campaign, session)]; ok {
		return s, "given", nil
	}
	if s, ok := r.given[session]; ok {
		return s, "given", nil
	}
	return dice.Seed{}, "", nil
}

func (r *reproducer) session(campaign, id string) *ReproducedSession {
	k := sessionKey(campaign, id)
	s := r.bySession[k]
	if s == nil {
		s = &ReproducedSession{Campaign: campaign, Session: id, Mismatches: []Mismatch{}}
		r.bySession[k] = s
		r.sessions = append(r.sessions, s)
	}
	return s
}

// mismatch records a difference in its session, or outside sessions.
func (r *reproducer) mismatch(s *ReproducedSession, m Mismatch) {
	r.total++
	if s != nil {
		if len(s.Mismatches) < r.max {
			s.Mismatches = append(s.Mismatches, m)
		} else {
			s.Omitted++
		}
		return
	}
	if len(r.global) < r.max {
		r.global = append(r.global, m)
	} else {
		r.omitted++
	}
}

// campaign reproduces one campaign's events.
func (r *reproducer) campaign(ctx context.Context, id string, evs []rec) error {
	rc := ReproducedCampaign{Campaign: id, Events: len(evs)}
	filter, err := events.CampaignFilter(id)
	if err != nil {
		// Decode lets only slugs through; a campaign id that is not one
		// cannot be stored.
		rc.Stopped = fmt.Sprintf("campaign id %q: %v", id, err)
		rc.Skipped = len(evs)
		r.campaigns = append(r.campaigns, rc)
		return nil
	}
	revealed := map[string]string{}
	for _, x := range evs {
		if x.Event.Type == events.TypeSessionEnded {
			var d events.SessionEnded
			if x.Event.DecodeData(&d) == nil {
				if _, ok := revealed[x.Event.Session]; !ok {
					revealed[x.Event.Session] = d.Seed
				}
			}
		}
		if x.Event.Type == events.TypeCampaignCreated && rc.System == "" {
			var d events.CampaignCreated
			if x.Event.DecodeData(&d) == nil {
				rc.System = d.System
			}
		}
	}
	stop := len(evs)
	for i := 0; i < len(evs); {
		if err := ctx.Err(); err != nil {
			return err
		}
		n := groupSize(evs, i)
		g := evs[i : i+n]
		first := g[0].Event
		var sess *ReproducedSession
		if first.Session != "" {
			sess = r.session(id, first.Session)
		}
		if first.Type == events.TypeSessionStarted && first.Session != "" {
			seed, source, err := r.seedOf(id, first.Session, revealed)
			if err != nil {
				r.mismatch(sess, r.locate(MismatchSeed, g[0], err.Error()))
				rc.Stopped = fmt.Sprintf("session %s: %v", first.Session, err)
				stop = i
				break
			}
			if source == "" {
				sess.Status = ReproUnrevealed
				rc.Stopped = fmt.Sprintf("session %s is not yet revealed (no seed: end it, or give it with --seed)", first.Session)
				stop = i
				break
			}
			sess.SeedSource = source
			r.seeds.b = append([]byte(nil), seed[:]...)
		}
		copied, err := r.run(ctx, filter, sess, g)
		if err != nil {
			return err
		}
		rc.Commands++
		if sess != nil {
			sess.Commands++
		}
		if copied {
			rc.Copied += n
		} else {
			rc.Reproduced += n
		}
		i += n
		if r.opts.Session != "" && first.Type == events.TypeSessionEnded && first.Session == r.opts.Session {
			stop = i
			if stop < len(evs) {
				rc.Stopped = fmt.Sprintf("after session %s", r.opts.Session)
			}
			break
		}
	}
	rc.Skipped = len(evs) - stop
	r.compareSheets(ctx, &rc, evs[:stop])
	tr := projections.NewTranscript(id, r.opts.Session)
	if err := r.store.Store.Read(ctx, events.Query{Subject: filter}, tr.Apply); err != nil {
		return err
	}
	rc.Transcript = tr.Lines
	if rc.Transcript == nil {
		rc.Transcript = []projections.Line{}
	}
	r.campaigns = append(r.campaigns, rc)
	return nil
}

// locate returns a mismatch located at a recorded event.
func (r *reproducer) locate(kind MismatchKind, x rec, what string) Mismatch {
	return Mismatch{Kind: kind, EventID: x.Event.ID, Seq: x.Seq, Position: x.pos,
		Campaign: x.Event.Campaign, Session: x.Event.Session, What: what}
}

// run re-runs the command of group g and compares what it records with g.
// It reports whether the recorded events were copied instead.
func (r *reproducer) run(ctx context.Context, filter string, sess *ReproducedSession, g []rec) (bool, error) {
	first := g[0].Event
	r.now = first.Time
	r.store.actor = first.Actor
	r.ids.ids = r.ids.ids[:0]
	for _, x := range g {
		r.ids.ids = append(r.ids.ids, x.Event.ID)
	}
	r.ids.next = 0
	if sess != nil {
		sess.Events += len(g)
	}
	do, what, err := r.commandOf(ctx, g)
	if err != nil {
		r.mismatch(sess, r.locate(MismatchUnmapped, g[0], fmt.Sprintf("%s: %v; the recorded events are copied", describeGroup(g), err)))
		return true, r.copyRecorded(ctx, sess, g)
	}
	last, err := r.store.Last(ctx, filter)
	if err != nil {
		return false, err
	}
	_, err = do(ctx, r.j, first.Campaign)
	if err != nil {
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		r.mismatch(sess, r.locate(MismatchRefused, g[0], fmt.Sprintf("%s was refused: %v; the recorded events are copied", what, err)))
		return true, r.copyRecorded(ctx, sess, g)
	}
	var got []events.Recorded
	err = r.store.Store.Read(ctx, events.Query{Subject: filter, From: last + 1}, func(x events.Recorded) error {
		got = append(got, x)
		return nil
	})
	if err != nil {
		return false, err
	}
	r.compareGroup(sess, what, g, got)
	return false, nil
}

// copyRecorded appends recorded events as they are, so that the
// reproduction goes on from the recorded state.
func (r *reproducer) copyRecorded(ctx context.Context, sess *ReproducedSession, g []rec) error {
	evs := make([]events.Event, 0, len(g))
	for _, x := range g {
		e := x.Event
		subject, err := events.CampaignSubject(e.Campaign)
		if err != nil {
			r.mismatch(sess, r.locate(MismatchUnmapped, x, fmt.Sprintf("cannot be copied: %v", err)))
			continue
		}
		e.StreamSubject = subject
		if r.store.stored[e.ID] {
			r.mismatch(sess, r.locate(MismatchUnmapped, x, "cannot be copied: its id is already in the reproduction"))
			continue
		}
		evs = append(evs, e)
	}
	if len(evs) == 0 {
		return nil
	}
	if _, err := r.store.Store.Append(ctx, events.Expect{}, evs...); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		r.mismatch(sess, r.locate(MismatchUnmapped, g[0], fmt.Sprintf("cannot be copied: %v", err)))
		return nil
	}
	for _, e := range evs {
		r.store.stored[e.ID] = true
	}
	return nil
}

// roll decodes a roll event, or returns nil.
func rollOf(e events.Event) *events.RollMade {
	if e.Type != events.TypeRollMade {
		return nil
	}
	var d events.RollMade
	if e.DecodeData(&d) != nil {
		return nil
	}
	return &d
}

// groupSize returns how many consecutive events from i one command
// recorded: the roll events, then the closing event that names them, all
// of one campaign and one time. An event that fits no shape is a group of
// its own.
func groupSize(evs []rec, i int) int {
	at := func(k int) (events.Event, bool) {
		if k >= len(evs) {
			return events.Event{}, false
		}
		e := evs[k].Event
		f := evs[i].Event
		return e, e.Campaign == f.Campaign && e.Time.Equal(f.Time)
	}
	first := evs[i].Event
	switch first.Type {
	case events.TypeRollMade:
		d := rollOf(first)
		if d == nil {
			return 1
		}
		switch d.Kind {
		case "skill", "attribute":
			// A contest: two rolls and the verdict naming them.
			if e2, ok := at(i + 1); ok && e2.Type == events.TypeRollMade {
				if e3, ok := at(i + 2); ok && e3.Type == events.TypeContestResolved {
					var c events.ContestResolved
					if e3.DecodeData(&c) == nil && c.RollA == first.ID && c.RollB == e2.ID {
						return 3
					}
				}
			}
		case "initiative":
			k := i + 1
			for {
				e, ok := at(k)
				if !ok || e.Type != events.TypeRollMade {
					break
				}
				if d := rollOf(e); d == nil || d.Kind != "initiative" {
					break
				}
				k++
			}
			if e, ok := at(k); ok && e.Type == events.TypeCombatStarted {
				return k - i + 1
			}
		case "melee", "ranged":
			k := i + 1
			if e, ok := at(k); ok && e.Type == events.TypeRollMade {
				if d := rollOf(e); d != nil && d.Kind == "damage" {
					k++
				}
			}
			if e, ok := at(k); ok && e.Type == events.TypeDamageTaken {
				k++
			}
			if e, ok := at(k); ok && e.Type == events.TypeAttackResolved {
				var a events.AttackResolved
				if e.DecodeData(&a) == nil && a.AttackRoll == first.ID {
					return k - i + 1
				}
			}
		case "heal":
			if e, ok := at(i + 1); ok && e.Type == events.TypeHealed {
				return 2
			}
		case "tor":
			if e, ok := at(i + 1); ok && e.Type == events.TypeTORMadnessBegun {
				var m events.TORMadnessBegun
				if e.DecodeData(&m) == nil && m.Roll == first.ID {
					return 2
				}
			}
		}
	case events.TypeHealed:
		var h events.Healed
		if first.DecodeData(&h) == nil && (h.Reason == "rest" || h.Reason == "comfort") {
			k := i + 1
			for {
				e, ok := at(k)
				if !ok || e.Type != events.TypeHealed {
					break
				}
				k++
			}
			if e, ok := at(k); ok && e.Type == events.TypeDayStarted {
				return k - i + 1
			}
		}
	case events.TypeTORFellowshipRequested, events.TypeTORFellowshipVoted:
		// A request granted at once (a fellowship of one), or the last vote
		// that grants it: the point is spent in the same batch.
		request := first.ID
		if first.Type == events.TypeTORFellowshipVoted {
			var v events.TORFellowshipVoted
			if first.DecodeData(&v) == nil {
				request = v.Request
			}
		}
		if e, ok := at(i + 1); ok && e.Type == events.TypeTORFellowshipSpent {
			var s events.TORFellowshipSpent
			if e.DecodeData(&s) == nil && s.Request == request {
				return 2
			}
		}
	}
	return 1
}

// describeGroup names a group of events for messages.
func describeGroup(g []rec) string {
	types := make([]string, len(g))
	for i, x := range g {
		types[i] = strings.TrimSuffix(strings.TrimPrefix(x.Event.Type, "journal."), ".v1")
	}
	return "events " + strings.Join(types, ", ")
}

// commandFunc re-runs one command on the fresh journal.
type commandFunc func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error)

// commandOf maps a group of recorded events back to the command that
// produced it, with the recorded inputs, and names it.
func (r *reproducer) commandOf(ctx context.Context, g []rec) (commandFunc, string, error) {
	first := g[0].Event
	last := g[len(g)-1].Event
	data, err := first.Payload()
	if err != nil {
		return nil, "", err
	}
	switch d := data.(type) {
	case *events.CampaignCreated:
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.CreateCampaign(ctx, command.CreateCampaign{ID: campaign, Name: d.Name, System: d.System,
				Carisma: d.Carisma, HardDefense: d.HardDefense, AttrBudget: d.AttrBudget})
		}, "campaign create " + first.Campaign, nil
	case *events.WeaponDefined:
		w := *d
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.DefineWeapon(ctx, campaign, w)
		}, "weapon define " + d.Name, nil
	case *events.SkillDefined:
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.DefineSkill(ctx, campaign, d.Name, d.Attribute)
		}, "skill define " + d.Name, nil
	case *events.CharacterCreated:
		_, id, _ := first.Aggregate()
		req := command.CreateCharacter{ID: id, Name: d.Name, Player: d.Player, NPC: d.NPC, Occupation: d.Occupation,
			Attributes: pairsOf(d.Attributes), Skills: pairsOf(d.Skills), Specialization: d.Specialization, Weapons: d.Weapons}
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.CreateCharacter(ctx, campaign, req)
		}, "character create " + id, nil
	case *events.TORCharacterCreated:
		_, id, _ := first.Aggregate()
		req := command.CreateCharacter{ID: id, Name: d.Name, Player: d.Player, NPC: d.NPC, Culture: d.Culture,
			Attributes: torAttributes(d.Attributes), Skills: torSkills(d.Skills), MaxHope: d.MaxHope, Traits: d.Traits}
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.CreateCharacter(ctx, campaign, req)
		}, "character create " + id, nil
	case *events.SessionStarted:
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.StartSession(ctx, campaign, first.Session, d.Title)
		}, "session start " + first.Session, nil
	case *events.SessionEnded:
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.EndSession(ctx, campaign)
		}, "session end " + first.Session, nil
	case *events.RollMade:
		return r.rollCommand(ctx, g, d)
	case *events.CombatRound:
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.NextRound(ctx, campaign)
		}, "combat round", nil
	case *events.CombatEnded:
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.EndCombat(ctx, campaign)
		}, "combat end", nil
	case *events.DamageTaken:
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.Damage(ctx, campaign, d.Character, d.Amount, d.Source)
		}, fmt.Sprintf("damage %s %d", d.Character, d.Amount), nil
	case *events.Healed:
		switch {
		case d.Reason == "gm" && len(g) == 1:
			return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
				return j.Heal(ctx, campaign, d.Character, d.Amount)
			}, fmt.Sprintf("heal %s %d", d.Character, d.Amount), nil
		case (d.Reason == "rest" || d.Reason == "comfort") && last.Type == events.TypeDayStarted:
			return restCommand(d.Reason == "comfort")
		}
	case *events.DayStarted:
		switch d.Reason {
		case "gm":
			return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
				return j.NewDay(ctx, campaign)
			}, "day new", nil
		case "rest", "comfort":
			return restCommand(d.Reason == "comfort")
		}
	case *events.XPGranted:
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.GrantXP(ctx, campaign, d.Character, d.Amount)
		}, fmt.Sprintf("xp grant %s %d", d.Character, d.Amount), nil
	case *events.SkillRaised:
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.RaiseSkill(ctx, campaign, d.Character, d.Skill)
		}, fmt.Sprintf("skill raise %s %s", d.Character, d.Skill), nil
	case *events.TokenReturned:
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.ReturnToken(ctx, campaign, d.Character)
		}, "token return " + d.Character, nil
	case *events.WeaponReloaded:
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.Reload(ctx, campaign, d.Character, d.Weapon)
		}, fmt.Sprintf("reload %s %s", d.Character, d.Weapon), nil
	case *events.EventVoided:
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.Void(ctx, campaign, d.EventID, d.Reason)
		}, "void " + d.EventID, nil
	case *events.TORHopeSpent:
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.SpendHope(ctx, campaign, d.Character, d.Roll)
		}, "hope spend " + d.Character, nil
	case *events.TORFellowshipRequested:
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.RequestFellowship(ctx, campaign, d.Character)
		}, "fellowship ask " + d.Character, nil
	case *events.TORFellowshipVoted:
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.Vote(ctx, campaign, d.Character, d.Voter, d.Agree)
		}, fmt.Sprintf("fellowship vote %s by %s", d.Character, d.Voter), nil
	case *events.TORFellowshipSpent:
		if d.Outcome == events.TORFellowshipForced {
			return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
				return j.ResolveFellowship(ctx, campaign, d.Character, true)
			}, "fellowship take " + d.Character, nil
		}
	case *events.TORFellowshipWithdrawn:
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.ResolveFellowship(ctx, campaign, d.Character, false)
		}, "fellowship withdraw " + d.Character, nil
	case *events.TORShadowGained:
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.GainShadow(ctx, campaign, d.Character, d.Amount, d.Reason)
		}, fmt.Sprintf("shadow %s %d", d.Character, d.Amount), nil
	case *events.TORMadnessEnded:
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.EndMadness(ctx, campaign, d.Character, d.Flaw)
		}, "madness end " + d.Character, nil
	case *events.TORTraitInvoked:
		req := command.TraitRequest{Character: d.Character, Trait: d.Trait, Automatic: d.Automatic, Skill: d.Skill}
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.InvokeTrait(ctx, campaign, req)
		}, fmt.Sprintf("trait %s %s", d.Character, d.Trait), nil
	case *events.TORAdvancementGranted:
		group := d.Group
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.GrantAdvancement(ctx, campaign, d.Character, group, d.Roll)
		}, fmt.Sprintf("advancement %s %s", d.Character, d.Group), nil
	case *events.TORAdventureStarted:
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.StartAdventure(ctx, campaign, d.Title)
		}, "adventure start", nil
	case *events.TORFellowshipPhase:
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.FellowshipPhase(ctx, campaign)
		}, "fellowship phase", nil
	}
	return nil, "", errors.New("no command records these events in this order")
}

func restCommand(comfort bool) (commandFunc, string, error) {
	what := "rest"
	if comfort {
		what = "rest --comfort"
	}
	return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
		return j.Rest(ctx, campaign, comfort)
	}, what, nil
}

// rollCommand maps a group that starts with a roll: a roll, a contest, the
// initiative of a combat, an attack, the healing after a combat.
func (r *reproducer) rollCommand(ctx context.Context, g []rec, d *events.RollMade) (commandFunc, string, error) {
	last := g[len(g)-1].Event
	switch d.Kind {
	case "skill", "attribute":
		if len(g) == 3 {
			b := rollOf(g[1].Event)
			var c events.ContestResolved
			if b == nil || last.DecodeData(&c) != nil {
				break
			}
			req := command.ContestRequest{A: d.Character, SkillA: contestSide(d), EntropyA: d.Entropy,
				B: b.Character, SkillB: contestSide(b), EntropyB: b.Entropy, Rematch: c.Rematch}
			return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
				return j.Contest(ctx, campaign, req)
			}, fmt.Sprintf("contest %s %s %s %s", req.A, req.SkillA, req.B, req.SkillB), nil
		}
		if len(g) != 1 {
			break
		}
		req := command.RollRequest{Character: d.Character, Skill: d.Skill, Attribute: d.Attribute,
			Modifier: d.Modifier, Token: d.Token, Specialization: d.Specialization, Entropy: d.Entropy}
		if d.Difficulty != nil {
			req.Vs = strconv.Itoa(*d.Difficulty)
		}
		what := "roll " + d.Character + " " + d.Skill
		if d.Skill == "" {
			what = "roll " + d.Character + " --attribute " + d.Attribute
		}
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.Roll(ctx, campaign, req)
		}, what, nil
	case "initiative":
		if last.Type != events.TypeCombatStarted {
			break
		}
		var who []string
		for _, x := range g[:len(g)-1] {
			if e := rollOf(x.Event); e != nil {
				who = append(who, e.Character)
			}
		}
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.StartCombat(ctx, campaign, who, d.Entropy)
		}, "combat start " + strings.Join(who, " "), nil
	case "melee", "ranged":
		if last.Type != events.TypeAttackResolved {
			break
		}
		req := command.AttackRequest{Attacker: d.Character, Target: d.Target, Weapon: d.Weapon, Range: d.Range,
			Cover: d.Cover, Modifier: d.Modifier, Token: d.Token, Specialization: d.Specialization, Entropy: d.Entropy}
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.Attack(ctx, campaign, req)
		}, fmt.Sprintf("attack %s %s", d.Character, d.Target), nil
	case "heal":
		if len(g) != 2 {
			break
		}
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.HealAfterCombat(ctx, campaign, d.Character, d.Entropy)
		}, "heal-after-combat " + d.Character, nil
	case "tor":
		req := command.RollRequest{Character: d.Character, Skill: d.Skill, TN: d.TN, Entropy: d.Entropy}
		if d.Trait != "" {
			// A trait invoked beforehand is already pending; naming it again
			// would be refused for a character in a bout of madness.
			pending := false
			if c, err := r.j.Load(ctx, g[0].Event.Campaign, 0); err == nil && c.TOR != nil {
				if ch := c.TOR.Characters[d.Character]; ch != nil && ch.PendingTrait == d.Trait {
					pending = true
				}
			}
			if !pending {
				req.Trait = d.Trait
			}
		}
		return func(ctx context.Context, j *command.Journal, campaign string) (command.Result, error) {
			return j.Roll(ctx, campaign, req)
		}, fmt.Sprintf("roll %s %s --tn %d", d.Character, d.Skill, d.TN), nil
	}
	return nil, "", errors.New("no command records these events in this order")
}

// contestSide is what a contest side names: the skill, or else the
// attribute by its full name (a one-letter code could be a skill's prefix).
func contestSide(d *events.RollMade) string {
	if d.Skill != "" {
		return d.Skill
	}
	if name := ryf.Attr(d.Attribute).Name(); name != "" {
		return name
	}
	return d.Attribute
}

// pairsOf writes a map as "K=V,K=V" in key order, as the CLI takes it.
func pairsOf(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + strconv.Itoa(m[k])
	}
	return strings.Join(parts, ",")
}

// torAttributes writes One Ring attributes in the CLI's syntax.
func torAttributes(a events.TORAttributes) string {
	return fmt.Sprintf("Cuerpo=%d/%d,Corazón=%d/%d,Mente=%d/%d",
		a.Cuerpo.Basic, a.Cuerpo.Favoured, a.Corazon.Basic, a.Corazon.Favoured, a.Mente.Basic, a.Mente.Favoured)
}

// torSkills writes One Ring skill ratings in the CLI's syntax ("*" favoured).
func torSkills(m map[string]events.TORSkill) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + strconv.Itoa(m[k].Rank)
		if m[k].Favoured {
			parts[i] += "*"
		}
	}
	return strings.Join(parts, ",")
}

// compareGroup compares the events a re-run command stored (got) with the
// recorded ones: rolls in order (nonce by nonce), other events by type in
// order, then what is left on either side.
func (r *reproducer) compareGroup(sess *ReproducedSession, what string, g []rec, got []events.Recorded) {
	used := make([]bool, len(got))
	next := func(want events.Event) int {
		for k, x := range got {
			if !used[k] && x.Event.Type == want.Type {
				return k
			}
		}
		return -1
	}
	for _, x := range g {
		want := x.Event
		k := next(want)
		wantRoll := rollOf(want)
		var m Mismatch
		if k < 0 {
			m = r.locate(MismatchNotReproduced, x, fmt.Sprintf("%s did not produce this %s event", what, shortType(want.Type)))
		} else {
			used[k] = true
			diffs := diffEvents(want, got[k].Event)
			if wantRoll != nil && sess != nil {
				sess.Rolls++
				if len(diffs) == 0 {
					sess.Identical++
				}
			}
			if len(diffs) == 0 {
				continue
			}
			m = r.locate(MismatchReproduced, x, fmt.Sprintf("%s: %s", what, strings.Join(diffs, "; ")))
		}
		if wantRoll != nil {
			n := wantRoll.Nonce
			m.Nonce = &n
			if k < 0 && sess != nil {
				sess.Rolls++
			}
		}
		r.mismatch(sess, m)
	}
	for k, x := range got {
		if used[k] {
			continue
		}
		m := Mismatch{Kind: MismatchExtra, EventID: x.Event.ID, Campaign: x.Event.Campaign, Session: x.Event.Session,
			What: fmt.Sprintf("%s also produced a %s event that is not recorded: %s", what, shortType(x.Event.Type), clip(string(x.Event.Data), 300))}
		if d := rollOf(x.Event); d != nil {
			n := d.Nonce
			m.Nonce = &n
		}
		r.mismatch(sess, m)
	}
}

func shortType(t string) string {
	return strings.TrimSuffix(strings.TrimPrefix(t, "journal."), ".v1")
}

// diffEvents lists what differs between a recorded event and its
// reproduction: the envelope, then the data field by field (faces, total
// and outcome first).
func diffEvents(want, got events.Event) []string {
	var out []string
	field := func(name, w, g string) {
		if w != g {
			out = append(out, fmt.Sprintf("%s recorded %q, reproduced %q", name, w, g))
		}
	}
	field("id", want.ID, got.ID)
	field("type", want.Type, got.Type)
	field("subject", want.Subject, got.Subject)
	field("session", want.Session, got.Session)
	field("actor", want.Actor, got.Actor)
	field("causation", want.CausationID, got.CausationID)
	if !want.Time.Equal(got.Time) {
		out = append(out, fmt.Sprintf("time recorded %s, reproduced %s", want.Time.Format(time.RFC3339Nano), got.Time.Format(time.RFC3339Nano)))
	}
	return append(out, diffJSON(want.Data, got.Data)...)
}

// diffJSON compares two JSON objects key by key.
func diffJSON(want, got json.RawMessage) []string {
	if bytes.Equal(want, got) {
		return nil
	}
	var w, g map[string]any
	if json.Unmarshal(want, &w) != nil || json.Unmarshal(got, &g) != nil {
		if string(want) != string(got) {
			return []string{fmt.Sprintf("data recorded %s, reproduced %s", clip(string(want), 200), clip(string(got), 200))}
		}
		return nil
	}
	order := keysOfBoth(w, g)
	rank := map[string]int{"nonce": 1, "faces": 2, "total": 3, "outcome": 4}
	sort.Slice(order, func(a, b int) bool {
		ra, rb := rank[order[a]], rank[order[b]]
		if ra == 0 {
			ra = 99
		}
		if rb == 0 {
			rb = 99
		}
		if ra != rb {
			return ra < rb
		}
		return order[a] < order[b]
	})
	var out []string
	for _, k := range order {
		wv, wok := w[k]
		gv, gok := g[k]
		if wok == gok && reflect.DeepEqual(wv, gv) {
			continue
		}
		out = append(out, fmt.Sprintf("%s recorded %s, reproduced %s", k, jsonText(wv, wok), jsonText(gv, gok)))
	}
	return out
}

func jsonText(v any, ok bool) string {
	if !ok {
		return "(none)"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return clip(string(b), 200)
}

// compareSheets compares the character sheets folded from the recorded
// events (up to where the reproduction stopped) with the reproduction's.
func (r *reproducer) compareSheets(ctx context.Context, rc *ReproducedCampaign, recorded []rec) {
	want := projections.NewCampaign(rc.Campaign)
	voids := map[string]string{}
	for _, x := range recorded {
		if x.Event.Type == events.TypeEventVoided {
			var v events.EventVoided
			if x.Event.DecodeData(&v) == nil {
				voids[v.EventID] = v.Reason
			}
		}
	}
	want.KnowVoids(voids)
	for _, x := range recorded {
		_ = want.Apply(x.Recorded) // Verify reports what does not fold
	}
	got, err := r.j.Load(ctx, rc.Campaign, 0)
	if err != nil {
		got = projections.NewCampaign(rc.Campaign)
	}
	ws, gs := sheetsOf(want), sheetsOf(got)
	sorted := keysOfBoth(ws, gs)
	rc.Characters = len(sorted)
	rc.SheetsIdentical = true
	for _, id := range sorted {
		w, wok := ws[id]
		g, gok := gs[id]
		var what string
		switch {
		case !gok:
			what = "the reproduction has no such character"
		case !wok:
			what = "the record has no such character"
		default:
			d := diffJSON(w, g)
			if len(d) == 0 {
				continue
			}
			what = strings.Join(d, "; ")
		}
		rc.SheetsIdentical = false
		r.mismatch(nil, Mismatch{Kind: MismatchSheet, Campaign: rc.Campaign, What: fmt.Sprintf("final sheet of %s: %s", id, what)})
	}
}

// sheetsOf returns each character's sheet as JSON, without the stream
// sequences (an export has none; the reproduction numbers its own).
func sheetsOf(c *projections.Campaign) map[string]json.RawMessage {
	out := map[string]json.RawMessage{}
	add := func(id string, v any) {
		b, err := json.Marshal(v)
		if err != nil {
			return
		}
		var m any
		if json.Unmarshal(b, &m) != nil {
			return
		}
		b, _ = json.Marshal(withoutSeqs(m))
		out[id] = b
	}
	for id, s := range c.Characters {
		add(id, s)
	}
	if c.TOR != nil {
		for id, s := range c.TOR.Characters {
			add(id, s)
		}
	}
	return out
}

func withoutSeqs(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if k == "seq" || strings.HasSuffix(k, "_seq") {
				delete(x, k)
				continue
			}
			x[k] = withoutSeqs(e)
		}
	case []any:
		for i, e := range x {
			x[i] = withoutSeqs(e)
		}
	}
	return v
}

// report assembles the Reproduction.
func (r *reproducer) report() Reproduction {
	out := Reproduction{Sessions: []ReproducedSession{}, Campaigns: r.campaigns, Mismatches: r.global, Omitted: r.omitted}
	if out.Campaigns == nil {
		out.Campaigns = []ReproducedCampaign{}
	}
	if out.Mismatches == nil {
		out.Mismatches = []Mismatch{}
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
			s.Status = ReproDifferent
			t.SessionsDifferent++
		case s.Status == ReproUnrevealed:
			t.SessionsUnrevealed++
		default:
			s.Status = ReproIdentical
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

// keysOfBoth returns the keys of a and b, each once, in lexical order.
func keysOfBoth[V any](a, b map[string]V) []string {
	keys := make([]string, 0, len(a)+len(b))
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, dup := a[k]; !dup {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}
