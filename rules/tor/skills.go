package tor

import (
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// Attribute is one of the three attributes, by its Spanish name. Each is the
// column of three skills in every group.
type Attribute string

// The three attributes (English: Body, Heart, Wits).
const (
	Cuerpo  Attribute = "Cuerpo"
	Corazon Attribute = "Corazón"
	Mente   Attribute = "Mente"
)

// AllAttributes returns the three attributes in column order.
func AllAttributes() []Attribute { return []Attribute{Cuerpo, Corazon, Mente} }

// Valid reports whether a is one of the three attributes.
func (a Attribute) Valid() bool { return a == Cuerpo || a == Corazon || a == Mente }

// English returns the attribute's English name ("" if a is not valid).
func (a Attribute) English() string {
	switch a {
	case Cuerpo:
		return "Body"
	case Corazon:
		return "Heart"
	case Mente:
		return "Wits"
	}
	return ""
}

// LookupAttribute finds an attribute by Spanish or English name, in any
// case, with or without accents, or by a unique prefix ("co" is Corazón,
// "c" is ambiguous).
func LookupAttribute(name string) (Attribute, error) {
	all := AllAttributes()
	cands := make([][]string, len(all))
	for i, a := range all {
		cands[i] = []string{string(a), a.English()}
	}
	i, err := resolve("attribute", name, cands, ErrUnknownAttribute)
	if err != nil {
		return "", err
	}
	return all[i], nil
}

// Group is one of the six skill groups, by its Spanish name. Advancement
// points are earned per group.
type Group string

// The six skill groups (English: Personality, Movement, Perception, Survival,
// Custom, Vocation).
const (
	Personalidad  Group = "Personalidad"
	Movimiento    Group = "Movimiento"
	Percepcion    Group = "Percepción"
	Supervivencia Group = "Supervivencia"
	Costumbre     Group = "Costumbre"
	Oficio        Group = "Oficio"
)

// Groups returns the six skill groups in table order.
func Groups() []Group {
	return []Group{Personalidad, Movimiento, Percepcion, Supervivencia, Costumbre, Oficio}
}

// Valid reports whether g is one of the six groups.
func (g Group) Valid() bool {
	for _, x := range Groups() {
		if g == x {
			return true
		}
	}
	return false
}

// English returns the group's English name ("" if g is not valid).
func (g Group) English() string {
	switch g {
	case Personalidad:
		return "Personality"
	case Movimiento:
		return "Movement"
	case Percepcion:
		return "Perception"
	case Supervivencia:
		return "Survival"
	case Costumbre:
		return "Custom"
	case Oficio:
		return "Vocation"
	}
	return ""
}

// Skills returns the group's three skills in column order (Cuerpo, Corazón,
// Mente); none if g is not valid.
func (g Group) Skills() []Skill {
	var out []Skill
	for _, s := range table() {
		if s.Group == g {
			out = append(out, s)
		}
	}
	return out
}

// LookupGroup finds a skill group by Spanish or English name, in any case,
// with or without accents, or by a unique prefix.
func LookupGroup(name string) (Group, error) {
	all := Groups()
	cands := make([][]string, len(all))
	for i, g := range all {
		cands[i] = []string{string(g), g.English()}
	}
	i, err := resolve("skill group", name, cands, ErrUnknownGroup)
	if err != nil {
		return "", err
	}
	return all[i], nil
}

// Skill is one of the 18 common skills: its Spanish name (the name in data
// and output), its English alias, its group and its attribute column.
type Skill struct {
	Name      string    `json:"name"`
	English   string    `json:"english"`
	Group     Group     `json:"group"`
	Attribute Attribute `json:"attribute"`
}

// String returns the skill's Spanish name.
func (s Skill) String() string { return s.Name }

// Valid reports whether s is exactly one of the 18 common skills.
func (s Skill) Valid() bool {
	for _, x := range table() {
		if s == x {
			return true
		}
	}
	return false
}

// table is the skill table of docs/rules.md §2.1: six groups of three, in column
// order Cuerpo, Corazón, Mente. It is a function so that the package holds
// no mutable state.
func table() [18]Skill {
	return [18]Skill{
		{"Impresionar", "Awe", Personalidad, Cuerpo},
		{"Inspirar", "Inspire", Personalidad, Corazon},
		{"Persuadir", "Persuade", Personalidad, Mente},
		{"Atletismo", "Athletics", Movimiento, Cuerpo},
		{"Viajar", "Travel", Movimiento, Corazon},
		{"Sigilo", "Stealth", Movimiento, Mente},
		{"Atención", "Awareness", Percepcion, Cuerpo},
		{"Perspicacia", "Insight", Percepcion, Corazon},
		{"Buscar", "Search", Percepcion, Mente},
		{"Explorar", "Explore", Supervivencia, Cuerpo},
		{"Curar", "Healing", Supervivencia, Corazon},
		{"Cazar", "Hunting", Supervivencia, Mente},
		{"Canción", "Song", Costumbre, Cuerpo},
		{"Cortesía", "Courtesy", Costumbre, Corazon},
		{"Acertijos", "Riddle", Costumbre, Mente},
		{"Artesanía", "Craft", Oficio, Cuerpo},
		{"Guerrear", "Battle", Oficio, Corazon},
		{"Saber", "Lore", Oficio, Mente},
	}
}

// Skills returns the 18 common skills in table order (group by group,
// column by column).
func Skills() []Skill {
	t := table()
	return t[:]
}

// LookupSkill finds a common skill by its Spanish or English name, in any
// case and with or without accents ("cancion", "SONG"), or by a unique prefix
// of either ("atl" is Atletismo). An exact (normalized) name wins over
// prefixes; a prefix shared by several skills is an ErrAmbiguous error that
// names them.
func LookupSkill(name string) (Skill, error) {
	t := table()
	cands := make([][]string, len(t))
	for i, s := range t {
		cands[i] = []string{s.Name, s.English}
	}
	i, err := resolve("skill", name, cands, ErrUnknownSkill)
	if err != nil {
		return Skill{}, err
	}
	return t[i], nil
}

// skillNamed returns the skill whose canonical Spanish name is exactly name.
func skillNamed(name string) (Skill, bool) {
	for _, s := range table() {
		if s.Name == name {
			return s, true
		}
	}
	return Skill{}, false
}

// checkSkill returns an ErrUnknownSkill error unless s is a common skill.
func checkSkill(s Skill) error {
	if !s.Valid() {
		return msgerr.Errorf("%w %q", ErrUnknownSkill, clip.Text(s.Name))
	}
	return nil
}
