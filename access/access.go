// Package access decides who may do what in the journal: the roles, the
// users and tokens that carry them, the authorization of each command and
// read, and the NATS users and permissions that enforce the same roles on
// the NATS side.
//
// Roles:
//   - journal: the journal's own processes (`journal serve`, the CLI). Every
//     permission: it alone writes events, reads session secrets, and runs
//     the command service other users send requests to.
//   - gm: every command and every read in its campaign (or in every
//     campaign, with campaign "*").
//   - player: the player commands (PlayerCommand: those the command
//     catalogue gives the Player role) for its own characters, and every
//     read in its one campaign.
//   - dashboard: reads only, in its campaign (or "*").
//
// Invariants:
//   - Authorize and AuthorizeRead are the one decision, used by the HTTP API
//     and by the NATS command service (access/natscmd) alike; whatever they
//     refuse wraps events.ErrDenied, and a refused command records nothing.
//   - Nobody but the journal role can reach the JetStream API ($JS.>),
//     key-value ($KV.>, the session secrets) or the system ($SYS.>), or
//     publish under journal.> or the feed; so no one else can read a seed
//     before it is revealed, forge an event, or delete or purge anything,
//     whatever reply or deliver subject it names (see Permissions). Users
//     follow a campaign on its feed (FeedSubject) and read its history
//     through the command service (ReadCommand).
//   - A user's NATS identity is pinned by its permissions: it may publish
//     command requests only under journalcmd.<its name>.>, so the command
//     service knows who asks from the subject alone.
//   - Replies go to the requester's own inbox only: a user subscribes to
//     InboxPrefix(name).> alone, and a service answers a request only when
//     its reply subject is there (ReplyAllowed), on a connection that may
//     publish to inboxes only (ResponderPermissions). A reply subject is the
//     requester's to name, so without this a request would make the
//     journal's connection publish on the stream or the secrets.
//   - Config values are immutable once loaded; the package holds no state.
package access

import (
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/nats-io/nkeys"

	"github.com/campaign-journal/journal/command/catalog"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// Role is what a user may do.
type Role string

// The roles.
const (
	RoleJournal   Role = "journal"
	RoleGM        Role = "gm"
	RolePlayer    Role = "player"
	RoleDashboard Role = "dashboard"
)

// AllCampaigns as a user's campaign lets a gm or dashboard act in every
// campaign.
const AllCampaigns = "*"

// ErrDenied is returned (wrapped) for everything a role may not do.
var ErrDenied = events.ErrDenied

// ErrConfig is returned (wrapped) for an invalid access configuration.
var ErrConfig = msgerr.New("invalid access configuration")

// ReservedPrefix starts user names the embedded server keeps for itself
// (its owner's own user).
const ReservedPrefix = "journal-owner-"

// MinTokenLen is the shortest plain HTTP token accepted.
const MinTokenLen = 16

// Principal is who makes a request: a user of the configuration, as the
// HTTP layer finds it from a token, or the NATS command service from the
// subject of a request.
type Principal struct {
	Name       string
	Role       Role
	Campaign   string   // a campaign id, or AllCampaigns; empty for the journal role
	Characters []string // a player's characters
}

// User is one entry of the configuration file.
type User struct {
	// Name is the user's name: a slug ([a-z0-9_-], 1..64), also its NATS user
	// name and the actor recorded on the events its commands record.
	Name string `json:"name"`
	Role Role   `json:"role"`
	// Campaign is the campaign the user belongs to: required for gm, player
	// and dashboard; "*" (AllCampaigns) for a gm or dashboard of every
	// campaign.
	Campaign string `json:"campaign,omitempty"`
	// Characters are a player's own characters (at least one).
	Characters []string `json:"characters,omitempty"`
	// Password signs the user in to NATS: plain text, or a bcrypt hash
	// ("$2a$…") that nats-server checks. NKey is the alternative: the user's
	// public nkey ("U…"). A user with neither has no NATS access (HTTP only).
	Password string `json:"password,omitempty"`
	NKey     string `json:"nkey,omitempty"`
	// Tokens are the user's HTTP bearer tokens: plain (at least 16 bytes)
	// or "sha256:" and the hex SHA-256 of the token.
	Tokens []string `json:"tokens,omitempty"`
	// Limits are the user's own rate limit, in place of the file's (see
	// Limits; its campaign quota stays the file's). Not for the journal
	// role, which is never limited.
	Limits *UserLimits `json:"limits,omitempty"`
}

// The default limits on appends (see Limits): far beyond play (a command
// every half second, sustained, by one user in one campaign; thirty at
// once), and a campaign of years (hundreds of sessions).
const (
	DefaultAppendsPerMinute  = 120
	DefaultBurst             = 30
	DefaultCampaignMaxEvents = 200000
)

// Limits are the access file's limits on appends (its "limits" object),
// which `journal serve` enforces on every command of every user but those
// of the journal role, over HTTP and NATS alike. A value left out, or 0,
// is its default; a negative one is refused. A refused command records
// nothing.
type Limits struct {
	// AppendsPerMinute is how many commands that record events one user
	// may issue a minute in one campaign, sustained (default
	// DefaultAppendsPerMinute).
	AppendsPerMinute int `json:"appends_per_minute,omitempty"`
	// Burst is how many of them it may issue at once, after a quiet time
	// (default DefaultBurst).
	Burst int `json:"burst,omitempty"`
	// CampaignMaxEvents is the most events a campaign may hold: an append
	// past it is refused to every user (default DefaultCampaignMaxEvents).
	CampaignMaxEvents int `json:"campaign_max_events,omitempty"`
}

// UserLimits are one user's own rate limit (User.Limits): a value left
// out, or 0, is the file's.
type UserLimits struct {
	AppendsPerMinute int `json:"appends_per_minute,omitempty"`
	Burst            int `json:"burst,omitempty"`
}

// Principal returns the principal the user acts as.
func (u User) Principal() Principal {
	return Principal{Name: u.Name, Role: u.Role, Campaign: u.Campaign, Characters: slices.Clone(u.Characters)}
}

// Config is the access configuration: the users. Use Load or Parse, which
// validate it; a Config is not modified afterwards.
type Config struct {
	Users []User `json:"users"`
	// Limits are the limits on appends (nil: the defaults).
	Limits *Limits `json:"limits,omitempty"`

	// tokens maps the SHA-256 of each HTTP token to its user's index.
	tokens map[[sha256.Size]byte]int
}

// Load reads and validates a configuration file (JSON, see Config).
func Load(path string) (*Config, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, msgerr.Errorf("access: %w", err)
	}
	c, err := Parse(b)
	if err != nil {
		return nil, msgerr.Errorf("access: %s: %w", path, err)
	}
	return c, nil
}

// Parse decodes and validates a configuration: unknown fields and
// anything after the object are refused.
func Parse(b []byte) (*Config, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	var c Config
	if err := d.Decode(&c); err != nil {
		return nil, msgerr.Errorf("%w: %w", ErrConfig, err)
	}
	if d.More() {
		return nil, msgerr.Errorf("%w: data after the JSON object", ErrConfig)
	}
	if err := c.validate(); err != nil {
		return nil, err
	}
	return &c, nil
}

// New validates users and returns their configuration, with the default
// limits.
func New(users ...User) (*Config, error) {
	return newConfig(nil, users)
}

// WithLimits returns a new configuration: c's users with limits l
// (nil: the defaults), validated. c is not changed.
func (c *Config) WithLimits(l *Limits) (*Config, error) {
	var users []User
	if c != nil {
		users = c.Users
	}
	if l != nil {
		cl := *l
		l = &cl
	}
	return newConfig(l, users)
}

// derive returns a configuration of users with c's limits (c may be
// nil), validated: what With, Without and Replace return.
func (c *Config) derive(users []User) (*Config, error) {
	var l *Limits
	if c != nil {
		l = c.Limits
	}
	return newConfig(l, users)
}

// newConfig validates users and limits l and returns their configuration.
func newConfig(l *Limits, users []User) (*Config, error) {
	c := &Config{Users: slices.Clone(users), Limits: l}
	if err := c.validate(); err != nil {
		return nil, err
	}
	return c, nil
}

// AppendRate returns the rate limit of the user named name: commands a
// minute and at once, from its own limits, else the file's, else the
// defaults (also for a name the file does not have: a device the table's
// invites signed in). The journal role is never limited (see Exempt).
func (c *Config) AppendRate(name string) (perMinute, burst int) {
	perMinute, burst = DefaultAppendsPerMinute, DefaultBurst
	if c == nil {
		return perMinute, burst
	}
	if c.Limits != nil {
		perMinute, burst = or(c.Limits.AppendsPerMinute, perMinute), or(c.Limits.Burst, burst)
	}
	for _, u := range c.Users {
		if u.Name == name && u.Limits != nil {
			perMinute, burst = or(u.Limits.AppendsPerMinute, perMinute), or(u.Limits.Burst, burst)
		}
	}
	return perMinute, burst
}

// CampaignMaxEvents returns the most events a campaign may hold: the
// file's limit, else DefaultCampaignMaxEvents.
func (c *Config) CampaignMaxEvents() int {
	if c == nil || c.Limits == nil {
		return DefaultCampaignMaxEvents
	}
	return or(c.Limits.CampaignMaxEvents, DefaultCampaignMaxEvents)
}

// Exempt lists the users no limit holds: those of the journal role.
func (c *Config) Exempt() []string {
	var out []string
	if c != nil {
		for _, u := range c.Users {
			if u.Role == RoleJournal {
				out = append(out, u.Name)
			}
		}
	}
	return out
}

// or is v, or def when v is 0.
func or(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

func (c *Config) validate() error {
	var errs []error
	bad := func(u User, format string, args ...any) {
		errs = append(errs, msgerr.Errorf("%w: user %q: %s", ErrConfig, u.Name, fmt.Sprintf(format, args...)))
	}
	names := map[string]bool{}
	c.tokens = map[[sha256.Size]byte]int{}
	for i, u := range c.Users {
		if err := events.ValidID(u.Name); err != nil {
			bad(u, "name: %v", err)
		}
		if strings.HasPrefix(u.Name, ReservedPrefix) {
			bad(u, "the prefix %q is reserved", ReservedPrefix)
		}
		if names[u.Name] {
			bad(u, "repeated")
		}
		names[u.Name] = true
		switch u.Role {
		case RoleJournal:
			if u.Campaign != "" || len(u.Characters) > 0 {
				bad(u, "the journal role has no campaign or characters")
			}
		case RoleGM, RoleDashboard:
			if u.Campaign != AllCampaigns && events.ValidID(u.Campaign) != nil {
				bad(u, "campaign %q: want a campaign id or %q", u.Campaign, AllCampaigns)
			}
			if len(u.Characters) > 0 {
				bad(u, "only players have characters")
			}
		case RolePlayer:
			if events.ValidID(u.Campaign) != nil {
				bad(u, "campaign %q: a player belongs to one campaign", u.Campaign)
			}
			if len(u.Characters) == 0 {
				bad(u, "a player needs at least one character")
			}
			seen := map[string]bool{}
			for _, ch := range u.Characters {
				if err := events.ValidID(ch); err != nil {
					bad(u, "character: %v", err)
				}
				if seen[ch] {
					bad(u, "character %q repeated", ch)
				}
				seen[ch] = true
			}
		default:
			bad(u, "role %q: want journal, gm, player or dashboard", u.Role)
		}
		if u.Password != "" && u.NKey != "" {
			bad(u, "a password or an nkey, not both")
		}
		if u.NKey != "" && !nkeys.IsValidPublicUserKey(u.NKey) {
			bad(u, "nkey %q is not a public user nkey", u.NKey)
		}
		if u.Password == "" && u.NKey == "" && len(u.Tokens) == 0 {
			bad(u, "no password, nkey or token: the user could never sign in")
		}
		if u.Limits != nil {
			if u.Role == RoleJournal {
				bad(u, "limits: the journal role is never limited")
			}
			errs = append(errs, validLimits(fmt.Sprintf("user %q: limits", u.Name), map[string]int{
				"appends_per_minute": u.Limits.AppendsPerMinute, "burst": u.Limits.Burst})...)
		}
		for _, tok := range u.Tokens {
			sum, err := tokenHash(tok)
			if err != nil {
				bad(u, "%v", err)
				continue
			}
			if _, dup := c.tokens[sum]; dup {
				bad(u, "a token is given to two users")
			}
			c.tokens[sum] = i
		}
	}
	if l := c.Limits; l != nil {
		errs = append(errs, validLimits("limits", map[string]int{
			"appends_per_minute": l.AppendsPerMinute, "burst": l.Burst, "campaign_max_events": l.CampaignMaxEvents})...)
	}
	return errors.Join(errs...)
}

// validLimits refuses the negative values of a limits object (at where),
// by their JSON names, in the order of their names.
func validLimits(where string, values map[string]int) []error {
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(values)) {
		if v := values[name]; v < 0 {
			errs = append(errs, msgerr.Errorf("%w: %s: %s is %d: want a positive number (0 or none: the default)", ErrConfig, where, name, v))
		}
	}
	return errs
}

// tokenHash returns the SHA-256 a configured token stands for.
func tokenHash(tok string) ([sha256.Size]byte, error) {
	var sum [sha256.Size]byte
	if h, ok := strings.CutPrefix(tok, "sha256:"); ok {
		b, err := hex.DecodeString(h)
		if err != nil || len(b) != sha256.Size {
			return sum, msgerr.New("token: sha256: wants 64 hex digits")
		}
		copy(sum[:], b)
		return sum, nil
	}
	if len(tok) < MinTokenLen {
		return sum, msgerr.Errorf("token: plain tokens need at least %d bytes", MinTokenLen)
	}
	return sha256.Sum256([]byte(tok)), nil
}

// HashToken returns the "sha256:…" form of a token, for the configuration
// file.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// ByToken returns the principal an HTTP bearer token belongs to. The
// comparison is on SHA-256 sums in constant time.
func (c *Config) ByToken(token string) (Principal, bool) {
	if c == nil || token == "" {
		return Principal{}, false
	}
	want := sha256.Sum256([]byte(token))
	found := -1
	for sum, i := range c.tokens {
		if subtle.ConstantTimeCompare(sum[:], want[:]) == 1 {
			found = i
		}
	}
	if found < 0 {
		return Principal{}, false
	}
	return c.Users[found].Principal(), true
}

// ByName returns the principal of the user named name.
func (c *Config) ByName(name string) (Principal, bool) {
	if c == nil {
		return Principal{}, false
	}
	for _, u := range c.Users {
		if u.Name == name {
			return u.Principal(), true
		}
	}
	return Principal{}, false
}

// PlayerCommand reports whether players may issue command, and names the
// field of its request body (as the HTTP API and the NATS command service
// take it) that holds the acting character, which must be the player's own.
// Both come from the command catalogue (catalog.Spec's Role and Acting):
// every other command is the game master's. Command names are the CLI's
// words joined with dashes.
func PlayerCommand(command string) (field string, ok bool) {
	s, found := catalog.Lookup(command)
	if !found || s.Role != catalog.Player || s.Acting == "" {
		return "", false
	}
	return s.Acting, true
}

// PlayerCommands lists the commands players may issue (PlayerCommand), in
// the catalogue's order.
func PlayerCommands() []string {
	var out []string
	for _, s := range catalog.All() {
		if _, ok := PlayerCommand(s.Name); ok {
			out = append(out, s.Name)
		}
	}
	return out
}

// inCampaign refuses a principal outside campaign.
func (p Principal) inCampaign(campaign string) error {
	if p.Role == RoleJournal || p.Campaign == AllCampaigns || p.Campaign == campaign {
		return nil
	}
	return msgerr.Errorf("%w: %s %q may not act in campaign %q", ErrDenied, p.Role, p.Name, campaign)
}

// AuthorizeRead decides whether p may read campaign: its events, sheets,
// sessions and transcript. Every role may read its own campaign(s).
func AuthorizeRead(p Principal, campaign string) error {
	switch p.Role {
	case RoleJournal, RoleGM, RolePlayer, RoleDashboard:
		return p.inCampaign(campaign)
	}
	return msgerr.Errorf("%w: unknown role %q", ErrDenied, p.Role)
}

// Authorize decides whether p may issue command in campaign, acting as
// character (the acting character of a player command, PlayerCommand;
// ignored for other roles). The journal may do anything; a gm anything in
// its campaign; a player only player commands for its own characters; a
// dashboard nothing. The error wraps ErrDenied.
func Authorize(p Principal, campaign, command, character string) error {
	if err := AuthorizeRead(p, campaign); err != nil {
		return err
	}
	switch p.Role {
	case RoleJournal, RoleGM:
		return nil
	case RoleDashboard:
		return msgerr.Errorf("%w: dashboard %q is read-only (command %q)", ErrDenied, p.Name, command)
	}
	if _, ok := PlayerCommand(command); !ok {
		return msgerr.Errorf("%w: player %q may not issue %q: a command for the game master", ErrDenied, p.Name, command)
	}
	if character == "" || !slices.Contains(p.Characters, character) {
		return msgerr.Errorf("%w: player %q may issue %q only for its own characters (%s), not for %q",
			ErrDenied, p.Name, command, strings.Join(p.Characters, ", "), character)
	}
	return nil
}

// ActingCharacter returns the acting character of a player command's JSON
// request body (the field PlayerCommand names), "" for other commands or
// when the body has no such field. encoding/json matches field names
// without regard to case and lets the last of repeated names win, so a body
// with two names that fold to the field ("character" and "Character") is
// refused rather than guessed at. A body that is not a JSON object, or whose
// field is not a string, is an error wrapping ErrDenied: it cannot be
// authorized.
func ActingCharacter(command string, body []byte) (string, error) {
	field, ok := PlayerCommand(command)
	if !ok {
		return "", nil
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return "", nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(body, &obj); err != nil {
		return "", msgerr.Errorf("%w: %s: request body: %w", ErrDenied, command, err)
	}
	var raw json.RawMessage
	n := 0
	for k, v := range obj {
		if strings.EqualFold(k, field) {
			raw, n = v, n+1
		}
	}
	switch {
	case n == 0:
		return "", nil
	case n > 1:
		return "", msgerr.Errorf("%w: %s: field %q given more than once", ErrDenied, command, field)
	}
	var ch string
	if err := json.Unmarshal(raw, &ch); err != nil {
		return "", msgerr.Errorf("%w: %s: %q is not a string", ErrDenied, command, field)
	}
	return ch, nil
}

// AuthorizeRequest is Authorize for a command with its JSON request body:
// the acting character is read from the body (ActingCharacter). The body
// must then be decoded by encoding/json into the command's request (as the
// HTTP API and natscmd do), so that the character authorized is the one
// acted for.
func AuthorizeRequest(p Principal, campaign, command string, body []byte) error {
	if p.Role != RolePlayer {
		return Authorize(p, campaign, command, "")
	}
	ch, err := ActingCharacter(command, body)
	if err != nil {
		return err
	}
	return Authorize(p, campaign, command, ch)
}
