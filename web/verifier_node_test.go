package web

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/replay"
)

// verdictView is what the two verifiers must agree on for a file: the
// verdict, the flags (code and event), the flags' words in English, the
// events named as mismatched, the lines that are no events and how many
// sessions are not ended.
type verdictView struct {
	Verdict    string
	Said       string   // the verdict in words: OK, OK with 2 flags, FAILED
	Flags      []string // "code event", sorted
	Words      []string // "code: what", sorted
	Mismatched []string // sorted
	Foreign    []int
	Open       int
}

// diff says how got differs from v, field by field, but for the fields
// skipped ("": it does not).
func (v verdictView) diff(got verdictView, skip ...string) string {
	var b strings.Builder
	field := func(name string, want, have any) {
		if w, h := fmt.Sprint(want), fmt.Sprint(have); w != h && !slices.Contains(skip, name) {
			fmt.Fprintf(&b, "\n  %s: replay %s\n  %*s  verify.js %s", name, w, len(name), "", h)
		}
	}
	field("verdict", v.Verdict, got.Verdict)
	field("said", v.Said, got.Said)
	field("flags", v.Flags, got.Flags)
	field("words", v.Words, got.Words)
	field("mismatched", v.Mismatched, got.Mismatched)
	field("foreign", v.Foreign, got.Foreign)
	field("open", v.Open, got.Open)
	return b.String()
}

// replayView is `journal replay --file`'s verdict on lines, as of
// corpusNow, its words in l.
func replayView(t *testing.T, lines []string, l i18n.Lang) (verdictView, replay.Report) {
	t.Helper()
	rep, err := replay.Verify(context.Background(), replay.JSONLBytes([]byte(strings.Join(lines, "\n")+"\n")), replay.Options{Now: corpusNow})
	require.NoError(t, err)
	v := verdictView{Verdict: string(rep.Verdict())}
	switch rep.Verdict() {
	case replay.VerdictOK:
		v.Said = l.T("rp.ok")
	case replay.VerdictFlagged:
		v.Said = l.N("rp2.ok_flagged", rep.Flagged())
	default:
		v.Said = l.T("rp.failed")
	}
	seen := map[string]bool{}
	mark := func(ms []replay.Mismatch) {
		for _, m := range ms {
			if m.EventID != "" && !seen[m.EventID] {
				seen[m.EventID] = true
				v.Mismatched = append(v.Mismatched, m.EventID)
			}
		}
	}
	flag := func(fs []replay.Flag) {
		for _, f := range fs {
			v.Flags = append(v.Flags, string(f.Code)+" "+f.EventID)
			v.Words = append(v.Words, string(f.Code)+": "+f.WhatIn(l))
		}
	}
	for _, s := range rep.Sessions {
		mark(s.Mismatches)
		flag(s.Flags)
		if !s.Ended {
			v.Open++
		}
	}
	mark(rep.Mismatches)
	for _, c := range rep.Campaigns {
		flag(c.Flags)
	}
	for _, f := range rep.Foreign {
		v.Foreign = append(v.Foreign, f.Line)
	}
	return v.sorted(), rep
}

func (v verdictView) sorted() verdictView {
	slices.Sort(v.Flags)
	slices.Sort(v.Words)
	slices.Sort(v.Mismatched)
	slices.Sort(v.Foreign)
	return v
}

// nodeSummary is a line of testdata/verify-node.js: verify.js's summary.
type nodeSummary struct {
	File    string `json:"file"`
	Error   string `json:"error"`
	Verdict string `json:"verdict"`
	Words   string `json:"words"`
	Flags   []struct {
		Code  string `json:"code"`
		Event string `json:"event"`
		What  string `json:"what"`
	} `json:"flags"`
	Mismatched []string `json:"mismatched"`
	Foreign    []struct {
		Line   int    `json:"line"`
		Reason string `json:"reason"`
	} `json:"foreign"`
	Open []string `json:"open"`
}

func (s nodeSummary) view() verdictView {
	v := verdictView{Verdict: s.Verdict, Said: s.Words, Mismatched: s.Mismatched, Open: len(s.Open)}
	for _, f := range s.Flags {
		v.Flags = append(v.Flags, f.Code+" "+f.Event)
		v.Words = append(v.Words, f.Code+": "+f.What)
	}
	for _, f := range s.Foreign {
		v.Foreign = append(v.Foreign, f.Line)
	}
	return v.sorted()
}

// nodeVerifier returns node, or skips the test.
func nodeVerifier(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not installed: the JavaScript verifier is not run (apt-get install nodejs; .ci/run installs it)")
	}
	return node
}

// runNodeVerifier runs verify.js under node on files (one process for
// all) with the scripts the offline verifier loads before its page's own
// (verifier.js, which needs a DOM), and returns its summaries by file.
func runNodeVerifier(t *testing.T, node, lang string, files []string) map[string]nodeSummary {
	t.Helper()
	var scripts []string
	for _, s := range verifierScripts {
		if s != "verifier.js" {
			scripts = append(scripts, s)
		}
	}
	args := append([]string{filepath.Join("testdata", "verify-node.js"), "--static", "static", "--scripts", strings.Join(scripts, ","),
		"--now", corpusNow.Format(time.RFC3339), "--lang", lang}, files...)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, node, args...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "node: %s", stderr.String())
	got := map[string]nodeSummary{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var s nodeSummary
		require.NoError(t, json.Unmarshal(sc.Bytes(), &s), "%s", sc.Text())
		require.Empty(t, s.Error, "verify.js threw on %s", s.File)
		got[s.File] = s
	}
	require.NoError(t, sc.Err())
	require.Len(t, got, len(files), "a summary for every file")
	return got
}

// knownDifference is a disagreement the corpus shows that is left for
// another change: the fields that may differ on the files whose name holds
// kind, and why. Each is logged, not failed, and listed in
// testdata/corpus/README.md.
type knownDifference struct {
	kind   string
	fields []string
	why    string
}

// knownDifferences lists the kinds of corpus file on which the two
// verifiers may differ, and in which fields, each with why: none now (the
// chain's check, once different, is one rule in both: a campaign's chain
// begins at its first event with a prevhash, its anchor, or an old
// export's first v2 session start). Add a kind only with its reason.
var knownDifferences = []knownDifference{}

// knownFields returns the fields that may differ on a file, and why.
func knownFields(name string) ([]string, string) {
	for _, k := range knownDifferences {
		if strings.Contains(name, k.kind) {
			return k.fields, k.why
		}
	}
	return nil, ""
}

// TestVerifierNodeAgreesWithReplay runs the browser's verifier
// (verify.js, with the scripts the offline verifier inlines) under node
// on every file of the corpus, genuine and tampered, and compares its
// summary with `journal replay --file`'s report, file by file: the same
// verdict (ok, flagged, mismatch, foreign) in the same words, the same
// flags (code, event and words), the same events named as mismatched,
// the same lines that are no events and the same sessions not ended. The
// words are compared in English on every file, and in Spanish on the
// files replay flags.
func TestVerifierNodeAgreesWithReplay(t *testing.T) {
	node := nodeVerifier(t)
	genuine := genuineCorpus(t)
	cases := append(genuine, tamperedCorpus(t, genuine)...)
	require.GreaterOrEqual(t, len(cases), 150, "the corpus")
	verdicts := map[string]int{}
	disagree := 0
	compare := func(l i18n.Lang, cases []corpusCase) {
		files := make([]string, len(cases))
		for i, c := range cases {
			files[i] = corpusPath(c)
		}
		js := runNodeVerifier(t, node, string(l), files)
		for i, c := range cases {
			want, _ := replayView(t, c.lines, l)
			got := js[files[i]].view()
			if l == i18n.EN {
				verdicts[want.Verdict]++
			}
			diff := want.diff(got)
			if diff == "" {
				continue
			}
			if fields, why := knownFields(c.name); why != "" && want.diff(got, fields...) == "" {
				t.Logf("%s: a known difference (%s):%s", c.name, why, diff)
				continue
			}
			disagree++
			t.Errorf("%s (%s), in %s: verify.js disagrees with replay:%s", c.name, c.what, l, diff)
		}
	}
	compare(i18n.EN, cases)
	var flagged []corpusCase
	for _, c := range cases {
		if v, _ := replayView(t, c.lines, i18n.ES); v.Verdict == string(replay.VerdictFlagged) {
			flagged = append(flagged, c)
		}
	}
	compare(i18n.ES, flagged)
	t.Logf("%d files: %v; %d in Spanish; %d disagreements", len(cases), verdicts, len(flagged), disagree)
}

// corpusPath is where a case's file is committed.
func corpusPath(c corpusCase) string {
	dir := "tampered"
	if c.name == c.base {
		dir = "genuine"
	}
	return filepath.Join(corpusDir, dir, c.name+".jsonl")
}
