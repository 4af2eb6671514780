package projections

import (
	"github.com/campaign-journal/journal/events"
)

// Fold folds recorded events of one campaign, in stream order, into a fresh
// campaign state. Events after upTo (a stream sequence; 0 means all) are left
// out: the state as of that point.
//
// Voids are honoured wherever they stand: a voided event leaves no trace in
// the state, even when the void comes after it (and before upTo).
func Fold(campaign string, recs []events.Recorded, upTo uint64) (*Campaign, error) {
	c := NewCampaign(campaign)
	voids := map[string]string{}
	for _, r := range recs {
		if upTo != 0 && r.Seq > upTo {
			break
		}
		if r.Event.Type == events.TypeEventVoided {
			var v events.EventVoided
			if err := r.Event.DecodeData(&v); err != nil {
				return nil, err
			}
			voids[v.EventID] = v.Reason
		}
	}
	c.KnowVoids(voids)
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
