package reproduce

import (
	"context"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/command/catalog"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// The mapping from recorded events back to the command that recorded
// them. Every event a catalogued command records names it (the envelope's
// command attribute): the reproduction looks it up in the catalogue, which
// finds the command's inputs again in its events (catalog.Spec.Inputs)
// and re-runs it with them. Events recorded before the attribute are
// guessed (guess.go).

// commandFunc re-runs one command on the fresh journal j, for call
// (command.Handler.For: the recorded actor).
type commandFunc func(ctx context.Context, j *command.Handler, call command.Call, campaign string) (command.Result, error)

// groupSize returns how many consecutive events from i one command
// recorded. Events that name their command: those that name the same
// command, with the same actor, request id and time (one command is one
// atomic append, stamped once, and the journal's clock moves between
// commands). Others: as guessGroupSize guesses.
func groupSize(evs []rec, i int) int {
	first := evs[i].Event
	if first.Command == "" {
		return guessGroupSize(evs, i)
	}
	n := 1
	for k := i + 1; k < len(evs); k++ {
		e := evs[k].Event
		if e.Command != first.Command || e.Actor != first.Actor || e.RequestID != first.RequestID ||
			e.Campaign != first.Campaign || !e.Time.Equal(first.Time) {
			break
		}
		n++
	}
	return n
}

// commandOf maps a group of recorded events back to the command that
// produced it, with the recorded inputs, and names it: by the catalogue,
// when the events name their command, else by guessing.
func (r *reproducer) commandOf(ctx context.Context, g []rec) (commandFunc, string, error) {
	name := g[0].Event.Command
	if name == "" {
		return r.guess(ctx, g)
	}
	spec, ok := catalog.Lookup(name)
	if !ok {
		return nil, "", msgerr.Errorf("command %q is not in the catalogue", name)
	}
	return r.catalogued(ctx, spec, g)
}

// catalogued finds the inputs of the catalogued command spec in the
// events g it recorded, and re-runs it with them, through the catalogue
// (as the HTTP API and the NATS service run it).
func (r *reproducer) catalogued(ctx context.Context, spec catalog.Spec, g []rec) (commandFunc, string, error) {
	recorded := make([]events.Event, len(g))
	for i, x := range g {
		recorded[i] = x.Event
	}
	campaign := g[0].Event.Campaign
	body, err := spec.Inputs(ctx, r.j, campaign, recorded)
	if err != nil {
		return nil, "", err
	}
	return func(ctx context.Context, j *command.Handler, call command.Call, campaign string) (command.Result, error) {
		return spec.Run(ctx, j, call, campaign, body)
	}, spec.Name + " " + string(body), nil
}
