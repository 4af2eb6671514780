package web_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/web"
)

// permalinkOf mints a roll's permalink as token (want: the status).
func (h *harness) permalinkOf(t testing.TB, token, campaign, id string, want int) string {
	t.Helper()
	var hdr []string
	if token != "" {
		hdr = bearer(token)
	}
	r := h.do("GET", "/api/campaigns/"+campaign+"/rolls/"+id+"/permalink", "", hdr...)
	require.Equal(t, want, r.status, "mint %s/%s: %s", campaign, id, r.body)
	if want != http.StatusOK {
		return ""
	}
	var p struct{ Link, Cap string }
	r.json(t, &p)
	require.Equal(t, "/r/"+campaign+"/"+id+"?k="+p.Cap, p.Link)
	return p.Cap
}

// evidenceIDs reads a roll's evidence with no token and returns its
// events' ids (sorted) and the body.
func (h *harness) evidenceIDs(t testing.TB, campaign, id, k string) ([]string, string) {
	t.Helper()
	r := h.do("GET", "/api/permalinks/"+campaign+"/"+id+"?k="+k, "")
	require.Equal(t, http.StatusOK, r.status, "%s", r.body)
	var ev struct {
		Records []struct {
			Event events.Event `json:"event"`
		} `json:"records"`
	}
	r.json(t, &ev)
	var ids []string
	for _, rec := range ev.Records {
		ids = append(ids, rec.Event.ID)
	}
	slices.Sort(ids)
	return ids, string(r.body)
}

// idsOf are the ids of a command's recorded events of the types given.
func idsOf(res result, types ...string) []string {
	var out []string
	for _, e := range res.Recorded {
		if slices.Contains(types, e.Event.Type) {
			out = append(out, e.Event.ID)
		}
	}
	return out
}

// creations are the ids of the campaign's creation and of the creations of
// the characters the rolls of res roll for: an evidence holds them (the
// campaign's system; a log that begins with the campaign checks that
// each roll's character exists).
func (h *harness) creations(t testing.TB, campaign, token string, res ...result) []string {
	t.Helper()
	chars := map[string]bool{}
	for _, r := range res {
		for _, e := range r.Recorded {
			var d struct{ Character string }
			if e.Event.Type == events.TypeRollMade && json.Unmarshal(e.Event.Data, &d) == nil {
				chars[d.Character] = true
			}
		}
	}
	var recs []struct {
		Event events.Event `json:"event"`
	}
	h.do("GET", "/api/campaigns/"+campaign+"/events?types="+events.TypeCampaignCreated+","+events.TypeCharacterCreated+","+events.TypeTORCharacterCreated, "", bearer(token)...).json(t, &recs)
	var out []string
	for _, r := range recs {
		if r.Event.Type == events.TypeCampaignCreated || chars[strings.TrimPrefix(r.Event.Subject, "characters/")] {
			out = append(out, r.Event.ID)
		}
	}
	return out
}

func sorted(ids ...[]string) []string {
	out := slices.Concat(ids...)
	slices.Sort(out)
	return out
}

// TestPermalinkEvidence: with journal serve --access, a reader of the
// campaign mints a roll's capability; with it, a reader with no token gets
// exactly that roll's evidence (its action's events, its session's start,
// its seed only once the session ended) and nothing else; every other
// capability, event, campaign, token or route is refused alike, and
// nothing is recorded.
func TestPermalinkEvidence(t *testing.T) {
	h := newAccessHarness(t)
	post := func(token, campaign, name, body string) result {
		t.Helper()
		r := h.do("POST", "/api/campaigns/"+campaign+"/commands/"+name, body, bearer(token)...)
		require.Equal(t, http.StatusOK, r.status, "%s: %s", name, r.body)
		var res result
		r.json(t, &res)
		return res
	}
	var started []struct {
		Event events.Event `json:"event"`
	}
	r := h.do("GET", "/api/campaigns/mordor/events?types="+events.TypeSessionStarted, "", bearer(anaToken)...)
	r.json(t, &started)
	require.Len(t, started, 1)
	sessionStarted := started[0].Event.ID

	plain := post(beaToken, "mordor", "roll", `{"character":"ruisenor","skill":"Pelea"}`)
	combat := post(anaToken, "mordor", "combat-start", `{"participants":["ruisenor","orco"]}`)
	var order struct {
		Order []string `json:"order"`
	}
	require.NoError(t, json.Unmarshal(idsEvent(t, combat, events.TypeCombatStarted).Data, &order))
	body := `{"attacker":"orco","target":"ruisenor"}`
	if order.Order[0] == "ruisenor" {
		body = `{"attacker":"ruisenor","target":"orco","range":"corta"}`
	}
	attack := post(anaToken, "mordor", "attack", body)
	post(zedToken, "gondor", "session-start", `{}`)
	foreign := post(zedToken, "gondor", "roll", `{"character":"lodin","skill":"Pelea"}`)

	plainRoll := plain.Recorded[0].Event.ID
	attackRoll := idsOf(attack, events.TypeRollMade)[0]
	initRoll := idsOf(combat, events.TypeRollMade)[0]
	foreignRoll := foreign.Recorded[0].Event.ID

	// Who may mint: a reader of the campaign, for a roll of it.
	for _, token := range []string{anaToken, beaToken, wallToken} {
		h.permalinkOf(t, token, "mordor", attackRoll, http.StatusOK)
	}
	h.permalinkOf(t, "", "mordor", attackRoll, http.StatusUnauthorized)
	h.permalinkOf(t, "not-a-token-0123456789", "mordor", attackRoll, http.StatusUnauthorized)
	h.permalinkOf(t, zedToken, "mordor", attackRoll, http.StatusForbidden)
	h.permalinkOf(t, beaToken, "mordor", idsOf(combat, events.TypeCombatStarted)[0], http.StatusNotFound)
	h.permalinkOf(t, beaToken, "mordor", foreignRoll, http.StatusNotFound)

	kAttack := h.permalinkOf(t, beaToken, "mordor", attackRoll, http.StatusOK)
	kPlain := h.permalinkOf(t, beaToken, "mordor", plainRoll, http.StatusOK)
	kInit := h.permalinkOf(t, wallToken, "mordor", initRoll, http.StatusOK)
	kForeign := h.permalinkOf(t, zedToken, "gondor", foreignRoll, http.StatusOK)
	require.Equal(t, kAttack, h.permalinkOf(t, anaToken, "mordor", attackRoll, http.StatusOK), "a roll has one capability")

	// Exactly the evidence, nothing else of the campaign.
	cases := []struct {
		name     string
		id, k    string
		campaign string
		want     []string
	}{
		{"a plain roll", plainRoll, kPlain, "mordor", sorted(idsOf(plain, events.TypeRollMade), []string{sessionStarted}, h.creations(t, "mordor", anaToken, plain))},
		{"an attack's roll", attackRoll, kAttack, "mordor", sorted(idsOf(attack, events.TypeRollMade, events.TypeDamageTaken, events.TypeAttackResolved), []string{sessionStarted}, h.creations(t, "mordor", anaToken, attack))},
		{"an initiative roll", initRoll, kInit, "mordor", sorted(idsOf(combat, events.TypeRollMade, events.TypeCombatStarted), []string{sessionStarted}, h.creations(t, "mordor", anaToken, combat))},
		{"another campaign's roll", foreignRoll, kForeign, "gondor", nil},
	}
	before := map[string]string{}
	for _, tc := range cases {
		ids, body := h.evidenceIDs(t, tc.campaign, tc.id, tc.k)
		if tc.want != nil {
			require.Equal(t, tc.want, ids, tc.name)
		}
		require.Contains(t, ids, tc.id, tc.name)
		require.NotContains(t, body, events.TypeSessionEnded, "%s: an open session's end", tc.name)
		before[tc.name] = body
	}

	// Every refusal is the same 404, whoever asks.
	forged := strings.Repeat("A", 43)
	tampered := []byte(kAttack)
	tampered[3] ^= 1
	refused := []struct{ name, path string }{
		{"no capability", "/api/permalinks/mordor/" + attackRoll},
		{"an empty capability", "/api/permalinks/mordor/" + attackRoll + "?k="},
		{"a forged capability", "/api/permalinks/mordor/" + attackRoll + "?k=" + forged},
		{"a tampered capability", "/api/permalinks/mordor/" + attackRoll + "?k=" + string(tampered)},
		{"a capability twice as long", "/api/permalinks/mordor/" + attackRoll + "?k=" + kAttack + kAttack},
		{"another roll's capability", "/api/permalinks/mordor/" + attackRoll + "?k=" + kPlain},
		{"another campaign's capability", "/api/permalinks/mordor/" + attackRoll + "?k=" + kForeign},
		{"the capability under another campaign", "/api/permalinks/gondor/" + attackRoll + "?k=" + kAttack},
		{"the capability for a non-roll", "/api/permalinks/mordor/" + idsOf(combat, events.TypeCombatStarted)[0] + "?k=" + kInit},
		{"an unknown campaign", "/api/permalinks/moria/" + attackRoll + "?k=" + kAttack},
	}
	count := h.count(t)
	var first string
	for _, who := range [][]string{nil, bearer(anaToken), bearer(beaToken), bearer(wallToken), bearer(zedToken)} {
		for _, tc := range refused {
			r := h.do("GET", tc.path, "", who...)
			wantError(t, tc.name, r, http.StatusNotFound)
			if first == "" {
				first = string(r.body)
			}
			require.Equal(t, first, string(r.body), "%s: every refusal reads the same", tc.name)
		}
	}

	// A capability is no token: it opens no other route.
	for _, tc := range []struct {
		name, path string
		header     []string
	}{
		{"the campaign with ?k=", "/api/campaigns/mordor?k=" + kAttack, nil},
		{"the events with ?k=", "/api/campaigns/mordor/events?k=" + kAttack, nil},
		{"the sessions with ?k=", "/api/campaigns/mordor/sessions?k=" + kAttack, nil},
		{"the explain with ?k=", "/api/campaigns/mordor/rolls/" + attackRoll + "/explain?k=" + kAttack, nil},
		{"a mint with ?k=", "/api/campaigns/mordor/rolls/" + plainRoll + "/permalink?k=" + kAttack, nil},
		{"the capability as a bearer token", "/api/campaigns/mordor/events", bearer(kAttack)},
		{"the capability as the stream's token", "/api/campaigns/mordor/events?access_token=" + kAttack, []string{"Accept", "text/event-stream"}},
	} {
		wantError(t, tc.name, h.do("GET", tc.path, "", tc.header...), http.StatusUnauthorized)
	}
	require.Equal(t, count, h.count(t), "a refused request recorded something")

	// Once the session ended, the evidence holds its end, with the seed,
	// which no earlier answer held.
	end := post(anaToken, "mordor", "session-end", `{}`)
	var ended struct {
		Seed string `json:"seed"`
	}
	require.NoError(t, json.Unmarshal(idsEvent(t, end, events.TypeSessionEnded).Data, &ended))
	require.NotEmpty(t, ended.Seed)
	for name, body := range before {
		require.NotContains(t, body, ended.Seed, "%s: the seed of an open session", name)
	}
	ids, body := h.evidenceIDs(t, "mordor", attackRoll, kAttack)
	require.Equal(t, sorted(cases[1].want, idsOf(end, events.TypeSessionEnded)), ids)
	require.Contains(t, body, ended.Seed)
	ids, _ = h.evidenceIDs(t, "gondor", foreignRoll, kForeign)
	require.NotContains(t, ids, idsOf(end, events.TypeSessionEnded)[0], "another campaign's session end")
}

// TestPermalinkEvidenceOnlyTheRollsConsequences: the evidence of an
// attack's roll holds the damage taken its hit recorded, and no other: not
// the GM's damage to the same target, from the same attacker, recorded
// just before a missed attack, nor that before a hit.
func TestPermalinkEvidenceOnlyTheRollsConsequences(t *testing.T) {
	h := newAccessHarness(t)
	post := func(name, body string) result {
		t.Helper()
		r := h.do("POST", "/api/campaigns/mordor/commands/"+name, body, bearer(anaToken)...)
		require.Equal(t, http.StatusOK, r.status, "%s: %s", name, r.body)
		var res result
		r.json(t, &res)
		return res
	}
	var started []struct {
		Event events.Event `json:"event"`
	}
	h.do("GET", "/api/campaigns/mordor/events?types="+events.TypeSessionStarted, "", bearer(anaToken)...).json(t, &started)
	require.Len(t, started, 1)
	combat := post("combat-start", `{"participants":["ruisenor","orco"]}`)
	var order struct {
		Order []string `json:"order"`
	}
	require.NoError(t, json.Unmarshal(idsEvent(t, combat, events.TypeCombatStarted).Data, &order))
	attacker, target, extra := order.Order[0], order.Order[1], ""
	if attacker == "ruisenor" {
		extra = `,"range":"corta"`
	}
	attack := func(modifier int) (result, events.AttackResolved) {
		t.Helper()
		res := post("attack", fmt.Sprintf(`{"attacker":%q,"target":%q,"modifier":%d%s}`, attacker, target, modifier, extra))
		var a events.AttackResolved
		require.NoError(t, idsEvent(t, res, events.TypeAttackResolved).DecodeData(&a))
		return res, a
	}
	// Unrelated damage, then a sure miss.
	damage := post("damage", fmt.Sprintf(`{"character":%q,"amount":1,"source":%q}`, target, attacker))
	missed, a := attack(-100)
	require.False(t, a.Hit, "an attack at -100 hit")
	roll := idsOf(missed, events.TypeRollMade)[0]
	ids, _ := h.evidenceIDs(t, "mordor", roll, h.permalinkOf(t, anaToken, "mordor", roll, http.StatusOK))
	require.NotContains(t, ids, idsOf(damage, events.TypeDamageTaken)[0], "the GM's damage before a missed attack")
	require.Equal(t, sorted(idsOf(missed, events.TypeRollMade, events.TypeAttackResolved), []string{started[0].Event.ID}, h.creations(t, "mordor", anaToken, missed)), ids)

	// Unrelated damage, then hits until one deals damage.
	other := fmt.Sprintf(`{"attacker":%q,"target":%q,"modifier":-100%s}`, target, attacker, map[bool]string{true: `,"range":"corta"`}[target == "ruisenor"])
	next := func() {
		h.do("POST", "/api/campaigns/mordor/commands/attack", other, bearer(anaToken)...) // its turn, if it can act
		post("combat-round", ``)
	}
	for round := 0; ; round++ {
		require.Less(t, round, 20, "no damage at +40 in 20 rounds")
		next()
		damage := post("damage", fmt.Sprintf(`{"character":%q,"amount":1,"source":%q}`, target, attacker))
		hit, a := attack(40)
		if !a.Hit || a.Damage == 0 {
			continue
		}
		roll := idsOf(hit, events.TypeRollMade)[0]
		ids, _ := h.evidenceIDs(t, "mordor", roll, h.permalinkOf(t, anaToken, "mordor", roll, http.StatusOK))
		require.NotContains(t, ids, idsOf(damage, events.TypeDamageTaken)[0], "the GM's damage before a hit")
		require.Equal(t, sorted(idsOf(hit, events.TypeRollMade, events.TypeDamageTaken, events.TypeAttackResolved), []string{started[0].Event.ID}, h.creations(t, "mordor", anaToken, hit)), ids)
		require.Len(t, idsOf(hit, events.TypeDamageTaken), 1)
		return
	}
}

// idsEvent is a command's recorded event of a type.
func idsEvent(t testing.TB, res result, typ string) events.Event {
	t.Helper()
	for _, e := range res.Recorded {
		if e.Event.Type == typ {
			return e.Event
		}
	}
	t.Fatalf("no %s recorded", typ)
	return events.Event{}
}

// TestPermalinkLoopback: without an access file the API stays open, and a
// capability opens the evidence too.
func TestPermalinkLoopback(t *testing.T) {
	h := newHarness(t, memBackend())
	h.setup("mordor")
	h.command("mordor", "session-start", `{}`, http.StatusOK)
	roll := h.command("mordor", "roll", `{"character":"lodin","skill":"Pelea"}`, http.StatusOK).Recorded[0].Event.ID
	k := h.permalinkOf(t, "", "mordor", roll, http.StatusOK)
	ids, _ := h.evidenceIDs(t, "mordor", roll, k)
	require.Contains(t, ids, roll)
	wantError(t, "no capability", h.do("GET", "/api/permalinks/mordor/"+roll, ""), http.StatusNotFound)
	h.get("/r/mordor/"+roll+"?k="+k, http.StatusOK, nil)
}

// TestPermalinkKey: the share key is made once, mode 0600, and read back;
// a file that is not a key is refused, and so is a short key.
func TestPermalinkKey(t *testing.T) {
	path := web.PermalinkKeyPath(filepath.Join(t.TempDir(), "access.json"))
	k1, err := web.LoadOrCreatePermalinkKey(path)
	require.NoError(t, err)
	require.Len(t, k1, web.PermalinkKeySize)
	fi, err := os.Stat(path)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	k2, err := web.LoadOrCreatePermalinkKey(path)
	require.NoError(t, err)
	require.Equal(t, k1, k2)

	bad := filepath.Join(t.TempDir(), "bad")
	require.NoError(t, os.WriteFile(bad, []byte("not hex\n"), 0o600))
	_, err = web.LoadOrCreatePermalinkKey(bad)
	require.ErrorIs(t, err, web.ErrPermalinkKey)

	h := newHarness(t, memBackend())
	_, err = web.New(web.Options{Store: h.store, Projector: h.proj, PermalinkKey: []byte("short")})
	require.ErrorIs(t, err, web.ErrPermalinkKey)
}
