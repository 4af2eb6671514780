package command

// journal-dice-v2 free rolls and the GM's secret free rolls (free.go,
// docs/design.md §3.4).
//
// Invariants:
//   - A free roll's signed roll.request names its dice expression as the
//     journal writes it (dice.Expr.String), the character ("" for the
//     GM's roll for none), the note and whether it is secret; it takes one
//     nonce. A player's request has a commitment, the GM's is witnessed
//     (v2_witness.go), as every v2 roll.
//   - Its draw takes the expression's dice from StreamV2(K, campaign,
//     session, nonce, r) in order. A secret one records a roll.hidden
//     with r and its source and no outcome; its reveal (Reveal, or
//     EndSession for every one left) draws the same stream again.

import (
	"context"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rolls"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/signed"
)

// CommandFreeRoll is the command of a free roll's action.
const CommandFreeRoll = "free-roll"

// FreeRollAction is the action of a v2 free roll: the object in a
// roll.request's action whose command is "free-roll". Every member is
// written, and none other is accepted.
type FreeRollAction struct {
	Command        string `json:"command"` // "free-roll"
	SeedCommitment string `json:"seed_commitment"`
	Character      string `json:"character"`
	Dice           string `json:"dice"`
	Note           string `json:"note"`
	Secret         bool   `json:"secret"`
}

// ParseFreeRollAction reads a free roll's action strictly.
func ParseFreeRollAction(action []byte) (FreeRollAction, error) {
	var a FreeRollAction
	if err := parseExplicit(action, &a); err != nil {
		return a, err
	}
	if a.Command != CommandFreeRoll {
		return a, invalid("action: command %q, want %q", clip.Text(a.Command), CommandFreeRoll)
	}
	return a, nil
}

// FreeRollActionFor is the action a device signs for req in the open v2
// session: the expression as the journal writes it, every input written.
func (j *Handler) FreeRollActionFor(ctx context.Context, campaign string, req FreeRollRequest) (FreeRollAction, error) {
	camp, err := j.Current(ctx, campaign) // the cached fold, as the command will find it (current.go)
	if err != nil {
		return FreeRollAction{}, err
	}
	d := &draft{ctx: ctx, j: j, campaign: camp}
	s, err := d.openV2()
	if err != nil {
		return FreeRollAction{}, err
	}
	x, err := d.checkFree(req)
	if err != nil {
		return FreeRollAction{}, err
	}
	return FreeRollAction{Command: CommandFreeRoll, SeedCommitment: s.Commitment, Character: req.Character,
		Dice: x.String(), Note: req.Note, Secret: req.Secret}, nil
}

// requestFreeV2 records a free roll's signed request.
func (j *Handler) requestFreeV2(d *draft, s *projections.Session, msg RollRequestSigned, r *signed.Request) error {
	a, err := ParseFreeRollAction(r.Action)
	if err != nil {
		return err
	}
	if err := checkScope(s, msg, a.SeedCommitment, a.Character); err != nil {
		return err
	}
	x, err := d.checkFree(FreeRollRequest{Character: a.Character, Dice: a.Dice, Note: a.Note, Secret: a.Secret})
	if err != nil {
		return err
	}
	if x.String() != a.Dice {
		return invalid("action: dice %q: write it as the journal does, %q", clip.Text(a.Dice), x.String())
	}
	d.add(events.KindCharacter, freeAggregate(a.Character), events.TypeRollRequested, events.RollRequested{
		User: j.actor, Signed: msg.Signed, Signature: msg.Signature, Request: r.Request,
		Commitment: r.Commitment.String(), Nonce: d.nonce, Character: a.Character, Kind: rolls.KindFree,
		Dice: a.Dice, Note: a.Note, Secret: a.Secret,
	})
	d.nonce++
	return nil
}

// drawFreeV2 draws a free roll's request with src's r: its roll, or for a
// secret one its hidden record.
func (d *draft) drawFreeV2(s *projections.Session, key dice.KeyV2, q events.RollRequested, src v2Source) error {
	e, err := drawFree(d.campaign, s, key, q.Nonce, q.Dice, src.R)
	if err != nil {
		return err
	}
	e.Character, e.Nonce, e.Note = q.Character, q.Nonce, q.Note
	src.stamp(&e, q.Request, e.Draws)
	d.addRoll(freeAggregate(q.Character), e, q.Secret)
	return nil
}

// drawFree draws expression text from the v2 stream of nonce and r.
func drawFree(c *projections.Campaign, s *projections.Session, key dice.KeyV2, nonce uint64, text string, r [32]byte) (events.RollMade, error) {
	x, err := rolls.FreeExpr(text)
	if err != nil {
		return events.RollMade{}, invalidOr(err)
	}
	rec := &sidesRecorder{r: key.Stream(c.ID, s.ID, nonce, r)}
	faces, total, err := x.Roll(rec)
	if err != nil {
		return events.RollMade{}, invalidOr(err)
	}
	e := rolls.FromFree(c.System, x, faces, total)
	e.Draws = rec.sides
	return e, nil
}

// unhideV2 draws the roll a v2 hidden event's reveal records, from the
// session key and the r it recorded.
func (j *Handler) unhideV2(ctx context.Context, c *projections.Campaign, s *projections.Session, h *projections.HiddenRoll) (events.RollMade, error) {
	in := h.Hidden.Inputs()
	if in.Kind != rolls.KindFree {
		return events.RollMade{}, msgerr.Errorf("secret roll %s: kind %q: a journal-dice-v2 secret roll is a free roll", h.ID, in.Kind)
	}
	r, err := dice.ParseHex32(in.Reveal)
	if err != nil {
		return events.RollMade{}, msgerr.Errorf("secret roll %s: reveal: %w", h.ID, err)
	}
	key, err := j.sessionKeyV2(ctx, c, s)
	if err != nil {
		return events.RollMade{}, err
	}
	e, err := drawFree(c, s, key, in.Nonce, in.Dice, r)
	if err != nil {
		return events.RollMade{}, err
	}
	draws := e.Draws
	faces, total, outcome := e.Faces, e.Total, e.Outcome
	e = in
	e.Faces, e.Total, e.Outcome, e.Draws, e.Hidden = faces, total, outcome, draws, h.ID
	return e, nil
}

// revealAllOf drafts the reveal of every secret roll of session s left
// unrevealed (EndSession, before the session-ended event).
func (d *draft) revealAllOf(ctx context.Context, s *projections.Session) error {
	if !s.V2() {
		return d.revealAll(s)
	}
	for _, h := range s.Unrevealed() {
		e, err := d.j.unhideV2(ctx, d.campaign, s, h)
		if err != nil {
			return err
		}
		d.add(events.KindCharacter, freeAggregate(e.Character), events.TypeRollMade, &e)
	}
	return nil
}
