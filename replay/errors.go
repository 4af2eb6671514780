package replay

import (
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// Errors callers check with errors.Is.
var (
	// ErrMalformed is returned for input that is not a readable export: a
	// line that is not a valid event (also wrapping events.ErrInvalidEvent)
	// or a line longer than events.MaxSize.
	ErrMalformed = msgerr.New("malformed export")
	// ErrInvalidOptions is returned for options that cannot be used, such as
	// a given seed that is not 64 hex digits.
	ErrInvalidOptions = msgerr.New("invalid replay options")
	// ErrNotFound is returned when an event asked for is not in the input.
	// It is events.ErrNotFound.
	ErrNotFound = events.ErrNotFound
	// ErrNotRoll is returned when Explain is given an event that is not a roll.
	ErrNotRoll = msgerr.New("not a roll event")
)
