package web

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/clip"
)

// A roll's permalink carries a capability for that one roll, so that a
// forum reader with no token can verify it (journal serve --access):
//
//	/r/{campaign}/{event}?k=CAP
//	CAP = base64url(HMAC-SHA256(share key, "journal-permalink|" + campaign + "|" + event))
//
// Invariants:
//   - Only a reader of the campaign mints a CAP (GET
//     /api/campaigns/{c}/rolls/{id}/permalink, authenticated and authorized
//     like every read of the campaign), and only for a roll of it.
//   - GET /api/permalinks/{c}/{id}?k=CAP needs no token: with a CAP of that
//     campaign and event (checked in constant time) it returns exactly the
//     evidence verifying that roll needs (evidence), nothing else of the
//     campaign. A wrong, missing or other event's or campaign's CAP, an
//     unknown campaign or event: the same 404 (no oracle).
//   - A CAP opens that route only: it is not a token, every other /api/
//     route ignores ?k=.
//   - The evidence never holds an open session's seed: a session's seed is
//     in its session-ended event only, recorded when it ends.
//   - The share key is the server's own (Options.PermalinkKey, kept mode
//     0600 beside the access file by journal serve: LoadOrCreatePermalinkKey),
//     never the session seeds' store. Without one the server makes a
//     random key in memory: links then last until it restarts.

// PermalinkKeySize is the size of a share key, in bytes.
const PermalinkKeySize = 32

// PermalinkParam is the query parameter of a permalink's capability.
const PermalinkParam = "k"

// ErrPermalinkKey marks a share key file that is not a key.
var ErrPermalinkKey = errors.New("web: permalink key")

// PermalinkKeyPath is where journal serve keeps the share key of an access
// file: beside it.
func PermalinkKeyPath(accessFile string) string { return accessFile + ".permalink-key" }

// LoadOrCreatePermalinkKey reads the share key at path (hex, one line), or
// makes one from crypto/rand and writes it there, mode 0600, created
// exclusively (a concurrent maker's key wins, and is read back).
func LoadOrCreatePermalinkKey(path string) ([]byte, error) {
	for range 2 {
		b, err := os.ReadFile(path)
		if err == nil {
			key, err := hex.DecodeString(strings.TrimSpace(string(b)))
			if err != nil || len(key) != PermalinkKeySize {
				return nil, fmt.Errorf("%w: %s: want %d bytes in hex", ErrPermalinkKey, path, PermalinkKeySize)
			}
			return key, nil
		}
		if !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%w: %v", ErrPermalinkKey, err)
		}
		key := make([]byte, PermalinkKeySize)
		if _, err := rand.Read(key); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrPermalinkKey, err)
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, os.ErrExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrPermalinkKey, err)
		}
		_, err = f.WriteString(hex.EncodeToString(key) + "\n")
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			_ = os.Remove(path)
			return nil, fmt.Errorf("%w: %v", ErrPermalinkKey, err)
		}
		return key, nil
	}
	return nil, fmt.Errorf("%w: %s: cannot be read or made", ErrPermalinkKey, path)
}

// permalinkCap is the capability of one roll.
func (s *Server) permalinkCap(campaign, event string) string {
	m := hmac.New(sha256.New, s.permalinkKey)
	m.Write([]byte("journal-permalink|" + campaign + "|" + event))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// capValid reports, in constant time, whether k is the capability of the
// campaign's event.
func (s *Server) capValid(campaign, event, k string) bool {
	if k == "" || len(k) > 64 {
		return false
	}
	got, err := base64.RawURLEncoding.DecodeString(k)
	if err != nil {
		return false
	}
	want, _ := base64.RawURLEncoding.DecodeString(s.permalinkCap(campaign, event))
	return hmac.Equal(got, want)
}

// permalinkRoutes are the two routes of permalinks: the mint, authorized
// like every read of a campaign (guard), and the evidence, registered
// apart (registerPermalinks) because a CAP, not a token, opens it.
func (s *Server) permalinkRoutes() []Route {
	return []Route{
		{http.MethodGet, "/api/campaigns/{c}/rolls/{id}/permalink", "a roll's permalink with its capability ?k= (the link a forum reader verifies it by)", s.mintPermalink},
	}
}

// registerPermalinks registers the evidence route: no guard (a CAP opens
// it), but the origin checks of every /api/ route (checkOrigin wraps the mux).
func (s *Server) registerPermalinks() {
	p := "GET /api/permalinks/{c}/{id}"
	s.mux.Handle(p, s.instrument(p, s.evidence))
}

// permalinkJSON is the answer of the mint.
type permalinkJSON struct {
	Link string `json:"link"` // the page's path with ?k=, to append to the origin
	Cap  string `json:"cap"`
}

func (s *Server) mintPermalink(w http.ResponseWriter, r *http.Request) error {
	c, id := r.PathValue("c"), r.PathValue("id")
	if events.ValidID(c) != nil || !validEventID(id) {
		return notFound("no such roll: %s in %s", clip.Text(id), clip.Text(c))
	}
	filter, err := events.CampaignFilter(c)
	if err != nil {
		return notFound("no such roll: %s in %s", clip.Text(id), clip.Text(c))
	}
	found := false
	err = s.opts.Store.Read(r.Context(), events.Query{Subject: filter, Types: []string{events.TypeRollMade}}, func(rec events.Recorded) error {
		if rec.Event.ID == id {
			found = true
			return errEnough
		}
		return nil
	})
	if err != nil && !errors.Is(err, errEnough) {
		return err
	}
	if !found {
		return notFound("no such roll: %s in %s", clip.Text(id), clip.Text(c))
	}
	k := s.permalinkCap(c, id)
	return writeJSON(w, http.StatusOK, permalinkJSON{
		Link: "/r/" + url.PathEscape(c) + "/" + url.PathEscape(id) + "?" + PermalinkParam + "=" + k, Cap: k,
	})
}

// evidenceJSON is the answer of the evidence route.
type evidenceJSON struct {
	Campaign string       `json:"campaign"`
	Roll     string       `json:"roll"`
	Records  []recordJSON `json:"records"` // in stream order
}

// evidence answers GET /api/permalinks/{c}/{id}?k=CAP.
func (s *Server) evidence(w http.ResponseWriter, r *http.Request) error {
	c, id := r.PathValue("c"), r.PathValue("id")
	// One answer for every refusal: nothing tells a wrong CAP from an
	// unknown roll.
	missing := notFound("no such roll")
	if events.ValidID(c) != nil || !validEventID(id) || !s.capValid(c, id, r.URL.Query().Get(PermalinkParam)) {
		return missing
	}
	out, err := s.evidenceOf(r.Context(), c, id)
	if err != nil {
		return err
	}
	if out == nil {
		return missing
	}
	return writeJSON(w, http.StatusOK, evidenceJSON{Campaign: c, Roll: id, Records: out})
}

// evidenceTypes are the types an evidence may hold.
var evidenceTypes = []string{
	events.TypeRollMade, events.TypeRollRequested, events.TypeAttackResolved, events.TypeContestResolved,
	events.TypeCombatStarted, events.TypeDamageTaken, events.TypeSessionStarted, events.TypeSessionEnded,
	events.TypeSessionContributed, events.TypeParticipantRegistered, events.TypeEventVoided,
	events.TypeDeviceRegistered, events.TypeDeviceApproved, events.TypeDeviceRevoked,
	events.TypeRollHidden,
}

// isKeyType reports whether typ registers, approves or revokes a user's
// key: an evidence holds every one of its signers'.
func isKeyType(typ string) bool {
	switch typ {
	case events.TypeParticipantRegistered, events.TypeDeviceRegistered, events.TypeDeviceApproved, events.TypeDeviceRevoked:
		return true
	}
	return false
}

// refs are the fields of an event's data that name other events or users.
type refs struct {
	User       string            `json:"user"`
	Request    string            `json:"request"`
	AttackRoll string            `json:"attack_roll"`
	DamageRoll string            `json:"damage_roll"`
	RollA      string            `json:"roll_a"`
	RollB      string            `json:"roll_b"`
	Initiative map[string]string `json:"initiative"`
	Target     string            `json:"target"`
	Character  string            `json:"character"`
	Event      string            `json:"event"`
	// Hidden: the secret roll a roll reveals (its inputs are the evidence's).
	Hidden string `json:"hidden"`
	// An attack's outcome and its damage taken's.
	Attacker string `json:"attacker"`
	Hit      bool   `json:"hit"`
	Damage   int    `json:"damage"`
	Amount   int    `json:"amount"`
	Source   string `json:"source"`
}

// sameBatch reports whether a, stored just before b, was recorded by the
// same command: at the sequence before b's, with b's time, session,
// actor, request id and command (a command's events are one atomic
// append, stored contiguously, all at the command's time).
func sameBatch(a, b events.Recorded) bool {
	x, y := a.Event, b.Event
	return a.Seq+1 == b.Seq && x.Time.Equal(y.Time) && x.Session == y.Session && x.Actor == y.Actor &&
		x.RequestID == y.RequestID && x.Command == y.Command
}

// rollsOf are the rolls an action (attack, contest, combat start) names.
func (d refs) rollsOf() []string {
	out := []string{d.AttackRoll, d.DamageRoll, d.RollA, d.RollB}
	for _, v := range d.Initiative {
		out = append(out, v)
	}
	return slices.DeleteFunc(out, func(s string) bool { return s == "" })
}

// evidenceOf is what verifying the roll id of campaign c needs, in stream
// order: the roll and the other rolls of the actions it belongs to (attack,
// contest, initiative), those actions and the damage taken an attack's hit
// recorded in its own batch (no other), the rolls' requests, their
// sessions' session-started, contributions and
// session-ended (recorded only once a session ended: it holds the seed),
// the voids of the rolls, and the key registrations of every user who
// signed one of them. Nil when id is not a roll of c.
func (s *Server) evidenceOf(ctx context.Context, c, id string) ([]recordJSON, error) {
	type rec struct {
		r events.Recorded
		d refs
	}
	filter, err := events.CampaignFilter(c)
	if err != nil {
		return nil, nil
	}
	var all []rec
	at := -1
	err = s.opts.Store.Read(ctx, events.Query{Subject: filter, Types: evidenceTypes}, func(r events.Recorded) error {
		var d refs
		_ = json.Unmarshal(r.Event.Data, &d) // a field of another shape names nothing
		if r.Event.ID == id && r.Event.Type == events.TypeRollMade {
			at = len(all)
		}
		all = append(all, rec{r, d})
		return nil
	})
	if err != nil {
		return nil, err
	}
	if at < 0 {
		return nil, nil
	}
	rolls := map[string]bool{id: true}
	keep := map[int]bool{}
	isAction := func(t string) bool {
		return t == events.TypeAttackResolved || t == events.TypeContestResolved || t == events.TypeCombatStarted
	}
	for i, x := range all {
		if !isAction(x.r.Event.Type) || !slices.ContainsFunc(x.d.rollsOf(), func(r string) bool { return r == id }) {
			continue
		}
		keep[i] = true
		for _, r := range x.d.rollsOf() {
			rolls[r] = true
		}
		if x.r.Event.Type == events.TypeAttackResolved && x.d.Hit && x.d.Damage > 0 && i > 0 {
			// The damage taken of a hit, recorded in the attack's atomic
			// batch just before its resolution: the event at the sequence
			// before, of the same command. Any other damage taken (the GM's,
			// another attack's) is not this roll's.
			if y := all[i-1]; y.r.Event.Type == events.TypeDamageTaken && sameBatch(y.r, x.r) &&
				y.d.Character == x.d.Target && y.d.Amount == x.d.Damage && y.d.Source == x.d.Attacker {
				keep[i-1] = true
			}
		}
	}
	sessions, requests, signers, hidden := map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}
	for i, x := range all {
		if x.r.Event.Type == events.TypeRollMade && rolls[x.r.Event.ID] {
			keep[i] = true
			sessions[x.r.Event.Session] = true
			if x.d.Hidden != "" {
				hidden[x.d.Hidden] = true
			}
			if x.d.Request != "" {
				requests[x.d.Request] = true
			}
		}
	}
	for i, x := range all {
		e := x.r.Event
		switch e.Type {
		case events.TypeRollMade:
		case events.TypeRollRequested:
			keep[i] = keep[i] || requests[x.d.Request] && sessions[e.Session]
		case events.TypeSessionStarted, events.TypeSessionEnded, events.TypeSessionContributed:
			keep[i] = keep[i] || sessions[e.Session]
		case events.TypeEventVoided:
			keep[i] = keep[i] || rolls[x.d.Event]
		case events.TypeRollHidden:
			keep[i] = keep[i] || hidden[e.ID]
		}
		if keep[i] && x.d.User != "" && !isKeyType(e.Type) {
			signers[x.d.User] = true
		}
	}
	out := []recordJSON{}
	for i, x := range all {
		if keep[i] || isKeyType(x.r.Event.Type) && signers[x.d.User] {
			out = append(out, recordJSON{Seq: x.r.Seq, Subject: x.r.Subject, Event: x.r.Event})
		}
	}
	return out, nil
}
