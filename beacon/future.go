package beacon

import "time"

// IsFuture reports whether round was not yet published at t: only such a
// round may be named by a request recorded at t, so that nobody (the GM
// included) knew its randomness when the request was fixed.
func (c *Chain) IsFuture(round uint64, t time.Time) bool { return round > c.RoundAt(t) }
