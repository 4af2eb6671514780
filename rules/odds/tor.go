package odds

import "github.com/campaign-journal/journal/internal/msgerr"

// MaxTORDice is the most success dice a TOR query may roll.
const MaxTORDice = 10

// Feat die faces with a special meaning.
const (
	EyeFace  = 11 // the Eye: counts 0
	RuneFace = 12 // the rune: automatic success
)

// TORQuery asks for the odds of a One Ring roll: the feat die (d12) and Dice
// success dice (d6) against TN. HopeBonus is what spending Hope after a
// failure adds to the total (the attribute's basic or favoured value); 0
// means Hope is not considered.
type TORQuery struct {
	Dice      int `json:"dice"`
	TN        int `json:"tn"`
	HopeBonus int `json:"hope_bonus"`
}

// TORQuality splits successes by the number of 6s on the success dice:
// Ordinary none, Great exactly one, Extraordinary two or more.
type TORQuality struct {
	Ordinary      Prob `json:"ordinary"`
	Great         Prob `json:"great"`
	Extraordinary Prob `json:"extraordinary"`
}

// TOROdds are the exact odds of a One Ring roll; every fraction's
// denominator divides 12·6^Dice.
type TOROdds struct {
	Query TORQuery `json:"query"`
	// Success: the rune, or feat value + success dice ≥ TN.
	Success Prob `json:"success"`
	// SuccessWithHope: the roll ends a success when Hope is spent on every
	// failure (the failed total + HopeBonus judged again). Equals Success
	// when HopeBonus is 0.
	SuccessWithHope Prob `json:"success_with_hope"`
	// Rune and Eye: the feat die shows 12 or 11 (1/12 each).
	Rune Prob `json:"rune"`
	Eye  Prob `json:"eye"`
	// SuccessEye: a success with the Eye on the feat die (without and with Hope).
	SuccessEye         Prob `json:"success_eye"`
	SuccessEyeWithHope Prob `json:"success_eye_with_hope"`
	// Quality: P(a success of each quality) without Hope; sums to Success.
	Quality TORQuality `json:"quality"`
	// QualityWithHope: the same when Hope is spent on failures; sums to
	// SuccessWithHope.
	QualityWithHope TORQuality `json:"quality_with_hope"`
	// QualityAmongSuccesses: the quality distribution given a success
	// without Hope; sums to 1 (all 0 when no success is possible).
	QualityAmongSuccesses TORQuality `json:"quality_among_successes"`
}

// sixClasses: 0, 1, or 2+ sixes.
const sixClasses = 3

// successDice returns cnt[s][k]: how many of the 6^n outcomes of n d6 sum to
// s with k sixes (k = 2 meaning two or more).
func successDice(n int) [][sixClasses]int64 {
	cnt := make([][sixClasses]int64, 6*n+1)
	cnt[0][0] = 1
	for i := 0; i < n; i++ {
		next := make([][sixClasses]int64, 6*n+1)
		for s := 0; s <= 6*i; s++ {
			for k := 0; k < sixClasses; k++ {
				c := cnt[s][k]
				if c == 0 {
					continue
				}
				for f := 1; f <= 6; f++ {
					nk := k
					if f == 6 {
						nk = min(k+1, sixClasses-1)
					}
					next[s+f][nk] += c
				}
			}
		}
		cnt = next
	}
	return cnt
}

// TOR returns the exact odds of a One Ring roll (docs/rules.md §2.2–2.3).
func TOR(q TORQuery) (TOROdds, error) {
	if q.Dice < 0 || q.Dice > MaxTORDice {
		return TOROdds{}, msgerr.Errorf("%w: %d success dice (want 0..%d)", ErrInvalid, q.Dice, MaxTORDice)
	}
	if q.HopeBonus < 0 {
		return TOROdds{}, msgerr.Errorf("%w: negative hope bonus %d", ErrInvalid, q.HopeBonus)
	}
	cnt := successDice(q.Dice)
	den := int64(12)
	for range q.Dice {
		den *= 6
	}
	tnHope := satSub(q.TN, q.HopeBonus)

	var succ, hope, succEye, hopeEye int64
	var qual, qualHope [sixClasses]int64
	for face := 1; face <= 12; face++ {
		value := face
		if face == EyeFace {
			value = 0
		}
		for s, row := range cnt {
			for k, c := range row {
				if c == 0 {
					continue
				}
				total := value + s
				if face == RuneFace || total >= q.TN {
					succ += c
					qual[k] += c
					if face == EyeFace {
						succEye += c
					}
				}
				if face == RuneFace || total >= tnHope {
					hope += c
					qualHope[k] += c
					if face == EyeFace {
						hopeEye += c
					}
				}
			}
		}
	}

	o := TOROdds{
		Query:              q,
		Success:            fracProb(succ, den),
		SuccessWithHope:    fracProb(hope, den),
		Rune:               fracProb(1, 12),
		Eye:                fracProb(1, 12),
		SuccessEye:         fracProb(succEye, den),
		SuccessEyeWithHope: fracProb(hopeEye, den),
		Quality:            quality(qual, den),
		QualityWithHope:    quality(qualHope, den),
	}
	if succ > 0 {
		o.QualityAmongSuccesses = quality(qual, succ)
	} else {
		o.QualityAmongSuccesses = quality(qual, 1)
	}
	return o, nil
}

func quality(c [sixClasses]int64, den int64) TORQuality {
	return TORQuality{
		Ordinary:      fracProb(c[0], den),
		Great:         fracProb(c[1], den),
		Extraordinary: fracProb(c[2], den),
	}
}
