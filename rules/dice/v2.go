package dice

// journal-dice-v2 (docs/design.md §3.2): rolls nobody can steer, not even the host.
//
// The session key K mixes the server's committed seed S with the
// participants' contributions; each roll's bytes are keyed by K and bound to
// a secret r that the roller committed to before its nonce was fixed:
//
//	K        = HMAC-SHA256(S, "journal-dice-v2|key|" + campaign + "|" + session + "|" + join(hex(contribution), ","))
//	block(k) = HMAC-SHA256(K, "journal-dice-v2|" + campaign + "|" + session + "|" + nonce + "|" + hex(r) + "|" + k)
//	stream   = block(0) || block(1) || ...
//
// hex is lower-case, nonce and k are decimal; the die rule, the draw order,
// Trace and Draws are v1's (the returned value is the same *Stream type).

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// AlgorithmV2 names the v2 derivation in session-started events.
const AlgorithmV2 = "journal-dice-v2"

// Sizes of the v2 values, in bytes.
const (
	// ContributionSize is the length of a participant's contribution to a session key.
	ContributionSize = 32
	// RevealSize is the length of a roll's secret r (a reveal, a witness value,
	// or SHA-256 of a beacon signature).
	RevealSize = 32
)

// ErrInvalidHex32 is returned when a v2 value is not 64 lower-case hex digits.
var ErrInvalidHex32 = msgerr.New("invalid 32-byte hex value")

// KeyV2 is a v2 session's key K. It is derived from the secret seed, so
// it is as secret as the seed until the session ends; it is never recorded.
type KeyV2 [sha256.Size]byte

// String returns K as lower-case hex (for explain output once the seed is out).
func (k KeyV2) String() string { return hex.EncodeToString(k[:]) }

// SessionKey returns the session key K of a v2 session:
//
//	K = HMAC-SHA256(key = seed, message = "journal-dice-v2|key|" + campaign + "|" + session + "|" + join(contributions as lower-case hex, ","))
//
// contributions are in stream order (the order their events were recorded);
// with none the message ends in "|". campaign and session are the envelope's
// ids (slugs, so they hold no "|").
func SessionKey(seed Seed, campaign, session string, contributions [][ContributionSize]byte) KeyV2 {
	msg := make([]byte, 0, len(AlgorithmV2)+len("|key|")+len(campaign)+len(session)+2+len(contributions)*(2*ContributionSize+1))
	msg = append(msg, AlgorithmV2...)
	msg = append(msg, "|key|"...)
	msg = append(msg, campaign...)
	msg = append(msg, '|')
	msg = append(msg, session...)
	msg = append(msg, '|')
	for i, c := range contributions {
		if i > 0 {
			msg = append(msg, ',')
		}
		msg = hex.AppendEncode(msg, c[:])
	}
	mac := hmac.New(sha256.New, seed[:])
	mac.Write(msg)
	var k KeyV2
	mac.Sum(k[:0])
	return k
}

// StreamV2 returns the byte stream of one v2 roll:
//
//	block(k) = HMAC-SHA256(key = K, message = "journal-dice-v2|" + campaign + "|" + session + "|" + nonce + "|" + hex(r) + "|" + k)
//
// The result is a Roller and a ByteSource with v1's die rule, Block, Trace,
// Draws and BytesUsed, so the rules, replay and explain use it unchanged.
// A request that needs several rolls takes one nonce per roll, same r.
func StreamV2(key KeyV2, campaign, session string, nonce uint64, r [RevealSize]byte) *Stream {
	return &Stream{mac: hmac.New(sha256.New, key[:]), prefix: rollPrefix(AlgorithmV2, campaign, session, nonce, r[:], true)}
}

// Stream is StreamV2 with this key.
func (k KeyV2) Stream(campaign, session string, nonce uint64, r [RevealSize]byte) *Stream {
	return StreamV2(k, campaign, session, nonce, r)
}

// RevealCommitment returns hex(SHA-256(r)) in lower case: the commitment a
// roller's signed roll.request carries before r is revealed.
func RevealCommitment(r [RevealSize]byte) string {
	sum := sha256.Sum256(r[:])
	return hex.EncodeToString(sum[:])
}

// RevealMatches reports whether r is the secret committed to. The commitment
// must be in its recorded form, 64 lower-case hex digits; anything else does
// not match.
func RevealMatches(r [RevealSize]byte, commitment string) bool {
	return hmac.Equal([]byte(RevealCommitment(r)), []byte(commitment))
}

// ParseHex32 decodes a v2 value (a contribution, a reveal r, a witness value,
// a commitment) from exactly 64 lower-case hex digits, the only form v2
// records. Upper case is refused so that a value has one spelling and the
// event's fields can be compared with the signed message's as strings.
func ParseHex32(text string) ([32]byte, error) {
	var out [32]byte
	if len(text) != 64 {
		return out, msgerr.Errorf("%w: %d characters, want 64", ErrInvalidHex32, len(text))
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return out, msgerr.Errorf("%w: character %d is %q, want 0-9 or a-f", ErrInvalidHex32, i+1, c)
		}
	}
	if _, err := hex.Decode(out[:], []byte(text)); err != nil {
		return [32]byte{}, msgerr.Errorf("%w: %v", ErrInvalidHex32, err)
	}
	return out, nil
}
