package dice_test

import (
	"fmt"

	"github.com/campaign-journal/journal/rules/dice"
)

// The byte stream of one roll, from the test-vector seed 0x00..0x1f.
func ExampleNewStream() {
	var seed dice.Seed
	for i := range seed {
		seed[i] = byte(i)
	}
	fmt.Println(seed.Commitment())
	s := dice.NewStream(seed, "camp-1", "sess-1", 0, "")
	a, _ := s.Roll(10)
	b, _ := s.Roll(10)
	c, _ := s.Roll(10)
	fmt.Println(a, b, c)
	// Output:
	// 630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd
	// 5 9 5
}

// Fixed faces stand in for the stream when a rule is tested with the faces
// of a rule text's example.
func ExampleNewFaces() {
	r := dice.NewFaces(3, 10, 10)
	a, _ := r.Roll(10)
	b, _ := r.Roll(10)
	c, _ := r.Roll(10)
	_, err := r.Roll(10)
	fmt.Println(a, b, c)
	fmt.Println(err)
	// Output:
	// 3 10 10
	// dice source exhausted: no face left for d10 after 3 faces
}
