package names_test

import (
	"fmt"
	"testing"

	"github.com/campaign-journal/journal/rules/names"
)

func TestFold(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Percepción", "percepcion"},
		{"  Canción ", "cancion"},
		{"ARMAS_a   distancia", "armas a distancia"},
		{"Ruiseñor", "ruisenor"},
		{"Advertir/Notar", "advertir/notar"},
		{"e\u0301xito", "exito"}, // combining acute accent
		{"", ""},
	}
	for _, tt := range tests {
		if got := names.Fold(tt.in); got != tt.want {
			t.Errorf("Fold(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if again := names.Fold(names.Fold(tt.in)); again != names.Fold(tt.in) {
			t.Errorf("Fold is not idempotent on %q: %q", tt.in, again)
		}
	}
}

func FuzzFold(f *testing.F) {
	f.Add("Percepción")
	f.Add("\xff_ _ñ")
	f.Fuzz(func(t *testing.T, s string) {
		if a, b := names.Fold(s), names.Fold(names.Fold(s)); a != b {
			t.Fatalf("Fold(%q) = %q but Fold of that is %q", s, a, b)
		}
	})
}

func ExampleFold() {
	fmt.Println(names.Fold("Difícil"), names.Fold("Armas_a_distancia"))
	// Output: dificil armas a distancia
}
