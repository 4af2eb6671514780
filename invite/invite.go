// Package invite keeps the table's one-time invitations and the devices
// they signed in (docs/design.md §6, "The table in the browser"): the GM invites
// a player with a link (`journal invite`), the player's browser redeems it
// once with its device's public key, and gets a session token of its own.
//
// The book lives beside the access file, in one JSON file
// (PathFor(accessFile): "<access file>.devices.json", mode 0600), holding
// no secret: only the SHA-256 of each invite token and of each device token.
//
// Invariants:
//   - An invite is redeemed at most once: Redeem holds the book's lock (a
//     lock file, flock(2) on Unix) from reading the invite to writing it
//     used, so two browsers racing with one link end with one device and
//     one refusal (ErrUsed). An expired (ErrExpired), revoked (ErrRevoked)
//     or unknown (ErrUnknown) invite signs nobody in and changes nothing.
//   - Redeem calls register (the key registration, recorded in the journal)
//     before it writes the device: a refused registration leaves the invite
//     unused and the book unchanged.
//   - A device's token authenticates only while the device is not revoked;
//     a revoked device stays listed. The book is written through a
//     temporary file, synced and renamed: a reader sees the old book or the
//     new one. Book re-reads the file when it changes on disk, so a running
//     server sees the CLI's invites and revocations at once.
//   - Tokens are compared by their SHA-256 sums in constant time.
//   - A redemption whose answer was lost may be sent again by the same
//     client: the same invite token, the same public key and the same
//     retry key (a secret the client chose, its Idempotency-Key) within
//     RetryWindow get the same device back with a new session token (the
//     one the lost answer held stops working), and record nothing again.
//     Any other redemption of a used invite is ErrUsed.
package invite

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// Sentinel errors; each is wrapped by what returns it.
var (
	// ErrUnknown: no invite (or device) has this token or id.
	ErrUnknown = msgerr.New("unknown invite")
	// ErrUsed: the invite was redeemed already.
	ErrUsed = msgerr.New("invite already used")
	// ErrExpired: the invite's time ran out.
	ErrExpired = msgerr.New("invite expired")
	// ErrRevoked: the GM revoked the invite or the device.
	ErrRevoked = msgerr.New("revoked")
	// ErrInvalid: a malformed invite or book.
	ErrInvalid = msgerr.New("invalid invite")
)

// Roles an invite may give. A viewer reads only (access.RoleDashboard).
const (
	RolePlayer = "player"
	RoleGM     = "gm"
	RoleViewer = "viewer"
)

// DefaultTTL is how long an invite stays redeemable by default.
const DefaultTTL = 72 * time.Hour

// Invite is one invitation (no secret: its token's SHA-256 only).
type Invite struct {
	ID         string    `json:"id"`
	TokenHash  string    `json:"token_sha256"`
	User       string    `json:"user"`
	Role       string    `json:"role"`
	Campaign   string    `json:"campaign"`
	Characters []string  `json:"characters,omitempty"`
	By         string    `json:"by"` // the GM who invited: the key registration's actor
	Created    time.Time `json:"created"`
	Expires    time.Time `json:"expires"`
	Used       time.Time `json:"used,omitzero"`
	Device     string    `json:"device,omitempty"` // the device it signed in
	Revoked    time.Time `json:"revoked,omitzero"`
}

// Device is one device an invite signed in.
type Device struct {
	ID          string    `json:"id"`
	TokenHash   string    `json:"token_sha256"`
	User        string    `json:"user"`
	Role        string    `json:"role"`
	Campaign    string    `json:"campaign"`
	Characters  []string  `json:"characters,omitempty"`
	PublicKey   string    `json:"public_key,omitempty"`
	Fingerprint string    `json:"fingerprint,omitempty"`
	Invite      string    `json:"invite"`
	Created     time.Time `json:"created"`
	Revoked     time.Time `json:"revoked,omitzero"`
	// RetryHash is the SHA-256 of the redemption's retry key (the
	// client's Idempotency-Key), "" when it sent none: the same client
	// may redeem again within RetryWindow (its answer was lost).
	RetryHash string `json:"retry_sha256,omitempty"`
}

// RetryWindow is how long after a redemption the same client (its retry
// key and public key) may redeem the invite again and get its device back.
const RetryWindow = 10 * time.Minute

// Principal is who the device acts as.
func (d Device) Principal() access.Principal {
	return access.Principal{Name: d.User, Role: AccessRole(d.Role), Campaign: d.Campaign, Characters: slices.Clone(d.Characters)}
}

// File is the book's content.
type File struct {
	Invites []Invite `json:"invites"`
	Devices []Device `json:"devices"`
}

// PathFor is the book's path beside an access file.
func PathFor(accessFile string) string { return accessFile + ".devices.json" }

// Spec is what an invite gives.
type Spec struct {
	User       string
	Role       string // player (default), gm or viewer
	Campaign   string
	Characters []string
	By         string
	TTL        time.Duration // DefaultTTL when 0
}

func (s Spec) validate() error {
	if err := events.ValidID(s.User); err != nil {
		return msgerr.Errorf("%w: player: %w", ErrInvalid, err)
	}
	if strings.HasPrefix(s.User, access.ReservedPrefix) {
		return msgerr.Errorf("%w: player: the prefix %q is reserved", ErrInvalid, access.ReservedPrefix)
	}
	if err := events.ValidID(s.Campaign); err != nil {
		return msgerr.Errorf("%w: campaign: %w", ErrInvalid, err)
	}
	switch s.Role {
	case RolePlayer:
		if len(s.Characters) == 0 {
			return msgerr.Errorf("%w: a player needs --character", ErrInvalid)
		}
	case RoleGM, RoleViewer:
		if len(s.Characters) > 0 {
			return msgerr.Errorf("%w: only players have characters (--role %s)", ErrInvalid, s.Role)
		}
	default:
		return msgerr.Errorf("%w: --role %q: want player, gm or viewer", ErrInvalid, s.Role)
	}
	for _, ch := range s.Characters {
		if err := events.ValidID(ch); err != nil {
			return msgerr.Errorf("%w: --character: %w", ErrInvalid, err)
		}
	}
	if s.TTL < 0 {
		return msgerr.Errorf("%w: --expires %s: want a positive duration", ErrInvalid, s.TTL)
	}
	return nil
}

// Book is the book at one path. Its methods are safe for concurrent use
// and across processes (the lock file).
type Book struct {
	path  string
	clock func() time.Time
	rand  io.Reader

	mu     sync.Mutex
	stamp  fileStamp
	cached File
}

type fileStamp struct {
	size    int64
	modTime time.Time
	ok      bool
}

// Open returns the book at path (a missing file is an empty book). clock
// and random default to time.Now and crypto/rand.
func Open(path string, clock func() time.Time, random io.Reader) *Book {
	if clock == nil {
		clock = time.Now
	}
	if random == nil {
		random = rand.Reader
	}
	return &Book{path: path, clock: clock, rand: random}
}

// Path is the book's file.
func (b *Book) Path() string { return b.path }

func hashHex(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

func equalHash(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }

func (b *Book) secret(n int) (string, error) {
	buf := make([]byte, n)
	if _, err := io.ReadFull(b.rand, buf); err != nil {
		return "", msgerr.Errorf("invite: random: %w", err)
	}
	return hex.EncodeToString(buf), nil
}

// read loads the file (no lock).
func (b *Book) read() (File, error) {
	data, err := os.ReadFile(b.path)
	if errors.Is(err, fs.ErrNotExist) {
		return File{}, nil
	}
	if err != nil {
		return File{}, msgerr.Errorf("invite: %w", err)
	}
	var f File
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	if err := d.Decode(&f); err != nil {
		return File{}, msgerr.Errorf("invite: %s: %w: %w", b.path, ErrInvalid, err)
	}
	return f, nil
}

func (b *Book) write(f File) error {
	if f.Invites == nil {
		f.Invites = []Invite{}
	}
	if f.Devices == nil {
		f.Devices = []Device{}
	}
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return msgerr.Errorf("invite: %w", err)
	}
	if err := access.WriteFile(b.path, append(data, '\n')); err != nil {
		return msgerr.Errorf("invite: %w", err)
	}
	return nil
}

// update runs fn on the book under the lock and writes it when fn
// returns nil.
func (b *Book) update(ctx context.Context, fn func(f *File) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	unlock, err := lockFile(b.path + ".lock")
	if err != nil {
		return msgerr.Errorf("invite: lock %s: %w", b.path, err)
	}
	defer unlock()
	f, err := b.read()
	if err != nil {
		return err
	}
	if err := fn(&f); err != nil {
		return err
	}
	b.stamp = fileStamp{} // re-read at the next lookup
	return b.write(f)
}

// Create records a new invite and returns its one-time token (shown this
// once; the book keeps its SHA-256).
func (b *Book) Create(ctx context.Context, s Spec) (string, Invite, error) {
	if s.Role == "" {
		s.Role = RolePlayer
	}
	if err := s.validate(); err != nil {
		return "", Invite{}, err
	}
	ttl := s.TTL
	if ttl == 0 {
		ttl = DefaultTTL
	}
	token, err := b.secret(24)
	if err != nil {
		return "", Invite{}, err
	}
	id, err := b.secret(4)
	if err != nil {
		return "", Invite{}, err
	}
	now := b.clock().UTC()
	inv := Invite{ID: "i-" + id, TokenHash: hashHex(token), User: s.User, Role: s.Role, Campaign: s.Campaign,
		Characters: slices.Clone(s.Characters), By: s.By, Created: now, Expires: now.Add(ttl)}
	err = b.update(ctx, func(f *File) error {
		f.Invites = append(f.Invites, inv)
		return nil
	})
	if err != nil {
		return "", Invite{}, err
	}
	return token, inv, nil
}

// Registration is what Redeem asks register to record: the device's
// public key for the invite's user.
type Registration struct {
	Invite    Invite
	PublicKey string
}

// Redeemed is a redeemed invite: the device and its session token (shown
// this once).
type Redeemed struct {
	Device Device
	Token  string
}

// Redeem uses the invite of token once: register records the device's key
// (it returns the key's fingerprint, "" for a viewer), then the device is
// written with a new session token and the invite marked used. See the
// invariants for what is refused.
//
// retryKey is the client's Idempotency-Key ("" for none): see the
// invariants for a retry.
func (b *Book) Redeem(ctx context.Context, token, publicKey, retryKey string, register func(Registration) (string, error)) (Redeemed, error) {
	var out Redeemed
	err := b.update(ctx, func(f *File) error {
		i := -1
		want := hashHex(token)
		for k := range f.Invites {
			if equalHash(f.Invites[k].TokenHash, want) {
				i = k
			}
		}
		if i < 0 {
			return ErrUnknown
		}
		inv := f.Invites[i]
		now := b.clock().UTC()
		switch {
		case !inv.Revoked.IsZero():
			return msgerr.Errorf("invite %s: %w", inv.ID, ErrRevoked)
		case !inv.Used.IsZero():
			if k := f.retried(inv, publicKey, retryKey, now); k >= 0 {
				tok, err := b.secret(24)
				if err != nil {
					return err
				}
				f.Devices[k].TokenHash = hashHex(tok)
				out = Redeemed{Device: f.Devices[k], Token: tok}
				return nil
			}
			return msgerr.Errorf("invite %s: %w", inv.ID, ErrUsed)
		case !now.Before(inv.Expires):
			return msgerr.Errorf("invite %s: %w at %s", inv.ID, ErrExpired, inv.Expires.Format(time.RFC3339))
		}
		fp, err := register(Registration{Invite: inv, PublicKey: publicKey})
		if err != nil {
			return err
		}
		tok, err := b.secret(24)
		if err != nil {
			return err
		}
		id, err := b.secret(4)
		if err != nil {
			return err
		}
		d := Device{ID: "d-" + id, TokenHash: hashHex(tok), User: inv.User, Role: inv.Role, Campaign: inv.Campaign,
			Characters: slices.Clone(inv.Characters), Invite: inv.ID, Created: now, Fingerprint: fp}
		if fp != "" {
			d.PublicKey = publicKey
		}
		if retryKey != "" {
			d.RetryHash = hashHex(retryKey)
		}
		f.Invites[i].Used, f.Invites[i].Device = now, d.ID
		f.Devices = append(f.Devices, d)
		out = Redeemed{Device: d, Token: tok}
		return nil
	})
	return out, err
}

// retried returns the index of the device a used invite made, when this
// redemption is its own client's retry (the invariants); -1 otherwise.
func (f *File) retried(inv Invite, publicKey, retryKey string, now time.Time) int {
	if retryKey == "" || inv.Device == "" || now.Sub(inv.Used) >= RetryWindow {
		return -1
	}
	for k, d := range f.Devices {
		if d.ID != inv.Device {
			continue
		}
		if d.RetryHash == "" || !equalHash(d.RetryHash, hashHex(retryKey)) || d.PublicKey != publicKey || !d.Revoked.IsZero() {
			return -1
		}
		return k
	}
	return -1
}

// Peek returns the invite of token, as long as it may be redeemed (the
// errors of Redeem otherwise), without using it: the page learns whom the
// link is for before it makes the device's key.
func (b *Book) Peek(ctx context.Context, token string) (Invite, error) {
	f, err := b.Load(ctx)
	if err != nil {
		return Invite{}, err
	}
	want := hashHex(token)
	for _, inv := range f.Invites {
		if !equalHash(inv.TokenHash, want) {
			continue
		}
		switch {
		case !inv.Revoked.IsZero():
			return Invite{}, msgerr.Errorf("invite %s: %w", inv.ID, ErrRevoked)
		case !inv.Used.IsZero():
			return Invite{}, msgerr.Errorf("invite %s: %w", inv.ID, ErrUsed)
		case !b.clock().Before(inv.Expires):
			return Invite{}, msgerr.Errorf("invite %s: %w at %s", inv.ID, ErrExpired, inv.Expires.Format(time.RFC3339))
		}
		return inv, nil
	}
	return Invite{}, ErrUnknown
}

// Revoke revokes a device or an invite by id: a device's token stops
// working at once; an invite can no longer be redeemed. Revoking what is
// revoked already changes nothing.
func (b *Book) Revoke(ctx context.Context, id string) error {
	return b.update(ctx, func(f *File) error {
		now := b.clock().UTC()
		for k := range f.Devices {
			if f.Devices[k].ID == id {
				if f.Devices[k].Revoked.IsZero() {
					f.Devices[k].Revoked = now
				}
				return nil
			}
		}
		for k := range f.Invites {
			if f.Invites[k].ID == id {
				if f.Invites[k].Revoked.IsZero() {
					f.Invites[k].Revoked = now
				}
				return nil
			}
		}
		return msgerr.Errorf("%w: no device or invite %q", ErrUnknown, id)
	})
}

// Load returns the whole book as it is on disk now.
func (b *Book) Load(ctx context.Context) (File, error) {
	if err := ctx.Err(); err != nil {
		return File{}, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.current()
}

// current returns the cached book, re-read when the file changed (b.mu held).
func (b *Book) current() (File, error) {
	fi, err := os.Stat(b.path)
	var st fileStamp
	if err == nil {
		st = fileStamp{size: fi.Size(), modTime: fi.ModTime(), ok: true}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return File{}, msgerr.Errorf("invite: %w", err)
	}
	if st == b.stamp && b.stamp.ok {
		return b.cached, nil
	}
	f, err := b.read()
	if err != nil {
		return File{}, err
	}
	b.stamp, b.cached = st, f
	return f, nil
}

// ByToken returns the principal of a device session token; a revoked
// device's token, or an unreadable book, authenticates nobody.
func (b *Book) ByToken(token string) (access.Principal, Device, bool) {
	if b == nil || token == "" {
		return access.Principal{}, Device{}, false
	}
	b.mu.Lock()
	f, err := b.current()
	b.mu.Unlock()
	if err != nil {
		return access.Principal{}, Device{}, false
	}
	want := hashHex(token)
	found := -1
	for k := range f.Devices {
		if equalHash(f.Devices[k].TokenHash, want) {
			found = k
		}
	}
	if found < 0 || !f.Devices[found].Revoked.IsZero() {
		return access.Principal{}, Device{}, false
	}
	d := f.Devices[found]
	return d.Principal(), d, true
}
