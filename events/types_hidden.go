package events

// Free rolls and GM secret rolls (docs/design.md §3.4, "Free rolls and
// secret rolls"). A free roll is a RollMade of Kind "free" whose Dice is
// a dice expression (dice.ParseExpr). A GM's secret roll is recorded in
// two steps: RollHidden when it is drawn, with every input that fixes its
// outcome and none of the outcome; then, when the GM reveals it or its
// session ends, the RollMade of those inputs with its faces, whose Hidden
// names the RollHidden event.
const TypeRollHidden = "journal.roll.hidden.v1"

// RollHidden is a GM's secret roll: every input of the RollMade its
// reveal records, under the same JSON names (HiddenInputs), and nothing
// of its outcome (no faces, total, outcome or flags). Its nonce is taken
// when it is recorded. The faces follow from the inputs and the session's
// seed (still secret while the session runs), so nobody but the host can
// know them before the reveal, and the reveal cannot choose them: a
// verifier checks the reveal's inputs equal these, and flags a hidden
// roll whose session ended without its reveal.
type RollHidden struct {
	System string `json:"system"`
	// Rules is the rules version of the roll (RollMade.Rules): its reveal
	// carries the same and is judged by it.
	Rules     string `json:"rules,omitempty"`
	Kind      string `json:"kind"`
	Character string `json:"character,omitempty"`
	// Note is the GM's note, public (the GM leaves it out when it would
	// tell too much).
	Note string `json:"note,omitempty"`
	Dice string `json:"dice"`
	// The inputs of a skill or attribute roll (RollMade's).
	Skill           string `json:"skill,omitempty"`
	Attribute       string `json:"attribute,omitempty"`
	AttributeValue  int    `json:"attribute_value,omitempty"`
	Rank            int    `json:"rank,omitempty"`
	Modifier        int    `json:"modifier,omitempty"`
	Difficulty      *int   `json:"difficulty,omitempty"`
	DifficultyName  string `json:"difficulty_name,omitempty"`
	TokenReturned   bool   `json:"token_returned,omitempty"`
	Incapacitated   bool   `json:"incapacitated,omitempty"`
	Nonce           uint64 `json:"nonce"`
	Entropy         string `json:"entropy"`
	Call            string `json:"call,omitempty"`
	Request         string `json:"request,omitempty"`
	User            string `json:"user,omitempty"`
	Signed          string `json:"signed,omitempty"`
	Signature       string `json:"signature,omitempty"`
	Reveal          string `json:"reveal,omitempty"`
	Witness         string `json:"witness,omitempty"`
	BeaconRound     uint64 `json:"beacon_round,omitempty"`
	BeaconSignature string `json:"beacon_signature,omitempty"`
	WitnessIndex    int    `json:"witness_index,omitempty"`
	// Witnesses are a GM roll of witness chains' values (RollMade's).
	Witnesses []GMWitness `json:"witnesses,omitempty"`
}

// HiddenInputs are the JSON members a RollHidden shares with the RollMade
// that reveals it: a reveal is genuine only if each is equal in both
// (absent reads as its zero value).
var HiddenInputs = []string{
	"system", "rules", "kind", "character", "note", "dice", "skill", "attribute", "attribute_value", "rank", "modifier",
	"difficulty", "difficulty_name", "token_returned", "incapacitated", "nonce", "entropy", "call",
	"request", "user", "signed", "signature", "reveal", "witness", "beacon_round", "beacon_signature",
	"witness_index", "witnesses",
}

// Hide returns the hidden record of roll r: its inputs (HiddenInputs),
// none of its outcome.
func Hide(r RollMade) RollHidden {
	return RollHidden{
		System: r.System, Rules: r.Rules, Kind: r.Kind, Character: r.Character, Note: r.Note, Dice: r.Dice, Skill: r.Skill,
		Attribute: r.Attribute, AttributeValue: r.AttributeValue, Rank: r.Rank, Modifier: r.Modifier,
		Difficulty: r.Difficulty, DifficultyName: r.DifficultyName, TokenReturned: r.TokenReturned,
		Incapacitated: r.Incapacitated, Nonce: r.Nonce, Entropy: r.Entropy, Call: r.Call,
		Request: r.Request, User: r.User, Signed: r.Signed, Signature: r.Signature, Reveal: r.Reveal, Witness: r.Witness,
		BeaconRound: r.BeaconRound, BeaconSignature: r.BeaconSignature, WitnessIndex: r.WitnessIndex, Witnesses: r.Witnesses,
	}
}

// Inputs returns the RollMade of h's inputs, its outcome not yet drawn.
func (h RollHidden) Inputs() RollMade {
	return RollMade{
		System: h.System, Rules: h.Rules, Kind: h.Kind, Character: h.Character, Note: h.Note, Dice: h.Dice, Skill: h.Skill,
		Attribute: h.Attribute, AttributeValue: h.AttributeValue, Rank: h.Rank, Modifier: h.Modifier,
		Difficulty: h.Difficulty, DifficultyName: h.DifficultyName, TokenReturned: h.TokenReturned,
		Incapacitated: h.Incapacitated, Nonce: h.Nonce, Entropy: h.Entropy, Call: h.Call,
		Request: h.Request, User: h.User, Signed: h.Signed, Signature: h.Signature, Reveal: h.Reveal, Witness: h.Witness,
		BeaconRound: h.BeaconRound, BeaconSignature: h.BeaconSignature, WitnessIndex: h.WitnessIndex, Witnesses: h.Witnesses,
	}
}
