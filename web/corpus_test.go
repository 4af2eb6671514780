package web

// The verifiers' shared corpus (testdata/corpus/README.md): exports the
// journal made (genuine/, written by cmd/journal's
// TestCorpusGenuineExports) and variants of them tampered with
// deterministically (tampered/, made here from genuine/ and committed so
// that outside verifiers can use them; TestCorpusFiles checks that the
// committed files are what this generator makes).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/beacon"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
)

const corpusDir = "testdata/corpus"

// corpusNow is the time the corpus's verdicts are given at: a session not
// ended is flagged stale 30 days after its last event, so a verdict
// depends on when it is given (replay.Options.Now, verifyEvents' now).
var corpusNow = time.Date(2026, 12, 8, 0, 0, 0, 0, time.UTC)

// corpusCase is one file of the corpus.
type corpusCase struct {
	name  string // the file's name without .jsonl
	base  string // the genuine export it was made from
	what  string // what was changed (README, verdicts.tsv)
	lines []string
}

// genuineCorpus reads the genuine exports, in name order.
func genuineCorpus(t *testing.T) []corpusCase {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(corpusDir, "genuine", "*.jsonl"))
	require.NoError(t, err)
	require.NotEmpty(t, paths, "no genuine exports in %s", corpusDir)
	slices.Sort(paths)
	var out []corpusCase
	for _, p := range paths {
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		name := strings.TrimSuffix(filepath.Base(p), ".jsonl")
		out = append(out, corpusCase{name: name, base: name, what: "genuine, as the journal exported it", lines: strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")})
	}
	return out
}

// corpusLine is one line decoded: its envelope and its data as a map.
type corpusLine struct {
	ev events.Event
	d  map[string]any
}

func decodeLine(t *testing.T, line string) corpusLine {
	t.Helper()
	e, err := events.Decode([]byte(line))
	require.NoError(t, err, "%s", line)
	var d map[string]any
	require.NoError(t, json.Unmarshal(e.Data, &d))
	return corpusLine{ev: e, d: d}
}

func (l corpusLine) encode(t *testing.T) string {
	t.Helper()
	var err error
	l.ev.Data, err = json.Marshal(l.d)
	require.NoError(t, err)
	b, err := events.Encode(l.ev)
	require.NoError(t, err)
	return string(b)
}

// rechainLines recomputes the prevhash of every chained line, as a host
// that re-forges the chain after a change would.
func rechainLines(t *testing.T, lines []string) []string {
	t.Helper()
	out := slices.Clone(lines)
	for i := 1; i < len(out); i++ {
		e, err := events.Decode([]byte(out[i]))
		if err != nil || e.PrevHash == "" {
			continue
		}
		if h := events.ChainHash([]byte(out[i-1])); h != e.PrevHash {
			e.PrevHash = h
			b, err := events.Encode(e)
			require.NoError(t, err)
			out[i] = string(b)
		}
	}
	return out
}

// corpusGen makes the tampered variants of one genuine export.
type corpusGen struct {
	t     *testing.T
	base  corpusCase
	lines []corpusLine
	out   []corpusCase
	turn  int // spread's
}

// add keeps a variant named base.kind.
func (g *corpusGen) add(kind, what string, lines []string) {
	name := g.base.name + "." + kind
	for _, c := range g.out {
		if c.name == name {
			return // made already by another kind's choice of place
		}
	}
	if slices.Equal(lines, g.base.lines) {
		g.t.Fatalf("%s.%s: the variant is the genuine file", g.base.name, kind)
	}
	g.out = append(g.out, corpusCase{name: name, base: g.base.name, what: what, lines: lines})
}

// where lists the indices of the lines whose event satisfies ok.
func (g *corpusGen) where(ok func(l corpusLine) bool) []int {
	var out []int
	for i, l := range g.lines {
		if ok(l) {
			out = append(out, i)
		}
	}
	return out
}

func ofType(typ string) func(corpusLine) bool {
	return func(l corpusLine) bool { return l.ev.Type == typ }
}

// spread picks up to n indices of idx spread over it, starting at a
// place that turns with every call (the first, the last, the middle), so
// that each kind of change lands at several places over the corpus.
func (g *corpusGen) spread(idx []int, n int) []int {
	g.turn++
	var out []int
	places := []int{0, len(idx) - 1, len(idx) / 2}
	for j := range places {
		k := places[(j+g.turn)%len(places)]
		if k >= 0 && k < len(idx) && len(out) < n && !slices.Contains(out, idx[k]) {
			out = append(out, idx[k])
		}
	}
	return out
}

// editAt changes line i's event and data, re-encodes it and, when
// rechain, re-forges the chain after it.
func (g *corpusGen) editAt(i int, rechain bool, change func(l *corpusLine)) []string {
	l := decodeLine(g.t, g.base.lines[i])
	change(&l)
	out := slices.Clone(g.base.lines)
	out[i] = l.encode(g.t)
	if rechain {
		out = rechainLines(g.t, out)
	}
	return out
}

func (g *corpusGen) pos(i int) string { return fmt.Sprintf("line %d (%s)", i+1, g.lines[i].ev.Type) }

// isV2Roll: a roll of a journal-dice-v2 session (it answers a request).
func isV2Roll(l corpusLine) bool { return l.ev.Type == events.TypeRollMade && l.d["request"] != nil }

func num(v any) int {
	f, _ := v.(float64)
	return int(f)
}

// tamperedCorpus makes every tampered variant of the genuine exports, in a
// fixed order: each kind of change at up to three places of each file.
func tamperedCorpus(t *testing.T, genuine []corpusCase) []corpusCase {
	t.Helper()
	var out []corpusCase
	for _, base := range genuine {
		g := &corpusGen{t: t, base: base}
		for _, line := range base.lines {
			g.lines = append(g.lines, decodeLine(t, line))
		}
		// Two places for the commonest changes, one in the longest files
		// (the corpus stays under 5 MB).
		n := 2
		if len(strings.Join(base.lines, "\n")) > 30000 {
			n = 1
		}
		g.dice(n)
		g.secrets(n)
		g.structure(n)
		g.flagsOnly()
		g.devices()   // corpus_devices_test.go
		g.downgrade() // corpus_devices_test.go
		g.receipts()  // corpus_receipts_test.go
		g.chains()
		g.proved()        // corpus_proved_test.go
		g.hidden()        // corpus_hidden_test.go
		g.rulesVersions() // corpus_rules_test.go
		// The demos are long: a few kinds in them keep the corpus small.
		for _, c := range g.out {
			kind := strings.TrimPrefix(c.name, base.name+".")
			if !strings.HasPrefix(base.name, "demo-") || slices.ContainsFunc([]string{"face-", "signature-", "cut-", "rewritten-before-seen-"}, func(p string) bool { return strings.HasPrefix(kind, p) }) {
				out = append(out, c)
			}
		}
	}
	return out
}

// dice: a face, a total, an outcome, a nonce, the draws, a roll's
// character; each with the chain re-forged, as the host would.
func (g *corpusGen) dice(n int) {
	rolls := g.where(ofType(events.TypeRollMade))
	for _, i := range g.spread(rolls, n) {
		g.add(fmt.Sprintf("face-%d", i+1), "a face changed (chain re-forged): "+g.pos(i), g.editAt(i, true, func(l *corpusLine) {
			f := l.d["faces"].([]any)
			max := 10
			if draws, ok := l.d["draws"].([]any); ok && len(draws) > 0 {
				max = num(draws[0])
			} else if l.d["kind"] == "tor" {
				max = 12
			} else if l.d["kind"] == "damage" || l.d["kind"] == "heal" {
				max = 6
			}
			f[0] = float64(num(f[0])%max + 1)
		}))
	}
	for _, i := range g.spread(rolls, max(n-1, 1)) {
		g.add(fmt.Sprintf("total-%d", i+1), "a total changed (chain re-forged): "+g.pos(i), g.editAt(i, true, func(l *corpusLine) {
			l.d["total"] = float64(num(l.d["total"]) + 1)
		}))
	}
	flip := map[string]string{"success": "failure", "failure": "success", "critical": "success", "fumble": "failure", "natural1": "failure", "rolled": "success"}
	judged := g.where(func(l corpusLine) bool {
		return l.ev.Type == events.TypeRollMade && flip[fmt.Sprint(l.d["outcome"])] != ""
	})
	for _, i := range g.spread(judged, 1) {
		g.add(fmt.Sprintf("outcome-%d", i+1), "an outcome changed (chain re-forged): "+g.pos(i), g.editAt(i, true, func(l *corpusLine) {
			l.d["outcome"] = flip[l.d["outcome"].(string)]
		}))
	}
	for _, i := range g.spread(rolls, 1) {
		g.add(fmt.Sprintf("nonce-%d", i+1), "a roll's nonce changed (chain re-forged): "+g.pos(i), g.editAt(i, true, func(l *corpusLine) {
			l.d["nonce"] = float64(num(l.d["nonce"]) + 7)
		}))
	}
	v2 := g.where(isV2Roll)
	for _, i := range g.spread(v2, 1) {
		g.add(fmt.Sprintf("draws-%d", i+1), "a roll's recorded draws changed (chain re-forged): "+g.pos(i), g.editAt(i, true, func(l *corpusLine) {
			d := l.d["draws"].([]any)
			d[0] = float64(num(d[0]) + 2)
		}))
	}
	for _, i := range g.spread(rolls, 1) {
		g.add(fmt.Sprintf("character-%d", i+1), "a roll's character renamed (chain re-forged): "+g.pos(i), g.editAt(i, true, func(l *corpusLine) {
			l.d["character"] = "nadie"
		}))
	}
}

// secrets: a signature byte, the revealed seed, the commitment, a reveal,
// a witness's value.
func (g *corpusGen) secrets(n int) {
	sigs := g.where(func(l corpusLine) bool { s, ok := l.d["signature"].(string); return ok && s != "" })
	for _, i := range g.spread(sigs, n) {
		g.add(fmt.Sprintf("signature-%d", i+1), "one character of a device's signature changed (chain re-forged): "+g.pos(i), g.editAt(i, true, func(l *corpusLine) {
			s := []byte(l.d["signature"].(string))
			if s[10] == 'A' {
				s[10] = 'B'
			} else {
				s[10] = 'A'
			}
			l.d["signature"] = string(s)
		}))
	}
	hexFlip := func(s string) string {
		b := []byte(s)
		if b[0] == '0' {
			b[0] = '1'
		} else {
			b[0] = '0'
		}
		return string(b)
	}
	for _, i := range g.spread(g.where(ofType(events.TypeSessionEnded)), 1) {
		g.add(fmt.Sprintf("seed-%d", i+1), "the revealed seed changed (chain re-forged): "+g.pos(i), g.editAt(i, true, func(l *corpusLine) {
			l.d["seed"] = hexFlip(l.d["seed"].(string))
		}))
	}
	for _, i := range g.spread(g.where(ofType(events.TypeSessionStarted)), 1) {
		g.add(fmt.Sprintf("commitment-%d", i+1), "a session's seed commitment changed (chain re-forged): "+g.pos(i), g.editAt(i, true, func(l *corpusLine) {
			l.d["commitment"] = hexFlip(l.d["commitment"].(string))
		}))
	}
	reveals := g.where(func(l corpusLine) bool { return isV2Roll(l) && l.d["witness"] == nil })
	for _, i := range g.spread(reveals, 1) {
		g.add(fmt.Sprintf("reveal-%d", i+1), "a player's reveal r changed (chain re-forged): "+g.pos(i), g.editAt(i, true, func(l *corpusLine) {
			l.d["reveal"] = hexFlip(l.d["reveal"].(string))
		}))
	}
	witnessed := g.where(func(l corpusLine) bool {
		w, _ := l.d["witness"].(string)
		return isV2Roll(l) && w != "" && w != "none" && w != "beacon"
	})
	for _, i := range g.spread(witnessed, 1) {
		g.add(fmt.Sprintf("witness-%d", i+1), "a GM roll's witnessed value changed (chain re-forged): "+g.pos(i), g.editAt(i, true, func(l *corpusLine) {
			l.d["reveal"] = hexFlip(l.d["reveal"].(string))
		}))
	}
	contributions := g.where(ofType(events.TypeSessionContributed))
	for _, i := range g.spread(contributions, 1) {
		g.add(fmt.Sprintf("contribution-%d", i+1), "a contribution's value changed (chain re-forged): "+g.pos(i), g.editAt(i, true, func(l *corpusLine) {
			l.d["value"] = hexFlip(l.d["value"].(string))
		}))
	}
}

// structure: an event dropped, duplicated, reordered; a field stripped; a
// line re-spaced; a foreign line added; the file cut before a session's end.
func (g *corpusGen) structure(n int) {
	all := make([]int, len(g.lines))
	for i := range all {
		all[i] = i
	}
	rolls := g.where(ofType(events.TypeRollMade))
	for _, i := range g.spread(rolls, max(n-1, 1)) {
		out := slices.Delete(slices.Clone(g.base.lines), i, i+1)
		g.add(fmt.Sprintf("drop-%d", i+1), "an event dropped: "+g.pos(i), out)
	}
	for _, i := range g.spread(rolls, 1) {
		out := rechainLines(g.t, slices.Delete(slices.Clone(g.base.lines), i, i+1))
		g.add(fmt.Sprintf("drop-rechained-%d", i+1), "an event dropped and the chain re-forged: "+g.pos(i), out)
	}
	if len(g.lines) > 3 {
		i := len(g.lines) / 2
		out := slices.Delete(slices.Clone(g.base.lines), i, i+1)
		g.add(fmt.Sprintf("drop-%d", i+1), "an event dropped: "+g.pos(i), out)
	}
	for _, i := range g.spread(rolls, max(n-1, 1)) {
		out := slices.Insert(slices.Clone(g.base.lines), i+1, g.base.lines[i])
		g.add(fmt.Sprintf("duplicate-%d", i+1), "an event duplicated on the next line: "+g.pos(i), out)
	}
	for _, i := range g.spread(rolls, max(n-1, 1)) {
		if i == 0 {
			continue
		}
		out := slices.Clone(g.base.lines)
		out[i-1], out[i] = out[i], out[i-1]
		g.add(fmt.Sprintf("swap-%d", i+1), "an event swapped with the one before it: "+g.pos(i), out)
	}
	for _, i := range g.spread(rolls, 1) {
		if i == 0 {
			continue
		}
		out := slices.Clone(g.base.lines)
		out[i-1], out[i] = out[i], out[i-1]
		g.add(fmt.Sprintf("swap-rechained-%d", i+1), "an event swapped with the one before it, the chain re-forged: "+g.pos(i), rechainLines(g.t, out))
	}
	chained := g.where(func(l corpusLine) bool { return l.ev.PrevHash != "" })
	for _, i := range g.spread(chained, 1) {
		g.add(fmt.Sprintf("strip-prevhash-%d", i+1), "an event's prevhash stripped: "+g.pos(i), g.editAt(i, false, func(l *corpusLine) { l.ev.PrevHash = "" }))
	}
	for _, i := range g.spread(rolls, 1) {
		field := "faces"
		if _, ok := g.lines[i].d["draws"]; ok {
			field = "draws"
		}
		g.add(fmt.Sprintf("strip-%s-%d", field, i+1), "a roll's "+field+" stripped (chain re-forged): "+g.pos(i), g.editAt(i, true, func(l *corpusLine) { delete(l.d, field) }))
	}
	requests := g.where(ofType(events.TypeRollRequested))
	for _, i := range g.spread(requests, 1) {
		g.add(fmt.Sprintf("strip-signed-%d", i+1), "a request's signed message stripped (chain re-forged): "+g.pos(i), g.editAt(i, true, func(l *corpusLine) { delete(l.d, "signed") }))
	}
	for _, i := range g.spread(rolls, 1) {
		var v any
		require.NoError(g.t, json.Unmarshal([]byte(g.base.lines[i]), &v))
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "")
		require.NoError(g.t, enc.Encode(v))
		spaced := strings.Replace(strings.TrimSpace(b.String()), `":`, `": `, 1)
		out := slices.Clone(g.base.lines)
		out[i] = spaced
		g.add(fmt.Sprintf("respace-%d", i+1), "a line re-spaced (the same event, other bytes: a space after the first colon): "+g.pos(i), out)
	}
	foreign := []string{"this is not an event", `{"hello":"world"}`, `{"specversion":"1.0","id":"x","type":"journal.roll.made.v1"}`}
	for _, i := range g.spread(all, max(n-1, 1)) {
		f := foreign[g.turn%len(foreign)]
		out := slices.Insert(slices.Clone(g.base.lines), i+1, f)
		g.add(fmt.Sprintf("foreign-%d", i+2), fmt.Sprintf("a line that is no event (%s) added as line %d", f, i+2), out)
	}
	ends := g.where(ofType(events.TypeSessionEnded))
	if len(ends) > 0 {
		last := ends[len(ends)-1]
		g.add(fmt.Sprintf("cut-%d", last), fmt.Sprintf("the file cut before the last session's end (its first %d lines)", last), slices.Clone(g.base.lines[:last]))
		// Mid-session: after the first roll of the last session.
		started := g.where(ofType(events.TypeSessionStarted))
		first := started[len(started)-1]
		for _, r := range rolls {
			if r > first && r+1 < last {
				g.add(fmt.Sprintf("cut-%d", r+1), fmt.Sprintf("the file cut mid-session, after a roll (its first %d lines)", r+1), slices.Clone(g.base.lines[:r+1]))
				break
			}
		}
	}
}

// chains: the GM-host's changes to GM rolls of witness chains and beacon
// receipts (docs/design.md §3.3), each with the chain re-forged: a witness's
// value or index, a roll that leaves out a recorded witness, a request's
// witness index, a contribution's anchor, a beacon request moved to under
// 60 s before its round (mismatches); a receipt dropped (a flag,
// beacon-unseen).
func (g *corpusGen) chains() {
	hexFlip := func(s string) string {
		b := []byte(s)
		if b[0] == '0' {
			b[0] = '1'
		} else {
			b[0] = '0'
		}
		return string(b)
	}
	witnessed := g.where(ofType(events.TypeRollWitnessed))
	for _, i := range g.spread(witnessed, 1) {
		g.add(fmt.Sprintf("chain-value-%d", i+1), "a device's chain witness value changed (chain re-forged): "+g.pos(i), g.editAt(i, true, func(l *corpusLine) {
			l.d["value"] = hexFlip(l.d["value"].(string))
		}))
	}
	for _, i := range g.spread(witnessed, 1) {
		g.add(fmt.Sprintf("chain-index-%d", i+1), "a device's chain witness index changed (chain re-forged): "+g.pos(i), g.editAt(i, true, func(l *corpusLine) {
			l.d["index"] = float64(num(l.d["index"]) + 1)
		}))
	}
	combined := g.where(func(l corpusLine) bool {
		ws, _ := l.d["witnesses"].([]any)
		return l.d["witness"] == "chain" && len(ws) > 1
	})
	for _, i := range g.spread(combined, 1) {
		g.add(fmt.Sprintf("chain-left-out-%d", i+1), "a recorded witness left out of a GM roll's witnesses (chain re-forged): "+g.pos(i), g.editAt(i, true, func(l *corpusLine) {
			l.d["witnesses"] = l.d["witnesses"].([]any)[1:]
		}))
	}
	indexed := g.where(func(l corpusLine) bool { return l.ev.Type == events.TypeRollRequested && num(l.d["witness_index"]) > 0 })
	for _, i := range g.spread(indexed, 1) {
		g.add(fmt.Sprintf("request-index-%d", i+1), "a GM request's witness index changed (chain re-forged): "+g.pos(i), g.editAt(i, true, func(l *corpusLine) {
			l.d["witness_index"] = float64(num(l.d["witness_index"]) + 1)
		}))
	}
	anchored := g.where(func(l corpusLine) bool {
		return l.ev.Type == events.TypeSessionContributed && l.d["witness_anchor"] != nil
	})
	for _, i := range g.spread(anchored, 1) {
		g.add(fmt.Sprintf("anchor-%d", i+1), "a contribution's witness anchor changed (chain re-forged): "+g.pos(i), g.editAt(i, true, func(l *corpusLine) {
			l.d["witness_anchor"] = hexFlip(l.d["witness_anchor"].(string))
		}))
	}
	beacons := g.where(func(l corpusLine) bool { return l.ev.Type == events.TypeRollRequested && num(l.d["beacon_round"]) > 0 })
	for _, i := range g.spread(beacons, 1) {
		g.add(fmt.Sprintf("beacon-late-%d", i+1), "a beacon request's time moved to 30 s before its round (chain re-forged): "+g.pos(i), g.editAt(i, true, func(l *corpusLine) {
			l.ev.Time = beacon.Quicknet().TimeOf(uint64(num(l.d["beacon_round"]))).Add(-30 * time.Second)
		}))
	}
	// The GM's signed wait shortened in the event (chain re-forged): a host
	// who is not the GM resolving a GM roll before the wait it chose.
	waits := g.where(func(l corpusLine) bool {
		sg, _ := l.d["signed"].(string)
		return l.ev.Type == events.TypeRollRequested && strings.Contains(sg, `"wait":`)
	})
	for _, i := range g.spread(waits, 1) {
		g.add(fmt.Sprintf("wait-shortened-%d", i+1), "a GM request's signed wait shortened to 1 s in the event (chain re-forged): "+g.pos(i), g.editAt(i, true, func(l *corpusLine) {
			l.d["wait"] = 1
		}))
	}
	for _, i := range g.spread(g.where(ofType(events.TypeRollReceipted)), 1) {
		g.add(fmt.Sprintf("receipt-dropped-%d", i+1), "a beacon receipt dropped (chain re-forged): flagged beacon-unseen, not failed: "+g.pos(i),
			rechainLines(g.t, slices.Delete(slices.Clone(g.base.lines), i, i+1)))
	}
}

// flagsOnly: changes a verifier must flag, not fail: the players'
// co-signatures of the end dropped (they are the file's last lines), every
// time moved 60 days back for a session not ended (stale).
func (g *corpusGen) flagsOnly() {
	cosigned := g.where(ofType(events.TypeSessionCosigned))
	if k := len(cosigned); k > 0 && cosigned[k-1] == len(g.lines)-1 {
		from := len(g.lines)
		for from > 0 && g.lines[from-1].ev.Type == events.TypeSessionCosigned {
			from--
		}
		g.add("uncosigned", fmt.Sprintf("the last session's co-signatures dropped (lines %d to %d): a flag, not a mismatch", from+1, len(g.lines)), slices.Clone(g.base.lines[:from]))
	}
	ends := g.where(ofType(events.TypeSessionEnded))
	starts := g.where(ofType(events.TypeSessionStarted))
	if len(starts) > 0 && (len(ends) < len(starts) || strings.HasSuffix(g.base.name, "-open")) {
		out := slices.Clone(g.base.lines)
		for i := range out {
			l := decodeLine(g.t, out[i])
			l.ev.Time = l.ev.Time.Add(-60 * 24 * time.Hour)
			out[i] = l.encode(g.t)
		}
		g.add("stale", "a session not ended, every time moved 60 days back (chain re-forged): flagged, not failed", rechainLines(g.t, out))
	}
}

// TestCorpusFiles: the committed tampered files are what the generator
// makes of the genuine ones (JOURNAL_UPDATE_CORPUS=1 rewrites them).
func TestCorpusFiles(t *testing.T) {
	genuine := genuineCorpus(t)
	cases := tamperedCorpus(t, genuine)
	dir := filepath.Join(corpusDir, "tampered")
	if os.Getenv("JOURNAL_UPDATE_CORPUS") != "" {
		require.NoError(t, os.RemoveAll(dir))
		require.NoError(t, os.MkdirAll(dir, 0o755))
		for _, c := range cases {
			require.NoError(t, os.WriteFile(filepath.Join(dir, c.name+".jsonl"), []byte(strings.Join(c.lines, "\n")+"\n"), 0o644))
		}
	}
	names := map[string]bool{}
	for _, c := range cases {
		require.False(t, names[c.name], "two variants named %s", c.name)
		names[c.name] = true
		b, err := os.ReadFile(filepath.Join(dir, c.name+".jsonl"))
		require.NoError(t, err, "regenerate with JOURNAL_UPDATE_CORPUS=1 go test ./web -run TestCorpus")
		require.Equal(t, strings.Join(c.lines, "\n")+"\n", string(b), "%s is not what the generator makes (JOURNAL_UPDATE_CORPUS=1 rewrites it)", c.name)
	}
	committed, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	require.NoError(t, err)
	require.Len(t, committed, len(cases), "files in %s the generator does not make", dir)

	// verdicts.tsv: what `journal replay --file` says of every file.
	var b strings.Builder
	b.WriteString("# What `journal replay --file FILE` says of each file of the corpus, as of " + corpusNow.Format(time.RFC3339) + " (README.md).\n")
	b.WriteString("# file\tverdict\texit\tflags\tmismatched events\twhat the file is\n")
	exit := map[string]int{"ok": 0, "flagged": 5, "mismatch": 4, "foreign": 4}
	for _, c := range append(genuine, cases...) {
		v, _ := replayView(t, c.lines, i18n.EN)
		codes := map[string]int{}
		for _, f := range v.Flags {
			codes[strings.Fields(f)[0]]++
		}
		var flags []string
		for _, code := range slices.Sorted(maps.Keys(codes)) {
			flags = append(flags, fmt.Sprintf("%s×%d", code, codes[code]))
		}
		if len(flags) == 0 {
			flags = []string{"-"}
		}
		fmt.Fprintf(&b, "%s\t%s\t%d\t%s\t%d\t%s\n", strings.TrimPrefix(corpusPath(c), corpusDir+"/"), v.Verdict, exit[v.Verdict], strings.Join(flags, ","), len(v.Mismatched), c.what)
	}
	tsv := filepath.Join(corpusDir, "verdicts.tsv")
	if os.Getenv("JOURNAL_UPDATE_CORPUS") != "" {
		require.NoError(t, os.WriteFile(tsv, []byte(b.String()), 0o644))
	}
	got, err := os.ReadFile(tsv)
	require.NoError(t, err)
	require.Equal(t, b.String(), string(got), "%s is not what replay says of the corpus (JOURNAL_UPDATE_CORPUS=1 rewrites it)", tsv)
	t.Logf("%d genuine, %d tampered", len(genuine), len(cases))
}
