package command

import (
	"context"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rules/ryf"
)

// Systems the journal plays.
const (
	SystemRyF     = events.SystemRyF // one spelling: the event registry's
	SystemGalaxia = "galaxia"
	SystemTOR     = events.SystemTOR
)

// CreateCampaign is the request to open a campaign.
type CreateCampaign struct {
	ID          string `json:"id" cli:"ID"`
	Name        string `json:"name" cli:"--name NAME" help:"display name"`
	System      string `json:"system" cli:"--system ryf|galaxia|tor" required:"cli" help:"ryf, galaxia or tor"`
	Carisma     bool   `json:"carisma,omitempty" help:"optional rule: the sixth attribute C (Carisma), budget 45"`
	HardDefense bool   `json:"hard_defense,omitempty" help:"optional rule: Defense + 6 instead of + 5"`
	AttrBudget  int    `json:"attr_budget,omitempty" cli:"--attr-budget N" help:"a lower attribute budget for player characters"`
}

func requireCampaign(c *projections.Campaign) error {
	if c.System == "" {
		return notFound("campaign %s does not exist: create it with 'journal campaign create %s --system ryf|galaxia|tor'", c.ID, c.ID)
	}
	return nil
}

// CreateCampaign opens a campaign; its options fix its rules for good.
func (j *Handler) CreateCampaign(ctx context.Context, req CreateCampaign) (Result, error) {
	if err := events.ValidID(req.ID); err != nil {
		return Result{}, invalid("campaign id %q: %v", clip.Text(req.ID), err)
	}
	switch req.System {
	case SystemRyF, SystemGalaxia:
		if _, err := ryf.New(ryf.Options{System: ryf.System(req.System), Carisma: req.Carisma,
			HardDefense: req.HardDefense, AttributeBudget: req.AttrBudget}); err != nil {
			return Result{}, invalid("%v", err)
		}
	case SystemTOR:
		if req.Carisma || req.HardDefense || req.AttrBudget != 0 {
			return Result{}, invalid("carisma, hard-defense and attribute budgets are RyF options, not The One Ring's")
		}
	default:
		return Result{}, malformed("unknown system %q (want ryf, galaxia or tor)", clip.Text(req.System))
	}
	if req.Name == "" {
		req.Name = req.ID
	}
	return j.execute(ctx, req.ID, func(d *draft) error {
		if d.campaign.Events > 0 {
			return invalid("campaign %s already exists", req.ID)
		}
		d.add(events.KindCampaign, req.ID, events.TypeCampaignCreated, events.CampaignCreated{
			Name: req.Name, System: req.System, Carisma: req.Carisma, HardDefense: req.HardDefense, AttrBudget: req.AttrBudget,
		})
		return nil
	})
}

// RyFRules returns the RyF rules of a campaign: its system, options, extra
// skills and weapons (the rules its commands are judged by; the shell
// completion's names too). A campaign of another system is an error.
func RyFRules(c *projections.Campaign) (*ryf.Rules, error) {
	if err := requireCampaign(c); err != nil {
		return nil, err
	}
	if c.System != SystemRyF && c.System != SystemGalaxia {
		return nil, invalid("campaign %s plays %s: this command is for ryf and galaxia", c.ID, c.System)
	}
	opts := ryf.Options{System: ryf.System(c.System), Carisma: c.Carisma, HardDefense: c.HardDefense, AttributeBudget: c.AttrBudget}
	for _, s := range c.Skills {
		opts.Skills = append(opts.Skills, ryf.Skill{Name: s.Name, Attr: ryf.Attr(s.Attribute)})
	}
	for _, w := range c.Weapons {
		rw, err := weaponOf(w)
		if err != nil {
			return nil, err
		}
		opts.Weapons = append(opts.Weapons, rw)
	}
	return ryf.New(opts)
}

func weaponOf(w events.WeaponDefined) (ryf.Weapon, error) {
	dmg, err := ryf.ParseDamage(w.Damage)
	if err != nil {
		return ryf.Weapon{}, invalid("weapon %s: %v", w.Name, err)
	}
	return ryf.Weapon{Name: w.Name, Skill: w.Skill, Damage: dmg, Precision: w.Precision,
		Short: w.Short, Medium: w.Medium, Long: w.Long, Magazine: w.Magazine}, nil
}

// DefineWeapon adds a weapon to a RyF campaign (or replaces a known one).
// Without a skill it takes Rules.DefaultWeaponSkill, which the event records.
func (j *Handler) DefineWeapon(ctx context.Context, campaign string, w events.WeaponDefined) (Result, error) {
	return j.execute(ctx, campaign, func(d *draft) error {
		rules, err := d.ryfRules()
		if err != nil {
			return err
		}
		if w.Skill != "" {
			sk, err := rules.LookupSkill(w.Skill)
			if err != nil {
				return invalid("weapon %s: %v", w.Name, err)
			}
			w.Skill = sk.Name
		} else {
			// The default: melee without ranges, the system's ranged skill with.
			w.Skill = rules.DefaultWeaponSkill(w.Short != 0 || w.Medium != 0 || w.Long != 0)
		}
		rw, err := weaponOf(w)
		if err != nil {
			return err
		}
		if err := rules.ValidateWeapon(rw); err != nil {
			return invalid("%v", err)
		}
		w.Damage = rw.Damage.String()
		w.Ranged = rw.Ranged()
		d.add(events.KindCampaign, campaign, events.TypeWeaponDefined, w)
		return nil
	})
}

// SkillDefineRequest is a DefineSkill: the skill's name and default
// attribute.
type SkillDefineRequest struct {
	Name      string `json:"name" cli:"NAME"`
	Attribute string `json:"attribute" cli:"--attribute X" alias:"attr" help:"default attribute (F, R, D, I, P or C)" complete:"attribute"`
}

// DefineSkill adds a campaign skill with its default attribute.
func (j *Handler) DefineSkill(ctx context.Context, campaign, name, attr string) (Result, error) {
	return j.execute(ctx, campaign, func(d *draft) error {
		rules, err := d.ryfRules()
		if err != nil {
			return err
		}
		a, err := rules.LookupAttribute(attr)
		if err != nil {
			return invalid("%v", err)
		}
		if same, ok := rules.AttributeNamed(name); ok {
			return invalid("skill %q: the name of the attribute %s (a contest reads it as the attribute)", clip.Text(name), same.Name())
		}
		opts := rules.Options()
		opts.Skills = append(opts.Skills, ryf.Skill{Name: name, Attr: a})
		if _, err := ryf.New(opts); err != nil {
			return invalid("%v", err)
		}
		d.add(events.KindCampaign, campaign, events.TypeSkillDefined, events.SkillDefined{Name: name, Attribute: string(a)})
		return nil
	})
}
