package command

import (
	"context"
	"slices"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rolls"
	"github.com/campaign-journal/journal/rules/ryf"
)

// MaxPoints bounds damage and healing given by hand.
const MaxPoints = 1000

// DamageRequest is a Damage: the GM's damage by hand (a fall, a trap).
type DamageRequest struct {
	Character string `json:"character" cli:"CHAR" complete:"character"`
	Amount    int    `json:"amount" cli:"N"`
	Source    string `json:"source,omitempty" cli:"--source CHAR" help:"who dealt it" complete:"character"`
}

// Damage applies damage the GM gives by hand (a fall, a trap).
func (j *Handler) Damage(ctx context.Context, campaign, char string, amount int, source string) (Result, error) {
	if amount < 1 || amount > MaxPoints {
		return Result{}, invalid("damage %d: want 1..%d", amount, MaxPoints)
	}
	return j.execute(ctx, campaign, func(d *draft) error {
		if err := requireCampaign(d.campaign); err != nil {
			return err
		}
		ch, err := character(d.campaign, char)
		if err != nil {
			return err
		}
		if source != "" {
			if _, err := character(d.campaign, source); err != nil {
				return err
			}
		}
		d.add(events.KindCharacter, ch.ID, events.TypeDamageTaken, events.DamageTaken{Character: ch.ID, Amount: amount, Source: source})
		return nil
	})
}

// HealRequest is a Heal by hand.
type HealRequest struct {
	Character string `json:"character" cli:"CHAR" complete:"character"`
	Amount    int    `json:"amount" cli:"N"`
}

// Heal heals a character by hand, never past max HP; the dead do not heal.
func (j *Handler) Heal(ctx context.Context, campaign, char string, amount int) (Result, error) {
	if amount < 1 || amount > MaxPoints {
		return Result{}, invalid("healing %d: want 1..%d", amount, MaxPoints)
	}
	return j.execute(ctx, campaign, func(d *draft) error {
		if err := requireCampaign(d.campaign); err != nil {
			return err
		}
		ch, err := character(d.campaign, char)
		if err != nil {
			return err
		}
		n, err := ryf.Heal(ch.HP, ch.MaxHP, amount)
		if err != nil {
			return invalid("%s: %v", ch.Name, err)
		}
		if n == 0 {
			return invalid("%s is already at full health (%d HP)", ch.Name, ch.MaxHP)
		}
		d.add(events.KindCharacter, ch.ID, events.TypeHealed, events.Healed{Character: ch.ID, Amount: n, Reason: "gm"})
		return nil
	})
}

// RestRequest is a Rest: a night's sleep, in comfort or not.
type RestRequest struct {
	Comfort bool `json:"comfort,omitempty" cli:"--comfort" help:"full comfort: 2 HP"`
}

// Rest is a night's sleep for every character: 1 HP (2 in comfort) and a new day.
func (j *Handler) Rest(ctx context.Context, campaign string, comfort bool) (Result, error) {
	return j.execute(ctx, campaign, func(d *draft) error {
		if err := requireCampaign(d.campaign); err != nil {
			return err
		}
		if d.campaign.Combat != nil {
			return invalid("nobody sleeps in the middle of a combat: end it first")
		}
		reason := "rest"
		if comfort {
			reason = "comfort"
		}
		for _, id := range d.campaign.Roster {
			ch := d.campaign.Characters[id]
			if n := ryf.RestHealing(ch.HP, ch.MaxHP, comfort); n > 0 {
				d.add(events.KindCharacter, id, events.TypeHealed, events.Healed{Character: id, Amount: n, Reason: reason})
			}
		}
		d.add(events.KindCampaign, campaign, events.TypeDayStarted, events.DayStarted{Reason: reason})
		return nil
	})
}

// HealAfterCombatRequest is a HealAfterCombat: whose healing, with the
// player's own entropy.
type HealAfterCombatRequest struct {
	Character string `json:"character" cli:"CHAR" complete:"character"`
	Entropy   string `json:"entropy,omitempty" cli:"--entropy S" help:"the player's own entropy"`
}

// HealAfterCombat rolls the once-per-combat 1d6 healing after the last
// combat, capped by the damage taken in it and by max HP.
func (j *Handler) HealAfterCombat(ctx context.Context, campaign, char, entropy string) (Result, error) {
	return j.execute(ctx, campaign, func(d *draft) error {
		ch, cb, err := d.healAfterCombatOf(char)
		if err != nil {
			return err
		}
		stream, nonce, err := d.stream(entropy)
		if err != nil {
			return err
		}
		h, err := ryf.AfterCombatHealing(ch.HP, ch.MaxHP, cb.DamageTaken[ch.ID], stream)
		if err != nil {
			return invalid("%s: %v", ch.Name, err)
		}
		e := rolls.FromHeal(d.campaign.System, h)
		e.Character, e.Nonce, e.Entropy = ch.ID, nonce, entropy
		d.add(events.KindCharacter, ch.ID, events.TypeRollMade, e)
		d.add(events.KindCharacter, ch.ID, events.TypeHealed,
			events.Healed{Character: ch.ID, Amount: h.Healed, Reason: projections.HealAfterCombat})
		return nil
	})
}

// healAfterCombatOf checks char's after-combat healing against the rules
// and the state of play: its sheet and the combat it heals after.
func (d *draft) healAfterCombatOf(char string) (*projections.Sheet, *projections.Combat, error) {
	if err := requireCampaign(d.campaign); err != nil {
		return nil, nil, err
	}
	if d.campaign.Combat != nil {
		return nil, nil, invalid("the combat is still going on: healing comes after it ends")
	}
	cb := d.campaign.HealingCombat()
	if cb == nil {
		return nil, nil, invalid("there has been no combat to heal after")
	}
	ch, err := character(d.campaign, char)
	if err != nil {
		return nil, nil, err
	}
	if !slices.Contains(cb.Order, ch.ID) {
		return nil, nil, invalid("%s was not in the last combat", ch.Name)
	}
	if cb.HealedAfter[ch.ID] {
		return nil, nil, invalid("%s has already healed after the last combat (once per combat)", ch.Name)
	}
	return ch, cb, nil
}
