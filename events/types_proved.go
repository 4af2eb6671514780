package events

// journal-dice-v2's proof of a suppressed roll (docs/design.md §3.3, "A
// suppressed roll can be proved"): a requester's device whose reveal was
// not recorded sends it again; if its request was cancelled meanwhile (or
// left unrevealed when its session ended), the journal records the roll
// the reveal would have made, without its consequences.
const (
	TypeRollProved = "journal.roll.proved.v1"
)

// RollProved records a requester's signed roll.reveal for a request that
// was cancelled (or left unrevealed at its session's end) before the
// reveal was recorded: Signed is the string as the device sent it,
// Signature its base64url Ed25519 signature under User's registered key
// (the key that signed the request), Reveal hex(r), which opens the
// request's commitment. Nonce (and Nonces for a request of several rolls)
// are the request's; Rolls are the rolls the reveal would have drawn, in
// draw order, each from its own nonce with the same r (the command layer's
// own draw, on the state just before the cancellation); Draws, Faces,
// Total and Outcome repeat Rolls[0], the request's first roll. Nothing of
// it is applied: no damage, no XP, no state. CancelledBy is the user who
// cancelled the request and Cancel the cancellation event ("" for both
// when the request was left unrevealed at its session's end). A request
// is proved once.
type RollProved struct {
	User      string `json:"user"`
	Character string `json:"character"`
	Signed    string `json:"signed"`
	Signature string `json:"signature"`
	Request   string `json:"request"`
	Reveal    string `json:"reveal"`
	Nonce     uint64 `json:"nonce"`
	Nonces    []int  `json:"nonces,omitempty"`

	CancelledBy string `json:"cancelled_by"`
	Cancel      string `json:"cancel"`

	Draws   []int        `json:"draws"`
	Faces   []int        `json:"faces"`
	Total   int          `json:"total"`
	Outcome string       `json:"outcome"`
	Rolls   []ProvedRoll `json:"rolls"`
}

// ProvedRoll is one roll a proved reveal would have drawn: its character
// and kind, its nonce, the sides of every die drawn (Draws), the faces,
// and the total and outcome the rules give them.
type ProvedRoll struct {
	Character string `json:"character"`
	Kind      string `json:"kind"`
	Nonce     uint64 `json:"nonce"`
	Draws     []int  `json:"draws"`
	Faces     []int  `json:"faces"`
	Total     int    `json:"total"`
	Outcome   string `json:"outcome"`
}
