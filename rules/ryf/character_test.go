package ryf_test

import (
	"errors"
	"maps"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/rules/ryf"
)

func attrs(f, r, d, i, p int) map[ryf.Attr]int {
	return map[ryf.Attr]int{ryf.Fuerza: f, ryf.Resistencia: r, ryf.Destreza: d, ryf.Inteligencia: i, ryf.Percepcion: p}
}

func TestValidateCharacterValid(t *testing.T) {
	carisma := newRules(t, ryf.Options{System: ryf.RyF, Carisma: true})
	withC := attrs(8, 8, 8, 8, 8)
	withC[ryf.Carisma] = 5
	tests := []struct {
		name  string
		rules *ryf.Rules
		c     ryf.Character
	}{
		{"ryf full budgets", ryfRules(t), ryf.Character{
			Attributes: attrs(8, 7, 9, 8, 8),
			Skills: map[string]int{"Pelea": 5, "Sigilo": 5, "Buscar": 5, "Advertir/Notar": 5, "Atletismo": 5,
				"Armas a distancia": 5, "Armas cuerpo a cuerpo": 5, "Idiomas": 5},
			Specialization: "Sigilo",
		}},
		{"under budget is fine", ryfRules(t), ryf.Character{Attributes: attrs(6, 6, 6, 6, 6), Specialization: "Pelea"}},
		{"specialization with rank 0", ryfRules(t), ryf.Character{Attributes: attrs(8, 8, 8, 8, 8), Specialization: "Bailar"}},
		{"galaxia 34", galaxiaRules(t), ryf.Character{
			Attributes:     attrs(10, 10, 10, 5, 5),
			Skills:         map[string]int{"Armas de energía": 5, "Pilotar": 5, "Astrofísica": 5, "Pelea": 5, "Sigilo": 5, "Escalar": 5, "Fauna": 4},
			Specialization: "Armas de energía",
		}},
		{"carisma 45", carisma, ryf.Character{Attributes: withC, Specialization: "Pelea"}},
		{"npc without budgets", ryfRules(t), ryf.Character{
			NPC:        true,
			Attributes: attrs(10, 10, 10, 10, 10),
			Skills:     map[string]int{"Pelea": 10, "Sigilo": 10, "Buscar": 10, "Atletismo": 10, "Medicina": 10},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.rules.ValidateCharacter(tt.c); err != nil {
				t.Errorf("ValidateCharacter = %v, want nil", err)
			}
		})
	}
}

func TestValidateCharacterAllViolationsAtOnce(t *testing.T) {
	r := ryfRules(t)
	c := ryf.Character{
		Attributes: map[ryf.Attr]int{ryf.Fuerza: 11, ryf.Resistencia: 15, ryf.Destreza: 10, ryf.Inteligencia: 10, ryf.Carisma: 5},
		Skills: map[string]int{
			"Armas cuerpo a cuerpo": 12, // range (F out of range: no sum check)
			"Sigilo":                6,  // creation max, and 6 + D 10 > 15
			"Buscar":                -1, // range
			"pelea":                 3,  // not canonical
			"Cocina":                2,  // unknown
			"Atletismo":             5, "Medicina": 5, "Leyes": 5, "Idiomas": 5, "Mecánica": 5, "Conducir": 5, "Pilotar": 5,
		},
		Specialization: "Cocina",
	}
	err := r.ValidateCharacter(c)
	if !errors.Is(err, ryf.ErrInvalidCharacter) {
		t.Fatalf("err = %v, want ErrInvalidCharacter", err)
	}
	var ice *ryf.InvalidCharacterError
	if !errors.As(err, &ice) {
		t.Fatalf("err = %T, want *InvalidCharacterError", err)
	}
	type rs struct{ rule, subject string }
	var got []rs
	for _, v := range ice.Violations {
		got = append(got, rs{v.Rule, v.Subject})
		if !strings.Contains(err.Error(), v.Message) {
			t.Errorf("error text lacks %q", v.Message)
		}
	}
	want := []rs{
		{ryf.RuleAttributeRange, "F"},
		{ryf.RuleAttributeRange, "R"},
		{ryf.RuleAttributeMissing, "P"},
		{ryf.RuleAttributeUnknown, "C"},
		{ryf.RuleSkillRange, "Armas cuerpo a cuerpo"},
		{ryf.RuleSkillRange, "Buscar"},
		{ryf.RuleSkillCreationMax, "Sigilo"},
		{ryf.RuleAttributePlus, "Sigilo"},
		{ryf.RuleSkillUnknown, "Cocina"},
		{ryf.RuleSkillUnknown, "pelea"},
		{ryf.RuleAttributeBudget, ""},
		{ryf.RuleSkillBudget, ""},
		{ryf.RuleSpecialization, "Cocina"},
	}
	if len(got) != len(want) {
		t.Fatalf("violations =\n%v\nwant\n%v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("violation %d = %v, want %v", i, got[i], want[i])
		}
	}
	if !strings.Contains(err.Error(), `(write "Pelea")`) {
		t.Errorf("error %q does not suggest the canonical name", err)
	}
	if !strings.HasPrefix(err.Error(), "invalid character: ") {
		t.Errorf("error %q does not start with the sentinel", err)
	}
}

func TestValidateCharacterRules(t *testing.T) {
	low := newRules(t, ryf.Options{System: ryf.RyF, AttributeBudget: 35})
	tests := []struct {
		name  string
		rules *ryf.Rules
		c     ryf.Character
		want  []string
	}{
		{"attribute budget 40", ryfRules(t), ryf.Character{Attributes: attrs(9, 8, 8, 8, 8), Specialization: "Pelea"},
			[]string{ryf.RuleAttributeBudget}},
		{"campaign budget 35", low, ryf.Character{Attributes: attrs(8, 7, 7, 7, 7), Specialization: "Pelea"},
			[]string{ryf.RuleAttributeBudget}},
		{"campaign budget 35 met", low, ryf.Character{Attributes: attrs(7, 7, 7, 7, 7), Specialization: "Pelea"}, nil},
		{"skill budget 40", ryfRules(t), ryf.Character{Attributes: attrs(8, 8, 8, 8, 8), Specialization: "Pelea",
			Skills: map[string]int{"Pelea": 5, "Sigilo": 5, "Buscar": 5, "Advertir/Notar": 5, "Atletismo": 5,
				"Armas a distancia": 5, "Armas cuerpo a cuerpo": 5, "Idiomas": 5, "Leyes": 1}},
			[]string{ryf.RuleSkillBudget}},
		{"galaxia skill budget 34", galaxiaRules(t), ryf.Character{Attributes: attrs(8, 8, 8, 8, 8), Specialization: "Pelea",
			Skills: map[string]int{"Pelea": 5, "Sigilo": 5, "Buscar": 5, "Advertir/Notar": 5, "Atletismo": 5, "Idiomas": 5, "Leyes": 5}},
			[]string{ryf.RuleSkillBudget}},
		{"carisma missing", newRules(t, ryf.Options{System: ryf.RyF, Carisma: true}),
			ryf.Character{Attributes: attrs(8, 8, 8, 8, 8), Specialization: "Pelea"}, []string{ryf.RuleAttributeMissing}},
		{"no specialization", ryfRules(t), ryf.Character{Attributes: attrs(8, 8, 8, 8, 8)}, []string{ryf.RuleSpecialization}},
		{"specialization not canonical", ryfRules(t), ryf.Character{Attributes: attrs(8, 8, 8, 8, 8), Specialization: "sigilo"},
			[]string{ryf.RuleSpecialization}},
		{"npc ranges still hold", ryfRules(t), ryf.Character{NPC: true, Attributes: attrs(1, 8, 8, 8, 8),
			Skills: map[string]int{"Pelea": 11}}, []string{ryf.RuleAttributeRange, ryf.RuleSkillRange}},
		{"npc unknown specialization", ryfRules(t), ryf.Character{NPC: true, Attributes: attrs(8, 8, 8, 8, 8),
			Specialization: "Cocina"}, []string{ryf.RuleSpecialization}},
		{"nil maps", ryfRules(t), ryf.Character{}, []string{ryf.RuleAttributeMissing, ryf.RuleAttributeMissing,
			ryf.RuleAttributeMissing, ryf.RuleAttributeMissing, ryf.RuleAttributeMissing, ryf.RuleSpecialization}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.rules.ValidateCharacter(tt.c)
			var got []string
			var ice *ryf.InvalidCharacterError
			if errors.As(err, &ice) {
				for _, v := range ice.Violations {
					got = append(got, v.Rule)
				}
			} else if err != nil {
				t.Fatalf("err = %v, want *InvalidCharacterError", err)
			}
			if strings.Join(got, ",") != strings.Join(tt.want, ",") {
				t.Errorf("violations = %v, want %v (%v)", got, tt.want, err)
			}
		})
	}
}

func TestParseAttributes(t *testing.T) {
	r := newRules(t, ryf.Options{System: ryf.RyF, Carisma: true})
	tests := []struct {
		in   string
		want map[ryf.Attr]int
		err  error
	}{
		{"F=8,R=7,D=9,I=8,P=8", attrs(8, 7, 9, 8, 8), nil},
		{" f = 8 ; r:7, Destreza=9,inteligencia=8,percepcion=8,C=5 ", map[ryf.Attr]int{
			ryf.Fuerza: 8, ryf.Resistencia: 7, ryf.Destreza: 9, ryf.Inteligencia: 8, ryf.Percepcion: 8, ryf.Carisma: 5}, nil},
		{"F=8,", map[ryf.Attr]int{ryf.Fuerza: 8}, nil},
		{"F=11", map[ryf.Attr]int{ryf.Fuerza: 11}, nil}, // ranges are ValidateCharacter's
		{"F=-2", map[ryf.Attr]int{ryf.Fuerza: -2}, nil},
		{"", nil, ryf.ErrSyntax},
		{",,", nil, ryf.ErrSyntax},
		{"F=8,F=9", nil, ryf.ErrSyntax},
		{"F=8,fuerza=9", nil, ryf.ErrSyntax},
		{"F8", nil, ryf.ErrSyntax},
		{"F=ocho", nil, ryf.ErrSyntax},
		{"F=", nil, ryf.ErrSyntax},
		{"F=99999999999999999999", nil, ryf.ErrSyntax},
		{"X=3", nil, ryf.ErrUnknownAttribute},
		{"=3", nil, ryf.ErrUnknownAttribute},
	}
	for _, tt := range tests {
		got, err := r.ParseAttributes(tt.in)
		if !errors.Is(err, tt.err) || !maps.Equal(got, tt.want) {
			t.Errorf("ParseAttributes(%q) = %v, %v; want %v, %v", tt.in, got, err, tt.want, tt.err)
		}
	}
	if _, err := ryfRules(t).ParseAttributes("C=5"); !errors.Is(err, ryf.ErrUnknownAttribute) {
		t.Errorf("C without carisma: err = %v, want ErrUnknownAttribute", err)
	}
}

func TestParseSkills(t *testing.T) {
	r := ryfRules(t)
	tests := []struct {
		in   string
		want map[string]int
		err  error
	}{
		{"Pelea=5,Sigilo=3", map[string]int{"Pelea": 5, "Sigilo": 3}, nil},
		{"advertir=2, informatica:4; armas a=1", map[string]int{"Advertir/Notar": 2, "Informática": 4, "Armas a distancia": 1}, nil},
		{"Advertir/Notar=3", map[string]int{"Advertir/Notar": 3}, nil},
		{"", map[string]int{}, nil},
		{"   ", map[string]int{}, nil},
		{"Pelea=5,pelea=3", nil, ryf.ErrSyntax},
		{"Pelea", nil, ryf.ErrSyntax},
		{"Pelea=x", nil, ryf.ErrSyntax},
		{"armas=3", nil, ryf.ErrAmbiguous},
		{"Cocina=3", nil, ryf.ErrUnknownSkill},
	}
	for _, tt := range tests {
		got, err := r.ParseSkills(tt.in)
		if !errors.Is(err, tt.err) || !maps.Equal(got, tt.want) {
			t.Errorf("ParseSkills(%q) = %v, %v; want %v, %v", tt.in, got, err, tt.want, tt.err)
		}
	}
}

func TestParsedCharacterValidates(t *testing.T) {
	r := ryfRules(t)
	a, err := r.ParseAttributes("F=8,R=7,D=9,I=8,P=8")
	require.NoError(t, err)
	s, err := r.ParseSkills("Pelea=5,Sigilo=3")
	require.NoError(t, err)
	spec, err := r.LookupSkill("sigilo")
	require.NoError(t, err)
	c := ryf.Character{Attributes: a, Skills: s, Specialization: spec.Name}
	if err := r.ValidateCharacter(c); err != nil {
		t.Errorf("ValidateCharacter = %v", err)
	}
	if got := c.MaxHP(); got != 28 {
		t.Errorf("MaxHP = %d, want 28 (R 7 × 4)", got)
	}
}

// ParseCharacter reports every problem of a character's text at once: each
// bad pair, an unknown specialization, and the creation rules the parsed
// pairs break — but not what only follows from a pair that did not parse.
func TestParseCharacterAllProblemsAtOnce(t *testing.T) {
	r := ryfRules(t)
	type rs struct{ rule, subject string }
	rules := func(err error) []rs {
		var ice *ryf.InvalidCharacterError
		require.ErrorAs(t, err, &ice)
		var out []rs
		for _, v := range ice.Violations {
			out = append(out, rs{v.Rule, v.Subject})
		}
		return out
	}
	tests := []struct {
		name                string
		attrs, skills, spec string
		npc                 bool
		want                []rs
		text                []string
	}{
		{"unknown specialization hides nothing", "F=8,R=7,D=9,I=8,P=8", "Pelea=5,Sigilo=7", "Bogus", false,
			[]rs{{ryf.RuleSpecialization, "Bogus"}, {ryf.RuleSkillCreationMax, "Sigilo"}, {ryf.RuleAttributePlus, "Sigilo"}},
			[]string{`unknown skill "Bogus"`, "Sigilo = 7"}},
		{"every bad pair of both lists", "F=11,Q=7,D=9,I=8,P=8,D=2", "Pelea=5,Cocina=1,Sigilo=x,Buscar=6", "Pelea", false,
			[]rs{{ryf.RuleAttributesSyntax, ""}, {ryf.RuleSkillsSyntax, ""}, {ryf.RuleAttributeRange, "F"}, {ryf.RuleSkillCreationMax, "Buscar"}},
			[]string{`unknown attribute "Q"`, "given twice", `unknown skill "Cocina"`, `"Sigilo=x"`, "F (Fuerza) = 11"}},
		{"no list at all", "", "", "", false,
			[]rs{{ryf.RuleAttributesSyntax, ""}, {ryf.RuleSpecialization, ""}},
			[]string{"empty list", "choose exactly one skill"}},
		{"a non-player character", "F=12,R=7,D=9,I=8,P=8", "Pelea=9", "nope", true,
			[]rs{{ryf.RuleSpecialization, "nope"}, {ryf.RuleAttributeRange, "F"}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := r.ParseCharacter(tt.attrs, tt.skills, tt.spec, tt.npc)
			require.ErrorIs(t, err, ryf.ErrInvalidCharacter)
			require.Equal(t, tt.want, rules(err))
			for _, s := range tt.text {
				require.ErrorContains(t, err, s)
			}
			require.NotContains(t, err.Error(), "\n")
		})
	}
	c, err := r.ParseCharacter("F=8,R=7,D=9,I=8,P=8", "pelea=5,notar=3", "sig", false)
	require.NoError(t, err)
	require.Equal(t, ryf.Character{Attributes: map[ryf.Attr]int{ryf.Fuerza: 8, ryf.Resistencia: 7, ryf.Destreza: 9, ryf.Inteligencia: 8, ryf.Percepcion: 8},
		Skills: map[string]int{"Pelea": 5, "Advertir/Notar": 3}, Specialization: "Sigilo"}, c)
}
