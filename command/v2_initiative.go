package command

// journal-dice-v2 initiative: the start of a combat (docs/rules.md 1.8).
//
// Invariants:
//   - A combat's start is one signed roll.request naming every participant
//     in roll order and those who spend their token on their initiative
//     (InitiativeAction). It is judged by the v1 combat start's rules
//     (initiativeSides) and recorded with one nonce per participant,
//     Nonces = [n, …, n+len-1], in that order; every initiative roll is
//     drawn at the reveal with the same r from its own nonce.
//   - The reveal records what the v1 combat start records, in one append:
//     every participant's initiative roll, in order, then the combat
//     started with its order, rolls and totals (combatStarted).
//   - Who may request it: the GM, or the player of a participant (the
//     request's acting character, checked by the permissions to be the
//     player's own, must be a participant). r from any device but the GM's
//     is fair for everyone: nobody who knows r knows K before the session
//     ends. A player spends only the tokens of the characters it plays.
//   - At most one initiative request is pending in a session, and none
//     while a healing after the last combat is pending (so that a healing
//     heals after the combat it was asked after).

import (
	"context"
	"slices"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rolls"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/rules/ryf"
	"github.com/campaign-journal/journal/signed"
)

// CommandCombatStart is the command of a combat start's action.
const CommandCombatStart = "combat-start"

// KindInitiative is the kind of a combat start's request.
const KindInitiative = "initiative"

// InitiativeAction is the action of a v2 combat start: the object in a
// roll.request's action whose command is "combat-start". Every member is
// written (Token as [] when nobody spends a token), and none other is
// accepted.
type InitiativeAction struct {
	Command        string   `json:"command"` // "combat-start"
	SeedCommitment string   `json:"seed_commitment"`
	Participants   []string `json:"participants"`
	Token          []string `json:"token"`
}

// ParseInitiativeAction reads a combat start's action strictly.
func ParseInitiativeAction(action []byte) (InitiativeAction, error) {
	var a InitiativeAction
	if err := parseExplicit(action, &a); err != nil {
		return a, err
	}
	if a.Command != CommandCombatStart {
		return a, invalid("action: command %q, want %q", clip.Text(a.Command), CommandCombatStart)
	}
	if a.Participants == nil || a.Token == nil {
		return a, invalid("action: a combat start writes its participants and its token list ([] for none)")
	}
	return a, nil
}

// requestInitiativeV2 records a combat start's signed request.
func (j *Handler) requestInitiativeV2(d *draft, s *projections.Session, msg RollRequestSigned, r *signed.Request) error {
	a, err := ParseInitiativeAction(r.Action)
	if err != nil {
		return err
	}
	if a.SeedCommitment != s.Commitment {
		return invalid("the request names seed commitment %q, session %s's is %s", clip.Text(a.SeedCommitment), s.ID, s.Commitment)
	}
	if msg.Character != "" && !slices.Contains(a.Participants, msg.Character) {
		return invalid("the request is for %s, who is not a participant of the combat it starts", msg.Character)
	}
	if d.campaign.System == SystemTOR {
		return msgerr.Errorf("%w: The One Ring combats", ErrV2NotWired)
	}
	sides, err := d.initiativeSides(CombatStart{Participants: a.Participants, Token: a.Token})
	if err != nil {
		return err
	}
	for _, id := range a.Token {
		if !j.playsSide(d, msg.Character, id) {
			return invalid("--token %s: a token is its player's to spend, not %s's", id, j.actor)
		}
	}
	for id, q := range s.Requests {
		if q.State == projections.RequestPending && q.Requested.Kind == KindInitiative {
			return invalid("a combat start is already requested (%s): reveal it, or the GM cancels it", id)
		}
		if q.State == projections.RequestPending && q.Requested.Kind == rolls.KindHeal {
			// The healing heals after the combat it was asked after.
			return invalid("%s's healing after the last combat is pending (%s): reveal it before the next combat, or the GM cancels it", q.Requested.Character, id)
		}
	}
	n := d.nonce
	nonces := make([]int, len(sides))
	for i := range nonces {
		nonces[i] = int(n) + i
	}
	d.add(events.KindCampaign, d.campaign.ID, events.TypeRollRequested, events.RollRequested{
		User: j.actor, Signed: msg.Signed, Signature: msg.Signature, Request: r.Request,
		Commitment: r.Commitment.String(), Nonce: n, Nonces: nonces,
		Character: a.Participants[0], Kind: KindInitiative,
		Participants: a.Participants, Tokens: a.Token,
	})
	d.nonce += uint64(len(sides))
	return nil
}

// drawInitiativeV2 draws every initiative roll of a combat start's request
// with src's r, and starts the combat.
func (d *draft) drawInitiativeV2(s *projections.Session, key dice.KeyV2, q events.RollRequested, src v2Source) error {
	nonces := q.Taken()
	if len(nonces) != len(q.Participants) {
		return invalid("request %s starts a combat of %d with %d nonces", q.Request, len(q.Participants), len(nonces))
	}
	sides, err := d.initiativeSides(CombatStart{Participants: q.Participants, Token: q.Tokens})
	if err != nil {
		return err
	}
	results := make([]ryf.Result, len(sides))
	ids := make([]string, len(sides))
	for i, side := range sides {
		rec := &sidesRecorder{r: key.Stream(d.campaign.ID, s.ID, nonces[i], src.R)}
		if results[i], err = ryf.Roll(side.check, rec); err != nil {
			return invalidOr(err)
		}
		e := rolls.FromRyF(d.campaign.System, results[i])
		e.Character, e.Nonce = side.ch.ID, nonces[i]
		src.stamp(&e, q.Request, rec.sides)
		ids[i] = d.add(events.KindCharacter, side.ch.ID, events.TypeRollMade, e)
	}
	d.add(events.KindCampaign, d.campaign.ID, events.TypeCombatStarted, combatStarted(sides, results, ids))
	return nil
}

// InitiativeActionFor is the action a device signs for req in the
// campaign's state now (it records nothing; the request is judged again
// when it is recorded). req.Entropy is not read.
func (j *Handler) InitiativeActionFor(ctx context.Context, campaign string, req CombatStart) (InitiativeAction, error) {
	camp, err := j.Current(ctx, campaign) // the cached fold, as the command will find it (current.go)
	if err != nil {
		return InitiativeAction{}, err
	}
	d := &draft{ctx: ctx, j: j, campaign: camp}
	s, err := d.openV2()
	if err != nil {
		return InitiativeAction{}, err
	}
	if _, err := d.initiativeSides(req); err != nil {
		return InitiativeAction{}, err
	}
	token := append([]string{}, req.Token...)
	return InitiativeAction{Command: CommandCombatStart, SeedCommitment: s.Commitment,
		Participants: append([]string{}, req.Participants...), Token: token}, nil
}
