package tor

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/rules/dice"
)

// The dice and faces of a roll, and the Target Numbers a roll accepts.
const (
	FeatSides    = 12 // the feat die is a d12
	SuccessSides = 6  // success dice are d6
	EyeFace      = 11 // the Eye: counts 0
	RuneFace     = 12 // the rune: automatic success
	DefaultTN    = 14 // the usual Target Number
	MinTN        = 1  // lowest Target Number accepted
	MaxTN        = 99 // highest Target Number accepted
)

// Quality is the quality of a successful roll, by its sixes.
type Quality string

// Qualities of success; a failed roll has QualityNone.
const (
	QualityNone          Quality = ""
	QualitySuccess       Quality = "success"       // no 6 among the success dice
	QualityGreat         Quality = "great"         // one 6
	QualityExtraordinary Quality = "extraordinary" // two or more 6s
)

// QualityOf returns the quality of a success with that many 6s on its
// success dice.
func QualityOf(sixes int) Quality {
	switch {
	case sixes <= 0:
		return QualitySuccess
	case sixes == 1:
		return QualityGreat
	}
	return QualityExtraordinary
}

// Outcome is the verdict of a roll, as recorded in roll events; the quality
// of a success is in Result.Quality.
type Outcome string

// Verdicts of a roll.
const (
	OutcomeSuccess Outcome = "success"
	OutcomeFailure Outcome = "failure"
)

// Result is a judged roll: the feat die, the success dice in draw order,
// what they make against the Target Number, and any Hope bonus added after
// the roll (SpendHope).
type Result struct {
	TN          int     `json:"tn"`
	Feat        int     `json:"feat"`         // the d12 face, 1..12
	SuccessDice []int   `json:"success_dice"` // the d6 faces, one per rank
	Eye         bool    `json:"eye"`          // feat die 11: counts 0
	Rune        bool    `json:"rune"`         // feat die 12: automatic success
	Sixes       int     `json:"sixes"`        // 6s among the success dice
	HopeBonus   int     `json:"hope_bonus,omitempty"`
	Total       int     `json:"total"` // feat value + success dice + Hope bonus
	Success     bool    `json:"success"`
	Quality     Quality `json:"quality,omitempty"` // QualityNone on failure
	Outcome     Outcome `json:"outcome"`           // the verdict: success or failure
}

// Rank is the number of success dice rolled.
func (r Result) Rank() int { return len(r.SuccessDice) }

// FeatValue is what the feat die adds to the total: 0 for the Eye, else its
// face (the rune counts 12).
func (r Result) FeatValue() int {
	if r.Feat == EyeFace {
		return 0
	}
	return r.Feat
}

// Faces returns every face in draw order: the feat die, then the success
// dice.
func (r Result) Faces() []int {
	out := make([]int, 0, 1+len(r.SuccessDice))
	out = append(out, r.Feat)
	return append(out, r.SuccessDice...)
}

// String describes the roll in one line, for example
// "d12 7 + 3,6,2 = 18 vs TN 14: great success".
func (r Result) String() string {
	var b strings.Builder
	switch {
	case r.Eye:
		b.WriteString("d12 eye (0)")
	case r.Rune:
		b.WriteString("d12 rune")
	default:
		fmt.Fprintf(&b, "d12 %d", r.Feat)
	}
	if len(r.SuccessDice) > 0 {
		ds := make([]string, len(r.SuccessDice))
		for i, d := range r.SuccessDice {
			ds[i] = strconv.Itoa(d)
		}
		b.WriteString(" + " + strings.Join(ds, ","))
	}
	if r.HopeBonus != 0 {
		fmt.Fprintf(&b, " + hope %d", r.HopeBonus)
	}
	fmt.Fprintf(&b, " = %d vs TN %d: %s", r.Total, r.TN, r.Describe())
	return b.String()
}

// Describe names the result in words: "failure", "success", "great
// success" or "extraordinary success".
func (r Result) Describe() string {
	switch {
	case !r.Success:
		return "failure"
	case r.Quality == QualityGreat:
		return "great success"
	case r.Quality == QualityExtraordinary:
		return "extraordinary success"
	}
	return "success"
}

func checkTN(tn int) error {
	if tn < MinTN || tn > MaxTN {
		return msgerr.Errorf("%w: target number %d not in %d..%d", ErrInvalidRoll, tn, MinTN, MaxTN)
	}
	return nil
}

func checkRank(rank int) error {
	if rank < 0 || rank > MaxRank {
		return msgerr.Errorf("%w: rank %d not in 0..%d", ErrInvalidRoll, rank, MaxRank)
	}
	return nil
}

// Roll draws the feat die and then rank success dice from r and judges them
// against tn (docs/rules.md §2.2). rank and tn are checked before any die is
// drawn; an error from the roller is wrapped.
func Roll(r dice.Roller, rank, tn int) (Result, error) {
	if r == nil {
		return Result{}, msgerr.Errorf("%w: no dice roller", ErrInvalidRoll)
	}
	if err := checkRank(rank); err != nil {
		return Result{}, err
	}
	if err := checkTN(tn); err != nil {
		return Result{}, err
	}
	feat, err := r.Roll(FeatSides)
	if err != nil {
		return Result{}, msgerr.Errorf("roll feat die: %w", err)
	}
	success := make([]int, rank)
	for i := range success {
		if success[i], err = r.Roll(SuccessSides); err != nil {
			return Result{}, msgerr.Errorf("roll success die %d: %w", i+1, err)
		}
	}
	return Judge(tn, feat, success)
}

// Judge judges recorded faces: the feat die and the success dice against tn.
// Success is the rune or a total ≥ tn, where the Eye counts 0; the quality of
// a success is set by the 6s on the success dice. Replay uses it to re-judge
// a roll from its faces.
func Judge(tn, feat int, success []int) (Result, error) {
	return judge(tn, feat, success, 0)
}

func judge(tn, feat int, success []int, bonus int) (Result, error) {
	if err := checkTN(tn); err != nil {
		return Result{}, err
	}
	if err := checkRank(len(success)); err != nil {
		return Result{}, err
	}
	if feat < 1 || feat > FeatSides {
		return Result{}, msgerr.Errorf("%w: feat die %d not in 1..%d", ErrInvalidRoll, feat, FeatSides)
	}
	res := Result{
		TN:          tn,
		Feat:        feat,
		SuccessDice: append([]int{}, success...),
		Eye:         feat == EyeFace,
		Rune:        feat == RuneFace,
		HopeBonus:   bonus,
	}
	res.Total = res.FeatValue() + bonus
	for i, d := range success {
		if d < 1 || d > SuccessSides {
			return Result{}, msgerr.Errorf("%w: success die %d is %d, not in 1..%d", ErrInvalidRoll, i+1, d, SuccessSides)
		}
		res.Total += d
		if d == SuccessSides {
			res.Sixes++
		}
	}
	res.Success = res.Rune || res.Total >= tn
	res.Outcome = OutcomeFailure
	if res.Success {
		res.Quality = QualityOf(res.Sixes)
		res.Outcome = OutcomeSuccess
	}
	return res, nil
}
