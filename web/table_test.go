package web_test

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/invite"
	"github.com/campaign-journal/journal/signed"
	"github.com/campaign-journal/journal/web"
)

// tableHarness is newAccessHarness with the table's book of invites.
type tableHarness struct {
	*harness
	book *invite.Book
	tor  bool // mordor is a The One Ring campaign (bilbo, thorin)
	mu   sync.Mutex
	now  time.Time
}

func newTableHarness(t *testing.T) *tableHarness {
	t.Helper()
	return newTableHarnessOn(t, memBackend())
}

// The One Ring's heroes of the table's tests.
const (
	bilboBody  = `{"id":"bilbo","name":"Bilbo","player":"cai","culture":"Hobbits de la Comarca","max_hope":12,"attributes":"Cuerpo=3/5,Corazón=6/8,Mente=5/7","skills":"Atención=3*,Sigilo=3*,Acertijos=2,Viajar=2,Buscar=2,Cortesía=1","traits":["Ladrón","Ojo avizor"]}`
	thorinBody = `{"id":"thorin","name":"Thorin","player":"dan","culture":"Enanos de Erebor","max_hope":8,"attributes":"Cuerpo=7/9,Corazón=5/7,Mente=2/4","skills":"Guerrear=3*,Impresionar=3,Atletismo=2,Persuadir=1,Saber=1","traits":["Herrero","Orgulloso"]}`
)

// newTableHarnessOn is newTableHarness on the backend b.
func newTableHarnessOn(t *testing.T, b backend) *tableHarness {
	t.Helper()
	return newTableHarnessFor(t, b, false)
}

// newTableHarnessFor is newTableHarnessOn with mordor a The One Ring
// campaign when tor is set.
func newTableHarnessFor(t *testing.T, b backend, tor bool) *tableHarness {
	t.Helper()
	th := &tableHarness{now: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC), tor: tor}
	path := filepath.Join(t.TempDir(), "access.json.devices.json")
	th.book = invite.Open(path, func() time.Time { th.mu.Lock(); defer th.mu.Unlock(); return th.now }, nil)
	h := newHarnessWith(t, b, func(o *web.Options) { o.Access = accessConfig(t); o.Devices = th.book })
	as := func(token, method, p, body string, want int) {
		t.Helper()
		r := h.do(method, p, body, bearer(token)...)
		require.Equal(t, want, r.status, "%s %s: %s", method, p, r.body)
	}
	if th.tor {
		as(anaToken, "POST", "/api/campaigns", `{"id":"mordor","name":"La Tierra Media","system":"tor"}`, http.StatusCreated)
		for _, body := range []string{bilboBody, thorinBody} {
			as(anaToken, "POST", "/api/campaigns/mordor/commands/character-create", body, http.StatusCreated)
		}
	} else {
		as(anaToken, "POST", "/api/campaigns", `{"id":"mordor","name":"La torre de Mordor","system":"ryf"}`, http.StatusCreated)
		for _, body := range []string{lodinBody, ruisenorBody, orcoBody} {
			as(anaToken, "POST", "/api/campaigns/mordor/commands/character-create", body, http.StatusCreated)
		}
	}
	as(zedToken, "POST", "/api/campaigns", `{"id":"gondor","system":"ryf"}`, http.StatusCreated)
	th.harness = h
	return th
}

func (th *tableHarness) advance(d time.Duration) {
	th.mu.Lock()
	th.now = th.now.Add(d)
	th.mu.Unlock()
}

// invite makes an invite in the book, as `journal invite` does.
func (th *tableHarness) invite(t *testing.T, s invite.Spec) string {
	t.Helper()
	if s.Campaign == "" {
		s.Campaign = "mordor"
	}
	if s.By == "" {
		s.By = "ana"
	}
	tok, _, err := th.book.Create(context.Background(), s)
	require.NoError(t, err)
	return tok
}

// gm sends a request as ana, the GM of mordor, which must succeed, and
// decodes its answer into v (when not nil).
func (th *tableHarness) gm(t *testing.T, method, path, body string, v any) {
	t.Helper()
	r := th.do(method, path, body, bearer(anaToken)...)
	require.Less(t, r.status, 300, "%s %s: %s", method, path, r.body)
	if v != nil {
		r.json(t, v)
	}
}

func pubHex(k ed25519.PrivateKey) string { return signed.PublicKeyOf(k).String() }

// redeemWith is the body a device redeems an invite with: its key and the
// device.register for user as role, signed by the key (keys.js register).
func redeemWith(t testing.TB, k ed25519.PrivateKey, campaign, user, role string) string {
	reg := device.MustRegister(k, campaign, user, role, "browser")
	b, err := json.Marshal(map[string]string{"public_key": pubHex(k), "signed": reg.Signed, "signature": reg.Signature})
	require.NoError(t, err)
	return string(b)
}

// TestInvitesAttacked attacks the table's routes: invites redeemed twice,
// expired, revoked, unknown, or with a body that names another user; the
// device lists and revocations and the roll calls as each role and
// anonymously; a device acting for another's character or as GM, and
// after its revocation. Every refusal records nothing and leaves the book
// as it was.
func TestInvitesAttacked(t *testing.T) {
	th := newTableHarness(t)
	caiKey, otherKey := goKey(3), goKey(4)
	redeem := func(tok, body string, header ...string) response {
		t.Helper()
		return th.do(http.MethodPost, "/api/invites/"+tok, body, header...)
	}
	bookBytes := func() string {
		b, err := os.ReadFile(th.book.Path())
		if err != nil {
			return ""
		}
		return string(b)
	}
	refused := func(what string, r response, want int, before uint64, book string) {
		t.Helper()
		wantError(t, what, r, want)
		require.Equal(t, before, th.count(t), "%s: recorded something", what)
		require.Equal(t, book, bookBytes(), "%s: changed the book", what)
	}
	js := func(v any) string { b, err := json.Marshal(v); require.NoError(t, err); return string(b) }

	cai := th.invite(t, invite.Spec{User: "cai", Role: invite.RolePlayer, Characters: []string{"lodin"}})
	body := redeemWith(t, caiKey, "mordor", "cai", "player")
	// The host signs cai's registration with another key: no proof.
	forged := device.MustRegister(caiKey, "mordor", "cai", "player", "browser")
	forged.Signature = signed.Sign(otherKey, forged.Signed)

	before, book := th.count(t), bookBytes()
	for _, tc := range []struct {
		name, token, body string
		header            []string
		want              int
	}{
		{"an unknown invite", "0123456789abcdef0123456789abcdef0123456789abcdef", body, nil, 404},
		{"an empty-looking invite", "x", body, nil, 404},
		{"a body naming another user", cai, js(map[string]string{"public_key": pubHex(caiKey), "user": "bea"}), nil, 400},
		{"a body naming the gm role", cai, js(map[string]string{"public_key": pubHex(caiKey), "role": "gm"}), nil, 400},
		{"a bad public key", cai, `{"public_key":"zz"}`, nil, 400},
		{"no public key", cai, `{}`, nil, 400},
		{"no proof of possession", cai, js(map[string]string{"public_key": pubHex(caiKey)}), nil, 400},
		{"a device.register signed by another key", cai, js(map[string]string{"public_key": pubHex(caiKey), "signed": forged.Signed, "signature": forged.Signature}), nil, 400},
		{"a device.register for another user", cai, redeemWith(t, caiKey, "mordor", "bea", "player"), nil, 400},
		{"a device.register as gm", cai, redeemWith(t, caiKey, "mordor", "cai", "gm"), nil, 400},
		{"a device.register of another key", cai, js(map[string]string{"public_key": pubHex(caiKey), "signed": device.MustRegister(otherKey, "mordor", "cai", "player", "").Signed, "signature": device.MustRegister(otherKey, "mordor", "cai", "player", "").Signature}), nil, 400},
		{"from another site", cai, body, []string{"Origin", "https://evil.example"}, 403},
		{"cross-site", cai, body, []string{"Sec-Fetch-Site", "cross-site"}, 403},
		{"rebinding", cai, body, []string{"Host", "evil.example"}, 421},
	} {
		refused(tc.name, redeem(tc.token, tc.body, tc.header...), tc.want, before, book)
	}

	r := redeem(cai, body)
	require.Equal(t, http.StatusOK, r.status, "%s", r.body)
	var got struct {
		Token, User, Role, Campaign, Device, Fingerprint string
		Characters                                       []string
	}
	r.json(t, &got)
	require.Equal(t, "cai", got.User)
	require.Equal(t, []string{"lodin"}, got.Characters)
	require.Equal(t, signed.PublicKeyOf(caiKey).Fingerprint(), got.Fingerprint)
	require.Equal(t, before+1, th.count(t), "the key's registration")
	var sheet struct {
		Participants map[string]struct {
			PublicKey string `json:"public_key"`
			Role      string `json:"role"`
		} `json:"participants"`
	}
	th.gm(t, "GET", "/api/campaigns/mordor", "", &sheet)
	require.Equal(t, pubHex(caiKey), sheet.Participants["cai"].PublicKey)
	require.Equal(t, "player", sheet.Participants["cai"].Role)
	var me struct{ Name, Role, Device string }
	th.do(http.MethodGet, "/api/me", "", bearer(got.Token)...).json(t, &me)
	require.Equal(t, "cai", me.Name)
	require.Equal(t, "player", me.Role)
	require.Equal(t, got.Device, me.Device)

	// An invite used twice, expired, revoked.
	late := th.invite(t, invite.Spec{User: "dan", Role: invite.RolePlayer, Characters: []string{"ruisenor"}, TTL: time.Hour})
	gone := th.invite(t, invite.Spec{User: "eva", Role: invite.RoleViewer})
	var list []struct{ ID, User, Kind string }
	th.do(http.MethodGet, "/api/campaigns/mordor/devices", "", bearer(anaToken)...).json(t, &list)
	goneID := ""
	for _, d := range list {
		if d.User == "eva" {
			goneID = d.ID
		}
	}
	require.NotEmpty(t, goneID)
	require.Equal(t, http.StatusOK, th.do(http.MethodPost, "/api/campaigns/mordor/devices/"+goneID+"/revoke", "", bearer(anaToken)...).status)
	th.advance(2 * time.Hour)
	before, book = th.count(t), bookBytes()
	refused("the invite used twice", redeem(cai, redeemWith(t, otherKey, "mordor", "cai", "player")), 409, before, book)
	refused("an expired invite", redeem(late, redeemWith(t, otherKey, "mordor", "dan", "player")), 410, before, book)
	refused("a revoked invite", redeem(gone, `{}`), 410, before, book)

	// The table's routes as each role and anonymously.
	th.gm(t, "POST", "/api/campaigns/mordor/commands/session-start", `{"dice":"v2"}`, nil)
	var camp struct {
		Sessions []struct{ ID, Commitment string } `json:"sessions"`
	}
	th.gm(t, "GET", "/api/campaigns/mordor", "", &camp)
	sess := camp.Sessions[len(camp.Sessions)-1]
	hdr := signed.Header{Campaign: "mordor", Session: sess.ID}
	seal := func(k ed25519.PrivateKey, m signed.Message) command.SignedMessage {
		s, err := signed.Encode(m)
		require.NoError(t, err)
		return command.SignedMessage{Signed: s, Signature: signed.Sign(k, s)}
	}
	contribution := func(char string) string {
		return js(command.ContributeSigned{Character: char, SignedMessage: seal(caiKey, &signed.Contribute{Header: hdr, Value: signed.Hex32{0xca}, Commitment: hex32Of(t, sess.Commitment)})})
	}
	_ = th.invite(t, invite.Spec{User: "fay", Role: invite.RolePlayer, Characters: []string{"ruisenor"}})
	devID := got.Device
	call := `{"characters":["lodin"],"skill":"Sigilo","vs":"media"}`
	before, book = th.count(t), bookBytes()
	for _, tc := range []struct {
		name, token, method, path, body string
		want                            int
	}{
		{"a device contributes for another's character", got.Token, "POST", "/api/campaigns/mordor/commands/session-contribute", contribution("ruisenor"), 403},
		{"a device registers a key", got.Token, "POST", "/api/campaigns/mordor/commands/key-register", js(command.RegisterKey{User: "bea", PublicKey: pubHex(otherKey)}), 403},
		{"a device ends the session", got.Token, "POST", "/api/campaigns/mordor/commands/session-end", `{}`, 403},
		{"a device damages", got.Token, "POST", "/api/campaigns/mordor/commands/damage", `{"character":"ruisenor","amount":3}`, 403},
		{"a device reads another campaign", got.Token, "GET", "/api/campaigns/gondor", "", 403},
		{"a device plans another's attack", got.Token, "POST", "/api/campaigns/mordor/actions/attack", `{"attacker":"ruisenor","target":"orco"}`, 403},
		{"anonymous plans an attack", "", "POST", "/api/campaigns/mordor/actions/attack", `{"attacker":"lodin","target":"orco"}`, 401},
	} {
		var hdr []string
		if tc.token != "" {
			hdr = bearer(tc.token)
		}
		refused(tc.name, th.do(tc.method, tc.path, tc.body, hdr...), tc.want, before, book)
	}
	for _, who := range []struct{ name, token string }{{"a device", got.Token}, {"a player", beaToken}, {"a dashboard", wallToken}, {"another campaign's gm", zedToken}, {"anonymous", ""}} {
		want := http.StatusForbidden
		var hdr []string
		if who.token == "" {
			want = http.StatusUnauthorized
		} else {
			hdr = bearer(who.token)
		}
		refused(who.name+" lists devices", th.do("GET", "/api/campaigns/mordor/devices", "", hdr...), want, before, book)
		refused(who.name+" revokes a device", th.do("POST", "/api/campaigns/mordor/devices/"+devID+"/revoke", "", hdr...), want, before, book)
		refused(who.name+" makes a roll call", th.do("POST", "/api/campaigns/mordor/calls", call, hdr...), want, before, book)
		if who.token == "" {
			refused(who.name+" asks who it is", th.do("GET", "/api/me", ""), 401, before, book)
			refused(who.name+" reads the recent lines", th.do("GET", "/api/campaigns/mordor/recent", ""), 401, before, book)
			refused(who.name+" reads the roll calls", th.do("GET", "/api/campaigns/mordor/calls", ""), 401, before, book)
			refused(who.name+" peeks at an invite", th.do("GET", "/api/invites/0123456789abcdef0123456789abcdef0123456789abcdef", ""), 404, before, book)
		}
		if who.token == zedToken {
			refused(who.name+" reads the recent lines", th.do("GET", "/api/campaigns/mordor/recent", "", hdr...), 403, before, book)
			refused(who.name+" reads the roll calls", th.do("GET", "/api/campaigns/mordor/calls", "", hdr...), 403, before, book)
		}
	}
	refused("a gm revokes another campaign's device", th.do("POST", "/api/campaigns/gondor/devices/"+devID+"/revoke", "", bearer(zedToken)...), 404, before, book)
	var calls []struct{ ID string }
	th.do("GET", "/api/campaigns/mordor/calls", "", bearer(got.Token)...).json(t, &calls)
	require.Empty(t, calls)

	// What the device may do, it does; revoked, it does nothing.
	require.Equal(t, http.StatusOK, th.do("POST", "/api/campaigns/mordor/commands/session-contribute", contribution("lodin"), bearer(got.Token)...).status)
	require.Equal(t, http.StatusOK, th.do("POST", "/api/campaigns/mordor/devices/"+devID+"/revoke", "", bearer(anaToken)...).status)
	before, book = th.count(t), bookBytes()
	refused("a revoked device asks who it is", th.do("GET", "/api/me", "", bearer(got.Token)...), 401, before, book)
	refused("a revoked device reads", th.do("GET", "/api/campaigns/mordor", "", bearer(got.Token)...), 401, before, book)
	refused("a revoked device rolls", th.do("POST", "/api/campaigns/mordor/commands/roll", `{"character":"lodin","skill":"Sigilo"}`, bearer(got.Token)...), 401, before, book)
	refused("a revoked device follows the feed", th.do("GET", "/api/campaigns/mordor/events?access_token="+got.Token, "", "Accept", "text/event-stream"), 401, before, book)
}

// TestInviteRedeemedOnce races browsers with one link: one device, one key
// registration.
func TestInviteRedeemedOnce(t *testing.T) {
	th := newTableHarness(t)
	tok := th.invite(t, invite.Spec{User: "cai", Role: invite.RolePlayer, Characters: []string{"lodin"}})
	before := th.count(t)
	const n = 8
	statuses := make(chan int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest(http.MethodPost, th.url+"/api/invites/"+tok, strings.NewReader(redeemWith(t, goKey(byte(10+i)), "mordor", "cai", "player")))
			req.Header.Set("Content-Type", "application/json")
			res, err := th.hc.Do(req)
			if err != nil {
				statuses <- 0
				return
			}
			res.Body.Close()
			statuses <- res.StatusCode
		}()
	}
	wg.Wait()
	close(statuses)
	ok := 0
	for s := range statuses {
		if s == http.StatusOK {
			ok++
		} else {
			require.Equal(t, http.StatusConflict, s)
		}
	}
	require.Equal(t, 1, ok)
	require.Equal(t, before+1, th.count(t))
	f, err := th.book.Load(context.Background())
	require.NoError(t, err)
	require.Len(t, f.Devices, 1)
}

// TestInviteRedeemRetried: a browser whose redemption answer was lost
// sends it again with the same Idempotency-Key and gets its device back
// (a new token; the key registered once); another key on the used link is
// refused, and the first token stops working.
func TestInviteRedeemRetried(t *testing.T) {
	th := newTableHarness(t)
	tok := th.invite(t, invite.Spec{User: "cai", Role: invite.RolePlayer, Characters: []string{"lodin"}})
	body := redeemWith(t, goKey(21), "mordor", "cai", "player")
	before := th.count(t)
	type redeemed struct{ Token, Device string }
	var first, again redeemed
	r := th.do(http.MethodPost, "/api/invites/"+tok, body, "Idempotency-Key", "k-cai-1")
	require.Equal(t, http.StatusOK, r.status, "%s", r.body)
	r.json(t, &first)
	r = th.do(http.MethodPost, "/api/invites/"+tok, body, "Idempotency-Key", "k-cai-1")
	require.Equal(t, http.StatusOK, r.status, "the retry: %s", r.body)
	r.json(t, &again)
	require.Equal(t, first.Device, again.Device)
	require.NotEqual(t, first.Token, again.Token)
	require.Equal(t, before+1, th.count(t), "the key is registered once")
	require.Equal(t, http.StatusConflict, th.do(http.MethodPost, "/api/invites/"+tok, body, "Idempotency-Key", "k-other").status)
	require.Equal(t, http.StatusConflict, th.do(http.MethodPost, "/api/invites/"+tok, body).status)
	require.Equal(t, http.StatusUnauthorized, th.do("GET", "/api/me", "", bearer(first.Token)...).status, "the lost answer's token")
	require.Equal(t, http.StatusOK, th.do("GET", "/api/me", "", bearer(again.Token)...).status)
	require.Equal(t, before+1, th.count(t))
}

// TestTablePage: /table is served in the language the browser asks for
// (document.documentElement.lang, the page's one rule), with the table's
// modules, and needs no token.
func TestTablePage(t *testing.T) {
	th := newTableHarness(t)
	for _, tc := range []struct{ accept, want string }{
		{"", `<html lang="en">`},
		{"es-ES,es;q=0.9,en;q=0.8", `<html lang="es">`},
		{"fr-FR,fr;q=0.9,en;q=0.5", `<html lang="en">`},
		{"de, es;q=0.5", `<html lang="es">`},
	} {
		var hdr []string
		if tc.accept != "" {
			hdr = []string{"Accept-Language", tc.accept}
		}
		r := th.do(http.MethodGet, "/table", "", hdr...)
		require.Equal(t, http.StatusOK, r.status)
		require.Contains(t, string(r.body), tc.want, tc.accept)
		for _, js := range []string{"/static/keys.js", "/static/table.js", "/static/player.js", "/static/gm.js", "/static/table.css"} {
			require.Contains(t, string(r.body), js)
		}
	}
	for _, f := range []string{"/static/table.js", "/static/player.js", "/static/gm.js", "/static/table.css"} {
		require.Equal(t, http.StatusOK, th.do(http.MethodGet, f, "").status, f)
	}
}
