// Package projections folds the journal's events into the state people read:
// campaigns, character sheets, combats, sessions and transcripts.
//
// Invariants: a projection is a pure function of the events folded into it,
// in stream order; nothing else writes state. Folding the same events always
// yields the same state, so any state can be rebuilt as of any sequence
// (time travel), and a checkpointed state equals a full refold. Apply never
// performs I/O and never reads a clock.
package projections

import (
	"time"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// Campaign is the state of one campaign: its rules, catalogue, characters,
// sessions and the combat in progress.
type Campaign struct {
	ID          string    `json:"id"`
	Name        string    `json:"name"`
	System      string    `json:"system"`
	Carisma     bool      `json:"carisma,omitempty"`
	HardDefense bool      `json:"hard_defense,omitempty"`
	AttrBudget  int       `json:"attr_budget,omitempty"`
	Created     time.Time `json:"created"`

	Weapons []events.WeaponDefined `json:"weapons,omitempty"`
	Skills  []events.SkillDefined  `json:"skills,omitempty"`

	Characters map[string]*Sheet `json:"characters"`
	// Roster lists character ids in creation order.
	Roster []string `json:"roster"`

	Sessions []*Session `json:"sessions"`
	// Combat is the combat in progress, nil when there is none.
	Combat *Combat `json:"combat,omitempty"`
	// LastCombat keeps the most recent ended combat, for healing after it.
	LastCombat *Combat `json:"last_combat,omitempty"`

	// TOR is the state of a The One Ring campaign (fellowship, adventure,
	// characters); nil for other systems.
	TOR *TORState `json:"tor,omitempty"`

	// Participants are the registered device keys by user (journal-dice-v2).
	Participants map[string]*Participant `json:"participants,omitempty"`
	// ChainedFrom is the sequence of the campaign's first journal-dice-v2
	// session start, from which its events carry prevhash (0: none).
	ChainedFrom uint64 `json:"chained_from,omitempty"`
	// Anchored is the sequence of the campaign's chain anchor
	// (events.ChainAnchored; 0: none). Unchained counts the events after
	// the campaign's first, before any anchor, that carry no prevhash: the
	// events of a campaign created before every event was chained, which
	// an anchor covers (NeedsAnchor).
	Anchored  uint64 `json:"anchored,omitempty"`
	Unchained int    `json:"unchained,omitempty"`

	// Day counts in-game days (new day by rest or by the GM).
	Day int `json:"day"`

	// Voided maps the ids of voided events to the reason. A voided event
	// has no effect on the state, except that a voided roll still took its
	// nonce (it was made).
	Voided map[string]string `json:"voided,omitempty"`
	// RefoldNeeded is set when a void named an event already folded into
	// this state: the state is then stale, and a fold that knows the voids
	// from the start (Fold, or a loader that pre-scans them) must replace it.
	RefoldNeeded bool `json:"refold_needed,omitempty"`

	// Calls are the open roll calls, in the order made; CallsMade counts
	// every call made. VoidProposals are the open void proposals;
	// VoidsProposed counts every one made (table.go).
	Calls         []*Call         `json:"calls,omitempty"`
	CallsMade     int             `json:"calls_made,omitempty"`
	VoidProposals []*VoidProposal `json:"void_proposals,omitempty"`
	VoidsProposed int             `json:"voids_proposed,omitempty"`

	// LastSeq is the stream sequence of the last event folded; Events counts them.
	LastSeq uint64    `json:"last_seq"`
	Events  int       `json:"events"`
	Updated time.Time `json:"updated"`
}

// Session is one session of play and its committed randomness.
type Session struct {
	ID         string    `json:"id"`
	Title      string    `json:"title,omitempty"`
	Commitment string    `json:"commitment"`
	Algorithm  string    `json:"algorithm"`
	Started    time.Time `json:"started"`
	StartSeq   uint64    `json:"start_seq"`
	Ended      bool      `json:"ended"`
	EndedAt    time.Time `json:"ended_at,omitempty"`
	// Seed is the revealed seed (lower-case hex), empty until the session ends.
	Seed string `json:"seed,omitempty"`
	// NextNonce is the nonce the next roll of the session takes.
	NextNonce uint64 `json:"next_nonce"`
	// XPGranted marks the characters granted XP in this session.
	XPGranted map[string]int `json:"xp_granted,omitempty"`
	// Contributions (journal-dice-v2) are the participants' contributions
	// to the session key, lower-case hex, in stream order; Requests its
	// roll requests by request id (see v2.go).
	Contributions []string                `json:"contributions,omitempty"`
	Requests      map[string]*PendingRoll `json:"requests,omitempty"`
	// WitnessAnchors are the contributions' witness chains in stream
	// order (those with one), GMRequests the number of GM requests (without
	// commitment) recorded: the next one's witness index is GMRequests+1.
	WitnessAnchors []WitnessAnchor `json:"witness_anchors,omitempty"`
	GMRequests     int             `json:"gm_requests,omitempty"`
	// EndedEvent and EndedSeq (v2_cosign.go) are a v2 session's
	// session-ended event and its stream sequence, whose stored bytes
	// co-signatures hash; Cosigned the users who co-signed it, with their
	// events.
	// Hidden are the GM's secret rolls of the session, in stream order
	// (hidden.go).
	Hidden     []*HiddenRoll     `json:"hidden,omitempty"`
	EndedEvent string            `json:"ended_event,omitempty"`
	EndedSeq   uint64            `json:"ended_seq,omitempty"`
	Cosigned   map[string]string `json:"cosigned,omitempty"`
}

// Combat is a combat in progress: initiative order, round and attacks.
type Combat struct {
	StartSeq   uint64         `json:"start_seq"`
	Order      []string       `json:"order"`
	Initiative map[string]int `json:"initiative"`
	Round      int            `json:"round"`
	// Attacked marks who has attacked in the current round.
	Attacked map[string]bool `json:"attacked"`
	// DamageTaken is the damage each combatant took in this combat.
	DamageTaken map[string]int `json:"damage_taken"`
	// HealedAfter marks who has had the after-combat healing.
	HealedAfter map[string]bool `json:"healed_after,omitempty"`
	// Sides maps every participant to its side (events.SideParty or
	// events.SideEnemies), as the combat's start recorded it, else as the
	// sheets say (an NPC is the enemies').
	Sides map[string]string `json:"sides,omitempty"`
	Ended bool              `json:"ended"`
}

// NewCampaign returns the empty state of campaign id, before any event.
func NewCampaign(id string) *Campaign {
	return &Campaign{ID: id, Characters: map[string]*Sheet{}}
}

// NeedsAnchor reports whether the campaign has events outside its chain
// (Unchained) and no anchor yet: the journal anchors it before its next
// event (events.ChainAnchored).
func (c *Campaign) NeedsAnchor() bool { return c.Unchained > 0 && c.Anchored == 0 }

// OpenSession returns the session in progress, or nil.
func (c *Campaign) OpenSession() *Session {
	if n := len(c.Sessions); n > 0 && !c.Sessions[n-1].Ended {
		return c.Sessions[n-1]
	}
	return nil
}

// Session returns the session with the given id, or nil.
func (c *Campaign) Session(id string) *Session {
	for _, s := range c.Sessions {
		if s.ID == id {
			return s
		}
	}
	return nil
}

// Weapon returns the campaign's definition of a weapon by exact name.
func (c *Campaign) Weapon(name string) (events.WeaponDefined, bool) {
	for i := len(c.Weapons) - 1; i >= 0; i-- {
		if c.Weapons[i].Name == name {
			return c.Weapons[i], true
		}
	}
	return events.WeaponDefined{}, false
}

// Apply folds one recorded event into the campaign. Events of other
// campaigns are refused; an event whose data cannot be read is an error
// (the stream only holds events the codec accepted, so this means a bug or
// tampering, never normal operation).
func (c *Campaign) Apply(rec events.Recorded) error {
	ev := rec.Event
	if ev.Campaign != c.ID {
		return msgerr.Errorf("event %s belongs to campaign %q, not %q", ev.ID, ev.Campaign, c.ID)
	}
	data, err := ev.Payload()
	if err != nil {
		return msgerr.Errorf("event %s: %w", ev.ID, err)
	}
	c.applyData(rec, data)
	return nil
}

// ApplyData is Apply for a caller that has decoded the event's data
// already (a verifier that reads it too): data must be what
// rec.Event.Payload() returns for the event, a pointer to the struct
// registered for its type. The fold never modifies it, and the state may
// share parts of it (slices, maps), so the caller may go on reading it but
// must not modify it. It spares decoding the data a second time; the state
// is the one Apply gives.
func (c *Campaign) ApplyData(rec events.Recorded, data any) error {
	if rec.Event.Campaign != c.ID {
		return msgerr.Errorf("event %s belongs to campaign %q, not %q", rec.Event.ID, rec.Event.Campaign, c.ID)
	}
	c.applyData(rec, data)
	return nil
}

// applyData folds an event whose data is decoded.
func (c *Campaign) applyData(rec events.Recorded, data any) {
	ev := rec.Event
	if ev.PrevHash == "" && c.Events > 0 && c.Anchored == 0 {
		c.Unchained++
	}
	if _, voided := c.Voided[ev.ID]; voided {
		c.applyVoided(ev, data)
	} else {
		c.apply(rec, data)
	}
	c.LastSeq = rec.Seq
	c.Events++
	c.Updated = ev.Time
}

func (c *Campaign) apply(rec events.Recorded, data any) {
	ev := rec.Event
	switch d := data.(type) {
	case *events.CampaignCreated:
		c.Name, c.System = d.Name, d.System
		c.Carisma, c.HardDefense, c.AttrBudget = d.Carisma, d.HardDefense, d.AttrBudget
		c.Created = ev.Time
		if d.System == events.SystemTOR {
			c.TOR = newTORState()
		}
	case *events.WeaponDefined:
		c.Weapons = append(c.Weapons, *d)
	case *events.SkillDefined:
		c.Skills = append(c.Skills, *d)
	case *events.CharacterCreated:
		c.Characters[characterID(ev)] = newSheet(characterID(ev), d, rec.Seq)
		c.Roster = append(c.Roster, characterID(ev))
	case *events.ChainAnchored:
		if c.Anchored == 0 {
			c.Anchored = rec.Seq
		}
	case *events.SessionStarted:
		if d.Algorithm == "journal-dice-v2" && c.ChainedFrom == 0 {
			c.ChainedFrom = rec.Seq
		}
		c.Sessions = append(c.Sessions, &Session{
			ID: ev.Session, Title: d.Title, Commitment: d.Commitment, Algorithm: d.Algorithm,
			Started: ev.Time, StartSeq: rec.Seq, XPGranted: map[string]int{},
		})
	case *events.SessionEnded:
		if s := c.Session(ev.Session); s != nil {
			s.Ended, s.EndedAt, s.Seed = true, ev.Time, d.Seed
			s.endV2(rec)
		}
	case *events.RollMade:
		if s := c.Session(ev.Session); s != nil && d.Nonce >= s.NextNonce {
			s.NextNonce = d.Nonce + 1
		}
		if ch := c.Characters[d.Character]; ch != nil {
			ch.applyRoll(d)
		}
		c.applyV2Roll(ev, d)
		c.applyTORRoll(rec, d)
		c.applyReveal(ev, d) // hidden.go
		if c.Combat != nil && (d.Kind == "melee" || d.Kind == "ranged") {
			setTrue(&c.Combat.Attacked, d.Character)
		}
	case *events.CombatStarted:
		c.Combat = &Combat{
			StartSeq: rec.Seq, Order: append([]string(nil), d.Order...), Round: 1,
			Initiative: map[string]int{}, Attacked: map[string]bool{},
			DamageTaken: map[string]int{}, HealedAfter: map[string]bool{},
		}
		for id, total := range d.Totals {
			c.Combat.Initiative[id] = total
		}
		c.Combat.Sides = map[string]string{}
		for _, id := range d.Order {
			switch side, ok := d.Sides[id]; {
			case ok:
				c.Combat.Sides[id] = side
			case c.Characters[id] != nil && c.Characters[id].NPC:
				c.Combat.Sides[id] = events.SideEnemies
			default:
				c.Combat.Sides[id] = events.SideParty
			}
		}
	case *events.CombatRound:
		if c.Combat != nil {
			c.Combat.Round = d.Round
			c.Combat.Attacked = map[string]bool{}
		}
	case *events.CombatEnded:
		if c.Combat != nil {
			c.Combat.Ended = true
			c.LastCombat, c.Combat = c.Combat, nil
		}
	case *events.AttackResolved:
		// The attack roll already marked the attacker; damage comes as DamageTaken.
	case *events.DamageTaken:
		if ch := c.Characters[d.Character]; ch != nil {
			ch.takeDamage(d.Amount)
		}
		if c.Combat != nil {
			addTo(&c.Combat.DamageTaken, d.Character, d.Amount)
		}
	case *events.Healed:
		if ch := c.Characters[d.Character]; ch != nil {
			ch.heal(d.Amount)
		}
		if d.Reason == HealAfterCombat {
			if cb := c.healingCombat(); cb != nil {
				setTrue(&cb.HealedAfter, d.Character)
			}
		}
	case *events.XPGranted:
		if ch := c.Characters[d.Character]; ch != nil {
			ch.XP += d.Amount
			ch.XPTotal += d.Amount
		}
		if s := c.Session(ev.Session); s != nil {
			addTo(&s.XPGranted, d.Character, d.Amount)
		}
	case *events.SkillRaised:
		if ch := c.Characters[d.Character]; ch != nil {
			ch.XP -= d.Cost
			ch.Skills[d.Skill] = d.To
		}
	case *events.TokenReturned:
		if ch := c.Characters[d.Character]; ch != nil {
			ch.Token = TokenWithPlayer
			ch.TokenJustReturned = true
		}
	case *events.WeaponReloaded:
		if ch := c.Characters[d.Character]; ch != nil {
			delete(ch.ShotsFired, d.Weapon)
		}
	case *events.DayStarted:
		c.Day++
		for _, ch := range c.Characters {
			ch.SpecUsedToday = false
		}
	case *events.EventVoided:
		if c.Voided == nil {
			c.Voided = map[string]string{}
		}
		if _, known := c.Voided[d.EventID]; !known {
			// The voided event came earlier and was folded: only a refold
			// that knows the void from the start leaves it out.
			c.RefoldNeeded = true
		}
		c.Voided[d.EventID] = d.Reason
		c.endProposals(d.EventID)
	case *events.RollHidden:
		c.applyHidden(rec, d) // hidden.go
	case *events.ContestResolved:
		// Contests are read from the transcript.
	default:
		if !c.applyV2(rec, data) && !c.applyTable(rec, data) {
			c.applyTOR(rec, data)
		}
	}
}

// applyVoided folds a voided event: it changes nothing but the nonce a
// voided roll took.
func (c *Campaign) applyVoided(ev events.Event, data any) {
	c.applyVoidedTable(data)
	if d, ok := data.(*events.RollHidden); ok {
		c.applyHidden(events.Recorded{Event: ev}, d) // still revealed at the session's end
	}
	if d, ok := data.(*events.RollMade); ok {
		if s := c.Session(ev.Session); s != nil && d.Nonce >= s.NextNonce {
			s.NextNonce = d.Nonce + 1
		}
	}
}

// KnowVoids prepares an empty state to leave out the given voided events.
func (c *Campaign) KnowVoids(voided map[string]string) {
	if len(voided) == 0 {
		return
	}
	c.Voided = make(map[string]string, len(voided))
	for id, reason := range voided {
		c.Voided[id] = reason
	}
}

// HealAfterCombat is the Healed reason of the once-per-combat healing.
const HealAfterCombat = "after_combat"

// healingCombat is the combat whose after-combat healing is open: the one
// in progress, or else the last one ended.
func (c *Campaign) healingCombat() *Combat {
	if c.Combat != nil {
		return c.Combat
	}
	return c.LastCombat
}

// HealingCombat is the combat an after-combat healing refers to (the last
// ended one), or nil.
func (c *Campaign) HealingCombat() *Combat { return c.LastCombat }

func characterID(ev events.Event) string {
	_, id, _ := ev.Aggregate()
	return id
}

// Sorted returns the character ids in creation order.
func (c *Campaign) Sorted() []string { return append([]string(nil), c.Roster...) }

// addTo adds n to (*m)[k], making the map if a JSON round trip left it nil.
func addTo(m *map[string]int, k string, n int) {
	if *m == nil {
		*m = map[string]int{}
	}
	(*m)[k] += n
}

// setTrue sets (*m)[k], making the map if a JSON round trip left it nil.
func setTrue(m *map[string]bool, k string) {
	if *m == nil {
		*m = map[string]bool{}
	}
	(*m)[k] = true
}
