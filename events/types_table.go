package events

// The table's own facts (docs/design.md §6, "The table in the browser"):
// the GM's roll calls and their answers, and the GM's proposals to void a
// journal-dice-v2 roll with its roller's consent. They were the table
// server's memory; as events they survive a restart of serve, and every
// door (CLI, HTTP, NATS) reads and writes the same ones. None of them
// draws a die or changes a sheet.
const (
	TypeCallMade      = "journal.call.made.v1"
	TypeCallClosed    = "journal.call.closed.v1"
	TypeCallAnswered  = "journal.call.answered.v1"
	TypeVoidProposed  = "journal.void.proposed.v1"
	TypeVoidConsented = "journal.void.consented.v1"
)

// CallMade is the GM's call for a roll: Call is its id in the campaign
// ("call-N", N counting the campaign's calls from 1), Characters who
// must roll, Skill (as the rules name it) or Attribute, Vs its
// difficulty (RyF: a name or a number; The One Ring: a target number; ""
// for none), Note the GM's words, By the GM who made it.
type CallMade struct {
	Call       string   `json:"call"`
	Characters []string `json:"characters"`
	Skill      string   `json:"skill"`
	Attribute  string   `json:"attribute"`
	Vs         string   `json:"vs"`
	Note       string   `json:"note"`
	By         string   `json:"by"`
}

// CallClosed closes an open call: no more answers are taken. Reason is
// the GM's, "" for none.
type CallClosed struct {
	Call   string `json:"call"`
	Reason string `json:"reason,omitempty"`
	By     string `json:"by"`
}

// CallAnswered records, in the same append as the roll (v1) or the roll
// request (journal-dice-v2) that answers call Call for Character, which
// event that is (Event) and, for a v2 request, its request id (Request):
// a character answers a call once. By is the user who rolled.
type CallAnswered struct {
	Call      string `json:"call"`
	Character string `json:"character"`
	Event     string `json:"event"`
	Request   string `json:"request,omitempty"`
	By        string `json:"by"`
}

// VoidProposed is the GM's proposal to void the journal-dice-v2 roll
// EventID (of Session, Character's) for Reason, asking its roller's
// (Roller, the user who requested it) signed consent. Proposal is its id
// ("void-N", counting the campaign's proposals from 1); By the GM.
type VoidProposed struct {
	Proposal  string `json:"proposal"`
	EventID   string `json:"event_id"`
	Reason    string `json:"reason"`
	Session   string `json:"session"`
	Character string `json:"character"`
	Roller    string `json:"roller"`
	By        string `json:"by"`
}

// VoidConsented is the roller's signed void.consent for a proposal, as
// the void command takes it: Signed verbatim, Signature its base64url
// Ed25519 signature under one of User's devices active when recorded,
// naming the proposal's event and reason exactly.
type VoidConsented struct {
	Proposal  string `json:"proposal"`
	EventID   string `json:"event_id"`
	User      string `json:"user"`
	Signed    string `json:"signed"`
	Signature string `json:"signature"`
}
