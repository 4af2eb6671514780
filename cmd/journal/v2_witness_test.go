package main

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
)

var gmRequestLine = regexp.MustCompile(`request ([0-9a-f-]{36}) of gm: it waits for a player's witness \(([^)]*)\) for (\S+);`)

// gmRoll runs a GM's v2 roll with args and returns its request id.
func (tb *v2Table) gmRoll(args ...string) string {
	tb.t.Helper()
	out := tb.as("gm").ok(append([]string{"--lang", "en", "-c", "mordor"}, args...)...)
	m := gmRequestLine.FindStringSubmatch(out)
	require.NotNil(tb.t, m, "%s", out)
	return m[1]
}

// untilResolved retries `roll resolve ID --unwitnessed` while the wait
// runs (it is a second), bounded by guard.
func (tb *v2Table) untilResolved(id string) string {
	tb.t.Helper()
	deadline := time.Now().Add(guard)
	for {
		out, errb, code := tb.as("gm").run("--lang", "en", "-c", "mordor", "roll", "resolve", id, "--unwitnessed")
		if code == 0 {
			return out
		}
		require.Contains(tb.t, errb, "waits for a player's witness", "%s", out)
		require.True(tb.t, time.Now().Before(deadline), "the wait never ended")
		time.Sleep(100 * time.Millisecond)
	}
}

// gmSession plays a v2 session with GM rolls: one witnessed by ana, an
// attack of the GM's NPC witnessed by ana, one resolved unwitnessed after
// its wait, one pinned to a beacon round the machine cannot reach that
// ana witnesses; it returns the export's lines. The combat and its
// initiative are a v1 session's, played before the keys (newGMTable).
func (tb *v2Table) gmSession() []string {
	t := tb.t
	var order []string
	for _, e := range tb.events("mordor") {
		if e.Type == events.TypeCombatStarted {
			var d events.CombatStarted
			require.NoError(t, e.DecodeData(&d))
			order = d.Order
		}
	}
	tb.as("gm").ok("-c", "mordor", "session", "start", "--dice", "v2")
	tb.as("ana").ok("-c", "mordor", "session", "contribute")

	// The GM's NPC attacks (after lodin, if lodin goes first): the request
	// takes both nonces, ana's witness draws the attack and, on a hit, its
	// damage and its consequences.
	if order[0] == "lodin" {
		tb.as("ana").ok("-c", "mordor", "attack", "lodin", "orco", "--mod", "-40")
	}
	attack := tb.gmRoll("attack", "orco", "lodin", "--wait", "60s")
	// A request is named as a user names it: here its first 8 hex digits.
	_, errb, code := tb.as("ana").run("--lang", "en", "-c", "mordor", "roll", "witness", "ffffffff")
	require.Equal(t, exitNotFound, code, "an unknown short request id: %s", errb)
	require.Contains(t, errb, "no event ffffffff in the roll requests of campaign mordor")
	tb.as("ana").ok("-c", "mordor", "roll", "witness", attack[:8])

	out := tb.as("gm").ok("--lang", "en", "-c", "mordor", "roll", "orco", "Pelea", "--wait", "90s")
	m := gmRequestLine.FindStringSubmatch(out)
	require.NotNil(t, m, "%s", out)
	require.Equal(t, "ana", m[2], "who can witness")
	require.Equal(t, "1m30s", m[3], "the wait")
	witnessed := m[1]
	_, errb, code = tb.as("gm").run("--lang", "en", "-c", "mordor", "roll", "witness", witnessed)
	require.NotZero(t, code)
	require.Contains(t, errb, "never by a GM")
	_, errb, code = tb.as("gm").run("--lang", "en", "-c", "mordor", "roll", "resolve", witnessed, "--unwitnessed")
	require.NotZero(t, code)
	require.Contains(t, errb, "more")
	_, errb, code = tb.as("ana").run("--lang", "en", "-c", "mordor", "roll", "resolve", witnessed, "--unwitnessed")
	require.NotZero(t, code)
	require.Contains(t, errb, "only the GM")
	_, errb = tb.as("ana").okErr("--lang", "en", "-c", "mordor", "roll", "witness", witnessed)
	require.Contains(t, errb, "witnessed request "+witnessed+" of gm")
	require.NotContains(t, errb, "WARNING")
	_, errb, code = tb.as("ana").run("--lang", "en", "-c", "mordor", "roll", "witness", witnessed)
	require.NotZero(t, code)
	require.Contains(t, errb, "the first witness wins")

	unwitnessed := tb.gmRoll("roll", "orco", "Pelea", "--wait", "1s")
	out = tb.untilResolved(unwitnessed)
	require.NotEmpty(t, out)

	beaconed := tb.gmRoll("roll", "orco", "--attribute", "F", "--beacon", "70s")
	_, errb, code = tb.as("gm").run("--lang", "en", "-c", "mordor", "roll", "resolve", beaconed, "--beacon", "--relay", "http://127.0.0.1:1")
	require.NotZero(t, code)
	require.Contains(t, errb, "without a route to the beacon")
	_, errb, code = tb.as("gm").run("--lang", "en", "-c", "mordor", "roll", "resolve", beaconed, "--beacon", "--signature", strings.Repeat("ab", 48))
	require.NotZero(t, code)
	require.Contains(t, errb, "bad beacon signature")
	tb.as("ana").ok("-c", "mordor", "roll", "witness", beaconed[len(beaconed)-8:]) // its last 8
	tb.as("gm").ok("-c", "mordor", "session", "end")
	export := tb.ok("-c", "mordor", "export")
	return strings.Split(strings.TrimSpace(export), "\n")
}

// okErr is ok returning stderr too.
func (c *cli) okErr(args ...string) (string, string) {
	c.t.Helper()
	out, errb, code := c.run(args...)
	if code != 0 {
		c.t.Fatalf("journal %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), code, out, errb)
	}
	return out, errb
}

// newGMTable is the table of gmSession: a v1 session's combat of orco and
// lodin, then the keys.
func newGMTable(t *testing.T) *v2Table {
	return newV2TableAfter(t, func(c *cli) {
		c.ok("-c", "mordor", "session", "start", "--dice", "v1")
		c.ok("-c", "mordor", "combat", "start", "orco", "lodin")
		c.ok("-c", "mordor", "session", "end")
	})
}

func TestV2GMRollsCLI(t *testing.T) {
	tb := newGMTable(t)
	lines := tb.gmSession()
	path := writeExport(t, lines)
	out := tb.flagged("--lang", "en", "replay", "--file", path)
	require.Contains(t, out, "OK with", out)
	require.Contains(t, out, "resolved unwitnessed", "the unwitnessed roll is flagged")
	require.Contains(t, out, "but was resolved by ana's witness", "the beacon request witnessed instead is flagged")
	require.NotContains(t, out, "whose key", "ana registered her own key")
	js := tb.flagged("--json", "replay", "--file", path)
	require.Contains(t, js, `"unwitnessed": [`)
	// explain shows where r came from.
	i := indexOf(t, lines, events.TypeRollMade, len(rollsOf(t, lines))-3)
	x := tb.ok("--lang", "en", "explain", idAt(t, lines, i), "--file", path)
	require.Contains(t, x, "witness chains, GM request")
	require.Contains(t, x, "the values of ana")
	require.Contains(t, x, "verdict: verified")
	require.Contains(t, tb.ok("--lang", "en", "-c", "mordor", "replay", "--reproduce"), "IDENTICAL:")
}

// TestV2FollowWitnesses: a player's `journal log --follow` witnesses the
// GM's roll as it is recorded, and says so on stderr.
func TestV2FollowWitnesses(t *testing.T) {
	tb := newV2Table(t)
	tb.serve()
	// ana's follower, as ana: started before the session and the GM's roll.
	tb.as("ana")
	ctx, cancel := context.WithCancel(context.Background())
	out, errb := &syncBuffer{}, &syncBuffer{}
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"--data", tb.dir, "--lang", "en", "-c", "mordor", "log", "--follow"}, out, errb)
	}()
	t.Cleanup(func() { cancel(); <-done })
	waitFor(t, out, "registers a player device")
	tb.as("gm").ok("-c", "mordor", "session", "start", "--dice", "v2")
	id := tb.gmRoll("roll", "orco", "Pelea")
	waitFor(t, errb, "this device witnesses the GM's rolls")
	waitFor(t, errb, "witnessed request "+id+" of gm")
	cancel()
	require.Equal(t, 0, <-done, "%s", errb)
	done <- 0
	var made *events.RollMade
	for _, e := range tb.events("mordor") {
		if e.Type == events.TypeRollMade {
			var d events.RollMade
			require.NoError(t, e.DecodeData(&d))
			made = &d
		}
	}
	require.NotNil(t, made)
	require.Equal(t, "ana", made.Witness)
	require.Equal(t, id, made.Request)
}

// TestV2FollowWitnessesChains: in a session of witness chains (ana's
// device contributed its chain) ana's `journal log --follow` witnesses the
// GM's roll with its chain's value for the request's index, and receipts
// a beacon request before its round.
func TestV2FollowWitnessesChains(t *testing.T) {
	tb := newV2Table(t)
	tb.serve()
	tb.as("gm").ok("-c", "mordor", "session", "start", "--dice", "v2")
	tb.as("ana").ok("-c", "mordor", "session", "contribute")
	ctx, cancel := context.WithCancel(context.Background())
	out, errb := &syncBuffer{}, &syncBuffer{}
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"--data", tb.dir, "--lang", "en", "-c", "mordor", "log", "--follow"}, out, errb)
	}()
	t.Cleanup(func() { cancel(); <-done })
	waitFor(t, out, "contributes")
	id := tb.gmRoll("roll", "orco", "Pelea")
	waitFor(t, errb, "witnessed request "+id+" of gm (witness 1 of this device's chain)")
	beaconed := tb.gmRoll("roll", "orco", "--attribute", "F", "--beacon", "5m")
	waitFor(t, errb, "receipted request "+beaconed+" of gm before its beacon round")
	cancel()
	require.Equal(t, 0, <-done, "%s", errb)
	done <- 0
	var made *events.RollMade
	receipts := 0
	for _, e := range tb.events("mordor") {
		switch e.Type {
		case events.TypeRollMade:
			var d events.RollMade
			require.NoError(t, e.DecodeData(&d))
			if d.Request == id {
				made = &d
			}
		case events.TypeRollReceipted:
			receipts++
		}
	}
	require.NotNil(t, made)
	require.Equal(t, command.WitnessChain, made.Witness)
	require.Equal(t, 1, made.WitnessIndex)
	require.Len(t, made.Witnesses, 1)
	require.Equal(t, "ana", made.Witnesses[0].User)
	require.Equal(t, 1, receipts, "the beacon request receipted once")
}

// waitFor waits, bounded by guard, until b holds want.
func waitFor(t *testing.T, b *syncBuffer, want string) {
	t.Helper()
	deadline := time.Now().Add(guard)
	for !strings.Contains(b.String(), want) {
		require.True(t, time.Now().Before(deadline), "never saw %q in: %s", want, b.String())
		time.Sleep(20 * time.Millisecond)
	}
}

// rollsOf returns the roll events of an export.
func rollsOf(t *testing.T, lines []string) []events.Event {
	var out []events.Event
	for _, l := range lines {
		e, err := events.Decode([]byte(l))
		require.NoError(t, err)
		if e.Type == events.TypeRollMade {
			out = append(out, e)
		}
	}
	return out
}
