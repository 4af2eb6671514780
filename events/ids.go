package events

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/google/uuid"
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
		return "", fmt.Errorf("read randomness for event id: %w", err)
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
