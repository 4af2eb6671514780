package projections

import (
	"fmt"
	"strings"
	"time"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/rules/ryf"
)

// Line is one human line of a session transcript.
type Line struct {
	Seq     uint64    `json:"seq"`
	Time    time.Time `json:"time"`
	Session string    `json:"session,omitempty"`
	EventID string    `json:"event_id"`
	Type    string    `json:"type"`
	Text    string    `json:"text"`
}

// Transcript folds events into human lines, keeping the campaign state it
// needs to name things.
type Transcript struct {
	Campaign *Campaign
	Lines    []Line
	// Session, when set, keeps only that session's lines.
	Session string
	// Lang is the language of the lines; the zero value is Spanish, the
	// language of the rule texts and of every transcript before it.
	Lang i18n.Lang
	// Dropped counts the lines before Lines that a transcript restored
	// from a state does not have (RestoreTranscript; 0 for one folded
	// from the start).
	Dropped int
}

// NewTranscript returns an empty transcript of a campaign, optionally of one session.
func NewTranscript(campaign, session string) *Transcript {
	return &Transcript{Campaign: NewCampaign(campaign), Session: session}
}

// Apply describes the event with the state before it, then folds it.
func (t *Transcript) Apply(rec events.Recorded) error {
	data, err := rec.Event.Payload()
	if err != nil {
		return msgerr.Errorf("event %s: %w", rec.Event.ID, err)
	}
	text := DescribeIn(t.Lang, t.Campaign, rec.Event, data)
	if err := t.Campaign.ApplyData(rec, data); err != nil {
		return err
	}
	if t.Session == "" || rec.Event.Session == t.Session {
		t.Lines = append(t.Lines, Line{
			Seq: rec.Seq, Time: rec.Event.Time, Session: rec.Event.Session,
			EventID: rec.Event.ID, Type: rec.Event.Type, Text: text,
		})
	}
	return nil
}

// name returns a character's display name, or its id.
func (c *Campaign) name(id string) string {
	if ch := c.Characters[id]; ch != nil && ch.Name != "" {
		return ch.Name
	}
	return id
}

// orKey looks up prefix+value in the catalogue, keeping a value it does not know.
func orKey(l i18n.Lang, prefix, value string) string {
	k := i18n.Key(prefix + value)
	if out := l.T(k); out != string(k) {
		return out
	}
	return value
}

// reasonKeys are the catalogue keys of ryf's level reasons.
var reasonKeys = map[string]i18n.Key{
	ryf.ReasonSpecialization: "reason.specialization",
	ryf.ReasonRankZero:       "reason.rank0",
	ryf.ReasonBase:           "reason.base",
	ryf.ReasonTokenSpent:     "reason.token_spent",
	ryf.ReasonTokenReturned:  "reason.token_returned",
	ryf.ReasonIncapacitated:  "reason.incapacitated",
	ryf.ReasonClampedLow:     "reason.clamped_low",
	ryf.ReasonClampedHigh:    "reason.clamped_high",
}

// contestKeys are the catalogue keys of ryf's contest reasons.
var contestKeys = map[string]i18n.Key{
	ryf.ContestHigher:     "contest.higher",
	ryf.ContestEqual:      "contest.equal",
	ryf.ContestOneFailed:  "contest.one_failed",
	ryf.ContestBothFailed: "contest.both_failed",
}

// known translates a rules text through keys, keeping one it does not know.
func known(l i18n.Lang, keys map[string]i18n.Key, text string) string {
	if k, ok := keys[text]; ok {
		return l.T(k)
	}
	return text
}

// LevelReasons translates ryf's level reasons into l, keeping any the
// catalogue does not know as it is (the transcript and explain share it).
func LevelReasons(l i18n.Lang, rs []string) []string { return reasons(l, rs) }

// reasons translates ryf's level reasons, keeping any it does not know.
func reasons(l i18n.Lang, rs []string) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = known(l, reasonKeys, r)
	}
	return out
}

// Describe returns the Spanish transcript line of one event, given the
// state before it.
func Describe(c *Campaign, ev events.Event, data any) string {
	return DescribeIn(i18n.ES, c, ev, data)
}

// DescribeIn returns the transcript line of one event in l, given the
// state before it. Rule names (skills, difficulties, weapons) stay as the
// rules name them.
func DescribeIn(l i18n.Lang, c *Campaign, ev events.Event, data any) string {
	switch d := data.(type) {
	case *events.CampaignCreated:
		opts := ""
		if d.Carisma {
			opts += l.T("tr.opt_carisma")
		}
		if d.HardDefense {
			opts += l.T("tr.opt_hard_defense")
		}
		return l.T("tr.campaign_created", d.Name, d.System, opts)
	case *events.WeaponDefined:
		return l.T("tr.weapon_defined", d.Name, d.Skill, d.Damage, d.Precision)
	case *events.SkillDefined:
		return l.T("tr.skill_defined", d.Name, d.Attribute)
	case *events.CharacterCreated:
		kind := l.T("tr.pc_of", d.Player)
		if d.NPC {
			kind = l.T("tr.npc")
		}
		return l.T("tr.character_created", d.Name, kind, d.MaxHP)
	case *events.SessionStarted:
		return l.T("tr.session_started", ev.Session, d.Commitment)
	case *events.SessionEnded:
		return l.T("tr.session_ended", ev.Session, d.Rolls, d.Seed)
	case *events.RollMade:
		return describeRoll(l, c, d)
	case *events.ContestResolved:
		reason := known(l, contestKeys, d.Reason)
		if d.Tie {
			return l.T("tr.contest_tie", c.name(d.A), c.name(d.B), reason)
		}
		line := l.T("tr.contest_won", c.name(d.A), c.name(d.B), c.name(d.Winner), reason)
		if d.Critical {
			line += l.T("tr.contest_critical")
		}
		return line
	case *events.CombatStarted:
		names := make([]string, len(d.Order))
		for i, id := range d.Order {
			names[i] = c.name(id)
		}
		return l.T("tr.combat_started", strings.Join(names, ", "))
	case *events.CombatRound:
		return l.T("tr.combat_round", d.Round)
	case *events.CombatEnded:
		return l.T("tr.combat_ended")
	case *events.AttackResolved:
		if !d.Hit {
			return l.T("tr.attack_missed", c.name(d.Attacker), c.name(d.Target), d.Against)
		}
		crit := ""
		if d.Critical {
			crit = l.T("tr.attack_critical")
		}
		return l.T("tr.attack_hit", c.name(d.Attacker), c.name(d.Target), d.Total, d.Against, d.Damage, crit)
	case *events.DamageTaken:
		hp := 0
		if ch := c.Characters[d.Character]; ch != nil {
			hp = ch.HP
		}
		after := hp - d.Amount
		return l.T("tr.damage_taken", c.name(d.Character), d.Amount, hp, after, StatusName(l, statusOf(after)))
	case *events.Healed:
		hp, maxHP := 0, 0
		if ch := c.Characters[d.Character]; ch != nil {
			hp, maxHP = ch.HP, ch.MaxHP
		}
		return l.T("tr.healed", c.name(d.Character), d.Amount, orKey(l, "heal.", d.Reason), hp, min(hp+d.Amount, maxHP))
	case *events.XPGranted:
		return l.T("tr.xp_granted", c.name(d.Character), d.Amount)
	case *events.SkillRaised:
		return l.T("tr.skill_raised", c.name(d.Character), d.Skill, d.From, d.To, d.Cost)
	case *events.TokenReturned:
		return l.T("tr.token_returned", c.name(d.Character))
	case *events.WeaponReloaded:
		return l.T("tr.weapon_reloaded", c.name(d.Character), d.Weapon)
	case *events.DayStarted:
		return l.T("tr.day_started")
	case *events.EventVoided:
		return l.T("tr.event_voided", d.EventID, d.Reason)
	case *events.ChainAnchored:
		return l.T("tr.chain_anchored", d.Events, short(d.Hash))
	case *events.RollHidden:
		return describeHidden(l, c, d)
	}
	if line, ok := describeV2(l, c, ev, data); ok {
		return line
	}
	if line, ok := describeTOR(l, c, ev, data); ok {
		return line
	}
	return ev.Type
}

// StatusName names a sheet's status ("ok", "incapacitated", "unconscious",
// "dead") in l.
func StatusName(l i18n.Lang, status string) string { return orKey(l, "status.", status) }

// DescribeRoll is the transcript's line of roll d in the state c.
func DescribeRoll(l i18n.Lang, c *Campaign, d *events.RollMade) string { return describeRoll(l, c, d) }

func describeRoll(l i18n.Lang, c *Campaign, d *events.RollMade) string {
	if d.Hidden != "" {
		return describeRollOnly(l, c, d) + l.T("roll.revealed", short(d.Hidden))
	}
	return describeRollOnly(l, c, d)
}

// rollerName names who rolled: the character, or the GM for its free
// roll for none.
func rollerName(l i18n.Lang, c *Campaign, character string) string {
	if character == "" {
		return l.T("roll.gm")
	}
	return c.name(character)
}

// describeHidden is the line of a GM's secret roll: who and what, no outcome.
func describeHidden(l i18n.Lang, c *Campaign, d *events.RollHidden) string {
	what := d.Dice
	switch {
	case d.Skill != "":
		what = d.Skill
	case d.Kind == "attribute":
		what = l.T("roll.attribute", d.Attribute)
	}
	line := l.T("tr.roll_hidden", rollerName(l, c, d.Character), what, d.Nonce)
	if d.Note != "" {
		line += l.T("roll.note", d.Note)
	}
	return line
}

func describeRollOnly(l i18n.Lang, c *Campaign, d *events.RollMade) string {
	if d.Kind == "free" {
		line := l.T("roll.free", rollerName(l, c, d.Character), d.Dice, d.Faces, d.Total) + l.T("roll.nonce", d.Nonce)
		if d.Note != "" {
			line += l.T("roll.note", d.Note)
		}
		return line
	}
	if d.System == events.SystemTOR {
		return describeTORRoll(l, c, d)
	}
	who := c.name(d.Character)
	var b strings.Builder
	switch d.Kind {
	case "damage":
		weapon := d.Weapon
		if weapon == "" {
			weapon = l.T("roll.unarmed")
		}
		b.WriteString(l.T("roll.damage", who, d.Dice, weapon, d.Faces, d.Total))
		if d.Critical {
			b.WriteString(l.T("roll.damage_critical"))
		}
		b.WriteString(l.T("roll.nonce", d.Nonce))
		return b.String()
	case "heal":
		return l.T("roll.heal", who, d.Dice, d.Faces, d.Nonce)
	}
	what := d.Skill
	if what == "" {
		what = d.Attribute
	}
	switch d.Kind {
	case "initiative":
		what = l.T("roll.initiative")
	case "melee", "ranged":
		what = l.T("roll.attack", c.name(d.Target))
	case "attribute":
		what = l.T("roll.attribute", d.Attribute)
	}
	b.WriteString(l.T("roll.rolls", who, what))
	if d.Modifier != 0 { // in the base already: shown, signed, so the base adds up
		b.WriteString(l.T("roll.base_mod_level", d.Base, d.Modifier, orKey(l, "level.", d.Level)))
	} else {
		b.WriteString(l.T("roll.base_level", d.Base, orKey(l, "level.", d.Level)))
	}
	if len(d.LevelReasons) > 0 {
		fmt.Fprintf(&b, ": %s", strings.Join(reasons(l, d.LevelReasons), ", "))
	}
	b.WriteString(l.T("roll.dice", rounds(d.Faces), d.Kept, d.Total))
	if d.Difficulty != nil {
		if d.DifficultyName != "" {
			b.WriteString(l.T("roll.against_named", d.DifficultyName, *d.Difficulty))
		} else {
			b.WriteString(l.T("roll.against", *d.Difficulty))
		}
	}
	b.WriteString(l.T("roll.outcome", orKey(l, "outcome.", d.Outcome), d.Nonce))
	return b.String()
}

// rounds groups 1o3d10 faces by rounds of three for display.
func rounds(faces []int) [][]int {
	var out [][]int
	for i := 0; i+3 <= len(faces); i += 3 {
		out = append(out, faces[i:i+3])
	}
	return out
}
