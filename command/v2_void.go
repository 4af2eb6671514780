package command

// The void of a journal-dice-v2 roll may carry its roller's consent
// (docs/design.md §3.2): a signed void.consent {event, reason} from the
// roller's device, so that the audit can tell a roll its roller agreed to
// void from one the GM voided alone (both are flagged; only the first says
// "consented").
//
// Invariants: a consent is recorded only with the void of a v2 roll (a
// roll event of a journal-dice-v2 session that names its roller), signed
// under the key registered now for that roller, for the roll's campaign
// and session, naming the voided event and the void's reason exactly.

import (
	"context"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/signed"
)

// VoidRequest is a VoidWithConsent: the event, why, and (journal-dice-v2)
// the roller's signed void.consent, if any.
type VoidRequest struct {
	EventID          string `json:"event_id" cli:"EVENT" resolve:"event"`
	Reason           string `json:"reason" cli:"--reason R" help:"why the event is voided"`
	ConsentSigned    string `json:"consent_signed,omitempty" cli:"--consent-signed S" help:"journal-dice-v2: the roller's signed void.consent, as 'journal key consent' printed it"`
	ConsentSignature string `json:"consent_signature,omitempty" cli:"--consent-signature SIG" help:"its signature"`
}

// VoidWithConsent is Void of a v2 roll with its roller's signed
// void.consent (consent.Signed empty: no consent, as Void).
func (j *Handler) VoidWithConsent(ctx context.Context, campaign, eventID, reason string, consent SignedMessage) (Result, error) {
	if consent.Signed == "" && consent.Signature == "" {
		return j.Void(ctx, campaign, eventID, reason)
	}
	return j.voidWith(ctx, campaign, eventID, reason, &consent)
}

// voidConsent checks the roller's consent to void target and sets it on v.
func (d *draft) voidConsent(target events.Event, reason string, consent SignedMessage, v *events.EventVoided) error {
	if target.Type != events.TypeRollMade {
		return invalid("event %s is a %s: a consent is for the void of a journal-dice-v2 roll", target.ID, target.Type)
	}
	s := d.campaign.Session(target.Session)
	if !s.V2() {
		return invalid("roll %s is not of a journal-dice-v2 session: its void takes no consent", target.ID)
	}
	var roll events.RollMade
	if err := target.DecodeData(&roll); err != nil {
		return err
	}
	roller := roll.User
	if p := s.Requests[roll.Request]; p != nil {
		roller = p.Requested.User // the requester, whoever gave r
	}
	if roller == "" {
		return invalid("roll %s names no roller: its void takes no consent", target.ID)
	}
	c, err := signedAs[*signed.VoidConsent](d, roller, consent, s.ID, signed.TypeVoidConsent)
	if err != nil {
		return err
	}
	if c.Event != target.ID {
		return invalid("the consent is for event %s, not %s", c.Event, target.ID)
	}
	if c.Reason != reason {
		return invalid("the consent's reason %q is not the void's %q", clip.Text(c.Reason), clip.Text(reason))
	}
	v.ConsentUser, v.ConsentSigned, v.ConsentSignature = roller, consent.Signed, consent.Signature
	return nil
}
