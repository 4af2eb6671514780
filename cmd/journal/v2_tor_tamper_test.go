package main

import (
	"encoding/json"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/signed"
)

// TestV2TORTampering: every change to an exported The One Ring session of
// journal-dice-v2 that the host could make is caught by the default
// replay --file, with a message naming the event.
func TestV2TORTampering(t *testing.T) {
	tb := newTORV2Table(t)
	lines := tb.torV2Session()
	out, _ := tb.verified("--lang", "en", "replay", "--file", writeExport(t, lines)) // flagged when a roll was repeated until it showed what the test wants
	require.Contains(t, out, "OK", out)

	v2 := func(d map[string]any) bool { return d["request"] != nil }
	noEye := func(d map[string]any) bool { return v2(d) && d["eye"] != true && d["rune"] != true }
	quality := func(d map[string]any) bool {
		return v2(d) && (d["quality"] == "great" || d["quality"] == "extraordinary")
	}
	withTrait := func(d map[string]any) bool { return v2(d) && d["trait"] == "Ladrón" }
	favoured := func(d map[string]any) bool { return v2(d) && d["favoured"] == true }
	eyeRoll := func(d map[string]any) bool { return v2(d) && d["eye"] == true && d["character"] == "sam" }
	anyOf := func(map[string]any) bool { return true }
	bilbo := func(d map[string]any) bool { return d["character"] == "bilbo" }
	// rollID is the id of the first roll event pick selects.
	rollID := func(pick func(map[string]any) bool) string {
		for _, l := range lines {
			e, err := events.Decode([]byte(l))
			require.NoError(t, err)
			var d map[string]any
			require.NoError(t, json.Unmarshal(e.Data, &d))
			if e.Type == events.TypeRollMade && pick(d) {
				return e.ID
			}
		}
		t.Fatal("no such roll")
		return ""
	}
	num := func(v any) float64 { return v.(float64) }
	hopeLine := indexOf(t, lines, events.TypeTORHopeSpent, 1)

	tests := []tamperCase{
		{"the feat face", func() ([]string, string) {
			return editFirst(t, lines, events.TypeRollMade, noEye, func(d map[string]any) {
				f := d["faces"].([]any)
				f[0] = float64(int(num(f[0]))%10 + 1)
			})
		}, "faces"},
		{"a success die", func() ([]string, string) {
			return editFirst(t, lines, events.TypeRollMade, v2, func(d map[string]any) {
				f := d["faces"].([]any)
				f[1] = float64(int(num(f[1]))%6 + 1)
			})
		}, "faces"},
		{"the Eye relabelled", func() ([]string, string) {
			return editFirst(t, lines, events.TypeRollMade, noEye, func(d map[string]any) { d["eye"] = true })
		}, "eye: recorded true, rules say false"},
		{"the rune claimed", func() ([]string, string) {
			return editFirst(t, lines, events.TypeRollMade, noEye, func(d map[string]any) { d["rune"] = true })
		}, "rune: recorded true, rules say false"},
		{"a great success changed", func() ([]string, string) {
			return editFirst(t, lines, events.TypeRollMade, quality, func(d map[string]any) { d["quality"] = "none" })
		}, "quality"},
		{"the outcome", func() ([]string, string) {
			return editFirst(t, lines, events.TypeRollMade, v2, func(d map[string]any) {
				d["outcome"] = map[bool]string{true: "failure", false: "success"}[d["outcome"] == "success"]
			})
		}, "outcome"},
		{"the total", func() ([]string, string) {
			return editFirst(t, lines, events.TypeRollMade, v2, func(d map[string]any) { d["total"] = num(d["total"]) + 3 })
		}, "total"},
		{"the TN of a roll against its request", func() ([]string, string) {
			return editFirst(t, lines, events.TypeRollMade, v2, func(d map[string]any) { d["tn"] = num(d["tn"]) - 6 })
		}, "tn: rolled"},
		{"the TN of a request against the signed one", func() ([]string, string) {
			return editFirst(t, lines, events.TypeRollRequested, anyOf, func(d map[string]any) { d["tn"] = num(d["tn"]) - 6 })
		}, "tn: recorded"},
		{"the trait dropped from a roll", func() ([]string, string) {
			return editFirst(t, lines, events.TypeRollMade, withTrait, func(d map[string]any) { delete(d, "trait") })
		}, "trait: rolled"},
		{"a trait added to a request", func() ([]string, string) {
			return editFirst(t, lines, events.TypeRollRequested, bilbo, func(d map[string]any) { d["trait"] = "Ojo avizor" })
		}, "trait: recorded Ojo avizor, signed"},
		{"favoured flipped", func() ([]string, string) {
			return editFirst(t, lines, events.TypeRollMade, favoured, func(d map[string]any) { d["favoured"] = false })
		}, "favoured (the sheet's)"},
		{"a success die dropped, the rank lowered", func() ([]string, string) {
			return editFirst(t, lines, events.TypeRollMade, v2, func(d map[string]any) {
				d["faces"] = d["faces"].([]any)[:len(d["faces"].([]any))-1]
				d["draws"] = d["draws"].([]any)[:len(d["draws"].([]any))-1]
				d["rank"] = num(d["rank"]) - 1
			})
		}, "rank (the sheet's)"},
		{"the draws", func() ([]string, string) {
			return editFirst(t, lines, events.TypeRollMade, v2, func(d map[string]any) { d["draws"].([]any)[0] = 10.0 })
		}, "draws"},
		{"the skill of a roll", func() ([]string, string) {
			return editFirst(t, lines, events.TypeRollMade, bilbo, func(d map[string]any) { d["skill"] = "Sigilo"; d["attribute"] = "Cuerpo" })
		}, "skill: rolled Sigilo"},
		{"a reveal swapped with another roll's", func() ([]string, string) {
			var other map[string]any
			for _, l := range lines[indexOf(t, lines, events.TypeRollMade, 2):] {
				e, _ := events.Decode([]byte(l))
				if e.Type == events.TypeRollMade {
					require.NoError(t, json.Unmarshal(e.Data, &other))
					break
				}
			}
			return editFirst(t, lines, events.TypeRollMade, v2, func(d map[string]any) {
				d["signed"], d["signature"], d["reveal"] = other["signed"], other["signature"], other["reveal"]
			})
		}, "not the signed ones"},
		{"a roll revealed by another player", func() ([]string, string) {
			return edit(t, lines, events.TypeRollMade, 1, func(e *events.Event, d map[string]any) { d["user"], e.Actor = "bea", "bea" })
		}, "revealed by \"bea\""},
		{"Hope not spent", func() ([]string, string) {
			return edit(t, lines, events.TypeTORHopeSpent, 1, func(_ *events.Event, d map[string]any) { d["hope"] = num(d["hope"]) + 1 })
		}, "hope left: recorded"},
		{"the Hope bonus", func() ([]string, string) {
			return edit(t, lines, events.TypeTORHopeSpent, 1, func(_ *events.Event, d map[string]any) {
				d["bonus"] = num(d["bonus"]) + 5
				d["total"] = num(d["total"]) + 5
			})
		}, "bonus: recorded"},
		{"the outcome after Hope", func() ([]string, string) {
			return edit(t, lines, events.TypeTORHopeSpent, 1, func(_ *events.Event, d map[string]any) {
				d["outcome"] = map[bool]string{true: "failure", false: "success"}[d["outcome"] == "success"]
			})
		}, "outcome: recorded"},
		{"Hope spent without a signed request", func() ([]string, string) {
			return edit(t, lines, events.TypeTORHopeSpent, 1, func(_ *events.Event, d map[string]any) {
				delete(d, "signed")
				delete(d, "signature")
				delete(d, "user")
			})
		}, "without its roller's signed request"},
		{"Hope moved to another roll request", func() ([]string, string) {
			return edit(t, lines, events.TypeTORHopeSpent, 1, func(_ *events.Event, d map[string]any) { d["roll_request"] = uuid.NewString() })
		}, "roll request: recorded"},
		{"Hope signed by another player", func() ([]string, string) {
			return edit(t, lines, events.TypeTORHopeSpent, 1, func(e *events.Event, d map[string]any) {
				s := d["signed"].(string)
				d["user"], d["signature"], e.Actor = "bea", tb.key("bea").Sign(s), "bea"
			})
		}, "only its roller spends Hope"},
		{"a Hope request replayed", func() ([]string, string) {
			e, err := events.Decode([]byte(lines[hopeLine]))
			require.NoError(t, err)
			e.ID = uuid.NewString()
			b, err := events.Encode(e)
			require.NoError(t, err)
			out := append(append(append([]string(nil), lines[:hopeLine+1]...), string(b)), lines[hopeLine+1:]...)
			return rechain(t, out), e.ID
		}, "recorded again"},
		{"Hope re-signed with a commitment", func() ([]string, string) {
			return edit(t, lines, events.TypeTORHopeSpent, 1, func(_ *events.Event, d map[string]any) {
				m, err := signed.Parse(d["signed"].(string))
				require.NoError(t, err)
				r := m.(*signed.Request)
				r.Commitment = signed.Hex32{1}
				s, sig, err := tb.key("ana").Seal(r) // even ana's own device cannot make Hope draw
				require.NoError(t, err)
				d["signed"], d["signature"] = s, sig
			})
		}, "Hope draws nothing"},
		{"the bout of madness dropped", func() ([]string, string) {
			i := indexOf(t, lines, events.TypeTORMadnessBegun, 1)
			out := append(append([]string(nil), lines[:i]...), lines[i+1:]...)
			return rechain(t, out), rollID(eyeRoll)
		}, "no bout of madness is recorded"},
		{"a bout of madness moved to a roll that starts none", func() ([]string, string) {
			return edit(t, lines, events.TypeTORMadnessBegun, 1, func(_ *events.Event, d map[string]any) { d["roll"] = rollID(noEye) })
		}, "which does not start one"},
		{"the bout of madness's Hope", func() ([]string, string) {
			return edit(t, lines, events.TypeTORMadnessBegun, 1, func(_ *events.Event, d map[string]any) { d["hope"] = 0.0 })
		}, "bout of madness for roll"},
	}
	require.GreaterOrEqual(t, len(tests), 25)
	requireTamperMismatches(t, tb.cli, tests)
}
