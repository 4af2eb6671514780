package web_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/live/livetest"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/replay"
	"github.com/campaign-journal/journal/web"
)

const (
	lodinBody    = `{"id":"lodin","name":"Lodin","player":"Ana","attributes":"F=8,R=7,D=9,I=8,P=8","skills":"Armas cuerpo a cuerpo=5,Pelea=4,Sigilo=5,Atletismo=3,Buscar=3","specialization":"Sigilo","weapons":["Espada"]}`
	ruisenorBody = `{"id":"ruisenor","name":"Ruiseñor","player":"Bea","attributes":"F=6,R=8,D=10,I=8,P=8","skills":"Armas a distancia=5,Advertir/Notar=5,Pelea=3,Medicina=2","specialization":"Armas a distancia","weapons":["Revólver"]}`
	orcoBody     = `{"id":"orco","name":"Orco","npc":true,"attributes":"F=7,R=4,D=5,I=3,P=4","skills":"Pelea=4,Armas cuerpo a cuerpo=3,Advertir/Notar=2","weapons":["Hacha"]}`
)

// setup creates campaign id with lodin, ruisenor and orco through the API.
func (h *harness) setup(id string) {
	h.t.Helper()
	r := h.do(http.MethodPost, "/api/campaigns", fmt.Sprintf(`{"id":%q,"name":"La torre de Mordor","system":"ryf"}`, id))
	if r.status != http.StatusCreated {
		h.t.Fatalf("create campaign: %d %s", r.status, r.body)
	}
	for _, body := range []string{lodinBody, ruisenorBody, orcoBody} {
		h.command(id, "character-create", body, http.StatusCreated)
	}
}

// fight has ruisenor and orco attack each other in initiative order: orco
// hits ruisenor, ruisenor shoots orco at short range.
func (h *harness) fight(id string) []result {
	h.t.Helper()
	var cb projections.Combat
	h.get("/api/campaigns/"+id+"/combat", http.StatusOK, &cb)
	var out []result
	for _, who := range cb.Order {
		body := `{"attacker":"ruisenor","target":"orco","range":"corta"}`
		if who == "orco" {
			var orco projections.Sheet
			h.get("/api/campaigns/"+id+"/characters/orco", http.StatusOK, &orco)
			if orco.Status != "ok" && orco.Status != "incapacitated" {
				continue // shot down before its turn
			}
			body = `{"attacker":"orco","target":"ruisenor"}`
		}
		out = append(out, h.command(id, "attack", body, http.StatusOK))
	}
	return out
}

// TestCommands runs every command of the API once, in a session of play,
// and checks what each recorded, then the campaign it left.
func TestCommands(t *testing.T) {
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			h := newHarness(t, b)
			h.setup("mordor")
			steps := []struct {
				name, body string
				want       []string // types recorded, in order
			}{
				{"weapon-define", `{"name":"Garrote","skill":"Armas cuerpo a cuerpo","damage":"1d6","precision":0}`, []string{events.TypeWeaponDefined}},
				{"skill-define", `{"name":"Navegar","attribute":"P"}`, []string{events.TypeSkillDefined}},
				{"session-start", `{"id":"s1","title":"La torre"}`, []string{events.TypeSessionStarted}},
				{"roll", `{"character":"lodin","skill":"sigilo","vs":"media","entropy":"ana-1"}`, []string{events.TypeRollMade}},
				{"roll", `{"character":"ruisenor","skill":"advertir","token":true}`, []string{events.TypeRollMade}},
				{"token-return", `{"character":"ruisenor"}`, []string{events.TypeTokenReturned}},
				{"roll", `{"character":"lodin","attribute":"F","vs":"25"}`, []string{events.TypeRollMade}},
				{"contest", `{"a":"lodin","skill_a":"sigilo","b":"orco","skill_b":"advertir"}`, []string{events.TypeRollMade, events.TypeRollMade, events.TypeContestResolved}},
				{"combat-start", `{"participants":["ruisenor","orco"]}`, []string{events.TypeRollMade, events.TypeRollMade, events.TypeCombatStarted}},
			}
			for _, s := range steps {
				res := h.command("mordor", s.name, s.body, http.StatusOK)
				if got := res.types(); !slices.Equal(got, s.want) {
					t.Fatalf("%s recorded %v, want %v", s.name, got, s.want)
				}
				for _, r := range res.Recorded {
					if r.Text == "" {
						t.Fatalf("%s: event %d has no transcript line", s.name, r.Seq)
					}
				}
			}
			for _, res := range h.fight("mordor") {
				if got := res.types(); len(got) < 2 || got[0] != events.TypeRollMade || got[len(got)-1] != events.TypeAttackResolved {
					t.Fatalf("attack recorded %v", got)
				}
			}
			after := []struct {
				name, body string
				want       []string
			}{
				{"damage", `{"character":"ruisenor","amount":5,"source":"orco"}`, []string{events.TypeDamageTaken}},
				{"heal", `{"character":"ruisenor","amount":1}`, []string{events.TypeHealed}},
				{"reload", `{"character":"ruisenor"}`, []string{events.TypeWeaponReloaded}},
				{"combat-round", ``, []string{events.TypeCombatRound}},
				{"combat-end", `{}`, []string{events.TypeCombatEnded}},
				{"heal-after-combat", `{"character":"ruisenor","entropy":"bea"}`, []string{events.TypeRollMade, events.TypeHealed}},
				{"xp", `{"character":"lodin","amount":10}`, []string{events.TypeXPGranted}},
				{"raise", `{"character":"lodin","skill":"Sigilo"}`, []string{events.TypeSkillRaised}},
				{"day-new", ``, []string{events.TypeDayStarted}},
				{"session-end", ``, []string{events.TypeSessionEnded}},
			}
			for _, s := range after {
				res := h.command("mordor", s.name, s.body, http.StatusOK)
				if got := res.types(); !slices.Equal(got, s.want) {
					t.Fatalf("%s recorded %v, want %v", s.name, got, s.want)
				}
			}
			rest := h.command("mordor", "rest", `{"comfort":true}`, http.StatusOK)
			if got := rest.types(); len(got) == 0 || got[len(got)-1] != events.TypeDayStarted {
				t.Fatalf("rest recorded %v", got)
			}

			// The API's campaign equals a refold of the stream.
			var got projections.Campaign
			h.get("/api/campaigns/mordor", http.StatusOK, &got)
			want := refold(t, h.store, "mordor")
			require.Equal(t, mustJSON(t, want), mustJSON(t, &got))
			if got.Characters["lodin"].Skills["Sigilo"] != 6 || got.Characters["lodin"].XP != 10-6 {
				t.Fatalf("lodin after the raise: Sigilo %d, XP %d", got.Characters["lodin"].Skills["Sigilo"], got.Characters["lodin"].XP)
			}

			// The whole session verifies.
			src := replay.StoreSource(h.store.Read, events.Query{})
			rep, err := replay.Verify(context.Background(), src, replay.Options{})
			require.NoError(t, err)
			if !rep.OK() {
				var buf strings.Builder
				_ = rep.WriteText(&buf)
				t.Fatalf("replay of the API's session:\n%s", buf.String())
			}
		})
	}
}

// refold folds campaign id from the whole stream, as the command handlers do.
// tested are the commands TestCommands, TestTORCommands and TestV2CommandsOverHTTP run.
var tested = []string{
	"character-create", "weapon-define", "skill-define", "session-start", "session-end", "roll", "contest",
	"combat-start", "combat-round", "combat-end", "attack", "damage", "heal", "rest", "heal-after-combat",
	"xp", "raise", "token-return", "day-new", "reload", "void",
	"adventure-start", "trait-invoke", "hope-spend", "fellowship-ask", "fellowship-vote", "fellowship-take",
	"fellowship-withdraw", "fellowship-phase", "shadow-gain", "madness-end", "advancement-grant",
	// journal-dice-v2: TestV2CommandsOverHTTP.
	"key-register", "session-contribute", "roll-request", "roll-reveal", "roll-cancel",
	// TestV2CosignOverHTTP.
	"session-cosign",
	// GM rolls: TestV2GMRollsOverHTTP.
	"roll-witness", "roll-resolve",
	// A suppressed roll's proof: TestV2ProveOverHTTP.
	"roll-prove",
	// Beacon receipts: TestV2GMRollsOverHTTP. Devices: TestDevicesOverHTTP.
	"roll-receipt", "key-approve", "key-revoke",
	// The table's calls and void proposals: TestRollCallsSurviveARestart,
	// TestVoidProposalsSurviveARestart.
	"call", "call-close", "void-propose", "void-consent",
	// Free and secret rolls: TestFreeRollsV2OverHTTP, TestSecretRollsOverHTTP.
	"free-roll", "reveal",
}

// TestCommandList checks that every command the API lists is tested, and
// that the list documents each one's body.
func TestCommandList(t *testing.T) {
	h := newHarness(t, memBackend())
	var listed []struct {
		Name string         `json:"name"`
		Doc  string         `json:"doc"`
		Body map[string]any `json:"body"`
	}
	h.get("/api/commands", http.StatusOK, &listed)
	var names []string
	for _, c := range listed {
		names = append(names, c.Name)
		if c.Doc == "" || c.Body == nil {
			t.Errorf("command %s: no doc or body example", c.Name)
		}
		if !slices.Contains(tested, c.Name) {
			t.Errorf("command %s is listed but not tested", c.Name)
		}
	}
	for _, name := range tested {
		if !slices.Contains(names, name) {
			t.Errorf("command %s is tested but not listed", name)
		}
	}
}

// TestTORCommands runs The One Ring's commands and a void through the API.
// Steps whose outcome depends on the dice may be refused by the rules (400);
// the others must succeed.
func TestTORCommands(t *testing.T) {
	h := newHarness(t, jetBackend(false))
	r := h.do(http.MethodPost, "/api/campaigns", `{"id":"erebor","name":"La Tierra Media","system":"tor"}`)
	if r.status != http.StatusCreated {
		t.Fatalf("create: %d %s", r.status, r.body)
	}
	for _, body := range []string{
		`{"id":"bilbo","name":"Bilbo","player":"Ana","culture":"Hobbits de la Comarca","max_hope":12,"attributes":"Cuerpo=3/5,Corazón=6/8,Mente=5/7","skills":"Atención=3*,Sigilo=3*,Acertijos=2,Viajar=2,Buscar=2,Cortesía=1","traits":["Ladrón","Ojo avizor"]}`,
		`{"id":"thorin","name":"Thorin","player":"Bea","culture":"Enanos de Erebor","max_hope":8,"attributes":"Cuerpo=7/9,Corazón=5/7,Mente=2/4","skills":"Guerrear=3*,Impresionar=3,Atletismo=2,Persuadir=1,Saber=1","traits":["Herrero","Orgulloso"]}`,
		`{"id":"balin","name":"Balin","player":"Carlos","culture":"Enanos de Erebor","max_hope":10,"attributes":"Cuerpo=5/7,Corazón=6/8,Mente=4/6","skills":"Explorar=3*,Saber=2,Cortesía=2,Viajar=2","traits":["Erudito"]}`,
	} {
		h.command("erebor", "character-create", body, http.StatusCreated)
	}
	h.command("erebor", "session-start", ``, http.StatusOK)
	h.command("erebor", "adventure-start", `{"title":"El camino al Este"}`, http.StatusOK)
	h.command("erebor", "trait-invoke", `{"character":"bilbo","trait":"Ojo avizor"}`, http.StatusOK)
	// A TN of 0 is refused, not read as the default 14; an absent one is 14.
	for _, tn := range []string{`0`, `100`} {
		r := h.do(http.MethodPost, "/api/campaigns/erebor/commands/roll", `{"character":"bilbo","skill":"Atención","tn":`+tn+`}`)
		if r.status != http.StatusBadRequest || !strings.Contains(string(r.body), "--tn "+tn+": a target number is 1..99") {
			t.Fatalf("tn %s: %d %s", tn, r.status, r.body)
		}
	}
	roll := h.command("erebor", "roll", `{"character":"bilbo","skill":"Atención","tn":14,"entropy":"ana"}`, http.StatusOK)
	if roll.Recorded[0].Event.Type != events.TypeRollMade {
		t.Fatalf("roll recorded %v", roll.types())
	}
	// Thorin fails a roll (TN 30 fails unless the rune shows) and spends Hope
	// on it, so that he is below his maximum when he asks the fellowship.
	thorinRolls := 0
	for i := 0; ; i++ {
		res := h.command("erebor", "roll", `{"character":"thorin","skill":"Persuadir","tn":30}`, http.StatusOK)
		thorinRolls++
		p, err := res.Recorded[0].Event.Payload()
		if err != nil {
			t.Fatal(err)
		}
		if p.(*events.RollMade).Outcome == "failure" {
			break
		}
		if i == 20 {
			t.Fatal("twenty runes in a row")
		}
	}
	h.command("erebor", "hope-spend", `{"character":"thorin"}`, http.StatusOK)
	maybe := func(name, body string) {
		t.Helper()
		r := h.do(http.MethodPost, "/api/campaigns/erebor/commands/"+name, body)
		if r.status != http.StatusOK && r.status != http.StatusBadRequest {
			t.Fatalf("%s: %d %s", name, r.status, r.body)
		}
		if r.status == http.StatusBadRequest {
			wantError(t, name, r, http.StatusBadRequest)
		}
	}
	h.command("erebor", "fellowship-ask", `{"character":"thorin"}`, http.StatusOK)
	h.command("erebor", "fellowship-vote", `{"character":"thorin","voter":"bilbo","agree":true}`, http.StatusOK)
	maybe("fellowship-vote", `{"character":"thorin","voter":"balin","agree":false}`)
	maybe("fellowship-take", `{"character":"thorin"}`)
	maybe("fellowship-withdraw", `{"character":"thorin"}`)
	var thorin projections.TORSheet
	h.get("/api/campaigns/erebor/characters/thorin", http.StatusOK, &thorin)
	before := thorin.Shadow
	h.command("erebor", "shadow-gain", `{"character":"thorin","amount":2,"reason":"la enfermedad del dragón"}`, http.StatusOK)
	h.get("/api/campaigns/erebor/characters/thorin", http.StatusOK, &thorin)
	if thorin.Shadow != before+2 {
		t.Fatalf("thorin's Shadow after gaining 2: %d, was %d", thorin.Shadow, before)
	}
	maybe("madness-end", `{"character":"thorin","flaw":"Codicioso"}`)
	h.command("erebor", "advancement-grant", `{"character":"balin","group":"Explorar"}`, http.StatusOK)
	void := h.command("erebor", "void", fmt.Sprintf(`{"event_id":%q,"reason":"tirada repetida"}`, roll.Recorded[0].Event.ID), http.StatusOK)
	if got := void.types(); !slices.Equal(got, []string{events.TypeEventVoided}) {
		t.Fatalf("void recorded %v", got)
	}
	wantError(t, "void again", h.do(http.MethodPost, "/api/campaigns/erebor/commands/void", fmt.Sprintf(`{"event_id":%q,"reason":"otra vez"}`, roll.Recorded[0].Event.ID)), http.StatusBadRequest)
	h.command("erebor", "fellowship-phase", ``, http.StatusOK)
	h.command("erebor", "session-end", ``, http.StatusOK)

	// The live state equals a refold that knows the void.
	var got projections.Campaign
	h.get("/api/campaigns/erebor", http.StatusOK, &got)
	require.Equal(t, mustJSON(t, refold(t, h.store, "erebor")), mustJSON(t, &got))
	var sheets []projections.TORSheet
	h.get("/api/campaigns/erebor/characters", http.StatusOK, &sheets)
	if len(sheets) != 3 || sheets[0].ID != "bilbo" || sheets[0].Rolls != 0 || sheets[0].MaxHope != 12 {
		t.Fatalf("One Ring sheets (bilbo's roll voided): %+v", sheets)
	}
	h.get("/api/campaigns/erebor/characters/thorin", http.StatusOK, &thorin)
	if thorin.Shadow != 0 || thorin.Rolls != thorinRolls {
		t.Fatalf("thorin: %+v", thorin)
	}
}

func refold(t testing.TB, st web.Store, id string) *projections.Campaign {
	t.Helper()
	c, err := livetest.NewJournal(st).Load(context.Background(), id, 0)
	require.NoError(t, err)
	return c
}

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// TestCommandErrors checks the answers to bad commands: nothing is
// recorded, and the status says why.
func TestCommandErrors(t *testing.T) {
	h := newHarness(t, memBackend())
	h.setup("mordor")
	h.command("mordor", "session-start", ``, http.StatusOK)
	big := `{"character":"lodin","skill":"sigilo","entropy":"` + strings.Repeat("x", web.MaxBody) + `"}`
	tests := []struct {
		name, path, body, contentType string
		want                          int
	}{
		{"unknown command", "/api/campaigns/mordor/commands/fly", `{}`, "", http.StatusNotFound},
		{"unknown campaign", "/api/campaigns/gondor/commands/roll", `{"character":"lodin","skill":"sigilo"}`, "", http.StatusNotFound},
		{"bad campaign id", "/api/campaigns/Gondor!/commands/roll", `{"character":"lodin","skill":"sigilo"}`, "", http.StatusBadRequest},
		{"unknown character", "/api/campaigns/mordor/commands/roll", `{"character":"boromir","skill":"sigilo"}`, "", http.StatusNotFound},
		{"unknown skill", "/api/campaigns/mordor/commands/roll", `{"character":"lodin","skill":"volar"}`, "", http.StatusNotFound}, // not_found at every door (command.Classify)
		{"unknown field", "/api/campaigns/mordor/commands/roll", `{"character":"lodin","skill":"sigilo","luck":true}`, "", http.StatusBadRequest},
		{"wrong type", "/api/campaigns/mordor/commands/roll", `{"character":"lodin","skill":"sigilo","modifier":"two"}`, "", http.StatusBadRequest},
		{"missing field", "/api/campaigns/mordor/commands/roll", `{"skill":"sigilo"}`, "", http.StatusBadRequest},
		{"not JSON", "/api/campaigns/mordor/commands/roll", `roll lodin sigilo`, "", http.StatusBadRequest},
		{"two documents", "/api/campaigns/mordor/commands/roll", `{"character":"lodin","skill":"sigilo"} {}`, "", http.StatusBadRequest},
		{"body on a command without one", "/api/campaigns/mordor/commands/day-new", `{"reason":"rest"}`, "", http.StatusBadRequest},
		{"too large", "/api/campaigns/mordor/commands/roll", big, "", http.StatusRequestEntityTooLarge},
		{"not JSON content", "/api/campaigns/mordor/commands/roll", `character=lodin`, "application/x-www-form-urlencoded", http.StatusUnsupportedMediaType},
		{"rules refuse", "/api/campaigns/mordor/commands/damage", `{"character":"lodin","amount":-3}`, "", http.StatusBadRequest},
		{"state refuses", "/api/campaigns/mordor/commands/session-start", `{}`, "", http.StatusBadRequest},
		{"campaign exists", "/api/campaigns", `{"id":"mordor","system":"ryf"}`, "", http.StatusBadRequest},
		{"unknown system", "/api/campaigns", `{"id":"gondor","system":"d20"}`, "", http.StatusBadRequest},
		{"campaign without id", "/api/campaigns", `{"system":"ryf"}`, "", http.StatusBadRequest},
	}
	last, err := h.store.Last(context.Background(), events.AllFilter)
	require.NoError(t, err)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var hdr []string
			if tt.contentType != "" {
				hdr = []string{"Content-Type", tt.contentType}
			}
			r := h.do(http.MethodPost, tt.path, tt.body, hdr...)
			wantError(t, tt.name, r, tt.want)
		})
	}
	after, err := h.store.Last(context.Background(), events.AllFilter)
	require.NoError(t, err)
	if after != last {
		t.Fatalf("refused commands recorded events: last sequence %d → %d", last, after)
	}
}

// TestReads checks every read route, with time travel.
func TestReads(t *testing.T) {
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			h := newHarness(t, b)
			var list []map[string]any
			h.get("/api/campaigns", http.StatusOK, &list)
			if len(list) != 0 {
				t.Fatalf("campaigns of an empty journal: %v", list)
			}
			h.setup("mordor")
			h.setup("moria")
			h.get("/api/campaigns", http.StatusOK, &list)
			if len(list) != 2 || list[0]["id"] != "mordor" || list[1]["id"] != "moria" || list[0]["characters"] != float64(3) {
				t.Fatalf("campaigns: %v", list)
			}

			var sessions []projections.Session
			h.get("/api/campaigns/mordor/sessions", http.StatusOK, &sessions)
			if len(sessions) != 0 {
				t.Fatalf("sessions before any: %v", sessions)
			}
			start := h.command("mordor", "session-start", `{"title":"La torre"}`, http.StatusOK)
			roll := h.command("mordor", "roll", `{"character":"lodin","skill":"sigilo","vs":"media"}`, http.StatusOK)
			rollSeq := roll.Recorded[0].Seq

			// Reads see the command's effect at once.
			var lodin projections.Sheet
			h.get("/api/campaigns/mordor/characters/lodin", http.StatusOK, &lodin)
			if lodin.Rolls != 1 || lodin.Name != "Lodin" || lodin.HP != lodin.MaxHP {
				t.Fatalf("lodin after a roll: %+v", lodin)
			}
			var sheets []projections.Sheet
			h.get("/api/campaigns/mordor/characters", http.StatusOK, &sheets)
			if len(sheets) != 3 || sheets[0].ID != "lodin" || sheets[1].ID != "ruisenor" || sheets[2].ID != "orco" {
				t.Fatalf("characters: %+v", sheets)
			}

			// Time travel.
			h.get(fmt.Sprintf("/api/campaigns/mordor/characters/lodin?at=%d", rollSeq-1), http.StatusOK, &lodin)
			if lodin.Rolls != 0 {
				t.Fatalf("lodin before the roll has %d rolls", lodin.Rolls)
			}
			first := start.Recorded[0].Seq
			var early projections.Campaign
			h.get("/api/campaigns/mordor?at=1", http.StatusOK, &early)
			if early.Events != 1 || len(early.Characters) != 0 || early.System != "ryf" {
				t.Fatalf("mordor at 1: %+v", early)
			}
			h.get("/api/campaigns/mordor/characters?at=2", http.StatusOK, &sheets)
			if len(sheets) != 1 {
				t.Fatalf("characters at 2: %d", len(sheets))
			}
			wantError(t, "sheet before the character", h.do("GET", "/api/campaigns/mordor/characters/orco?at=2", ""), http.StatusNotFound)
			wantError(t, "at=0", h.do("GET", "/api/campaigns/mordor?at=0", ""), http.StatusBadRequest)
			wantError(t, "at=x", h.do("GET", "/api/campaigns/mordor/characters/lodin?at=x", ""), http.StatusBadRequest)

			// Sessions: commitment, then the seed that matches it.
			h.get("/api/campaigns/mordor/sessions", http.StatusOK, &sessions)
			if len(sessions) != 1 || sessions[0].Seed != "" || sessions[0].Commitment == "" || sessions[0].StartSeq != first {
				t.Fatalf("open session: %+v", sessions)
			}
			h.command("mordor", "session-end", ``, http.StatusOK)
			h.get("/api/campaigns/mordor/sessions", http.StatusOK, &sessions)
			seed, err := hex.DecodeString(sessions[0].Seed)
			require.NoError(t, err)
			sum := sha256.Sum256(seed)
			if !sessions[0].Ended || hex.EncodeToString(sum[:]) != sessions[0].Commitment {
				t.Fatalf("ended session: %+v", sessions[0])
			}

			// Combat.
			wantError(t, "no combat", h.do("GET", "/api/campaigns/mordor/combat", ""), http.StatusNotFound)

			// Transcript.
			var lines []projections.Line
			h.get("/api/campaigns/mordor/transcript", http.StatusOK, &lines)
			if len(lines) != 7 || !strings.Contains(lines[0].Text, "Mordor") {
				t.Fatalf("transcript: %+v", lines)
			}
			h.get("/api/campaigns/mordor/transcript?session=s1", http.StatusOK, &lines)
			if len(lines) != 3 || lines[1].Seq != rollSeq {
				t.Fatalf("transcript of s1: %+v", lines)
			}

			// Stats.
			var luck replay.LuckReport
			h.get("/api/campaigns/mordor/stats", http.StatusOK, &luck)
			if luck.Rolls != 1 || len(luck.Distributions) == 0 || luck.Distributions[0].N == 0 {
				t.Fatalf("stats: %+v", luck)
			}

			// Explain.
			var x replay.Explanation
			h.get("/api/campaigns/mordor/rolls/"+roll.Recorded[0].Event.ID+"/explain", http.StatusOK, &x)
			if !x.Verified {
				t.Fatalf("explain after the session ended: %s", x.Verdict)
			}
			wantError(t, "explain a non-roll", h.do("GET", "/api/campaigns/mordor/rolls/"+start.Recorded[0].Event.ID+"/explain", ""), http.StatusBadRequest)

			// Unknown campaigns and characters.
			for _, p := range []string{"", "/characters", "/characters/lodin", "/sessions", "/combat", "/transcript", "/events", "/stats"} {
				wantError(t, "gondor"+p, h.do("GET", "/api/campaigns/gondor"+p, ""), http.StatusNotFound)
				wantError(t, "bad id"+p, h.do("GET", "/api/campaigns/GONDOR"+p, ""), http.StatusBadRequest)
			}
			wantError(t, "unknown character", h.do("GET", "/api/campaigns/mordor/characters/boromir", ""), http.StatusNotFound)
		})
	}
}

// TestEventList checks the JSON list of events and its parameters.
func TestEventList(t *testing.T) {
	h := newHarness(t, memBackend())
	h.setup("mordor")
	h.setup("moria")
	h.command("mordor", "session-start", ``, http.StatusOK)
	for range 3 {
		h.command("mordor", "roll", `{"character":"lodin","skill":"sigilo"}`, http.StatusOK)
	}
	type rec struct {
		Seq     uint64       `json:"seq"`
		Subject string       `json:"subject"`
		Event   events.Event `json:"event"`
	}
	seqs := func(rs []rec) []uint64 {
		var out []uint64
		for _, r := range rs {
			out = append(out, r.Seq)
		}
		return out
	}
	var all []rec
	h.get("/api/campaigns/mordor/events", http.StatusOK, &all)
	if got := seqs(all); !slices.Equal(got, []uint64{1, 2, 3, 4, 9, 10, 11, 12}) {
		t.Fatalf("mordor's events: %v", got)
	}
	if all[0].Subject != "journal.mordor" || all[0].Event.Type != events.TypeCampaignCreated {
		t.Fatalf("first event: %+v", all[0])
	}
	tests := []struct {
		query string
		want  []uint64
	}{
		{"?from=4&to=10", []uint64{4, 9, 10}},
		{"?types=journal.roll.made.v1", []uint64{10, 11, 12}},
		{"?types=journal.roll.made.v1,journal.session.started.v1&tail=2", []uint64{11, 12}},
		{"?types=journal.roll.made.v1&to=11&tail=5", []uint64{10, 11}},
		{"?limit=2", []uint64{1, 2}},
		{"?from=13", nil},
	}
	for _, tt := range tests {
		var got []rec
		h.get("/api/campaigns/mordor/events"+tt.query, http.StatusOK, &got)
		if !slices.Equal(seqs(got), tt.want) {
			t.Errorf("events%s = %v, want %v", tt.query, seqs(got), tt.want)
		}
	}
	for _, q := range []string{"?types=journal.nope.v1", "?from=x", "?from=5&to=4", "?tail=-1"} {
		wantError(t, q, h.do("GET", "/api/campaigns/mordor/events"+q, ""), http.StatusBadRequest)
	}
}

// TestEventStream checks the live feed: history from the start, live
// events as they are recorded, and resumption after Last-Event-ID.
func TestEventStream(t *testing.T) {
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			h := newHarness(t, b)
			h.setup("mordor")
			h.setup("moria")
			s := h.stream("/api/campaigns/mordor/events")
			for want := uint64(1); want <= 4; want++ {
				ev := s.next(t, 5*time.Second)
				if ev.ID != want || ev.Event.Campaign != "mordor" {
					t.Fatalf("event %d: got id %d of %s", want, ev.ID, ev.Event.Campaign)
				}
			}
			res := h.command("mordor", "session-start", ``, http.StatusOK)
			ev := s.next(t, 5*time.Second)
			if ev.ID != res.Recorded[0].Seq || ev.Event.ID != res.Recorded[0].Event.ID {
				t.Fatalf("live event: id %d %s, want %d %s", ev.ID, ev.Event.ID, res.Recorded[0].Seq, res.Recorded[0].Event.ID)
			}
			s.close()

			// Resume after event 2, from a new connection.
			r := h.stream("/api/campaigns/mordor/events", "Last-Event-ID", "2")
			if ev := r.next(t, 5*time.Second); ev.ID != 3 {
				t.Fatalf("resumed after 2 at %d", ev.ID)
			}
			f := h.stream("/api/campaigns/mordor/events?from=9")
			if ev := f.next(t, 5*time.Second); ev.ID != res.Recorded[0].Seq {
				t.Fatalf("?from=9 starts at %d", ev.ID)
			}
			wantError(t, "bad Last-Event-ID", h.do("GET", "/api/campaigns/mordor/events", "", "Accept", "text/event-stream", "Last-Event-ID", "x"), http.StatusBadRequest)
			wantError(t, "unknown campaign", h.do("GET", "/api/campaigns/gondor/events", "", "Accept", "text/event-stream"), http.StatusNotFound)
		})
	}
}

// TestProtocol checks methods, unknown routes, cross-origin writes, the
// dashboard's files, health and the error mapping.
func TestProtocol(t *testing.T) {
	h := newHarness(t, memBackend())
	h.setup("mordor")
	for _, rt := range h.web.Routes() {
		path := strings.NewReplacer("{c}", "mordor", "{ch}", "lodin", "{name}", "roll", "{id}", "x").Replace(rt.Pattern)
		method := http.MethodDelete
		r := h.do(method, path, "")
		wantError(t, method+" "+path, r, http.StatusMethodNotAllowed)
		if !strings.Contains(r.header.Get("Allow"), rt.Method) {
			t.Errorf("%s %s: Allow %q lacks %s", method, path, r.header.Get("Allow"), rt.Method)
		}
	}
	wantError(t, "unknown route", h.do("GET", "/api/nothing/here", ""), http.StatusNotFound)
	wantError(t, "cross-site write", h.do("POST", "/api/campaigns", `{"id":"evil","system":"ryf"}`, "Sec-Fetch-Site", "cross-site"), http.StatusForbidden)
	wantError(t, "cross-origin write", h.do("POST", "/api/campaigns/mordor/commands/day-new", `{}`, "Origin", "https://evil.example"), http.StatusForbidden)
	wantError(t, "cross-site read", h.do("GET", "/api/campaigns/mordor", "", "Sec-Fetch-Site", "cross-site"), http.StatusForbidden)
	wantError(t, "rebound host", h.do("GET", "/api/campaigns/mordor", "", "Host", "evil.example"), http.StatusMisdirectedRequest)
	// The actor header is ignored, however it is spelled: the server's own
	// identity is recorded (the default "api").
	for _, forged := range []string{"Gandalf el Gris", strings.Repeat("gm", 100), "ana"} {
		res := h.do("POST", "/api/campaigns/mordor/commands/day-new", `{}`, web.ActorHeader, forged)
		var day result
		res.json(t, &day)
		if res.status != http.StatusOK || day.Recorded[0].Event.Actor != "api" {
			t.Fatalf("actor header %q: %d %s", forged, res.status, res.body)
		}
	}

	for _, f := range []struct{ path, contentType, contains string }{
		{"/", "text/html", "Campaign journal"},
		{"/static/app.js", "javascript", "EventSource"},
		{"/static/dice.js", "javascript", "journal-dice-v1"},
		{"/static/app.css", "text/css", "--accent"},
	} {
		r := h.do("GET", f.path, "")
		if r.status != http.StatusOK || !strings.Contains(r.header.Get("Content-Type"), f.contentType) || !strings.Contains(string(r.body), f.contains) {
			t.Errorf("GET %s: %d %s", f.path, r.status, r.header.Get("Content-Type"))
		}
	}
	var health map[string]any
	h.get("/healthz", http.StatusOK, &health)
	if health["status"] != "ok" {
		t.Fatalf("health: %v", health)
	}
}

// TestStatus checks the mapping from errors to HTTP statuses.
func TestStatus(t *testing.T) {
	tests := []struct {
		err  error
		want int
	}{
		{fmt.Errorf("x: %w", command.ErrInvalid), http.StatusBadRequest},
		{fmt.Errorf("x: %w", events.ErrInvalidID), http.StatusBadRequest},
		{fmt.Errorf("x: %w", command.ErrNotFound), http.StatusNotFound},
		{fmt.Errorf("gave up after 50 attempts: %w", events.ErrConcurrency), http.StatusConflict},
		{fmt.Errorf("x: %w", events.ErrExists), http.StatusConflict},
		{fmt.Errorf("x: %w", events.ErrDenied), http.StatusForbidden},
		{fmt.Errorf("x: %w", context.DeadlineExceeded), http.StatusServiceUnavailable},
		{fmt.Errorf("disk on fire"), http.StatusInternalServerError},
	}
	for _, tt := range tests {
		if got := web.Status(tt.err); got != tt.want {
			t.Errorf("Status(%v) = %d, want %d", tt.err, got, tt.want)
		}
	}
}

// TestMetrics checks that the metrics the Grafana dashboard charts are
// exported, with values.
func TestMetrics(t *testing.T) {
	h := newHarness(t, jetBackend(false))
	h.setup("mordor")
	h.command("mordor", "session-start", ``, http.StatusOK)
	h.command("mordor", "roll", `{"character":"lodin","skill":"sigilo","vs":"media"}`, http.StatusOK)
	require.Eventually(t, func() bool {
		return h.proj.Stats().CheckpointSeq > 0
	}, 5*time.Second, 20*time.Millisecond, "no checkpoint")
	r := h.get("/metrics", http.StatusOK, nil)
	text := string(r.body)
	for _, want := range []string{
		`journal_events_total{type="journal.roll.made.v1"} 1`,
		`journal_events_appended_total{type="journal.character.created.v1"} 3`,
		`journal_rolls_total{kind="skill",outcome=`,
		`journal_command_duration_seconds_bucket{command="roll",status="200",le=`,
		`journal_command_duration_seconds_count{command="campaign-create",status="201"} 1`,
		"journal_consumer_lag 0",
		"journal_stream_last_sequence 6",
		"journal_projection_sequence 6",
		"journal_checkpoint_sequence ",
		"journal_checkpoint_age_seconds ",
		"journal_projection_errors_total 0",
		`journal_http_requests_total{code="200",route="POST /api/campaigns/{c}/commands/{name}"} 2`,
		"journal_sse_clients 0",
		"go_goroutines ",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("metrics lack %q", want)
		}
	}
	// Every metric the Grafana dashboard charts is exported.
	b, err := os.ReadFile(filepath.Join("..", "grafana", "journal-dashboard.json"))
	require.NoError(t, err)
	var dash struct {
		Panels []struct {
			Title   string
			Targets []struct{ Expr string }
		}
	}
	require.NoError(t, json.Unmarshal(b, &dash))
	names := regexp.MustCompile(`journal_[a-z_]+`)
	charted := 0
	for _, p := range dash.Panels {
		for _, tg := range p.Targets {
			for _, name := range names.FindAllString(tg.Expr, -1) {
				charted++
				if !strings.Contains(text, "\n"+name) {
					t.Errorf("panel %q charts %s, which /metrics does not export", p.Title, name)
				}
			}
		}
	}
	if charted < 10 {
		t.Errorf("the dashboard charts only %d series", charted)
	}
	if t.Failed() {
		t.Log(text)
	}
}

// TestErrorsSpeakTheRequestsLanguage: an error body has the CLI's shape
// ({"error": {"code", "message", "message_en", "exit"}, "status"}), its
// class the same as the CLI's and NATS's (command.Classify), and its
// message in the language Accept-Language asks for.
func TestErrorsSpeakTheRequestsLanguage(t *testing.T) {
	h := newHarness(t, memBackend())
	h.setup("mordor")
	h.command("mordor", "session-start", ``, http.StatusOK)
	for _, tt := range []struct {
		lang, want string
	}{
		{"es-ES,es;q=0.9", "habilidad"},
		{"en-GB,en;q=0.8", "unknown skill"},
		{"", "unknown skill"},
	} {
		var hdr []string
		if tt.lang != "" {
			hdr = []string{"Accept-Language", tt.lang}
		}
		r := h.do(http.MethodPost, "/api/campaigns/mordor/commands/roll", `{"character":"lodin","skill":"volar"}`, hdr...)
		var e errorBody
		require.NoError(t, json.Unmarshal(r.body, &e), "%s", r.body)
		require.Equal(t, http.StatusNotFound, r.status)
		require.Equal(t, http.StatusNotFound, e.Status)
		require.Equal(t, "not_found", e.Error.Code, "the CLI's code for an unknown skill")
		require.Equal(t, 3, e.Error.Exit, "the CLI's exit status for it")
		require.Contains(t, e.Error.Message, tt.want, "Accept-Language %q", tt.lang)
		require.Contains(t, e.Error.MessageEN, "unknown skill")
		require.NotContains(t, e.Error.Message, "invalid request:", "no sentinel prefix")
		require.Contains(t, r.header.Values("Vary"), "Accept-Language")
	}
}
