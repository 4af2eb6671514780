package events

import (
	"crypto/sha256"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// IDs yields event ids: canonical lower-case UUID strings, each different
// from every other id it ever returned.
type IDs interface {
	NewID() (string, error)
}

// IDFunc adapts a function to IDs.
type IDFunc func() (string, error)

// NewID calls f.
func (f IDFunc) NewID() (string, error) { return f() }

// V7 generates time-ordered UUID v7 ids (RFC 9562) from an injected clock and
// source of randomness: 48 bits of Unix milliseconds, a 12-bit counter that
// keeps ids from one generator strictly increasing within a millisecond (and
// across a clock that steps back), and 62 random bits.
//
// In production use NewV7(time.Now, crypto/rand.Reader); a fixed clock and a
// deterministic reader give reproducible ids. V7 is safe for concurrent use.
type V7 struct {
	mu     sync.Mutex
	now    func() time.Time
	rand   io.Reader
	lastMS int64
	seq    uint16 // counter in rand_a, 12 bits
}

// NewV7 returns a generator reading the time from now and randomness from rand.
func NewV7(now func() time.Time, rand io.Reader) *V7 {
	return &V7{now: now, rand: rand}
}

// seqMax is the largest 12-bit counter value.
const seqMax = 1<<12 - 1

// NewID returns the next id.
func (g *V7) NewID() (string, error) {
	var r [10]byte
	if _, err := io.ReadFull(g.rand, r[:]); err != nil {
		return "", msgerr.Errorf("read randomness for event id: %w", err)
	}
	g.mu.Lock()
	ms := g.now().UnixMilli()
	switch {
	case ms > g.lastMS:
		g.lastMS = ms
		// Start low in the counter's range so that many ids fit in one millisecond.
		g.seq = uint16(r[0]&0x03)<<8 | uint16(r[1])
	case g.seq < seqMax:
		g.seq++
	default:
		g.lastMS++
		g.seq = 0
	}
	ms, seq := g.lastMS, g.seq
	g.mu.Unlock()

	var u uuid.UUID
	u[0] = byte(ms >> 40)
	u[1] = byte(ms >> 32)
	u[2] = byte(ms >> 24)
	u[3] = byte(ms >> 16)
	u[4] = byte(ms >> 8)
	u[5] = byte(ms)
	u[6] = 0x70 | byte(seq>>8)&0x0f
	u[7] = byte(seq)
	copy(u[8:], r[2:])
	u[8] = u[8]&0x3f | 0x80 // RFC 9562 variant
	return u.String(), nil
}

// MaxRequestIDLen is the longest request id, in bytes.
const MaxRequestIDLen = 64

// ErrInvalidRequestID marks a request id that ValidRequestID refuses.
var ErrInvalidRequestID = msgerr.New("invalid request id")

// ValidRequestID accepts a request id: 1 to MaxRequestIDLen characters
// among ASCII letters, digits, '-', '_', '.' and ':' (a UUID, a ULID, a
// timestamped counter all fit). Errors wrap ErrInvalidRequestID and name
// what is wrong.
func ValidRequestID(id string) error {
	if id == "" {
		return msgerr.Errorf("%w: empty", ErrInvalidRequestID)
	}
	if len(id) > MaxRequestIDLen {
		return msgerr.Errorf("%w: %d bytes, at most %d", ErrInvalidRequestID, len(id), MaxRequestIDLen)
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == ':') {
			return msgerr.Errorf("%w: %q has %q at byte %d: use letters, digits, '-', '_', '.' or ':'", ErrInvalidRequestID, clip.Text(id), c, i)
		}
	}
	return nil
}

// RequestEventID returns the id of the index-th event (from 0) that the
// command identified by request id request, with fingerprint command
// (what the command is: its name and arguments), records in campaign:
// the first 16 bytes of
//
//	SHA-256("journal-request-v1" 0x00 campaign 0x00 request 0x00 command 0x00 index)
//
// with the version and variant bits of a UUID version 8 (RFC 9562 §5.8):
// a canonical UUID that Decode accepts. The same command retried with the
// same request id gets the same ids (and so the same Nats-Msg-Id, which
// JetStream's duplicate window stores once); another command under the
// same request id gets other ids.
//
// When the request id is itself a UUID version 7 (as the CLI makes one per
// invocation), the derived id keeps its 48-bit time and is a version 7
// UUID too, so that the ids of a command's events stay ordered by the time
// the request was made, as docs/design.md §2 wants ids to be; the other bits
// are the digest's. Any other request id gives a version 8 UUID, not
// ordered by time: the stream sequence orders events, not their ids.
func RequestEventID(campaign, request, command string, index int) string {
	h := sha256.New()
	h.Write([]byte("journal-request-v1"))
	for _, s := range []string{campaign, request, command, strconv.Itoa(index)} {
		h.Write([]byte{0})
		h.Write([]byte(s))
	}
	var u uuid.UUID
	copy(u[:], h.Sum(nil))
	u[6] = 0x80 | u[6]&0x0f // version 8
	if r, err := uuid.Parse(request); err == nil && r.Version() == 7 && r.String() == request {
		copy(u[:6], r[:6])      // the request's time, in milliseconds
		u[6] = 0x70 | u[6]&0x0f // version 7
	}
	u[8] = 0x80 | u[8]&0x3f // RFC 9562 variant
	return u.String()
}

// RequestIDs yields the ids RequestEventID derives for one command, in
// order: the first call gives index 0, the next index 1, and so on. It is
// not safe for concurrent use (one command drafts its events in order).
type RequestIDs struct {
	Campaign, Request, Command string
	next                       int
}

// NewID returns the next derived id.
func (r *RequestIDs) NewID() (string, error) {
	id := RequestEventID(r.Campaign, r.Request, r.Command, r.next)
	r.next++
	return id, nil
}
