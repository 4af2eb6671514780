package main

import "github.com/campaign-journal/journal/events"

// warnForeign returns an events.Query.OnForeign that warns on stderr, once
// per message however many reads pass it, of a message of the stream that
// is not a journal event, and lets the read go on past it.
func (a *app) warnForeign() func(events.Foreign) error {
	return events.OncePerForeign(func(f events.Foreign) {
		a.warnf("warning: skipped %v (published past the journal's commands)", f)
	})
}
