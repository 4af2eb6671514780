package command

// journal-dice-v2 attacks (docs/design.md §3.2: "a request that needs several
// draws (an attack and its damage) takes one nonce per roll and uses the
// same r").
//
// Invariants:
//   - An attack's signed roll.request names every input (attacker, target,
//     weapon as the rules name it, range band, cover, modifier, token,
//     specialization); it is judged by the v1 attack's rules (planAttack)
//     and recorded with two nonces, Nonces = [n, n+1]: the attack roll's and
//     the damage roll's. The second is taken at the request whether or not
//     the attack will hit, so that the hit (unknown until the reveal) decides
//     nothing about the nonces: a miss consumes n+1 without a roll.
//   - The reveal draws the attack from StreamV2(K, campaign, session, n, r)
//     and, on a hit, the damage from StreamV2(K, campaign, session, n+1, r),
//     with the v1 attack's rules and consequences (resolveAttack): the same
//     events in the same order (attack roll, damage roll, damage taken,
//     attack resolved), in one append.
//   - An attacker has at most one attack request pending.

import (
	"context"
	"encoding/json"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/signed"
)

// AttackAction is the action of a v2 attack: the object in a roll.request's
// action whose command is "attack". Every member is written, zeros, empty
// strings and false included, and none other is accepted. Weapon is the
// weapon's name as the rules spell it (the CLI fills in the attacker's first
// weapon, or the fists); Range is the band (corta, media, larga) of a ranged
// attack, "" for melee.
type AttackAction struct {
	Command        string `json:"command"` // "attack"
	SeedCommitment string `json:"seed_commitment"`
	Character      string `json:"character"`
	Target         string `json:"target"`
	Weapon         string `json:"weapon"`
	Range          string `json:"range"`
	Cover          bool   `json:"cover"`
	Modifier       int    `json:"modifier"`
	Token          bool   `json:"token"`
	Specialization bool   `json:"specialization"`
}

// CommandAttack is the command of an attack's action.
const CommandAttack = "attack"

// actionCommand reads the command an action names (not strictly: the
// action's own parser is).
func actionCommand(action []byte) string {
	var c struct {
		Command string `json:"command"`
	}
	if json.Unmarshal(action, &c) != nil {
		return ""
	}
	return c.Command
}

// ParseAttackAction reads an attack's action strictly.
func ParseAttackAction(action []byte) (AttackAction, error) {
	var a AttackAction
	if err := decodeAction(action, &a); err != nil {
		return a, err
	}
	if a.Command != CommandAttack {
		return a, invalid("action: command %q, want %q", clip.Text(a.Command), CommandAttack)
	}
	return a, nil
}

func (a AttackAction) request() AttackRequest {
	return AttackRequest{Attacker: a.Character, Target: a.Target, Weapon: a.Weapon, Range: a.Range,
		Cover: a.Cover, Modifier: a.Modifier, Token: a.Token, Specialization: a.Specialization}
}

// isAttack reports whether a recorded request is an attack's.
func isAttack(r events.RollRequested) bool { return r.Target != "" }

// requestAttackV2 records an attack's signed request (RequestRoll has
// checked the signature, the requester and the request's id).
func (j *Handler) requestAttackV2(d *draft, s *projections.Session, msg RollRequestSigned, r *signed.Request) error {
	a, err := ParseAttackAction(r.Action)
	if err != nil {
		return err
	}
	if a.SeedCommitment != s.Commitment {
		return invalid("the request names seed commitment %q, session %s's is %s", clip.Text(a.SeedCommitment), s.ID, s.Commitment)
	}
	if msg.Character != "" && msg.Character != a.Character {
		return invalid("the request is for %s, the signed action for %s", msg.Character, a.Character)
	}
	if a.Target == "" {
		return invalid("action: an attack names its target")
	}
	if a.Weapon == "" {
		return invalid("action: an attack names its weapon (every input is explicit)")
	}
	if d.campaign.System == SystemTOR {
		return msgerr.Errorf("%w: The One Ring attacks", ErrV2NotWired)
	}
	p, err := d.planAttack(a.request())
	if err != nil {
		return err
	}
	if p.weapon.Name != a.Weapon {
		return invalid("action: weapon %q: name it as the rules do, %q", clip.Text(a.Weapon), p.weapon.Name)
	}
	if string(p.band) != a.Range {
		return invalid("action: range %q: name the band, %q", clip.Text(a.Range), p.band)
	}
	for id, q := range s.Requests {
		if q.State == projections.RequestPending && isAttack(q.Requested) && q.Requested.Character == a.Character {
			return invalid("%s already has an attack request pending (%s): reveal it, or the GM cancels it", a.Character, id)
		}
	}
	n := d.nonce
	d.add(events.KindCharacter, a.Character, events.TypeRollRequested, events.RollRequested{
		User: j.actor, Signed: msg.Signed, Signature: msg.Signature, Request: r.Request,
		Commitment: r.Commitment.String(), Nonce: n, Nonces: []int{int(n), int(n) + 1},
		Character: a.Character, Kind: string(p.check.Kind),
		Modifier: a.Modifier, Token: a.Token, Specialization: a.Specialization,
		Target: a.Target, Weapon: a.Weapon, Range: a.Range, Cover: a.Cover,
	})
	d.nonce += 2
	return nil
}

// drawAttackV2 draws an attack request's rolls with src's r.
func (d *draft) drawAttackV2(s *projections.Session, key dice.KeyV2, q events.RollRequested, src v2Source) error {
	nonces := q.Taken()
	if len(nonces) != 2 {
		return invalid("request %s is an attack with %d nonces, want 2", q.Request, len(nonces))
	}
	p, err := d.planAttack(AttackRequest{Attacker: q.Character, Target: q.Target, Weapon: q.Weapon, Range: q.Range,
		Cover: q.Cover, Modifier: q.Modifier, Token: q.Token, Specialization: q.Specialization})
	if err != nil {
		return err
	}
	if string(p.check.Kind) != q.Kind {
		return invalid("request %s is a %s attack, the rules now make it %s", q.Request, q.Kind, p.check.Kind)
	}
	var rec *sidesRecorder
	next := 0
	draw := func() (dice.Roller, uint64, error) {
		n := nonces[next]
		next++
		rec = &sidesRecorder{r: key.Stream(d.campaign.ID, s.ID, n, src.R)}
		return rec, n, nil
	}
	return d.resolveAttack(p, draw, func(e *events.RollMade) { src.stamp(e, q.Request, rec.sides) })
}

// AttackActionFor is the action a device signs for req in the campaign's
// state now, every input explicit: the weapon as the rules name it (by
// default the attacker's first, or the fists) and the range band (from
// req.Range or req.Distance). It records nothing; the request is judged
// again when it is recorded. req.Entropy is not read.
func (j *Handler) AttackActionFor(ctx context.Context, campaign string, req AttackRequest) (AttackAction, error) {
	camp, err := j.Current(ctx, campaign) // the cached fold, as the command will find it (current.go)
	if err != nil {
		return AttackAction{}, err
	}
	d := &draft{j: j, campaign: camp}
	s, err := d.openV2()
	if err != nil {
		return AttackAction{}, err
	}
	p, err := d.planAttack(req)
	if err != nil {
		return AttackAction{}, err
	}
	return AttackAction{Command: CommandAttack, SeedCommitment: s.Commitment, Character: req.Attacker, Target: req.Target,
		Weapon: p.weapon.Name, Range: string(p.band), Cover: req.Cover, Modifier: req.Modifier,
		Token: req.Token, Specialization: req.Specialization}, nil
}
