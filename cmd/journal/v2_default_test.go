package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/rules/dice"
)

// algorithms lists the dice algorithm of each session of campaign camp, in
// order.
func (c *cli) algorithms(camp string) []string {
	c.t.Helper()
	var out []string
	for _, e := range c.events(camp) {
		if e.Type != events.TypeSessionStarted {
			continue
		}
		var d events.SessionStarted
		require.NoError(c.t, e.DecodeData(&d))
		out = append(out, d.Algorithm)
	}
	return out
}

// TestSessionStartDefault: a new session is journal-dice-v2 by default
// when the campaign has a registered device key (the GM's alone too), else
// v1 with one line saying which and why (in the user's language); --dice
// v2 is honoured whatever the keys, --dice v1 without keys
// (TestSessionStartNoDowngrade).
func TestSessionStartDefault(t *testing.T) {
	const notice = "no player has a registered device key: register one with `journal key register` or invite players with `journal invite` to make new sessions journal-dice-v2"
	const aviso = "ningún jugador tiene una clave de dispositivo registrada"
	type start struct {
		args   []string // after "session start"
		want   string   // algorithm recorded
		notice bool     // the v1 default's line
	}
	for _, tc := range []struct {
		name  string
		keys  []string // users who register their device key (gm: role gm)
		start []start
	}{
		{"no key", nil, []start{
			{nil, dice.Algorithm, true},
			{[]string{"--dice", "v2"}, dice.AlgorithmV2, false}, // explicit v2 stays allowed
			{[]string{"--dice", "v1"}, dice.Algorithm, false},
		}},
		{"a gm key only", []string{"gm"}, []start{
			{nil, dice.AlgorithmV2, false},
		}},
		{"a player key", []string{"gm", "ana"}, []start{
			{nil, dice.AlgorithmV2, false},
			{[]string{"--dice", "v2"}, dice.AlgorithmV2, false},
		}},
		{"a player key without the gm's", []string{"ana"}, []start{
			{nil, dice.AlgorithmV2, false},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newCLI(t)
			as := func(user string) {
				t.Setenv("JOURNAL_ACTOR", user)
				t.Setenv(device.EnvConfig, filepath.Join(c.dir, "..", user+"-config"))
			}
			as("gm")
			c.setupCampaign()
			for _, u := range tc.keys {
				as(u)
				c.ok("key", "new")
				c.ok("-c", "mordor", "key", "register")
			}
			as("gm")
			var want []string
			for _, s := range tc.start {
				_, errb, code := c.run(append([]string{"--lang", "en", "-c", "mordor", "session", "start"}, s.args...)...)
				require.Equal(t, 0, code, errb)
				if s.notice {
					require.Contains(t, errb, "this session uses "+dice.Algorithm+": "+notice, "the default says which algorithm and why")
					require.Equal(t, 1, strings.Count(strings.TrimSpace(errb), "\n")+1, "one line: %q", errb)
				} else {
					require.NotContains(t, errb, "no player has a registered device key")
				}
				c.ok("-c", "mordor", "session", "end")
				want = append(want, s.want)
			}
			require.Equal(t, want, c.algorithms("mordor"), "the session-started events record the algorithm")
			if tc.start[0].notice {
				// The same line in Spanish.
				_, errb, code := c.run("--lang", "es", "-c", "mordor", "session", "start")
				require.Equal(t, 0, code, errb)
				require.Contains(t, errb, aviso)
				require.Contains(t, errb, "journal key register")
			}
		})
	}
}

// TestSessionStartNoDowngrade: in a campaign with any device key (the
// GM's alone, or a player's), session start --dice v1 exits 1 with one
// line naming why, and records nothing.
func TestSessionStartNoDowngrade(t *testing.T) {
	for _, keys := range [][]string{{"gm"}, {"gm", "ana"}, {"ana"}} {
		sorted := slices.Sorted(slices.Values(keys))
		t.Run(strings.Join(keys, "+"), func(t *testing.T) {
			c := newCLI(t)
			as := func(user string) {
				t.Setenv("JOURNAL_ACTOR", user)
				t.Setenv(device.EnvConfig, filepath.Join(c.dir, "..", user+"-config"))
			}
			as("gm")
			c.setupCampaign()
			for _, u := range keys {
				as(u)
				c.ok("key", "new")
				c.ok("-c", "mordor", "key", "register")
			}
			as("gm")
			before := len(c.events("mordor"))
			out, errb, code := c.run("--lang", "en", "-c", "mordor", "session", "start", "--dice", "v1")
			require.Equal(t, exitFailure, code, "out %q err %q", out, errb)
			require.Contains(t, errb, "no journal-dice-v1 session once device keys are registered (v1 lets the host steer the rolls): campaign mordor has keys of "+strings.Join(sorted, ", ")+"; start it as journal-dice-v2")
			require.Equal(t, 1, strings.Count(strings.TrimSpace(errb), "\n")+1, "one line: %q", errb)
			require.Len(t, c.events("mordor"), before, "nothing recorded")
			require.Empty(t, c.algorithms("mordor"))
		})
	}
}

// TestSessionStartDefaultContributes: the default v2 session contributes
// for the CLI's user, as --dice v2 does, naming the session's seed
// commitment in the signed contribution.
func TestSessionStartDefaultContributes(t *testing.T) {
	tb := newV2Table(t)
	_, errb, code := tb.as("ana").run("-c", "mordor", "session", "start")
	require.Equal(t, 0, code, errb)
	var contributions int
	var commitment string
	for _, e := range tb.events("mordor") {
		switch e.Type {
		case events.TypeSessionStarted:
			var d events.SessionStarted
			require.NoError(t, e.DecodeData(&d))
			commitment = d.Commitment
		case events.TypeSessionContributed:
			contributions++
			var d events.SessionContributed
			require.NoError(t, e.DecodeData(&d))
			require.Contains(t, d.Signed, `"commitment":"`+commitment+`"`, "the contribution is bound to the session's seed")
		}
	}
	require.Equal(t, []string{dice.AlgorithmV2}, tb.algorithms("mordor"))
	require.Equal(t, 1, contributions, "ana's device contributed to the default v2 session")
}

// TestDemoV2: the demo plays journal-dice-v2 by default, for each system:
// device keys registered, players' contributions, reveals, a GM roll
// witnessed by a player's device (RyF), a co-signed end; its verification
// passes with no mismatch and no flag (exit 0); --dice v1 plays the old
// demo, which verifies too.
func TestDemoV2(t *testing.T) {
	for _, tc := range []struct {
		system, campaign string
		players          int
		witnessed        bool // a GM roll witnessed by a player's device
	}{
		{"ryf", "demo-ryf", 2, true},
		{"galaxia", "demo-galaxia", 2, true},
		{"tor", "demo-tor", 3, false},
	} {
		t.Run(tc.system, func(t *testing.T) {
			c := newCLI(t)
			out, errb, code := c.run("--lang", "en", "demo", "--system", tc.system)
			require.Equal(t, 0, code, "stdout: %s\nstderr: %s", out, errb)
			require.NotContains(t, out, "MISMATCH")
			require.NotContains(t, out, "FLAG")
			require.Contains(t, out, "journal-dice-v2: ")
			require.Contains(t, out, "signatures and reveals checked")
			require.Regexp(t, `\nOK: \d+ events, 1 session \(1 verified, 0 mismatch, 0 not yet revealed\), \d+ rolls checked, \d+ verified, 0 unverifiable, 0 voided, 0 mismatches`, out)
			require.Contains(t, out, "end co-signed by ")
			counts := map[string]int{}
			var witnessed int
			for _, e := range c.events(tc.campaign) {
				counts[e.Type]++
				if e.Type != events.TypeRollMade {
					continue
				}
				var d events.RollMade
				require.NoError(t, e.DecodeData(&d))
				require.NotEmpty(t, d.Reveal, "every roll is a v2 roll: %s", e.ID)
				require.NotEqual(t, "none", d.Witness, "no GM roll is unwitnessed")
				if d.Witness != "" {
					witnessed++
				}
			}
			require.Equal(t, []string{dice.AlgorithmV2}, c.algorithms(tc.campaign))
			require.Equal(t, tc.players+1, counts[events.TypeDeviceRegistered], "the GM's and each player's key")
			require.Equal(t, tc.players, counts[events.TypeSessionContributed], "each player's device contributes")
			require.Equal(t, tc.players, counts[events.TypeSessionCosigned], "each player's device co-signs the end")
			require.NotZero(t, counts[events.TypeRollRequested])
			if tc.witnessed {
				require.NotZero(t, witnessed, "the GM's rolls are witnessed by a player's device")
				require.NotZero(t, counts[events.TypeContestResolved], "a contest")
				require.NotZero(t, counts[events.TypeCombatStarted], "a combat")
			}
			// The export verifies on its own too, by default.
			export := filepath.Join(t.TempDir(), "demo.jsonl")
			require.NoError(t, os.WriteFile(export, []byte(c.ok("-c", tc.campaign, "export")), 0o600))
			rep, errb, code := c.run("--lang", "en", "replay", "--file", export)
			require.Equal(t, 0, code, "replay --file: %s %s", rep, errb)
			require.NotContains(t, rep, "FLAG")
		})
	}
	t.Run("v1", func(t *testing.T) {
		c := newCLI(t)
		out, errb, code := c.run("--lang", "en", "demo", "--dice", "v1")
		require.Equal(t, 0, code, "stdout: %s\nstderr: %s", out, errb)
		require.NotContains(t, out, "MISMATCH")
		require.NotContains(t, out, "journal-dice-v2")
		require.Equal(t, []string{dice.Algorithm}, c.algorithms("demo-ryf"))
		for _, e := range c.events("demo-ryf") {
			require.NotEqual(t, events.TypeDeviceRegistered, e.Type, "the v1 demo registers no key")
		}
	})
	t.Run("bad dice", func(t *testing.T) {
		c := newCLI(t)
		_, errb, code := c.run("--lang", "en", "demo", "--dice", "v3")
		require.NotEqual(t, 0, code)
		require.Contains(t, errb, `--dice "v3"`)
	})
}

// TestV2RollAsTyped: in a (default) v2 session `journal roll lodin sigilo`
// signs the skill as the rules name it, so the roll verifies (it recorded
// a roll that did not before).
func TestV2RollAsTyped(t *testing.T) {
	tb := newV2Table(t)
	tb.as("gm").ok("-c", "mordor", "session", "start")
	// A player's contribution: the GM's own (the starter's) does not count.
	tb.as("ana").ok("-c", "mordor", "session", "contribute")
	tb.ok("-c", "mordor", "roll", "lodin", "sigilo", "--vs", "media")
	tb.ok("-c", "mordor", "roll", "lodin", "--attribute", "f", "--vs", "10")
	tb.as("gm").ok("-c", "mordor", "session", "end")
	tb.as("ana").ok("-c", "mordor", "session", "cosign")
	out, errb, code := tb.run("--lang", "en", "-c", "mordor", "replay")
	require.Equal(t, 0, code, "%s\n%s", out, errb)
	require.NotContains(t, out, "MISMATCH")
	require.Equal(t, []string{dice.AlgorithmV2}, tb.algorithms("mordor"))
}
