package tor

import "github.com/campaign-journal/journal/internal/msgerr"

// HopeSpend is the outcome of spending 1 Hope on a failed roll: the bonus
// added, the Hope left and the roll judged again.
type HopeSpend struct {
	Skill     string    `json:"skill"`     // canonical Spanish name
	Attribute Attribute `json:"attribute"` // the skill's attribute column
	Favoured  bool      `json:"favoured"`  // the favoured value was added
	Bonus     int       `json:"bonus"`
	Hope      int       `json:"hope"`      // Hope left after the spend
	LastHope  bool      `json:"last_hope"` // the last point was spent: Hope is now 0
	Result    Result    `json:"result"`    // the roll with the bonus, judged again
}

// SpendHope spends 1 of c's Hope on res, a failed roll of skill s
// (docs/rules.md §2.3): the basic value of the skill's attribute column — its
// favoured value if c has the skill favoured — is added to the total and the
// roll is judged again (same TN, same sixes for quality).
//
// It refuses a roll that succeeded (ErrAlreadySucceeded), a roll that
// already had Hope spent on it (ErrHopeSpent), a character at 0 Hope
// (ErrNoHope) and a skill that is not a common skill (ErrUnknownSkill).
// c is not changed; the new Hope is in the result.
func SpendHope(c Character, s Skill, res Result) (HopeSpend, error) {
	if err := checkSkill(s); err != nil {
		return HopeSpend{}, err
	}
	if res.Success {
		return HopeSpend{}, msgerr.Errorf("%w: %s", ErrAlreadySucceeded, res.Describe())
	}
	if res.HopeBonus != 0 {
		return HopeSpend{}, msgerr.Errorf("%w (bonus %d)", ErrHopeSpent, res.HopeBonus)
	}
	if c.Hope <= 0 {
		return HopeSpend{}, msgerr.Errorf("%w: hope is %d", ErrNoHope, c.Hope)
	}
	bonus, err := c.HopeBonus(s)
	if err != nil {
		return HopeSpend{}, err
	}
	if bonus <= 0 {
		return HopeSpend{}, msgerr.Errorf("%w: %s bonus %d is not positive", ErrInvalidCharacter, s.Attribute, bonus)
	}
	again, err := judge(res.TN, res.Feat, res.SuccessDice, bonus)
	if err != nil {
		return HopeSpend{}, err
	}
	hope := c.Hope - 1
	return HopeSpend{
		Skill:     s.Name,
		Attribute: s.Attribute,
		Favoured:  c.Rating(s).Favoured,
		Bonus:     bonus,
		Hope:      hope,
		LastHope:  hope == 0,
		Result:    again,
	}, nil
}
