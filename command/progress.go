package command

import (
	"context"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rules/ryf"
)

// XPRequest is a GrantXP: whose XP, and how much.
type XPRequest struct {
	Character string `json:"character" cli:"CHAR" complete:"character"`
	Amount    int    `json:"amount" cli:"N"`
}

// GrantXP gives a character experience in the current (or last) session:
// 1..10 XP, at most one grant per character per session.
func (j *Handler) GrantXP(ctx context.Context, campaign, char string, amount int) (Result, error) {
	if err := ryf.ValidateXPGrant(amount); err != nil {
		return Result{}, invalidOr(err)
	}
	return j.execute(ctx, campaign, func(d *draft) error {
		if err := requireCampaign(d.campaign); err != nil {
			return err
		}
		ch, err := character(d.campaign, char)
		if err != nil {
			return err
		}
		s := d.campaign.OpenSession()
		if s == nil {
			return invalid("XP is granted during a session, before it ends: start one with 'journal session start'")
		}
		if n, done := s.XPGranted[ch.ID]; done {
			return invalid("%s was already granted %d XP in session %s (one grant per session)", ch.Name, n, s.ID)
		}
		d.add(events.KindCharacter, ch.ID, events.TypeXPGranted, events.XPGranted{Character: ch.ID, Amount: amount})
		return nil
	})
}

// RaiseRequest is a RaiseSkill: whose skill.
type RaiseRequest struct {
	Character string `json:"character" cli:"CHAR" complete:"character"`
	Skill     string `json:"skill" cli:"SKILL" complete:"skill"`
}

// RaiseSkill spends XP to raise a skill one rank (the new rank's cost).
func (j *Handler) RaiseSkill(ctx context.Context, campaign, char, skill string) (Result, error) {
	return j.execute(ctx, campaign, func(d *draft) error {
		rules, err := d.ryfRules()
		if err != nil {
			return err
		}
		ch, err := character(d.campaign, char)
		if err != nil {
			return err
		}
		sk, err := rules.LookupSkill(skill)
		if err != nil {
			return invalidOr(err)
		}
		from := ch.Skills[sk.Name]
		to, left, err := ryf.Raise(from, ch.XP)
		if err != nil {
			return invalid("%s cannot raise %s from %d: %v", ch.Name, sk.Name, from, err)
		}
		d.add(events.KindCharacter, ch.ID, events.TypeSkillRaised,
			events.SkillRaised{Character: ch.ID, Skill: sk.Name, From: from, To: to, Cost: ch.XP - left})
		return nil
	})
}

// CharacterRequest is the body of a command that names one character
// only (ReturnToken, RequestFellowship, ResolveFellowship).
type CharacterRequest struct {
	Character string `json:"character" cli:"CHAR" complete:"character"`
}

// ReturnToken has the GM give a character's token back: its next roll is
// one level lower.
func (j *Handler) ReturnToken(ctx context.Context, campaign, char string) (Result, error) {
	return j.execute(ctx, campaign, func(d *draft) error {
		if _, err := d.ryfRules(); err != nil {
			return err
		}
		ch, err := character(d.campaign, char)
		if err != nil {
			return err
		}
		if ch.Token != projections.TokenWithGM {
			return invalid("the GM does not hold %s's token", ch.Name)
		}
		d.add(events.KindCharacter, ch.ID, events.TypeTokenReturned, events.TokenReturned{Character: ch.ID})
		return nil
	})
}

// NewDay starts a new in-game day by the GM's word.
func (j *Handler) NewDay(ctx context.Context, campaign string) (Result, error) {
	return j.execute(ctx, campaign, func(d *draft) error {
		if err := requireCampaign(d.campaign); err != nil {
			return err
		}
		d.add(events.KindCampaign, campaign, events.TypeDayStarted, events.DayStarted{Reason: "gm"})
		return nil
	})
}

// ReloadRequest is a Reload: whose weapon ("" for the wielded one).
type ReloadRequest struct {
	Character string `json:"character" cli:"CHAR" complete:"character"`
	Weapon    string `json:"weapon,omitempty" cli:"[WEAPON]" complete:"weapon"`
}

// Reload refills a character's magazine weapon.
func (j *Handler) Reload(ctx context.Context, campaign, char, weapon string) (Result, error) {
	return j.execute(ctx, campaign, func(d *draft) error {
		rules, err := d.ryfRules()
		if err != nil {
			return err
		}
		ch, err := character(d.campaign, char)
		if err != nil {
			return err
		}
		w, err := chooseWeapon(rules, ch, weapon)
		if err != nil {
			return err
		}
		if w.Magazine == 0 {
			return invalid("%s has no magazine to reload", w.Name)
		}
		if ch.ShotsFired[w.Name] == 0 {
			return invalid("%s's %s is already loaded (%d shots)", ch.Name, w.Name, w.Magazine)
		}
		d.add(events.KindCharacter, ch.ID, events.TypeWeaponReloaded, events.WeaponReloaded{Character: ch.ID, Weapon: w.Name})
		return nil
	})
}
