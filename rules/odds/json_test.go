package odds_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/rules/odds"
)

func TestRyFJSON(t *testing.T) {
	o, err := odds.RyF(odds.RyFQuery{Base: 12, Level: odds.Mid, Difficulty: 20, Kind: odds.Skill})
	require.NoError(t, err)
	b, err := json.Marshal(o)
	require.NoError(t, err)
	s := string(b)
	for _, want := range []string{
		`"query":{"base":12,"level":"mid","difficulty":20,"kind":"skill"}`,
		`"success":{"p":0.216,"exact":"27/125"}`,
		`"fumble":{"p":0.001,"exact":"1/1000"}`,
		`"natural_1":{"p":0.027,"exact":"27/1000"}`,
		`"totals":[{"total":13,"p":0.028,"exact":"7/250"}`,
		`"truncated":true`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("JSON lacks %s:\n%.400s", want, s)
		}
	}
	var back odds.RyFOdds
	require.NoError(t, json.Unmarshal(b, &back))
	if back.Query != o.Query || back.Success != o.Success || len(back.Totals) != len(o.Totals) {
		t.Errorf("round trip = %+v, want %+v", back.Query, o.Query)
	}
	m := o.TotalMap()
	if len(m) != len(o.Totals) || m[13] != 0.028 {
		t.Errorf("TotalMap: %d entries, m[13] = %v", len(m), m[13])
	}

	var q odds.RyFQuery
	err = json.Unmarshal([]byte(`{"base":1,"level":"middle","difficulty":2,"kind":"skill"}`), &q)
	if !errors.Is(err, odds.ErrInvalid) {
		t.Errorf("bad level error = %v, want ErrInvalid", err)
	}
	if _, err := json.Marshal(odds.RyFQuery{Level: 9, Kind: odds.Skill}); !errors.Is(err, odds.ErrInvalid) {
		t.Errorf("marshal of an invalid level: error = %v, want ErrInvalid", err)
	}
}

func TestTORJSON(t *testing.T) {
	o, err := odds.TOR(odds.TORQuery{Dice: 3, TN: 14, HopeBonus: 3})
	require.NoError(t, err)
	b, err := json.Marshal(o)
	require.NoError(t, err)
	s := string(b)
	for _, want := range []string{
		`"query":{"dice":3,"tn":14,"hope_bonus":3}`,
		`"success":{"p":`,
		`"exact":"1801/2592"`,
		`"rune":{"p":0.08333333333333333,"exact":"1/12"}`,
		`"quality":{"ordinary":{`,
		`"quality_among_successes":{`,
		`"success_eye_with_hope":{`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("JSON lacks %s:\n%s", want, s)
		}
	}
	var back odds.TOROdds
	require.NoError(t, json.Unmarshal(b, &back))
	if back != o {
		t.Errorf("round trip = %+v, want %+v", back, o)
	}
}

func TestProb(t *testing.T) {
	p := odds.Prob{P: 0.25, Exact: "1/4"}
	if r, ok := p.Rat(); !ok || r.String() != "1/4" || p.String() != "1/4" {
		t.Errorf("Prob 1/4: %v %v %q", r, ok, p.String())
	}
	f := odds.Prob{P: 1e-40}
	if _, ok := f.Rat(); ok || f.String() != "1e-40" {
		t.Errorf("float-only Prob: %q", f.String())
	}
}
