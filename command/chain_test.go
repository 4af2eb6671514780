package command_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/memstore"
	"github.com/campaign-journal/journal/rules/dice"
)

// requireChainedFrom checks that recs (a campaign's events as stored)
// are chained from recs[from] on: each of those after the campaign's
// first carries the hash of the stored bytes of the one before it.
func requireChainedFrom(t *testing.T, recs []events.Recorded, from int) {
	t.Helper()
	for i := from; i < len(recs); i++ {
		ev := recs[i].Event
		if i == 0 {
			require.Empty(t, ev.PrevHash, "the campaign's first event has no previous one")
			continue
		}
		require.NotNil(t, recs[i-1].Raw, "the store gives the stored bytes")
		if want := events.ChainHash(recs[i-1].Raw); ev.PrevHash != want {
			t.Fatalf("event %d (%s, %s) has prevhash %q, want %q: the hash of the stored bytes of event %d (%s)",
				i+1, ev.ID, ev.Type, ev.PrevHash, want, i, recs[i-1].Event.Type)
		}
	}
}

// typesOf lists the events' types.
func typesOf(recs []events.Recorded) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = r.Event.Type
	}
	return out
}

// TestEveryEventChainedFromTheFirst: a new campaign's events are one chain
// from its creation on, v1 sessions included, and it is never anchored.
func TestEveryEventChainedFromTheFirst(t *testing.T) {
	ctx := context.Background()
	st := memstore.New(memstore.Options{})
	j := newJournal(t, st)
	setup(t, j) // campaign, three characters, a v1 session
	_, err := j.Roll(ctx, "mordor", command.RollRequest{Character: "lodin", Skill: "Sigilo"})
	require.NoError(t, err)
	_, err = j.EndSession(ctx, "mordor")
	require.NoError(t, err)
	_, err = j.NewDay(ctx, "mordor")
	require.NoError(t, err)
	_, err = j.StartSessionWith(ctx, "mordor", command.SessionStart{ID: "s2", Dice: command.DiceV2})
	require.NoError(t, err)
	_, err = j.EndSession(ctx, "mordor")
	require.NoError(t, err)

	recs := campaignEvents(t, st, "mordor")
	require.Equal(t, events.TypeCampaignCreated, recs[0].Event.Type)
	require.NotContains(t, typesOf(recs), events.TypeChainAnchored)
	var started events.SessionStarted
	for _, r := range recs {
		if r.Event.Type == events.TypeSessionStarted {
			require.NoError(t, r.Event.DecodeData(&started))
			require.Equal(t, dice.Algorithm, started.Algorithm, "the first session is v1")
			break
		}
	}
	requireChainedFrom(t, recs, 0)
}

// writeOldCampaign stores a campaign as an earlier journal did: the events
// a journal records for it, written with the store directly, without
// prevhash before the first journal-dice-v2 session's start and chained
// from there (when v2 is set). It returns the events as stored.
func writeOldCampaign(t *testing.T, st *memstore.Store, v2 bool) []events.Recorded {
	t.Helper()
	ctx := context.Background()
	scratch := memstore.New(memstore.Options{})
	j := newJournal(t, scratch)
	setup(t, j)
	_, err := j.Roll(ctx, "mordor", command.RollRequest{Character: "lodin", Skill: "Sigilo"})
	require.NoError(t, err)
	_, err = j.EndSession(ctx, "mordor")
	require.NoError(t, err)
	if v2 {
		_, err = j.StartSessionWith(ctx, "mordor", command.SessionStart{ID: "s2", Dice: command.DiceV2})
		require.NoError(t, err)
		_, err = j.EndSession(ctx, "mordor")
		require.NoError(t, err)
	}
	chained := false
	var prev []byte
	for _, r := range campaignEvents(t, scratch, "mordor") {
		e := r.Event
		if e.Type == events.TypeSessionStarted {
			var d events.SessionStarted
			require.NoError(t, e.DecodeData(&d))
			chained = chained || d.Algorithm == dice.AlgorithmV2
		}
		e.PrevHash = ""
		if chained {
			e.PrevHash = events.ChainHash(prev)
		}
		_, err := st.Append(ctx, events.Expect{}, e)
		require.NoError(t, err)
		prev, err = events.Encode(e)
		require.NoError(t, err)
	}
	return campaignEvents(t, st, "mordor")
}

// anchorOf is the anchor that covers recs: SHA-256 over each one's stored
// bytes followed by a line ending, and their count.
func anchorOf(recs []events.Recorded) events.ChainAnchored {
	h := sha256.New()
	for _, r := range recs {
		h.Write(r.Raw)
		h.Write([]byte("\n"))
	}
	return events.ChainAnchored{Hash: hex.EncodeToString(h.Sum(nil)), Events: len(recs)}
}

// TestOldCampaignAnchoredOnce: a campaign stored by an earlier journal
// (unchained, or chained only from its first v2 session) gets exactly one
// anchor, recorded by the next command before its own event, covering
// every earlier event; the anchor and every event after it are chained.
// Two journals that both append to it (each with the campaign cached)
// still record one anchor.
func TestOldCampaignAnchoredOnce(t *testing.T) {
	for _, v2 := range []bool{false, true} {
		name := "v1 only"
		if v2 {
			name = "chained from a v2 session"
		}
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			st := memstore.New(memstore.Options{})
			old := writeOldCampaign(t, st, v2)
			// Ids of their own: the scratch journal's deterministic ones are taken.
			a, b := command.New(st, command.Options{Clock: fixedClock()}), command.New(st, command.Options{Clock: fixedClock()})
			_, err := a.Load(ctx, "mordor", 0)
			require.NoError(t, err)
			_, err = b.NewDay(ctx, "mordor") // b anchors first
			require.NoError(t, err)
			_, err = a.NewDay(ctx, "mordor") // a's cache is stale: it must not anchor again
			require.NoError(t, err)
			_, err = b.NewDay(ctx, "mordor")
			require.NoError(t, err)

			recs := campaignEvents(t, st, "mordor")
			require.Equal(t, append(typesOf(old), events.TypeChainAnchored, events.TypeDayStarted, events.TypeDayStarted, events.TypeDayStarted), typesOf(recs))
			anchor := recs[len(old)]
			var got events.ChainAnchored
			require.NoError(t, anchor.Event.DecodeData(&got))
			require.Equal(t, anchorOf(old), got, "the anchor covers every earlier event's stored bytes")
			require.Equal(t, "journal", anchor.Event.Actor)
			require.Empty(t, anchor.Event.RequestID)
			requireChainedFrom(t, recs, len(old))

			c, err := a.Load(ctx, "mordor", 0)
			require.NoError(t, err)
			require.Equal(t, anchor.Seq, c.Anchored)
			require.False(t, c.NeedsAnchor())
		})
	}
}

// TestNoAnchorOption: a journal with NoAnchor (a reproduction's) leaves an
// old campaign unanchored.
func TestNoAnchorOption(t *testing.T) {
	ctx := context.Background()
	st := memstore.New(memstore.Options{})
	old := writeOldCampaign(t, st, false)
	j := command.New(st, command.Options{Clock: fixedClock(), NoAnchor: true})
	_, err := j.NewDay(ctx, "mordor")
	require.NoError(t, err)
	recs := campaignEvents(t, st, "mordor")
	require.Equal(t, append(typesOf(old), events.TypeDayStarted), typesOf(recs))
	requireChainedFrom(t, recs, len(old))
}
