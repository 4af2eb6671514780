package events

// journal-dice-v2's session co-signatures and void consents (docs/design.md
// §3.2): a participant's device co-signs a session-ended event by its
// hash, and a roller's device may consent to the void of its roll.
const (
	TypeSessionCosigned = "journal.session.cosigned.v1"
)

// SessionCosigned records a participant's signed session.cosign of an
// ended session: Signed is the string as the device sent it, Signature its
// base64url Ed25519 signature under User's registered key, Ended the
// hash it names (lower-case hex of SHA-256 of the session-ended event's
// stored bytes, equal to the one in Signed) and EndedEvent the id of that
// session-ended event. The event's envelope names the cosigned session.
// Character is the character whose player co-signed, as the request named
// it ("" for the GM). A user co-signs a session once.
type SessionCosigned struct {
	User       string `json:"user"`
	Character  string `json:"character,omitempty"`
	Signed     string `json:"signed"`
	Signature  string `json:"signature"`
	Ended      string `json:"ended"`
	EndedEvent string `json:"ended_event"`
}
