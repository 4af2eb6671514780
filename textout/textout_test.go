package textout

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// TestTableByDisplayWidth: columns line up by cells, not bytes; numbers
// to the right; no trailing spaces.
func TestTableByDisplayWidth(t *testing.T) {
	var b bytes.Buffer
	tb := NewTable("  ", "NAME", "HP", "NOTE").AlignRight(1)
	tb.Add("Lódin", "12", "")
	tb.Add("Ana", "7", "tired")
	tb.Write(&b)
	want := "  NAME   HP  NOTE\n" +
		"  Lódin  12\n" +
		"  Ana     7  tired\n"
	if b.String() != want {
		t.Fatalf("got\n%q\nwant\n%q", b.String(), want)
	}
}

func TestHistogram(t *testing.T) {
	var b bytes.Buffer
	Histogram(&b, []Bar{{Label: "a", Value: 1, Note: "100%"}, {Label: "bb", Value: 0.5, Note: "50%"}, {Label: "c", Value: 0.01, Note: "1%"}}, 4)
	want := "   a ████ 100%\n" +
		"  bb ██   50%\n" +
		"   c ▏    1%\n"
	if b.String() != want {
		t.Fatalf("got\n%q\nwant\n%q", b.String(), want)
	}
	if got := barCells(3, 8, 2); got != "▊ " { // 3/8 of 16 eighths: 6
		t.Fatalf("barCells = %q", got)
	}
}

func TestHPBarAndPercent(t *testing.T) {
	for _, tt := range []struct {
		hp, max, width int
		want           string
	}{
		{10, 10, 4, "████"}, {1, 100, 4, "█░░░"}, {0, 10, 4, "░░░░"}, {-3, 10, 4, "░░░░"}, {5, 0, 2, "░░"},
	} {
		if got := HPBar(tt.hp, tt.max, tt.width); got != tt.want {
			t.Errorf("HPBar(%d, %d, %d) = %q, want %q", tt.hp, tt.max, tt.width, got, tt.want)
		}
	}
	for p, want := range map[float64]string{0: "0%", 0.5: "50.00%", 0.00001: "0.001%"} {
		if got := Percent(p); got != want {
			t.Errorf("Percent(%v) = %q, want %q", p, got, want)
		}
	}
	if Fraction(3, 12) != "3/12" || IsTerminal(&bytes.Buffer{}) || TerminalColumns(&bytes.Buffer{}) != 0 {
		t.Error("Fraction or the terminal checks")
	}
}

func TestOrDash(t *testing.T) {
	if OrDash("") != "-" || OrDash("x") != "x" {
		t.Fatal("OrDash: want - for the empty cell, the text else")
	}
}

func TestEmit(t *testing.T) {
	var b strings.Builder
	if err := Emit(&b, true, map[string]int{"n": 1}, func(io.Writer) { t.Fatal("text under --json") }); err != nil {
		t.Fatal(err)
	}
	if b.String() != "{\n  \"n\": 1\n}\n" {
		t.Fatalf("JSON: %q", b.String())
	}
	b.Reset()
	if err := Emit(&b, false, nil, func(w io.Writer) { io.WriteString(w, "one line\n") }); err != nil {
		t.Fatal(err)
	}
	if b.String() != "one line\n" {
		t.Fatalf("text: %q", b.String())
	}
}
