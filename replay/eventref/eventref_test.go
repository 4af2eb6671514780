package eventref

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/replay"
)

// source is a replay.Source over rs, in order.
func source(rs ...events.Recorded) replay.Source {
	return func(_ context.Context, fn func(replay.Input) error) error {
		for _, r := range rs {
			if err := fn(replay.Input{Recorded: r}); err != nil {
				return err
			}
		}
		return nil
	}
}

func rec(seq uint64, id, typ string) events.Recorded {
	return events.Recorded{Seq: seq, Event: events.Event{ID: id, Type: typ}}
}

func TestResolve(t *testing.T) {
	ctx := context.Background()
	src := source(rec(1, "aaaa1111-0000", "t.a"), rec(2, "bbbb2222-0000", "t.b"), rec(3, "aaaa3333-9999", "t.c"))
	for arg, want := range map[string]string{"2": "bbbb2222-0000", " BBBB2222-0000 ": "bbbb2222-0000", "bbbb": "bbbb2222-0000", "9999": "aaaa3333-9999"} {
		r, err := Resolve(ctx, src, arg, "campaign c")
		require.NoError(t, err, arg)
		require.Equal(t, want, r.Event.ID, arg)
	}
	_, err := Resolve(ctx, src, "aaaa", "campaign c")
	require.ErrorIs(t, err, ErrAmbiguous)
	require.EqualError(t, err, `"aaaa" matches 2 events in campaign c: #1 aaaa1111-0000 (t.a), #3 aaaa3333-9999 (t.c); give more of the id, or the sequence number`)
	_, err = Resolve(ctx, src, "abc", "campaign c")
	require.ErrorIs(t, err, events.ErrNotFound)
	require.EqualError(t, err, "no event abc in campaign c (a part of an id needs at least 4 characters); give a sequence number or an id as 'journal log' prints them")
	_, err = Resolve(ctx, source(rec(0, "cccc", "t")), "7", "the file")
	require.ErrorIs(t, err, events.ErrNotFound)
	require.Contains(t, err.Error(), "an export has no sequence numbers")
	_, err = Resolve(ctx, src, " ", "campaign c")
	require.False(t, errors.Is(err, events.ErrNotFound))
}

func TestResolveRequest(t *testing.T) {
	ctx := context.Background()
	req := func(seq uint64, id, request string) events.Recorded {
		r := rec(seq, id, events.TypeRollRequested)
		r.Event.Data, _ = json.Marshal(map[string]string{"request": request})
		return r
	}
	src := source(req(1, "e1", "REQ-1111-aaaa"), rec(2, "e2", "t.other"), req(3, "e3", "req-2222-aaaa"))
	got, err := ResolveRequest(ctx, src, "3", "c")
	require.NoError(t, err)
	require.Equal(t, "req-2222-aaaa", got)
	got, err = ResolveRequest(ctx, src, "req-1111", "c")
	require.NoError(t, err)
	require.Equal(t, "req-1111-aaaa", got)
	_, err = ResolveRequest(ctx, src, "2", "c") // not a request
	require.ErrorIs(t, err, events.ErrNotFound)
	_, err = ResolveRequest(ctx, src, "aaaa", "c")
	require.ErrorIs(t, err, ErrAmbiguous)
	require.EqualError(t, err, `"aaaa" matches 2 roll requests in campaign c: req-1111-aaaa #1 e1 (journal.roll.requested.v1), req-2222-aaaa #3 e3 (journal.roll.requested.v1); give more of the request id`)
}
