package command

// journal-dice-v2 healing after a combat (docs/rules.md 1.10).
//
// Invariants:
//   - The healing's signed roll.request names the character healed
//     (HealAction); it is judged by the v1 rules (healAfterCombatOf: after
//     a combat the character was in, once per combat) and takes one nonce.
//   - The reveal draws the 1d6 from StreamV2(K, campaign, session, n, r)
//     and records what the v1 healing records, in one append: the heal
//     roll, then the healing (at most the damage taken in that combat and
//     the room to max HP; 0 when there is none).
//   - Who may request it: the GM, or the player of the character healed
//     (the acting character, which must be the action's).
//   - A character has at most one healing request pending.

import (
	"context"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rolls"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/rules/ryf"
	"github.com/campaign-journal/journal/signed"
)

// CommandHealAfterCombat is the command of an after-combat healing's action.
const CommandHealAfterCombat = "heal-after-combat"

// HealAction is the action of a v2 after-combat healing: the object in a
// roll.request's action whose command is "heal-after-combat". Every member
// is written, and none other is accepted.
type HealAction struct {
	Command        string `json:"command"` // "heal-after-combat"
	SeedCommitment string `json:"seed_commitment"`
	Character      string `json:"character"`
}

// ParseHealAction reads an after-combat healing's action strictly.
func ParseHealAction(action []byte) (HealAction, error) {
	var a HealAction
	if err := parseExplicit(action, &a); err != nil {
		return a, err
	}
	if a.Command != CommandHealAfterCombat {
		return a, invalid("action: command %q, want %q", clip.Text(a.Command), CommandHealAfterCombat)
	}
	return a, nil
}

// requestHealV2 records an after-combat healing's signed request.
func (j *Handler) requestHealV2(d *draft, s *projections.Session, msg RollRequestSigned, r *signed.Request) error {
	a, err := ParseHealAction(r.Action)
	if err != nil {
		return err
	}
	if err := checkScope(s, msg, a.SeedCommitment, a.Character); err != nil {
		return err
	}
	if d.campaign.System == SystemTOR {
		return msgerr.Errorf("%w: The One Ring has no after-combat healing", ErrV2NotWired)
	}
	ch, _, err := d.healAfterCombatOf(a.Character)
	if err != nil {
		return err
	}
	if ryf.StatusOf(ch.HP) == ryf.StatusDead {
		return invalid("%s: the dead do not heal", ch.Name)
	}
	for id, q := range s.Requests {
		if q.State == projections.RequestPending && q.Requested.Kind == rolls.KindHeal && q.Requested.Character == ch.ID {
			return invalid("%s already has a healing request pending (%s): reveal it, or the GM cancels it", ch.ID, id)
		}
	}
	d.add(events.KindCharacter, ch.ID, events.TypeRollRequested, events.RollRequested{
		User: j.actor, Signed: msg.Signed, Signature: msg.Signature, Request: r.Request,
		Commitment: r.Commitment.String(), Nonce: d.nonce, Character: ch.ID, Kind: rolls.KindHeal,
	})
	d.nonce++
	return nil
}

// drawHealV2 draws an after-combat healing's 1d6 with src's r and heals.
func (d *draft) drawHealV2(s *projections.Session, key dice.KeyV2, q events.RollRequested, src v2Source) error {
	ch, cb, err := d.healAfterCombatOf(q.Character)
	if err != nil {
		return err
	}
	rec := &sidesRecorder{r: key.Stream(d.campaign.ID, s.ID, q.Nonce, src.R)}
	h, err := ryf.AfterCombatHealing(ch.HP, ch.MaxHP, cb.DamageTaken[ch.ID], rec)
	if err != nil {
		return invalid("%s: %v", ch.Name, err)
	}
	e := rolls.FromHeal(d.campaign.System, h)
	e.Character, e.Nonce = ch.ID, q.Nonce
	src.stamp(&e, q.Request, rec.sides)
	d.add(events.KindCharacter, ch.ID, events.TypeRollMade, e)
	d.add(events.KindCharacter, ch.ID, events.TypeHealed,
		events.Healed{Character: ch.ID, Amount: h.Healed, Reason: projections.HealAfterCombat})
	return nil
}

// HealActionFor is the action a device signs to heal char after the last
// combat (it records nothing; the request is judged when recorded).
func (j *Handler) HealActionFor(ctx context.Context, campaign, char string) (HealAction, error) {
	camp, err := j.Current(ctx, campaign) // the cached fold, as the command will find it (current.go)
	if err != nil {
		return HealAction{}, err
	}
	d := &draft{ctx: ctx, j: j, campaign: camp}
	s, err := d.openV2()
	if err != nil {
		return HealAction{}, err
	}
	ch, _, err := d.healAfterCombatOf(char)
	if err != nil {
		return HealAction{}, err
	}
	return HealAction{Command: CommandHealAfterCombat, SeedCommitment: s.Commitment, Character: ch.ID}, nil
}
