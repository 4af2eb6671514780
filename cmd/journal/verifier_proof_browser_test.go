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
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/replay"
	"github.com/campaign-journal/journal/signed"
)

// TestVerifierChecksProofFiles: the offline verifier page checks a proof
// file against an export as 'journal replay --file --proof' does, in the
// same words: the host's suppressed roll flagged cancelled-after-reveal
// with its first dice, a forged proof refused naming what is wrong.
func TestVerifierChecksProofFiles(t *testing.T) {
	tb := newV2Table(t)
	tb.as("gm").ok("-c", "mordor", "session", "start", "--dice", "v2")
	tb.as("ana").ok("-c", "mordor", "session", "contribute")
	_, request := tb.suppressedRequest("Sigilo")
	dir := t.TempDir()
	proof := filepath.Join(dir, "proof.json")
	tb.as("ana").okErr("-c", "mordor", "roll", "prove", request, "--out", proof)
	tb.as("gm").ok("-c", "mordor", "session", "end")
	tb.as("ana").ok("-c", "mordor", "session", "cosign")
	export := tb.ok("-c", "mordor", "export")
	proofText, err := os.ReadFile(proof)
	require.NoError(t, err)
	forged := strings.Replace(string(proofText), `"user": "ana"`, `"user": "gm"`, 1)

	// What replay says of each, in English.
	replayOf := func(text string) replay.Report {
		p, _, err := signed.ParseProof([]byte(text))
		require.NoError(t, err)
		rep, err := replay.Verify(context.Background(), replay.JSONLBytes([]byte(export)), replay.Options{Proofs: []replay.ProofFile{{Name: "proof.json", Proof: p}}})
		require.NoError(t, err)
		return rep
	}
	var want string
	for _, s := range replayOf(string(proofText)).Sessions {
		for _, f := range s.Flags {
			if f.Code == replay.FlagCancelledAfterReveal {
				want = f.WhatIn(i18n.EN)
			}
		}
	}
	require.Contains(t, want, "proof file proof.json: ana's reveal of request "+request)
	bad := replayOf(forged).Proofs[0]
	require.Equal(t, replay.ProofBad, bad.Status)

	page := tb.ok("--lang", "en", "verifier")
	file := filepath.Join(dir, "verify.html")
	require.NoError(t, os.WriteFile(file, []byte(page), 0o644))
	ctx := verifierBrowser(t)
	open, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	require.NoError(t, chromedp.Do(open, chromedp.Navigate("file://"+file), chromedp.WaitReady(`#drop`)))
	check := func(proof string) (string, string) {
		ex, err := json.Marshal(export)
		require.NoError(t, err)
		pf, err := json.Marshal(proof)
		require.NoError(t, err)
		c, cancel := context.WithTimeout(ctx, 60*time.Second)
		defer cancel()
		got, err := chromedp.Run(c, chromedp.Evaluate[[]string](`JournalVerifier.check("mordor.jsonl", `+string(ex)+`, [{name: "proof.json", text: `+string(pf)+`}]).then(() => [document.getElementById("result").dataset.status, document.getElementById("result").textContent])`, chromedp.EvalAwaitPromise))
		require.NoError(t, err)
		return got[0], got[1]
	}
	status, text := check(string(proofText))
	require.Equal(t, "flagged", status, text)
	require.Contains(t, text, want)
	status, text = check(forged)
	require.Equal(t, "mismatch", status, text)
	require.Contains(t, text, "proof file proof.json: "+bad.What)
}
