package signed

// A suppressed roll's proof file (docs/design.md §3.3, "A suppressed roll can
// be proved"): where the host will not record a device's roll.reveal,
// `journal roll prove --out FILE` writes it as signed, for `journal replay
// --file EXPORT --proof FILE` and the browser's offline verifier to check
// against the export. The file is one JSON object:
//
//	{"version": 1, "campaign": …, "session": …, "request": …, "user": …,
//	 "signed": "<the roll.reveal as signed>", "signature": "<base64url>"}
//
// Invariants:
//   - ParseProof accepts exactly those members (none missing, none other,
//     no duplicate), version ProofVersion, and a signed string that parses
//     as a roll.reveal whose campaign, session and request are the file's.
//   - The signature is not checked here: only a verifier holding the
//     user's registered key can (the export's).

import (
	"github.com/campaign-journal/journal/internal/msgerr"
	json "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// ProofVersion is the proof file's format.
const ProofVersion = 1

// MaxProofSize bounds a proof file, in bytes.
const MaxProofSize = 4 * MaxSize

// Proof is a proof file: a requester's signed roll.reveal of its request.
type Proof struct {
	Version   int    `json:"version"`
	Campaign  string `json:"campaign"`
	Session   string `json:"session"`
	Request   string `json:"request"`
	User      string `json:"user"`
	Signed    string `json:"signed"`
	Signature string `json:"signature"`
}

// ParseProof reads a proof file strictly and returns it with its reveal.
func ParseProof(b []byte) (Proof, *Reveal, error) {
	var p Proof
	if len(b) > MaxProofSize {
		return p, nil, msgerr.Errorf("%w: a proof file is at most %d bytes, this one %d", ErrMalformed, MaxProofSize, len(b))
	}
	var members map[string]jsontext.Value
	if err := json.Unmarshal(b, &members); err != nil {
		return p, nil, msgerr.Errorf("%w: the proof is not one JSON object: %v", ErrMalformed, err)
	}
	if err := json.Unmarshal(b, &p, json.RejectUnknownMembers(true)); err != nil {
		return p, nil, msgerr.Errorf("%w: the proof: %v", ErrMalformed, err)
	}
	for _, m := range []string{"version", "campaign", "session", "request", "user", "signed", "signature"} {
		if _, ok := members[m]; !ok {
			return p, nil, msgerr.Errorf("%w: the proof has no %q", ErrMalformed, m)
		}
	}
	if p.Version != ProofVersion {
		return p, nil, msgerr.Errorf("%w: proof version %d, want %d", ErrMalformed, p.Version, ProofVersion)
	}
	m, err := Parse(p.Signed)
	if err != nil {
		return p, nil, err
	}
	rev, ok := m.(*Reveal)
	if !ok {
		return p, nil, msgerr.Errorf("%w: the proof's signed message is a %s, not a %s", ErrMalformed, m.Kind(), TypeReveal)
	}
	if rev.Campaign != p.Campaign || rev.Session != p.Session || rev.Request != p.Request {
		return p, nil, msgerr.Errorf("%w: the proof names campaign %s, session %s, request %s; its signed reveal %s, %s, %s",
			ErrMalformed, p.Campaign, p.Session, p.Request, rev.Campaign, rev.Session, rev.Request)
	}
	return p, rev, nil
}
