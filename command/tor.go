package command

import (
	"context"
	"errors"
	"strings"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rolls"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/rules/tor"
)

// The One Ring (system "tor"): rolls, characters, Hope, Shadow, madness and
// traits. The fellowship, advancement and adventures are in tor_company.go.
//
// Bouts of madness (decision): while a character is in a bout of madness the
// GM controls it, so the choices that belong to its player are refused —
// spending Hope, asking for or voting on a fellowship point, taking a
// refused point, invoking a trait (also with roll --trait). Its rolls are
// still made (the GM makes them for it; a trait invoked before the bout
// still counts), and the GM's own commands — Shadow, advancement, the
// fellowship phase, withdrawing its request, ending the bout — go on.

// torState returns the One Ring state of a campaign, or an error if the
// campaign does not exist or plays another system.
func torState(c *projections.Campaign) (*projections.TORState, error) {
	if err := requireCampaign(c); err != nil {
		return nil, err
	}
	if c.System != SystemTOR || c.TOR == nil {
		return nil, invalid("campaign %s plays %s: this command is for The One Ring (tor)", c.ID, c.System)
	}
	return c.TOR, nil
}

// torCharacter returns a One Ring character of the campaign or a clear error.
func torCharacter(c *projections.Campaign, id string) (*projections.TORSheet, error) {
	s, err := torState(c)
	if err != nil {
		return nil, err
	}
	if ch := s.Characters[id]; ch != nil {
		return ch, nil
	}
	if len(s.Roster) == 0 {
		return nil, notFound("no character %q in campaign %s (it has none yet)", clip.Text(id), c.ID)
	}
	return nil, notFound("no character %q in campaign %s%s (characters: %s)", clip.Text(id), c.ID, didYouMean(id, s.Roster), strings.Join(s.Roster, ", "))
}

// playerControls refuses a player's choice for a character the GM controls.
func playerControls(ch *projections.TORSheet, what string) error {
	if ch.Mad {
		return invalid("%s is in a bout of madness and the GM controls it: its player cannot %s until the bout ends ('journal madness end %s --flaw F')", ch.Name, what, ch.ID)
	}
	return nil
}

// torInvalid wraps a rules error about a character as ErrInvalid.
func torInvalid(who string, err error) error {
	if err == nil || errors.Is(err, ErrInvalid) || errors.Is(err, ErrNotFound) {
		return err
	}
	return msgerr.Errorf("%w: %s: %w", ErrInvalid, who, err)
}

// addCaused drafts an event caused by another (its id in causationid).
func (d *draft) addCaused(kind events.Kind, aggID, typ, cause string, data any) string {
	id := d.add(kind, aggID, typ, data)
	if id != "" && cause != "" {
		d.evs[len(d.evs)-1].CausationID = cause
	}
	return id
}

// rollTOR drafts a The One Ring skill roll: the feat die and one success
// die per rank, from the session's next nonce, against req.TN (default
// 14). A trait invoked before the roll (req.Trait, or one the GM asked to
// roll with) is recorded in the roll. When the roll shows the Eye while the
// character's Hope is below its total Shadow, a bout of madness begins in
// the same batch.
func (d *draft) rollTOR(req RollRequest) error {
	p, err := d.planTOR(req)
	if err != nil {
		return err
	}
	stream, nonce, err := d.stream(req.Entropy)
	if err != nil {
		return err
	}
	return d.addTOR(p, stream, func(e *events.RollMade) { e.Nonce, e.Entropy = nonce, req.Entropy })
}

// torPlan is a The One Ring roll judged against the rules and the state,
// before its dice: who rolls which skill against which TN, with which
// trait counted as invoked. v1 (rollTOR) and v2 (v2_tor.go) share it.
type torPlan struct {
	ch    *projections.TORSheet
	skill tor.Skill
	tn    int
	trait string
}

// planTOR judges a The One Ring roll request (rollTOR's rules).
func (d *draft) planTOR(req RollRequest) (torPlan, error) {
	ch, err := torCharacter(d.campaign, req.Character)
	if err != nil {
		return torPlan{}, err
	}
	if req.Attribute != "" || req.Vs != "" || req.Modifier != 0 || req.Token || req.Specialization {
		return torPlan{}, invalid("--with-attr, --attribute, --vs, --mod, --token and --spec are RyF options: a The One Ring roll takes a SKILL, --tn and --trait")
	}
	if strings.TrimSpace(req.Skill) == "" {
		return torPlan{}, invalid("name the skill rolled, e.g. 'journal roll %s Atletismo --tn 14'", ch.ID)
	}
	sk, err := tor.LookupSkill(req.Skill)
	if err != nil {
		return torPlan{}, invalidOr(err)
	}
	tn := tor.DefaultTN
	if req.TN != nil {
		tn = *req.TN
	}
	if tn < tor.MinTN || tn > tor.MaxTN {
		return torPlan{}, invalid("--tn %d: a target number is %d..%d", tn, tor.MinTN, tor.MaxTN)
	}
	trait := ch.PendingTrait
	if req.Trait != "" {
		if err := playerControls(ch, "invoke a trait"); err != nil {
			return torPlan{}, err
		}
		t, err := ch.Trait(req.Trait)
		if err != nil {
			return torPlan{}, unknownTrait(ch, req.Trait, err)
		}
		if trait != "" && trait != t {
			return torPlan{}, invalid("%s has already invoked «%s» for this roll", ch.Name, trait)
		}
		trait = t
	}
	return torPlan{ch: ch, skill: sk, tn: tn, trait: trait}, nil
}

// addTOR draws p's dice from stream and drafts the roll (set stamps its
// nonce and the source of its dice) and, when it starts one, the bout of
// madness.
func (d *draft) addTOR(p torPlan, stream dice.Roller, set func(*events.RollMade)) error {
	ch, sk := p.ch, p.skill
	rating := ch.Rating(sk)
	res, err := tor.Roll(stream, rating.Rank, p.tn)
	if err != nil {
		return invalidOr(err)
	}
	e := rolls.FromTOR(res)
	e.Character, e.Skill, e.Attribute = ch.ID, sk.Name, string(sk.Attribute)
	e.Favoured, e.Trait = rating.Favoured, p.trait
	set(&e)
	id := d.add(events.KindCharacter, ch.ID, events.TypeRollMade, e)
	if !ch.Mad && tor.MadnessTriggered(ch.Character, res) {
		d.addCaused(events.KindCharacter, ch.ID, events.TypeTORMadnessBegun, id, events.TORMadnessBegun{
			Character: ch.ID, Roll: id, Hope: ch.Hope, Shadow: ch.Shadow, PermanentShadow: ch.PermanentShadow,
		})
	}
	return nil
}

func unknownTrait(ch *projections.TORSheet, name string, err error) error {
	traits := "none"
	if len(ch.Traits) > 0 {
		traits = strings.Join(ch.Traits, ", ")
	}
	if errors.Is(err, tor.ErrUnknownTrait) {
		return msgerr.Errorf("%w: %s has no trait %q (traits: %s)", ErrInvalid, ch.Name, clip.Text(name), traits)
	}
	return torInvalid(ch.Name, err)
}

// createTORCharacter drafts a The One Ring character: attributes and skills
// in the rules' syntax, Hope at its maximum, no Shadow yet. Every rule the
// character breaks is reported at once.
func (d *draft) createTORCharacter(req CreateCharacter) error {
	s, err := torState(d.campaign)
	if err != nil {
		return err
	}
	if s.Characters[req.ID] != nil {
		return invalid("character %s already exists", req.ID)
	}
	// Every problem at once: the options, the lists, Hope and the rules.
	var vs []tor.Violation
	add := func(field, format string, args ...any) {
		err := msgerr.Errorf(format, args...)
		vs = append(vs, tor.Violation{Field: field, Problem: err.Error(), Err: err})
	}
	if req.Specialization != "" || req.Occupation != "" || len(req.Weapons) > 0 {
		add("options", "--spec, --occupation and --weapons are RyF options: a The One Ring character takes --culture, --traits and --hope")
	}
	var attrs tor.Attributes
	attrsOK := false
	if strings.TrimSpace(req.Attributes) == "" {
		add("attributes", "--attrs: a The One Ring character needs its three attributes, basic/favoured, e.g. \"Cuerpo=5/7,Corazón=4/6,Mente=3/5\"")
	} else if a, err := tor.ParseAttributes(req.Attributes); err != nil {
		add("attributes", "--attrs: %v", err)
	} else {
		attrs, attrsOK = a, true
	}
	skills, err := tor.ParseSkills(req.Skills)
	if err != nil {
		add("skills", "--skills: %v", err)
	}
	if !req.NPC && req.MaxHope < 1 {
		add("max_hope", "--hope: a player character needs its maximum Hope (1..%d)", tor.HopeLimit)
	}
	var traits []string
	for _, t := range req.Traits {
		traits = append(traits, strings.TrimSpace(t))
	}
	c := tor.Character{
		Name: req.Name, Culture: strings.TrimSpace(req.Culture), Attributes: attrs, Skills: skills,
		Hope: req.MaxHope, MaxHope: req.MaxHope, Traits: traits,
	}
	c.Hobbit = c.IsHobbit()
	var ve *tor.ValidationError
	if err := c.Validate(); errors.As(err, &ve) {
		for _, v := range ve.Violations {
			if !attrsOK && strings.HasPrefix(v.Field, "attributes.") {
				continue // the attributes did not parse: their values are unknown
			}
			vs = append(vs, v)
		}
	} else if err != nil {
		return invalid("%v", err)
	}
	if len(vs) > 0 {
		return invalid("%v", &tor.ValidationError{Violations: vs})
	}
	score := func(s tor.Score) events.TORScore { return events.TORScore{Basic: s.Basic, Favoured: s.Favoured} }
	data := events.TORCharacterCreated{
		Name: c.Name, Player: req.Player, NPC: req.NPC, Culture: c.Culture, Hobbit: c.Hobbit,
		Attributes: events.TORAttributes{Cuerpo: score(attrs.Cuerpo), Corazon: score(attrs.Corazon), Mente: score(attrs.Mente)},
		Skills:     map[string]events.TORSkill{}, Hope: c.Hope, MaxHope: c.MaxHope, Traits: traits,
	}
	for name, r := range skills {
		data.Skills[name] = events.TORSkill{Rank: r.Rank, Favoured: r.Favoured}
	}
	d.add(events.KindCharacter, req.ID, events.TypeTORCharacterCreated, data)
	return nil
}

// HopeRequest is a SpendHope: whose Hope, on which roll (its event id;
// "" for the character's latest roll).
type HopeRequest struct {
	Character string `json:"character" cli:"CHAR" complete:"character"`
	Roll      string `json:"roll,omitempty" cli:"[ROLL_EVENT_ID]"`
}

// SpendHope spends 1 of a character's Hope on its latest roll, a failure
// (docs/rules.md §2.3): the basic value of the skill's attribute column — the
// favoured value if the skill is favoured — is added and the roll judged
// again. roll names the roll's event id; empty means the character's latest
// roll. Refused: another roll than the latest, a success, a roll that
// already had Hope, a character at 0 Hope or in a bout of madness.
func (j *Handler) SpendHope(ctx context.Context, campaign, char, roll string) (Result, error) {
	return j.execute(ctx, campaign, func(d *draft) error {
		ch, err := torCharacter(d.campaign, char)
		if err != nil {
			return err
		}
		if err := playerControls(ch, "spend Hope"); err != nil {
			return err
		}
		r := ch.LastRoll
		if r == nil {
			return invalid("%s has made no roll to spend Hope on", ch.Name)
		}
		if roll != "" && roll != r.EventID {
			return notLatest(d.campaign.TOR, ch, roll)
		}
		if s := d.campaign.OpenSession(); s.V2() {
			return invalid("session %s uses journal-dice-v2: Hope is spent by its roller's signed request ('journal hope spend %s' with the roller's device key)", s.ID, ch.ID)
		}
		e, err := hopeSpent(ch, r)
		if err != nil {
			return err
		}
		d.addCaused(events.KindCharacter, ch.ID, events.TypeTORHopeSpent, r.EventID, e)
		return nil
	})
}

// hopeSpent judges 1 Hope spent on ch's roll r (docs/rules.md §2.3) and
// returns the event that records it.
func hopeSpent(ch *projections.TORSheet, r *projections.TORRoll) (events.TORHopeSpent, error) {
	if r.HopeSpent {
		return events.TORHopeSpent{}, torInvalid(ch.Name, msgerr.Errorf("%w (roll %s, +%d)", tor.ErrHopeSpent, r.EventID, r.Result.HopeBonus))
	}
	sk, err := tor.LookupSkill(r.Skill)
	if err != nil {
		return events.TORHopeSpent{}, invalidOr(err)
	}
	sp, err := tor.SpendHope(ch.Character, sk, r.Result)
	if err != nil {
		return events.TORHopeSpent{}, torInvalid(ch.Name, err)
	}
	return events.TORHopeSpent{
		Character: ch.ID, Roll: r.EventID, Skill: sk.Name, Attribute: string(sp.Attribute), Favoured: sp.Favoured,
		Bonus: sp.Bonus, Hope: sp.Hope, LastHope: sp.LastHope, TN: sp.Result.TN, Total: sp.Result.Total,
		Outcome: string(sp.Result.Outcome), Quality: string(sp.Result.Quality),
	}, nil
}

// notLatest explains why Hope cannot be spent on a roll that is not the
// character's latest.
func notLatest(s *projections.TORState, ch *projections.TORSheet, roll string) error {
	for _, other := range s.Characters {
		if other.LastRoll != nil && other.LastRoll.EventID == roll && other.ID != ch.ID {
			return invalid("roll %s is %s's, not %s's", roll, other.Name, ch.Name)
		}
	}
	if r := s.Rolls[roll]; r != nil {
		if r.Character != ch.ID {
			return invalid("roll %s is %s's, not %s's", roll, r.Character, ch.Name)
		}
		return invalid("Hope is spent on a character's latest roll, and %s's latest is %s, not %s", ch.Name, ch.LastRoll.EventID, roll)
	}
	return notFound("no roll %s of %s (Hope is spent on its latest roll, %s)", roll, ch.Name, ch.LastRoll.EventID)
}

// ShadowRequest is a GainShadow: whose, how much, and why.
type ShadowRequest struct {
	Character string `json:"character" cli:"CHAR" complete:"character"`
	Amount    int    `json:"amount" cli:"N"`
	Reason    string `json:"reason,omitempty" cli:"--reason R" help:"what brought the Shadow"`
}

// GainShadow gives a character n (temporary) Shadow, 1..99 in all.
func (j *Handler) GainShadow(ctx context.Context, campaign, char string, n int, reason string) (Result, error) {
	if n < 1 || n > tor.ShadowLimit {
		return Result{}, invalid("shadow %d: want 1..%d", n, tor.ShadowLimit)
	}
	return j.execute(ctx, campaign, func(d *draft) error {
		ch, err := torCharacter(d.campaign, char)
		if err != nil {
			return err
		}
		after, err := tor.GainShadow(ch.Character, n)
		if err != nil {
			return torInvalid(ch.Name, err)
		}
		d.add(events.KindCharacter, ch.ID, events.TypeTORShadowGained, events.TORShadowGained{
			Character: ch.ID, Amount: n, Shadow: after.Shadow, Reason: strings.TrimSpace(reason),
		})
		return nil
	})
}

// MadnessRequest is an EndMadness: whose bout, and the flaw it leaves.
type MadnessRequest struct {
	Character string `json:"character" cli:"CHAR" complete:"character"`
	Flaw      string `json:"flaw" cli:"--flaw F" help:"the flaw the character gains"`
}

// EndMadness ends a character's bout of madness, as the GM decides: it
// gains 1 permanent Shadow and a flaw (free text, not blank).
func (j *Handler) EndMadness(ctx context.Context, campaign, char, flaw string) (Result, error) {
	return j.execute(ctx, campaign, func(d *draft) error {
		ch, err := torCharacter(d.campaign, char)
		if err != nil {
			return err
		}
		after, err := tor.EndMadness(ch.Character, flaw)
		switch {
		case errors.Is(err, tor.ErrNoMadness):
			return invalid("%s is not in a bout of madness", ch.Name)
		case errors.Is(err, tor.ErrOutOfRange) && strings.TrimSpace(flaw) == "":
			return invalid("a bout of madness ends with a flaw: --flaw F")
		case err != nil:
			return torInvalid(ch.Name, err)
		}
		d.add(events.KindCharacter, ch.ID, events.TypeTORMadnessEnded, events.TORMadnessEnded{
			Character: ch.ID, Flaw: after.Flaws[len(after.Flaws)-1], PermanentShadow: after.PermanentShadow,
		})
		return nil
	})
}

// TraitRequest invokes a trait before a roll with the GM's ruling.
type TraitRequest struct {
	Character string `json:"character" cli:"CHAR" complete:"character"`
	Trait     string `json:"trait" cli:"TRAIT"`
	// Automatic: the GM grants an automatic success, no roll. Otherwise the
	// character's next roll goes ahead with the trait invoked.
	Automatic bool `json:"automatic" cli:"--auto" help:"the GM grants an automatic success: no roll"`
	// Skill optionally names what an automatic success was for.
	Skill string `json:"skill,omitempty" cli:"--skill S" help:"with --auto: the skill the automatic success was for" complete:"skill"`
}

// InvokeTrait records a trait invoked before a roll and the GM's ruling
// (docs/rules.md §2.6). An automatic success is not a roll and earns no
// advancement point; otherwise the next roll of the character carries the
// trait (for the 2nd and 3rd advancement boxes).
func (j *Handler) InvokeTrait(ctx context.Context, campaign string, req TraitRequest) (Result, error) {
	return j.execute(ctx, campaign, func(d *draft) error {
		ch, err := torCharacter(d.campaign, req.Character)
		if err != nil {
			return err
		}
		if err := playerControls(ch, "invoke a trait"); err != nil {
			return err
		}
		inv, err := tor.InvokeTrait(ch.Character, req.Trait, req.Automatic)
		if err != nil {
			return unknownTrait(ch, req.Trait, err)
		}
		skill := ""
		if req.Skill != "" {
			if !req.Automatic {
				return invalid("--skill names what an automatic success was for; with --roll the trait counts for the next roll, whatever its skill")
			}
			sk, err := tor.LookupSkill(req.Skill)
			if err != nil {
				return invalidOr(err)
			}
			skill = sk.Name
		}
		if !req.Automatic && ch.PendingTrait != "" {
			return invalid("%s has already invoked «%s» for the next roll", ch.Name, ch.PendingTrait)
		}
		d.add(events.KindCharacter, ch.ID, events.TypeTORTraitInvoked, events.TORTraitInvoked{
			Character: ch.ID, Trait: inv.Trait, Automatic: inv.Automatic, Skill: skill,
		})
		return nil
	})
}
