package events

import (
	"fmt"
	"strings"
)

// Subjects: every event of a campaign is stored in one stream under the
// campaign's one literal subject
//
//	journal.<campaign>
//
// for example journal.mordor; CampaignSubject is the only place that
// builds it (a later layout may add a partition token:
// journal.<partition>.<campaign>). The campaign is a slug, so it can never
// be a wildcard or split a token. The event's type and aggregate are in the
// CloudEvent and, for readers that need not decode it, in the message
// headers HeaderType and HeaderAggregate (written by the stores; reads go
// by the decoded event, which is the record).
//
// Every append is conditional on the last sequence on that literal subject,
// which the server checks at a cost that does not grow with the campaign.
// Earlier versions stored each event under
// journal.<campaign>.<kind>.<id>.<event> (the "old layout", which package
// jetstore detects and migrates).

// Prefix is the first token of every event subject.
const Prefix = "journal"

// AllFilter matches every event subject.
const AllFilter = Prefix + ".>"

// StreamSubjects is the subject filter of the stream holding the events:
// exactly the campaign subjects, one token after the prefix.
const StreamSubjects = Prefix + ".*"

// Message headers every stored event carries, for readers that filter
// without decoding: the event's type ("journal.roll.made.v1") and its
// aggregate, "<kind>.<id>" ("char.lodin"). The CloudEvent holds both too
// and is the record.
const (
	HeaderType      = "Journal-Type"
	HeaderAggregate = "Journal-Aggregate"
)

// MaxIDLen is the longest slug allowed.
const MaxIDLen = 64

// maxFilterTokens is the most tokens of a subject filter: the prefix, a
// partition and a campaign.
const maxFilterTokens = 3

// ValidID reports whether s is a slug: 1..64 characters of [a-z0-9_-].
// The error wraps ErrInvalidID.
func ValidID(s string) error {
	if s == "" {
		return fmt.Errorf("%w: empty", ErrInvalidID)
	}
	if len(s) > MaxIDLen {
		return fmt.Errorf("%w: %q is longer than %d characters", ErrInvalidID, s, MaxIDLen)
	}
	for i := 0; i < len(s); i++ {
		if !slugByte(s[i]) {
			return fmt.Errorf("%w: %q (use a-z, 0-9, '-' and '_')", ErrInvalidID, s)
		}
	}
	return nil
}

func slugByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_'
}

// Kind names a kind of aggregate: its name in the HeaderAggregate ("char") and,
// through Plural, its collection in CloudEvents subjects ("characters").
// A kind is a slug. Kinds not listed here are welcome; their plural adds "s".
type Kind string

// Aggregate kinds of the journal.
const (
	KindCampaign  Kind = "campaign"
	KindCharacter Kind = "char"
	KindSession   Kind = "session"
	KindCombat    Kind = "combat"
)

// Plural returns the collection name used in the CloudEvents subject
// ("characters/lodin"): "characters" for KindCharacter, the kind plus "s"
// otherwise.
func (k Kind) Plural() string {
	if k == KindCharacter {
		return "characters"
	}
	return string(k) + "s"
}

// kindOfPlural inverts Plural.
func kindOfPlural(p string) (Kind, bool) {
	if p == "characters" {
		return KindCharacter, true
	}
	k, ok := strings.CutSuffix(p, "s")
	if !ok || Kind(k) == KindCharacter || ValidID(k) != nil {
		return "", false
	}
	return Kind(k), true
}

// CampaignSubject returns the subject every event of campaign is stored
// under, journal.<campaign>: the one function that builds event subjects.
// The error wraps ErrInvalidID.
func CampaignSubject(campaign string) (string, error) {
	if err := ValidID(campaign); err != nil {
		return "", fmt.Errorf("campaign: %w", err)
	}
	return Prefix + "." + campaign, nil
}

// ParseSubject returns the campaign of an event subject journal.<campaign>.
// The error wraps ErrInvalidID.
func ParseSubject(subject string) (string, error) {
	campaign, ok := strings.CutPrefix(subject, Prefix+".")
	if !ok || strings.Contains(campaign, ".") {
		return "", fmt.Errorf("%w: subject %q is not %s.<campaign>", ErrInvalidID, subject, Prefix)
	}
	if err := ValidID(campaign); err != nil {
		return "", fmt.Errorf("subject %q: %w", subject, err)
	}
	return campaign, nil
}

// CampaignFilter returns the filter matching every event of a campaign:
// its subject, journal.<campaign>, which is literal.
func CampaignFilter(campaign string) (string, error) {
	return CampaignSubject(campaign)
}

// AggregateHeaderValue returns the HeaderAggregate of an event of the
// aggregate kind, id: "<kind>.<id>", for example "char.lodin".
func AggregateHeaderValue(kind Kind, id string) string {
	return string(kind) + "." + id
}

// ValidFilter checks a subject filter: the prefix "journal", then at most
// two tokens (room for a partition) that are slugs or the wildcard "*", or
// a final ">".
// The error wraps ErrInvalidID.
func ValidFilter(filter string) error {
	parts := strings.Split(filter, ".")
	if len(parts) < 2 || len(parts) > maxFilterTokens || parts[0] != Prefix {
		return fmt.Errorf("%w: filter %q is not %s.<token>... with at most %d tokens", ErrInvalidID, filter, Prefix, maxFilterTokens)
	}
	for i, p := range parts[1:] {
		switch {
		case p == "*":
		case p == ">":
			if i != len(parts)-2 {
				return fmt.Errorf("%w: filter %q has '>' before its last token", ErrInvalidID, filter)
			}
		default:
			if err := ValidID(p); err != nil {
				return fmt.Errorf("filter %q: %w", filter, err)
			}
		}
	}
	return nil
}

// Match reports whether subject matches filter with NATS semantics: "*"
// matches one token, a final ">" matches one or more tokens.
func Match(filter, subject string) bool {
	for {
		ft, frest, fmore := strings.Cut(filter, ".")
		st, srest, smore := strings.Cut(subject, ".")
		switch {
		case ft == ">":
			return st != ""
		case ft != "*" && ft != st:
			return false
		}
		if !fmore || !smore {
			return fmore == smore
		}
		filter, subject = frest, srest
	}
}
