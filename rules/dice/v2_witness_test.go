package dice

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"
)

// TestWitnessChain: a value checks against its anchor at its index only,
// and the combination is SHA-256 of the documented string.
func TestWitnessChain(t *testing.T) {
	w := WitnessSecret([]byte("a signature"))
	anchor := WitnessAnchor(w)
	for _, j := range []int{1, 2, 7, MaxWitnessIndex} {
		v, err := WitnessValue(w, j)
		if err != nil {
			t.Fatal(err)
		}
		if !WitnessMatches(v, anchor, j) {
			t.Errorf("w_%d does not match the anchor", j)
		}
		if WitnessMatches(v, anchor, j+1) || WitnessMatches(v, anchor, j-1) {
			t.Errorf("w_%d matches at another index", j)
		}
	}
	if _, err := WitnessValue(w, 0); err == nil {
		t.Error("w_0 was given")
	}
	if _, err := WitnessValue(w, WitnessChainLength); err == nil {
		t.Error("w_N (w itself) was given")
	}
	a, b := [32]byte{1}, [32]byte{2}
	want := sha256.Sum256([]byte("journal-dice-v2|gm|" + hex.EncodeToString(a[:]) + "," + hex.EncodeToString(b[:])))
	if got := CombineWitnesses([][32]byte{a, b}); got != want {
		t.Errorf("combined %x, want %x", got, want)
	}
	if CombineWitnesses([][32]byte{b, a}) == want {
		t.Error("the order of the witnesses does not count")
	}
}
