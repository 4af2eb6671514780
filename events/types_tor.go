package events

// The One Ring event types (system "tor"). See types.go for the rules of
// event types.
const ()

// torDataFor is dataFor for The One Ring's event types.
func torDataFor(eventType string) (any, bool) {
	switch eventType {
	}
	return nil, false
}
