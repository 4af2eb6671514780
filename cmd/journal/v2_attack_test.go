package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
)

// v2AttackSession plays lodin's attacks on a fallen orc (so that lodin acts
// first every round; the GM's own attacks are not wired in v2) in a v2
// session, round after round until one hit dealt damage and one attack
// missed; the combat and its initiative are the v1 session's before it,
// played before the keys (newAttackTable). It returns the export's lines.
func (tb *v2Table) v2AttackSession() []string {
	t := tb.t
	tb.as("gm").ok("-c", "mordor", "session", "start", "--dice", "v2")
	tb.as("ana").ok("-c", "mordor", "session", "contribute")
	hit, miss := false, false
	for round := 0; round < 60 && !(hit && miss); round++ {
		args := []string{"-c", "mordor", "attack", "lodin", "orco"}
		if round%2 == 1 {
			args = append(args, "--mod", "-40") // a miss, but for an explosion
		}
		out := tb.as("ana").ok(args...)
		require.Contains(t, out, "ana ")
		evs := tb.events("mordor")
		var res events.AttackResolved
		require.NoError(t, evs[len(evs)-1].DecodeData(&res), "the attack's resolution is its last event")
		hit = hit || (res.Hit && res.Damage > 0)
		miss = miss || !res.Hit
		tb.as("gm").ok("-c", "mordor", "combat", "round")
	}
	require.True(t, hit && miss, "a hit and a miss in 60 rounds")
	tb.as("gm").ok("-c", "mordor", "session", "end")
	tb.as("ana").ok("-c", "mordor", "session", "cosign")
	export := tb.ok("-c", "mordor", "export")
	return strings.Split(strings.TrimSpace(export), "\n")
}

// editFirst is edit for the first event of type typ whose data satisfies pick.
func editFirst(t *testing.T, lines []string, typ string, pick func(d map[string]any) bool, change func(d map[string]any)) ([]string, string) {
	t.Helper()
	seen := 0
	for _, line := range lines {
		e, err := events.Decode([]byte(line))
		require.NoError(t, err)
		if e.Type != typ {
			continue
		}
		seen++
		var d map[string]any
		require.NoError(t, json.Unmarshal(e.Data, &d))
		if pick(d) {
			return edit(t, lines, typ, seen, func(_ *events.Event, d map[string]any) { change(d) })
		}
	}
	t.Fatalf("no such %s", typ)
	return nil, ""
}

// newAttackTable is the table of v2AttackSession: a v1 session's combat
// of lodin and a fallen orco, then the keys.
func newAttackTable(t *testing.T) *v2Table {
	return newV2TableAfter(t, func(c *cli) {
		c.ok("-c", "mordor", "session", "start", "--dice", "v1")
		c.ok("-c", "mordor", "combat", "start", "lodin", "orco")
		c.ok("-c", "mordor", "damage", "orco", "40")
		c.ok("-c", "mordor", "session", "end")
	})
}

// v2AttackTampering is TestV2Tampering for the attack path: a v2 session of
// attacks with damage, each change to its export caught by replay --file.
func v2AttackTampering(t *testing.T) {
	tb := newAttackTable(t)
	lines := tb.v2AttackSession()
	out := tb.ok("--lang", "en", "replay", "--file", writeExport(t, lines))
	require.Contains(t, out, "OK:", out)
	require.Contains(t, tb.ok("--lang", "en", "-c", "mordor", "replay"), "OK:")
	require.Contains(t, tb.ok("--lang", "en", "-c", "mordor", "replay", "--reproduce"), "IDENTICAL:")

	isDamage := func(d map[string]any) bool { return d["kind"] == "damage" }
	inV2 := func(d map[string]any) bool { return d["request"] != nil || d["source"] == "lodin" }
	hitAttack := func(d map[string]any) bool { return d["hit"] == true && d["damage"].(float64) > 0 }
	missed := func(d map[string]any) bool { return d["hit"] == false }
	tests := []tamperCase{
		{"the damage face", func() ([]string, string) {
			return editFirst(t, lines, events.TypeRollMade, isDamage, func(d map[string]any) {
				f := d["faces"].([]any)
				f[0] = float64(int(f[0].(float64))%int(d["draws"].([]any)[0].(float64)) + 1)
			})
		}, "faces"},
		{"the damage draws", func() ([]string, string) {
			return editFirst(t, lines, events.TypeRollMade, isDamage, func(d map[string]any) { d["draws"].([]any)[0] = 12.0 })
		}, "draws"},
		{"the damage roll's nonce", func() ([]string, string) {
			return editFirst(t, lines, events.TypeRollMade, isDamage, func(d map[string]any) { d["nonce"] = d["nonce"].(float64) + 1 })
		}, "nonce: rolled"},
		{"the target's HP consequence", func() ([]string, string) {
			return editFirst(t, lines, events.TypeDamageTaken, inV2, func(d map[string]any) { d["amount"] = d["amount"].(float64) + 1 })
		}, "damage taken: orco takes"},
		{"the request's second nonce", func() ([]string, string) {
			return editFirst(t, lines, events.TypeRollRequested, func(d map[string]any) bool { return d["nonces"] != nil },
				func(d map[string]any) { d["nonces"].([]any)[1] = 99.0 })
		}, "takes nonces"},
		{"the damage an attack resolution records", func() ([]string, string) {
			return editFirst(t, lines, events.TypeAttackResolved, hitAttack, func(d map[string]any) { d["damage"] = d["damage"].(float64) + 5 })
		}, "consequences are not the rules'"},
		{"a miss recorded as a hit", func() ([]string, string) {
			return editFirst(t, lines, events.TypeAttackResolved, missed, func(d map[string]any) { d["hit"] = true })
		}, "hit: recorded true"},
		{"the attack's target in the request", func() ([]string, string) {
			return editFirst(t, lines, events.TypeRollRequested, func(d map[string]any) bool { return d["nonces"] != nil },
				func(d map[string]any) { d["target"] = "lodin" })
		}, "target: recorded lodin, signed orco"},
		{"drop the last attack's resolution", func() ([]string, string) {
			last := -1
			for i, l := range lines {
				if e, _ := events.Decode([]byte(l)); e.Type == events.TypeAttackResolved {
					last = i
				}
			}
			var d events.AttackResolved
			e, err := events.Decode([]byte(lines[last]))
			require.NoError(t, err)
			require.NoError(t, e.DecodeData(&d))
			out := append(append([]string(nil), lines[:last]...), lines[last+1:]...)
			return rechain(t, out), d.AttackRoll
		}, "has no resolution after its rolls"},
	}
	requireTamperMismatches(t, tb.cli, tests)
}
