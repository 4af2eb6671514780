package tor

import (
	"strings"

	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/rules/names"
)

// Normalize folds a name for lookup: lower case, accents removed (á→a, ñ→n,
// ü→u, …, and combining marks dropped), '_' read as a space, surrounding
// space trimmed and inner runs of space collapsed to one. "  Canción " and
// "CANCION" both give "cancion". It is names.Fold.
func Normalize(name string) string { return names.Fold(name) }

// resolve finds the one candidate that input names. Each candidate is a list
// of names, the first one canonical. A normalized exact match with any name
// wins; otherwise input must be a prefix of names of exactly one candidate.
// what names the kind of thing in messages; unknown is the sentinel for no
// match.
func resolve(what, input string, cands [][]string, unknown error) (int, error) {
	key := Normalize(input)
	if key == "" {
		return -1, msgerr.Errorf("%w: empty %s name", unknown, what)
	}
	for i, names := range cands {
		for _, n := range names {
			if Normalize(n) == key {
				return i, nil
			}
		}
	}
	var found []int
	for i, names := range cands {
		for _, n := range names {
			if strings.HasPrefix(Normalize(n), key) {
				found = append(found, i)
				break
			}
		}
	}
	switch len(found) {
	case 0:
		displays := make([]string, len(cands))
		for i, c := range cands {
			displays[i] = c[0]
		}
		if h := names.Hint(input, displays); h != nil {
			return -1, msgerr.Errorf("%w %q: %v", unknown, clip.Text(input), h)
		}
		return -1, msgerr.Errorf("%w %q", unknown, clip.Text(input))
	case 1:
		return found[0], nil
	}
	names := make([]string, len(found))
	for j, i := range found {
		names[j] = cands[i][0]
	}
	return -1, msgerr.Errorf("%w: %s %q could be %s", ErrAmbiguous, what, clip.Text(input), strings.Join(names, ", "))
}
