package replay

import (
	"context"
	"strings"

	"github.com/campaign-journal/journal/events"
	clipt "github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/rules/dice"
)

// ParseSeeds reads an audit's --seed values: SESSION=HEX (or
// CAMPAIGN/SESSION=HEX), or a bare HEX, which belongs to session when
// given and is otherwise returned (bare) for the caller to place. Every
// seed must parse (dice.ParseSeed); two bare seeds without a session are
// refused.
func ParseSeeds(vals []string, session string) (seeds map[string]string, bare string, err error) {
	out := map[string]string{}
	for _, v := range vals {
		key, text, ok := strings.Cut(v, "=")
		if !ok {
			key, text = session, v
		}
		text = strings.TrimSpace(text)
		if _, err := dice.ParseSeed(text); err != nil {
			return nil, "", msgerr.Errorf("--seed %q: %v", clipt.Text(v), err)
		}
		key = strings.TrimSpace(key)
		if key == "" {
			if bare != "" {
				return nil, "", msgerr.Errorf("--seed: two seeds without a session: give them as SESSION=HEX")
			}
			bare = text
			continue
		}
		out[key] = text
	}
	return out, bare, nil
}

// Unrevealed lists the sessions (campaign/session) of src started and not
// ended, in the order they started; campaign "" takes every campaign.
func Unrevealed(ctx context.Context, src Source, campaign string) ([]string, error) {
	var order []string
	open := map[string]bool{}
	err := src(ctx, EventsOnly(func(r events.Recorded) error {
		e := r.Event
		if campaign != "" && e.Campaign != campaign {
			return nil
		}
		k := e.Campaign + "/" + e.Session
		switch e.Type {
		case events.TypeSessionStarted:
			if _, seen := open[k]; !seen {
				order = append(order, k)
			}
			open[k] = true
		case events.TypeSessionEnded:
			open[k] = false
		}
		return nil
	}))
	var out []string
	for _, k := range order {
		if open[k] {
			out = append(out, k)
		}
	}
	return out, err
}
