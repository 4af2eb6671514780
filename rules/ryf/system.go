package ryf

import (
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/rules/names"
	"slices"
	"strings"
	"unicode/utf8"
)

// System is a game system of this package.
type System string

// The systems of this package.
const (
	RyF     System = "ryf"
	Galaxia System = "galaxia"
)

// ParseSystem reads a system id ("ryf" or "galaxia", any case).
func ParseSystem(s string) (System, error) {
	switch fold(s) {
	case "ryf":
		return RyF, nil
	case "galaxia":
		return Galaxia, nil
	}
	return "", msgerr.Errorf("%w %q: want ryf or galaxia", ErrUnknownSystem, clip.Text(s))
}

// Attr is an attribute, by its letter.
type Attr string

// The attributes. Carisma exists only in campaigns with the carisma rule.
const (
	Fuerza       Attr = "F"
	Resistencia  Attr = "R"
	Destreza     Attr = "D"
	Inteligencia Attr = "I"
	Percepcion   Attr = "P"
	Carisma      Attr = "C"
)

// Name returns the attribute's Spanish name ("Fuerza"), or "" for an unknown letter.
func (a Attr) Name() string {
	switch a {
	case Fuerza:
		return "Fuerza"
	case Resistencia:
		return "Resistencia"
	case Destreza:
		return "Destreza"
	case Inteligencia:
		return "Inteligencia"
	case Percepcion:
		return "Percepción"
	case Carisma:
		return "Carisma"
	}
	return ""
}

// Attribute ranges and budgets (docs/rules.md 1.1, 1.3).
const (
	MinAttribute          = 2
	MaxAttribute          = 10
	AttributeBudget       = 40 // player characters, five attributes
	CarismaBudget         = 45 // player characters, with the carisma rule
	MinRank               = 0
	MaxRank               = 10
	MaxCreationRank       = 5  // a player character's skill at creation
	MaxCreationSum        = 15 // attribute + skill at creation
	RyFSkillBudget        = 40
	GalaxiaSkillBudget    = 34
	DefenseBonus          = 5
	HardDefenseBonus      = 6
	maxNameLength         = 64
	defaultAttributeCount = 5
)

// Skill is a skill and its default attribute.
type Skill struct {
	Name string `json:"name"`
	Attr Attr   `json:"attr"`
}

func ryfSkills() []Skill {
	return []Skill{
		{"Advertir/Notar", Percepcion},
		{"Armas a distancia", Destreza},
		{"Armas cuerpo a cuerpo", Fuerza},
		{"Atletismo", Destreza},
		{"Bailar", Percepcion},
		{"Buscar", Percepcion},
		{"Comercio", Percepcion},
		{"Conducir", Destreza},
		{"Diagnosis", Percepcion},
		{"Etiqueta", Percepcion},
		{"Idiomas", Inteligencia},
		{"Informática", Inteligencia},
		{"Leer Labios", Percepcion},
		{"Leyes", Inteligencia},
		{"Mecánica", Inteligencia},
		{"Medicina", Inteligencia},
		{"Música", Percepcion},
		{"Pelea", Fuerza},
		{"Pilotar", Destreza},
		{"Rastrear", Percepcion},
		{"Sigilo", Destreza},
		{"Supervivencia", Inteligencia},
	}
}

func galaxiaSkills() []Skill {
	return []Skill{
		{"Advertir/Notar", Percepcion},
		{"Armas a distancia", Destreza},
		{"Armas a fuego livianas", Destreza},
		{"Armas de fuego pesadas", Fuerza},
		{"Armas de energía", Fuerza},
		{"Armas cuerpo a cuerpo", Fuerza},
		{"Artillería", Destreza},
		{"Astrofísica", Inteligencia},
		{"Atletismo", Destreza},
		{"Buscar", Percepcion},
		{"Comercio", Percepcion},
		{"Conducir", Destreza},
		{"Criptografía", Inteligencia},
		{"Diagnosis", Percepcion},
		{"Disfraz", Percepcion},
		{"Escalar", Destreza},
		{"Etiqueta", Percepcion},
		{"Fauna", Inteligencia},
		{"Idiomas", Inteligencia},
		{"Informática", Inteligencia},
		{"Ingeniería de motores", Inteligencia},
		{"Leer Labios", Percepcion},
		{"Leyes", Inteligencia},
		{"Mecánica", Inteligencia},
		{"Medicina", Inteligencia},
		{"Música", Percepcion},
		{"Navegación espacial", Percepcion},
		{"Pelea", Fuerza},
		{"Pilotar", Destreza},
		{"Planetología", Inteligencia},
		{"Rastrear", Percepcion},
		{"Rumores", Percepcion},
		{"Sigilo", Destreza},
		{"Supervivencia", Inteligencia},
	}
}

// Skill names the combat rules refer to.
const (
	skillMelee  = "Armas cuerpo a cuerpo"
	skillBrawl  = "Pelea"
	skillRanged = "Armas a distancia"
	skillPistol = "Armas a fuego livianas"
)

// SystemSkills returns the built-in skills of a system in the order of
// docs/rules.md, or nil for an unknown system.
func SystemSkills(sys System) []Skill {
	switch sys {
	case RyF:
		return ryfSkills()
	case Galaxia:
		return galaxiaSkills()
	}
	return nil
}

// Options are a campaign's choices of rules. The zero value of every field
// but System is the standard game.
type Options struct {
	System System `json:"system"`
	// Carisma adds the sixth attribute C and raises the attribute budget to 45.
	Carisma bool `json:"carisma,omitempty"`
	// HardDefense makes Defense D + skill + 6 instead of + 5.
	HardDefense bool `json:"hard_defense,omitempty"`
	// AttributeBudget, when not 0, lowers the player characters' attribute
	// budget; it cannot exceed the standard one.
	AttributeBudget int `json:"attribute_budget,omitempty"`
	// Skills are the campaign's extra skills, after the system's.
	Skills []Skill `json:"skills,omitempty"`
	// Weapons are the campaign's weapons. One with the name of a known
	// weapon replaces it; a later one replaces an earlier one of the same name.
	Weapons []Weapon `json:"weapons,omitempty"`
}

// Rules are the rules of one campaign: a system with its options. A *Rules
// is immutable and safe for concurrent use.
type Rules struct {
	opts        Options
	attrs       []Attr
	attrIndex   []entry[Attr]
	skills      []Skill
	skillIndex  []entry[Skill]
	skillByName map[string]Skill
	weapons     []Weapon
	weaponIndex []entry[Weapon]
}

// New returns the rules of a campaign, or an error wrapping
// ErrInvalidCampaign (and the cause) when the options do not fit together.
func New(opts Options) (*Rules, error) {
	r := &Rules{}
	if opts.System != RyF && opts.System != Galaxia {
		return nil, msgerr.Errorf("%w: %w %q", ErrInvalidCampaign, ErrUnknownSystem, clip.Text(opts.System))
	}
	r.attrs = []Attr{Fuerza, Resistencia, Destreza, Inteligencia, Percepcion}
	if opts.Carisma {
		r.attrs = append(r.attrs, Carisma)
	}
	for _, a := range r.attrs {
		r.attrIndex = append(r.attrIndex, newEntry(a.Name(), a, string(a)))
	}
	std := AttributeBudget
	if opts.Carisma {
		std = CarismaBudget
	}
	if b := opts.AttributeBudget; b != 0 && (b < MinAttribute*len(r.attrs) || b > std) {
		return nil, msgerr.Errorf("%w: %w: attribute budget %d, want %d..%d", ErrInvalidCampaign, ErrOutOfRange, b, MinAttribute*len(r.attrs), std)
	}

	r.skills = SystemSkills(opts.System)
	r.skillByName = make(map[string]Skill, len(r.skills)+len(opts.Skills))
	folded := make(map[string]string)
	for _, s := range r.skills {
		r.skillByName[s.Name] = s
		folded[fold(s.Name)] = s.Name
	}
	for _, s := range opts.Skills {
		if err := checkName(s.Name); err != nil {
			return nil, msgerr.Errorf("%w: skill %q: %w", ErrInvalidCampaign, clip.Text(s.Name), err)
		}
		if !r.hasAttr(s.Attr) {
			return nil, msgerr.Errorf("%w: skill %q: %w %q", ErrInvalidCampaign, clip.Text(s.Name), ErrUnknownAttribute, clip.Text(s.Attr))
		}
		if have, dup := folded[fold(s.Name)]; dup {
			return nil, msgerr.Errorf("%w: skill %q: already defined as %q", ErrInvalidCampaign, clip.Text(s.Name), have)
		}
		folded[fold(s.Name)] = s.Name
		r.skills = append(r.skills, s)
		r.skillByName[s.Name] = s
	}
	for _, s := range r.skills {
		r.skillIndex = append(r.skillIndex, newEntry(s.Name, s))
	}

	r.weapons = KnownWeapons(opts.System)
	for _, w := range opts.Weapons {
		if err := r.ValidateWeapon(w); err != nil {
			return nil, msgerr.Errorf("%w: %w", ErrInvalidCampaign, err)
		}
		replaced := false
		for i, have := range r.weapons {
			if fold(have.Name) == fold(w.Name) {
				r.weapons[i] = w
				replaced = true
				break
			}
		}
		if !replaced {
			r.weapons = append(r.weapons, w)
		}
	}
	for _, w := range r.weapons {
		r.weaponIndex = append(r.weaponIndex, newEntry(w.Name, w))
	}

	opts.Skills = append([]Skill(nil), opts.Skills...)
	opts.Weapons = append([]Weapon(nil), opts.Weapons...)
	r.opts = opts
	return r, nil
}

// checkName checks a campaign-defined skill or weapon name: 1..64
// characters, none of the parsers' separators ",=:;", not all space.
func checkName(name string) error {
	if fold(name) == "" {
		return msgerr.Errorf("%w: empty name", ErrSyntax)
	}
	if !utf8.ValidString(name) || utf8.RuneCountInString(name) > maxNameLength {
		return msgerr.Errorf("%w: name must be valid text of at most %d characters", ErrSyntax, maxNameLength)
	}
	if strings.ContainsAny(name, ",=:;") {
		return msgerr.Errorf("%w: name may not contain any of ,=:;", ErrSyntax)
	}
	return nil
}

// Options returns a copy of the options the rules were made from.
func (r *Rules) Options() Options {
	o := r.opts
	o.Skills = append([]Skill(nil), o.Skills...)
	o.Weapons = append([]Weapon(nil), o.Weapons...)
	return o
}

// System returns the campaign's system.
func (r *Rules) System() System { return r.opts.System }

// Attributes returns the campaign's attributes: F R D I P, and C with carisma.
func (r *Rules) Attributes() []Attr { return append([]Attr(nil), r.attrs...) }

func (r *Rules) hasAttr(a Attr) bool {
	for _, have := range r.attrs {
		if have == a {
			return true
		}
	}
	return false
}

// AttributeBudget returns the most attribute points a player character may
// spend at creation: 40, 45 with carisma, or the campaign's lower budget.
func (r *Rules) AttributeBudget() int {
	if r.opts.AttributeBudget != 0 {
		return r.opts.AttributeBudget
	}
	if r.opts.Carisma {
		return CarismaBudget
	}
	return AttributeBudget
}

// SkillBudget returns the most skill points a player character may spend at
// creation: 40 in ryf, 34 in galaxia.
func (r *Rules) SkillBudget() int {
	if r.opts.System == Galaxia {
		return GalaxiaSkillBudget
	}
	return RyFSkillBudget
}

// DefenseBonus returns the constant added to Defense: 5, or 6 with hard-defense.
func (r *Rules) DefenseBonus() int {
	if r.opts.HardDefense {
		return HardDefenseBonus
	}
	return DefenseBonus
}

// Skills returns the campaign's skills: the system's, then the extra ones.
func (r *Rules) Skills() []Skill { return append([]Skill(nil), r.skills...) }

// LookupSkill finds a skill by name, without accents, in any case, by any
// '/'-separated part ("notar"), or by a unique prefix ("advertir"); an exact
// match wins over prefixes. It returns an error wrapping ErrUnknownSkill or
// ErrAmbiguous (listing the candidates).
func (r *Rules) LookupSkill(name string) (Skill, error) {
	return find("skill", name, r.skillIndex, ErrUnknownSkill)
}

// LookupAttribute finds an attribute by letter ("F") or name ("fuerza",
// "percepcion", a unique prefix). C is found only with the carisma rule.
func (r *Rules) LookupAttribute(name string) (Attr, error) {
	return find("attribute", name, r.attrIndex, ErrUnknownAttribute)
}

// AttributeNamed reports which attribute of the campaign name is exactly,
// by letter or name (folded: "d", "percepcion"), with no prefixes.
func (r *Rules) AttributeNamed(name string) (Attr, bool) {
	q := fold(name)
	e, n := match(q, r.attrIndex, func(k string) bool { return k == q })
	return e.value, n == 1
}

// Side is what one side of an opposed roll rolls: a skill (Skill set) or an
// attribute (Attr set, Skill empty).
type Side struct {
	Skill string `json:"skill,omitempty"`
	Attr  Attr   `json:"attr,omitempty"`
}

// LookupSide reads what a side of an opposed roll names: a skill or an
// attribute. An attribute's letter or full name ("D", "destreza") always
// means the attribute, so that a letter is never read as the prefix of a
// skill ("D" is Destreza, not Diagnosis). Otherwise an exact skill name wins;
// then a prefix must be unique among skills and attributes together ("ras"
// is Rastrear, "fu" Fuerza, "pe" is ambiguous: Pelea or Percepción). A
// campaign skill whose exact name is also an attribute's is ErrAmbiguous.
// Errors wrap ErrUnknownSkill (nothing matches) or ErrAmbiguous.
func (r *Rules) LookupSide(name string) (Side, error) {
	q := fold(name)
	if q == "" {
		return Side{}, msgerr.Errorf("%w: empty name", ErrUnknownSkill)
	}
	exact := func(k string) bool { return k == q }
	a, na := match(q, r.attrIndex, exact)
	s, ns := match(q, r.skillIndex, exact)
	switch {
	case na == 1 && ns >= 1:
		return Side{}, msgerr.Errorf("%w %q: the skill %s or the attribute %s", ErrAmbiguous, clip.Text(name), s.display, a.value.Name())
	case na == 1:
		return Side{Attr: a.value}, nil
	case ns == 1:
		return Side{Skill: s.value.Name}, nil
	}
	prefix := func(k string) bool { return strings.HasPrefix(k, q) }
	a, na = match(q, r.attrIndex, prefix)
	s, ns = match(q, r.skillIndex, prefix)
	switch {
	case na == 0 && ns == 0:
		return Side{}, msgerr.Errorf("%w %q (nor an attribute)%s", ErrUnknownSkill, clip.Text(name), r.sideHint(name))
	case na == 1 && ns == 0:
		return Side{Attr: a.value}, nil
	case na == 0 && ns == 1:
		return Side{Skill: s.value.Name}, nil
	}
	var could []string
	for _, e := range r.skillIndex {
		if slices.ContainsFunc(e.keys, prefix) {
			could = append(could, e.display)
		}
	}
	for _, e := range r.attrIndex {
		if slices.ContainsFunc(e.keys, prefix) {
			could = append(could, e.value.Name())
		}
	}
	return Side{}, msgerr.Errorf("%w skill or attribute %q: could be %s", ErrAmbiguous, clip.Text(name), strings.Join(could, ", "))
}

// SideCheck builds the side's roll for character c: a skill roll (with attr, the
// attribute the GM names, or "" for the skill's default) or an attribute
// roll (attr must then be "" or the side's own attribute), flagged Opposed.
func (r *Rules) SideCheck(c Character, side Side, attr Attr) (Check, error) {
	var (
		check Check
		err   error
	)
	if side.Skill != "" {
		check, err = r.SkillCheck(c, side.Skill, attr)
	} else {
		if attr != "" && attr != side.Attr {
			return Check{}, msgerr.Errorf("%w: an attribute roll of %s cannot use %s: name another attribute as the side instead", ErrInvalidCheck, side.Attr.Name(), attr.Name())
		}
		check, err = r.AttributeCheck(c, side.Attr)
	}
	if err != nil {
		return Check{}, err
	}
	check.Opposed = true
	return check, nil
}

// sideHint ends the message of a side that names no skill nor attribute.
func (r *Rules) sideHint(name string) error {
	var all []string
	for _, e := range r.skillIndex {
		all = append(all, e.display)
	}
	for _, e := range r.attrIndex {
		all = append(all, e.display)
	}
	if h := names.Hint(name, all); h != nil {
		return msgerr.Errorf(": %w", h)
	}
	return msgerr.New("")
}
