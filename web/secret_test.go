package web_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
)

// noOutcome fails when a roll.hidden event in body (JSON of any shape)
// has an outcome member, or when a roll event reveals hidden.
func noOutcome(t *testing.T, what, body, hidden string) {
	t.Helper()
	for _, k := range []string{`"faces"`, `"total"`, `"outcome"`, `"kept"`, `"draws"`} {
		for _, part := range strings.Split(body, events.TypeRollHidden)[1:] {
			// The hidden event's data comes within its envelope, before
			// the next event's type.
			next := strings.Index(part, `"type":`)
			if next < 0 {
				next = len(part)
			}
			require.NotContains(t, part[:next], k, "%s: a secret roll's %s", what, k)
		}
	}
	require.NotContains(t, body, `"hidden":"`+hidden+`"`, "%s: the secret roll's reveal", what)
}

// TestSecretRollsOverHTTP: a player cannot roll in secret nor read the
// secret rolls; the GM's secret roll's outcome is in the GM's answer and
// on the GM's route only, not in what a player, the dashboard or an
// anonymous client read (events, the live feed, /recent, the transcript,
// the campaign's state); the GM's reveal records it for everyone.
func TestSecretRollsOverHTTP(t *testing.T) {
	h := newAccessHarness(t)
	as := func(token, method, path, body string, want int) response {
		t.Helper()
		var hdr []string
		if token != "" {
			hdr = bearer(token)
		}
		r := h.do(method, path, body, hdr...)
		require.Equal(t, want, r.status, "%s %s: %s", method, path, r.body)
		return r
	}
	cmd := "/api/campaigns/mordor/commands/"
	before := h.count(t)
	as(beaToken, "POST", cmd+"free-roll", `{"character":"ruisenor","dice":"1d6","secret":true}`, http.StatusBadRequest)
	as(beaToken, "POST", cmd+"roll", `{"character":"ruisenor","skill":"Pelea","secret":true}`, http.StatusBadRequest)
	as(beaToken, "POST", cmd+"free-roll", `{"dice":"1d6"}`, http.StatusForbidden)
	r := as(beaToken, "POST", cmd+"free-roll", `{"character":"ruisenor","dice":"2d6+"}`, http.StatusBadRequest)
	require.Contains(t, string(r.body), "a term is missing")
	r = h.do("POST", cmd+"free-roll", `{"character":"ruisenor","dice":"2d6+"}`, append(bearer(beaToken), "Accept-Language", "es")...)
	require.Contains(t, string(r.body), "falta un término")
	as(beaToken, "POST", cmd+"reveal", `{"request":"whatever"}`, http.StatusForbidden)
	require.Equal(t, before, h.count(t), "refusals record nothing")

	feed := h.stream("/api/campaigns/mordor/events?access_token="+beaToken, "Accept", "text/event-stream")
	defer feed.close()

	r = as(anaToken, "POST", cmd+"free-roll", `{"dice":"3d6","secret":true,"note":"who notices"}`, http.StatusOK)
	var answer struct {
		Recorded []struct {
			Event events.Event `json:"event"`
		} `json:"recorded"`
		Secret []struct {
			Hidden string          `json:"hidden"`
			Roll   events.RollMade `json:"roll"`
		} `json:"secret"`
	}
	require.NoError(t, json.Unmarshal(r.body, &answer), string(r.body))
	require.Len(t, answer.Recorded, 1)
	hidden := answer.Recorded[0].Event.ID
	require.Equal(t, events.TypeRollHidden, answer.Recorded[0].Event.Type)
	require.Len(t, answer.Secret, 1, "the GM's answer has the outcome")
	require.Len(t, answer.Secret[0].Roll.Faces, 3)
	noOutcome(t, "the GM's recorded event", string(answer.Recorded[0].Event.Data), hidden)

	for _, tok := range []string{beaToken, wallToken} {
		as(tok, "GET", "/api/campaigns/mordor/secret-rolls", "", http.StatusForbidden)
	}
	as("", "GET", "/api/campaigns/mordor/secret-rolls", "", http.StatusUnauthorized)
	as(zedToken, "GET", "/api/campaigns/mordor/secret-rolls", "", http.StatusForbidden)
	r = as(anaToken, "GET", "/api/campaigns/mordor/secret-rolls", "", http.StatusOK)
	var list []struct {
		Hidden   string          `json:"hidden"`
		Revealed string          `json:"revealed"`
		Roll     events.RollMade `json:"roll"`
	}
	require.NoError(t, json.Unmarshal(r.body, &list))
	require.Len(t, list, 1)
	require.Equal(t, answer.Secret[0].Roll.Faces, list[0].Roll.Faces)
	require.Empty(t, list[0].Revealed)

	revealed := false
	until := func(match func(events.Event) bool) sseEvent {
		t.Helper()
		for {
			got := feed.next(t, 5*time.Second)
			if !revealed {
				noOutcome(t, "the player's live feed", string(got.Event.Data), hidden)
			}
			if match(got.Event) {
				return got
			}
		}
	}
	got := until(func(e events.Event) bool { return e.ID == hidden })
	for _, tok := range []string{beaToken, wallToken} {
		for _, path := range []string{"/api/campaigns/mordor/events", "/api/campaigns/mordor/recent", "/api/campaigns/mordor/transcript?lang=en", "/api/campaigns/mordor"} {
			body := as(tok, "GET", path, "", http.StatusOK).body
			noOutcome(t, path, string(body), hidden)
		}
	}
	tr := string(as(beaToken, "GET", "/api/campaigns/mordor/transcript?lang=en", "", http.StatusOK).body)
	require.Contains(t, tr, "The GM rolls 3d6 in secret")

	// The GM reveals it: now everyone reads the roll, the one announced.
	revealed = true
	r = as(anaToken, "POST", cmd+"reveal", `{"request":"`+hidden[len(hidden)-8:]+`"}`, http.StatusOK)
	got = until(func(e events.Event) bool { return e.Type == events.TypeRollMade })
	var made events.RollMade
	require.NoError(t, got.Event.DecodeData(&made))
	require.Equal(t, hidden, made.Hidden)
	require.Equal(t, answer.Secret[0].Roll.Faces, made.Faces)
	require.Equal(t, answer.Secret[0].Roll.Total, made.Total)
	as(anaToken, "POST", cmd+"reveal", `{"request":"`+hidden+`"}`, http.StatusBadRequest)
}

// TestSecretRollPermalink: a revealed secret roll's permalink evidence
// holds its hidden record, which its verdict needs.
func TestSecretRollPermalink(t *testing.T) {
	h := newAccessHarness(t)
	cmd := "/api/campaigns/mordor/commands/"
	r := h.do("POST", cmd+"free-roll", `{"dice":"1d20","secret":true}`, bearer(anaToken)...)
	require.Equal(t, http.StatusOK, r.status, "%s", r.body)
	var res struct {
		Recorded []struct {
			Event events.Event `json:"event"`
		} `json:"recorded"`
	}
	r.json(t, &res)
	hidden := res.Recorded[0].Event.ID
	r = h.do("POST", cmd+"session-end", `{}`, bearer(anaToken)...)
	require.Equal(t, http.StatusOK, r.status, "%s", r.body)
	r.json(t, &res)
	revealed := res.Recorded[0].Event.ID
	require.Equal(t, events.TypeRollMade, res.Recorded[0].Event.Type, "the end reveals it")
	k := h.permalinkOf(t, beaToken, "mordor", revealed, http.StatusOK)
	ids, _ := h.evidenceIDs(t, "mordor", revealed, k)
	require.Contains(t, ids, hidden)
}
