// Package beacon verifies rounds of a drand randomness beacon, by default
// the League of Entropy's quicknet chain, for the GM rolls of
// journal-dice-v2 that are resolved by a future beacon round (docs/design.md
// §3.2, "Play days apart").
//
// quicknet (scheme bls-unchained-g1-rfc9380) publishes one round every 3 s
// from its genesis: the round's signature is a BLS12-381 G1 point
// (48 bytes compressed) over
//
//	message = SHA-256(round as 8-byte big-endian)
//
// hashed to G1 (RFC 9380, DST "BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_"),
// checked by the pairing e(signature, g2) = e(H(message), public key) with
// the chain's 96-byte G2 public key. The roll's r is SHA-256(signature),
// which is also the round's published "randomness".
//
// Invariants: pure (no I/O, no clock: times are passed in); a round is
// accepted only if its signature is the canonical compressed encoding of a
// G1 point in the prime-order subgroup, not the identity, and the pairing
// holds for exactly that round number under the chain's pinned key. The
// quicknet parameters are constants, cross-checked by the chain hash
// (SHA-256 of period, genesis, key, group hash and beacon id, as drand
// computes it).
package beacon

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"time"

	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/cloudflare/circl/ecc/bls12381"
)

// The quicknet chain of the League of Entropy, as published by drand at
// https://api.drand.sh/52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971/info
// (the same values are in github.com/drand/go-clients client/lp2p/example_test.go
// and github.com/drand/drand-client lib/defaults.ts).
const (
	QuicknetHash      = "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971"
	QuicknetPublicKey = "83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a"
	QuicknetGroupHash = "f477d5c89f21a17c863a7f937c6a6d15859414d2be09cd448d4279af331c5d3e"
	QuicknetGenesis   = 1692803367 // Unix seconds of round 1
	QuicknetPeriod    = 3          // seconds between rounds
	QuicknetBeaconID  = "quicknet"
	// SchemeG1RFC9380 is the only scheme this package verifies.
	SchemeG1RFC9380 = "bls-unchained-g1-rfc9380"
)

// DST is the hash-to-curve domain separation tag of SchemeG1RFC9380.
const DST = "BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_"

// Sizes of the encodings, in bytes.
const (
	SignatureSize = bls12381.G1SizeCompressed // 48
	PublicKeySize = bls12381.G2SizeCompressed // 96
)

// Errors callers check with errors.Is.
var (
	// ErrInvalidChain: chain parameters that are malformed, of another
	// scheme, or whose hash does not match them.
	ErrInvalidChain = msgerr.New("invalid beacon chain")
	// ErrBadSignature: a round's signature that is malformed or does not verify.
	ErrBadSignature = msgerr.New("bad beacon signature")
	// ErrInvalidRound: round 0 or a round outside the chain's time range.
	ErrInvalidRound = msgerr.New("invalid beacon round")
)

// Info is a chain's description as drand serves it at /{hash}/info.
type Info struct {
	PublicKey   string `json:"public_key"`
	Period      int64  `json:"period"`
	GenesisTime int64  `json:"genesis_time"`
	Hash        string `json:"hash"`
	GroupHash   string `json:"groupHash"`
	SchemeID    string `json:"schemeID"`
	Metadata    struct {
		BeaconID string `json:"beaconID"`
	} `json:"metadata"`
}

// QuicknetInfo returns quicknet's Info.
func QuicknetInfo() Info {
	i := Info{
		PublicKey:   QuicknetPublicKey,
		Period:      QuicknetPeriod,
		GenesisTime: QuicknetGenesis,
		Hash:        QuicknetHash,
		GroupHash:   QuicknetGroupHash,
		SchemeID:    SchemeG1RFC9380,
	}
	i.Metadata.BeaconID = QuicknetBeaconID
	return i
}

// Chain is a verified chain description with its parsed public key. It is
// immutable and safe for concurrent use.
type Chain struct {
	info Info
	hash [32]byte
	pub  bls12381.G2
}

// Quicknet returns the quicknet chain. It cannot fail: its constants are
// checked by the tests.
func Quicknet() *Chain {
	c, err := NewChain(QuicknetInfo())
	if err != nil {
		panic("beacon: quicknet constants do not verify: " + err.Error())
	}
	return c
}

// NewChain checks a chain description: scheme SchemeG1RFC9380, a positive
// period, a G2 public key in the prime-order subgroup, and a hash equal to
// drand's chain hash of the other fields. Use it for a chain other than
// quicknet (a test network); the journal pins Quicknet.
func NewChain(info Info) (*Chain, error) {
	if info.SchemeID != SchemeG1RFC9380 {
		return nil, msgerr.Errorf("%w: scheme %q, want %q", ErrInvalidChain, info.SchemeID, SchemeG1RFC9380)
	}
	if info.Period <= 0 || info.Period > 1<<31 {
		return nil, msgerr.Errorf("%w: period %d s", ErrInvalidChain, info.Period)
	}
	if info.GenesisTime <= 0 {
		return nil, msgerr.Errorf("%w: genesis time %d", ErrInvalidChain, info.GenesisTime)
	}
	pk, err := hex.DecodeString(info.PublicKey)
	if err != nil || len(pk) != PublicKeySize {
		return nil, msgerr.Errorf("%w: public key must be %d bytes of hex", ErrInvalidChain, PublicKeySize)
	}
	c := &Chain{info: info}
	if err := c.pub.SetBytes(pk); err != nil || c.pub.IsIdentity() {
		return nil, msgerr.Errorf("%w: public key is not a G2 point", ErrInvalidChain)
	}
	group, err := hex.DecodeString(info.GroupHash)
	if err != nil || len(group) != sha256.Size {
		return nil, msgerr.Errorf("%w: group hash must be 32 bytes of hex", ErrInvalidChain)
	}
	// drand's chain hash (common/chain/info.go, Info.Hash): SHA-256 of the
	// period (uint32), the genesis time (int64), both big-endian, the key,
	// the group hash and, unless it is "default", the beacon id.
	h := sha256.New()
	_ = binary.Write(h, binary.BigEndian, uint32(info.Period))
	_ = binary.Write(h, binary.BigEndian, info.GenesisTime)
	h.Write(pk)
	h.Write(group)
	if id := info.Metadata.BeaconID; id != "" && id != "default" {
		h.Write([]byte(id))
	}
	h.Sum(c.hash[:0])
	if hex.EncodeToString(c.hash[:]) != info.Hash {
		return nil, msgerr.Errorf("%w: hash %q does not match its parameters (%x)", ErrInvalidChain, info.Hash, c.hash)
	}
	return c, nil
}

// Info returns the chain's description.
func (c *Chain) Info() Info { return c.info }

// Hash returns the chain hash as lower-case hex.
func (c *Chain) Hash() string { return c.info.Hash }

// Period is the time between rounds.
func (c *Chain) Period() time.Duration { return time.Duration(c.info.Period) * time.Second }

// Genesis is the time of round 1.
func (c *Chain) Genesis() time.Time { return time.Unix(c.info.GenesisTime, 0).UTC() }

// TimeOf returns when round is published: genesis + (round-1)·period.
// Round 0 does not exist; TimeOf(0) is the zero time.
func (c *Chain) TimeOf(round uint64) time.Time {
	if round == 0 {
		return time.Time{}
	}
	return time.Unix(c.info.GenesisTime+int64(round-1)*c.info.Period, 0).UTC()
}

// RoundAt returns the latest round published at t (0 before genesis), as
// drand's CurrentRound does: 1 + floor((t - genesis) / period).
func (c *Chain) RoundAt(t time.Time) uint64 {
	s := t.Unix()
	if s < c.info.GenesisTime {
		return 0
	}
	return uint64((s-c.info.GenesisTime)/c.info.Period) + 1
}

// NextRound returns the first round published strictly after t: the round
// a GM roll made at t may name so that nobody can know it yet.
func (c *Chain) NextRound(t time.Time) uint64 { return c.RoundAt(t) + 1 }

// Message returns the message signed for round: SHA-256(round as 8-byte big-endian).
func Message(round uint64) [32]byte {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], round)
	return sha256.Sum256(b[:])
}

// Randomness returns a round's randomness, SHA-256(signature): the r of a
// beacon roll. Call it on a signature Verify accepted.
func Randomness(signature []byte) [32]byte { return sha256.Sum256(signature) }

// Verify checks that signature is the chain's signature of round and
// returns the round's randomness (the roll's r).
func (c *Chain) Verify(round uint64, signature []byte) ([32]byte, error) {
	if round == 0 {
		return [32]byte{}, msgerr.Errorf("%w: round 0", ErrInvalidRound)
	}
	if len(signature) != SignatureSize {
		return [32]byte{}, msgerr.Errorf("%w: %d bytes, want %d (a compressed G1 point)", ErrBadSignature, len(signature), SignatureSize)
	}
	var sig bls12381.G1
	if err := sig.SetBytes(signature); err != nil {
		return [32]byte{}, msgerr.Errorf("%w: not a G1 point: %v", ErrBadSignature, err)
	}
	if sig.IsIdentity() {
		return [32]byte{}, msgerr.Errorf("%w: the identity point", ErrBadSignature)
	}
	// One spelling per point: the encoding must be the canonical one.
	if string(sig.BytesCompressed()) != string(signature) {
		return [32]byte{}, msgerr.Errorf("%w: non-canonical point encoding", ErrBadSignature)
	}
	msg := Message(round)
	var h bls12381.G1
	h.Hash(msg[:], []byte(DST))
	// e(sig, g2) · e(H(m), pk)^-1 == 1
	e := bls12381.ProdPairFrac(
		[]*bls12381.G1{&sig, &h},
		[]*bls12381.G2{bls12381.G2Generator(), &c.pub},
		[]int{1, -1},
	)
	if !e.IsIdentity() {
		return [32]byte{}, msgerr.Errorf("%w: round %d does not verify under chain %.16s…", ErrBadSignature, round, c.info.Hash)
	}
	return Randomness(signature), nil
}

// VerifyHex is Verify of a signature in hex, as drand serves it.
func (c *Chain) VerifyHex(round uint64, signature string) ([32]byte, error) {
	b, err := hex.DecodeString(signature)
	if err != nil {
		return [32]byte{}, msgerr.Errorf("%w: not hex", ErrBadSignature)
	}
	return c.Verify(round, b)
}
