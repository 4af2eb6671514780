package recorder

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/projections"
)

// stream is one campaign's recorded events, sequences from 1.
type stream struct {
	t    *testing.T
	ids  events.IDs
	now  time.Time
	recs []events.Recorded
}

func newStream(t *testing.T) *stream {
	now := time.Date(2026, 3, 1, 20, 0, 0, 0, time.UTC)
	s := &stream{t: t, ids: events.NewV7(func() time.Time { return now }, rand.NewChaCha8([32]byte{7})), now: now}
	s.add(events.TypeCampaignCreated, "created", events.CampaignCreated{Name: "Mordor", System: "ryf"})
	return s
}

func (s *stream) add(typ, name string, data any) events.Recorded {
	s.t.Helper()
	s.now = s.now.Add(time.Minute)
	ev, err := events.New(events.Spec{Campaign: "mordor", Kind: events.KindCampaign, AggregateID: "mordor",
		Name: name, Type: typ, Actor: "gm", Data: data}, s.ids, s.now)
	require.NoError(s.t, err)
	rec := events.Recorded{Seq: uint64(len(s.recs) + 1), Subject: ev.StreamSubject, Event: ev}
	s.recs = append(s.recs, rec)
	return rec
}

func (s *stream) day() events.Recorded {
	return s.add(events.TypeDayStarted, "day", events.DayStarted{Reason: "gm"})
}

func (s *stream) fold(upTo uint64) *projections.Campaign {
	s.t.Helper()
	c, err := projections.Fold("mordor", s.recs, upTo)
	require.NoError(s.t, err)
	return c
}

// journal is a Journal over a stream (of campaign mordor: any other
// campaign is empty) that counts its folds.
type journal struct {
	s              *stream
	loads, current int
	loadedUpTo     []uint64
}

func (j *journal) Load(_ context.Context, campaign string, upTo uint64) (*projections.Campaign, error) {
	j.loads++
	j.loadedUpTo = append(j.loadedUpTo, upTo)
	return projections.Fold(campaign, j.s.recs, upTo)
}

func (j *journal) Current(_ context.Context, campaign string) (*projections.Campaign, error) {
	j.current++
	if campaign != "mordor" {
		return projections.NewCampaign(campaign), nil
	}
	return projections.Fold(campaign, j.s.recs, 0)
}

// reader is a Reader over a stream (of campaign mordor: another
// campaign's filter reads nothing) that notes the queries it is asked;
// foreign are sequences it reports as foreign messages instead.
type reader struct {
	s       *stream
	queries []events.Query
	foreign map[uint64]bool
}

func (r *reader) Read(_ context.Context, q events.Query, fn func(events.Recorded) error) error {
	r.queries = append(r.queries, q)
	if filter, _ := events.CampaignFilter("mordor"); q.Subject != filter {
		return nil
	}
	for _, rec := range r.s.recs {
		if rec.Seq < q.From || q.To != 0 && rec.Seq > q.To {
			continue
		}
		if r.foreign[rec.Seq] {
			if err := q.OnForeign(events.Foreign{Seq: rec.Seq}); err != nil {
				return err
			}
			continue
		}
		if err := fn(rec); err != nil {
			return err
		}
	}
	return nil
}

// TestCurrentIsOneFold: Current folds once and returns that state until a
// command records (Moved) or the caller asks afresh (Drop); a read-only
// command folds with Load, a writing one with the journal's Current.
func TestCurrentIsOneFold(t *testing.T) {
	ctx := context.Background()
	j := &journal{s: newStream(t)}
	var f Fold
	a, err := f.Current(ctx, j, "mordor", false)
	require.NoError(t, err)
	b, err := f.Current(ctx, j, "mordor", false)
	require.NoError(t, err)
	require.Same(t, a, b, "the one fold")
	require.Equal(t, 1, j.current)
	require.Zero(t, j.loads)

	f.Drop()
	c, err := f.Current(ctx, j, "mordor", false)
	require.NoError(t, err)
	require.NotSame(t, a, c, "Drop asks afresh")
	require.Equal(t, 2, j.current)

	f.Moved()
	_, err = f.Current(ctx, j, "mordor", true)
	require.NoError(t, err)
	require.Equal(t, 1, j.loads, "read-only: Load, after Moved")
	require.Equal(t, []uint64{0}, j.loadedUpTo)
	require.Same(t, c, f.before, "Moved keeps the state the command was decided on")

	f.Moved() // a second command of the same report: the first's state stays
	require.Same(t, c, f.before)

	other := &journal{s: j.s}
	d, err := f.Current(ctx, other, "mordor", false)
	require.NoError(t, err)
	_, err = f.Current(ctx, other, "gondor", false)
	require.NoError(t, err)
	require.Equal(t, 2, other.current, "another campaign is folded afresh")
	e, err := f.Current(ctx, other, "mordor", false)
	require.NoError(t, err)
	require.NotSame(t, d, e)
}

// TestStateBeforeCatchesUpTheKeptState: what a command recorded is
// described on the state it was decided on, caught up with what another
// writer recorded in between, without a fold.
func TestStateBeforeCatchesUpTheKeptState(t *testing.T) {
	ctx := context.Background()
	s := newStream(t)
	j := &journal{s: s}
	st := &reader{s: s}
	var f Fold
	decided, err := f.Current(ctx, j, "mordor", false) // seq 1
	require.NoError(t, err)
	f.Moved()
	s.day()         // seq 2: another writer's
	mine := s.day() // seq 3: the command's
	before := f.StateBefore(ctx, j, st, "mordor", []events.Recorded{mine})
	require.Same(t, decided, before, "the kept state, not a fold")
	require.Equal(t, uint64(2), before.LastSeq)
	require.Equal(t, 1, before.Day, "the other writer's day folded in, not the command's")
	require.Len(t, st.queries, 1)
	require.Equal(t, uint64(2), st.queries[0].From)
	require.Equal(t, uint64(2), st.queries[0].To)
	require.Zero(t, j.loads)

	// Forgotten once returned: the next report folds up to its events.
	again := f.StateBefore(ctx, j, st, "mordor", []events.Recorded{mine})
	require.NotSame(t, decided, again)
	require.Equal(t, []uint64{2}, j.loadedUpTo)
	require.Equal(t, uint64(2), again.LastSeq)
}

// TestStateBeforeFolds: with no kept state, a kept state past the events
// (a request run again returns what it recorded earlier) or a void among
// the tail, the state before the events is a fold up to them.
func TestStateBeforeFolds(t *testing.T) {
	ctx := context.Background()
	s := newStream(t)
	first := s.day() // seq 2
	s.day()          // seq 3

	t.Run("past", func(t *testing.T) {
		j := &journal{s: s}
		f := Fold{before: s.fold(0)} // seq 3: past the repeated seq 2
		before := f.StateBefore(ctx, j, &reader{s: s}, "mordor", []events.Recorded{first})
		require.Equal(t, []uint64{1}, j.loadedUpTo)
		require.Equal(t, uint64(1), before.LastSeq)
		require.Zero(t, before.Day)
	})
	t.Run("void in the tail", func(t *testing.T) {
		v := newStream(t)
		day := v.day()                                                                                          // seq 2
		v.add(events.TypeEventVoided, "voided", events.EventVoided{EventID: day.Event.ID, Reason: "a mistake"}) // seq 3
		mine := v.day()                                                                                         // seq 4
		j := &journal{s: v}
		f := Fold{before: v.fold(2)}
		before := f.StateBefore(ctx, j, &reader{s: v}, "mordor", []events.Recorded{mine})
		require.Equal(t, []uint64{3}, j.loadedUpTo, "the caught-up state needed a refold")
		require.Zero(t, before.Day, "the voided day is left out")
	})
	t.Run("nothing kept", func(t *testing.T) {
		j := &journal{s: s}
		var f Fold
		before := f.StateBefore(ctx, j, &reader{s: s}, "mordor", []events.Recorded{first})
		require.Equal(t, []uint64{1}, j.loadedUpTo)
		require.Equal(t, uint64(1), before.LastSeq)
	})
	t.Run("another campaign kept", func(t *testing.T) {
		j := &journal{s: s}
		f := Fold{before: projections.NewCampaign("gondor")}
		before := f.StateBefore(ctx, j, &reader{s: s}, "mordor", []events.Recorded{first})
		require.Equal(t, "mordor", before.ID)
		require.Equal(t, []uint64{1}, j.loadedUpTo)
	})
	t.Run("the first event", func(t *testing.T) {
		j := &journal{s: s}
		var f Fold
		before := f.StateBefore(ctx, j, &reader{s: s}, "mordor", s.recs[:1])
		require.Zero(t, j.loads, "nothing before sequence 1 to fold")
		require.Equal(t, "mordor", before.ID)
		require.Zero(t, before.LastSeq)
	})
	t.Run("no events", func(t *testing.T) {
		j := &journal{s: s}
		kept := s.fold(1)
		f := Fold{before: kept}
		require.Same(t, kept, f.StateBefore(ctx, j, &reader{s: s}, "mordor", nil))
		empty := f.StateBefore(ctx, j, &reader{s: s}, "mordor", nil)
		require.NotSame(t, kept, empty, "forgotten once returned")
		require.Zero(t, empty.LastSeq)
		require.Zero(t, j.loads)
	})
}

// TestCatchUpTo: CatchUpTo reads only the tail after the state, nothing
// when there is none; a foreign message moves the state's sequence on; a
// void of an event the state had folded, or no store, is an error.
func TestCatchUpTo(t *testing.T) {
	ctx := context.Background()
	s := newStream(t)
	day := s.day() // seq 2
	s.day()        // seq 3
	s.day()        // seq 4

	c := s.fold(4)
	require.NoError(t, CatchUpTo(ctx, nil, c, 4), "nothing to read: no store needed")
	require.NoError(t, CatchUpTo(ctx, nil, c, 3), "a state past to: nothing to read")

	require.Error(t, CatchUpTo(ctx, nil, s.fold(1), 4), "no store")

	st := &reader{s: s, foreign: map[uint64]bool{4: true}}
	c = s.fold(1)
	require.NoError(t, CatchUpTo(ctx, st, c, 4))
	require.Equal(t, uint64(4), c.LastSeq, "the foreign message at 4 moves it on")
	require.Equal(t, 2, c.Day, "days 2 and 3 folded, the foreign 4 not")
	require.Len(t, st.queries, 1)
	filter, err := events.CampaignFilter("mordor")
	require.NoError(t, err)
	require.Equal(t, events.Query{Subject: filter, From: 2, To: 4}, events.Query{Subject: st.queries[0].Subject, From: st.queries[0].From, To: st.queries[0].To})

	s.add(events.TypeEventVoided, "voided", events.EventVoided{EventID: day.Event.ID, Reason: "a mistake"}) // seq 5
	c = s.fold(4)
	require.Error(t, CatchUpTo(ctx, &reader{s: s}, c, 5), "a void of a folded event needs a refold")
	require.True(t, c.RefoldNeeded)
}
