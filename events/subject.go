package events

import (
	"hash/fnv"
	"strconv"
	"strings"

	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/internal/slug"
)

// Subjects: every event of a campaign is stored in one stream under the
// campaign's one literal subject
//
//	journal.<campaign>
//
// for example journal.mordor; CampaignSubject is the only place that
// builds it. A journal of k > 1 partitions (fixed at its creation) stores
// it, in the stream of its partition, as journal.<p>.<campaign>
// (PartitionSubject, with p = Partition(campaign, k)); events, expects and
// queries name the campaign subject all the same. The campaign is a slug, so it can never
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
const MaxIDLen = slug.MaxLen

// maxFilterTokens is the most tokens of a subject filter: the prefix, a
// partition and a campaign.
const maxFilterTokens = 3

// ValidID reports whether s is a slug: 1..64 characters of [a-z0-9_-].
// The error wraps ErrInvalidID.
func ValidID(s string) error { return slug.Valid(s) }

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
		return "", msgerr.Errorf("campaign: %w", err)
	}
	return Prefix + "." + campaign, nil
}

// MaxPartitions is the most partitions a journal may have.
const MaxPartitions = 64

// ValidPartitions checks a journal's number of partitions: 1..MaxPartitions.
// The error wraps ErrInvalidID.
func ValidPartitions(k int) error {
	if k < 1 || k > MaxPartitions {
		return msgerr.Errorf("%w: %d partitions (use 1 to %d)", ErrInvalidID, k, MaxPartitions)
	}
	return nil
}

// Partition returns the partition, 0..k-1, holding campaign in a journal
// of k partitions: FNV-1a 32 of the campaign id modulo k (0 when k <= 1).
// It is the one mapping of campaigns to partitions: the store routes by
// it and the permissions (package access) scope by it, so they agree. It
// never changes for a journal, whose k is fixed at its creation.
func Partition(campaign string, k int) int {
	if k <= 1 {
		return 0
	}
	h := fnv.New32a()
	h.Write([]byte(campaign))
	return int(h.Sum32() % uint32(k))
}

// PartitionSubject returns the subject the events of campaign are stored
// under in a journal of k partitions: CampaignSubject (journal.<campaign>)
// when k <= 1, journal.<p>.<campaign> with p = Partition(campaign, k)
// otherwise. The events themselves, their Expect and every Query name the
// campaign subject; only the store and the permissions see this one.
func PartitionSubject(campaign string, k int) (string, error) {
	subject, err := CampaignSubject(campaign)
	if err != nil || k <= 1 {
		return subject, err
	}
	return Prefix + "." + strconv.Itoa(Partition(campaign, k)) + "." + campaign, nil
}

// PartitionStreamSubjects is the subject filter of partition p's stream
// in a journal of k > 1 partitions: journal.<p>.* (StreamSubjects when
// k <= 1).
func PartitionStreamSubjects(p, k int) string {
	if k <= 1 {
		return StreamSubjects
	}
	return Prefix + "." + strconv.Itoa(p) + ".*"
}

// ParseSubject returns the campaign of an event subject journal.<campaign>.
// The error wraps ErrInvalidID.
func ParseSubject(subject string) (string, error) {
	campaign, ok := strings.CutPrefix(subject, Prefix+".")
	if !ok || strings.Contains(campaign, ".") {
		return "", msgerr.Errorf("%w: subject %q is not %s.<campaign>", ErrInvalidID, clip.Text(subject), Prefix)
	}
	if err := ValidID(campaign); err != nil {
		return "", msgerr.Errorf("subject %q: %w", clip.Text(subject), err)
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
		return msgerr.Errorf("%w: filter %q is not %s.<token>... with at most %d tokens", ErrInvalidID, clip.Text(filter), Prefix, maxFilterTokens)
	}
	for i, p := range parts[1:] {
		switch {
		case p == "*":
		case p == ">":
			if i != len(parts)-2 {
				return msgerr.Errorf("%w: filter %q has '>' before its last token", ErrInvalidID, clip.Text(filter))
			}
		default:
			if err := ValidID(p); err != nil {
				return msgerr.Errorf("filter %q: %w", clip.Text(filter), err)
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
