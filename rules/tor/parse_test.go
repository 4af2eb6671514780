package tor_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/campaign-journal/journal/rules/tor"
)

func TestParseSkills(t *testing.T) {
	tests := []struct {
		in      string
		want    tor.Ratings
		wantErr error
	}{
		{in: "Atletismo=3*,Sigilo=2", want: tor.Ratings{"Atletismo": {Rank: 3, Favoured: true}, "Sigilo": {Rank: 2, Favoured: false}}},
		{in: " athletics = 3 * , sig=2 ", want: tor.Ratings{"Atletismo": {Rank: 3, Favoured: true}, "Sigilo": {Rank: 2, Favoured: false}}},
		{in: "cancion=1,Cortesía=0*", want: tor.Ratings{"Canción": {Rank: 1, Favoured: false}, "Cortesía": {Rank: 0, Favoured: true}}},
		{in: "Saber=9", want: tor.Ratings{"Saber": {Rank: 9, Favoured: false}}}, // range is Validate's job
		{in: "", want: tor.Ratings{}},
		{in: "   ", want: tor.Ratings{}},
		{in: "Atletismo", wantErr: tor.ErrSyntax},
		{in: "Atletismo=", wantErr: tor.ErrSyntax},
		{in: "Atletismo=tres", wantErr: tor.ErrSyntax},
		{in: "Atletismo=3**", wantErr: tor.ErrSyntax},
		{in: "Atletismo=3,", wantErr: tor.ErrSyntax},
		{in: "Atletismo=3,athletics=2", wantErr: tor.ErrSyntax},
		{in: "at=3", wantErr: tor.ErrAmbiguous},
		{in: "Volar=3", wantErr: tor.ErrUnknownSkill},
		{in: "=3", wantErr: tor.ErrUnknownSkill},
		{in: "Atletismo=99999999999999999999", wantErr: tor.ErrSyntax},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := tor.ParseSkills(tt.in)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("ParseSkills(%q) error = %v, want %v", tt.in, err, tt.wantErr)
			}
			if err == nil && !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseSkills(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

func TestParseAttributes(t *testing.T) {
	lodinAttrs := tor.Attributes{Cuerpo: tor.Score{Basic: 5, Favoured: 7}, Corazon: tor.Score{Basic: 4, Favoured: 6}, Mente: tor.Score{Basic: 3, Favoured: 5}}
	tests := []struct {
		in      string
		want    tor.Attributes
		wantErr error
	}{
		{in: "Cuerpo=5/7,Corazón=4/6,Mente=3/5", want: lodinAttrs},
		{in: "mente=3/5, corazon = 4 / 6 ,CUERPO=5/7", want: lodinAttrs},
		{in: "body=5/7,heart=4/6,wits=3/5", want: lodinAttrs},
		{in: "cu=5/7,co=4/6,m=3/5", want: lodinAttrs},
		{in: "Cuerpo=5/7,Corazón=4/6", wantErr: tor.ErrSyntax},
		{in: "Cuerpo=5/7,Corazón=4/6,Mente=3/5,Cuerpo=5/7", wantErr: tor.ErrSyntax},
		{in: "Cuerpo=5,Corazón=4/6,Mente=3/5", wantErr: tor.ErrSyntax},
		{in: "Cuerpo=5/x,Corazón=4/6,Mente=3/5", wantErr: tor.ErrSyntax},
		{in: "Cuerpo 5/7,Corazón=4/6,Mente=3/5", wantErr: tor.ErrSyntax},
		{in: "c=5/7,Corazón=4/6,Mente=3/5", wantErr: tor.ErrAmbiguous},
		{in: "Fuerza=5/7,Corazón=4/6,Mente=3/5", wantErr: tor.ErrUnknownAttribute},
		{in: "", wantErr: tor.ErrSyntax},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := tor.ParseAttributes(tt.in)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("ParseAttributes(%q) error = %v, want %v", tt.in, err, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("ParseAttributes(%q) = %+v, want %+v", tt.in, got, tt.want)
			}
		})
	}
}

func TestFormatRoundTrip(t *testing.T) {
	a := tor.Attributes{Cuerpo: tor.Score{Basic: 5, Favoured: 7}, Corazon: tor.Score{Basic: 4, Favoured: 6}, Mente: tor.Score{Basic: 3, Favoured: 5}}
	if got, want := a.String(), "Cuerpo=5/7,Corazón=4/6,Mente=3/5"; got != want {
		t.Errorf("Attributes.String() = %q, want %q", got, want)
	}
	r := tor.Ratings{"Sigilo": {Rank: 2, Favoured: false}, "Atletismo": {Rank: 3, Favoured: true}, "made-up": {Rank: 1, Favoured: false}}
	if got, want := r.String(), "Atletismo=3*,Sigilo=2"; got != want {
		t.Errorf("Ratings.String() = %q, want %q", got, want)
	}
}

// FuzzParseSkills: no input panics; what parses formats back to text that
// parses to the same ratings, under canonical names only.
func FuzzParseSkills(f *testing.F) {
	for _, s := range []string{"Atletismo=3*,Sigilo=2", "athletics = 3 *", "", "at=3", "Cancio\u0301n=1", "x=1,,", "Saber=-1*", "\xff=1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		r, err := tor.ParseSkills(in)
		if err != nil {
			return
		}
		for name := range r {
			s, err := tor.LookupSkill(name)
			if err != nil || s.Name != name {
				t.Fatalf("ParseSkills(%q) stored non-canonical name %q", in, name)
			}
		}
		again, err := tor.ParseSkills(r.String())
		if err != nil || !reflect.DeepEqual(again, r) {
			t.Fatalf("ParseSkills(%q) = %v; formatted %q parses to %v, %v", in, r, r.String(), again, err)
		}
	})
}

// FuzzParseAttributes: no input panics; what parses formats back to text
// that parses to the same attributes.
func FuzzParseAttributes(f *testing.F) {
	for _, s := range []string{"Cuerpo=5/7,Corazón=4/6,Mente=3/5", "body=5/7,heart=4/6,wits=3/5", "c=1/1", "", "Mente=/,,", "Cuerpo=-0/+3,co=1/2,m=3/3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		a, err := tor.ParseAttributes(in)
		if err != nil {
			return
		}
		again, err := tor.ParseAttributes(a.String())
		if err != nil || again != a {
			t.Fatalf("ParseAttributes(%q) = %+v; formatted %q parses to %+v, %v", in, a, a.String(), again, err)
		}
	})
}

// FuzzLookupSkill: no input panics, and a found skill is a common skill.
func FuzzLookupSkill(f *testing.F) {
	for _, s := range []string{"atl", "c", "Canción", "", "\xff", "LORE"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := tor.LookupSkill(in)
		if err == nil && !s.Valid() {
			t.Fatalf("LookupSkill(%q) = %+v, not a common skill", in, s)
		}
		if err != nil && !errors.Is(err, tor.ErrUnknownSkill) && !errors.Is(err, tor.ErrAmbiguous) {
			t.Fatalf("LookupSkill(%q) error %v wraps no sentinel", in, err)
		}
	})
}
