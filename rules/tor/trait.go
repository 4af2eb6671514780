package tor

// Trait finds one of c's traits by name, in any case, with or without
// accents, or by a unique prefix, and returns it as the character has it.
// A name matching none is ErrUnknownTrait; a prefix matching several is
// ErrAmbiguous.
func (c Character) Trait(name string) (string, error) {
	cands := make([][]string, len(c.Traits))
	for i, t := range c.Traits {
		cands[i] = []string{t}
	}
	i, err := resolve("trait", name, cands, ErrUnknownTrait)
	if err != nil {
		return "", err
	}
	return c.Traits[i], nil
}

// TraitInvocation records a trait invoked before a roll and the GM's ruling
// (docs/rules.md §2.6): an automatic success, or the roll goes ahead with the
// trait counted as invoked (for advancement, NextAdvancement's
// traitInvoked).
type TraitInvocation struct {
	Trait     string `json:"trait"`
	Automatic bool   `json:"automatic"`
}

// Rolls reports whether the roll still goes ahead, with the trait invoked.
func (t TraitInvocation) Rolls() bool { return !t.Automatic }

// InvokeTrait invokes one of c's traits (looked up with Character.Trait)
// with the GM's ruling: automatic success, or roll with the trait invoked.
func InvokeTrait(c Character, name string, automatic bool) (TraitInvocation, error) {
	t, err := c.Trait(name)
	if err != nil {
		return TraitInvocation{}, err
	}
	return TraitInvocation{Trait: t, Automatic: automatic}, nil
}
