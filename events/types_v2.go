package events

// journal-dice-v2 (docs/design.md §3.2): the events of participants' keys and of
// rolls asked for before they are drawn. Field names outside verifiers rely
// on are docs/design.md's: user, public_key, signed, signature, value, request,
// commitment, nonce.
const (
	TypeParticipantRegistered = "journal.participant.registered.v1"
	TypeSessionContributed    = "journal.session.contributed.v1"
	TypeRollRequested         = "journal.roll.requested.v1"
	TypeRollCancelled         = "journal.roll.cancelled.v1"
)

// ParticipantRegistered registered a user's device key in the campaign
// before devices signed their own registration (legacy: the journal no
// longer records it, and reads it as a device without proof of possession,
// flagged key-unproved; types_device.go has what it records now). A later
// one of the same user replaced its key from that event on: what was
// signed before stays checked against the key then registered.
// PublicKey is the 32-byte Ed25519 key as 64 lower-case hex digits;
// Fingerprint is signed.Fingerprint of it (what the user's device shows).
type ParticipantRegistered struct {
	User        string `json:"user"`
	Role        string `json:"role"`
	PublicKey   string `json:"public_key"`
	Fingerprint string `json:"fingerprint"`
}

// SessionContributed records a participant's signed session.contribute:
// Signed is the string as the device sent it, Signature its base64url
// Ed25519 signature under User's registered key, Value the contribution
// (lower-case hex, equal to the one in Signed). Contributions enter the
// session key in stream order. Character is the character whose player
// contributed, as the request named it ("" for the GM).
type SessionContributed struct {
	User      string `json:"user"`
	Character string `json:"character,omitempty"`
	Signed    string `json:"signed"`
	Signature string `json:"signature"`
	Value     string `json:"value"`
	// WitnessAnchor is the device's witness chain, hex(H^N(w))
	// (signed.Contribute.WitnessAnchor), "" in an older contribution.
	WitnessAnchor string `json:"witness_anchor,omitempty"`
}

// RollRequested records a signed roll.request, judged valid against the
// rules and the state, with the nonce it takes. Nothing is drawn yet:
// the roll is made when the requester reveals r (RollMade.Request names
// this request). Every input of the action is explicit, zeros and false
// included (the action object in Signed holds them as the device sent them;
// the fields below are the journal's reading of it and must equal it).
type RollRequested struct {
	User       string `json:"user"`
	Signed     string `json:"signed"`
	Signature  string `json:"signature"`
	Request    string `json:"request"`
	Commitment string `json:"commitment"`
	Nonce      uint64 `json:"nonce"`

	Character      string `json:"character"`
	Kind           string `json:"kind"`
	Skill          string `json:"skill"`
	Attribute      string `json:"attribute"`
	Vs             string `json:"vs"`
	Modifier       int    `json:"modifier"`
	Token          bool   `json:"token"`
	Specialization bool   `json:"specialization"`

	// An attack (Kind melee or ranged; the action's command "attack")
	// names its Target, Weapon, Range band ("" for melee) and Cover, and
	// takes two nonces, Nonces = [Nonce, Nonce+1]: the attack roll's and
	// the damage roll's. The second is taken whether or not the attack
	// hits (the hit is not known at the request), so a miss consumes it
	// without a roll and nonces keep no gap. Nonces is omitted for a
	// request of one roll (Nonce alone). Its elements are ints (the
	// events' fast decoder reads int slices); a negative one is no nonce
	// and Taken leaves it out, so the audit finds the request's nonces wrong.
	Nonces []int  `json:"nonces,omitempty"`
	Target string `json:"target,omitempty"`
	Weapon string `json:"weapon,omitempty"`
	Range  string `json:"range,omitempty"`
	Cover  bool   `json:"cover,omitempty"`

	// A The One Ring roll (the action's command "tor-roll") names its
	// target number TN and the Trait counted as invoked ("" for none).
	TN    int    `json:"tn,omitempty"`
	Trait string `json:"trait,omitempty"`

	// A contest (the action's command "contest", Kind "contest") records
	// side A in Character, Skill, Attribute, Modifier, Token and
	// Specialization, side B in the fields ending in B, and the tied
	// contest it re-rolls in Rematch ("" for none); it takes two nonces,
	// Nonces = [Nonce, Nonce+1]: side A's roll, then side B's.
	B               string `json:"b,omitempty"`
	SkillB          string `json:"skill_b,omitempty"`
	AttributeB      string `json:"attribute_b,omitempty"`
	ModifierB       int    `json:"modifier_b,omitempty"`
	TokenB          bool   `json:"token_b,omitempty"`
	SpecializationB bool   `json:"specialization_b,omitempty"`
	Rematch         string `json:"rematch,omitempty"`
	// A combat's initiative (command "combat-start", Kind "initiative")
	// lists its Participants in roll order (Character is the first) and
	// those who spend their token on it (Tokens); it takes one nonce per
	// participant, Nonces = [Nonce, …, Nonce+len-1], in that order. An
	// after-combat healing (command "heal-after-combat", Kind "heal")
	// takes one nonce, like a skill roll.
	Participants []string `json:"participants,omitempty"`
	Tokens       []string `json:"tokens,omitempty"`

	// A GM's request (no commitment: Commitment is "") is resolved by the
	// first player's roll.witness, by the drand quicknet round BeaconRound
	// (as signed; 0: none) once published, or, Wait seconds after this
	// event's time (the wait the GM chose), unwitnessed. Wait is 0 for a
	// player's request.
	BeaconRound uint64 `json:"beacon_round,omitempty"`
	Wait        int    `json:"wait,omitempty"`
	// WitnessIndex is j for the session's j-th GM request (1, 2, … in
	// stream order) in a session of witness chains (a player's
	// contribution has a witness_anchor): every contributing player device
	// witnesses it with its w_j. 0 otherwise.
	WitnessIndex int `json:"witness_index,omitempty"`

	// A free roll (command "free-roll", Kind "free") names its dice
	// expression as the journal writes it, the roller's Note, and whether
	// it is the GM's Secret roll (recorded hidden until revealed).
	Dice   string `json:"dice,omitempty"`
	Note   string `json:"note,omitempty"`
	Secret bool   `json:"secret,omitempty"`
}

// Taken is the nonces the request takes: Nonces, or Nonce alone.
func (r RollRequested) Taken() []uint64 {
	if len(r.Nonces) == 0 {
		return []uint64{r.Nonce}
	}
	out := make([]uint64, 0, len(r.Nonces))
	for _, n := range r.Nonces {
		if n >= 0 {
			out = append(out, uint64(n))
		}
	}
	return out
}

// RollCancelled records that the GM cancelled a request left unrevealed:
// its nonce is consumed (replay lists it), and it can no longer be revealed.
type RollCancelled struct {
	Request string `json:"request"`
	Nonce   uint64 `json:"nonce"`
	Reason  string `json:"reason"`
}
