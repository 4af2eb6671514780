package main

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/memstore"
)

// respaced is lines with line i re-spaced: the same event, other bytes.
func respaced(lines []string, i int) []string {
	out := append([]string(nil), lines...)
	out[i] = "{ " + out[i][1:]
	return out
}

// stripped is lines with the prevhash of the lines in which removed, the
// rest of their bytes as they were.
func stripped(t *testing.T, lines []string, which ...int) []string {
	t.Helper()
	out := append([]string(nil), lines...)
	for _, i := range which {
		k := strings.Index(out[i], `,"prevhash":"`)
		require.GreaterOrEqual(t, k, 0, "line %d has a prevhash", i)
		out[i] = out[i][:k] + out[i][k+len(`,"prevhash":"`)+64+1:]
	}
	return out
}

// allAfterFirst is 1 … len(lines)-1.
func allAfterFirst(lines []string) []int {
	out := make([]int, 0, len(lines))
	for i := 1; i < len(lines); i++ {
		out = append(out, i)
	}
	return out
}

// asEarlierJournal is lines as an earlier journal exported the campaign:
// no prevhash before its first v2 session's start, chained from there
// (each event encoded again with its prevhash).
func asEarlierJournal(t *testing.T, lines []string) (out []string, start int) {
	t.Helper()
	chained, start := false, -1
	for i, l := range lines {
		e, err := events.Decode([]byte(l))
		require.NoError(t, err)
		if !chained && e.Type == events.TypeSessionStarted && strings.Contains(l, `"algorithm":"journal-dice-v2"`) {
			chained, start = true, i
		}
		e.PrevHash = ""
		if chained {
			e.PrevHash = events.ChainHash([]byte(out[i-1]))
		}
		b, err := events.Encode(e)
		require.NoError(t, err)
		out = append(out, string(b))
	}
	require.Positive(t, start, "a v2 session in the export")
	return out, start
}

// keylessV2 records, through the command layer, a campaign with a v1
// session and a journal-dice-v2 one without device keys (so nothing in it
// signs bytes that re-encoding would change), and returns its export.
func keylessV2(t *testing.T) []string {
	t.Helper()
	ctx := context.Background()
	st := memstore.New(memstore.Options{})
	j := command.New(st, command.Options{})
	do := func(_ command.Result, err error) { t.Helper(); require.NoError(t, err) }
	do(j.CreateCampaign(ctx, command.CreateCampaign{ID: "mordor", System: "ryf"}))
	do(j.CreateCharacter(ctx, "mordor", command.CreateCharacter{ID: "lodin", Name: "Lodin", Player: "ana",
		Attributes: "F=8,R=7,D=9,I=8,P=8", Skills: "Pelea=5,Sigilo=3", Specialization: "Pelea"}))
	do(j.StartSession(ctx, "mordor", "s1", ""))
	do(j.Roll(ctx, "mordor", command.RollRequest{Character: "lodin", Skill: "Sigilo", Vs: "media"}))
	do(j.EndSession(ctx, "mordor"))
	do(j.StartSessionWith(ctx, "mordor", command.SessionStart{ID: "s2", Dice: command.DiceV2}))
	do(j.EndSession(ctx, "mordor"))
	do(j.NewDay(ctx, "mordor"))
	var lines []string
	require.NoError(t, st.Read(ctx, events.Query{}, func(r events.Recorded) error {
		lines = append(lines, string(r.Raw))
		return nil
	}))
	return lines
}

// TestVerifierChain: the offline verifier checks the chain on each line's
// exact bytes, as journal replay --file does, with the same verdict: a
// re-spaced line, a prevhash stripped (one, or every one of a v2 export,
// or one of a v1 campaign chained from its first event) are forgeries;
// an earlier journal's export, chained from its first v2 session, still
// verifies, and so does an old campaign anchored by its next command,
// whose anchor catches a line changed or dropped before it.
func TestVerifierChain(t *testing.T) {
	tb := newV2Table(t)
	v2 := tb.v2Session()
	check, _ := offlineVerifier(t, tb.as("gm").cli)
	old, start := asEarlierJournal(t, keylessV2(t))

	v1 := newCLI(t)
	v1.setupCampaign()
	v1.ok("-c", "mordor", "session", "start", "--dice", "v1")
	v1.ok("-c", "mordor", "roll", "lodin", "Sigilo", "--vs", "media")
	v1.ok("-c", "mordor", "session", "end")
	v1lines := strings.Split(strings.TrimSpace(v1.ok("-c", "mordor", "export")), "\n")

	anc := newCLI(t)
	untar(t, oldLayoutTar, anc.dir)
	anc.ok("migrate")
	anc.ok("-c", "demo-ryf", "day", "new")
	anchored := strings.Split(strings.TrimSpace(anc.ok("-c", "demo-ryf", "export")), "\n")
	at := len(anchored) - 2
	require.Contains(t, anchored[at], `"type":"journal.chain.anchored.v1"`)
	dropped := append(append([]string(nil), anchored[:3]...), anchored[4:]...)

	cases := []verifierCase{
		{name: "v2 export", lines: v2},
		{name: "v2, a line re-spaced", lines: respaced(v2, 3), tampered: true, want: "prevhash is not the hash of the line before"},
		{name: "v2, a line with a trailing space", lines: append(append([]string(nil), v2[:3]...), append([]string{v2[3] + " "}, v2[4:]...)...), tampered: true},
		{name: "v2, one prevhash stripped", lines: stripped(t, v2, 4), tampered: true, want: "has no prevhash in a chained campaign"},
		{name: "v2, every prevhash stripped", lines: stripped(t, v2, allAfterFirst(v2)...), tampered: true, want: "has no prevhash in a chained campaign"},
		{name: "v1 campaign", lines: v1lines},
		{name: "v1 campaign, one prevhash stripped", lines: stripped(t, v1lines, 3), tampered: true, want: "has no prevhash in a chained campaign"},
		{name: "an earlier journal's v2 export", lines: old},
		{name: "an earlier journal's v2 export, stripped after its v2 start", lines: stripped(t, old, start+1), tampered: true},
		{name: "an old campaign, anchored", lines: anchored},
		{name: "an old campaign, a line before its anchor re-spaced", lines: respaced(anchored, 2), tampered: true, want: "anchor's hash"},
		{name: "an old campaign, a line before its anchor dropped", lines: dropped, tampered: true, want: "the chain anchor covers"},
	}
	for _, tc := range cases {
		if !tc.tampered {
			require.NotEqual(t, "mismatch", replayVerdict(t, tc.lines), "%s verifies", tc.name)
		}
	}
	sameVerdicts(t, check, cases)
}
