package events

// journal-dice-v2 GM rolls from precommitted witness chains (docs/design.md
// §3.3, "GM rolls: precommitted witnesses, combined"): each contributing
// player device's witness value for a GM request is recorded as it
// arrives, and the roll is made from all of them; a device that saw a
// beacon request before its round records a receipt of it.
const (
	TypeRollWitnessed = "journal.roll.witnessed.v1"
	TypeRollReceipted = "journal.roll.receipted.v1"
)

// RollWitnessed records one contributing player device's signed
// roll.witness for a GM's request in a session of witness chains: Index
// is the request's witness index j (RollRequested.WitnessIndex) and Value
// the device's w_j (lower-case hex), which hashes j times to the anchor
// of User's contribution. One per device and request; when every
// contributing device's value is in, the roll is made in the same append.
type RollWitnessed struct {
	User      string `json:"user"`
	Request   string `json:"request"`
	Index     int    `json:"index"`
	Value     string `json:"value"`
	Signed    string `json:"signed"`
	Signature string `json:"signature"`
}

// RollReceipted records a player device's signed beacon.receipt of a GM's
// request pinned to a drand round, sent before that round's time: someone
// besides the host knew of the request while its randomness was unknown.
type RollReceipted struct {
	User      string `json:"user"`
	Request   string `json:"request"`
	Signed    string `json:"signed"`
	Signature string `json:"signature"`
}

// GMWitness is one device's witness value in a GM roll of witness chains
// (RollMade.Witnesses): its user and w_j (lower-case hex).
type GMWitness struct {
	User  string `json:"user"`
	Value string `json:"value"`
}
