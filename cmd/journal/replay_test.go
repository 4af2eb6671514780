package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
)

// writeExport writes an export to a file and returns its path.
func writeExport(t *testing.T, lines []string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "events.jsonl")
	require.NoError(t, os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600))
	return path
}

// noStore is a --data folder that cannot be created: a command that opened
// the journal would fail.
func noStore(t *testing.T) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "not-a-folder")
	require.NoError(t, os.WriteFile(file, nil, 0o600))
	return filepath.Join(file, "data")
}

// tamperRoll changes the data of the nth roll line (from 1) of an export
// and returns the lines and the event's id.
func tamperRoll(t *testing.T, lines []string, nth int, change func(d map[string]any)) ([]string, string) {
	t.Helper()
	out := append([]string(nil), lines...)
	seen := 0
	for i, line := range out {
		e, err := events.Decode([]byte(line))
		require.NoError(t, err)
		if e.Type != events.TypeRollMade {
			continue
		}
		if seen++; seen < nth {
			continue
		}
		var d map[string]any
		require.NoError(t, json.Unmarshal(e.Data, &d))
		change(d)
		e.Data, err = json.Marshal(d)
		require.NoError(t, err)
		b, err := events.Encode(e)
		require.NoError(t, err)
		out[i] = string(b)
		return out, e.ID
	}
	t.Fatalf("no roll %d in the export", nth)
	return nil, ""
}

func TestReplayTheDemo(t *testing.T) {
	c := newCLI(t)
	out := c.ok("demo")
	for _, want := range []string{"Verificación", "sesión demo-ryf/s1: verificada", "OK: "} {
		if !strings.Contains(out, want) {
			t.Fatalf("demo output lacks %q:\n%s", want, out)
		}
	}

	// From the store: verified, and reproduced identically.
	out = c.ok("-c", "demo-ryf", "--lang", "en", "replay")
	if !strings.Contains(out, "session demo-ryf/s1: verified") || !strings.Contains(out, "OK: ") {
		t.Fatalf("replay:\n%s", out)
	}
	var rep struct {
		Totals struct {
			Rolls      int `json:"rolls_checked"`
			Verified   int `json:"rolls_verified"`
			Mismatches int `json:"mismatches"`
		} `json:"totals"`
	}
	require.NoError(t, json.Unmarshal([]byte(c.ok("-c", "demo-ryf", "replay", "--json", "--session", "s1")), &rep))
	if rep.Totals.Rolls == 0 || rep.Totals.Verified != rep.Totals.Rolls || rep.Totals.Mismatches != 0 {
		t.Fatalf("replay --json totals = %+v", rep.Totals)
	}
	out = c.ok("-c", "demo-ryf", "--lang", "en", "replay", "--reproduce")
	for _, want := range []string{"session demo-ryf/s1: identical", "final sheets of 3 characters identical", "transcript of the reproduction", "Combat begins", "IDENTICAL: "} {
		if !strings.Contains(out, want) {
			t.Fatalf("replay --reproduce lacks %q:\n%s", want, out)
		}
	}
	if _, errb, code := c.run("-c", "demo-ryf", "--lang", "en", "replay", "--session", "s7"); code == 0 || !strings.Contains(errb, "no session s7") {
		t.Fatalf("unknown session: exit %d, %s", code, errb)
	}
	if _, errb, code := c.run("-c", "nowhere", "--lang", "en", "replay"); code != exitNotFound || !strings.Contains(errb, "campaign nowhere does not exist") {
		t.Fatalf("unknown campaign: exit %d, %s", code, errb)
	}

	export := strings.Split(strings.TrimSpace(c.ok("-c", "demo-ryf", "export")), "\n")
	file := writeExport(t, export)
	// From the export, with no server: the data folder cannot even exist.
	out, errb, code := c.run("--data", noStore(t), "replay", "--file", file)
	if code != 0 || !strings.Contains(out, "OK: ") {
		t.Fatalf("replay --file: exit %d\n%s\n%s", code, out, errb)
	}
	out, errb, code = c.run("--data", noStore(t), "--lang", "en", "replay", "--file", file, "--reproduce")
	if code != 0 || !strings.Contains(out, "IDENTICAL: ") {
		t.Fatalf("replay --file --reproduce: exit %d\n%s\n%s", code, out, errb)
	}

	t.Run("tampered", func(t *testing.T) {
		tests := []struct {
			name   string
			nth    int
			change func(d map[string]any)
			want   string
		}{
			{"face", 2, func(d map[string]any) {
				f := d["faces"].([]any)
				f[0] = float64(int(f[0].(float64))%10 + 1)
			}, "faces"},
			{"total", 3, func(d map[string]any) { d["total"] = d["total"].(float64) + 1 }, "total"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				lines, id := tamperRoll(t, export, tt.nth, tt.change)
				bad := writeExport(t, lines)
				out, errb, code := c.run("--data", noStore(t), "--lang", "en", "replay", "--file", bad)
				if code != exitMismatch || !strings.Contains(out, "MISMATCH") || !strings.Contains(out, id) || !strings.Contains(out, "FAILED") {
					t.Fatalf("exit %d, want 4 (mismatch) naming event %s\n%s", code, id, out)
				}
				if !strings.Contains(errb, "verification failed") {
					t.Fatalf("stderr = %q", errb)
				}
				var doc struct {
					Sessions []struct {
						Mismatches []struct {
							EventID string `json:"event_id"`
							What    string `json:"what"`
						} `json:"mismatches"`
					} `json:"sessions"`
				}
				out, _, code = c.run("--data", noStore(t), "replay", "--file", bad, "--json")
				require.NoError(t, json.Unmarshal([]byte(out), &doc), out)
				if code != exitMismatch || len(doc.Sessions) != 1 || len(doc.Sessions[0].Mismatches) == 0 || doc.Sessions[0].Mismatches[0].EventID != id {
					t.Fatalf("json: exit %d %s", code, out)
				}
				out, errb, code = c.run("--data", noStore(t), "--lang", "en", "replay", "--file", bad, "--reproduce")
				if code != exitMismatch || !strings.Contains(out, id) || !strings.Contains(out, tt.want+" recorded") || !strings.Contains(errb, "differs") {
					t.Fatalf("reproduce: exit %d, want 4 (mismatch) naming event %s\n%s\n%s", code, id, out, errb)
				}
				out, _, code = c.run("--data", noStore(t), "--lang", "en", "explain", id, "--file", bad)
				if code != exitMismatch || !strings.Contains(out, "verdict:") {
					t.Fatalf("explain of a tampered roll: exit %d\n%s", code, out)
				}
				// In Spanish: the labels, the verdict and the mismatch's words.
				out, _, code = c.run("--data", noStore(t), "--lang", "es", "replay", "--file", bad)
				require.Equal(t, exitMismatch, code)
				for _, want := range []string{"DISCREPANCIA", "FALLIDA: ", id, "con discrepancias"} {
					require.Contains(t, out, want)
				}
				out, _, code = c.run("--data", noStore(t), "--lang", "es", "explain", id, "--file", bad)
				require.Equal(t, exitMismatch, code)
				require.Contains(t, out, "veredicto: ")
				require.NotContains(t, out, "verdict")
			})
		}
	})

	t.Run("explain", func(t *testing.T) {
		var roll events.Event
		for _, line := range export {
			e, err := events.Decode([]byte(line))
			require.NoError(t, err)
			if e.Type == events.TypeRollMade {
				roll = e
				break
			}
		}
		out := c.ok("-c", "demo-ryf", "--lang", "en", "explain", roll.ID)
		for _, want := range []string{"roll " + roll.ID, "commitment", "SHA-256 matches the commitment", "block 0 = ", "bytes drawn:", "mod 10 + 1", "faces derived", "verdict: verified"} {
			if !strings.Contains(out, want) {
				t.Fatalf("explain lacks %q:\n%s", want, out)
			}
		}
		var x struct {
			EventID  string `json:"event_id"`
			Verified bool   `json:"verified"`
			Draws    []any  `json:"draws"`
		}
		out, errb, code := c.run("--data", noStore(t), "explain", roll.ID, "--file", file, "--json")
		require.Equal(t, 0, code, errb)
		require.NoError(t, json.Unmarshal([]byte(out), &x), out)
		if x.EventID != roll.ID || !x.Verified || len(x.Draws) == 0 {
			t.Fatalf("explain --json = %s", out)
		}
		if _, errb, code := c.run("-c", "demo-ryf", "--lang", "en", "explain", export[0][strings.Index(export[0], `"id":"`)+6:][:36]); code == 0 || !strings.Contains(errb, "not a roll") {
			t.Fatalf("explain of a campaign event: exit %d %s", code, errb)
		}
		if _, errb, code := c.run("-c", "demo-ryf", "--lang", "en", "explain", "01900000-0000-7000-8000-000000000000"); code == 0 || !strings.Contains(errb, "no event") {
			t.Fatalf("explain of an unknown event: exit %d %s", code, errb)
		}
	})

	t.Run("stats", func(t *testing.T) {
		out := c.ok("-c", "demo-ryf", "--lang", "en", "stats")
		// The demo's few dice may draw no chart (TestStats checks the charts).
		for _, want := range []string{"luck: ", "d10: n=", "lodin", "orco", "luckier than"} {
			if !strings.Contains(out, want) {
				t.Fatalf("stats lacks %q:\n%s", want, out)
			}
		}
		out = c.ok("-c", "demo-ryf", "--lang", "en", "stats", "--character", "lodin")
		if !strings.Contains(out, "character lodin") || strings.Contains(out, "\norco ") {
			t.Fatalf("stats --character lodin:\n%s", out)
		}
		var rep struct {
			Rolls         int `json:"rolls"`
			Distributions []struct {
				Name     string `json:"name"`
				Observed []int  `json:"observed"`
			} `json:"distributions"`
		}
		out, errb, code := c.run("--data", noStore(t), "stats", "--file", file, "--player", "Ana", "--json")
		require.Equal(t, 0, code, errb)
		require.NoError(t, json.Unmarshal([]byte(out), &rep), out)
		if rep.Rolls == 0 || len(rep.Distributions) == 0 || rep.Distributions[0].Name != "d10" {
			t.Fatalf("stats --json = %s", out)
		}
	})
}

func TestReplayGivenSeedAndReproduce(t *testing.T) {
	c := newCLI(t)
	c.setupCampaign()
	c.ok("-c", "mordor", "session", "start")
	c.ok("-c", "mordor", "roll", "lodin", "sigilo", "--vs", "media", "--entropy", "ana")
	c.ok("-c", "mordor", "roll", "orco", "--attribute", "F")

	out := c.ok("-c", "mordor", "replay")
	if !strings.Contains(out, "aún sin revelar") || !strings.Contains(out, "OK: ") {
		t.Fatalf("an open session:\n%s", out)
	}
	out = c.ok("-c", "mordor", "replay", "--reproduce")
	if !strings.Contains(out, "aún sin revelar") || !strings.Contains(out, "IDÉNTICA: ") {
		t.Fatalf("reproduce an open session:\n%s", out)
	}

	// The GM holds the seed; given, it verifies the open session.
	a := newApp(&bytes.Buffer{}, &bytes.Buffer{})
	a.dataDir = c.dir
	st, err := a.openStore(context.Background(), false, "")
	require.NoError(t, err)
	seed, err := st.GetSecret(context.Background(), "seed.mordor.s1")
	require.NoError(t, err)
	a.close()
	hexSeed := hex.EncodeToString(seed)

	out = c.ok("-c", "mordor", "--lang", "en", "replay", "--seed", hexSeed)
	if !strings.Contains(out, "session mordor/s1: verified") || !strings.Contains(out, "seed given") {
		t.Fatalf("replay --seed:\n%s", out)
	}
	// explain takes it bare for the roll's session (audit.Explain).
	explained := false
	for _, e := range c.events("mordor") {
		if e.Type == events.TypeRollMade && !explained {
			explained = true
			var x struct {
				Seed        string `json:"seed"`
				SeedMatches *bool  `json:"seed_matches"`
				FacesMatch  *bool  `json:"faces_match"`
			}
			require.NoError(t, json.Unmarshal([]byte(c.ok("-c", "mordor", "explain", e.ID, "--seed", hexSeed, "--json")), &x))
			require.Equal(t, hexSeed, x.Seed)
			require.True(t, x.SeedMatches != nil && *x.SeedMatches && x.FacesMatch != nil && *x.FacesMatch, "explain --seed HEX: %+v", x)
		}
	}
	require.True(t, explained, "a roll to explain")
	file := writeExport(t, strings.Split(strings.TrimSpace(c.ok("-c", "mordor", "export")), "\n"))
	out, errb, code := c.run("--data", noStore(t), "--lang", "en", "replay", "--file", file, "--reproduce", "--session", "s1", "--seed", "s1="+hexSeed)
	if code != 0 || !strings.Contains(out, "session mordor/s1: identical") || !strings.Contains(out, "2 of 2 rolls identical") {
		t.Fatalf("reproduce with a given seed: exit %d\n%s\n%s", code, out, errb)
	}
	wrong := strings.Repeat("ab", 32)
	out, _, code = c.run("-c", "mordor", "--lang", "en", "replay", "--seed", "s1="+wrong)
	if code != exitMismatch || !strings.Contains(out, "commitment") {
		t.Fatalf("a wrong seed: exit %d\n%s", code, out)
	}
	if _, errb, code := c.run("-c", "mordor", "replay", "--seed", "s1=zz"); code == 0 || !strings.Contains(errb, "--seed") {
		t.Fatalf("a bad seed: exit %d %s", code, errb)
	}
}

func TestTimeTravelByTime(t *testing.T) {
	c := newCLI(t)
	c.setupCampaign()
	c.ok("-c", "mordor", "session", "start")
	c.ok("-c", "mordor", "roll", "lodin", "sigilo")
	c.ok("-c", "mordor", "damage", "lodin", "4")
	c.ok("-c", "mordor", "roll", "lodin", "pelea")
	evs := c.events("mordor") // one campaign: event i has sequence i+1

	// The time of the damage: the sheet as of then is the sheet as of its
	// sequence (and of the last event at that same time).
	k := 0
	for i, e := range evs {
		if e.Type == events.TypeDamageTaken {
			k = i
		}
	}
	at := evs[k].Time.Format(time.RFC3339Nano)
	seq := k + 1
	for seq < len(evs) && !evs[seq].Time.After(evs[k].Time) {
		seq++
	}
	bySeq := c.ok("-c", "mordor", "character", "show", "lodin", "--json", "--at", strconv.Itoa(seq))
	byTime := c.ok("-c", "mordor", "character", "show", "lodin", "--json", "--at", at)
	if bySeq != byTime {
		t.Fatalf("sheet at %s:\n%s\nat sequence %d:\n%s", at, byTime, seq, bySeq)
	}
	var sheet struct {
		HP    int `json:"hp"`
		MaxHP int `json:"max_hp"`
		Rolls int `json:"rolls"`
	}
	require.NoError(t, json.Unmarshal([]byte(byTime), &sheet))
	if sheet.HP != sheet.MaxHP-4 || sheet.Rolls != 1 {
		t.Fatalf("sheet at the damage: %+v", sheet)
	}
	// A moment before the damage: not yet.
	before := evs[k].Time.Add(-time.Nanosecond).Format(time.RFC3339Nano)
	require.NoError(t, json.Unmarshal([]byte(c.ok("-c", "mordor", "character", "show", "lodin", "--json", "--at", before)), &sheet))
	if sheet.HP != sheet.MaxHP {
		t.Fatalf("sheet before the damage: %+v", sheet)
	}

	// The log up to that time ends with the damage.
	log := strings.Split(strings.TrimSpace(c.ok("-c", "mordor", "log", "--at", at)), "\n")
	if len(log) != seq || !strings.HasPrefix(strings.TrimSpace(log[len(log)-1]), strconv.Itoa(seq)+" ") {
		t.Fatalf("log --at %s has %d lines, want %d:\n%s", at, len(log), seq, strings.Join(log, "\n"))
	}
	// A time to the second (as the log shows times) takes every event of
	// that second, though events have sub-second times; to the minute, the
	// whole minute.
	last := evs[len(evs)-1].Time
	for _, layout := range []string{"2006-01-02 15:04:05", "2006-01-02T15:04:05", "2006-01-02 15:04", time.RFC3339} {
		text := last.In(time.Local).Format(layout)
		if last.Equal(last.Truncate(time.Second)) {
			t.Skip("the last event fell on a whole second")
		}
		if got, all := c.ok("-c", "mordor", "log", "--at", text), c.ok("-c", "mordor", "log"); got != all {
			t.Fatalf("log --at %q (the last event at %s) leaves events out:\n%s\nlog:\n%s", text, last.Format(time.RFC3339Nano), got, all)
		}
	}
	// Minutes in local time: far in the future is everything, far in the
	// past is nothing.
	if all, now := c.ok("-c", "mordor", "log", "--at", "2999-12-31 23:59"), c.ok("-c", "mordor", "log"); all != now {
		t.Fatalf("log --at the future:\n%s\nlog:\n%s", all, now)
	}
	for _, bad := range []struct{ at, want string }{
		{"2000-01-01 00:00", "no events at or before"},
		{"yesterday", "--at"},
	} {
		if _, errb, code := c.run("-c", "mordor", "--lang", "en", "character", "show", "lodin", "--at", bad.at); code == 0 || !strings.Contains(errb, bad.want) {
			t.Fatalf("--at %q: exit %d %s", bad.at, code, errb)
		}
	}
}
