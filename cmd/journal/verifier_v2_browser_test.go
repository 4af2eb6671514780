package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/replay"
)

// replayVerdict is what `journal replay --file` says of lines: "mismatch"
// (exit 1), "flagged" (verified with flags, exit 5) or "verified".
func replayVerdict(t *testing.T, lines []string) string {
	t.Helper()
	rep, err := replay.Verify(context.Background(), replay.JSONLBytes([]byte(strings.Join(lines, "\n")+"\n")), replay.Options{})
	require.NoError(t, err)
	switch {
	case !rep.OK():
		return "mismatch"
	case rep.Flagged() > 0:
		return "flagged"
	}
	return "verified"
}

// offlineVerifier writes 'journal verifier' to a file, opens it in
// headless Chromium and returns a function that checks lines in it and
// returns the page's verdict and text, and the tab.
func offlineVerifier(t *testing.T, c *cli) (func(name string, lines []string) (string, string), context.Context) {
	t.Helper()
	page := c.ok("--lang", "en", "verifier")
	file := filepath.Join(t.TempDir(), "verify.html")
	require.NoError(t, os.WriteFile(file, []byte(page), 0o644))
	ctx := verifierBrowser(t)
	open, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	require.NoError(t, chromedp.Do(open, chromedp.Navigate("file://"+file), chromedp.WaitReady(`#drop`)))
	return func(name string, lines []string) (string, string) {
		t.Helper()
		text, err := json.Marshal(strings.Join(lines, "\n") + "\n")
		require.NoError(t, err)
		c, cancel := context.WithTimeout(ctx, 60*time.Second)
		defer cancel()
		got, err := chromedp.Run(c, chromedp.Evaluate[[]string](`JournalVerifier.check("`+name+`", `+string(text)+`).then(() => [document.getElementById("result").dataset.status, document.getElementById("result").textContent + " " + [...document.querySelectorAll("#rolls li.mismatch")].map((li) => li.textContent).join(" | ")])`, chromedp.EvalAwaitPromise))
		require.NoError(t, err)
		return got[0], got[1]
	}, ctx
}

// verifierCase is an export and whether it is a forgery.
type verifierCase struct {
	name     string
	lines    []string
	tampered bool
	want     string // what the browser's reasons must say of a tampered file
}

// sameVerdicts checks every case in the offline verifier: the browser's
// verdict is replay.Verify's on the same file, and a tampered file is a
// mismatch.
func sameVerdicts(t *testing.T, check func(string, []string) (string, string), cases []verifierCase) {
	t.Helper()
	for _, tc := range cases {
		want := replayVerdict(t, tc.lines)
		if tc.tampered {
			require.Equal(t, "mismatch", want, "%s: replay must catch it", tc.name)
		}
		got, text := check("export.jsonl", tc.lines) // not the name: the reasons are looked for in the text
		assert.Equal(t, want, got, "%s: the browser's verdict is replay's\n%s", tc.name, text)
		if tc.want != "" {
			assert.Contains(t, text, tc.want, "%s: the check that catches it", tc.name)
		}
		t.Logf("%s: %s", tc.name, got)
	}
}

func editAt(t *testing.T, lines []string, typ string, nth int, change func(e *events.Event, d map[string]any)) []string {
	t.Helper()
	out, _ := edit(t, lines, typ, nth, change)
	return out
}

// nthMatching is n (from 1) such that the n-th event of type typ is the
// first whose data satisfies ok.
func nthMatching(t *testing.T, lines []string, typ string, ok func(d map[string]any) bool) int {
	t.Helper()
	seen := 0
	for _, l := range lines {
		e, err := events.Decode([]byte(l))
		require.NoError(t, err)
		if e.Type != typ {
			continue
		}
		seen++
		var d map[string]any
		require.NoError(t, json.Unmarshal(e.Data, &d))
		if ok(d) {
			return seen
		}
	}
	t.Fatalf("no matching %s", typ)
	return 0
}

// TestVerifierV2GMRolls: GM rolls witnessed, on the beacon and unwitnessed
// verify in the offline verifier as replay says (with flags), and a
// witness's value changed, its signature forged or the beacon's signature
// changed are mismatches.
func TestVerifierV2GMRolls(t *testing.T) {
	c := newCLI(t)
	g := recordGMTamper(t, c)
	lines := g.lines
	check, _ := offlineVerifier(t, c)
	sameVerdicts(t, check, []verifierCase{
		{"gm-rolls", lines, false, ""},
		{"witness value changed", editAt(t, lines, events.TypeRollMade, 1, func(_ *events.Event, d map[string]any) { d["reveal"] = strings.Repeat("cd", 32) }), true, "the event's request and r are not the signed witness's"},
		{"witness signature forged", editAt(t, lines, events.TypeRollMade, 1, func(_ *events.Event, d map[string]any) {
			s := []byte(d["signature"].(string))
			s[5] ^= 1
			d["signature"] = string(s)
		}), true, "signature:"},
		{"witness by the requester", editAt(t, lines, events.TypeRollMade, 1, func(e *events.Event, d map[string]any) { d["witness"], d["user"], e.Actor = "gm", "gm", "gm" }), true, "the request's own requester"},
		{"beacon signature changed", editAt(t, lines, events.TypeRollMade, 2, func(_ *events.Event, d map[string]any) { d["beacon_signature"] = tamperSigRound }), true, "beacon round 30662982:"},
		{"unwitnessed relabelled witnessed", editAt(t, lines, events.TypeRollMade, 3, func(e *events.Event, d map[string]any) { d["witness"], d["user"], e.Actor = "bea", "bea", "bea" }), true, "signature:"},
	})

	// The CLI's GM session: an attack witnessed, a beacon round witnessed
	// instead (beacon-not-used), an unwitnessed roll.
	tb := newGMTable(t)
	check2, _ := offlineVerifier(t, tb.cli)
	sameVerdicts(t, check2, []verifierCase{{"gm-session", tb.gmSession(), false, ""}})
}

// TestVerifierV2Paths: contests (a tie and its re-roll), a combat's
// initiative and a healing after it verify as replay says, and a contest's
// winner swapped, the initiative order changed or the HP healed changed
// are mismatches.
func TestVerifierV2Paths(t *testing.T) {
	tb := newV2Table(t)
	lines, _ := tb.v2PathsSession()
	check, _ := offlineVerifier(t, tb.cli)
	won := nthMatching(t, lines, events.TypeContestResolved, func(d map[string]any) bool { return d["winner"] != nil && d["winner"] != "" })
	v2combat := nthMatching(t, lines, events.TypeCombatStarted, func(d map[string]any) bool { return true })
	sameVerdicts(t, check, []verifierCase{
		{"paths", lines, false, ""},
		{"contest winner swapped", editAt(t, lines, events.TypeContestResolved, won, func(_ *events.Event, d map[string]any) {
			if d["winner"] == d["a"] {
				d["winner"] = d["b"]
			} else {
				d["winner"] = d["a"]
			}
		}), true, "the rules give the contest to"},
		{"initiative order changed", editAt(t, lines, events.TypeCombatStarted, v2combat, func(_ *events.Event, d map[string]any) {
			o := d["order"].([]any)
			o[0], o[1] = o[1], o[0]
		}), true, "initiative order"},
		{"initiative total changed", editAt(t, lines, events.TypeCombatStarted, v2combat, func(_ *events.Event, d map[string]any) {
			for k, v := range d["totals"].(map[string]any) {
				d["totals"].(map[string]any)[k] = v.(float64) + 1
				break
			}
		}), true, "initiative totals"},
		{"heal amount changed", editAt(t, lines, events.TypeHealed, nthMatching(t, lines, events.TypeHealed, func(d map[string]any) bool { return d["reason"] == "after_combat" }),
			func(_ *events.Event, d map[string]any) { d["amount"] = d["amount"].(float64) + 1 }), true, "healed"},
	})
}

// TestVerifierV2TOR: a The One Ring v2 session (Hope spent, a trait, a
// bout of madness, co-signed) verifies as replay says, and a feat die
// changed or the Hope's bonus changed are mismatches.
func TestVerifierV2TOR(t *testing.T) {
	tb := newTORV2Table(t)
	lines := tb.torV2Session()
	check, _ := offlineVerifier(t, tb.cli)
	sameVerdicts(t, check, []verifierCase{
		{"tor", lines, false, ""},
		{"feat face changed", editAt(t, lines, events.TypeRollMade, 1, func(_ *events.Event, d map[string]any) {
			f := d["faces"].([]any)
			f[0] = float64(int(f[0].(float64))%12 + 1)
		}), true, "the seed, contributions and reveal give faces"},
		{"hope bonus changed", editAt(t, lines, events.TypeTORHopeSpent, 1, func(_ *events.Event, d map[string]any) {
			d["bonus"] = d["bonus"].(float64) + 1
			d["total"] = d["total"].(float64) + 1
		}), true, "Hope spent:"},
	})
}

// TestVerifierV2Cosigned: co-signed session ends and a void with its
// roller's consent verify as replay says (flagged: voided), and a
// session's end changed after it was co-signed, or the co-signed hash
// changed, are mismatches.
func TestVerifierV2Cosigned(t *testing.T) {
	tb := newV2Table(t)
	lines := tb.v2CosignedSession()
	check, tab := offlineVerifier(t, tb.cli)
	sameVerdicts(t, check, []verifierCase{
		{"cosigned", lines, false, ""},
		{"session end changed after its co-signature", editAt(t, lines, events.TypeSessionEnded, 1, func(e *events.Event, _ map[string]any) { e.Time = e.Time.Add(time.Second) }), true, "the end was changed after it was co-signed"},
		{"cosign hash changed", editAt(t, lines, events.TypeSessionCosigned, 2, func(_ *events.Event, d map[string]any) { d["ended"] = strings.Repeat("ab", 32) }), true, "co-signature:"},
		{"consent reason changed", editAt(t, lines, events.TypeEventVoided, 1, func(_ *events.Event, d map[string]any) { d["reason"] = "another reason" }), true, "void consent:"},
	})

	// As the dashboard and the permalink verify (from the API, no stored
	// bytes): the co-signature is checked against the next event's
	// prevhash, which the server serves and the page cannot check.
	apiMode := func(ls []string) []any {
		text, err := json.Marshal(ls)
		require.NoError(t, err)
		c, cancel := context.WithTimeout(tab, 60*time.Second)
		defer cancel()
		got, err := chromedp.Run(c, chromedp.Evaluate[[]any](`JournalVerify.verifyEvents(`+string(text)+`.map((l) => ({event: JSON.parse(l)})), {}).then((r) => [r.problems.length + Object.values(r.rolls).filter((v) => v.status === "mismatch").length, r.flags.length, r.problems.join("; ")])`, chromedp.EvalAwaitPromise))
		require.NoError(t, err)
		return got
	}
	got := apiMode(lines)
	require.Equal(t, float64(0), got[0], "from the API, the true session holds: %v", got[2])
	require.NotZero(t, got[1], "flagged: a roll voided")
	changed := editAt(t, lines, events.TypeSessionEnded, 1, func(e *events.Event, _ map[string]any) { e.Time = e.Time.Add(time.Second) })
	got = apiMode(changed)
	require.NotZero(t, got[0], "from the API, an end changed after its co-signature is caught")
	require.Contains(t, got[2], "the end was changed after it was co-signed")
}
