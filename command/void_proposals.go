package command

// Void proposals (docs/design.md §3.2, §6): the GM proposes to void a
// journal-dice-v2 roll, asking its roller's consent; the roller's device
// signs a void.consent, recorded with the proposal until the void carries
// it (v2_void.go checks it again then).
//
// Invariants:
//   - A proposal names a roll event of a v2 session that names its roller
//     (the user who requested it), not voided and not proposed already;
//     its reason is the void's to be. At most MaxOpenVoidProposals are open.
//     Its id is "void-N", N counting the campaign's proposals from 1.
//   - Only the roller adds a consent, and only one that opens under one of
//     the roller's active devices for the roll's campaign and session and
//     names the proposal's event and reason exactly.
//   - A proposal ends with its event's void. Only the GM proposes (the
//     catalogue's role).

import (
	"context"
	"errors"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/signed"
)

// MaxOpenVoidProposals bounds the open void proposals of a campaign.
const MaxOpenVoidProposals = 64

// VoidPropose is the GM's proposal to void a v2 roll.
type VoidPropose struct {
	EventID string `json:"event_id" cli:"EVENT" resolve:"event"`
	Reason  string `json:"reason" cli:"--reason R" help:"why the roll would be voided (the roller consents to this reason)"`
}

// VoidConsent is a roller's signed void.consent for a proposal.
// Character, over HTTP and NATS, is the roll's character (the
// permissions' acting character).
type VoidConsent struct {
	Character string `json:"character" cli:"-"` // the CLI's: the proposal's
	Proposal  string `json:"proposal" cli:"PROPOSAL"`
	SignedMessage
}

// ProposeVoid records a void proposal (journal.void.proposed.v1).
func (j *Handler) ProposeVoid(ctx context.Context, campaign string, req VoidPropose) (Result, error) {
	if err := events.ValidID(req.EventID); err != nil {
		return Result{}, invalid("event_id %q: %v", clip.Text(req.EventID), err)
	}
	if req.Reason == "" || len(req.Reason) > signed.MaxReasonLen {
		return Result{}, invalid("reason: write one, at most %d bytes", signed.MaxReasonLen)
	}
	filter, err := events.CampaignFilter(campaign)
	if err != nil {
		return Result{}, invalid("campaign %q: %v", clip.Text(campaign), err)
	}
	var target events.Event
	err = j.store.Read(ctx, events.Query{Subject: filter}, func(r events.Recorded) error {
		if r.Event.ID == req.EventID {
			target = r.Event
			return errFound
		}
		return nil
	})
	if err != nil && !errors.Is(err, errFound) {
		return Result{}, err
	}
	if target.ID == "" {
		return Result{}, notFound("no event %s in campaign %s", req.EventID, campaign)
	}
	if target.Type != events.TypeRollMade {
		return Result{}, invalid("event %s is a %s: a roller consents to the void of a journal-dice-v2 roll only", target.ID, target.Type)
	}
	var roll events.RollMade
	if err := target.DecodeData(&roll); err != nil {
		return Result{}, err
	}
	return j.execute(ctx, campaign, func(d *draft) error {
		if err := requireCampaign(d.campaign); err != nil {
			return err
		}
		sess := d.campaign.Session(target.Session)
		if sess == nil || !sess.V2() {
			return invalid("roll %s is not of a journal-dice-v2 session: its void takes no consent", target.ID)
		}
		if _, done := d.campaign.Voided[target.ID]; done {
			return invalid("roll %s is already voided", target.ID)
		}
		roller := roll.User
		if q := sess.Requests[roll.Request]; q != nil {
			roller = q.Requested.User // the requester, whoever gave r
		}
		if roller == "" {
			return invalid("roll %s names no roller: its void takes no consent", target.ID)
		}
		for _, o := range d.campaign.VoidProposals {
			if o.EventID == target.ID {
				return msgerr.Errorf("%w: roll %s is already proposed for a void (%s)", events.ErrExists, target.ID, o.ID)
			}
		}
		if len(d.campaign.VoidProposals) >= MaxOpenVoidProposals {
			return invalid("%d void proposals are open: void or let some go first", MaxOpenVoidProposals)
		}
		d.add(events.KindCampaign, campaign, events.TypeVoidProposed, events.VoidProposed{
			Proposal: projections.ProposalID(d.campaign.VoidsProposed + 1), EventID: target.ID, Reason: req.Reason,
			Session: target.Session, Character: roll.Character, Roller: roller, By: j.actor})
		return nil
	})
}

// ConsentVoid records the roller's signed consent to an open proposal
// (journal.void.consented.v1).
func (j *Handler) ConsentVoid(ctx context.Context, campaign string, req VoidConsent) (Result, error) {
	return j.execute(ctx, campaign, func(d *draft) error {
		if err := requireCampaign(d.campaign); err != nil {
			return err
		}
		p := d.campaign.OpenVoidProposal(req.Proposal)
		if p == nil {
			return notFound("no open void proposal %s in campaign %s", clip.Text(req.Proposal), campaign)
		}
		if req.Character != "" && req.Character != p.Character {
			return invalid("void proposal %s is of %s's roll, not %s's", p.ID, p.Character, clip.Text(req.Character))
		}
		if j.actor != p.Roller {
			return msgerr.Errorf("%w: roll %s is %s's: only its roller consents to its void, not %s", events.ErrDenied, p.EventID, p.Roller, j.actor)
		}
		if p.ConsentSigned != "" {
			return invalid("void proposal %s has its roller's consent already", p.ID)
		}
		c, err := signedAs[*signed.VoidConsent](d, p.Roller, req.SignedMessage, p.Session, signed.TypeVoidConsent)
		if err != nil {
			return err
		}
		switch {
		case c.Event != p.EventID:
			return invalid("the consent is for event %s, not %s", c.Event, p.EventID)
		case c.Reason != p.Reason:
			return invalid("the consent's reason %q is not the proposal's %q", clip.Text(c.Reason), clip.Text(p.Reason))
		}
		d.add(events.KindCampaign, campaign, events.TypeVoidConsented, events.VoidConsented{
			Proposal: p.ID, EventID: p.EventID, User: p.Roller, Signed: req.Signed, Signature: req.Signature})
		return nil
	})
}
