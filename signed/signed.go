// Package signed reads and writes the signed messages a participant's device
// sends to the journal under journal-dice-v2 (docs/design.md §3.2).
//
// A device holds an Ed25519 key pair; its public key is registered in the
// campaign. What the device asks for is a JSON object sent as a string (the
// "signed string"), with a base64url Ed25519 signature over the string's
// UTF-8 bytes. The journal records the string verbatim in data.signed, the
// signature in data.signature and the user in data.user; a verifier checks
// the signature against the registered key and then that the event's fields
// equal the ones parsed here.
//
// Invariants:
//   - Pure: no I/O, no clock, no global randomness (Sign is deterministic).
//   - A message is accepted only if the signed string is at most MaxSize bytes
//     of valid UTF-8, its signature is exactly 64 bytes in canonical unpadded
//     base64url and verifies under the key, and the string is ONE JSON object
//     with no duplicate names at any depth, no unknown members, a known type,
//     and every field that type needs, each in its one spelling (lower-case
//     hex, canonical lower-case UUIDs, slugs).
//   - Every refusal wraps exactly one sentinel (ErrTooLarge, ErrBadKey,
//     ErrBadSignature, ErrMalformed, ErrUnknownType, ErrWrongScope) and names
//     the field at fault.
//   - Encode(m) then Parse gives back m: the CLI and the tests build messages
//     with Encode so that what they sign is what the journal parses.
package signed

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strings"
	"unicode/utf8"

	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/rules/dice"
)

// MaxSize is the largest signed string accepted, in bytes.
const MaxSize = 8 << 10

// SignatureSize is the length of an Ed25519 signature; its base64url form
// (unpadded) has SignatureLen characters.
const (
	SignatureSize = ed25519.SignatureSize
	SignatureLen  = (SignatureSize*8 + 5) / 6
)

// Errors callers check with errors.Is. Each refusal wraps one of them.
var (
	// ErrTooLarge: the signed string is longer than MaxSize bytes.
	ErrTooLarge = msgerr.New("signed message too large")
	// ErrBadKey: a public key that is not 64 lower-case hex digits of a usable Ed25519 key.
	ErrBadKey = msgerr.New("invalid public key")
	// ErrBadSignature: the signature is not canonical base64url of 64 bytes, or does not verify.
	ErrBadSignature = msgerr.New("bad signature")
	// ErrMalformed: the signed string is not a well-formed message of its type.
	ErrMalformed = msgerr.New("malformed signed message")
	// ErrUnknownType: the message's type is not one of the Type constants.
	ErrUnknownType = msgerr.New("unknown signed message type")
	// ErrWrongScope: the message names another campaign or session than the one it is sent to.
	ErrWrongScope = msgerr.New("signed message for another campaign or session")
)

// PublicKey is a device's Ed25519 public key.
type PublicKey [ed25519.PublicKeySize]byte

// smallOrder lists the encodings (sign bit of x cleared) of the points of
// order 1, 2, 4 and 8 of edwards25519, with the non-canonical y = p and
// y = p+1. A key among them verifies signatures that anyone can make, so it
// is refused. Computed from the curve equation; the same list as libsodium's.
var smallOrder = [...]string{
	"0000000000000000000000000000000000000000000000000000000000000000", // y = 0, order 4
	"0100000000000000000000000000000000000000000000000000000000000000", // y = 1, the identity
	"26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05", // order 8
	"c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a", // order 8
	"ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", // y = p-1, order 2
	"edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", // y = p (non-canonical 0)
	"eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", // y = p+1 (non-canonical 1)
}

// ParsePublicKey decodes a public key from its recorded form: 64 lower-case
// hex digits (data.public_key of the key registration event). Keys of small
// order are refused.
func ParsePublicKey(text string) (PublicKey, error) {
	b, err := dice.ParseHex32(text)
	if err != nil {
		return PublicKey{}, msgerr.Errorf("%w: %w", ErrBadKey, err)
	}
	pub := PublicKey(b)
	if pub.weak() {
		return PublicKey{}, msgerr.Errorf("%w: a point of small order", ErrBadKey)
	}
	return pub, nil
}

// PublicKeyOf returns the public key of a private key.
func PublicKeyOf(priv ed25519.PrivateKey) PublicKey {
	return PublicKey(priv.Public().(ed25519.PublicKey))
}

func (p PublicKey) weak() bool {
	for _, enc := range smallOrder {
		w, _ := hex.DecodeString(enc)
		if string(p[:31]) == string(w[:31]) && p[31]&0x7f == w[31] {
			return true
		}
	}
	return false
}

// String returns the key as 64 lower-case hex digits, its recorded form.
func (p PublicKey) String() string { return hex.EncodeToString(p[:]) }

// Fingerprint is what a user compares to see that the journal holds their
// key and no other: the first 16 bytes of SHA-256(the 32 key bytes), as 32
// lower-case hex digits in eight groups of four joined by ":", e.g.
// "1a2b:3c4d:5e6f:7a8b:9c0d:1e2f:3a4b:5c6d". The browser computes the same
// with crypto.subtle.digest("SHA-256", rawKey).
func (p PublicKey) Fingerprint() string { return Fingerprint(p) }

// Fingerprint returns the fingerprint of pub; see PublicKey.Fingerprint.
func Fingerprint(pub PublicKey) string {
	sum := sha256.Sum256(pub[:])
	h := hex.EncodeToString(sum[:16])
	var b strings.Builder
	for i := 0; i < len(h); i += 4 {
		if i > 0 {
			b.WriteByte(':')
		}
		b.WriteString(h[i : i+4])
	}
	return b.String()
}

// Sign returns the signature of a signed string: base64url without padding
// (RFC 4648 §5, as in JWS) of Ed25519(priv, UTF-8 bytes of signed).
func Sign(priv ed25519.PrivateKey, signed string) string {
	return base64.RawURLEncoding.EncodeToString(ed25519.Sign(priv, []byte(signed)))
}

// Verify checks that signature is pub's signature of the signed string.
// The signature must be exactly SignatureLen characters of unpadded
// base64url with zero trailing bits (one spelling per signature).
func Verify(pub PublicKey, signed, signature string) error {
	if err := checkSize(signed); err != nil {
		return err
	}
	if pub.weak() {
		return msgerr.Errorf("%w: a point of small order", ErrBadKey)
	}
	if len(signature) != SignatureLen {
		return msgerr.Errorf("%w: %d characters, want %d of unpadded base64url", ErrBadSignature, len(signature), SignatureLen)
	}
	sig, err := base64.RawURLEncoding.Strict().DecodeString(signature)
	if err != nil || len(sig) != SignatureSize {
		return msgerr.Errorf("%w: not canonical unpadded base64url of %d bytes", ErrBadSignature, SignatureSize)
	}
	if !ed25519.Verify(pub[:], []byte(signed), sig) {
		return msgerr.Errorf("%w: does not verify under key %s", ErrBadSignature, pub.Fingerprint())
	}
	return nil
}

func checkSize(signed string) error {
	if len(signed) > MaxSize {
		return msgerr.Errorf("%w: %d bytes, at most %d", ErrTooLarge, len(signed), MaxSize)
	}
	if !utf8.ValidString(signed) {
		return msgerr.Errorf("%w: not valid UTF-8", ErrMalformed)
	}
	return nil
}

// Open verifies and parses a device's message sent to the given campaign and
// session: the size, the signature under pub, the message's shape, then its
// scope. It is what the journal runs before recording an event made from a
// device's message, and what a verifier runs on the recorded data.signed and
// data.signature with the user's registered key.
func Open(pub PublicKey, signed, signature, campaign, session string) (Message, error) {
	if err := Verify(pub, signed, signature); err != nil {
		return nil, err
	}
	m, err := Parse(signed)
	if err != nil {
		return nil, err
	}
	if err := m.Head().In(campaign, session); err != nil {
		return nil, err
	}
	return m, nil
}
