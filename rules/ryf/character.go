package ryf

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// Character is what the rules need of a character: its attributes, its
// skill ranks by canonical skill name (a missing skill has rank 0), its
// specialization and whether it is a non-player character.
type Character struct {
	Attributes     map[Attr]int   `json:"attributes"`
	Skills         map[string]int `json:"skills"`
	Specialization string         `json:"specialization,omitempty"`
	NPC            bool           `json:"npc,omitempty"`
}

// Rank returns the character's rank in a skill (0 when it has none).
func (c Character) Rank(skill string) int { return c.Skills[skill] }

// MaxHP returns the character's maximum hit points: Resistencia × 4.
func (c Character) MaxHP() int { return c.Attributes[Resistencia] * 4 }

// The rules ValidateCharacter names in its violations.
const (
	RuleAttributeMissing = "attribute_missing"    // every attribute of the campaign is required
	RuleAttributeUnknown = "attribute_unknown"    // C without the carisma rule, or no such letter
	RuleAttributeRange   = "attribute_range"      // 2..10
	RuleAttributeBudget  = "attribute_budget"     // PCs: sum at most 40, 45 with carisma, or the campaign's
	RuleSkillUnknown     = "skill_unknown"        // skills are keyed by canonical names
	RuleSkillRange       = "skill_range"          // 0..10
	RuleSkillCreationMax = "skill_creation_max"   // PCs: at most 5 at creation
	RuleSkillBudget      = "skill_budget"         // PCs: sum at most 40 (ryf) or 34 (galaxia)
	RuleAttributePlus    = "attribute_plus_skill" // PCs: skill + its default attribute at most 15
	RuleSpecialization   = "specialization"       // PCs: exactly one existing skill; NPCs: none or one
	// Rules of ParseCharacter's text: a list that does not parse.
	RuleAttributesSyntax = "attributes" // the attribute list: syntax, unknown or repeated names
	RuleSkillsSyntax     = "skills"     // the skill list: syntax, unknown, ambiguous or repeated names
)

// Violation is one broken creation rule.
type Violation struct {
	Rule    string `json:"rule"`              // one of the Rule... names
	Subject string `json:"subject,omitempty"` // the attribute letter or skill name
	Message string `json:"message"`
	// Err is the message as a keyed error (msgerr), which the doors
	// render in the reader's language; nil: Message as it is.
	Err error `json:"-"`
}

// String returns "rule: message".
func (v Violation) String() string { return v.Rule + ": " + v.Message }

// AsError returns the violation's message as an error: Err, or one keyed by
// Message.
func (v Violation) AsError() error {
	if v.Err != nil {
		return v.Err
	}
	return msgerr.New(v.Message)
}

// InvalidCharacterError lists every rule a character breaks. It wraps
// ErrInvalidCharacter.
type InvalidCharacterError struct {
	Violations []Violation `json:"violations"`
}

// Error lists the violations: "invalid character: rule: message; ...".
func (e *InvalidCharacterError) Error() string {
	parts := make([]string, len(e.Violations))
	for i, v := range e.Violations {
		parts[i] = v.String()
	}
	return ErrInvalidCharacter.Error() + ": " + strings.Join(parts, "; ")
}

// Unwrap returns ErrInvalidCharacter.
func (e *InvalidCharacterError) Unwrap() error { return ErrInvalidCharacter }

// Key and Args make the error keyed (msgerr.Keyed) in its reader's form:
// "invalid character: " and the violations, a rule's name before its
// message only when it is a word ("skills: …"), not a code
// ("attribute_missing").
func (e *InvalidCharacterError) Key() string {
	return "%w: " + strings.TrimSuffix(strings.Repeat("%v; ", len(e.Violations)), "; ")
}

// Args: see Key.
func (e *InvalidCharacterError) Args() []any {
	args := []any{ErrInvalidCharacter}
	for _, v := range e.Violations {
		if strings.Contains(v.Rule, "_") {
			args = append(args, v.AsError())
		} else {
			args = append(args, msgerr.Errorf("%w: %w", msgerr.New(v.Rule), v.AsError())) // the rule, a word, in the reader's language
		}
	}
	return args
}

// ValidateCharacter checks a character against the campaign's creation
// rules (docs/rules.md 1.3) and returns nil or an *InvalidCharacterError listing
// every violation at once, in a stable order (attributes, skills, budgets,
// specialization).
//
// All characters: every campaign attribute present and 2..10, no other
// attribute, skills named canonically and ranked 0..10. Player characters
// also: attribute sum at most the budget, skills at most 5, skill sum at
// most the skill budget, skill + its default attribute at most 15, and
// exactly one specialization, a skill of the campaign. A non-player
// character may have a specialization (it must exist) or none.
func (r *Rules) ValidateCharacter(c Character) error {
	var vs []Violation
	add := func(rule, subject, format string, args ...any) {
		err := msgerr.Errorf(format, args...)
		vs = append(vs, Violation{Rule: rule, Subject: subject, Message: err.Error(), Err: err})
	}
	pc := !c.NPC

	attrSum := 0
	for _, a := range r.attrs {
		v, ok := c.Attributes[a]
		if !ok {
			add(RuleAttributeMissing, string(a), "%s (%s) is missing", a, a.Name())
			continue
		}
		attrSum += v
		if v < MinAttribute || v > MaxAttribute {
			add(RuleAttributeRange, string(a), "%s (%s) = %d, want %d..%d", a, a.Name(), v, MinAttribute, MaxAttribute)
		}
	}
	var unknownAttrs []string
	for a := range c.Attributes {
		if !r.hasAttr(a) {
			unknownAttrs = append(unknownAttrs, string(a))
		}
	}
	sort.Strings(unknownAttrs)
	for _, a := range unknownAttrs {
		add(RuleAttributeUnknown, a, "%q is not an attribute of this campaign", clip.Text(a))
	}

	skillSum := 0
	for _, s := range r.skills {
		v, ok := c.Skills[s.Name]
		if !ok {
			continue
		}
		skillSum += v
		if v < MinRank || v > MaxRank {
			add(RuleSkillRange, s.Name, "%s = %d, want %d..%d", s.Name, v, MinRank, MaxRank)
			continue
		}
		if !pc {
			continue
		}
		if v > MaxCreationRank {
			add(RuleSkillCreationMax, s.Name, "%s = %d, at most %d at creation", s.Name, v, MaxCreationRank)
		}
		if av, ok := c.Attributes[s.Attr]; ok && av >= MinAttribute && av <= MaxAttribute && v+av > MaxCreationSum {
			add(RuleAttributePlus, s.Name, "%s %d + %s %d = %d, at most %d at creation", s.Name, v, s.Attr.Name(), av, v+av, MaxCreationSum)
		}
	}
	var unknownSkills []string
	for name := range c.Skills {
		if _, ok := r.skillByName[name]; !ok {
			unknownSkills = append(unknownSkills, name)
		}
	}
	sort.Strings(unknownSkills)
	for _, name := range unknownSkills {
		msg := fmt.Sprintf("%q is not a skill of this campaign", clip.Text(name))
		if s, err := r.LookupSkill(name); err == nil {
			msg += fmt.Sprintf(" (write %q)", s.Name)
		}
		add(RuleSkillUnknown, name, "%s", msg)
	}

	if pc {
		if b := r.AttributeBudget(); attrSum > b {
			add(RuleAttributeBudget, "", "attributes sum to %d, budget %d", attrSum, b)
		}
		if b := r.SkillBudget(); skillSum > b {
			add(RuleSkillBudget, "", "skills sum to %d, budget %d", skillSum, b)
		}
	}
	switch _, ok := r.skillByName[c.Specialization]; {
	case c.Specialization == "" && pc:
		add(RuleSpecialization, "", "missing: choose exactly one skill")
	case c.Specialization != "" && !ok:
		msg := fmt.Sprintf("%q is not a skill of this campaign", clip.Text(c.Specialization))
		if s, err := r.LookupSkill(c.Specialization); err == nil {
			msg += fmt.Sprintf(" (write %q)", s.Name)
		}
		add(RuleSpecialization, c.Specialization, "%s", msg)
	}
	if len(vs) == 0 {
		return nil
	}
	return &InvalidCharacterError{Violations: vs}
}

// ParseCharacter reads a character from the text of its attributes,
// skills and specialization (as ParseAttributes, ParseSkills and
// LookupSkill take them) and validates it (ValidateCharacter), reporting
// every problem at once: each bad pair of either list, an unknown
// specialization, and every creation rule the pairs that did parse break.
// A violation that only follows from a pair that did not parse (an
// attribute missing because it was misspelt, a specialization missing
// because it is unknown) is left out. The error is an
// *InvalidCharacterError.
func (r *Rules) ParseCharacter(attributes, skills, specialization string, npc bool) (Character, error) {
	var parseVs []Violation
	attrs, aerr := r.parseAttributes(attributes)
	if aerr != nil {
		parseVs = append(parseVs, Violation{Rule: RuleAttributesSyntax, Message: aerr.Error(), Err: aerr})
	}
	sk, serr := r.parseSkills(skills)
	if serr != nil {
		parseVs = append(parseVs, Violation{Rule: RuleSkillsSyntax, Message: serr.Error(), Err: serr})
	}
	var specErr error
	c := Character{Attributes: attrs, Skills: sk, NPC: npc}
	if strings.TrimSpace(specialization) != "" {
		s, err := r.LookupSkill(specialization)
		if err != nil {
			specErr = err
			parseVs = append(parseVs, Violation{Rule: RuleSpecialization, Subject: specialization, Message: err.Error(), Err: err})
		} else {
			c.Specialization = s.Name
		}
	}
	vs := parseVs
	var ie *InvalidCharacterError
	if err := r.ValidateCharacter(c); errors.As(err, &ie) {
		for _, v := range ie.Violations {
			switch {
			case v.Rule == RuleAttributeMissing && aerr != nil, v.Rule == RuleSpecialization && specErr != nil:
				continue
			}
			vs = append(vs, v)
		}
	}
	if len(vs) > 0 {
		return c, &InvalidCharacterError{Violations: vs}
	}
	return c, nil
}

// ParseAttributes reads attributes as "F=8,R=7,D=9,I=8,P=8": comma- or
// semicolon-separated pairs of an attribute (letter or name, see
// LookupAttribute) and an integer, with '=' or ':' between. It refuses
// duplicates and unknown attributes; ranges and budgets are
// ValidateCharacter's.
func (r *Rules) ParseAttributes(s string) (map[Attr]int, error) {
	out, err := r.parseAttributes(s)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// parseAttributes is ParseAttributes that also returns the pairs that
// parsed, and every bad pair in its error.
func (r *Rules) parseAttributes(s string) (map[Attr]int, error) {
	out := make(map[Attr]int)
	err := pairs(s, func(name string, v int) error {
		a, err := r.LookupAttribute(name)
		if err != nil {
			return err
		}
		if _, dup := out[a]; dup {
			return msgerr.Errorf("%w: %s (%s) given twice", ErrSyntax, a, a.Name())
		}
		out[a] = v
		return nil
	})
	if err != nil {
		return out, msgerr.Errorf("attributes %q: %w", clip.Text(s), err)
	}
	return out, nil
}

// ParseSkills reads skill ranks as "Pelea=5,Sigilo=3" (names as
// LookupSkill takes them, '=' or ':', ',' or ';') into a map by canonical
// skill name. "" is no skills. It refuses duplicates and unknown or
// ambiguous names; ranges and budgets are ValidateCharacter's.
func (r *Rules) ParseSkills(s string) (map[string]int, error) {
	out, err := r.parseSkills(s)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// parseSkills is ParseSkills that also returns the pairs that parsed, and
// every bad pair in its error.
func (r *Rules) parseSkills(s string) (map[string]int, error) {
	out := make(map[string]int)
	if strings.TrimSpace(s) == "" {
		return out, nil
	}
	err := pairs(s, func(name string, v int) error {
		sk, err := r.LookupSkill(name)
		if err != nil {
			return err
		}
		if _, dup := out[sk.Name]; dup {
			return msgerr.Errorf("%w: %s given twice", ErrSyntax, sk.Name)
		}
		out[sk.Name] = v
		return nil
	})
	if err != nil {
		return out, msgerr.Errorf("skills %q: %w", clip.Text(s), err)
	}
	return out, nil
}

// pairs splits "name=value,name=value" and calls f for each pair. It goes
// on past a bad pair, so that its error names every one (errorList).
func pairs(s string, f func(name string, v int) error) error {
	if strings.TrimSpace(s) == "" {
		return msgerr.Errorf("%w: empty list", ErrSyntax)
	}
	var errs errorList
	n := 0
	for _, item := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ';' }) {
		if strings.TrimSpace(item) == "" {
			continue
		}
		n++
		name, value, ok := strings.Cut(item, "=")
		if !ok {
			name, value, ok = strings.Cut(item, ":")
		}
		if !ok {
			errs = append(errs, msgerr.Errorf("%w: %q: want name=value", ErrSyntax, clip.Text(strings.TrimSpace(item))))
			continue
		}
		v, err := number(value)
		if err != nil {
			errs = append(errs, msgerr.Errorf("%w: %q: %w", ErrSyntax, clip.Text(strings.TrimSpace(item)), err))
			continue
		}
		if err := f(strings.TrimSpace(name), v); err != nil {
			errs = append(errs, err)
		}
	}
	if n == 0 {
		return msgerr.Errorf("%w: empty list", ErrSyntax)
	}
	if len(errs) == 1 {
		return errs[0]
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}

// errorList is several errors on one line, joined by ", "; errors.Is finds
// each.
type errorList []error

func (l errorList) Error() string {
	parts := make([]string, len(l))
	for i, e := range l {
		parts[i] = e.Error()
	}
	return strings.Join(parts, ", ")
}

func (l errorList) Unwrap() []error { return l }

// number reads a short signed integer.
func number(s string) (int, error) {
	t := strings.TrimSpace(s)
	neg := strings.HasPrefix(t, "-")
	if neg || strings.HasPrefix(t, "+") {
		t = t[1:]
	}
	n, err := digits(t)
	if err != nil {
		return 0, err
	}
	if neg {
		n = -n
	}
	return n, nil
}
