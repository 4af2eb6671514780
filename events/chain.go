package events

import (
	"crypto/sha256"
	"encoding/hex"
	"github.com/campaign-journal/journal/internal/msgerr"
	"hash"
)

// The campaign's chain (docs/design.md §3.2 "Chain", §3.3 "One chain per
// campaign, from its first event"): every event of a campaign but its first
// carries the extension attribute
//
//	prevhash = hex(SHA-256(the exact stored bytes of the campaign's previous event))
//
// so that the campaign's events form one hash chain: dropping, inserting,
// reordering or editing an event breaks it. "Stored bytes" are the message
// body as the stream holds it (Recorded.Raw), which an export writes
// verbatim as the event's line; every verifier hashes those bytes, never a
// re-encoding. Messages of the campaign that are not events (Foreign) are
// not links of the chain.
//
// Campaigns created before the journal chained every event (chained only
// from their first journal-dice-v2 session start, or not at all) are
// anchored: the first command that appends to one records, before its own
// events, one journal.chain.anchored.v1 event (ChainAnchored) whose hash
// covers every earlier event of the campaign, and which itself carries
// prevhash; every event after it is chained.

// AnchorHash computes a ChainAnchored over the stored bytes of a campaign's
// events, added in stream order. The zero value is not usable: call
// NewAnchorHash.
type AnchorHash struct {
	h hash.Hash
	n int
}

// NewAnchorHash returns an AnchorHash over no events.
func NewAnchorHash() *AnchorHash { return &AnchorHash{h: sha256.New()} }

// Add adds the next event's stored bytes.
func (a *AnchorHash) Add(stored []byte) {
	a.h.Write(stored)
	a.h.Write([]byte{'\n'})
	a.n++
}

// Events returns how many events were added.
func (a *AnchorHash) Events() int { return a.n }

// Anchor returns the anchor of the events added so far.
func (a *AnchorHash) Anchor() ChainAnchored {
	return ChainAnchored{Hash: hex.EncodeToString(a.h.Sum(nil)), Events: a.n}
}

// ErrInvalidPrevHash: a prevhash that is not 64 lower-case hex digits.
var ErrInvalidPrevHash = msgerr.New("invalid prevhash")

// ValidPrevHash checks a prevhash attribute: 64 lower-case hex digits.
func ValidPrevHash(s string) error {
	if len(s) != 2*sha256.Size {
		return msgerr.Errorf("%w: %d characters, want 64 lower-case hex digits", ErrInvalidPrevHash, len(s))
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return msgerr.Errorf("%w: character %d is %q, want 0-9 or a-f", ErrInvalidPrevHash, i+1, c)
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

// EventHash returns the chain hash of an event about to be appended:
// ChainHash of Encode(e), which is what a store's Append stores for it.
// It is for the append path only (the command layer chaining the events
// it drafts, a test hashing an event it just appended); an event read
// back has its stored bytes (Recorded.Raw), which every verifier hashes
// instead: a re-encoding is not what a file or a stream holds.
func EventHash(e Event) (string, error) {
	b, err := Encode(e)
	if err != nil {
		return "", err
	}
	return ChainHash(b), nil
}
