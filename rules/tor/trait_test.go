package tor_test

import (
	"errors"
	"testing"

	"github.com/campaign-journal/journal/rules/tor"
)

func TestTraitLookup(t *testing.T) {
	c := tor.Character{Traits: []string{"Navegar en bote", "Herrería", "Fiero", "Fiel", "Arco", "Arco largo"}}
	tests := []struct {
		in      string
		want    string
		wantErr error
	}{
		{in: "Navegar en bote", want: "Navegar en bote"},
		{in: "NAVEGAR  EN BOTE", want: "Navegar en bote"},
		{in: "herreria", want: "Herrería"},
		{in: "nav", want: "Navegar en bote"},
		{in: "fiero", want: "Fiero"},
		{in: "arco", want: "Arco"}, // exact wins over the prefix of "Arco largo"
		{in: "arco l", want: "Arco largo"},
		{in: "fie", wantErr: tor.ErrAmbiguous},
		{in: "nadar", wantErr: tor.ErrUnknownTrait},
		{in: "", wantErr: tor.ErrUnknownTrait},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := c.Trait(tt.in)
			if !errors.Is(err, tt.wantErr) || got != tt.want {
				t.Errorf("Trait(%q) = %q, %v; want %q, %v", tt.in, got, err, tt.want, tt.wantErr)
			}
		})
	}
	if _, err := (tor.Character{}).Trait("fiero"); !errors.Is(err, tor.ErrUnknownTrait) {
		t.Errorf("Trait() with no traits error = %v, want ErrUnknownTrait", err)
	}
}

func TestInvokeTrait(t *testing.T) {
	tests := []struct {
		automatic bool
		rolls     bool
	}{
		{automatic: true, rolls: false},
		{automatic: false, rolls: true},
	}
	for _, tt := range tests {
		got, err := tor.InvokeTrait(lodin(), "navegar", tt.automatic)
		if err != nil {
			t.Fatalf("InvokeTrait() error = %v", err)
		}
		if got.Trait != "Navegar en bote" || got.Automatic != tt.automatic || got.Rolls() != tt.rolls {
			t.Errorf("InvokeTrait(automatic %v) = %+v (rolls %v), want rolls %v", tt.automatic, got, got.Rolls(), tt.rolls)
		}
	}
	if _, err := tor.InvokeTrait(lodin(), "Volar", true); !errors.Is(err, tor.ErrUnknownTrait) {
		t.Errorf("InvokeTrait(unknown) error = %v, want ErrUnknownTrait", err)
	}
}
