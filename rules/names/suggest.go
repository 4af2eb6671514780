package names

import (
	"strings"

	"github.com/campaign-journal/journal/internal/msgerr"
)

// Suggest returns what a player probably meant by query: the candidates
// whose name (or a name's '/'-separated part or leading words), folded, is
// the fewest edits (insertions, deletions, substitutions, transpositions)
// away from the folded query, if that is close enough to be a typo (at most
// one edit for names of 3 to 5 letters, a third of the length for longer
// ones; none for one or two letters). A query of 4 letters or more also
// matches the start of a longer name ("sigli" for "Sigilo"). It
// returns nil when nothing is close. Candidates keep their display form and
// their order; each appears once.
func Suggest(query string, candidates []string) []string {
	q := Fold(query)
	n := len([]rune(q))
	if n < 3 {
		return nil // one or two letters: any guess is as good as another
	}
	limit := max(1, n/3)
	best := limit + 1
	var out []string
	for _, c := range candidates {
		d := limit + 1
		for _, k := range keysOf(c) {
			d = min(d, distance(q, k))
			// a typo in a prefix: "sigli" for "Sigilo"
			if r := []rune(k); n >= 4 && len(r) > n {
				d = min(d, distance(q, string(r[:n])))
			}
		}
		switch {
		case d < best:
			best, out = d, []string{c}
		case d == best && d <= limit:
			out = append(out, c)
		}
	}
	if best > limit {
		return nil
	}
	return out
}

// keysOf returns the folded forms a candidate answers to.
func keysOf(c string) []string {
	keys := []string{Fold(c)}
	if strings.Contains(c, "/") {
		for _, p := range strings.Split(c, "/") {
			keys = append(keys, Fold(p))
		}
	}
	return keys
}

// distance is the optimal string alignment distance between a and b, in
// runes.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// Hint is the end of an "unknown NAME" message: "did you mean X?" when a
// candidate is close, else the candidates ("want one of A, B, C"), or ""
// without candidates.
//
// The hint is a keyed error (msgerr), rendered in the reader's language
// by the doors; nil without candidates.
func Hint(query string, candidates []string) error {
	if s := Suggest(query, candidates); len(s) > 0 {
		return msgerr.Errorf("did you mean %v?", OrList(s))
	}
	if len(candidates) == 0 {
		return nil
	}
	return msgerr.Errorf("want one of %s", strings.Join(candidates, ", "))
}

// OrList is "A", "A or B", "A, B or C" as a keyed error (its "or" in the
// reader's language).
func OrList(xs []string) error {
	if len(xs) == 1 {
		return msgerr.Errorf("%s", xs[0])
	}
	return msgerr.Errorf("%s or %s", strings.Join(xs[:len(xs)-1], ", "), xs[len(xs)-1])
}
