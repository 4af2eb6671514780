package msgerr_test

import (
	"errors"
	"fmt"
	"io"
	"os"
	"testing"

	"github.com/campaign-journal/journal/internal/msgerr"
)

// TestDropIn: the text, Is, As and Unwrap are fmt.Errorf's.
func TestDropIn(t *testing.T) {
	sentinel := msgerr.New("not found")
	cases := []struct {
		format string
		args   []any
	}{
		{"no character %q", []any{"Ana"}},
		{"%w: no character %q", []any{sentinel, "Ana"}},
		{"%w and %w", []any{sentinel, io.EOF}},
		{"%d of %d: %v", []any{1, 2, os.ErrNotExist}},
	}
	for _, c := range cases {
		got, want := msgerr.Errorf(c.format, c.args...), fmt.Errorf(c.format, c.args...)
		if got.Error() != want.Error() {
			t.Errorf("%q: %q, fmt says %q", c.format, got, want)
		}
		for _, target := range []error{sentinel, io.EOF, os.ErrNotExist} {
			if errors.Is(got, target) != errors.Is(want, target) {
				t.Errorf("%q: Is(%v) differs", c.format, target)
			}
		}
		if (errors.Unwrap(got) == nil) != (errors.Unwrap(want) == nil) {
			t.Errorf("%q: Unwrap differs", c.format)
		}
		var k msgerr.Keyed
		if !errors.As(got, &k) || k.Key() != c.format || len(k.Args()) != len(c.args) {
			t.Errorf("%q: not keyed by its format", c.format)
		}
	}
	var pe *os.PathError
	if !errors.As(msgerr.Errorf("open: %w", &os.PathError{Op: "open", Path: "x", Err: os.ErrNotExist}), &pe) {
		t.Error("As does not see through")
	}
	if s := msgerr.New("mismatch"); s.Error() != "mismatch" || s.(msgerr.Keyed).Key() != "mismatch" || !errors.Is(msgerr.Errorf("x: %w", s), s) {
		t.Error("New is not a keyed sentinel")
	}
}
