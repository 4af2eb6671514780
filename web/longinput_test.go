package web_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestLongInputShortErrors: a hostile value of 120 KB in a path, a query
// parameter or a header, or as large as a body may be (60 KB) in a field
// or a member's name, is refused with an error under 1 KB that quotes at
// most its start and says how long it was.
func TestLongInputShortErrors(t *testing.T) {
	h := newHarness(t, memBackend())
	h.setup("mordor")
	h.command("mordor", "session-start", `{}`, http.StatusOK)
	big := strings.Repeat("A", 120<<10)
	mid := strings.Repeat("A", 60<<10)
	check := func(what string, r response) {
		t.Helper()
		if r.status < 400 {
			t.Errorf("%s: status %d, want a refusal", what, r.status)
		}
		if len(r.body) >= 2048 { // the message twice (its language and English), never the input
			t.Errorf("%s: status %d, an error of %d bytes: %.300s", what, r.status, len(r.body), r.body)
		}
	}
	for _, p := range []string{
		"/api/campaigns/" + big, "/api/campaigns/" + big + "/events", "/api/campaigns/mordor/characters/" + big,
		"/api/campaigns/mordor/commands/" + big, "/api/campaigns/mordor/rolls/" + big + "/explain",
		"/api/campaigns/mordor/rolls/" + big + "/permalink", "/api/campaigns/mordor/sessions/" + big + "/ended",
		"/api/campaigns/mordor/events?types=" + big, "/api/campaigns/mordor/events?from=" + big,
		"/api/campaigns/mordor/events?limit=" + big, "/api/campaigns/mordor/characters/lodin?at=" + big,
		"/api/" + big, "/r/mordor/" + big,
	} {
		check("GET "+p[:40], h.raw("GET", p, ""))
	}
	roll := "/api/campaigns/mordor/commands/roll"
	for name, body := range map[string]string{
		"roll character":           `{"character":"` + mid + `","skill":"Pelea"}`,
		"roll skill":               `{"character":"lodin","skill":"` + mid + `"}`,
		"roll vs":                  `{"character":"lodin","skill":"Pelea","vs":"` + mid + `"}`,
		"roll request_id":          `{"character":"lodin","skill":"Pelea","request_id":"` + mid + `"}`,
		"roll unknown member":      `{"character":"lodin","skill":"Pelea","` + mid + `":1}`,
		"attack attacker":          `{"attacker":"` + mid + `","target":"orco"}`,
		"attack weapon":            `{"attacker":"lodin","target":"orco","weapon":"` + mid + `"}`,
		"attack range":             `{"attacker":"lodin","target":"orco","range":"` + mid + `"}`,
		"character-create id":      `{"id":"` + mid + `","name":"x"}`,
		"character-create name":    `{"id":"gimli","name":"` + mid + `","player":"x","attributes":"F=8,R=7,D=9,I=8,P=8"}`,
		"character-create attrs":   `{"id":"gimli","name":"x","player":"x","attributes":"` + mid + `"}`,
		"character-create skills":  `{"id":"gimli","name":"x","player":"x","attributes":"F=8,R=7,D=9,I=8,P=8","skills":"` + mid + `"}`,
		"character-create weapons": `{"id":"gimli","name":"x","player":"x","attributes":"F=8,R=7,D=9,I=8,P=8","weapons":["` + mid + `"]}`,
		"damage character":         `{"character":"` + mid + `","amount":1}`,
		"session-start id":         `{"id":"` + mid + `"}`,
		"weapon-define name":       `{"name":"` + mid + `","skill":"Pelea","damage":"1d6"}`,
		"weapon-define damage":     `{"name":"x","skill":"Pelea","damage":"` + mid + `"}`,
		"weapon-define skill":      `{"name":"x","skill":"` + mid + `","damage":"1d6"}`,
		"skill-define attribute":   `{"name":"x","attribute":"` + mid + `"}`,
		"contest skill":            `{"a":"lodin","skill_a":"` + mid + `","b":"orco","skill_b":"Pelea"}`,
		"raise skill":              `{"character":"lodin","skill":"` + mid + `"}`,
		"void event":               `{"event":"` + mid + `","reason":"x"}`,
		"campaign-create system":   `{"id":"x","system":"` + mid + `"}`,
	} {
		cmd, _, _ := strings.Cut(name, " ")
		path := "/api/campaigns/mordor/commands/" + cmd
		if cmd == "campaign-create" {
			path = "/api/campaigns"
		}
		check("POST "+name, h.raw("POST", path, body))
	}
	check("POST a campaign's id", h.raw("POST", "/api/campaigns", `{"id":"`+mid+`","system":"ryf"}`))
	for _, hd := range []string{"Idempotency-Key", "Content-Type", "Origin", "Sec-Fetch-Site"} {
		check("header "+hd, h.raw("POST", roll, `{"character":"lodin","skill":"Pelea"}`, hd, big))
	}
	r := h.raw("GET", "/api/campaigns/mordor/characters/"+big, "")
	if want := "AAAA…(122880 bytes)"; !strings.Contains(string(r.body), want) {
		t.Errorf("the error does not quote the start and the length (%s): %s", want, r.body)
	}
}
