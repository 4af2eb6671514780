package command

import (
	"context"
	"errors"
	"strings"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// errFound stops a scan once the event sought is found.
var errFound = msgerr.New("found")

// Void records that an event of the campaign was a mistake. Every void of a
// campaign is on journal.<campaign>.campaign.<campaign>.voided, so that a
// fold can read them first. The event stays
// in the stream; projections leave it out. A voided roll keeps its nonce.
// The campaign's creation, sessions and voids themselves cannot be voided.
func (j *Handler) Void(ctx context.Context, campaign, eventID, reason string) (Result, error) {
	return j.voidWith(ctx, campaign, eventID, reason, nil)
}

// voidWith is Void with, for a v2 roll, its roller's signed consent
// (v2_void.go; nil: none).
func (j *Handler) voidWith(ctx context.Context, campaign, eventID, reason string, consent *SignedMessage) (Result, error) {
	reason = strings.TrimSpace(reason)
	if reason == "" {
		return Result{}, invalid("a void needs a reason")
	}
	if err := checkField("reason", reason); err != nil {
		return Result{}, err
	}
	filter, err := events.CampaignFilter(campaign)
	if err != nil {
		return Result{}, invalid("campaign %q: %v", clip.Text(campaign), err)
	}
	var target events.Event
	err = j.store.Read(ctx, events.Query{Subject: filter}, func(r events.Recorded) error {
		if r.Event.ID == eventID {
			target = r.Event
			return errFound
		}
		return nil
	})
	if err != nil && !errors.Is(err, errFound) {
		return Result{}, err
	}
	if target.ID == "" {
		return Result{}, notFound("no event %s in campaign %s", eventID, campaign)
	}
	switch target.Type {
	case events.TypeCampaignCreated, events.TypeSessionStarted, events.TypeSessionEnded, events.TypeEventVoided:
		return Result{}, invalid("event %s (%s) cannot be voided", eventID, target.Type)
	}
	return j.execute(ctx, campaign, func(d *draft) error {
		if err := requireCampaign(d.campaign); err != nil {
			return err
		}
		if why, done := d.campaign.Voided[eventID]; done {
			return invalid("event %s is already voided (%s)", eventID, why)
		}
		voided := events.EventVoided{EventID: eventID, Reason: reason}
		if consent != nil {
			if err := d.voidConsent(target, reason, *consent, &voided); err != nil {
				return err
			}
		}
		d.add(events.KindCampaign, campaign, events.TypeEventVoided, voided)
		return nil
	})
}
