package dice

import (
	"errors"
	"testing"
)

func TestParseExpr(t *testing.T) {
	for in, want := range map[string]string{
		"1d6": "1d6", "d6": "1d6", "2D10 + 3": "2d10+3", "2d6+1d4+2": "2d6+1d4+2",
		"-1+1d20": "-1+1d20", "+1d8-007": "1d8-7", "100d2": "100d2", "1d256": "1d256",
	} {
		e, err := ParseExpr(in)
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		if e.String() != want {
			t.Errorf("%q reads as %q, want %q", in, e, want)
		}
		again, err := ParseExpr(e.String())
		if err != nil || again.String() != e.String() {
			t.Errorf("%q: canonical form %q does not read back (%v)", in, e, err)
		}
	}
	for _, in := range []string{"", "3", "1d1", "1d257", "0d6", "101d6", "60d6+41d4", "1d6+", "1d6++2",
		"1d6*2", "1d6+1001", "1d6+600+600", "d", "1dd6", "1d6 2", "x", "1d6+1d6+1d6+1d6+1d6+1d6+1d6+1d6+1d6+1d6+1d6",
		"00001d6", "1d6+aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"} {
		if _, err := ParseExpr(in); !errors.Is(err, ErrInvalidExpr) {
			t.Errorf("%q: err %v, want ErrInvalidExpr", in, err)
		}
	}
}

func TestExprRollAndTotal(t *testing.T) {
	e, err := ParseExpr("2d6-1d4+3")
	if err != nil {
		t.Fatal(err)
	}
	if got := e.Sides(); len(got) != 3 || got[0] != 6 || got[1] != 6 || got[2] != 4 {
		t.Fatalf("sides %v", got)
	}
	faces, total, err := e.Roll(NewFaces(5, 6, 4))
	if err != nil || total != 5+6-4+3 || len(faces) != 3 {
		t.Fatalf("faces %v total %d err %v", faces, total, err)
	}
	for _, bad := range [][]int{{5, 6}, {5, 6, 4, 1}, {7, 1, 1}, {1, 1, 5}} {
		if _, err := e.Total(bad); err == nil {
			t.Errorf("faces %v: no error", bad)
		}
	}
	// The same stream gives the same faces as drawing the dice one by one.
	var seed Seed
	s1 := NewStream(seed, "c", "s1", 3, "")
	f1, _, _ := e.Roll(s1)
	s2 := NewStream(seed, "c", "s1", 3, "")
	for i, n := range e.Sides() {
		if f, _ := s2.Roll(n); f != f1[i] {
			t.Fatalf("die %d: %d, drawn alone %d", i, f1[i], f)
		}
	}
}
