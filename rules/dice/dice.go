// Package dice turns bytes into dice faces.
//
// It implements the journal-dice-v1 algorithm (docs/design.md §3): a session's
// 32-byte secret seed keys HMAC-SHA256 over the roll's identity, the blocks
// form a byte stream, and each die of N sides (2..256) takes bytes by
// rejection sampling. The same sampling runs over any other ByteSource, and a
// Roller can also be a fixed list of faces (Faces), so that the rules can be
// exercised with the exact faces of the rule texts' examples.
//
// Invariants: the package holds no mutable global state and never calls a
// global random function; given the same seed, campaign, session, nonce and
// entropy, a Stream yields the same bytes and faces on every machine.
package dice

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"github.com/campaign-journal/journal/internal/msgerr"
	"hash"
	"io"
	"strconv"
)

// Algorithm names the dice derivation recorded in session-started events.
const Algorithm = "journal-dice-v1"

// SeedSize is the length of a session seed in bytes.
const SeedSize = 32

// MinSides and MaxSides bound the dice the byte stream can draw.
const (
	MinSides = 2
	MaxSides = 256
)

// Errors callers check with errors.Is.
var (
	// ErrInvalidSides is returned for a die with fewer than 2 or more than 256 sides.
	ErrInvalidSides = msgerr.New("invalid number of sides")
	// ErrExhausted is returned when a fixed source has no faces or bytes left.
	ErrExhausted = msgerr.New("dice source exhausted")
	// ErrInvalidFace is returned when a fixed face does not fit the die asked for.
	ErrInvalidFace = msgerr.New("face out of range for die")
	// ErrInvalidSeed is returned for a seed that is not 32 bytes of hex.
	ErrInvalidSeed = msgerr.New("invalid seed")
)

// Roller yields dice faces: Roll(n) returns a face in 1..n or an error.
type Roller interface {
	Roll(sides int) (int, error)
}

// ByteSource yields the bytes that rejection sampling turns into faces.
type ByteSource interface {
	NextByte() (byte, error)
}

// Seed is a session's secret. Only its Commitment is published before the
// session ends.
type Seed [SeedSize]byte

// NewSeed reads a fresh seed from r (crypto/rand.Reader in production).
func NewSeed(r io.Reader) (Seed, error) {
	var s Seed
	if _, err := io.ReadFull(r, s[:]); err != nil {
		return Seed{}, msgerr.Errorf("read seed: %w", err)
	}
	return s, nil
}

// ParseSeed decodes a seed from 64 hex digits (either case).
func ParseSeed(text string) (Seed, error) {
	var s Seed
	b, err := hex.DecodeString(text)
	if err != nil || len(b) != SeedSize {
		return Seed{}, msgerr.Errorf("%w: want %d hex digits", ErrInvalidSeed, 2*SeedSize)
	}
	copy(s[:], b)
	return s, nil
}

// String returns the seed as lower-case hex, the form revealed in session-ended events.
func (s Seed) String() string { return hex.EncodeToString(s[:]) }

// Commitment returns hex(SHA-256(seed)), published when the session starts.
func (s Seed) Commitment() string {
	sum := sha256.Sum256(s[:])
	return hex.EncodeToString(sum[:])
}

// Matches reports whether the seed is the one committed to (hex, either case).
func (s Seed) Matches(commitment string) bool {
	want, err := hex.DecodeString(commitment)
	if err != nil {
		return false
	}
	sum := sha256.Sum256(s[:])
	return hmac.Equal(sum[:], want)
}

// Key is a seed prepared for drawing many streams. It is not safe for
// concurrent use; make one per goroutine.
type Key struct {
	mac hash.Hash
}

// NewKey prepares seed for drawing streams.
func NewKey(seed Seed) *Key {
	return &Key{mac: hmac.New(sha256.New, seed[:])}
}

// Stream returns the byte stream of one roll. The stream shares the key's
// state: use it before asking the key for the next stream.
func (k *Key) Stream(campaign, session string, nonce uint64, entropy string) *Stream {
	return &Stream{mac: k.mac, prefix: rollPrefix(Algorithm, campaign, session, nonce, []byte(entropy), false)}
}

// rollPrefix is the part of a roll's HMAC message before the block index:
// algorithm|campaign|session|nonce|tail| where tail is the v1 entropy as
// it is, or (hexTail) the v2 reveal in lower-case hex.
func rollPrefix(algorithm, campaign, session string, nonce uint64, tail []byte, hexTail bool) []byte {
	prefix := make([]byte, 0, len(algorithm)+len(campaign)+len(session)+2*len(tail)+28)
	prefix = append(prefix, algorithm...)
	prefix = append(prefix, '|')
	prefix = append(prefix, campaign...)
	prefix = append(prefix, '|')
	prefix = append(prefix, session...)
	prefix = append(prefix, '|')
	prefix = strconv.AppendUint(prefix, nonce, 10)
	prefix = append(prefix, '|')
	if hexTail {
		prefix = hex.AppendEncode(prefix, tail)
	} else {
		prefix = append(prefix, tail...)
	}
	return append(prefix, '|')
}

// NewStream returns the byte stream of one roll of a session:
//
//	block(k) = HMAC-SHA256(seed, "journal-dice-v1|" + campaign + "|" + session + "|" + nonce + "|" + entropy + "|" + k)
//	stream   = block(0) || block(1) || ...
func NewStream(seed Seed, campaign, session string, nonce uint64, entropy string) *Stream {
	return NewKey(seed).Stream(campaign, session, nonce, entropy)
}

// Stream is the journal-dice-v1 byte stream of one roll. It is a ByteSource
// and a Roller; with tracing on it records every byte it hands out.
type Stream struct {
	mac    hash.Hash
	prefix []byte
	next   uint64 // index of the next block to compute
	block  [sha256.Size]byte
	pos    int // next unread byte in block; == len(block) when empty
	used   int
	trace  *[]Draw
}

// Block returns block(k) of the stream without moving it.
func (s *Stream) Block(k uint64) [sha256.Size]byte {
	var out [sha256.Size]byte
	s.mac.Reset()
	s.mac.Write(s.prefix)
	var num [20]byte
	s.mac.Write(strconv.AppendUint(num[:0], k, 10))
	s.mac.Sum(out[:0])
	return out
}

// NextByte returns the next byte of the stream. It never fails.
func (s *Stream) NextByte() (byte, error) {
	if s.used == 0 || s.pos == len(s.block) {
		s.block = s.Block(s.next)
		s.next++
		s.pos = 0
	}
	b := s.block[s.pos]
	s.pos++
	s.used++
	return b, nil
}

// BytesUsed is the number of bytes the stream has handed out.
func (s *Stream) BytesUsed() int { return s.used }

// Trace turns on recording of every draw; Draws returns them.
func (s *Stream) Trace() {
	if s.trace == nil {
		s.trace = new([]Draw)
	}
}

// Draws returns the draws recorded since Trace was called, in order.
func (s *Stream) Draws() []Draw {
	if s.trace == nil {
		return nil
	}
	return *s.trace
}

// Roll draws one die of the given sides from the stream.
func (s *Stream) Roll(sides int) (int, error) {
	return rollBytes(s, sides, s.trace)
}

// Draw is one byte taken from a stream for a die: kept (Face > 0) or
// rejected (Face == 0) by rejection sampling.
type Draw struct {
	Byte  byte `json:"byte"`
	Sides int  `json:"sides"`
	Face  int  `json:"face,omitempty"`
}

// Rejected reports whether the byte was discarded.
func (d Draw) Rejected() bool { return d.Face == 0 }

// Limit returns the first byte value rejected for a die of n sides:
// a byte b is used when b < 256 - (256 mod n).
func Limit(sides int) int { return 256 - 256%sides }

// FaceOf maps one byte to a face of a die with the given sides, reporting
// false when rejection sampling discards it.
func FaceOf(b byte, sides int) (int, bool) {
	if int(b) >= Limit(sides) {
		return 0, false
	}
	return int(b)%sides + 1, true
}

func checkSides(sides int) error {
	if sides < MinSides || sides > MaxSides {
		return msgerr.Errorf("%w: d%d (want %d..%d)", ErrInvalidSides, sides, MinSides, MaxSides)
	}
	return nil
}

func rollBytes(src ByteSource, sides int, trace *[]Draw) (int, error) {
	if err := checkSides(sides); err != nil {
		return 0, err
	}
	for {
		b, err := src.NextByte()
		if err != nil {
			return 0, err
		}
		face, ok := FaceOf(b, sides)
		if trace != nil {
			*trace = append(*trace, Draw{Byte: b, Sides: sides, Face: face})
		}
		if ok {
			return face, nil
		}
	}
}

// FromBytes is a Roller over any ByteSource, with the same rejection
// sampling as Stream.
type FromBytes struct {
	Src ByteSource
}

// Roll draws one die of the given sides from the byte source.
func (f FromBytes) Roll(sides int) (int, error) { return rollBytes(f.Src, sides, nil) }

// Bytes is a fixed ByteSource, for tests and external byte streams.
type Bytes struct {
	b []byte
	i int
}

// NewBytes returns a source that hands out b in order, then ErrExhausted.
func NewBytes(b ...byte) *Bytes { return &Bytes{b: b} }

// NextByte returns the next byte or ErrExhausted.
func (s *Bytes) NextByte() (byte, error) {
	if s.i >= len(s.b) {
		return 0, ErrExhausted
	}
	s.i++
	return s.b[s.i-1], nil
}

// Faces is a Roller that hands out fixed faces in order: the faces of a rule
// text's example, or the faces recorded in an event.
type Faces struct {
	faces []int
	i     int
}

// NewFaces returns a Roller that yields faces in order, then ErrExhausted.
func NewFaces(faces ...int) *Faces { return &Faces{faces: faces} }

// Roll returns the next face, checking that it fits the die.
func (f *Faces) Roll(sides int) (int, error) {
	if err := checkSides(sides); err != nil {
		return 0, err
	}
	if f.i >= len(f.faces) {
		return 0, msgerr.Errorf("%w: no face left for d%d after %d faces", ErrExhausted, sides, len(f.faces))
	}
	face := f.faces[f.i]
	if face < 1 || face > sides {
		return 0, msgerr.Errorf("%w: %d on d%d (face %d)", ErrInvalidFace, face, sides, f.i+1)
	}
	f.i++
	return face, nil
}

// Remaining is the number of faces not yet used.
func (f *Faces) Remaining() int { return len(f.faces) - f.i }

// Recorder wraps a Roller and keeps every face it yields, in draw order:
// the flat faces array of a roll event.
type Recorder struct {
	R     Roller
	Faces []int
}

// Roll draws from the wrapped Roller and records the face.
func (r *Recorder) Roll(sides int) (int, error) {
	face, err := r.R.Roll(sides)
	if err != nil {
		return 0, err
	}
	r.Faces = append(r.Faces, face)
	return face, nil
}
