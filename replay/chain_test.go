package replay_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/memstore"
	"github.com/campaign-journal/journal/replay"
	"github.com/campaign-journal/journal/rules/dice"
)

// chainCampaign records a campaign through the command layer: a v1
// session with a roll, then (v2) a journal-dice-v2 session, both ended.
func chainCampaign(t *testing.T, v2 bool) *recorder {
	t.Helper()
	r := newRecorder(t, "mordor")
	ctx, j, c := r.Ctx, r.J, r.Campaign
	r.Do("campaign", func() (command.Result, error) {
		return j.CreateCampaign(ctx, command.CreateCampaign{ID: c, System: "ryf"})
	})
	r.Do("lodin", func() (command.Result, error) {
		return j.CreateCharacter(ctx, c, command.CreateCharacter{ID: "lodin", Name: "Lodin", Player: "ana",
			Attributes: "F=8,R=7,D=9,I=8,P=8", Skills: "Pelea=5,Sigilo=3", Specialization: "Pelea"})
	})
	r.Do("s1", func() (command.Result, error) { return j.StartSession(ctx, c, "s1", "") })
	r.Do("roll", func() (command.Result, error) {
		return j.Roll(ctx, c, command.RollRequest{Character: "lodin", Skill: "Sigilo", Vs: "media"})
	})
	r.Do("end s1", func() (command.Result, error) { return j.EndSession(ctx, c) })
	if v2 {
		r.Do("s2", func() (command.Result, error) {
			return j.StartSessionWith(ctx, c, command.SessionStart{ID: "s2", Dice: command.DiceV2})
		})
		r.Do("end s2", func() (command.Result, error) { return j.EndSession(ctx, c) })
	}
	r.Do("day", func() (command.Result, error) { return j.NewDay(ctx, c) })
	return r
}

// exportLines is the recorder's export, a line per event.
func exportLines(r *recorder) []string {
	return strings.Split(strings.TrimSuffix(string(r.Export()), "\n"), "\n")
}

// verifyLines verifies an export made of lines.
func verifyLines(t *testing.T, lines []string) replay.Report {
	t.Helper()
	rep, err := replay.Verify(context.Background(), replay.JSONLBytes([]byte(strings.Join(lines, "\n")+"\n")), replay.Options{})
	require.NoError(t, err)
	return rep
}

// chainMismatches lists the What of every chain mismatch of a report.
func chainMismatches(rep replay.Report) []string {
	var out []string
	for _, m := range findMismatch(rep, replay.MismatchChain, "") {
		out = append(out, m.What)
	}
	return out
}

// withoutPrevHash is line with its event's prevhash attribute removed
// (the rest of its bytes as they were).
func withoutPrevHash(t *testing.T, line string) string {
	t.Helper()
	i := strings.Index(line, `,"prevhash":"`)
	require.GreaterOrEqual(t, i, 0, "the line has a prevhash: %s", line)
	return line[:i] + line[i+len(`,"prevhash":"`)+64+1:]
}

// TestChainOnStoredBytes: an export of a campaign chained from its first
// event verifies, from the file as from the store; a line re-spaced (the
// same event, other bytes), two lines swapped, one event dropped or one
// event's prevhash stripped is a chain mismatch, and so is a v2 campaign
// stripped of every prevhash.
func TestChainOnStoredBytes(t *testing.T) {
	r := chainCampaign(t, true)
	lines := exportLines(r)
	require.Empty(t, chainMismatches(verifyLines(t, lines)))
	rep, err := replay.Verify(context.Background(), replay.Records(r.Records()), replay.Options{})
	require.NoError(t, err)
	require.True(t, rep.OK(), "%+v", rep)

	edit := func(f func([]string) []string) []string { return f(append([]string(nil), lines...)) }
	for name, tampered := range map[string][]string{
		"re-spaced line": edit(func(l []string) []string { l[2] = "{ " + l[2][1:]; return l }),
		"trailing space": edit(func(l []string) []string { l[2] += " "; return l }),
		"swapped lines":  edit(func(l []string) []string { l[3], l[4] = l[4], l[3]; return l }),
		"dropped event":  edit(func(l []string) []string { return append(l[:3], l[4:]...) }),
		"one stripped":   edit(func(l []string) []string { l[3] = withoutPrevHash(t, l[3]); return l }),
		"all stripped": edit(func(l []string) []string {
			for i := 1; i < len(l); i++ {
				l[i] = withoutPrevHash(t, l[i])
			}
			return l
		}),
	} {
		t.Run(name, func(t *testing.T) {
			rep := verifyLines(t, tampered)
			require.False(t, rep.OK())
			require.NotEmpty(t, chainMismatches(rep), "a chain mismatch")
		})
	}
}

// TestChainStrippedV1Campaign: a campaign with v1 sessions only, stripped
// of every prevhash, cannot be told from a file of an earlier journal's
// campaign that was never chained: it verifies as that one would (what
// docs/trust.md says an outsider with a file cannot conclude). Stripped
// of one prevhash, it fails.
func TestChainStrippedV1Campaign(t *testing.T) {
	lines := exportLines(chainCampaign(t, false))
	one := append([]string(nil), lines...)
	one[4] = withoutPrevHash(t, one[4])
	require.NotEmpty(t, chainMismatches(verifyLines(t, one)))
	for i := 1; i < len(lines); i++ {
		lines[i] = withoutPrevHash(t, lines[i])
	}
	require.True(t, verifyLines(t, lines).OK())
}

// oldLayout re-stores the events of recs as an earlier journal stored
// them: without prevhash before the campaign's first v2 session start,
// chained from there. It returns the export's lines.
func oldLayout(t *testing.T, st *memstore.Store, recs []events.Recorded) []string {
	t.Helper()
	var lines []string
	chained, prev := false, []byte(nil)
	for _, x := range recs {
		e := x.Event
		if e.Type == events.TypeSessionStarted {
			var d events.SessionStarted
			require.NoError(t, e.DecodeData(&d))
			chained = chained || d.Algorithm == dice.AlgorithmV2
		}
		e.PrevHash = ""
		if chained {
			e.PrevHash = events.ChainHash(prev)
		}
		b, err := events.Encode(e)
		require.NoError(t, err)
		_, err = st.Append(context.Background(), events.Expect{}, e)
		require.NoError(t, err)
		lines, prev = append(lines, string(b)), b
	}
	return lines
}

// TestOldExportsAndAnchors: an export of an earlier journal's campaign,
// chained from its first v2 session, verifies as it did, and a stripped
// prevhash after that start fails it. Once its next command anchors it,
// the export verifies, and an event before the anchor changed (a line
// re-spaced, or dropped) fails the anchor.
func TestOldExportsAndAnchors(t *testing.T) {
	ctx := context.Background()
	r := chainCampaign(t, true)
	st := memstore.New(memstore.Options{})
	lines := oldLayout(t, st, r.Records())
	require.True(t, verifyLines(t, lines).OK(), "an old export verifies as before")
	start := -1
	for i, l := range lines {
		if strings.Contains(l, `"algorithm":"journal-dice-v2"`) {
			start = i
			break
		}
	}
	require.Positive(t, start)
	stripped := append([]string(nil), lines...)
	stripped[start+1] = withoutPrevHash(t, stripped[start+1])
	require.NotEmpty(t, chainMismatches(verifyLines(t, stripped)), "stripped after the v2 start")

	j := command.New(st, command.Options{})
	_, err := j.NewDay(ctx, "mordor")
	require.NoError(t, err)
	var recs []events.Recorded
	require.NoError(t, st.Read(ctx, events.Query{}, func(x events.Recorded) error { recs = append(recs, x); return nil }))
	require.Equal(t, events.TypeChainAnchored, recs[len(lines)].Event.Type)
	var anchored []string
	for _, x := range recs {
		anchored = append(anchored, string(x.Raw))
	}
	require.True(t, verifyLines(t, anchored).OK(), "the anchored export verifies")
	rep, err := replay.Verify(ctx, replay.Records(recs), replay.Options{})
	require.NoError(t, err)
	require.True(t, rep.OK(), "%+v", rep)

	respaced := append([]string(nil), anchored...)
	respaced[1] = "{ " + respaced[1][1:] // before the chain: only the anchor covers it
	got := chainMismatches(verifyLines(t, respaced))
	require.Len(t, got, 1)
	require.Contains(t, got[0], "anchor's hash")
	dropped := append(append([]string(nil), anchored[:1]...), anchored[2:]...)
	got = chainMismatches(verifyLines(t, dropped))
	require.Len(t, got, 1)
	require.Contains(t, got[0], "earlier events")
}

// TestChainNeedsStoredBytes: events that carry no stored bytes (built in
// memory, never stored) cannot have a chain link checked against them:
// the verifier hashes no re-encoding.
func TestChainNeedsStoredBytes(t *testing.T) {
	recs := chainCampaign(t, false).Records()
	recs[2].Raw = nil
	rep, err := replay.Verify(context.Background(), replay.Records(recs), replay.Options{})
	require.NoError(t, err)
	got := chainMismatches(rep)
	require.Len(t, got, 1)
	require.Contains(t, got[0], "no stored bytes")
}
