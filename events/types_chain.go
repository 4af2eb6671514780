package events

// The campaign chain's anchor (chain.go; docs/design.md §3.3 "One chain per
// campaign, from its first event").

// TypeChainAnchored is the type of ChainAnchored.
const TypeChainAnchored = "journal.chain.anchored.v1"

// ChainAnchored anchors the chain of a campaign whose earlier events are
// not all chained. With e_1 … e_n the campaign's events before the anchor,
// in stream order, and raw(e) the exact stored bytes of e (no line ending):
//
//	Hash   = hex(SHA-256(raw(e_1) || "\n" || raw(e_2) || "\n" || … || raw(e_n) || "\n"))
//	Events = n
//
// that is, the SHA-256 of those events' lines in an export of the campaign
// (each line its event's stored bytes and one 0x0a byte), lower-case hex.
// The anchor's own prevhash is the hash of raw(e_n), as for any event.
// An AnchorHash computes it.
type ChainAnchored struct {
	Hash   string `json:"hash"`
	Events int    `json:"events"`
}
