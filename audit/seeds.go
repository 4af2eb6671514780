package audit

import (
	"context"
	"strings"

	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/replay"
)

// Seeds reads --seed values for a verification (replay.ParseSeeds); a
// bare HEX without --session goes to the one session of src not yet
// revealed (of campaign, or of every campaign when campaign is "").
func Seeds(ctx context.Context, src replay.Source, vals []string, session, campaign string) (map[string]string, error) {
	seeds, bare, err := replay.ParseSeeds(vals, session)
	if err != nil || bare == "" {
		return seeds, err
	}
	open, err := replay.Unrevealed(ctx, src, campaign)
	if err != nil {
		return nil, err
	}
	if len(open) != 1 {
		return nil, msgerr.Errorf("--seed HEX: %d sessions are not yet revealed (%s): name one with --session S or --seed SESSION=HEX",
			len(open), strings.Join(open, ", "))
	}
	seeds[open[0]] = bare
	return seeds, nil
}

// Explain explains the roll id of src (replay.ExplainEvent) with the
// --seed values given (replay.ParseSeeds): a bare HEX is the seed of the
// roll's session when src does not reveal it.
func Explain(ctx context.Context, src replay.Source, id string, vals []string) (replay.Explanation, error) {
	given, bare, err := replay.ParseSeeds(vals, "")
	if err != nil {
		return replay.Explanation{}, err
	}
	x, err := replay.ExplainEvent(ctx, src, id, given)
	if err == nil && bare != "" && x.Seed == "" {
		given[x.Campaign+"/"+x.Session] = bare
		x, err = replay.ExplainEvent(ctx, src, id, given)
	}
	return x, err
}
