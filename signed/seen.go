package signed

import (
	"crypto/sha256"
	"github.com/campaign-journal/journal/internal/msgerr"
	"reflect"
)

// Seen is a message's receipt (docs/design.md §3.3, "Receipts: every signed
// message says what its device saw"): the campaign's latest event the
// device had received when it signed, by its stream sequence and Hash,
// the SHA-256 of that event's exact stored bytes (events.Recorded.Raw,
// events.ChainHash). It is the "seen" member of every message type,
// written after "session": {"seq":N,"hash":"<64 hex>"}.
//
// Invariants: Seq is at least 1 and Hash is not all zero (a device that
// has received nothing has nothing to say: it omits seen). A verifier
// matches Hash, not Seq: a campaign restored or migrated into another
// folder keeps its events' bytes but not their sequences; Seq is for the
// words ("at #N").
type Seen struct {
	Seq  uint64 `json:"seq"`
	Hash Hex32  `json:"hash"`
}

// SeenOf is the receipt of the event stored as raw at sequence seq.
func SeenOf(seq uint64, raw []byte) *Seen {
	return &Seen{Seq: seq, Hash: Hex32(sha256.Sum256(raw))}
}

// Matches reports whether raw, an event's stored bytes, is the event seen.
func (s *Seen) Matches(raw []byte) bool {
	return s != nil && Hex32(sha256.Sum256(raw)) == s.Hash
}

func checkSeen(s *Seen) error {
	if s == nil {
		return nil
	}
	if s.Seq == 0 {
		return msgerr.Errorf("%w: field seen.seq: want a stream sequence of at least 1", ErrMalformed)
	}
	return requireHex("seen.hash", s.Hash)
}

// WithSeen returns a copy of m whose header's Seen is seen (m is not
// modified). It works on every message type, since each embeds Header: a
// device stamps what it signs in one place, whatever the type.
func WithSeen(m Message, seen *Seen) Message {
	v := reflect.ValueOf(m)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return m
	}
	cp := reflect.New(v.Elem().Type())
	cp.Elem().Set(v.Elem())
	h := cp.Elem().FieldByName("Header")
	if !h.IsValid() || !h.CanSet() {
		return m
	}
	hd := m.Head()
	hd.Seen = seen
	h.Set(reflect.ValueOf(hd))
	out, ok := cp.Interface().(Message)
	if !ok {
		return m
	}
	return out
}
