package replay_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/replay"
)

// TestReportInOneLanguage: the report of a tampered session is written
// whole in the language asked, its mismatches' words included, with
// counts in the right number; read back from JSON, a mismatch keeps the
// (English) words it was recorded with.
func TestReportInOneLanguage(t *testing.T) {
	w, _, rollEvs := honestWorld(t, 6)
	rep := verify(t, without(w.evs, rollEvs[2].ID), replay.Options{})
	require.False(t, rep.OK())
	for _, tc := range []struct {
		l, other i18n.Lang
		want     []string
	}{
		{i18n.EN, i18n.ES, []string{"session mordor/s1: mismatch", "MISMATCH nonce-gap", "nonce 2 is missing: a roll made and hidden",
			"the session-ended event counts", "3 characters, 1 session\n", "FAILED: 12 events, 1 session (", ", 2 mismatches"}},
		{i18n.ES, i18n.EN, []string{"sesión mordor/s1: con discrepancias", "DISCREPANCIA hueco-de-nonce", "falta el nonce 2: una tirada hecha y escondida",
			"el evento de fin de sesión cuenta", "3 personajes, 1 sesión\n", "FALLIDA: 12 eventos, 1 sesión (", ", 2 discrepancias"}},
	} {
		var b bytes.Buffer
		require.NoError(t, rep.WriteTextIn(&b, tc.l))
		out := b.String()
		for _, want := range tc.want {
			require.Contains(t, out, want, tc.l)
		}
		for _, line := range strings.Split(out, "\n") {
			w, found := i18n.HasWord(line, i18n.Words(tc.other))
			require.Falsef(t, found, "%s line %q has the %s word %q", tc.l, line, tc.other, w)
		}
	}
	var back replay.Report
	b, err := json.Marshal(rep)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &back))
	m := back.Sessions[0].Mismatches[0]
	require.Equal(t, rep.Sessions[0].Mismatches[0].What, m.WhatIn(i18n.ES), "no message to translate: the recorded words")
	require.Contains(t, m.What, "is missing")
}
