package events

import (
	"fmt"
	"strings"
)

// Subjects: every event is stored in one stream under
//
//	journal.<campaign>.<aggregate kind>.<aggregate id>.<event name>
//
// for example journal.mordor.char.lodin.roll. Every token after the prefix
// is a slug, so it can never be a wildcard or split a token.

// Prefix is the first token of every event subject.
const Prefix = "journal"

// AllFilter matches every event subject.
const AllFilter = Prefix + ".>"

// MaxIDLen is the longest slug allowed.
const MaxIDLen = 64

// subjectTokens is the number of tokens in an event subject.
const subjectTokens = 5

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

// Kind names a kind of aggregate: its token in NATS subjects ("char") and,
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

// Address is a parsed event subject.
type Address struct {
	Campaign string
	Kind     Kind
	ID       string // the aggregate id
	Name     string // the event's short name, e.g. "roll"
}

// Subject returns the subject journal.<campaign>.<kind>.<id>.<name>.
func (a Address) Subject() string {
	return Prefix + "." + a.Campaign + "." + string(a.Kind) + "." + a.ID + "." + a.Name
}

// Valid checks that every part of the address is a slug.
func (a Address) Valid() error {
	for _, p := range []struct{ what, v string }{
		{"campaign", a.Campaign}, {"aggregate kind", string(a.Kind)},
		{"aggregate id", a.ID}, {"event name", a.Name},
	} {
		if err := ValidID(p.v); err != nil {
			return fmt.Errorf("%s: %w", p.what, err)
		}
	}
	return nil
}

// Subject returns the NATS subject of an event, for example
// Subject("mordor", KindCharacter, "lodin", "roll") = "journal.mordor.char.lodin.roll".
func Subject(campaign string, kind Kind, id, name string) (string, error) {
	a := Address{Campaign: campaign, Kind: kind, ID: id, Name: name}
	if err := a.Valid(); err != nil {
		return "", err
	}
	return a.Subject(), nil
}

// ParseSubject splits an event subject into its parts. The error wraps ErrInvalidID.
func ParseSubject(subject string) (Address, error) {
	parts, ok := splitSubject(subject)
	if !ok || parts[0] != Prefix {
		return Address{}, fmt.Errorf("%w: subject %q is not %s.<campaign>.<kind>.<id>.<event>", ErrInvalidID, subject, Prefix)
	}
	a := Address{Campaign: parts[1], Kind: Kind(parts[2]), ID: parts[3], Name: parts[4]}
	if err := a.Valid(); err != nil {
		return Address{}, fmt.Errorf("subject %q: %w", subject, err)
	}
	return a, nil
}

// splitSubject splits s at its dots into exactly subjectTokens parts, or
// reports false (what strings.Split does, without allocating).
func splitSubject(s string) (parts [subjectTokens]string, ok bool) {
	for i := range subjectTokens - 1 {
		if parts[i], s, ok = strings.Cut(s, "."); !ok {
			return parts, false
		}
	}
	parts[subjectTokens-1] = s
	return parts, !strings.Contains(s, ".")
}

// CampaignFilter returns the filter journal.<campaign>.> matching every event
// of a campaign.
func CampaignFilter(campaign string) (string, error) {
	if err := ValidID(campaign); err != nil {
		return "", fmt.Errorf("campaign: %w", err)
	}
	return Prefix + "." + campaign + ".>", nil
}

// KindFilter returns the filter journal.<campaign>.<kind>.> matching every
// event of every aggregate of a kind in a campaign.
func KindFilter(campaign string, kind Kind) (string, error) {
	f, err := CampaignFilter(campaign)
	if err != nil {
		return "", err
	}
	if err := ValidID(string(kind)); err != nil {
		return "", fmt.Errorf("aggregate kind: %w", err)
	}
	return strings.TrimSuffix(f, ">") + string(kind) + ".>", nil
}

// AggregateFilter returns the filter journal.<campaign>.<kind>.<id>.>
// matching every event of one aggregate.
func AggregateFilter(campaign string, kind Kind, id string) (string, error) {
	f, err := KindFilter(campaign, kind)
	if err != nil {
		return "", err
	}
	if err := ValidID(id); err != nil {
		return "", fmt.Errorf("aggregate id: %w", err)
	}
	return strings.TrimSuffix(f, ">") + id + ".>", nil
}

// ValidFilter checks a subject filter: the prefix "journal", then at most
// four tokens that are slugs or the wildcard "*", or a final ">".
// The error wraps ErrInvalidID.
func ValidFilter(filter string) error {
	parts := strings.Split(filter, ".")
	if len(parts) < 2 || len(parts) > subjectTokens || parts[0] != Prefix {
		return fmt.Errorf("%w: filter %q is not %s.<token>... with at most %d tokens", ErrInvalidID, filter, Prefix, subjectTokens)
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
