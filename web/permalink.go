package web

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"net/http"
	"net/url"
	"os"
	"strings"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
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
//     evidence verifying that roll needs (permalink_evidence.go), nothing else of the
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
var ErrPermalinkKey = msgerr.New("web: permalink key")

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
				return nil, msgerr.Errorf("%w: %s: want %d bytes in hex", ErrPermalinkKey, path, PermalinkKeySize)
			}
			return key, nil
		}
		if !errors.Is(err, os.ErrNotExist) {
			return nil, msgerr.Errorf("%w: %v", ErrPermalinkKey, err)
		}
		key := make([]byte, PermalinkKeySize)
		if _, err := rand.Read(key); err != nil {
			return nil, msgerr.Errorf("%w: %v", ErrPermalinkKey, err)
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, os.ErrExist) {
			continue
		}
		if err != nil {
			return nil, msgerr.Errorf("%w: %v", ErrPermalinkKey, err)
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
			return nil, msgerr.Errorf("%w: %v", ErrPermalinkKey, err)
		}
		return key, nil
	}
	return nil, msgerr.Errorf("%w: %s: cannot be read or made", ErrPermalinkKey, path)
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
