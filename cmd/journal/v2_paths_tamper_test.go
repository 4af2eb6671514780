package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/rules/ryf"
	"github.com/campaign-journal/journal/signed"
)

// v2PathsSession plays, with the CLI as ana's device, contests (Percepción
// against the orc's, made even with --mod-b 8) until a tie, its re-roll, a
// combat start, damage by the GM, the combat's end and ana's healing; it
// returns the export's lines and the tied contest's id.
func (tb *v2Table) v2PathsSession() ([]string, string) {
	t := tb.t
	tb.as("gm").ok("-c", "mordor", "session", "start", "--dice", "v2")
	tb.as("ana").ok("-c", "mordor", "session", "contribute")
	tie, won := "", false
	for i := 0; i < 100 && (tie == "" || !won); i++ {
		tb.ok("-c", "mordor", "contest", "lodin", "P", "orco", "percepcion", "--mod-b", "8")
		camp := tb.events("mordor")
		var d events.ContestResolved
		last := camp[len(camp)-1]
		require.Equal(t, events.TypeContestResolved, last.Type)
		require.NoError(t, last.DecodeData(&d))
		if d.Tie && tie == "" {
			tie = last.ID
		}
		won = won || !d.Tie
	}
	require.NotEmpty(t, tie, "no tie in 100 even contests")
	tb.ok("-c", "mordor", "contest", "lodin", "P", "orco", "P", "--mod-b", "8", "--rematch", tie[len(tie)-8:]) // the short id log prints
	n := len(tb.events("mordor"))
	_, errb, code := tb.run("--lang", "en", "-c", "mordor", "contest", "lodin", "P", "orco", "P", "--mod-b", "8", "--rematch", tie, "--request-id", "again")
	require.NotZero(t, code)
	require.Contains(t, errb, "already re-rolled")
	require.Len(t, tb.events("mordor"), n, "a refused re-roll records nothing")
	tb.ok("-c", "mordor", "contest", "lodin", "P", "orco", "P", "--mod-b", "8") // one more, after the re-roll
	tb.ok("-c", "mordor", "combat", "start", "lodin", "orco", "--token", "lodin")
	tb.as("gm").ok("-c", "mordor", "damage", "lodin", "5", "--source", "orco")
	tb.ok("-c", "mordor", "combat", "end")
	tb.as("ana").ok("-c", "mordor", "heal-after-combat", "lodin")
	tb.as("gm").ok("-c", "mordor", "session", "end")
	export := tb.ok("-c", "mordor", "export")
	return strings.Split(strings.TrimSpace(export), "\n"), tie
}

// count is how many events of type typ the lines hold.
func countType(t *testing.T, lines []string, typ string) int {
	n := 0
	for _, l := range lines {
		e, err := events.Decode([]byte(l))
		require.NoError(t, err)
		if e.Type == typ {
			n++
		}
	}
	return n
}

// nthOfKind is the n-th (from 1) roll request of kind, as edit counts it.
func nthOfKind(t *testing.T, lines []string, kind string) int {
	seen := 0
	for _, l := range lines {
		e, err := events.Decode([]byte(l))
		require.NoError(t, err)
		if e.Type != events.TypeRollRequested {
			continue
		}
		seen++
		var d events.RollRequested
		require.NoError(t, e.DecodeData(&d))
		if d.Kind == kind {
			return seen
		}
	}
	t.Fatalf("no %s request", kind)
	return 0
}

// TestV2PathsEndToEnd: contests, initiative and healing of a v2 session
// made with the CLI verify by default, and every change to them a host
// could make is caught by replay --file with a message naming the event.
func TestV2PathsEndToEnd(t *testing.T) {
	tb := newV2Table(t)
	lines, _ := tb.v2PathsSession()
	path := writeExport(t, lines)
	// Verified with flags (exit 5): the session asks for the same contest
	// again until it ties, which the audit flags as a roll repeated for the
	// same action; and no player co-signed its end.
	out := tb.flagged("--lang", "en", "replay", "--file", path)
	require.Contains(t, out, "OK with", out)
	require.Contains(t, out, "a roll repeated for the same action")
	require.NotContains(t, out, "MISMATCH")
	require.Contains(t, tb.flagged("--lang", "en", "-c", "mordor", "replay"), "OK with")
	require.Contains(t, tb.ok("--lang", "en", "-c", "mordor", "replay", "--reproduce"), "IDENTICAL:")

	log := tb.ok("--lang", "en", "-c", "mordor", "log")
	require.Contains(t, log, "asks for contest")
	require.Contains(t, log, "asks for the initiative of lodin, orco")
	require.Contains(t, log, "asks for lodin's healing after the combat")

	contests := countType(t, lines, events.TypeContestResolved)
	rematch := contests - 1 // the re-roll of the tie; one more contest comes after it
	rolls := countType(t, lines, events.TypeRollMade)
	combat := nthOfKind(t, lines, "initiative") // the combat start's request, among requests
	heal := nthOfKind(t, lines, "heal")
	// The rolls of the combat start (2) and the healing (1) are the last 3.
	initRoll, healRoll := rolls-2, rolls
	firstWon := 0    // a contest that was not a tie
	notCritical := 0 // a contest not won with a critical
	for i := 1; i <= contests; i++ {
		e, err := events.Decode([]byte(lines[indexOf(t, lines, events.TypeContestResolved, i)]))
		require.NoError(t, err)
		var d events.ContestResolved
		require.NoError(t, e.DecodeData(&d))
		if !d.Tie && firstWon == 0 {
			firstWon = i
		}
		if !d.Critical && notCritical == 0 {
			notCritical = i
		}
	}
	wonID := ""
	if firstWon > 0 {
		wonID = idAt(t, lines, indexOf(t, lines, events.TypeContestResolved, firstWon))
	}
	// resign re-signs the n-th request with ana's device (a host that
	// holds the player's key too) after changing its action.
	resign := func(n int, change func(a map[string]any, d map[string]any)) ([]string, string) {
		return edit(t, lines, events.TypeRollRequested, n, func(_ *events.Event, d map[string]any) {
			m, err := signed.Parse(d["signed"].(string))
			require.NoError(t, err)
			req := m.(*signed.Request)
			var a map[string]any
			require.NoError(t, json.Unmarshal(req.Action, &a))
			change(a, d)
			req.Action, err = json.Marshal(a)
			require.NoError(t, err)
			msg, sig, err := tb.anaKey().Seal(req)
			require.NoError(t, err)
			d["signed"], d["signature"] = msg, sig
		})
	}
	tests := []tamperCase{
		{"a contest's winner swapped", func() ([]string, string) {
			return edit(t, lines, events.TypeContestResolved, max(firstWon, 1), func(_ *events.Event, d map[string]any) {
				if d["winner"] == "lodin" {
					d["winner"] = "orco"
				} else {
					d["winner"] = "lodin"
				}
				delete(d, "tie")
			})
		}, "winner: recorded"},
		{"a tie made a win", func() ([]string, string) {
			return edit(t, lines, events.TypeContestResolved, 1, func(_ *events.Event, d map[string]any) {
				if d["tie"] == true {
					d["tie"], d["winner"] = false, "lodin"
				} else {
					d["tie"], d["winner"] = true, ""
				}
			})
		}, "tie: recorded"},
		{"a critical claimed for a contest", func() ([]string, string) {
			return edit(t, lines, events.TypeContestResolved, max(notCritical, 1), func(_ *events.Event, d map[string]any) { d["critical"] = true })
		}, "critical: recorded true"},
		{"a contest's verdict reason", func() ([]string, string) {
			return edit(t, lines, events.TypeContestResolved, 1, func(_ *events.Event, d map[string]any) { d["reason"] = "both_failed" })
		}, "reason: recorded"},
		{"a contest's rolls swapped", func() ([]string, string) {
			return edit(t, lines, events.TypeContestResolved, 1, func(_ *events.Event, d map[string]any) { d["roll_a"], d["roll_b"] = d["roll_b"], d["roll_a"] })
		}, "roll_a: recorded"},
		{"a contest's side renamed", func() ([]string, string) {
			return edit(t, lines, events.TypeContestResolved, 1, func(_ *events.Event, d map[string]any) { d["b"] = "lodin" })
		}, "b: recorded"},
		{"a contest side's skill changed vs the signed action", func() ([]string, string) {
			return edit(t, lines, events.TypeRollRequested, 1, func(_ *events.Event, d map[string]any) { d["skill"] = "Pelea" })
		}, "skill: recorded Pelea, signed"},
		{"side B's modifier changed vs the signed action", func() ([]string, string) {
			return edit(t, lines, events.TypeRollRequested, 1, func(_ *events.Event, d map[string]any) { d["modifier_b"] = 3.0 })
		}, "modifier_b: recorded 3, signed 8"},
		{"side B's character changed vs the signed action", func() ([]string, string) {
			return edit(t, lines, events.TypeRollRequested, 1, func(_ *events.Event, d map[string]any) { d["b"] = "lodin" })
		}, "b: recorded lodin, signed orco"},
		{"side B's roll without its modifier", func() ([]string, string) {
			return edit(t, lines, events.TypeRollMade, 2, func(_ *events.Event, d map[string]any) { d["modifier"] = 0.0 })
		}, "modifier: rolled 0, requested 8"},
		{"side A's roll by another character", func() ([]string, string) {
			return edit(t, lines, events.TypeRollMade, 1, func(_ *events.Event, d map[string]any) { d["character"] = "orco" })
		}, "character: rolled orco, requested lodin"},
		{"a contest roll not opposed", func() ([]string, string) {
			return edit(t, lines, events.TypeRollMade, 1, func(_ *events.Event, d map[string]any) { delete(d, "opposed") })
		}, "opposed: rolled false"},
		{"nonce reuse between the sides", func() ([]string, string) {
			return edit(t, lines, events.TypeRollMade, 2, func(_ *events.Event, d map[string]any) { d["nonce"] = 0.0 })
		}, "nonce: rolled 0, requested 1"},
		{"a contest request taking one nonce twice", func() ([]string, string) {
			return edit(t, lines, events.TypeRollRequested, 1, func(_ *events.Event, d map[string]any) { d["nonces"] = []any{0.0, 0.0} })
		}, "takes nonces [0 0]"},
		{"a contest request taking one nonce", func() ([]string, string) {
			return edit(t, lines, events.TypeRollRequested, 1, func(_ *events.Event, d map[string]any) { delete(d, "nonces") })
		}, "takes nonces [0], want [0 1]"},
		{"a side's faces changed", func() ([]string, string) {
			return edit(t, lines, events.TypeRollMade, 2, func(_ *events.Event, d map[string]any) {
				f := d["faces"].([]any)
				f[1] = float64(int(f[1].(float64))%10 + 1)
			})
		}, "faces"},
		{"a side's draws changed", func() ([]string, string) {
			return edit(t, lines, events.TypeRollMade, 2, func(_ *events.Event, d map[string]any) { d["draws"].([]any)[0] = 6.0 })
		}, "draws"},
		{"a contest request's kind changed", func() ([]string, string) {
			return edit(t, lines, events.TypeRollRequested, 1, func(_ *events.Event, d map[string]any) { d["kind"] = "attribute" })
		}, "the signed action"},
		{"the re-roll's rematch changed vs the signed action", func() ([]string, string) {
			return edit(t, lines, events.TypeRollRequested, rematch, func(_ *events.Event, d map[string]any) { d["rematch"] = wonID })
		}, "rematch: recorded"},
		{"a re-roll's contest names another rematch", func() ([]string, string) {
			return edit(t, lines, events.TypeContestResolved, rematch, func(_ *events.Event, d map[string]any) { d["rematch"] = wonID })
		}, "rematch: recorded"},
		{"a rematch of a non-tie, re-signed with the player's key", func() ([]string, string) {
			out, _ := resign(rematch, func(a, d map[string]any) { a["rematch"], d["rematch"] = wonID, wonID })
			return editLines(t, out, events.TypeContestResolved, rematch, func(_ *events.Event, d map[string]any) { d["rematch"] = wonID })
		}, "which was not a tie"},
		{"a rematch of a contest not recorded before, re-signed", func() ([]string, string) {
			later := "0191b4a0-0000-7000-8000-000000000000"
			out, _ := resign(rematch, func(a, d map[string]any) { a["rematch"], d["rematch"] = later, later })
			return editLines(t, out, events.TypeContestResolved, rematch, func(_ *events.Event, d map[string]any) { d["rematch"] = later })
		}, "not recorded before it"},
		{"the tie re-rolled twice, re-signed", func() ([]string, string) {
			e, err := events.Decode([]byte(lines[indexOf(t, lines, events.TypeContestResolved, rematch)]))
			require.NoError(t, err)
			var d events.ContestResolved
			require.NoError(t, e.DecodeData(&d))
			tie := d.Rematch
			out, _ := resign(contests, func(a, d map[string]any) { a["rematch"], d["rematch"] = tie, tie })
			return editLines(t, out, events.TypeContestResolved, contests, func(_ *events.Event, d map[string]any) { d["rematch"] = tie })
		}, "already re-rolled by contest"},
		{"a re-roll with another attribute, re-signed and re-judged", func() ([]string, string) {
			out, _ := resign(rematch, func(a, d map[string]any) { a["a"].(map[string]any)["attribute"], d["attribute"] = "D", "D" })
			var totals [2]ryf.Result
			for i, n := range []int{2*rematch - 1, 2 * rematch} {
				out, _ = editLines(t, out, events.TypeRollMade, n, func(_ *events.Event, d map[string]any) {
					if i == 0 { // lodin's Destreza 9 instead of Percepción 8
						d["attribute"], d["attribute_value"] = "D", 9.0
						d["base"], d["total"] = d["base"].(float64)+2, d["total"].(float64)+2
					}
					totals[i] = ryf.Result{Total: int(d["total"].(float64)), Natural1: d["natural1"] == true, Fumble: d["fumble"] == true}
				})
			}
			v := ryf.Contest(totals[0], totals[1])
			return editLines(t, out, events.TypeContestResolved, rematch, func(_ *events.Event, d map[string]any) {
				d["winner"], d["tie"], d["reason"] = map[int]string{1: "lodin", 2: "orco"}[v.Winner], v.Winner == 0, v.Reason
			})
		}, "a re-roll uses the same skills or attributes: lodin rolled the attribute P in the tie"},
		{"the combat's order changed", func() ([]string, string) {
			return edit(t, lines, events.TypeCombatStarted, 1, func(_ *events.Event, d map[string]any) {
				o := d["order"].([]any)
				o[0], o[1] = o[1], o[0]
			})
		}, "order: recorded"},
		{"an initiative total changed", func() ([]string, string) {
			return edit(t, lines, events.TypeCombatStarted, 1, func(_ *events.Event, d map[string]any) {
				d["totals"].(map[string]any)["orco"] = 99.0
			})
		}, "totals: recorded"},
		{"an initiative roll named wrong", func() ([]string, string) {
			return edit(t, lines, events.TypeCombatStarted, 1, func(_ *events.Event, d map[string]any) {
				d["initiative"].(map[string]any)["orco"] = d["initiative"].(map[string]any)["lodin"]
			})
		}, "initiative rolls: recorded"},
		{"an initiative roll's total", func() ([]string, string) {
			return edit(t, lines, events.TypeRollMade, initRoll, func(_ *events.Event, d map[string]any) { d["total"] = 99.0 })
		}, "total"},
		{"an initiative roll without the signed token", func() ([]string, string) {
			return edit(t, lines, events.TypeRollMade, initRoll, func(_ *events.Event, d map[string]any) { delete(d, "token") })
		}, "token: rolled false, requested true"},
		{"the combat's participants changed vs the signed action", func() ([]string, string) {
			return edit(t, lines, events.TypeRollRequested, combat, func(_ *events.Event, d map[string]any) { d["participants"] = []any{"orco", "lodin"} })
		}, "participants: recorded"},
		{"the combat's tokens changed vs the signed action", func() ([]string, string) {
			return edit(t, lines, events.TypeRollRequested, combat, func(_ *events.Event, d map[string]any) { d["tokens"] = []any{"orco"} })
		}, "tokens: recorded"},
		{"a combat start taking too few nonces", func() ([]string, string) {
			return edit(t, lines, events.TypeRollRequested, combat, func(_ *events.Event, d map[string]any) {
				n := d["nonces"].([]any)
				d["nonces"] = n[:1]
			})
		}, "takes nonces"},
		{"initiative rolls swapped between participants", func() ([]string, string) {
			return edit(t, lines, events.TypeRollMade, initRoll, func(_ *events.Event, d map[string]any) { d["character"] = "orco" })
		}, "character: rolled orco, requested lodin"},
		{"the healing's amount changed", func() ([]string, string) {
			n := countType(t, lines, events.TypeHealed)
			return edit(t, lines, events.TypeHealed, n, func(_ *events.Event, d map[string]any) { d["amount"] = d["amount"].(float64) + 1 })
		}, "amount: recorded"},
		{"the healing given to another", func() ([]string, string) {
			n := countType(t, lines, events.TypeHealed)
			return edit(t, lines, events.TypeHealed, n, func(_ *events.Event, d map[string]any) { d["character"] = "orco" })
		}, "character: recorded orco"},
		{"the healing's d6 changed", func() ([]string, string) {
			return edit(t, lines, events.TypeRollMade, healRoll, func(_ *events.Event, d map[string]any) {
				f := d["faces"].([]any)
				f[0] = float64(int(f[0].(float64))%6 + 1)
				d["total"] = f[0]
			})
		}, "faces"},
		{"the healing request for another character", func() ([]string, string) {
			return edit(t, lines, events.TypeRollRequested, heal, func(_ *events.Event, d map[string]any) { d["character"] = "orco" })
		}, "character: recorded orco, signed lodin"},
		{"the healing request's kind changed", func() ([]string, string) {
			return edit(t, lines, events.TypeRollRequested, heal, func(_ *events.Event, d map[string]any) { d["kind"] = "skill" })
		}, "command: recorded roll, signed heal-after-combat"},
		{"the healing's action with an unknown member, re-signed", func() ([]string, string) {
			return resign(heal, func(a, _ map[string]any) { a["amount"] = 6.0 })
		}, `unknown field "amount"`},
		{"a contest side's member dropped from the action, re-signed", func() ([]string, string) {
			return resign(1, func(a, _ map[string]any) { delete(a["b"].(map[string]any), "token") })
		}, "side b has members"},
		{"the healing's action with another path's member, re-signed", func() ([]string, string) {
			return resign(heal, func(a, _ map[string]any) { a["participants"] = []any{"lodin"} })
		}, "has members"},
		{"a contest's verdict dropped", func() ([]string, string) {
			return drop(t, lines, indexOf(t, lines, events.TypeContestResolved, 1)), idAt(t, lines, indexOf(t, lines, events.TypeRollMade, 1))
		}, "has no consequence before the next one's rolls"},
		{"the healing dropped", func() ([]string, string) {
			n := countType(t, lines, events.TypeHealed)
			return drop(t, lines, indexOf(t, lines, events.TypeHealed, n)), idAt(t, lines, indexOf(t, lines, events.TypeRollMade, healRoll))
		}, "has no consequence after its rolls"},
		{"a healing after the combat with no roll", func() ([]string, string) {
			i := indexOf(t, lines, events.TypeRollMade, healRoll)
			out := drop(t, lines, i)
			return out, idAt(t, out, indexOf(t, out, events.TypeHealed, countType(t, out, events.TypeHealed)))
		}, "without the rolls of a heal request"},
	}
	require.GreaterOrEqual(t, len(tests), 30)
	requireTamperMismatches(t, tb.cli, tests)
	// explain shows a contest roll's v2 steps.
	x := tb.ok("--lang", "en", "explain", idAt(t, lines, indexOf(t, lines, events.TypeRollMade, 2)), "--file", path)
	for _, want := range []string{"journal-dice-v2 session key K", "SHA-256(r) matches the commitment",
		"the request takes nonces [0 1], one per roll, all drawn with the same r: this roll is 2 of 2 (contest), nonce 1", "verdict: verified"} {
		require.Contains(t, x, want)
	}
}

// editLines is edit on lines already tampered with.
func editLines(t *testing.T, lines []string, typ string, nth int, change func(e *events.Event, d map[string]any)) ([]string, string) {
	return edit(t, lines, typ, nth, change)
}

// drop removes line i and re-forges the chain, as a host hiding an event.
func drop(t *testing.T, lines []string, i int) []string {
	out := append(append([]string(nil), lines[:i]...), lines[i+1:]...)
	return rechain(t, out)
}
