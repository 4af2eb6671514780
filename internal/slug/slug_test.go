package slug

import (
	"errors"
	"strings"
	"testing"
)

func TestValid(t *testing.T) {
	for _, s := range []string{"a", "mordor", "sess-1", "a_b", strings.Repeat("x", MaxLen)} {
		if err := Valid(s); err != nil {
			t.Errorf("Valid(%q) = %v, want nil", s, err)
		}
	}
	for _, s := range []string{"", "Mordor", "a b", "a.b", "a>", "ñ", strings.Repeat("x", MaxLen+1)} {
		if err := Valid(s); !errors.Is(err, ErrInvalid) {
			t.Errorf("Valid(%q) = %v, want ErrInvalid", s, err)
		}
	}
}
