package signed

import (
	"errors"
	"fmt"
	"strings"

	json "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/uuid"

	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/internal/slug"
	"github.com/campaign-journal/journal/rules/dice"
)

// Type names what a device asks for; it is the "type" member of the object.
type Type string

// The message types of journal-dice-v2.
const (
	TypeContribute  Type = "session.contribute" // 32 random bytes for the session key
	TypeRequest     Type = "roll.request"       // a roll asked for, before it is drawn
	TypeReveal      Type = "roll.reveal"        // the secret r of one's own request
	TypeWitness     Type = "roll.witness"       // r for someone else's (a GM's) request
	TypeCosign      Type = "session.cosign"     // the session-ended event's hash, co-signed
	TypeVoidConsent Type = "void.consent"       // the roller agrees that an event be voided
	TypeReceipt     Type = "beacon.receipt"     // a device saw a GM's beacon request before its round (receipt.go)
)

// Types lists every message type, in the order of docs/design.md §3.2.
func Types() []Type {
	return []Type{TypeContribute, TypeRequest, TypeReveal, TypeWitness, TypeCosign, TypeVoidConsent, TypeReceipt,
		TypeDeviceRegister, TypeDeviceApprove, TypeDeviceRevoke}
}

// MaxReasonLen bounds a void.consent reason, in bytes.
const MaxReasonLen = 500

// Hex32 is a 32-byte value written as 64 lower-case hex digits: a
// contribution, a commitment, r, a witness value, a hash.
type Hex32 [32]byte

// String returns the value as 64 lower-case hex digits.
func (h Hex32) String() string { return fmt.Sprintf("%x", h[:]) }

// IsZero reports whether the value is absent (all zero bytes).
func (h Hex32) IsZero() bool { return h == Hex32{} }

// MarshalText writes the lower-case hex form.
func (h Hex32) MarshalText() ([]byte, error) { return []byte(h.String()), nil }

// UnmarshalText accepts only 64 lower-case hex digits.
func (h *Hex32) UnmarshalText(b []byte) error {
	v, err := dice.ParseHex32(string(b))
	if err != nil {
		return err
	}
	*h = v
	return nil
}

// Header holds the members every message has. Campaign and Session are the
// ids that the event's envelope must carry.
type Header struct {
	Type     Type   `json:"type"`
	Campaign string `json:"campaign"`
	Session  string `json:"session"`
	// Seen is what the device had received when it signed (seen.go);
	// nil (omitted) in a message of a device that sends none.
	Seen *Seen `json:"seen,omitempty"`
}

// Head returns the header; it makes every message type a Message.
func (h Header) Head() Header { return h }

// In checks that the message was meant for this campaign and session.
func (h Header) In(campaign, session string) error {
	if h.Campaign != campaign {
		return msgerr.Errorf("%w: campaign is %q, sent to %q", ErrWrongScope, h.Campaign, campaign)
	}
	if h.Session != session {
		return msgerr.Errorf("%w: session is %q, sent to %q", ErrWrongScope, h.Session, session)
	}
	return nil
}

// Message is one parsed message: *Contribute, *Request, *Reveal, *Witness,
// *Cosign, *VoidConsent, *Receipt, or a device's (*DeviceRegister,
// *DeviceApprove, *DeviceRevoke: signed/device.go). Callers switch on the
// concrete type.
type Message interface {
	Head() Header
	// Kind is the message's type, whatever its header says.
	Kind() Type
	typed() Message
	check() error
}

func (c *Contribute) Kind() Type  { return TypeContribute }
func (r *Request) Kind() Type     { return TypeRequest }
func (r *Reveal) Kind() Type      { return TypeReveal }
func (w *Witness) Kind() Type     { return TypeWitness }
func (c *Cosign) Kind() Type      { return TypeCosign }
func (v *VoidConsent) Kind() Type { return TypeVoidConsent }
func (r *Receipt) Kind() Type     { return TypeReceipt }

// typed returns a copy of the message with its header's Type set.
func (c *Contribute) typed() Message  { m := *c; m.Type = m.Kind(); return &m }
func (r *Request) typed() Message     { m := *r; m.Type = m.Kind(); return &m }
func (r *Reveal) typed() Message      { m := *r; m.Type = m.Kind(); return &m }
func (w *Witness) typed() Message     { m := *w; m.Type = m.Kind(); return &m }
func (c *Cosign) typed() Message      { m := *c; m.Type = m.Kind(); return &m }
func (v *VoidConsent) typed() Message { m := *v; m.Type = m.Kind(); return &m }
func (r *Receipt) typed() Message     { m := *r; m.Type = m.Kind(); return &m }

// Contribute is a session.contribute: Value enters the session key
// (dice.SessionKey) in stream order. Only before the session's first roll
// request. Commitment is the session-started event's seed commitment (its
// lower-case hex), so that a contribution cannot be replayed into another
// journal's session of the same ids (docs/design.md §3.3, "Contributions that
// count"). It is optional here: a contribution signed before the field
// existed has none (old format); the journal refuses one without it, and
// a verifier accepts an old one as before (docs/trust.md).
//
// WitnessAnchor is the device's witness chain for the session's GM rolls,
// hex(H^N(w)) (dice.WitnessAnchor; docs/design.md §3.3): zero in a contribution
// made before chains existed (the session's GM rolls then keep the
// first-witness rule).
type Contribute struct {
	Header        `json:",inline"`
	Value         Hex32 `json:"value"`
	Commitment    Hex32 `json:"commitment,omitzero"`
	WitnessAnchor Hex32 `json:"witness_anchor,omitzero"`
}

// Request is a roll.request. Request is the UUID the device chose (a retried
// request is the same request). Action holds every input of the action as
// one JSON object (command, character, skill, difficulty, modifiers...),
// uninterpreted here: the journal judges it against the command catalogue
// and the rules.
//
// Commitment is hex(SHA-256(r)) of the device's secret r (dice.RevealCommitment).
// It is absent (zero) only when someone else provides r: a GM roll to be
// witnessed by a player's device (roll.witness), or, with BeaconRound > 0,
// resolved by that round of the drand quicknet beacon. Whether the requester
// may omit it (only a GM) is the journal's rule, not this package's.
type Request struct {
	Header      `json:",inline"`
	Request     string `json:"request"`
	Commitment  Hex32  `json:"commitment,omitzero"`
	BeaconRound uint64 `json:"beacon_round,omitzero"`
	// Wait is, for a GM's request, how long in seconds it waits for the
	// players' witnesses before the GM may resolve it without them, as the
	// GM's device signed it (so that a host who is not the GM cannot
	// shorten it). 0: unsigned (a device of before 2026-12-02; the journal
	// records the wait its command names).
	Wait   uint64         `json:"wait,omitzero"`
	Action jsontext.Value `json:"action"`
}

// Witnessed reports whether r comes from someone else than the requester
// (no commitment): a witness or the beacon.
func (r *Request) Witnessed() bool { return r.Commitment.IsZero() }

// Reveal is a roll.reveal: the requester's r for its Request.
type Reveal struct {
	Header  `json:",inline"`
	Request string `json:"request"`
	R       Hex32  `json:"r"`
}

// Witness is a roll.witness: Value is r for someone else's Request. In a
// session of witness chains, Index is the request's witness index j and
// Value the device's w_j (dice.WitnessValue); 0 in the first-witness rule
// of older sessions.
type Witness struct {
	Header  `json:",inline"`
	Request string `json:"request"`
	Index   int    `json:"index,omitzero"`
	Value   Hex32  `json:"value"`
}

// Cosign is a session.cosign: Ended = SHA-256 of the session-ended event's stored bytes.
type Cosign struct {
	Header `json:",inline"`
	Ended  Hex32 `json:"ended"`
}

// VoidConsent is a void.consent: the roller agrees that Event (an event id,
// a UUID) be voided for Reason.
type VoidConsent struct {
	Header `json:",inline"`
	Event  string `json:"event"`
	Reason string `json:"reason"`
}

var strict = json.JoinOptions(
	json.RejectUnknownMembers(true),
	jsontext.AllowDuplicateNames(false),
	jsontext.AllowInvalidUTF8(false),
)

// Parse reads a signed string into its message, checking its shape only
// (not its signature nor its scope: see Open). Errors wrap ErrTooLarge,
// ErrMalformed or ErrUnknownType and name the field at fault.
func Parse(signed string) (Message, error) {
	if err := checkSize(signed); err != nil {
		return nil, err
	}
	v := jsontext.Value(signed)
	if v.Kind() != '{' {
		return nil, msgerr.Errorf("%w: not a JSON object", ErrMalformed)
	}
	var head struct {
		Type Type `json:"type"`
	}
	// Unknown members are allowed here (they are checked below, per type);
	// syntax, duplicate names at every depth and UTF-8 are checked now.
	if err := json.Unmarshal(v, &head, json.RejectUnknownMembers(false)); err != nil {
		return nil, malformed(err)
	}
	var m Message
	switch head.Type {
	case TypeContribute:
		m = new(Contribute)
	case TypeRequest:
		m = new(Request)
	case TypeReveal:
		m = new(Reveal)
	case TypeWitness:
		m = new(Witness)
	case TypeCosign:
		m = new(Cosign)
	case TypeVoidConsent:
		m = new(VoidConsent)
	case TypeReceipt:
		m = new(Receipt)
	case TypeDeviceRegister:
		m = new(DeviceRegister)
	case TypeDeviceApprove:
		m = new(DeviceApprove)
	case TypeDeviceRevoke:
		m = new(DeviceRevoke)
	case "":
		return nil, msgerr.Errorf("%w: field type is missing", ErrMalformed)
	default:
		return nil, msgerr.Errorf("%w: %q", ErrUnknownType, head.Type)
	}
	if err := json.Unmarshal(v, m, strict); err != nil {
		return nil, malformed(err)
	}
	if err := checkHeader(m.Kind(), m.Head()); err != nil {
		return nil, err
	}
	if err := m.check(); err != nil {
		return nil, err
	}
	return m, nil
}

// Encode writes m as a signed string (members in a fixed order, no
// whitespace) after checking it as Parse would. The header's Type may be
// left empty: the written type is m.Kind() (m is not modified); a header
// naming another type is refused.
func Encode(m Message) (string, error) {
	if m == nil {
		return "", msgerr.Errorf("%w: no message", ErrMalformed)
	}
	if t := m.Head().Type; t != "" && t != m.Kind() {
		return "", msgerr.Errorf("%w: field type is %q on a %s message", ErrMalformed, t, m.Kind())
	}
	b, err := json.Marshal(m.typed(), json.Deterministic(true))
	if err != nil {
		return "", msgerr.Errorf("%w: %v", ErrMalformed, err)
	}
	s := string(b)
	if _, err := Parse(s); err != nil {
		return "", err
	}
	return s, nil
}

func malformed(err error) error {
	var se *json.SemanticError
	var xe *jsontext.SyntacticError
	switch {
	case errors.As(err, &se) && errors.Is(err, json.ErrUnknownName):
		return msgerr.Errorf("%w: unknown field %q", ErrMalformed, quoteField(string(se.JSONPointer)))
	case errors.As(err, &se) && se.JSONPointer != "":
		detail := "wrong type"
		if se.JSONKind == '0' {
			detail = "want a non-negative whole number"
		} else if se.Err != nil {
			detail = se.Err.Error()
		} else if se.JSONKind != 0 {
			detail = "unexpected JSON " + se.JSONKind.String()
		}
		return msgerr.Errorf("%w: field %s: %s", ErrMalformed, quoteField(string(se.JSONPointer)), detail)
	case errors.As(err, &xe):
		return msgerr.Errorf("%w: %v", ErrMalformed, strings.TrimPrefix(xe.Error(), "jsontext: "))
	default:
		return msgerr.Errorf("%w: %v", ErrMalformed, err)
	}
}

// quoteField turns a JSON pointer "/action/x" into "action.x" for messages.
func quoteField(ptr string) string {
	return strings.ReplaceAll(strings.TrimPrefix(ptr, "/"), "/", ".")
}

// checkHeader checks the ids of a message of type t: a campaign-scoped
// message (signed/device.go) names no session ("").
func checkHeader(t Type, h Header) error {
	if err := slug.Valid(h.Campaign); err != nil {
		return msgerr.Errorf("%w: field campaign: %w", ErrMalformed, err)
	}
	if campaignScoped(t) {
		if h.Session != "" {
			return msgerr.Errorf("%w: field session: a %s names no session", ErrMalformed, t)
		}
		return nil
	}
	if err := slug.Valid(h.Session); err != nil {
		return msgerr.Errorf("%w: field session: %w", ErrMalformed, err)
	}
	return checkSeen(h.Seen)
}

func requireHex(name string, v Hex32) error {
	if v.IsZero() {
		return msgerr.Errorf("%w: field %s is missing (or all zero)", ErrMalformed, name)
	}
	return nil
}

// requireUUID accepts only the canonical lower-case 36-character form, so a
// request has one spelling and a retried request is recognised.
func requireUUID(name, s string) error {
	if s == "" {
		return msgerr.Errorf("%w: field %s is missing", ErrMalformed, name)
	}
	u, err := uuid.Parse(s)
	if err != nil || u.String() != s {
		return msgerr.Errorf("%w: field %s: %q is not a lower-case UUID", ErrMalformed, name, s)
	}
	return nil
}

func (c *Contribute) check() error { return requireHex("value", c.Value) }

func (r *Request) check() error {
	if err := requireUUID("request", r.Request); err != nil {
		return err
	}
	if r.Action.Kind() != '{' {
		return msgerr.Errorf("%w: field action must be a JSON object", ErrMalformed)
	}
	if r.BeaconRound > 0 && !r.Commitment.IsZero() {
		return msgerr.Errorf("%w: field beacon_round: a beacon roll takes no commitment", ErrMalformed)
	}
	if r.Wait > 0 && !r.Commitment.IsZero() {
		return msgerr.Errorf("%w: field wait: a wait for witnesses is for a GM's request, which takes no commitment", ErrMalformed)
	}
	return nil
}

func (r *Reveal) check() error {
	if err := requireUUID("request", r.Request); err != nil {
		return err
	}
	return requireHex("r", r.R)
}

func (w *Witness) check() error {
	if err := requireUUID("request", w.Request); err != nil {
		return err
	}
	if w.Index < 0 || w.Index > dice.MaxWitnessIndex {
		return msgerr.Errorf("%w: field index: %d, want 1 to %d", ErrMalformed, w.Index, dice.MaxWitnessIndex)
	}
	return requireHex("value", w.Value)
}

func (c *Cosign) check() error { return requireHex("ended", c.Ended) }

func (v *VoidConsent) check() error {
	if err := requireUUID("event", v.Event); err != nil {
		return err
	}
	if strings.TrimSpace(v.Reason) == "" {
		return msgerr.Errorf("%w: field reason is missing", ErrMalformed)
	}
	if len(v.Reason) > MaxReasonLen {
		return msgerr.Errorf("%w: field reason: %d bytes, at most %d", ErrMalformed, len(v.Reason), MaxReasonLen)
	}
	return nil
}
