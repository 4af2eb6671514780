package command

import (
	"context"
	"encoding/json"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/projections"
)

// Current returns a copy of campaign's state as the journal's next command
// on it will find it: the journal's cached fold, caught up with the stream
// (a load the first time, from the campaign's checkpoint when it has a
// usable one; then only the events recorded since). The copy is the
// caller's to read and to fold into (a transcript of what the next command
// records, on the state before it); the cache is not.
//
// A client that looks at a campaign before it runs a command on it (the
// CLI: is the session journal-dice-v2, what was the state before the
// command, to describe what it recorded) folds the campaign once this way:
// the command then decides on the cached fold without reading it again,
// and reads back only the events it appended. An empty state (System "")
// is a campaign the journal does not have.
func (j *Handler) Current(ctx context.Context, campaign string) (*projections.Campaign, error) {
	if _, err := events.CampaignFilter(campaign); err != nil {
		return nil, invalid("campaign %q: %v", clip.Text(campaign), err)
	}
	s := j.state(campaign)
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := j.catchUp(ctx, campaign, s)
	if err != nil {
		return nil, err
	}
	return cloneCampaign(c)
}

// cloneCampaign returns a deep copy of c: its JSON, decoded as a
// checkpoint's state is (the same round trip, which TestCheckpointEqualsRefold
// holds equal to the fold).
func cloneCampaign(c *projections.Campaign) (*projections.Campaign, error) {
	b, err := json.Marshal(c)
	if err != nil {
		return nil, err
	}
	out := &projections.Campaign{}
	if err := json.Unmarshal(b, out); err != nil {
		return nil, err
	}
	return lazyMaps(projections.Normalize(out)), nil
}
