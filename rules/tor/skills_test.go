package tor_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/campaign-journal/journal/rules/tor"
)

func TestSkillTable(t *testing.T) {
	// The table of docs/rules.md §2.1, row by row: group, then the Cuerpo,
	// Corazón and Mente skills as "Spanish/English".
	want := []struct {
		group tor.Group
		eng   string
		cols  [3]string
	}{
		{tor.Personalidad, "Personality", [3]string{"Impresionar/Awe", "Inspirar/Inspire", "Persuadir/Persuade"}},
		{tor.Movimiento, "Movement", [3]string{"Atletismo/Athletics", "Viajar/Travel", "Sigilo/Stealth"}},
		{tor.Percepcion, "Perception", [3]string{"Atención/Awareness", "Perspicacia/Insight", "Buscar/Search"}},
		{tor.Supervivencia, "Survival", [3]string{"Explorar/Explore", "Curar/Healing", "Cazar/Hunting"}},
		{tor.Costumbre, "Custom", [3]string{"Canción/Song", "Cortesía/Courtesy", "Acertijos/Riddle"}},
		{tor.Oficio, "Vocation", [3]string{"Artesanía/Craft", "Guerrear/Battle", "Saber/Lore"}},
	}
	all := tor.Skills()
	if len(all) != 18 {
		t.Fatalf("len(Skills()) = %d, want 18", len(all))
	}
	if got := len(tor.Groups()); got != len(want) {
		t.Fatalf("len(Groups()) = %d, want %d", got, len(want))
	}
	for i, row := range want {
		if g := tor.Groups()[i]; g != row.group || g.English() != row.eng {
			t.Errorf("group %d = %s/%s, want %s/%s", i, g, g.English(), row.group, row.eng)
		}
		skills := row.group.Skills()
		if len(skills) != 3 {
			t.Fatalf("%s has %d skills, want 3", row.group, len(skills))
		}
		for j, attr := range tor.AllAttributes() {
			s := all[3*i+j]
			if got := s.Name + "/" + s.English; got != row.cols[j] {
				t.Errorf("skill %d = %s, want %s", 3*i+j, got, row.cols[j])
			}
			if s.Group != row.group || s.Attribute != attr {
				t.Errorf("%s in %s/%s, want %s/%s", s.Name, s.Group, s.Attribute, row.group, attr)
			}
			if skills[j] != s {
				t.Errorf("%s.Skills()[%d] = %v, want %v", row.group, j, skills[j], s)
			}
			if !s.Valid() {
				t.Errorf("%s not Valid", s.Name)
			}
		}
	}
}

func TestLookupSkill(t *testing.T) {
	tests := []struct {
		in      string
		want    string
		wantErr error
		names   []string // candidates the error must name
	}{
		{in: "Atletismo", want: "Atletismo"},
		{in: "atletismo", want: "Atletismo"},
		{in: "  ATLETISMO ", want: "Atletismo"},
		{in: "cancion", want: "Canción"},
		{in: "Canción", want: "Canción"},
		{in: "CORTESIA", want: "Cortesía"},
		{in: "atencion", want: "Atención"},
		{in: "artesania", want: "Artesanía"},
		{in: "Cancio\u0301n", want: "Canción"}, // decomposed accent
		{in: "athletics", want: "Atletismo"},
		{in: "Lore", want: "Saber"},
		{in: "riddle", want: "Acertijos"},
		{in: "atl", want: "Atletismo"},
		{in: "sig", want: "Sigilo"},
		{in: "stea", want: "Sigilo"},
		{in: "explor", want: "Explorar"}, // prefix of Explorar and Explore: one skill
		{in: "guer", want: "Guerrear"},
		{in: "at", wantErr: tor.ErrAmbiguous, names: []string{"Atletismo", "Atención"}},
		{in: "c", wantErr: tor.ErrAmbiguous, names: []string{"Curar", "Cazar", "Canción", "Cortesía", "Artesanía"}},
		{in: "pers", wantErr: tor.ErrAmbiguous, names: []string{"Persuadir", "Perspicacia"}},
		{in: "volar", wantErr: tor.ErrUnknownSkill},
		{in: "", wantErr: tor.ErrUnknownSkill},
		{in: "   ", wantErr: tor.ErrUnknownSkill},
		{in: "\xff", wantErr: tor.ErrUnknownSkill},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := tor.LookupSkill(tt.in)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("LookupSkill(%q) error = %v, want %v", tt.in, err, tt.wantErr)
			}
			if err != nil {
				for _, n := range tt.names {
					if !strings.Contains(err.Error(), n) {
						t.Errorf("error %q does not name %s", err, n)
					}
				}
				return
			}
			if got.Name != tt.want {
				t.Errorf("LookupSkill(%q) = %s, want %s", tt.in, got.Name, tt.want)
			}
		})
	}
}

func TestLookupEverySkillByBothNames(t *testing.T) {
	for _, s := range tor.Skills() {
		for _, name := range []string{s.Name, s.English, strings.ToUpper(tor.Normalize(s.Name))} {
			got, err := tor.LookupSkill(name)
			if err != nil || got != s {
				t.Errorf("LookupSkill(%q) = %v, %v; want %v", name, got, err, s)
			}
		}
	}
}

func TestLookupGroup(t *testing.T) {
	tests := []struct {
		in      string
		want    tor.Group
		wantErr error
	}{
		{in: "percepcion", want: tor.Percepcion},
		{in: "Perception", want: tor.Percepcion},
		{in: "vocation", want: tor.Oficio},
		{in: "ofi", want: tor.Oficio},
		{in: "cust", want: tor.Costumbre},
		{in: "PERSONALIDAD", want: tor.Personalidad},
		{in: "pe", wantErr: tor.ErrAmbiguous},
		{in: "magia", wantErr: tor.ErrUnknownGroup},
		{in: "", wantErr: tor.ErrUnknownGroup},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := tor.LookupGroup(tt.in)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("LookupGroup(%q) error = %v, want %v", tt.in, err, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("LookupGroup(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestLookupAttribute(t *testing.T) {
	tests := []struct {
		in      string
		want    tor.Attribute
		wantErr error
	}{
		{in: "Cuerpo", want: tor.Cuerpo},
		{in: "body", want: tor.Cuerpo},
		{in: "corazon", want: tor.Corazon},
		{in: "HEART", want: tor.Corazon},
		{in: "co", want: tor.Corazon},
		{in: "wits", want: tor.Mente},
		{in: "m", want: tor.Mente},
		{in: "c", wantErr: tor.ErrAmbiguous},
		{in: "fuerza", wantErr: tor.ErrUnknownAttribute},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := tor.LookupAttribute(tt.in)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("LookupAttribute(%q) error = %v, want %v", tt.in, err, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("LookupAttribute(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestNormalize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Canción", "cancion"},
		{"  Navegar   en\tbote ", "navegar en bote"},
		{"ÑANDÚ Pingüino", "nandu pinguino"},
		{"Cancio\u0301n", "cancion"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := tor.Normalize(tt.in); got != tt.want {
			t.Errorf("Normalize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestInvalidSkillAndGroup(t *testing.T) {
	if (tor.Skill{Name: "Volar"}).Valid() {
		t.Error("made-up skill is Valid")
	}
	if tor.Group("Magia").Valid() || tor.Group("Magia").English() != "" || len(tor.Group("Magia").Skills()) != 0 {
		t.Error("made-up group is treated as a group")
	}
	if tor.Attribute("Fuerza").Valid() || tor.Attribute("Fuerza").English() != "" {
		t.Error("made-up attribute is treated as an attribute")
	}
}
