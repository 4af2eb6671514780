package dice

// Free rolls (docs/rules.md 3.5): a dice expression such as
// "1d6", "2d10+3" or "2d6+1d4-1", drawn from a roll's stream like any
// other roll, die after die in the order written.
//
// Invariants: ParseExpr accepts exactly the expressions within the bounds
// below and spells each one way (Expr.String), so that a recorded
// expression is re-read to the same dice by every verifier; Roll draws
// Sides() in order and nothing else; Total is a pure function of the
// faces.

import (
	"strconv"
	"strings"

	"github.com/campaign-journal/journal/internal/msgerr"
)

// Bounds of a free roll's expression.
const (
	// MaxExprDice bounds the dice of one term and of the whole expression.
	MaxExprDice = 100
	// MaxExprTerms bounds the terms (dice and numbers) of an expression.
	MaxExprTerms = 10
	// MaxExprConstant bounds each number and the sum of their sizes.
	MaxExprConstant = 1000
	// MaxExprLen bounds the expression's length in bytes.
	MaxExprLen = 64
)

// ErrInvalidExpr marks a dice expression that cannot be rolled.
var ErrInvalidExpr = msgerr.New("invalid dice expression")

// Term is one term of an expression: Count dice of Sides sides, or (Sides
// 0) the number Count; Neg subtracts it.
type Term struct {
	Count int
	Sides int
	Neg   bool
}

// Expr is a parsed dice expression: its terms in the order written.
type Expr struct {
	Terms []Term
}

// ParseExpr reads a dice expression: terms NdM (N 1..100, omitted: 1; M
// 2..256, the sides the byte streams draw) and numbers K (0..1000),
// joined by + or -, the first optionally signed; spaces are ignored and D
// reads as d. At least one dice term; at most 10 terms, 100 dice in all
// and 1000 as the sum of the numbers. The error names what is wrong.
func ParseExpr(text string) (Expr, error) {
	if len(text) > MaxExprLen {
		return Expr{}, msgerr.Errorf("%w: %d characters, at most %d", ErrInvalidExpr, len(text), MaxExprLen)
	}
	if i := spaceInTerm(text); i >= 0 {
		return Expr{}, msgerr.Errorf("%w: a space inside a term (at character %d)", ErrInvalidExpr, i+1)
	}
	s := strings.ToLower(strings.ReplaceAll(text, " ", ""))
	if s == "" {
		return Expr{}, msgerr.Errorf("%w: empty: write dice such as 1d6 or 2d10+3", ErrInvalidExpr)
	}
	var e Expr
	dice, consts := 0, 0
	for i := 0; i < len(s); {
		neg := false
		switch s[i] {
		case '+', '-':
			neg = s[i] == '-'
			i++
		default:
			if i > 0 {
				return Expr{}, msgerr.Errorf("%w: %q: want + or - between terms", ErrInvalidExpr, s[i:])
			}
		}
		j := i
		for j < len(s) && s[j] != '+' && s[j] != '-' {
			j++
		}
		t, err := parseTerm(s[i:j])
		if err != nil {
			return Expr{}, err
		}
		t.Neg = neg
		e.Terms = append(e.Terms, t)
		if len(e.Terms) > MaxExprTerms {
			return Expr{}, msgerr.Errorf("%w: more than %d terms", ErrInvalidExpr, MaxExprTerms)
		}
		if t.Sides > 0 {
			dice += t.Count
		} else {
			consts += t.Count
		}
		i = j
	}
	switch {
	case dice == 0:
		return Expr{}, msgerr.Errorf("%w: %q rolls no dice: write dice such as 1d6 or 2d10+3", ErrInvalidExpr, s)
	case dice > MaxExprDice:
		return Expr{}, msgerr.Errorf("%w: %d dice, at most %d", ErrInvalidExpr, dice, MaxExprDice)
	case consts > MaxExprConstant:
		return Expr{}, msgerr.Errorf("%w: numbers adding up to %d, at most %d", ErrInvalidExpr, consts, MaxExprConstant)
	}
	return e, nil
}

// spaceInTerm returns the index of a space between two characters of one
// term ("1d6 2"), or -1: spaces go only around signs.
func spaceInTerm(s string) int {
	t := strings.TrimSpace(s)
	off := strings.Index(s, t)
	for i := 0; i < len(t); i++ {
		if t[i] != ' ' {
			continue
		}
		j := i
		for j < len(t) && t[j] == ' ' {
			j++
		}
		if t[i-1] != '+' && t[i-1] != '-' && t[j] != '+' && t[j] != '-' {
			return off + i
		}
		i = j
	}
	return -1
}

// parseTerm reads one unsigned term: NdM, dM or K.
func parseTerm(s string) (Term, error) {
	if s == "" {
		return Term{}, msgerr.Errorf("%w: a term is missing (a sign with nothing after it)", ErrInvalidExpr)
	}
	count, sides, isDice := strings.Cut(s, "d")
	if !isDice {
		k, err := number(s)
		if err != nil || k > MaxExprConstant {
			return Term{}, msgerr.Errorf("%w: %q: want a number 0..%d or dice NdM", ErrInvalidExpr, s, MaxExprConstant)
		}
		return Term{Count: k}, nil
	}
	n := 1
	if count != "" {
		var err error
		if n, err = number(count); err != nil || n < 1 || n > MaxExprDice {
			return Term{}, msgerr.Errorf("%w: %q: want 1..%d dice", ErrInvalidExpr, s, MaxExprDice)
		}
	}
	m, err := number(sides)
	if err != nil || m < MinSides || m > MaxSides {
		return Term{}, msgerr.Errorf("%w: %q: a die has %d..%d sides", ErrInvalidExpr, s, MinSides, MaxSides)
	}
	return Term{Count: n, Sides: m}, nil
}

// number reads a decimal of at most 4 digits (no sign).
func number(s string) (int, error) {
	if s == "" || len(s) > 4 {
		return 0, strconv.ErrSyntax
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, strconv.ErrSyntax
		}
	}
	return strconv.Atoi(s)
}

// String spells the expression the one way the journal records it:
// lower case, no spaces, every dice term with its count ("1d6"), numbers
// without leading zeros, a leading + left out.
func (e Expr) String() string {
	var b strings.Builder
	for i, t := range e.Terms {
		switch {
		case t.Neg:
			b.WriteByte('-')
		case i > 0:
			b.WriteByte('+')
		}
		b.WriteString(strconv.Itoa(t.Count))
		if t.Sides > 0 {
			b.WriteByte('d')
			b.WriteString(strconv.Itoa(t.Sides))
		}
	}
	return b.String()
}

// Sides lists the sides of every die the expression draws, in order.
func (e Expr) Sides() []int {
	var out []int
	for _, t := range e.Terms {
		for range t.Count * min(t.Sides, 1) {
			out = append(out, t.Sides)
		}
	}
	return out
}

// Total adds the faces (one per die of Sides, in order) and the numbers,
// each with its term's sign. It returns an error when the faces are not
// one per die or do not fit their dice.
func (e Expr) Total(faces []int) (int, error) {
	total, k := 0, 0
	for _, t := range e.Terms {
		sign := 1
		if t.Neg {
			sign = -1
		}
		if t.Sides == 0 {
			total += sign * t.Count
			continue
		}
		for range t.Count {
			if k >= len(faces) {
				return 0, msgerr.Errorf("%w: %d faces, the dice are %d", ErrExhausted, len(faces), len(e.Sides()))
			}
			if faces[k] < 1 || faces[k] > t.Sides {
				return 0, msgerr.Errorf("%w: %d on d%d (face %d)", ErrInvalidFace, faces[k], t.Sides, k+1)
			}
			total += sign * faces[k]
			k++
		}
	}
	if k != len(faces) {
		return 0, msgerr.Errorf("%w: %d faces, the dice are %d", ErrInvalidFace, len(faces), k)
	}
	return total, nil
}

// Roll draws the expression's dice from r in order and returns the faces
// and the total.
func (e Expr) Roll(r Roller) ([]int, int, error) {
	sides := e.Sides()
	faces := make([]int, 0, len(sides))
	for _, n := range sides {
		f, err := r.Roll(n)
		if err != nil {
			return nil, 0, err
		}
		faces = append(faces, f)
	}
	total, err := e.Total(faces)
	return faces, total, err
}
