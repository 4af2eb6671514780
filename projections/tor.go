package projections

import "github.com/campaign-journal/journal/events"

// TORState is the state of a The One Ring campaign.
type TORState struct{}

func newTORState() *TORState { return &TORState{} }

// applyTOR folds The One Ring's events.
func (c *Campaign) applyTOR(rec events.Recorded, data any) {}

// describeTOR is the transcript line of a The One Ring event.
func describeTOR(c *Campaign, ev events.Event, data any) (string, bool) { return "", false }
