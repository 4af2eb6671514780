package events

// The One Ring event types (system "tor"). See types.go for the rules of
// event types. A One Ring roll is a RollMade with System "tor" and Kind
// "tor"; Hope spent on it is a separate fact (TORHopeSpent) that names it,
// so a roll event is never changed after the fact.
const (
	TypeTORCharacterCreated    = "journal.tor.character.created.v1"
	TypeTORHopeSpent           = "journal.tor.hope.spent.v1"
	TypeTORFellowshipRequested = "journal.tor.fellowship.requested.v1"
	TypeTORFellowshipVoted     = "journal.tor.fellowship.voted.v1"
	TypeTORFellowshipSpent     = "journal.tor.fellowship.spent.v1"
	TypeTORFellowshipWithdrawn = "journal.tor.fellowship.withdrawn.v1"
	TypeTORShadowGained        = "journal.tor.shadow.gained.v1"
	TypeTORMadnessBegun        = "journal.tor.madness.begun.v1"
	TypeTORMadnessEnded        = "journal.tor.madness.ended.v1"
	TypeTORTraitInvoked        = "journal.tor.trait.invoked.v1"
	TypeTORAdvancementGranted  = "journal.tor.advancement.granted.v1"
	TypeTORAdventureStarted    = "journal.tor.adventure.started.v1"
	TypeTORFellowshipPhase     = "journal.tor.fellowship_phase.held.v1"
)

// TORScore is an attribute's basic and favoured values.
type TORScore struct {
	Basic    int `json:"basic"`
	Favoured int `json:"favoured"`
}

// TORAttributes are the three attributes of a One Ring character.
type TORAttributes struct {
	Cuerpo  TORScore `json:"cuerpo"`
	Corazon TORScore `json:"corazon"`
	Mente   TORScore `json:"mente"`
}

// TORSkill is a rank in one common skill and whether it is favoured.
type TORSkill struct {
	Rank     int  `json:"rank"`
	Favoured bool `json:"favoured,omitempty"`
}

// TORCharacterCreated records a One Ring character as validated at
// creation. Skills are keyed by canonical Spanish name; a skill not listed
// has rank 0. Hobbit is whether the culture counted as hobbit when the
// character was created (it adds to the fellowship pool).
type TORCharacterCreated struct {
	Name            string              `json:"name"`
	Player          string              `json:"player,omitempty"`
	NPC             bool                `json:"npc,omitempty"`
	Culture         string              `json:"culture,omitempty"`
	Hobbit          bool                `json:"hobbit,omitempty"`
	Attributes      TORAttributes       `json:"attributes"`
	Skills          map[string]TORSkill `json:"skills"`
	Hope            int                 `json:"hope"`
	MaxHope         int                 `json:"max_hope"`
	Shadow          int                 `json:"shadow"`
	PermanentShadow int                 `json:"permanent_shadow"`
	Traits          []string            `json:"traits,omitempty"`
}

// TORHopeSpent spends 1 Hope on a failed roll (named by its event id): the
// bonus of the skill's attribute column (favoured value if the skill is
// favoured) is added and the roll judged again. Total, Outcome and Quality
// are the roll as judged again; Hope is what is left.
type TORHopeSpent struct {
	Character string `json:"character"`
	Roll      string `json:"roll"`
	Skill     string `json:"skill"`
	Attribute string `json:"attribute"`
	Favoured  bool   `json:"favoured,omitempty"`
	Bonus     int    `json:"bonus"`
	Hope      int    `json:"hope"`
	LastHope  bool   `json:"last_hope,omitempty"`
	TN        int    `json:"tn"`
	Total     int    `json:"total"`
	Outcome   string `json:"outcome"`
	Quality   string `json:"quality,omitempty"`
	// journal-dice-v2: the roller's signed roll.request (command
	// "tor-hope", no commitment: nothing is drawn) as sent, its signature
	// and user, the request's own id, and RollRequest, the request of the
	// roll it re-judges. Empty in a v1 session.
	User        string `json:"user,omitempty"`
	Signed      string `json:"signed,omitempty"`
	Signature   string `json:"signature,omitempty"`
	Request     string `json:"request,omitempty"`
	RollRequest string `json:"roll_request,omitempty"`
}

// TORFellowshipRequested is a player character asking the fellowship for 1
// point of the pool to regain 1 Hope. Fellowship lists every member at the
// time of the request, the requester included; every other member votes.
type TORFellowshipRequested struct {
	Character  string   `json:"character"`
	Fellowship []string `json:"fellowship"`
	Pool       int      `json:"pool"`
}

// TORFellowshipVoted is one member's vote on a pending request (named by the
// request's event id).
type TORFellowshipVoted struct {
	Request   string `json:"request"`
	Character string `json:"character"` // the requester
	Voter     string `json:"voter"`
	Agree     bool   `json:"agree"`
}

// Outcomes of TORFellowshipSpent.
const (
	TORFellowshipGranted = "granted"      // at least half the votes agreed
	TORFellowshipForced  = "taken anyway" // refused, taken with 1 Shadow
)

// TORFellowshipSpent settles a request with a point spent from the pool:
// granted by the vote, or taken anyway after a refusal (Shadow +1). Hope,
// Shadow and Pool are the values afterwards.
type TORFellowshipSpent struct {
	Request   string `json:"request"`
	Character string `json:"character"`
	Outcome   string `json:"outcome"`
	Voters    int    `json:"voters"`
	Agree     int    `json:"agree"`
	Refuse    int    `json:"refuse"`
	Hope      int    `json:"hope"`
	Shadow    int    `json:"shadow"`
	Pool      int    `json:"pool"`
}

// TORFellowshipWithdrawn settles a request that the requester withdrew
// (after a refusal, or before the vote ended): nothing changes.
type TORFellowshipWithdrawn struct {
	Request   string `json:"request"`
	Character string `json:"character"`
	Agree     int    `json:"agree"`
	Refuse    int    `json:"refuse"`
}

// TORShadowGained adds temporary Shadow. Shadow is the value afterwards.
type TORShadowGained struct {
	Character string `json:"character"`
	Amount    int    `json:"amount"`
	Shadow    int    `json:"shadow"`
	Reason    string `json:"reason,omitempty"`
}

// TORMadnessBegun starts a bout of madness: the roll (event id) showed the
// Eye while Hope was below total Shadow. The GM controls the character until
// the bout ends.
type TORMadnessBegun struct {
	Character       string `json:"character"`
	Roll            string `json:"roll"`
	Hope            int    `json:"hope"`
	Shadow          int    `json:"shadow"`
	PermanentShadow int    `json:"permanent_shadow"`
}

// TORMadnessEnded ends a bout of madness: 1 permanent Shadow and a flaw.
// PermanentShadow is the value afterwards.
type TORMadnessEnded struct {
	Character       string `json:"character"`
	Flaw            string `json:"flaw"`
	PermanentShadow int    `json:"permanent_shadow"`
}

// TORTraitInvoked is a trait invoked before a roll and the GM's ruling:
// Automatic is an automatic success (no roll; Skill names what it was for,
// if given); otherwise the character's next roll goes ahead with the trait
// counted as invoked.
type TORTraitInvoked struct {
	Character string `json:"character"`
	Trait     string `json:"trait"`
	Automatic bool   `json:"automatic"`
	Skill     string `json:"skill,omitempty"`
}

// TORAdvancementGranted gives one advancement point in a skill group, in
// box Box (1..3) of the current adventure. Roll names the roll that earned
// it (empty: granted by the GM's decision alone) and Reason why it
// qualified.
type TORAdvancementGranted struct {
	Character string `json:"character"`
	Group     string `json:"group"`
	Box       int    `json:"box"`
	Roll      string `json:"roll,omitempty"`
	Skill     string `json:"skill,omitempty"`
	Reason    string `json:"reason"`
}

// TORAdventureStarted starts an adventure: the fellowship pool is set to
// Pool (one per player character, plus one per hobbit).
type TORAdventureStarted struct {
	Number int    `json:"number"`
	Title  string `json:"title,omitempty"`
	Pool   int    `json:"pool"`
}

// TORFellowshipPhase ends an adventure: each character's advancement points
// (Banked, by character id) go to its advancement total and its groups are
// cleared, temporary Shadow is cleared (ShadowCleared, by character id) and
// the pool is reset to Pool.
type TORFellowshipPhase struct {
	Adventure     int            `json:"adventure"`
	Banked        map[string]int `json:"banked"`
	ShadowCleared map[string]int `json:"shadow_cleared,omitempty"`
	Pool          int            `json:"pool"`
}
