package tor

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// Ranges a valid character keeps (see Character.Validate and DECISIONS.md).
const (
	MinAttribute         = 1  // lowest basic attribute value
	MaxAttribute         = 12 // highest basic attribute value
	MaxFavoured          = 20 // highest favoured attribute value
	MaxRank              = 6  // highest skill rank (and number of success dice)
	HopeLimit            = 99 // highest maximum Hope
	ShadowLimit          = 99 // highest Shadow and permanent Shadow, each
	MaxAdvancementPoints = 3  // advancement points per skill group per adventure
)

// Score is an attribute's basic and favoured values.
type Score struct {
	Basic    int `json:"basic"`
	Favoured int `json:"favoured"`
}

// Attributes are a character's three attribute scores.
type Attributes struct {
	Cuerpo  Score `json:"cuerpo"`
	Corazon Score `json:"corazon"`
	Mente   Score `json:"mente"`
}

// Score returns the score of one attribute.
func (a Attributes) Score(attr Attribute) (Score, error) {
	switch attr {
	case Cuerpo:
		return a.Cuerpo, nil
	case Corazon:
		return a.Corazon, nil
	case Mente:
		return a.Mente, nil
	}
	return Score{}, msgerr.Errorf("%w %q", ErrUnknownAttribute, clip.Text(string(attr)))
}

// String formats the attributes in the syntax ParseAttributes reads:
// "Cuerpo=5/7,Corazón=4/6,Mente=3/5".
func (a Attributes) String() string {
	return fmt.Sprintf("%s=%d/%d,%s=%d/%d,%s=%d/%d",
		Cuerpo, a.Cuerpo.Basic, a.Cuerpo.Favoured,
		Corazon, a.Corazon.Basic, a.Corazon.Favoured,
		Mente, a.Mente.Basic, a.Mente.Favoured)
}

// SkillRating is a character's rank in one skill and whether the skill is
// favoured.
type SkillRating struct {
	Rank     int  `json:"rank"`
	Favoured bool `json:"favoured,omitempty"`
}

// Ratings are a character's skill ratings by canonical Spanish skill name.
// A skill that is not listed has rank 0 and is not favoured.
type Ratings map[string]SkillRating

// String formats the ratings in table order, in the syntax ParseSkills reads:
// "Atletismo=3*,Sigilo=2". Keys that are not canonical skill names are left
// out.
func (r Ratings) String() string {
	var parts []string
	for _, s := range table() {
		v, ok := r[s.Name]
		if !ok {
			continue
		}
		p := fmt.Sprintf("%s=%d", s.Name, v.Rank)
		if v.Favoured {
			p += "*"
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, ",")
}

// Character is a player character of The One Ring: the spec recorded when
// it is created and the state the journal's projections fold from events.
//
// Advancement holds the advancement points earned in the current adventure
// per skill group (0..3 each); AdvancementTotal the points banked at past
// fellowship phases. Mad is set while a bout of madness lasts.
type Character struct {
	Name             string        `json:"name,omitempty"`
	Culture          string        `json:"culture,omitempty"`
	Hobbit           bool          `json:"hobbit,omitempty"`
	Attributes       Attributes    `json:"attributes"`
	Skills           Ratings       `json:"skills,omitempty"`
	Hope             int           `json:"hope"`
	MaxHope          int           `json:"max_hope"`
	Shadow           int           `json:"shadow"`
	PermanentShadow  int           `json:"permanent_shadow"`
	Traits           []string      `json:"traits,omitempty"`
	Flaws            []string      `json:"flaws,omitempty"`
	Mad              bool          `json:"mad,omitempty"`
	Advancement      map[Group]int `json:"advancement,omitempty"`
	AdvancementTotal int           `json:"advancement_total,omitempty"`
}

// Clone returns a deep copy of c: changing the copy's maps and slices leaves
// c alone.
func (c Character) Clone() Character {
	c.Skills = maps.Clone(c.Skills)
	c.Traits = slices.Clone(c.Traits)
	c.Flaws = slices.Clone(c.Flaws)
	c.Advancement = maps.Clone(c.Advancement)
	return c
}

// Rating returns the character's rating in a skill (zero if not listed).
func (c Character) Rating(s Skill) SkillRating { return c.Skills[s.Name] }

// HopeBonus returns what spending Hope adds to a roll of the skill: the
// basic value of the skill's attribute column, or its favoured value if the
// skill is favoured.
func (c Character) HopeBonus(s Skill) (int, error) {
	if err := checkSkill(s); err != nil {
		return 0, err
	}
	score, err := c.Attributes.Score(s.Attribute)
	if err != nil {
		return 0, err
	}
	if c.Rating(s).Favoured {
		return score.Favoured, nil
	}
	return score.Basic, nil
}

// IsHobbit reports whether the character counts as a hobbit for the
// fellowship pool: the Hobbit flag is set, or the culture's first word is
// "hobbit" or "hobbits" in any case ("Hobbits de la Comarca").
func (c Character) IsHobbit() bool {
	if c.Hobbit {
		return true
	}
	first, _, _ := strings.Cut(Normalize(c.Culture), " ")
	return first == "hobbit" || first == "hobbits"
}

// TotalShadow is temporary plus permanent Shadow.
func (c Character) TotalShadow() int { return c.Shadow + c.PermanentShadow }

// AdventurePoints is the number of advancement points earned in the current
// adventure, over all groups.
func (c Character) AdventurePoints() int {
	n := 0
	for _, v := range c.Advancement {
		n += v
	}
	return n
}

// Violation is one broken rule of a character spec: the field, by its JSON
// path, and what is wrong with it.
type Violation struct {
	Field   string `json:"field"`
	Problem string `json:"problem"`
	// Err is the problem as a keyed error (msgerr), which the doors
	// render in the reader's language; nil: Problem as it is.
	Err error `json:"-"`
}

// AsError returns the problem as an error: Err, or one keyed by Problem.
func (v Violation) AsError() error {
	if v.Err != nil {
		return v.Err
	}
	return msgerr.New(v.Problem)
}

func (v Violation) String() string { return v.Field + ": " + v.Problem }

// ValidationError lists every rule a character spec breaks. It wraps
// ErrInvalidCharacter.
type ValidationError struct {
	Violations []Violation `json:"violations"`
}

// Error joins the violations: "invalid character: hope: 5 exceeds max_hope 3; …".
func (e *ValidationError) Error() string {
	parts := make([]string, len(e.Violations))
	for i, v := range e.Violations {
		parts[i] = v.String()
	}
	return ErrInvalidCharacter.Error() + ": " + strings.Join(parts, "; ")
}

// Unwrap returns ErrInvalidCharacter.
func (e *ValidationError) Unwrap() error { return ErrInvalidCharacter }

// Key and Args make the error keyed (msgerr.Keyed): "invalid character: "
// and each violation's field (a JSON path, a name in every language) and
// problem.
func (e *ValidationError) Key() string {
	return "%w: " + strings.TrimSuffix(strings.Repeat("%v; ", len(e.Violations)), "; ")
}

// Args: see Key.
func (e *ValidationError) Args() []any {
	args := []any{ErrInvalidCharacter}
	for _, v := range e.Violations {
		args = append(args, msgerr.Errorf("%s: %w", v.Field, v.AsError()))
	}
	return args
}

// Validate checks the character against the rules and the package's ranges
// and reports every violation at once in a *ValidationError (nil if none):
//
//   - attributes: basic 1..12, favoured from basic to 20;
//   - skills: canonical Spanish names only, ranks 0..6;
//   - Hope: max_hope 0..99, hope 0..max_hope;
//   - Shadow and permanent Shadow 0..99 each;
//   - traits and flaws: not blank; traits distinct after Normalize;
//   - advancement: canonical group names, 0..3 each; advancement_total ≥ 0.
//
// Name and culture are free text and not checked.
func (c Character) Validate() error {
	var vs []Violation
	add := func(field, format string, args ...any) {
		err := msgerr.Errorf(format, args...)
		vs = append(vs, Violation{Field: field, Problem: err.Error(), Err: err})
	}
	for _, attr := range []struct {
		key   string
		score Score
	}{{"cuerpo", c.Attributes.Cuerpo}, {"corazon", c.Attributes.Corazon}, {"mente", c.Attributes.Mente}} {
		field := "attributes." + attr.key
		b, f := attr.score.Basic, attr.score.Favoured
		if b < MinAttribute || b > MaxAttribute {
			add(field+".basic", "%d not in %d..%d", b, MinAttribute, MaxAttribute)
		}
		switch {
		case f < b:
			add(field+".favoured", "%d below basic %d", f, b)
		case f > MaxFavoured:
			add(field+".favoured", "%d above %d", f, MaxFavoured)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(c.Skills)) {
		field := "skills." + name
		if _, ok := skillNamed(name); !ok {
			if s, err := LookupSkill(name); err == nil {
				add(field, "not a canonical skill name (want %q)", s.Name)
			} else {
				add(field, "unknown skill")
			}
			continue
		}
		if r := c.Skills[name].Rank; r < 0 || r > MaxRank {
			add(field+".rank", "%d not in 0..%d", r, MaxRank)
		}
	}
	if c.MaxHope < 0 || c.MaxHope > HopeLimit {
		add("max_hope", "%d not in 0..%d", c.MaxHope, HopeLimit)
	}
	switch {
	case c.Hope < 0:
		add("hope", "%d below 0", c.Hope)
	case c.MaxHope >= 0 && c.Hope > c.MaxHope:
		add("hope", "%d exceeds max_hope %d", c.Hope, c.MaxHope)
	}
	if c.Shadow < 0 || c.Shadow > ShadowLimit {
		add("shadow", "%d not in 0..%d", c.Shadow, ShadowLimit)
	}
	if c.PermanentShadow < 0 || c.PermanentShadow > ShadowLimit {
		add("permanent_shadow", "%d not in 0..%d", c.PermanentShadow, ShadowLimit)
	}
	seen := map[string]int{}
	for i, t := range c.Traits {
		field := fmt.Sprintf("traits[%d]", i)
		key := Normalize(t)
		if key == "" {
			add(field, "blank trait")
			continue
		}
		if j, dup := seen[key]; dup {
			add(field, "%q repeats traits[%d]", clip.Text(t), j)
			continue
		}
		seen[key] = i
	}
	for i, f := range c.Flaws {
		if Normalize(f) == "" {
			add(fmt.Sprintf("flaws[%d]", i), "blank flaw")
		}
	}
	for _, g := range slices.Sorted(maps.Keys(c.Advancement)) {
		field := "advancement." + string(g)
		if !g.Valid() {
			add(field, "unknown skill group")
			continue
		}
		if n := c.Advancement[g]; n < 0 || n > MaxAdvancementPoints {
			add(field, "%d not in 0..%d", n, MaxAdvancementPoints)
		}
	}
	if c.AdvancementTotal < 0 {
		add("advancement_total", "%d below 0", c.AdvancementTotal)
	}
	if len(vs) == 0 {
		return nil
	}
	return &ValidationError{Violations: vs}
}
