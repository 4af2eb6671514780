package dice

// Witness chains of journal-dice-v2 GM rolls (docs/design.md §3.3, "GM rolls:
// precommitted witnesses, combined"). With its contribution a player's
// device commits to a hash chain over its secret w for the session:
//
//	w        = SHA-256(Ed25519 signature of the device key over WitnessSeedMessage(campaign, session, seed commitment))
//	anchor   = hex(H^N(w))                   H = SHA-256, N = WitnessChainLength
//	w_j      = H^(N−j)(w)                    the value for the session's j-th GM request (j = 1, 2, …)
//	r        = SHA-256("journal-dice-v2|gm|" + join(hex(w_j) of each contributing device, in contribution order, ","))
//
// Invariants: H^j(w_j) = anchor for every j in 1..N−1, so a value checks
// against the anchor alone; knowing w_1…w_j reveals nothing of w_{j+1}
// (a preimage), so nobody but the device knows its next value before it
// sends it, and nobody, the device included, can choose it after the
// anchor is recorded. w is deterministic (Ed25519 signatures are), so a
// device needs to store nothing.

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// WitnessChainLength is N: the length of a device's witness chain, and one
// more than the most GM requests a session of chain witnesses takes.
const WitnessChainLength = 1024

// MaxWitnessIndex is the largest j a witness chain answers (w_j with
// j = N−1 is H(w); j = N would be w itself, never sent).
const MaxWitnessIndex = WitnessChainLength - 1

// WitnessSeedMessage is the string a device signs with its key to derive
// its secret w for a session: "journal-dice-v2|witness|" + campaign + "|"
// + session + "|" + commitment (the session's seed commitment, lower-case
// hex).
func WitnessSeedMessage(campaign, session, commitment string) string {
	return AlgorithmV2 + "|witness|" + campaign + "|" + session + "|" + commitment
}

// WitnessSecret returns w = SHA-256(signature), signature being the raw
// Ed25519 signature bytes of WitnessSeedMessage.
func WitnessSecret(signature []byte) [32]byte { return sha256.Sum256(signature) }

// DeviceWitnessSecret returns the device's w for a session: WitnessSecret
// of priv's (deterministic) signature of WitnessSeedMessage.
func DeviceWitnessSecret(priv ed25519.PrivateKey, campaign, session, commitment string) [32]byte {
	return WitnessSecret(ed25519.Sign(priv, []byte(WitnessSeedMessage(campaign, session, commitment))))
}

// HashTimes returns H^n(v), H = SHA-256 (v itself for n = 0).
func HashTimes(v [32]byte, n int) [32]byte {
	for range n {
		v = sha256.Sum256(v[:])
	}
	return v
}

// WitnessAnchor returns H^N(w): the anchor a contribution commits to.
func WitnessAnchor(w [32]byte) [32]byte { return HashTimes(w, WitnessChainLength) }

// WitnessValue returns w_j = H^(N−j)(w), the value for the session's j-th
// GM request; j must be in 1..MaxWitnessIndex.
func WitnessValue(w [32]byte, j int) ([32]byte, error) {
	if j < 1 || j > MaxWitnessIndex {
		return [32]byte{}, msgerr.Errorf("witness index %d: want 1 to %d", j, MaxWitnessIndex)
	}
	return HashTimes(w, WitnessChainLength-j), nil
}

// WitnessMatches reports whether value is the j-th value of the chain
// anchored at anchor: H^j(value) = anchor, j in 1..MaxWitnessIndex.
func WitnessMatches(value, anchor [32]byte, j int) bool {
	return j >= 1 && j <= MaxWitnessIndex && HashTimes(value, j) == anchor
}

// CombineWitnesses returns a GM roll's r from the witness values of the
// contributing devices, in contribution order:
//
//	r = SHA-256("journal-dice-v2|gm|" + join(hex(w_j), ","))
func CombineWitnesses(values [][32]byte) [32]byte {
	msg := make([]byte, 0, len(AlgorithmV2)+len("|gm|")+len(values)*65)
	msg = append(msg, AlgorithmV2...)
	msg = append(msg, "|gm|"...)
	for i, v := range values {
		if i > 0 {
			msg = append(msg, ',')
		}
		msg = hex.AppendEncode(msg, v[:])
	}
	return sha256.Sum256(msg)
}
