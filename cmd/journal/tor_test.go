package main

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/rolls"
	"github.com/campaign-journal/journal/sheettext"
)

func TestDemoTOR(t *testing.T) {
	c := newCLI(t)
	out := c.ok("demo", "--system", "tor")
	for _, want := range []string{
		"Empieza la aventura 1 «El camino al Este». Reserva de comunidad: 4.",
		"invocando «Ojo avizor»",
		"gasta 1 de Esperanza",
		"Thorin pide un punto de comunidad",
		"Balin vota no a la petición de Thorin. La comunidad lo concede (1 sí, 1 no).",
		"Thorin gana 9 de Sombra",
		"el Ojo (0)",
		"¡Thorin sufre un ataque de locura!",
		"el defecto «Codicioso»",
		"El máster concede a",
		"Fase de comunidad: termina la aventura 1",
		"Semilla revelada",
		"Hojas finales",
		"Bilbo (bilbo) — jugador ana, Hobbits de la Comarca (hobbit), campaña demo-tor (tor)",
		"Atención 3*",
	} {
		if !strings.Contains(out, want) {
			t.Fatalf("demo output lacks %q:\n%s", want, out)
		}
	}
	// The demo's events: every roll re-judges to its record.
	evs := c.events("demo-tor")
	rollsSeen := 0
	for _, e := range evs {
		if e.Type != events.TypeRollMade {
			continue
		}
		p, err := e.Payload()
		require.NoError(t, err)
		r := p.(*events.RollMade)
		want, err := rolls.Rejudge(*r)
		require.NoError(t, err)
		if d := rolls.Diff(*r, want); len(d) > 0 {
			t.Fatalf("roll %s: %v", e.ID, d)
		}
		rollsSeen++
	}
	if rollsSeen < 4 {
		t.Fatalf("%d rolls in the demo", rollsSeen)
	}
	// The sheet, as text and JSON, and the transcript.
	sheet := c.ok("-c", "demo-tor", "--lang", "en", "character", "show", "thorin")
	for _, want := range []string{"Hope", "0 temporary + 1 permanent = 1", "Codicioso", "Guerrear 3*", "banked"} {
		if !strings.Contains(sheet, want) {
			t.Fatalf("sheet lacks %q:\n%s", want, sheet)
		}
	}
	var doc struct {
		Hope            int
		PermanentShadow int `json:"permanent_shadow"`
		Rolls           int
		Eyes            int
	}
	require.NoError(t, json.Unmarshal([]byte(c.ok("-c", "demo-tor", "character", "show", "thorin", "--json")), &doc))
	if doc.PermanentShadow != 1 || doc.Rolls < 2 || doc.Eyes < 1 {
		t.Fatalf("thorin = %+v", doc)
	}
	if log := c.ok("-c", "demo-tor", "log"); strings.Count(log, "\n") != len(evs) {
		t.Fatalf("log has %d lines for %d events", strings.Count(log, "\n"), len(evs))
	}
}

func TestTORCommands(t *testing.T) {
	c := newCLI(t)
	c.ok("campaign", "create", "arda", "--system", "tor")
	c.ok("-c", "arda", "character", "create", "bilbo", "--name", "Bilbo", "--player", "ana", "--attrs", "Cuerpo=3/5,Corazón=6/8,Mente=5/7",
		"--skills", "Atención=3*,Sigilo=3", "--hope", "1", "--culture", "Hobbits de la Comarca", "--traits", "Ladrón,Ojo avizor")
	c.ok("-c", "arda", "character", "create", "thorin", "--name", "Thorin", "--player", "bea", "--attrs", "body=7/9,heart=5/7,wits=2/4",
		"--skills", "Guerrear=3*", "--hope", "8", "--culture", "Enanos")
	c.ok("-c", "arda", "character", "create", "orco", "--npc", "--attrs", "Cuerpo=6/8,Corazón=2/3,Mente=2/3")
	c.ok("-c", "arda", "session", "start")
	if out := c.ok("-c", "arda", "adventure", "start", "El camino"); !strings.Contains(out, "Reserva de comunidad: 3.") {
		t.Fatalf("adventure start: %s", out)
	}
	// A failed roll at TN 30 (only the rune succeeds), and Hope spent on it.
	failRoll := func() string {
		t.Helper()
		for range 10 {
			out := c.ok("-c", "arda", "roll", "bilbo", "atencion", "--tn", "30", "--json")
			var doc struct {
				Recorded []struct{ Event events.Event } `json:"recorded"`
			}
			require.NoError(t, json.Unmarshal([]byte(out), &doc), out)
			p, err := doc.Recorded[0].Event.Payload()
			require.NoError(t, err)
			if r := p.(*events.RollMade); r.Outcome == "failure" {
				if r.TN != 30 || r.Skill != "Atención" || r.Kind != "tor" {
					t.Fatalf("roll = %+v", r)
				}
				return doc.Recorded[0].Event.ID
			}
		}
		t.Fatal("no failure at TN 30 in 10 rolls")
		return ""
	}
	id := failRoll()
	out := c.ok("-c", "arda", "hope", "spend", "bilbo", id)
	if !strings.Contains(out, "Bilbo gasta 1 de Esperanza en su tirada de Atención: +5 (Cuerpo favorecido)") || !strings.Contains(out, "¡Era su última Esperanza!") {
		t.Fatalf("hope spend: %s", out)
	}
	failRoll()
	c.ok("-c", "arda", "fellowship", "ask", "bilbo")
	// Refusals, each one line, nothing recorded.
	before := len(c.events("arda"))
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"hope", "spend", "bilbo"}, "no hope left"},
		{[]string{"fellowship", "vote", "bilbo", "orco", "yes"}, "not in the fellowship"},
		{[]string{"fellowship", "vote", "bilbo", "thorin", "maybe"}, "want yes or no"},
		{[]string{"fellowship", "take", "bilbo"}, "vote is still open"},
		{[]string{"trait", "invoke", "bilbo", "Herrero", "--auto"}, `no trait "Herrero"`},
		{[]string{"trait", "invoke", "bilbo", "Ladrón"}, "--auto"},
		{[]string{"roll", "bilbo", "Sigilo", "--trait", "Herrero"}, `no trait "Herrero"`},
		{[]string{"roll", "bilbo", "Sigilo", "--tn", "0"}, "--tn 0: a target number is 1..99"},
		{[]string{"roll", "bilbo", "Sigilo", "--tn", "100"}, "--tn 100: a target number is 1..99"},
		{[]string{"madness", "end", "thorin", "--flaw", "Orgullo"}, "not in a bout of madness"},
		{[]string{"shadow", "gain", "thorin", "x"}, "shadow"},
		{[]string{"advancement", "grant", "bilbo", "Cocina"}, `unknown skill group "Cocina" (nor a skill)`},
		{[]string{"character", "create", "x", "--player", "p", "--attrs", "Cuerpo=0/5,Corazón=6/4,Mente=5/7", "--hope", "3"}, "attributes.cuerpo.basic"},
	} {
		t.Run(strings.Join(tt.args, "_"), func(t *testing.T) {
			out, errb, code := c.run(append([]string{"-c", "arda", "--lang", "en"}, tt.args...)...)
			if code == 0 {
				t.Fatalf("exit 0, want failure; stdout %s", out)
			}
			if !strings.Contains(errb, tt.want) || strings.Count(strings.TrimSpace(errb), "\n") > 0 {
				t.Fatalf("stderr %q, want one line naming %q", errb, tt.want)
			}
			if got := len(c.events("arda")); got != before {
				t.Fatalf("%d events recorded by a refused command", got-before)
			}
		})
	}
	if out := c.ok("-c", "arda", "fellowship", "vote", "bilbo", "thorin", "no"); !strings.Contains(out, "La comunidad lo rechaza (0 sí, 1 no)") {
		t.Fatalf("vote: %s", out)
	}
	if out := c.ok("-c", "arda", "fellowship", "show"); !strings.Contains(out, "rechazada — 'fellowship take bilbo'") {
		t.Fatalf("fellowship show: %s", out)
	}
	if out := c.ok("-c", "arda", "fellowship", "take", "bilbo"); !strings.Contains(out, "Sombra 0 → 1, reserva 3 → 2") {
		t.Fatalf("take: %s", out)
	}
	c.ok("-c", "arda", "trait", "invoke", "bilbo", "ladron", "--auto", "--skill", "sigilo")
	for range 3 {
		c.ok("-c", "arda", "advancement", "grant", "bilbo", "Percepción")
	}
	_, errb, code := c.run("-c", "arda", "--lang", "en", "advancement", "grant", "bilbo", "atención")
	if code == 0 || !strings.Contains(errb, "3 advancement points") {
		t.Fatalf("4th point: exit %d, %s", code, errb)
	}
	var adv sheettext.AdvancementReport
	require.NoError(t, json.Unmarshal([]byte(c.ok("-c", "arda", "advancement", "show", "bilbo", "--json")), &adv))
	if adv.Points != 3 || adv.Groups[2].Group != "Percepción" || adv.Groups[2].Points != 3 || adv.Adventure != 1 {
		t.Fatalf("advancement = %+v", adv)
	}
	c.ok("-c", "arda", "shadow", "gain", "thorin", "2", "--reason", "un dragón")
	out = c.ok("-c", "arda", "fellowship", "phase")
	if !strings.Contains(out, "Bilbo 3 (total 3)") || !strings.Contains(out, "Se borra la Sombra temporal (Bilbo 1, Thorin 2)") {
		t.Fatalf("phase: %s", out)
	}
	sheet := c.ok("-c", "arda", "character", "show", "bilbo")
	for _, want := range []string{"████████████ 1/1", "0 temporal + 0 permanente", "3 guardados", "Atención 3*", "«Ladrón», «Ojo avizor»"} {
		if !strings.Contains(sheet, want) {
			t.Fatalf("sheet lacks %q:\n%s", want, sheet)
		}
	}
	// Time travel: before the phase, the boxes were full.
	seq := len(c.events("arda")) - 1
	then := c.ok("-c", "arda", "advancement", "show", "bilbo", "--at", strconv.Itoa(seq))
	if !strings.Contains(then, "Percepción     ■■■") {
		t.Fatalf("advancement at %d:\n%s", seq, then)
	}
}
