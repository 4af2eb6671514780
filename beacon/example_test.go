package beacon_test

import (
	"encoding/hex"
	"fmt"
	"time"

	"github.com/campaign-journal/journal/beacon"
)

// A GM roll made when no player is online names the next quicknet round;
// once published, the round's signature verifies and gives the roll's r.
func ExampleChain_Verify() {
	c := beacon.Quicknet()
	requested := time.Date(2023, 8, 23, 15, 9, 27, 0, time.UTC) // quicknet's genesis
	round := c.NextRound(requested)
	fmt.Println("round", round, "at", c.TimeOf(round).Format(time.RFC3339))

	// Round 2 as https://api.drand.sh/52db9ba7…e971/public/2 serves it.
	sig, _ := hex.DecodeString("b6b6a585449b66eb12e875b64fcbab3799861a00e4dbf092d99e969a5eac57dd3f798acf61e705fe4f093db926626807")
	r, err := c.Verify(round, sig)
	fmt.Println(hex.EncodeToString(r[:]), err)
	_, err = c.Verify(round+1, sig)
	fmt.Println(err != nil)
	// Output:
	// round 2 at 2023-08-23T15:09:30Z
	// 5782d6987841c654515a0e72b2d1ebb4e741234042c37cb19608ae50d93fb60c <nil>
	// true
}
