package reproduce

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/memstore"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/replay"
	"github.com/campaign-journal/journal/rules/dice"
)

type reproducer struct {
	opts  replay.Options
	max   int
	given map[string]dice.Seed

	store *actorStore
	j     *command.Handler
	now   time.Time
	ids   *idQueue
	seeds *seedReader

	sessions  []*Session
	bySession map[string]*Session
	campaigns []Campaign
	global    []replay.Mismatch
	omitted   int
	total     int
}

func newReproducer(opts replay.Options) (*reproducer, error) {
	r := &reproducer{
		opts: opts, max: opts.MaxMismatches, given: map[string]dice.Seed{},
		bySession: map[string]*Session{}, seeds: &seedReader{},
	}
	if r.max <= 0 {
		r.max = replay.DefaultMaxMismatches
	}
	for k, text := range opts.Seeds {
		s, err := dice.ParseSeed(strings.TrimSpace(text))
		if err != nil {
			return nil, msgerr.Errorf("%w: seed of session %q: %w", replay.ErrInvalidOptions, k, err)
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
		// The record's chain anchor, if any, is copied where the record
		// has it (campaign); the reproduction records none of its own.
		NoAnchor: true,
		// The devices' seen names the record's stream sequences, not the
		// reproduction's: the verifier checks them (by hash).
		NoSeenCheck: true,
	})
	return r, nil
}

// actorStore is the fresh journal's store: it records each event under the
// recorded actor of the command being re-run, and with its recorded
// command attribute (the name the catalogue re-ran it by; none for a
// guessed one, recorded before the attribute).
type actorStore struct {
	*memstore.Store
	actor   string
	command string
	stored  map[string]bool
	// recorded are the events of the command being re-run, by id: a
	// reproduced event keeps the recorded one's request id and prevhash
	// (attributes, not results), so that its stored bytes are the
	// recorded ones and a session's co-signatures, which hash its
	// session-ended event's bytes, re-run.
	recorded map[string]events.Event
}

func (s *actorStore) Append(ctx context.Context, expect events.Expect, evs ...events.Event) ([]uint64, error) {
	out := make([]events.Event, len(evs))
	for i, e := range evs {
		e.Actor, e.Command = s.actor, s.command
		if rec, ok := s.recorded[e.ID]; ok {
			e.RequestID, e.PrevHash = rec.RequestID, rec.PrevHash
		}
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
		return 0, msgerr.New("no seed for this session")
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
			return dice.Seed{}, "", msgerr.Errorf("the revealed seed %q is not %d hex digits", clip(text, 80), 2*dice.SeedSize)
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

func (r *reproducer) session(campaign, id string) *Session {
	k := sessionKey(campaign, id)
	s := r.bySession[k]
	if s == nil {
		s = &Session{Campaign: campaign, Session: id, Mismatches: []replay.Mismatch{}}
		r.bySession[k] = s
		r.sessions = append(r.sessions, s)
	}
	return s
}

// mismatch records a difference in its session, or outside sessions.
func (r *reproducer) mismatch(s *Session, m replay.Mismatch) {
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
	rc := Campaign{Campaign: id, Events: len(evs)}
	filter, err := events.CampaignFilter(id)
	if err != nil {
		// Decode lets only slugs through; a campaign id that is not one
		// cannot be stored.
		rc.stop("rr.stop_campaign", id, err.Error())
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
		if evs[i].Event.Type == events.TypeChainAnchored {
			// The journal's own anchor of an older campaign's chain
			// (events/chain.go), no command's: copied as recorded.
			if err := r.copyRecorded(ctx, nil, evs[i:i+1]); err != nil {
				return err
			}
			rc.Copied++
			i++
			continue
		}
		n := groupSize(evs, i)
		g := evs[i : i+n]
		first := g[0].Event
		var sess *Session
		if first.Session != "" {
			sess = r.session(id, first.Session)
		}
		if first.Type == events.TypeSessionStarted && first.Session != "" {
			seed, source, err := r.seedOf(id, first.Session, revealed)
			if err != nil {
				r.mismatch(sess, r.locate(replay.MismatchSeed, g[0], err.Error()))
				rc.stop("rr.stop_session", first.Session, err.Error())
				stop = i
				break
			}
			if source == "" {
				sess.Status = StatusUnrevealed
				rc.stop("rr.stop_unrevealed", first.Session, "--seed") // a flag is typed the same in any language
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
				rc.stop("rr.stop_after", r.opts.Session)
			}
			break
		}
	}
	rc.Skipped = len(evs) - stop
	r.compareSheets(ctx, &rc, evs[:stop])
	tr := projections.NewTranscript(id, r.opts.Session)
	tr.Lang = r.opts.Lang
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
func (r *reproducer) locate(kind replay.MismatchKind, x rec, what string) replay.Mismatch {
	return replay.Mismatch{Kind: kind, EventID: x.Event.ID, Seq: x.Seq, Position: x.pos,
		Campaign: x.Event.Campaign, Session: x.Event.Session, What: what}
}

// run re-runs the command of group g and compares what it records with g.
// It reports whether the recorded events were copied instead.
func (r *reproducer) run(ctx context.Context, filter string, sess *Session, g []rec) (bool, error) {
	first := g[0].Event
	r.now = first.Time
	r.store.actor, r.store.command = first.Actor, first.Command
	r.ids.ids = r.ids.ids[:0]
	r.store.recorded = make(map[string]events.Event, len(g))
	for _, x := range g {
		r.ids.ids = append(r.ids.ids, x.Event.ID)
		r.store.recorded[x.Event.ID] = x.Event
	}
	r.ids.next = 0
	if sess != nil {
		sess.Events += len(g)
	}
	if x, v, ok := unknownRules(g); ok {
		r.mismatch(sess, r.locate(MismatchUnknownRules, x, unknownRulesWhat(g, v)))
		return true, r.copyRecorded(ctx, sess, g)
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
	// An unwitnessed GM roll's r came from the journal's randomness: the
	// re-run draws the recorded one (replay verifies the roll from it).
	if u := unwitnessedR(g); u != nil {
		r.seeds.b = u
	}
	// As the recorded actor: a journal-dice-v2 command checks the device's
	// signature under the key registered for the user who sent it.
	_, err = do(ctx, r.j, command.Call{Actor: first.Actor}, first.Campaign)
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
func (r *reproducer) copyRecorded(ctx context.Context, sess *Session, g []rec) error {
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

// unwitnessedR is the recorded r of an unwitnessed journal-dice-v2 roll in
// g (nil: none).
func unwitnessedR(g []rec) []byte {
	for _, x := range g {
		if x.Event.Type != events.TypeRollMade {
			continue
		}
		var d events.RollMade
		if x.Event.DecodeData(&d) == nil && d.Witness == "none" {
			if r, err := dice.ParseHex32(d.Reveal); err == nil {
				return r[:]
			}
		}
	}
	return nil
}
