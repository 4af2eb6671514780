// Package odds computes the exact probabilities of the journal's rolls: the
// RyF 1o3d10 roll (docs/rules.md §1.5) and The One Ring roll with its Hope bonus
// (§2.2–2.3), the expected face distributions the luck statistics compare
// observed faces with, and a chi-square goodness-of-fit test.
//
// Invariants:
//   - Pure math: no I/O, no clock, no randomness. The only package-level
//     values are read-only tables: the kept-die counts, enumerated in a var
//     initializer, and the distributions of exploding rolls in tables.go,
//     generated from the same pure definition and checked against it by
//     TestTables (regenerate with `go test ./rules/odds -run TestTables
//     -update`). Nothing is mutated after initialization.
//   - Every probability is a Prob: a float64 plus, where the value is a finite
//     fraction that was computed exactly (math/big.Rat or int64 counts), the
//     reduced fraction "num/den". The float is the exact fraction rounded to
//     the nearest float64. Where no fraction is given, the float is within
//     1e-12 of the true value.
//   - The outcomes a result names partition the sample space where stated:
//     RyF Success + Failure = 1 exactly; TOR quality probabilities sum to the
//     success probability.
//   - Invalid input (level or kind out of range, negative dice, more than 10
//     dice, mismatched counts …) returns an error wrapping ErrInvalid; no
//     input makes the package panic.
package odds

import (
	"github.com/campaign-journal/journal/internal/msgerr"
	"math/big"
	"strconv"
)

// ErrInvalid is wrapped by every error the package returns for impossible input.
var ErrInvalid = msgerr.New("invalid odds query")

// Prob is a probability: P as float64 and, where known exactly, Exact as a
// reduced fraction "num/den" (for example "271/1000", "0/1", "1/1").
type Prob struct {
	P     float64 `json:"p"`
	Exact string  `json:"exact,omitempty"`
}

// Rat returns the exact fraction, or false when the probability is only
// known as a float.
func (p Prob) Rat() (*big.Rat, bool) {
	if p.Exact == "" {
		return nil, false
	}
	return new(big.Rat).SetString(p.Exact)
}

// String returns the exact fraction when known, otherwise the float.
func (p Prob) String() string {
	if p.Exact != "" {
		return p.Exact
	}
	return strconv.FormatFloat(p.P, 'g', -1, 64)
}

// ratProb turns an exact fraction into a Prob.
func ratProb(r *big.Rat) Prob {
	f, _ := r.Float64()
	return Prob{P: f, Exact: r.String()}
}

// fracProb returns num/den as a Prob; den > 0.
func fracProb(num, den int64) Prob {
	return ratProb(big.NewRat(num, den))
}
