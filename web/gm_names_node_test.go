package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/rules/names"
	"github.com/campaign-journal/journal/rules/ryf"
	"github.com/campaign-journal/journal/rules/tor"
)

// TestNamesJSAgreesWithGo: gm_names.js's fold and suggest, under node,
// give what rules/names's Fold and Suggest give for the same queries
// against RyF's and The One Ring's skills; resolve takes only a rules'
// name ("sigilo" is "Sigilo") and never lets "Advertir" or a typo through.
func TestNamesJSAgreesWithGo(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not installed (apt-get install nodejs; .ci/run installs it)")
	}
	var skills []string
	for _, s := range ryf.SystemSkills(ryf.Galaxia) {
		skills = append(skills, s.Name)
	}
	for _, s := range tor.Skills() {
		if !slices.Contains(skills, s.Name) { // one list of distinct names, as a page's
			skills = append(skills, s.Name)
		}
	}
	queries := []string{"sigilo", "Sigilo", "sigli", "SIGILO", "Advertir", "notar", "advertir/notar", "  armas   a_distancia ", "Armas",
		"pelea", "pelae", "mecanica", "Mecánica", "informatica", "xyz", "ab", "abc", "Cancion", "canción", "acertij", "persuadir", "Persuadír",
		"atencion", "Atención", "guerrear", "ñandú", "Música", "musica", "piloto", "rastreo"}
	in, err := json.Marshal(map[string]any{"skills": skills, "queries": queries})
	require.NoError(t, err)
	script := `const fs = require("fs"); require("./static/gm_names.js"); const N = globalThis.JournalNames;
const inp = JSON.parse(fs.readFileSync(0, "utf8"));
const out = inp.queries.map((q) => ({ fold: N.fold(q), suggest: N.suggest(q, inp.skills), resolve: N.resolve(q, inp.skills) }));
process.stdout.write(JSON.stringify(out));`
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "-e", script)
	cmd.Stdin = bytes.NewReader(in)
	b, err := cmd.Output()
	require.NoError(t, err)
	var got []struct {
		Fold    string   `json:"fold"`
		Suggest []string `json:"suggest"`
		Resolve struct {
			Name        *string  `json:"name"`
			Suggestions []string `json:"suggestions"`
		} `json:"resolve"`
	}
	require.NoError(t, json.Unmarshal(b, &got))
	require.Len(t, got, len(queries))
	for i, q := range queries {
		require.Equal(t, names.Fold(q), got[i].Fold, "fold %q", q)
		want := names.Suggest(q, skills)
		if want == nil {
			want = []string{}
		}
		require.Equal(t, want, got[i].Suggest, "suggest %q", q)
		if r := got[i].Resolve; r.Name != nil {
			require.Contains(t, skills, *r.Name, "resolve %q gives a rules' name", q)
			require.Equal(t, names.Fold(q), names.Fold(*r.Name), "resolve %q: only the name itself, in any case or accents", q)
		}
	}
	byQuery := map[string]int{}
	for i, q := range queries {
		byQuery[q] = i
	}
	require.Equal(t, "Sigilo", *got[byQuery["sigilo"]].Resolve.Name)
	require.Nil(t, got[byQuery["Advertir"]].Resolve.Name, "Advertir is not let through")
	require.Equal(t, []string{"Advertir/Notar"}, got[byQuery["Advertir"]].Resolve.Suggestions)
	require.Nil(t, got[byQuery["sigli"]].Resolve.Name, "a typo is not let through")
	require.Contains(t, got[byQuery["sigli"]].Resolve.Suggestions, "Sigilo")
}
