package odds_test

import (
	"math/big"
	"testing"

	"github.com/campaign-journal/journal/rules/odds"
)

// rat returns p's exact fraction, failing the test when it has none.
func rat(t *testing.T, name string, p odds.Prob) *big.Rat {
	t.Helper()
	r, ok := p.Rat()
	if !ok {
		t.Fatalf("%s: no exact fraction (p = %v, exact = %q)", name, p.P, p.Exact)
	}
	if r.String() != p.Exact {
		t.Fatalf("%s: fraction %q is not in lowest terms (%s)", name, p.Exact, r)
	}
	f, _ := r.Float64()
	if f != p.P {
		t.Fatalf("%s: float %v is not the rounded fraction %s (%v)", name, p.P, p.Exact, f)
	}
	return r
}

// checkExact fails unless p is exactly want ("num/den").
func checkExact(t *testing.T, name string, p odds.Prob, want string) {
	t.Helper()
	w, ok := new(big.Rat).SetString(want)
	if !ok {
		t.Fatalf("bad want %q", want)
	}
	if got := rat(t, name, p); got.Cmp(w) != 0 {
		t.Errorf("%s = %s, want %s", name, got, w)
	}
}
