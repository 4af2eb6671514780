package dice_test

import (
	"fmt"

	"github.com/campaign-journal/journal/rules/dice"
)

// A v2 roll: the session key mixes the committed seed with the players'
// contributions; the roller's secret r, committed to in its request, keys
// the roll's bytes together with the nonce. Values are docs/design.md §3.2's.
func ExampleSessionKey() {
	var seed dice.Seed
	for i := range seed {
		seed[i] = byte(i)
	}
	var aa, bb [32]byte
	for i := range aa {
		aa[i], bb[i] = 0xaa, 0xbb
	}
	fmt.Println(dice.SessionKey(seed, "camp-1", "sess-1", nil))
	fmt.Println(dice.SessionKey(seed, "camp-1", "sess-1", [][32]byte{aa, bb}))
	// Output:
	// 766900aaa4cc3aba30d10633457fc47625367284282501a1d3571d3e9bc3e847
	// f6483963d6bb6e8a1ae485d6dc5e3b11d922cf64d3ccf778ce86c582d39bbe17
}

func ExampleStreamV2() {
	var seed dice.Seed
	var r0, aa, bb [32]byte
	for i := range seed {
		seed[i], r0[i], aa[i], bb[i] = byte(i), 0x20+byte(i), 0xaa, 0xbb
	}
	k := dice.SessionKey(seed, "camp-1", "sess-1", [][32]byte{aa, bb})

	// The request carries the commitment of r; the reveal carries r.
	fmt.Println(dice.RevealCommitment(r0))

	s := dice.StreamV2(k, "camp-1", "sess-1", 0, r0)
	s.Trace() // explain shows every byte drawn
	a, _ := s.Roll(10)
	b, _ := s.Roll(10)
	c, _ := s.Roll(10)
	fmt.Println(a, b, c, len(s.Draws()) >= 3)
	// Output:
	// 72dbb7336c76780023f83da4c355f2eeea85733b13d3477697917790c1229084
	// 1 7 6 true
}

func ExampleParseHex32() {
	_, err := dice.ParseHex32("AA")
	fmt.Println(err)
	// Output:
	// invalid 32-byte hex value: 2 characters, want 64
}
