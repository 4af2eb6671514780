package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/events"
)

// torV2Table is a CLI table of The One Ring with journal-dice-v2: the GM,
// ana (bilbo) and bea (thorin, sam), each with a device key of their own.
type torV2Table struct {
	*cli
	dirs map[string]string
}

func newTORV2Table(t *testing.T) *torV2Table {
	c := newCLI(t)
	tb := &torV2Table{cli: c, dirs: map[string]string{}}
	for _, u := range []string{"gm", "ana", "bea"} {
		tb.dirs[u] = filepath.Join(c.dir, "..", u+"-config")
	}
	tb.as("gm")
	c.ok("campaign", "create", "arda", "--system", "tor")
	c.ok("-c", "arda", "character", "create", "bilbo", "--name", "Bilbo", "--player", "ana", "--attrs", "Cuerpo=3/5,Corazón=6/8,Mente=5/7",
		"--skills", "Atención=3*,Sigilo=3", "--hope", "6", "--culture", "Hobbits de la Comarca", "--traits", "Ladrón,Ojo avizor")
	c.ok("-c", "arda", "character", "create", "thorin", "--name", "Thorin", "--player", "bea", "--attrs", "body=7/9,heart=5/7,wits=2/4",
		"--skills", "Guerrear=3*", "--hope", "8", "--culture", "Enanos")
	c.ok("-c", "arda", "character", "create", "sam", "--name", "Sam", "--player", "bea", "--attrs", "Cuerpo=4/6,Corazón=6/8,Mente=3/5",
		"--skills", "Curar=2", "--hope", "1", "--culture", "hobbit")
	for _, u := range []string{"gm", "ana", "bea"} {
		tb.as(u).ok("key", "new")
		tb.ok("-c", "arda", "key", "register")
	}
	return tb
}

// as makes the next commands run as user, with its device key.
func (tb *torV2Table) as(user string) *torV2Table {
	tb.t.Setenv("JOURNAL_ACTOR", user)
	tb.t.Setenv(device.EnvConfig, tb.dirs[user])
	return tb
}

// key loads user's device key.
func (tb *torV2Table) key(user string) *device.Key {
	k, err := device.NewStore(filepath.Join(tb.dirs[user], "keys")).Load(device.DefaultName)
	require.NoError(tb.t, err)
	return k
}

// recorded runs a command with --json and returns the events it recorded.
func (tb *torV2Table) recorded(args ...string) []events.Event {
	tb.t.Helper()
	out := tb.ok(append(args, "--json")...)
	var doc struct {
		Recorded []struct{ Event events.Event } `json:"recorded"`
	}
	require.NoError(tb.t, json.Unmarshal([]byte(out), &doc), out)
	evs := make([]events.Event, len(doc.Recorded))
	for i, r := range doc.Recorded {
		evs[i] = r.Event
	}
	return evs
}

// rollUntil rolls (as the current user) until a roll satisfies ok.
func (tb *torV2Table) rollUntil(n int, ok func(*events.RollMade) bool, args ...string) []events.Event {
	tb.t.Helper()
	for range n {
		evs := tb.recorded(append([]string{"-c", "arda", "roll"}, args...)...)
		require.Equal(tb.t, events.TypeRollRequested, evs[0].Type)
		var r events.RollMade
		require.NoError(tb.t, evs[1].DecodeData(&r))
		if ok(&r) {
			return evs
		}
	}
	tb.t.Fatalf("no roll %v met the condition in %d rolls", args, n)
	return nil
}

// torV2Session plays a The One Ring v2 session with the CLI: contributions;
// a failure of bilbo and Hope spent on it; a roll with a trait invoked
// before; thorin's rolls up to a great success; sam's up to the Eye with
// Hope below Shadow (a bout of madness); the end. It returns the export.
func (tb *torV2Table) torV2Session() []string {
	t := tb.t
	tb.as("gm").ok("-c", "arda", "session", "start", "--dice", "v2")
	tb.as("ana").ok("-c", "arda", "session", "contribute")
	tb.as("bea").ok("-c", "arda", "session", "contribute")

	tb.as("ana").rollUntil(50, func(r *events.RollMade) bool { return r.Outcome == "failure" && !r.Eye }, "bilbo", "atencion", "--tn", "20")
	hope := tb.recorded("-c", "arda", "hope", "spend", "bilbo")
	require.Len(t, hope, 1)
	require.Equal(t, events.TypeTORHopeSpent, hope[0].Type)
	tb.ok("-c", "arda", "trait", "invoke", "bilbo", "Ladrón", "--roll")
	evs := tb.recorded("-c", "arda", "roll", "bilbo", "Sigilo")
	var r events.RollMade
	require.NoError(t, evs[1].DecodeData(&r))
	require.Equal(t, "Ladrón", r.Trait, "the trait invoked before is the action's")
	require.Equal(t, 14, r.TN)

	tb.as("bea").rollUntil(80, func(r *events.RollMade) bool { return r.Quality == "great" || r.Quality == "extraordinary" }, "thorin", "Guerrear", "--tn", "10")
	tb.as("gm").ok("-c", "arda", "shadow", "gain", "sam", "4")
	evs = tb.as("bea").rollUntil(300, func(r *events.RollMade) bool { return r.Eye }, "sam", "Curar")
	require.Len(t, evs, 3, "the Eye with Hope 1 below Shadow 4: a bout of madness")
	require.Equal(t, events.TypeTORMadnessBegun, evs[2].Type)
	tb.as("gm").ok("-c", "arda", "session", "end")
	tb.as("ana").ok("-c", "arda", "session", "cosign") // the players' devices co-sign the end
	tb.as("bea").ok("-c", "arda", "session", "cosign")
	return strings.Split(strings.TrimSpace(tb.ok("-c", "arda", "export")), "\n")
}

// TestV2TORSessionEndToEnd: a The One Ring session of journal-dice-v2
// through the CLI verifies and reproduces by default, and explain shows a
// TOR roll's v2 steps.
func TestV2TORSessionEndToEnd(t *testing.T) {
	tb := newTORV2Table(t)
	lines := tb.torV2Session()
	path := writeExport(t, lines)
	// Verified with flags (exit 5): rollUntil asks for the same roll again
	// and again until it shows what the test wants, which is what the audit
	// flags as a roll repeated for the same action.
	// (exit 0 when the dice showed it at the first try).
	out, flagged := tb.verified("--lang", "en", "replay", "--file", path)
	if flagged {
		require.Contains(t, out, "a roll repeated for the same action")
	}
	require.Contains(t, out, "journal-dice-v2: 3 contributions")
	stream, _ := tb.verified("--lang", "en", "-c", "arda", "replay")
	require.Contains(t, stream, "OK")
	require.Contains(t, tb.ok("--lang", "en", "-c", "arda", "replay", "--reproduce"), "IDENTICAL:")
	i := indexOf(t, lines, events.TypeRollMade, 1)
	x := tb.ok("--lang", "en", "explain", idAt(t, lines, i), "--file", path)
	for _, want := range []string{"journal-dice-v2 session key K", "SHA-256(r) matches the commitment", "draws (sides, in order): [12 6 6 6]", "verdict: verified"} {
		require.Contains(t, x, want)
	}
	require.Contains(t, x, "the signed request names: skill Atención, TN 20, trait none")
	// The roll Hope was spent on: explain shows the re-judgement.
	hopeLine := indexOf(t, lines, events.TypeTORHopeSpent, 1)
	hope, err := events.Decode([]byte(lines[hopeLine]))
	require.NoError(t, err)
	x = tb.ok("--lang", "en", "explain", hope.CausationID, "--file", path)
	require.Contains(t, x, "Hope: event "+hope.ID)
	require.Contains(t, x, "spends 1 Hope on this roll, drawing nothing: +5")
	require.Contains(t, tb.ok("explain", hope.CausationID, "--file", path), "que gasta 1 de Esperanza en esta tirada sin sacar dados: +5")
	// Hope on ana's roll is ana's: bea's device is refused, nothing recorded.
	tb.as("gm").ok("-c", "arda", "session", "start", "--dice", "v2")
	tb.as("ana").rollUntil(50, func(r *events.RollMade) bool { return r.Outcome == "failure" }, "bilbo", "Sigilo", "--tn", "25")
	before := len(tb.events("arda"))
	_, errb, code := tb.as("bea").run("--lang", "en", "-c", "arda", "hope", "spend", "bilbo")
	require.Equal(t, exitFailure, code, errb)
	require.Contains(t, errb, "only its roller spends Hope")
	require.Len(t, tb.events("arda"), before)
	require.Len(t, tb.as("ana").recorded("-c", "arda", "hope", "spend", "bilbo"), 1)
}
