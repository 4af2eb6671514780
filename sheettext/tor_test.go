package sheettext

import "testing"

// TestBoxes: 3 boxes whatever the points, filled from the left.
func TestBoxes(t *testing.T) {
	for n, want := range map[int]string{-1: "□□□", 0: "□□□", 2: "■■□", 3: "■■■", 9: "■■■"} {
		if got := boxes(n); got != want {
			t.Errorf("boxes(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestQuoteArg: only a name with a blank is quoted.
func TestQuoteArg(t *testing.T) {
	for in, want := range map[string]string{"Percepción": "Percepción", "Armas cuerpo a cuerpo": `"Armas cuerpo a cuerpo"`, "/tmp/a\tb": "\"/tmp/a\tb\""} {
		if got := QuoteArg(in); got != want {
			t.Errorf("QuoteArg(%q) = %q, want %q", in, got, want)
		}
	}
}
