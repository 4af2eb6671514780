package events

// Event types. A type names a past-tense fact and a schema version; its
// meaning never changes. A new shape is a new version, and old versions stay
// readable forever. The data struct registered for each type in the
// registry (registry.go) is the codec's whitelist: an event of any other
// type is refused.
const (
	TypeCampaignCreated  = "journal.campaign.created.v1"
	TypeWeaponDefined    = "journal.weapon.defined.v1"
	TypeSkillDefined     = "journal.skill.defined.v1"
	TypeCharacterCreated = "journal.character.created.v1"
	TypeSessionStarted   = "journal.session.started.v1"
	TypeSessionEnded     = "journal.session.ended.v1"
	TypeRollMade         = "journal.roll.made.v1"
	TypeContestResolved  = "journal.contest.resolved.v1"
	TypeCombatStarted    = "journal.combat.started.v1"
	TypeCombatRound      = "journal.combat.round.v1"
	TypeCombatEnded      = "journal.combat.ended.v1"
	TypeAttackResolved   = "journal.attack.resolved.v1"
	TypeDamageTaken      = "journal.damage.taken.v1"
	TypeHealed           = "journal.healed.v1"
	TypeXPGranted        = "journal.xp.granted.v1"
	TypeSkillRaised      = "journal.skill.raised.v1"
	TypeTokenReturned    = "journal.token.returned.v1"
	TypeWeaponReloaded   = "journal.weapon.reloaded.v1"
	TypeDayStarted       = "journal.day.started.v1"
	TypeEventVoided      = "journal.event.voided.v1"
)

// CampaignCreated opens a campaign. Its options fix the rules for its life.
type CampaignCreated struct {
	Name        string `json:"name"`
	System      string `json:"system"`
	Carisma     bool   `json:"carisma,omitempty"`
	HardDefense bool   `json:"hard_defense,omitempty"`
	// AttrBudget is a lower attribute budget for player characters (0: the rules' default).
	AttrBudget int `json:"attr_budget,omitempty"`
}

// WeaponDefined adds a weapon to the campaign's catalogue (or redefines one
// from the rule texts).
type WeaponDefined struct {
	Name      string `json:"name" cli:"NAME"`
	Skill     string `json:"skill" cli:"--skill S" help:"attack skill (default: Armas cuerpo a cuerpo, or the system's ranged skill)" complete:"skill"`
	Damage    string `json:"damage" cli:"--damage 1d10" help:"damage dice, e.g. 1d10, 2d6, 1d6-2"`
	Precision int    `json:"precision" cli:"--precision N" help:"precision bonus or penalty"`
	Ranged    bool   `json:"ranged,omitempty" cli:"-"`
	Short     int    `json:"short_m,omitempty" cli:"-"` // the CLI's --ranges SHORT/MEDIUM/LONG
	Medium    int    `json:"medium_m,omitempty" cli:"-"`
	Long      int    `json:"long_m,omitempty" cli:"-"`
	Magazine  int    `json:"magazine,omitempty" cli:"--magazine N" help:"shots per magazine (0: not tracked)"`
}

// SkillDefined adds a campaign skill with its default attribute.
type SkillDefined struct {
	Name      string `json:"name"`
	Attribute string `json:"attribute"`
}

// CharacterCreated records a RyF or Galaxia character as validated at creation.
type CharacterCreated struct {
	Name           string         `json:"name"`
	Player         string         `json:"player"`
	NPC            bool           `json:"npc,omitempty"`
	Occupation     string         `json:"occupation,omitempty"`
	Attributes     map[string]int `json:"attributes"`
	Skills         map[string]int `json:"skills"`
	Specialization string         `json:"specialization,omitempty"`
	Weapons        []string       `json:"weapons,omitempty"`
	MaxHP          int            `json:"max_hp"`
}

// SessionStarted opens a session and commits to its secret seed:
// Commitment = hex(SHA-256(seed)). The seed itself is never in this event.
type SessionStarted struct {
	Title      string `json:"title,omitempty"`
	Algorithm  string `json:"algorithm"`
	Commitment string `json:"commitment"`
}

// SessionEnded closes a session and reveals its seed (lower-case hex).
type SessionEnded struct {
	Seed  string `json:"seed"`
	Rolls int    `json:"rolls"`
}

// RollMade is one roll of dice, with every input and every face in draw
// order. Faces are the record: replay re-derives them from the session's
// seed, Nonce and Entropy, and recomputes Total and Outcome from the rules.
type RollMade struct {
	System string `json:"system"`
	// Rules is the rules version the roll was judged under, "engine/N"
	// ("ryf/2", "tor/1", "dice/1"): the command layer sets it from its
	// engine's constant, and Rejudge, reproduce and the verifiers judge the
	// roll by that version's judge, never by a later one. A roll recorded
	// before the journal recorded it has none: it reads as version 1 of its
	// kind's engine, except a 1o3d10 roll flagged Opposed, which reads as
	// ryf/2 (rolls.Version; docs/rules.md part 4).
	Rules     string `json:"rules,omitempty"`
	Kind      string `json:"kind"` // skill, attribute, initiative, melee, ranged, damage, heal (RyF); skill (TOR)
	Character string `json:"character"`
	Skill     string `json:"skill,omitempty"`
	Attribute string `json:"attribute,omitempty"`
	// Inputs of a 1o3d10 roll. Attribute2 is Percepción in initiative rolls.
	AttributeValue  int      `json:"attribute_value,omitempty"`
	Attribute2      string   `json:"attribute2,omitempty"`
	Attribute2Value int      `json:"attribute2_value,omitempty"`
	Rank            int      `json:"rank,omitempty"`
	Modifier        int      `json:"modifier,omitempty"`
	Precision       int      `json:"precision,omitempty"`
	Base            int      `json:"base,omitempty"`
	Level           string   `json:"level,omitempty"`
	LevelReasons    []string `json:"level_reasons,omitempty"`
	// Difficulty is what the total had to reach (difficulty, Defense or
	// range difficulty); nil when the roll had none.
	Difficulty     *int   `json:"difficulty,omitempty"`
	DifficultyName string `json:"difficulty_name,omitempty"`
	Cover          bool   `json:"cover,omitempty"`
	Token          bool   `json:"token,omitempty"`
	TokenReturned  bool   `json:"token_returned,omitempty"`
	Specialization bool   `json:"specialization,omitempty"`
	Incapacitated  bool   `json:"incapacitated,omitempty"`
	Weapon         string `json:"weapon,omitempty"`
	Target         string `json:"target,omitempty"`
	Range          string `json:"range,omitempty"`
	// Dice: Dice says what was drawn ("1o3d10", "2d6", "1d6-2", "d12+3d6").
	Dice    string `json:"dice"`
	Nonce   uint64 `json:"nonce"`
	Entropy string `json:"entropy"`
	Faces   []int  `json:"faces"`
	Kept    []int  `json:"kept,omitempty"`
	DiePart int    `json:"die_part,omitempty"`
	Total   int    `json:"total"`
	Outcome string `json:"outcome"`
	// Critical doubles damage in combat.
	Critical bool `json:"critical,omitempty"`
	Fumble   bool `json:"fumble,omitempty"`
	Natural1 bool `json:"natural1,omitempty"`
	Exploded bool `json:"exploded,omitempty"`
	// TOR fields.
	TN       int    `json:"tn,omitempty"`
	Feat     int    `json:"feat,omitempty"`
	Eye      bool   `json:"eye,omitempty"`
	Rune     bool   `json:"rune,omitempty"`
	Quality  string `json:"quality,omitempty"`
	Favoured bool   `json:"favoured,omitempty"`
	Trait    string `json:"trait,omitempty"`
	// Opposed marks a side of a contest (see ryf.Check.Opposed): rules
	// ryf/2 (docs/rules.md 1.5's decision) flag every side, and an opposed
	// attribute roll explodes and has a natural 1; rules ryf/1 have no
	// opposed rolls (a contest's sides are plain rolls).
	Opposed bool `json:"opposed,omitempty"`
	// journal-dice-v2: Request names the roll's RollRequested, Reveal is
	// its r (lower-case hex), Witness the user who gave r for someone
	// else's request ("" for the requester's own reveal, "none" for an
	// unwitnessed GM roll), Draws the sides of every die drawn, in order.
	// User, Signed and Signature are the device's signed roll.reveal (or
	// roll.witness) the roll was made from, as sent.
	User      string `json:"user,omitempty"`
	Signed    string `json:"signed,omitempty"`
	Signature string `json:"signature,omitempty"`
	Request   string `json:"request,omitempty"`
	Reveal    string `json:"reveal,omitempty"`
	Witness   string `json:"witness,omitempty"`
	Draws     []int  `json:"draws,omitempty"`
	// A beacon roll (Witness "beacon"): the drand quicknet round its
	// request named and that round's BLS signature (lower-case hex);
	// Reveal is SHA-256 of the signature.
	BeaconRound     uint64 `json:"beacon_round,omitempty"`
	BeaconSignature string `json:"beacon_signature,omitempty"`
	// A GM roll of witness chains (Witness "chain"): the request's witness
	// index j and the values it was made from, each contributing device's
	// w_j in contribution order (those left out after the GM's wait are
	// missing: flagged partial-witness); Reveal is dice.CombineWitnesses of
	// them.
	WitnessIndex int         `json:"witness_index,omitempty"`
	Witnesses    []GMWitness `json:"witnesses,omitempty"`
	// Note is the roller's note on a free roll (Kind "free") or a secret
	// roll; Call the roll call it answers.
	Note string `json:"note,omitempty"`
	Call string `json:"call,omitempty"`
	// Hidden names the RollHidden event of the GM's secret roll this
	// roll reveals (types_hidden.go): its inputs must be that event's.
	Hidden string `json:"hidden,omitempty"`
}

// ContestResolved names the two rolls of an opposed roll and the winner
// (empty on a tie). Rematch links a re-roll to the tied contest. Critical:
// the winner's total is 30 or more (docs/rules.md 1.5); a contest recorded
// before the journal recorded it has none, so only a critical recorded
// is judged (a missing one reads as an older event's).
type ContestResolved struct {
	RollA    string `json:"roll_a"`
	RollB    string `json:"roll_b"`
	A        string `json:"a"`
	B        string `json:"b"`
	Winner   string `json:"winner,omitempty"`
	Tie      bool   `json:"tie,omitempty"`
	Reason   string `json:"reason"`
	Rematch  string `json:"rematch,omitempty"`
	Critical bool   `json:"critical,omitempty"`
}

// CombatStarted opens a combat with its initiative order (first acts first);
// Initiative names each participant's initiative roll event, and Totals
// gives its total.
type CombatStarted struct {
	Order      []string          `json:"order"`
	Initiative map[string]string `json:"initiative"`
	Totals     map[string]int    `json:"totals,omitempty"`
	// Sides maps every participant to its side, SideParty or SideEnemies
	// (docs/design.md §6): a player's character is the party's, an NPC the
	// enemies'. Absent in combats recorded before sides were: a fold then
	// reads the same from the sheets.
	Sides map[string]string `json:"sides,omitempty"`
}

// The sides of a combat (CombatStarted.Sides).
const (
	SideParty   = "party"
	SideEnemies = "enemies"
)

// CombatRound starts a new round: everyone may attack once again.
type CombatRound struct {
	Round int `json:"round"`
}

// CombatEnded closes the combat.
type CombatEnded struct{}

// AttackResolved links an attack roll, its target number and its damage roll.
type AttackResolved struct {
	Attacker   string `json:"attacker"`
	Target     string `json:"target"`
	AttackRoll string `json:"attack_roll"`
	DamageRoll string `json:"damage_roll,omitempty"`
	Against    int    `json:"against"` // Defense or range difficulty
	Total      int    `json:"total"`   // the attack roll's total
	Hit        bool   `json:"hit"`
	Critical   bool   `json:"critical,omitempty"`
	Damage     int    `json:"damage"`
}

// DamageTaken lowers a character's HP. Source is who dealt it (empty: the GM).
type DamageTaken struct {
	Character string `json:"character"`
	Amount    int    `json:"amount"`
	Source    string `json:"source,omitempty"`
}

// Healed raises a character's HP, capped by the rules when it was recorded.
type Healed struct {
	Character string `json:"character"`
	Amount    int    `json:"amount"`
	Reason    string `json:"reason"` // gm, rest, comfort, after_combat
}

// XPGranted gives experience points at the end of a session.
type XPGranted struct {
	Character string `json:"character"`
	Amount    int    `json:"amount"`
}

// SkillRaised spends XP to raise a skill by one rank.
type SkillRaised struct {
	Character string `json:"character"`
	Skill     string `json:"skill"`
	From      int    `json:"from"`
	To        int    `json:"to"`
	Cost      int    `json:"cost"`
}

// TokenReturned gives the token back from the GM to the player: the
// character's next roll is one level lower.
type TokenReturned struct {
	Character string `json:"character"`
}

// WeaponReloaded refills a character's magazine.
type WeaponReloaded struct {
	Character string `json:"character"`
	Weapon    string `json:"weapon"`
}

// DayStarted starts a new in-game day: specializations may be used again.
type DayStarted struct {
	Reason string `json:"reason"` // rest, gm
}

// EventVoided is a correction that names the voided event; the voided event
// stays in the stream and projections ignore it.
type EventVoided struct {
	EventID string `json:"event_id"`
	Reason  string `json:"reason"`
	// journal-dice-v2 (types_v2_cosign.go): the void of a v2 roll may carry
	// its roller's signed void.consent {event, reason}: ConsentUser (the
	// roller), ConsentSigned (the string as the roller's device sent it)
	// and ConsentSignature (base64url Ed25519 under the roller's key). All
	// three are empty without a consent.
	ConsentUser      string `json:"consent_user,omitempty"`
	ConsentSigned    string `json:"consent_signed,omitempty"`
	ConsentSignature string `json:"consent_signature,omitempty"`
}
