package ryf_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/rules/ryf"
)

func TestSystemSkills(t *testing.T) {
	tests := []struct {
		sys   ryf.System
		count int
		some  map[string]ryf.Attr
	}{
		{ryf.RyF, 22, map[string]ryf.Attr{
			"Advertir/Notar": ryf.Percepcion, "Armas a distancia": ryf.Destreza, "Armas cuerpo a cuerpo": ryf.Fuerza,
			"Informática": ryf.Inteligencia, "Leer Labios": ryf.Percepcion, "Música": ryf.Percepcion, "Pelea": ryf.Fuerza,
			"Supervivencia": ryf.Inteligencia,
		}},
		{ryf.Galaxia, 34, map[string]ryf.Attr{
			"Armas a fuego livianas": ryf.Destreza, "Armas de fuego pesadas": ryf.Fuerza, "Armas de energía": ryf.Fuerza,
			"Artillería": ryf.Destreza, "Astrofísica": ryf.Inteligencia, "Criptografía": ryf.Inteligencia,
			"Ingeniería de motores": ryf.Inteligencia, "Navegación espacial": ryf.Percepcion, "Planetología": ryf.Inteligencia,
			"Rumores": ryf.Percepcion, "Escalar": ryf.Destreza, "Fauna": ryf.Inteligencia, "Disfraz": ryf.Percepcion,
		}},
	}
	for _, tt := range tests {
		t.Run(string(tt.sys), func(t *testing.T) {
			skills := ryf.SystemSkills(tt.sys)
			if len(skills) != tt.count {
				t.Errorf("%d skills, want %d", len(skills), tt.count)
			}
			byName := map[string]ryf.Attr{}
			for _, s := range skills {
				if _, dup := byName[s.Name]; dup {
					t.Errorf("skill %q twice", s.Name)
				}
				byName[s.Name] = s.Attr
			}
			for name, want := range tt.some {
				if got, ok := byName[name]; !ok || got != want {
					t.Errorf("%s: attribute %q (found %v), want %q", name, got, ok, want)
				}
			}
		})
	}
	if got := ryf.SystemSkills("tor"); got != nil {
		t.Errorf("SystemSkills(tor) = %v, want nil", got)
	}
}

func TestLookupSkill(t *testing.T) {
	extra := newRules(t, ryf.Options{System: ryf.RyF, Skills: []ryf.Skill{
		{Name: "Juegos de azar", Attr: ryf.Inteligencia}, {Name: "Pilotar naves", Attr: ryf.Destreza},
	}})
	tests := []struct {
		name  string
		rules *ryf.Rules
		in    string
		want  string
		err   error
	}{
		{"exact", ryfRules(t), "Pelea", "Pelea", nil},
		{"any case", ryfRules(t), "PELEA", "Pelea", nil},
		{"prefix", ryfRules(t), "advertir", "Advertir/Notar", nil},
		{"alternative name", ryfRules(t), "notar", "Advertir/Notar", nil},
		{"without accents", ryfRules(t), "informatica", "Informática", nil},
		{"accent prefix", ryfRules(t), "mús", "Música", nil},
		{"spaces and case", ryfRules(t), "  leer   LABIOS ", "Leer Labios", nil},
		{"underscores", ryfRules(t), "armas_cuerpo_a_cuerpo", "Armas cuerpo a cuerpo", nil},
		{"armas a is unique in ryf", ryfRules(t), "armas a", "Armas a distancia", nil},
		{"armas is ambiguous", ryfRules(t), "armas", "", ryf.ErrAmbiguous},
		{"armas a is ambiguous in galaxia", galaxiaRules(t), "armas a", "", ryf.ErrAmbiguous},
		{"exact wins in galaxia", galaxiaRules(t), "armas a distancia", "Armas a distancia", nil},
		{"galaxia accents", galaxiaRules(t), "ingenieria", "Ingeniería de motores", nil},
		{"galaxia only", ryfRules(t), "Astrofísica", "", ryf.ErrUnknownSkill},
		{"extra skill", extra, "juegos", "Juegos de azar", nil},
		{"exact wins over prefix", extra, "pilotar", "Pilotar", nil},
		{"prefix of both is ambiguous", extra, "pilot", "", ryf.ErrAmbiguous},
		{"unknown", ryfRules(t), "cocina", "", ryf.ErrUnknownSkill},
		{"empty", ryfRules(t), "  ", "", ryf.ErrUnknownSkill},
		{"m is ambiguous", ryfRules(t), "m", "", ryf.ErrAmbiguous},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.rules.LookupSkill(tt.in)
			if got.Name != tt.want || !errors.Is(err, tt.err) {
				t.Errorf("LookupSkill(%q) = %q, %v; want %q, %v", tt.in, got.Name, err, tt.want, tt.err)
			}
		})
	}
}

func TestLookupSkillAmbiguousListsCandidates(t *testing.T) {
	_, err := galaxiaRules(t).LookupSkill("armas a")
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{"Armas a distancia", "Armas a fuego livianas"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "Armas de energía") {
		t.Errorf("error %q names a skill that does not match", err)
	}
	if err.Error() != strings.ToLower(err.Error()[:1])+err.Error()[1:] {
		t.Errorf("error %q starts upper-case", err)
	}
}

func TestLookupAttribute(t *testing.T) {
	plain, carisma := ryfRules(t), newRules(t, ryf.Options{System: ryf.RyF, Carisma: true})
	tests := []struct {
		rules *ryf.Rules
		in    string
		want  ryf.Attr
		err   error
	}{
		{plain, "F", ryf.Fuerza, nil}, {plain, "f", ryf.Fuerza, nil}, {plain, "Fuerza", ryf.Fuerza, nil},
		{plain, "R", ryf.Resistencia, nil}, {plain, "resistencia", ryf.Resistencia, nil},
		{plain, "D", ryf.Destreza, nil}, {plain, "destreza", ryf.Destreza, nil},
		{plain, "I", ryf.Inteligencia, nil}, {plain, "intel", ryf.Inteligencia, nil},
		{plain, "P", ryf.Percepcion, nil}, {plain, "percepcion", ryf.Percepcion, nil}, {plain, "Percepción", ryf.Percepcion, nil},
		{plain, "C", "", ryf.ErrUnknownAttribute}, {plain, "carisma", "", ryf.ErrUnknownAttribute},
		{carisma, "C", ryf.Carisma, nil}, {carisma, "Carisma", ryf.Carisma, nil},
		{plain, "X", "", ryf.ErrUnknownAttribute}, {plain, "", "", ryf.ErrUnknownAttribute},
	}
	for _, tt := range tests {
		got, err := tt.rules.LookupAttribute(tt.in)
		if got != tt.want || !errors.Is(err, tt.err) {
			t.Errorf("LookupAttribute(%q) = %q, %v; want %q, %v", tt.in, got, err, tt.want, tt.err)
		}
	}
	names := map[ryf.Attr]string{ryf.Fuerza: "Fuerza", ryf.Resistencia: "Resistencia", ryf.Destreza: "Destreza",
		ryf.Inteligencia: "Inteligencia", ryf.Percepcion: "Percepción", ryf.Carisma: "Carisma", "X": ""}
	for a, want := range names {
		if got := a.Name(); got != want {
			t.Errorf("%q.Name() = %q, want %q", a, got, want)
		}
	}
}

// A side of an opposed roll is a skill or an attribute: an attribute's
// letter or name always means the attribute (D is Destreza, not Diagnosis;
// R Resistencia, not Rastrear); an exact skill name wins; a prefix must be
// unique among skills and attributes together.
func TestLookupSide(t *testing.T) {
	plain, galaxia := ryfRules(t), galaxiaRules(t)
	extra := newRules(t, ryf.Options{System: ryf.RyF, Skills: []ryf.Skill{{Name: "Fuerza", Attr: ryf.Fuerza}}})
	skill := func(s string) ryf.Side { return ryf.Side{Skill: s} }
	attr := func(a ryf.Attr) ryf.Side { return ryf.Side{Attr: a} }
	tests := []struct {
		rules *ryf.Rules
		in    string
		want  ryf.Side
		err   error
	}{
		{plain, "D", attr(ryf.Destreza), nil}, {plain, "d", attr(ryf.Destreza), nil},
		{plain, "R", attr(ryf.Resistencia), nil}, {plain, "F", attr(ryf.Fuerza), nil},
		{plain, "I", attr(ryf.Inteligencia), nil}, {plain, "P", attr(ryf.Percepcion), nil},
		{galaxia, "D", attr(ryf.Destreza), nil}, {galaxia, "I", attr(ryf.Inteligencia), nil},
		{plain, "percepcion", attr(ryf.Percepcion), nil}, {plain, "Destreza", attr(ryf.Destreza), nil},
		{plain, "fu", attr(ryf.Fuerza), nil}, {plain, "des", attr(ryf.Destreza), nil},
		{plain, "diag", skill("Diagnosis"), nil}, {plain, "ras", skill("Rastrear"), nil},
		{plain, "sigilo", skill("Sigilo"), nil}, {plain, "notar", skill("Advertir/Notar"), nil},
		{plain, "Pelea", skill("Pelea"), nil},
		{plain, "pe", ryf.Side{}, ryf.ErrAmbiguous}, // Pelea or Percepción
		{plain, "in", ryf.Side{}, ryf.ErrAmbiguous}, // Informática or Inteligencia
		{plain, "C", ryf.Side{}, ryf.ErrAmbiguous},  // no Carisma: Comercio or Conducir
		{newRules(t, ryf.Options{System: ryf.RyF, Carisma: true}), "C", attr(ryf.Carisma), nil},
		{plain, "x", ryf.Side{}, ryf.ErrUnknownSkill},
		{plain, "cocina", ryf.Side{}, ryf.ErrUnknownSkill},
		{plain, "", ryf.Side{}, ryf.ErrUnknownSkill},
		{extra, "fuerza", ryf.Side{}, ryf.ErrAmbiguous}, // a campaign skill named like an attribute
		{extra, "F", attr(ryf.Fuerza), nil},
	}
	for _, tt := range tests {
		got, err := tt.rules.LookupSide(tt.in)
		if got != tt.want || !errors.Is(err, tt.err) {
			t.Errorf("LookupSide(%q) = %+v, %v; want %+v, %v", tt.in, got, err, tt.want, tt.err)
		}
	}
	_, err := plain.LookupSide("pe")
	require.ErrorContains(t, err, "Pelea, Percepción")
}

// SideCheck flags the roll Opposed and refuses a second attribute on an
// attribute side.
func TestSideCheck(t *testing.T) {
	r := ryfRules(t)
	ch := ryf.Character{Attributes: map[ryf.Attr]int{ryf.Fuerza: 8, ryf.Resistencia: 7, ryf.Destreza: 9, ryf.Inteligencia: 8, ryf.Percepcion: 6},
		Skills: map[string]int{"Diagnosis": 2}}
	c, err := r.SideCheck(ch, ryf.Side{Attr: ryf.Destreza}, "")
	require.NoError(t, err)
	require.Equal(t, ryf.Check{Kind: ryf.KindAttribute, Attribute: ryf.Destreza, AttributeValue: 9, Opposed: true}, c)
	c, err = r.SideCheck(ch, ryf.Side{Skill: "Diagnosis"}, ryf.Inteligencia)
	require.NoError(t, err)
	require.Equal(t, ryf.Check{Kind: ryf.KindSkill, Attribute: ryf.Inteligencia, AttributeValue: 8, Skill: "Diagnosis", Rank: 2, Opposed: true}, c)
	_, err = r.SideCheck(ch, ryf.Side{Attr: ryf.Destreza}, ryf.Fuerza)
	require.ErrorIs(t, err, ryf.ErrInvalidCheck)
}

func TestParseSystem(t *testing.T) {
	for in, want := range map[string]ryf.System{"ryf": ryf.RyF, "RyF": ryf.RyF, "galaxia": ryf.Galaxia, " Galaxia ": ryf.Galaxia} {
		if got, err := ryf.ParseSystem(in); got != want || err != nil {
			t.Errorf("ParseSystem(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "tor", "gal"} {
		if _, err := ryf.ParseSystem(in); !errors.Is(err, ryf.ErrUnknownSystem) {
			t.Errorf("ParseSystem(%q) err = %v, want ErrUnknownSystem", in, err)
		}
	}
}

func TestNewOptions(t *testing.T) {
	tests := []struct {
		name string
		opts ryf.Options
		err  error
	}{
		{"ryf", ryf.Options{System: ryf.RyF}, nil},
		{"galaxia with everything", ryf.Options{System: ryf.Galaxia, Carisma: true, HardDefense: true, AttributeBudget: 42,
			Skills: []ryf.Skill{{Name: "Cabalgar", Attr: ryf.Destreza}, {Name: "Seducción", Attr: ryf.Carisma}}}, nil},
		{"unknown system", ryf.Options{System: "tor"}, ryf.ErrUnknownSystem},
		{"budget above standard", ryf.Options{System: ryf.RyF, AttributeBudget: 41}, ryf.ErrOutOfRange},
		{"budget above carisma standard", ryf.Options{System: ryf.RyF, Carisma: true, AttributeBudget: 46}, ryf.ErrOutOfRange},
		{"budget too low", ryf.Options{System: ryf.RyF, AttributeBudget: 9}, ryf.ErrOutOfRange},
		{"lowest budget", ryf.Options{System: ryf.RyF, AttributeBudget: 10}, nil},
		{"negative budget", ryf.Options{System: ryf.RyF, AttributeBudget: -1}, ryf.ErrOutOfRange},
		{"extra skill clashes", ryf.Options{System: ryf.RyF, Skills: []ryf.Skill{{Name: "pelea", Attr: ryf.Fuerza}}}, ryf.ErrInvalidCampaign},
		{"extra skill twice", ryf.Options{System: ryf.RyF, Skills: []ryf.Skill{{Name: "Cabalgar", Attr: ryf.Destreza}, {Name: "CABALGAR", Attr: ryf.Fuerza}}}, ryf.ErrInvalidCampaign},
		{"extra skill without carisma", ryf.Options{System: ryf.RyF, Skills: []ryf.Skill{{Name: "Seducción", Attr: ryf.Carisma}}}, ryf.ErrUnknownAttribute},
		{"extra skill with bad name", ryf.Options{System: ryf.RyF, Skills: []ryf.Skill{{Name: "a=b", Attr: ryf.Fuerza}}}, ryf.ErrSyntax},
		{"extra skill with empty name", ryf.Options{System: ryf.RyF, Skills: []ryf.Skill{{Name: " ", Attr: ryf.Fuerza}}}, ryf.ErrSyntax},
		{"bad weapon", ryf.Options{System: ryf.RyF, Weapons: []ryf.Weapon{{Name: "Palo", Skill: "Cocina"}}}, ryf.ErrInvalidWeapon},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := ryf.New(tt.opts)
			if !errors.Is(err, tt.err) {
				t.Fatalf("err = %v, want %v", err, tt.err)
			}
			if tt.err != nil && !errors.Is(err, ryf.ErrInvalidCampaign) {
				t.Errorf("err = %v, want it to wrap ErrInvalidCampaign", err)
			}
			if err == nil && r.System() != tt.opts.System {
				t.Errorf("System = %q, want %q", r.System(), tt.opts.System)
			}
		})
	}
}

func TestRulesBudgets(t *testing.T) {
	tests := []struct {
		opts                 ryf.Options
		attrs, attrB, skillB int
		defense              int
	}{
		{ryf.Options{System: ryf.RyF}, 5, 40, 40, 5},
		{ryf.Options{System: ryf.Galaxia}, 5, 40, 34, 5},
		{ryf.Options{System: ryf.RyF, Carisma: true, HardDefense: true}, 6, 45, 40, 6},
		{ryf.Options{System: ryf.Galaxia, AttributeBudget: 35}, 5, 35, 34, 5},
	}
	for _, tt := range tests {
		r := newRules(t, tt.opts)
		if got := len(r.Attributes()); got != tt.attrs {
			t.Errorf("%+v: %d attributes, want %d", tt.opts, got, tt.attrs)
		}
		if got := r.AttributeBudget(); got != tt.attrB {
			t.Errorf("%+v: attribute budget %d, want %d", tt.opts, got, tt.attrB)
		}
		if got := r.SkillBudget(); got != tt.skillB {
			t.Errorf("%+v: skill budget %d, want %d", tt.opts, got, tt.skillB)
		}
		if got := r.DefenseBonus(); got != tt.defense {
			t.Errorf("%+v: defense bonus %d, want %d", tt.opts, got, tt.defense)
		}
	}
	r := newRules(t, ryf.Options{System: ryf.RyF, Skills: []ryf.Skill{{Name: "Cabalgar", Attr: ryf.Destreza}}})
	skills := r.Skills()
	if len(skills) != 23 || skills[22].Name != "Cabalgar" {
		t.Errorf("skills end with %v, want 23 ending in Cabalgar", skills[len(skills)-1])
	}
	skills[0].Name = "changed"
	if r.Skills()[0].Name != "Advertir/Notar" {
		t.Error("Skills returned the rules' own slice")
	}
	if o := r.Options(); len(o.Skills) != 1 || o.Skills[0].Name != "Cabalgar" {
		t.Errorf("Options().Skills = %v", o.Skills)
	}
}
