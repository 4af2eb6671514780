package tor_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/rules/tor"
)

func TestValidateAcceptsLodin(t *testing.T) {
	if err := lodin().Validate(); err != nil {
		t.Fatalf("Validate() = %v, want nil", err)
	}
}

func TestValidateReportsEveryViolation(t *testing.T) {
	c := tor.Character{
		Attributes: tor.Attributes{
			Cuerpo:  tor.Score{Basic: 0, Favoured: 2},   // basic too low
			Corazon: tor.Score{Basic: 6, Favoured: 5},   // favoured below basic
			Mente:   tor.Score{Basic: 13, Favoured: 21}, // both too high
		},
		Skills: tor.Ratings{
			"Atletismo": {Rank: 7},
			"Sigilo":    {Rank: -1},
			"atletismo": {Rank: 1}, // not canonical
			"Volar":     {Rank: 1},
		},
		Hope:             5,
		MaxHope:          3,
		Shadow:           -1,
		PermanentShadow:  100,
		Traits:           []string{"Fiero", " ", "fiero"},
		Flaws:            []string{""},
		Advancement:      map[tor.Group]int{tor.Oficio: 4, "Magia": 1},
		AdvancementTotal: -2,
	}
	err := c.Validate()
	if !errors.Is(err, tor.ErrInvalidCharacter) {
		t.Fatalf("Validate() = %v, want ErrInvalidCharacter", err)
	}
	var ve *tor.ValidationError
	require.ErrorAs(t, err, &ve)
	want := []string{
		"attributes.cuerpo.basic",
		"attributes.corazon.favoured",
		"attributes.mente.basic",
		"attributes.mente.favoured",
		"skills.Atletismo.rank",
		"skills.Sigilo.rank",
		"skills.Volar",
		"skills.atletismo",
		"hope",
		"shadow",
		"permanent_shadow",
		"traits[1]",
		"traits[2]",
		"flaws[0]",
		"advancement.Magia",
		"advancement.Oficio",
		"advancement_total",
	}
	var got []string
	for _, v := range ve.Violations {
		got = append(got, v.Field)
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("violations on\n %v\nwant\n %v", got, want)
	}
	for _, f := range want {
		if !strings.Contains(err.Error(), f) {
			t.Errorf("message %q does not name %s", err, f)
		}
	}
	if !strings.HasPrefix(err.Error(), "invalid character: ") {
		t.Errorf("message %q does not start with the sentinel", err)
	}
}

func TestValidateRanges(t *testing.T) {
	tests := []struct {
		name   string
		change func(*tor.Character)
		field  string // "" for valid
	}{
		{"basic 1", func(c *tor.Character) { c.Attributes.Cuerpo = tor.Score{Basic: 1, Favoured: 1} }, ""},
		{"basic 12 favoured 20", func(c *tor.Character) { c.Attributes.Mente = tor.Score{Basic: 12, Favoured: 20} }, ""},
		{"favoured equals basic", func(c *tor.Character) { c.Attributes.Corazon = tor.Score{Basic: 5, Favoured: 5} }, ""},
		{"rank 0 favoured", func(c *tor.Character) { c.Skills["Sigilo"] = tor.SkillRating{Rank: 0, Favoured: true} }, ""},
		{"rank 6", func(c *tor.Character) { c.Skills["Sigilo"] = tor.SkillRating{Rank: 6} }, ""},
		{"max hope 0", func(c *tor.Character) { c.Hope, c.MaxHope = 0, 0 }, ""},
		{"max hope negative", func(c *tor.Character) { c.Hope, c.MaxHope = 0, -1 }, "max_hope"},
		{"hope negative", func(c *tor.Character) { c.Hope = -1 }, "hope"},
		{"advancement 3", func(c *tor.Character) { c.Advancement = map[tor.Group]int{tor.Oficio: 3} }, ""},
		{"favoured 21", func(c *tor.Character) { c.Attributes.Cuerpo.Favoured = 21 }, "attributes.cuerpo.favoured"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := lodin().Clone()
			tt.change(&c)
			err := c.Validate()
			if tt.field == "" {
				if err != nil {
					t.Fatalf("Validate() = %v, want nil", err)
				}
				return
			}
			var ve *tor.ValidationError
			if !errors.As(err, &ve) || len(ve.Violations) != 1 || ve.Violations[0].Field != tt.field {
				t.Fatalf("Validate() = %v, want one violation on %s", err, tt.field)
			}
		})
	}
}

func TestHopeBonus(t *testing.T) {
	c := lodin()
	tests := []struct {
		skill string
		want  int
	}{
		{"Atletismo", 4}, // Cuerpo basic
		{"Impresionar", 4},
		{"Guerrear", 5}, // Corazón basic
		{"Saber", 5},    // favoured: Mente favoured
		{"Sigilo", 3},   // Mente basic
	}
	for _, tt := range tests {
		got, err := c.HopeBonus(skill(t, tt.skill))
		if err != nil || got != tt.want {
			t.Errorf("HopeBonus(%s) = %d, %v; want %d", tt.skill, got, err, tt.want)
		}
	}
	if _, err := c.HopeBonus(tor.Skill{Name: "Volar"}); !errors.Is(err, tor.ErrUnknownSkill) {
		t.Errorf("HopeBonus(Volar) error = %v, want ErrUnknownSkill", err)
	}
}

func TestIsHobbit(t *testing.T) {
	tests := []struct {
		culture string
		flag    bool
		want    bool
	}{
		{"hobbit", false, true},
		{"Hobbit", false, true},
		{"Hobbits de la Comarca", false, true},
		{"Hobbits of the Shire", false, true},
		{"", true, true},
		{"Enanos", false, false},
		{"Hobbiton", false, false},
		{"", false, false},
	}
	for _, tt := range tests {
		c := tor.Character{Culture: tt.culture, Hobbit: tt.flag}
		if got := c.IsHobbit(); got != tt.want {
			t.Errorf("IsHobbit(culture %q, flag %v) = %v, want %v", tt.culture, tt.flag, got, tt.want)
		}
	}
}

func TestCloneIsDeep(t *testing.T) {
	c := lodin()
	c.Advancement = map[tor.Group]int{tor.Oficio: 1}
	c.Flaws = []string{"Codicioso"}
	d := c.Clone()
	d.Skills["Atletismo"] = tor.SkillRating{Rank: 6}
	d.Traits[0] = "otro"
	d.Flaws[0] = "otro"
	d.Advancement[tor.Oficio] = 3
	if c.Skills["Atletismo"].Rank != 3 || c.Traits[0] != "Navegar en bote" || c.Flaws[0] != "Codicioso" || c.Advancement[tor.Oficio] != 1 {
		t.Errorf("changing the clone changed the original: %+v", c)
	}
}

func TestCharacterJSON(t *testing.T) {
	c := lodin()
	c.PermanentShadow = 1
	c.Advancement = map[tor.Group]int{tor.Percepcion: 2}
	b, err := json.Marshal(c)
	require.NoError(t, err)
	for _, key := range []string{`"attributes"`, `"cuerpo":{"basic":4,"favoured":6}`, `"skills"`, `"Atletismo":{"rank":3}`, `"max_hope":12`, `"permanent_shadow":1`, `"advancement":{"Percepción":2}`} {
		if !strings.Contains(string(b), key) {
			t.Errorf("JSON %s lacks %s", b, key)
		}
	}
	var back tor.Character
	require.NoError(t, json.Unmarshal(b, &back))
	if back.Attributes != c.Attributes || back.Skills.String() != c.Skills.String() || back.Advancement[tor.Percepcion] != 2 {
		t.Errorf("round trip = %+v, want %+v", back, c)
	}
}
