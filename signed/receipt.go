package signed

// Receipt is a beacon.receipt: the device saw the GM's Request, pinned to
// a drand round, before that round was published (docs/design.md §3.3, "GM
// rolls"). A beacon roll that no player's device receipted before its
// round is flagged beacon-unseen: nobody but the host knew of the request
// while its randomness was unknown.
type Receipt struct {
	Header  `json:",inline"`
	Request string `json:"request"`
}

func (r *Receipt) check() error { return requireUUID("request", r.Request) }
