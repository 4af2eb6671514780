package projections

import (
	"github.com/campaign-journal/journal/events"
)

// Fold folds recorded events of one campaign, in stream order, into a fresh
// campaign state. Events after upTo (a stream sequence; 0 means all) are left
// out: the state as of that point.
func Fold(campaign string, recs []events.Recorded, upTo uint64) (*Campaign, error) {
	c := NewCampaign(campaign)
	for _, r := range recs {
		if upTo != 0 && r.Seq > upTo {
			break
		}
		if err := c.Apply(r); err != nil {
			return nil, err
		}
	}
	return c, nil
}
