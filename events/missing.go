package events

// Missing is what one of a store's streams says it does not hold on a
// filter, which no read shows (jetstore.Store.Missing): the journal's
// streams deny delete and purge, so a message missing from one was lost —
// its files edited or damaged on disk, and the server dropped it.
type Missing struct {
	Stream string `json:"stream"`
	// Deleted counts the sequences between the stream's first and last
	// that hold no message (the server counts them as deleted: a message
	// deleted, or left out when it rebuilt the stream's state from damaged
	// files); DeletedSeqs lists the first MaxListed.
	Deleted     uint64   `json:"deleted"`
	DeletedSeqs []uint64 `json:"deleted_seqs,omitempty"`
	// Lost counts the messages the server found damaged in the stream's
	// files and dropped (its state's lost data); LostSeqs lists the first
	// MaxListed.
	Lost     uint64   `json:"lost"`
	LostSeqs []uint64 `json:"lost_seqs,omitempty"`
	// Count is how many messages the server counts on the filter up to
	// Last, the last sequence on the filter: a read of the filter up to
	// Last that gets fewer (events and foreign messages together) misses
	// messages the server counts but no longer gives (a message damaged
	// in its files since the stream's state was saved).
	Count uint64 `json:"count"`
	Last  uint64 `json:"last"`
}

// MaxListed is how many sequences Missing lists of each kind.
const MaxListed = 20

// Any reports whether the stream says it lost messages (deleted or lost).
func (m Missing) Any() bool { return m.Deleted > 0 || m.Lost > 0 }
