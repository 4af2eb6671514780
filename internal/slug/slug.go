// Package slug checks the journal's identifiers: campaigns, sessions,
// characters, users, key names. An identifier is a slug, 1 to MaxLen
// bytes of a-z, 0-9, '-' and '_', so that it is a safe NATS subject token,
// file name and URL path segment.
//
// Invariants:
//   - Valid accepts exactly the slugs; every error it returns wraps
//     ErrInvalid and quotes the input at most 64 runes long.
//   - The package imports nothing of the journal but internal/clip: it is
//     a leaf that the domain packages (events, signed) share.
package slug

import (
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// MaxLen is the longest identifier, in bytes.
const MaxLen = 64

// ErrInvalid is wrapped by every error of Valid.
var ErrInvalid = msgerr.New("invalid id")

// Valid returns nil if s is a slug, else an error wrapping ErrInvalid that
// says what is wrong.
func Valid(s string) error {
	if s == "" {
		return msgerr.Errorf("%w: empty", ErrInvalid)
	}
	if len(s) > MaxLen {
		return msgerr.Errorf("%w: %q is longer than %d characters", ErrInvalid, clip.Text(s), MaxLen)
	}
	for i := 0; i < len(s); i++ {
		if !slugByte(s[i]) {
			return msgerr.Errorf("%w: %q (use a-z, 0-9, '-' and '_')", ErrInvalid, clip.Text(s))
		}
	}
	return nil
}

func slugByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_'
}
