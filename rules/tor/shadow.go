package tor

import (
	"github.com/campaign-journal/journal/internal/msgerr"
	"strings"
)

// GainShadow returns c with n more (temporary) Shadow. n must be at least 1
// and Shadow stays within ShadowLimit (ErrOutOfRange).
func GainShadow(c Character, n int) (Character, error) {
	if n < 1 || n > ShadowLimit || c.Shadow > ShadowLimit-n {
		return Character{}, msgerr.Errorf("%w: shadow %d + %d (max %d)", ErrOutOfRange, c.Shadow, n, ShadowLimit)
	}
	c = c.Clone()
	c.Shadow += n
	return c, nil
}

// MadnessTriggered reports whether roll res starts a bout of madness for c
// (docs/rules.md §2.5): the feat die shows the Eye while c's Hope is below its
// total Shadow (temporary + permanent). It holds whether the roll succeeded
// or not, and is judged on c as it was when the roll was made.
func MadnessTriggered(c Character, res Result) bool {
	return res.Feat == EyeFace && c.Hope < c.TotalShadow()
}

// BeginMadness returns c in a bout of madness started by res: the GM
// controls the character until EndMadness. It refuses a roll that does not
// trigger one (ErrNoMadness) and a character already in a bout
// (ErrAlreadyMad).
func BeginMadness(c Character, res Result) (Character, error) {
	if c.Mad {
		return Character{}, ErrAlreadyMad
	}
	if !MadnessTriggered(c, res) {
		return Character{}, msgerr.Errorf("%w: needs the eye with hope %d below total shadow %d", ErrNoMadness, c.Hope, c.TotalShadow())
	}
	c = c.Clone()
	c.Mad = true
	return c, nil
}

// EndMadness ends c's bout of madness: c gains 1 permanent Shadow and the
// flaw (free text, not blank). It refuses a character not in a bout
// (ErrNoMadness), a blank flaw (ErrOutOfRange) and permanent Shadow past
// ShadowLimit (ErrOutOfRange).
func EndMadness(c Character, flaw string) (Character, error) {
	if !c.Mad {
		return Character{}, ErrNoMadness
	}
	flaw = strings.TrimSpace(flaw)
	if flaw == "" {
		return Character{}, msgerr.Errorf("%w: a bout of madness ends with a flaw", ErrOutOfRange)
	}
	if c.PermanentShadow >= ShadowLimit {
		return Character{}, msgerr.Errorf("%w: permanent shadow %d already at %d", ErrOutOfRange, c.PermanentShadow, ShadowLimit)
	}
	c = c.Clone()
	c.Mad = false
	c.PermanentShadow++
	c.Flaws = append(c.Flaws, flaw)
	return c, nil
}
