package device

// The strings a device's key signs to derive its secrets, and the UUID
// namespace of its requests' ids, in one place (docs/design.md §3.2 and
// §3.3). A device derives every secret from its own deterministic Ed25519
// signature over one of these, so that it stores nothing and can always
// derive it again: never send such a signature (it is the secret).
//
// Invariants:
//   - Every derivation string starts with "journal-dice-v2|" and a word
//     of its own ("r", "witness"), so no derivation is another's, and none
//     is a signed message (a signed message is a JSON object, "{...").
//   - RequestID is a name-based (SHA-1) UUID of the CLI's request id in
//     RequestNamespace: a retried command asks for the same request, which
//     the journal records once.
//   - The witness chain's seed (dice.WitnessSeedMessage) is the rules'
//     (rules/dice), since the browser and every verifier compute it too.

import (
	"crypto/sha256"

	"github.com/google/uuid"

	"github.com/campaign-journal/journal/signed"
)

// Domain-separation prefixes of what a device signs to derive a secret.
const (
	// RevealDomain prefixes the request identity whose signature gives r
	// (Key.RevealSecret).
	RevealDomain = "journal-dice-v2|r|"
	// LegacyWitnessDomain prefixes the witness value of a session without
	// witness chains (Key.LegacyWitnessValue).
	LegacyWitnessDomain = "journal-dice-v2|witness|"
)

// RequestNamespace is the namespace of the ids a device derives for its
// roll requests (RequestID).
var RequestNamespace = uuid.MustParse("2b1f5d0e-8c4a-4f6e-9a37-5e0c1d2b3a49")

// RequestID is the id of user's roll request in session of campaign asked
// for by the CLI request id cliID: the same for a retry.
func RequestID(campaign, session, user, cliID string) string {
	return uuid.NewSHA1(RequestNamespace, []byte(campaign+"|"+session+"|"+user+"|"+cliID)).String()
}

// LegacyWitnessValue is this device's witness value for request in a
// session without witness chains (an older session): secret until sent,
// the same for a retry of the same CLI request id.
func (k *Key) LegacyWitnessValue(campaign, session, user, request, cliID string) signed.Hex32 {
	return signed.Hex32(sha256.Sum256([]byte(k.Sign(LegacyWitnessDomain + campaign + "|" + session + "|" + user + "|" + request + "|" + cliID))))
}
