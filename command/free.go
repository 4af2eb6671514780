package command

// Free rolls and GM secret rolls (docs/design.md §3.4, docs/rules.md
// 3.5).
//
// Invariants:
//   - A free roll draws its expression's dice from the same stream as any
//     roll of its session, one nonce, die after die in the order written.
//   - A secret roll is the GM's only. It takes its nonce and is recorded
//     as a roll.hidden event with every input and none of the outcome;
//     its outcome is recorded only by its reveal, a roll.made with the
//     same inputs (events.HiddenInputs) drawn again from the same stream,
//     made by the GM's reveal or, for every one left, just before the
//     session-ended event (EndSession). Nothing else records its faces.
//   - The GM reads a secret roll's outcome before the reveal from the
//     command's answer (Result.Secret) and from SecretRolls, computed
//     from the hidden event and the session's seed, never stored.

import (
	"context"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rolls"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/rules/ryf"
)

// FreeRollRequest is a free roll of a dice expression ("1d6", "2d10+3"):
// a player's for one of its characters, the GM's for any character or
// none. Secret (the GM's only) hides its outcome until it is revealed.
type FreeRollRequest struct {
	Character string `json:"character" cli:"--character C" help:"the character who rolls (the GM may name none)" complete:"character"` // "" only for the GM's
	Dice      string `json:"dice" cli:"DICE"`
	Note      string `json:"note,omitempty" cli:"--note TEXT" help:"a note shown with the roll"`
	Secret    bool   `json:"secret,omitempty" help:"the GM's secret roll: its outcome is recorded when revealed or when the session ends"`
	Call      string `json:"call,omitempty" cli:"--call ID" help:"the roll call it answers"`
	Entropy   string `json:"entropy,omitempty" cli:"--entropy S" help:"the player's own entropy, so not even the GM can know the roll before"`
}

// SecretRoll is a GM's secret roll as the GM sees it: the hidden event and
// the roll its reveal records (or recorded).
type SecretRoll struct {
	Hidden   string          `json:"hidden"`
	Session  string          `json:"session"`
	Revealed string          `json:"revealed,omitempty"`
	Roll     events.RollMade `json:"roll"`
}

// mayRollSecret reports whether the actor is the GM for secret rolls.
func (j *Handler) mayRollSecret(c *projections.Campaign) bool { return j.gm || j.isGM(c) }

// freeAggregate is the aggregate a free roll is filed under: its
// character, or, for the GM's roll for no character, "gm".
func freeAggregate(character string) string {
	if character == "" {
		return "gm"
	}
	return character
}

// parseFree reads a free roll's expression, refusing it with what is wrong.
func parseFree(text string) (dice.Expr, error) {
	x, err := dice.ParseExpr(text)
	if err != nil {
		return x, invalid("dice %q: %v", clip.Text(text), err)
	}
	return x, nil
}

// checkFree checks a free roll's request against the actor and the state.
func (d *draft) checkFree(req FreeRollRequest) (dice.Expr, error) {
	x, err := parseFree(req.Dice)
	if err != nil {
		return x, err
	}
	gm := d.j.mayRollSecret(d.campaign)
	switch {
	case req.Secret && !gm:
		return x, invalid("only the GM rolls in secret")
	case req.Character == "" && !gm:
		return x, invalid("name the character who rolls")
	}
	if req.Character != "" {
		if err := characterExists(d.campaign, req.Character); err != nil {
			return x, err
		}
	}
	if err := checkField("note", req.Note); err != nil {
		return x, err
	}
	return x, nil
}

// FreeRoll makes a free roll in the open session: in a journal-dice-v1
// session from the session's stream at once; in a journal-dice-v2 one it
// is a signed request (RequestRoll with the action "free-roll").
func (j *Handler) FreeRoll(ctx context.Context, campaign string, req FreeRollRequest) (Result, error) {
	res, err := j.execute(ctx, campaign, func(d *draft) error {
		x, err := d.checkFree(req)
		if err != nil {
			return err
		}
		stream, nonce, err := d.stream(req.Entropy)
		if err != nil {
			return err
		}
		faces, total, err := x.Roll(stream)
		if err != nil {
			return invalidOr(err)
		}
		e := rolls.FromFree(d.campaign.System, x, faces, total)
		e.Character, e.Nonce, e.Entropy, e.Note, e.Call = req.Character, nonce, req.Entropy, req.Note, req.Call
		d.addRoll(freeAggregate(req.Character), e, req.Secret)
		return nil
	})
	return j.withSecrets(ctx, campaign, res, err)
}

// addRoll drafts a roll event, or for a secret roll its hidden event.
func (d *draft) addRoll(aggregate string, e events.RollMade, secret bool) {
	if secret {
		d.add(events.KindCharacter, aggregate, events.TypeRollHidden, events.Hide(e))
		return
	}
	d.add(events.KindCharacter, aggregate, events.TypeRollMade, &e)
}

// rollSecret is Roll's secret roll (the GM's): a RyF or Galaxia skill or
// attribute roll of a journal-dice-v1 session, without the token or the
// specialization (a secret roll has no consequence before its reveal).
func (d *draft) rollSecret(req RollRequest) error {
	switch {
	case !d.j.mayRollSecret(d.campaign):
		return invalid("only the GM rolls in secret")
	case d.campaign.System == SystemTOR:
		return invalid("a secret roll of The One Ring is a free roll ('journal roll free 1d12 --secret')")
	case req.Token || req.Specialization:
		return invalid("a secret roll spends no token or specialization")
	}
	rules, err := d.ryfRules()
	if err != nil {
		return err
	}
	ch, err := character(d.campaign, req.Character)
	if err != nil {
		return err
	}
	if err := canAct(ch); err != nil {
		return err
	}
	check, err := buildCheck(d.campaign, rules, ch, req)
	if err != nil {
		return invalidOr(err)
	}
	stream, nonce, err := d.stream(req.Entropy)
	if err != nil {
		return err
	}
	res, err := ryf.Roll(check, stream)
	if err != nil {
		return invalidOr(err)
	}
	e := rolls.FromRyF(d.campaign.System, res)
	e.Character, e.Nonce, e.Entropy = ch.ID, nonce, req.Entropy
	if req.Vs != "" && check.Difficulty != nil {
		e.DifficultyName = ryf.DifficultyName(*check.Difficulty)
	}
	d.addRoll(ch.ID, e, true)
	return nil
}

// unhide draws the roll a hidden event's reveal records: its inputs, the
// faces drawn again from the session's stream (key, the session's seed),
// the outcome judged by the rules.
func unhide(c *projections.Campaign, s *projections.Session, key *dice.Key, h *projections.HiddenRoll) (events.RollMade, error) {
	in := h.Hidden.Inputs()
	var out events.RollMade
	if err := rolls.CheckVersion(in); err != nil {
		return out, err // never judged by another version's rules
	}
	stream := key.Stream(c.ID, s.ID, in.Nonce, in.Entropy)
	switch in.Kind {
	case rolls.KindFree:
		x, err := rolls.FreeExpr(in.Dice)
		if err != nil {
			return out, err
		}
		faces, total, err := x.Roll(stream)
		if err != nil {
			return out, err
		}
		out = rolls.FromFree(in.System, x, faces, total)
	default:
		res, err := ryf.Roll(rolls.CheckOf(in), stream)
		if err != nil {
			return out, err
		}
		out = rolls.FromRyF(in.System, res)
	}
	out.Character, out.Nonce, out.Entropy, out.Note, out.Call = in.Character, in.Nonce, in.Entropy, in.Note, in.Call
	out.DifficultyName = in.DifficultyName
	out.Rules = in.Rules // the reveal is the secret roll's: judged under its version
	out.Hidden = h.ID
	return out, nil
}

// revealHidden drafts the reveal of hidden roll h of the open session s.
func (d *draft) revealHidden(s *projections.Session, h *projections.HiddenRoll) error {
	if d.key == nil {
		return msgerr.Errorf("no dice key for session %s", s.ID)
	}
	e, err := unhide(d.campaign, s, d.key, h)
	if err != nil {
		return msgerr.Errorf("secret roll %s: %w", h.ID, err)
	}
	d.add(events.KindCharacter, freeAggregate(e.Character), events.TypeRollMade, &e)
	return nil
}

// revealAll drafts the reveal of every secret roll of s not yet revealed
// (EndSession: before its session-ended event).
func (d *draft) revealAll(s *projections.Session) error {
	for _, h := range s.Unrevealed() {
		if err := d.revealHidden(s, h); err != nil {
			return err
		}
	}
	return nil
}

// RevealRequest is a Reveal: the GM's secret roll, its roll.hidden
// event's id or a part of it (its start or end).
type RevealRequest struct {
	Request string `json:"request" cli:"ID"`
}

// Reveal records the outcome of the GM's secret roll id (its hidden
// event's id, or a prefix of at least 8 characters) in the open session.
func (j *Handler) Reveal(ctx context.Context, campaign, id string) (Result, error) {
	return j.execute(ctx, campaign, func(d *draft) error {
		if !j.mayRollSecret(d.campaign) {
			return invalid("only the GM reveals a secret roll")
		}
		s := d.campaign.OpenSession()
		if s == nil {
			return invalid("no session in progress: a session's secret rolls were revealed when it ended")
		}
		h, n := s.HiddenRollByID(id)
		switch {
		case n > 1:
			return invalid("%q names %d secret rolls of session %s: give more of its id", clip.Text(id), n, s.ID)
		case h == nil:
			return notFound("no secret roll %s in session %s", clip.Text(id), s.ID)
		}
		if h.Revealed != "" {
			return invalid("secret roll %s is already revealed (event %s)", h.ID, h.Revealed)
		}
		if s.V2() {
			e, err := j.unhideV2(ctx, d.campaign, s, h)
			if err != nil {
				return err
			}
			d.add(events.KindCharacter, freeAggregate(e.Character), events.TypeRollMade, &e)
			return nil
		}
		return d.revealHidden(s, h)
	})
}

// SecretRolls lists the secret rolls of campaign's sessions with their
// outcome: for one not yet revealed, the roll its reveal will record,
// computed from the session's seed. It is the GM's alone (the web API's
// GM-only route); it records nothing.
func (j *Handler) SecretRolls(ctx context.Context, campaign string) ([]SecretRoll, error) {
	c, err := j.Load(ctx, campaign, 0)
	if err != nil {
		return nil, err
	}
	out := []SecretRoll{}
	for _, s := range c.Sessions {
		if len(s.Hidden) == 0 {
			continue
		}
		var key *dice.Key
		for _, h := range s.Hidden {
			sr := SecretRoll{Hidden: h.ID, Session: s.ID, Revealed: h.Revealed, Roll: h.Hidden.Inputs()}
			if !s.V2() {
				if key == nil {
					if key, err = j.sessionKey(ctx, c.ID, s.ID); err != nil {
						return nil, err
					}
				}
				if sr.Roll, err = unhide(c, s, key, h); err != nil {
					return nil, err
				}
			} else if sr.Roll, err = j.unhideV2(ctx, c, s, h); err != nil {
				return nil, err
			}
			out = append(out, sr)
		}
	}
	return out, nil
}

// withSecrets adds to a command's answer the outcome of the secret rolls
// it recorded, for the GM who made them (Result.Secret).
func (j *Handler) withSecrets(ctx context.Context, campaign string, res Result, err error) (Result, error) {
	if err != nil {
		return res, err
	}
	var hidden []string
	for _, r := range res.Events {
		if r.Event.Type == events.TypeRollHidden {
			hidden = append(hidden, r.Event.ID)
		}
	}
	if len(hidden) == 0 {
		return res, nil
	}
	all, err := j.SecretRolls(ctx, campaign)
	if err != nil {
		return res, err
	}
	for _, sr := range all {
		for _, id := range hidden {
			if sr.Hidden == id {
				res.Secret = append(res.Secret, sr)
			}
		}
	}
	return res, nil
}
