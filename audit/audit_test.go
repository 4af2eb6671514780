package audit_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/audit"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/replay"
)

// fakeStore is a store of recs on any filter, with a last sequence and
// what its streams miss.
type fakeStore struct {
	recs    []events.Recorded
	foreign []events.Foreign
	missing []events.Missing
	reads   []events.Query
}

func (s *fakeStore) Read(_ context.Context, q events.Query, fn func(events.Recorded) error) error {
	s.reads = append(s.reads, q)
	for _, f := range s.foreign {
		if q.OnForeign != nil {
			if err := q.OnForeign(f); err != nil {
				return err
			}
		}
	}
	for _, r := range s.recs {
		if q.To != 0 && r.Seq > q.To {
			break
		}
		if err := fn(r); err != nil {
			return err
		}
	}
	return nil
}

func (s *fakeStore) Last(context.Context, string) (uint64, error) {
	if len(s.recs) == 0 {
		return 0, nil
	}
	return s.recs[len(s.recs)-1].Seq, nil
}

func (s *fakeStore) Missing(context.Context, string) ([]events.Missing, error) {
	return s.missing, nil
}

func rec(seq uint64, typ, session string, at time.Time) events.Recorded {
	return events.Recorded{Seq: seq, Event: events.Event{ID: strings.Repeat("0", 35) + string(rune('0'+seq%10)), Campaign: "c", Session: session, Type: typ, Time: at}}
}

func TestFilter(t *testing.T) {
	f, err := audit.Filter("")
	require.NoError(t, err)
	require.Equal(t, events.AllFilter, f)
	want, err := events.CampaignFilter("mordor")
	require.NoError(t, err)
	f, err = audit.Filter("mordor")
	require.NoError(t, err)
	require.Equal(t, want, f)
}

// TestBoundSource: every pass stops at the last sequence when bound.
func TestBoundSource(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	st := &fakeStore{recs: []events.Recorded{rec(1, events.TypeSessionStarted, "s1", t0)}}
	src, empty, err := audit.BoundSource(ctx, st, events.AllFilter)
	require.NoError(t, err)
	require.False(t, empty)
	st.recs = append(st.recs, rec(2, events.TypeSessionEnded, "s1", t0))
	n := 0
	require.NoError(t, src(ctx, func(replay.Input) error { n++; return nil }))
	require.Equal(t, 1, n, "the event written after the source was bound is not read")

	_, empty, err = audit.BoundSource(ctx, &fakeStore{}, events.AllFilter)
	require.NoError(t, err)
	require.True(t, empty)
}

// TestWarned: a message of the stream that is not an event is told to
// warn, and still handed on.
func TestWarned(t *testing.T) {
	ctx := context.Background()
	st := &fakeStore{foreign: []events.Foreign{{Seq: 7, Subject: "x", Err: errors.New("bad")}}}
	src, _, err := audit.BoundSource(ctx, st, events.AllFilter)
	require.NoError(t, err)
	var told []events.Foreign
	var got []replay.Input
	err = audit.Warned(src, func(f events.Foreign) error { told = append(told, f); return nil })(ctx, func(in replay.Input) error {
		got = append(got, in)
		return nil
	})
	require.NoError(t, err)
	require.Len(t, told, 1)
	require.Equal(t, uint64(7), told[0].Seq)
	require.Equal(t, "bad", told[0].Err.Error())
	require.Len(t, got, 1)
	require.NotNil(t, got[0].Foreign)
}

func TestSeeds(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	hex := strings.Repeat("ab", 32)
	src := replay.Records([]events.Recorded{
		rec(1, events.TypeSessionStarted, "s1", t0),
		rec(2, events.TypeSessionEnded, "s1", t0),
		rec(3, events.TypeSessionStarted, "s2", t0),
	})
	seeds, err := audit.Seeds(ctx, src, []string{hex}, "", "c")
	require.NoError(t, err)
	require.Equal(t, map[string]string{"c/s2": hex}, seeds, "a bare seed goes to the one session not yet revealed")

	seeds, err = audit.Seeds(ctx, src, []string{"s9=" + hex}, "", "c")
	require.NoError(t, err)
	require.Equal(t, map[string]string{"s9": hex}, seeds)

	_, err = audit.Seeds(ctx, src, []string{hex}, "", "other")
	require.ErrorContains(t, err, "--seed HEX: 0 sessions are not yet revealed")
}

func TestParseTime(t *testing.T) {
	for _, tc := range []struct {
		text string
		step time.Duration
	}{
		{"2026-11-30T20:15:00Z", time.Second},
		{"2026-11-30T20:15:00.5Z", time.Nanosecond},
		{"2026-11-30 20:15", time.Minute},
		{"2026-11-30 20:15:07", time.Second},
		{"2026-11-30T20:15", time.Minute},
		{"2026-11-30T20:15:07", time.Second},
	} {
		at, until, err := audit.ParseTime(tc.text)
		require.NoError(t, err, tc.text)
		require.Equal(t, tc.step, until.Sub(at), tc.text)
	}
	_, _, err := audit.ParseTime("yesterday")
	require.ErrorContains(t, err, `--at "yesterday": want a stream sequence or a time`)
}

// TestResolveAt: a sequence is itself, and the store is opened only for
// a time, resolved to the last sequence at or before it.
func TestResolveAt(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	st := &fakeStore{recs: []events.Recorded{
		rec(1, events.TypeSessionStarted, "s1", t0),
		rec(2, events.TypeSessionEnded, "s1", t0.Add(90*time.Second)),
	}}
	opened := 0
	open := func(context.Context) (audit.Store, string, string, error) {
		opened++
		return st, "c", events.AllFilter, nil
	}
	for text, want := range map[string]uint64{"": 0, " 12 ": 12} {
		seq, err := audit.ResolveAt(ctx, text, open)
		require.NoError(t, err)
		require.Equal(t, want, seq)
	}
	require.Zero(t, opened)
	seq, err := audit.ResolveAt(ctx, "2026-12-01T20:00:59Z", open)
	require.NoError(t, err)
	require.Equal(t, uint64(1), seq)
	seq, err = audit.ResolveAt(ctx, "2026-12-01T20:01:30Z", open)
	require.NoError(t, err)
	require.Equal(t, uint64(2), seq)
	_, err = audit.ResolveAt(ctx, "2026-12-01T19:00:00Z", open)
	require.ErrorContains(t, err, "campaign c has no events at or before 2026-12-01T19:00:00Z")
}

// TestLosses: a store that cannot say reports nothing; one that says
// warns of each loss and of messages it counts and does not give.
func TestLosses(t *testing.T) {
	ctx := context.Background()
	var none *audit.Losses
	require.False(t, none.Counts())
	none.Saw(1)
	require.Zero(t, none.Last())
	var buf bytes.Buffer
	require.Zero(t, none.Report(&buf, i18n.EN, true))
	require.Empty(t, buf.String())

	l, err := audit.Lost(ctx, struct{ audit.Store }{&fakeStore{}}, events.AllFilter)
	require.NoError(t, err)
	require.Nil(t, l, "a store that cannot say")

	st := &fakeStore{missing: []events.Missing{{Stream: "S", Deleted: 1, DeletedSeqs: []uint64{2}, Count: 3, Last: 3}}}
	l, err = audit.Lost(ctx, st, events.AllFilter)
	require.NoError(t, err)
	require.True(t, l.Counts())
	require.Equal(t, uint64(3), l.Last())
	l.Saw(1)
	l.Saw(3)
	n := l.Report(&buf, i18n.EN, true)
	require.Equal(t, uint64(2), n, "one deleted, one counted and not given")
	require.Equal(t, 2, strings.Count(buf.String(), "warning: "), buf.String())
}

func TestChainWarnings(t *testing.T) {
	var told []string
	w := &audit.ChainWarnings{Warn: func(format string, args ...any) { told = append(told, fmt.Sprintf(format, args...)) }}
	w.Event(events.Recorded{Seq: 1, Event: events.Event{ID: "e1", Campaign: "c", Type: events.TypeSessionStarted}})
	require.Empty(t, told, "the first event of a chain holds")
	w.Event(events.Recorded{Seq: 5, Event: events.Event{ID: "e2", Campaign: "d", Type: events.TypeSessionStarted, PrevHash: "abc"}})
	require.Len(t, told, 1)
	require.True(t, strings.HasPrefix(told[0], "warning: the campaign's chain breaks at sequence 5 (event e2): prevhash abc"), told[0])
}

func TestSourceError(t *testing.T) {
	err := audit.SourceError(replay.ErrMalformed, "f.jsonl")
	require.ErrorIs(t, err, replay.ErrMalformed)
	require.True(t, strings.HasPrefix(err.Error(), "f.jsonl: "))
	other := errors.New("x")
	require.Equal(t, other, audit.SourceError(other, "f.jsonl"))
	require.Equal(t, replay.ErrMalformed, audit.SourceError(replay.ErrMalformed, ""))
}
