package events

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
)

// The chain of journal-dice-v2 (DESIGN.md §3.2): every event a v2 campaign
// records from its first v2 session's start on carries the extension
// attribute prevhash = hex(SHA-256(the exact stored bytes of the
// campaign's previous event)), so that the campaign's events form one hash
// chain from there: dropping, inserting, reordering or editing an event
// breaks it. The journal stores what Encode writes, so the stored bytes of
// an event the journal recorded are Encode of it as read back.

// ErrInvalidPrevHash: a prevhash that is not 64 lower-case hex digits.
var ErrInvalidPrevHash = errors.New("invalid prevhash")

// ValidPrevHash checks a prevhash attribute: 64 lower-case hex digits.
func ValidPrevHash(s string) error {
	if len(s) != 2*sha256.Size {
		return fmt.Errorf("%w: %d characters, want 64 lower-case hex digits", ErrInvalidPrevHash, len(s))
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return fmt.Errorf("%w: character %d is %q, want 0-9 or a-f", ErrInvalidPrevHash, i+1, c)
		}
	}
	return nil
}

// ChainHash returns hex(SHA-256(stored)): the prevhash of the event after
// the one whose stored bytes are stored.
func ChainHash(stored []byte) string {
	sum := sha256.Sum256(stored)
	return hex.EncodeToString(sum[:])
}

// EventHash returns the chain hash of an event as the journal stores it
// (ChainHash of Encode(e)).
func EventHash(e Event) (string, error) {
	b, err := Encode(e)
	if err != nil {
		return "", err
	}
	return ChainHash(b), nil
}
