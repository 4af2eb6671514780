package events

import "sync"

// OncePerForeign returns a Query.OnForeign that calls warn once per
// message (by its sequence), however many reads pass it, and lets the
// read go on past it. It is safe for concurrent reads.
func OncePerForeign(warn func(Foreign)) func(Foreign) error {
	var mu sync.Mutex
	warned := map[uint64]bool{}
	return func(f Foreign) error {
		mu.Lock()
		defer mu.Unlock()
		if !warned[f.Seq] {
			warned[f.Seq] = true
			warn(f)
		}
		return nil
	}
}
