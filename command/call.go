package command

import (
	"encoding/json"
	"fmt"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// Call is everything one command knows about who runs it and how: the
// per-call half of a handler (For), the other half being what every call
// shares (the store, the clock, the cache of folded campaigns).
//
// Invariants: a view's whole call is set at once, by For, from a Call:
// no field of one call carries over into another's (For on a view
// replaces its call, it never inherits from it), so that a request id,
// say, cannot be lost by setting the actor after it. A Call For refuses
// (Valid) gives no view, and so records nothing.
type Call struct {
	// Actor is recorded as who issued each event; "" is the handler's own
	// actor (Options.Actor, "gm" by default).
	Actor string
	// RequestID is the client's id of this one command, or "" (see
	// Idempotent commands in request.go; events.ValidRequestID: 1 to 64
	// letters, digits, '-', '_', '.' or ':').
	RequestID string
	// Command is the command's name in the command catalogue (package
	// command/catalog), recorded as the command attribute of every event
	// the call records (events.ValidCommand), so that a reproduction
	// knows which command made them; "" records none.
	Command string
	// What and Args are what the command is, as a retry under RequestID
	// must name it again: the name What (Command when empty) and the
	// arguments Args, encoded as JSON, are part of what the events' ids
	// derive from. Another command under the same request id is refused
	// (ErrRequestReused). Both empty: the request id alone. Without a
	// request id they are not used.
	What string
	Args any
	// GM: the caller authenticated the actor as the campaign's GM (the
	// web's or NATS's access role): it may roll in secret, as the GM
	// identity "gm" and a user registered with the role gm may (isGM).
	GM bool
	// Player: the caller authenticated the actor as a player: it is never
	// the campaign's GM here (isGM), whatever keys or names say, and may
	// not bootstrap the GM's key.
	Player bool
}

// ErrBothRoles marks a Call that says its actor is both the campaign's
// GM and a player. It wraps ErrInvalid.
var ErrBothRoles = msgerr.Errorf("%w: a call is either the GM's or a player's, not both", ErrInvalid)

// Valid reports what is wrong with c, as an error wrapping ErrInvalid:
// a malformed request id or command name, or both roles at once. A
// Call naming its actor alone is always valid.
func (c Call) Valid() error {
	if c.RequestID != "" {
		if err := events.ValidRequestID(c.RequestID); err != nil {
			return msgerr.Errorf("%w: %w", ErrInvalid, err)
		}
	}
	if c.Command != "" {
		if err := events.ValidCommand(c.Command); err != nil {
			return msgerr.Errorf("%w: %w", ErrInvalid, err)
		}
	}
	if c.GM && c.Player {
		return ErrBothRoles
	}
	return nil
}

// fingerprint is what the call's command is, as its event ids derive
// from it under a request id: "" without one, or without What and Args.
func (c Call) fingerprint() string {
	if c.RequestID == "" || c.What == "" && c.Args == nil {
		return ""
	}
	name := c.What
	if name == "" {
		name = c.Command
	}
	b, err := json.Marshal(c.Args)
	if err != nil {
		b = []byte(fmt.Sprintf("%#v", c.Args))
	}
	return name + " " + string(b)
}

// For returns the handler's view for one call c: the store and the cache of
// folded campaigns are shared, every per-call field is c's (and none is
// the receiver's), so that For on a view is For on the handler it views.
// A call Valid refuses returns its error and no view.
func (j *Handler) For(c Call) (*Handler, error) {
	if err := c.Valid(); err != nil {
		return nil, err
	}
	actor := c.Actor
	if actor == "" {
		actor = j.defaultActor
	}
	return &Handler{shared: j.shared, actor: actor, request: c.RequestID, command: c.fingerprint(), name: c.Command,
		gm: c.GM, player: c.Player}, nil
}

// Actor is who the view's events record as issuing them: its call's actor,
// or the handler's default. A view's actor never changes, so a command a
// long-running process makes on a view (a follower's witness) is its
// start's user whatever the environment or identity file say later.
func (j *Handler) Actor() string { return j.actor }

// MustFor is For for a call known to be valid (its fields constants, or
// checked by Valid): it panics if For refuses c. Tests, the demo and the
// benchmarks use it.
func (j *Handler) MustFor(c Call) *Handler {
	v, err := j.For(c)
	if err != nil {
		panic(err)
	}
	return v
}
