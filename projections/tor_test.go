package projections_test

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rolls"
	"github.com/campaign-journal/journal/rules/tor"
)

// torLog builds a recorded stream of one campaign by hand.
type torLog struct {
	t       *testing.T
	ids     events.IDs
	now     time.Time
	session string
	recs    []events.Recorded
}

func newTORLog(t *testing.T) *torLog {
	t.Helper()
	now := time.Date(2026, 3, 1, 20, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	return &torLog{t: t, ids: events.NewV7(clock, rand.NewChaCha8([32]byte{3})), now: now}
}

func (l *torLog) add(kind events.Kind, agg, name, typ string, data any) events.Recorded {
	l.t.Helper()
	l.now = l.now.Add(time.Minute)
	ev, err := events.New(events.Spec{
		Campaign: "arda", Kind: kind, AggregateID: agg, Name: name, Type: typ,
		Session: l.session, Actor: "gm", Data: data,
	}, l.ids, l.now)
	require.NoError(l.t, err)
	rec := events.Recorded{Seq: uint64(len(l.recs) + 1), Subject: ev.StreamSubject, Event: ev}
	l.recs = append(l.recs, rec)
	return rec
}

func (l *torLog) char(id string, data events.TORCharacterCreated) {
	l.add(events.KindCharacter, id, "created", events.TypeTORCharacterCreated, data)
}

func (l *torLog) roll(char, skill string, tn int, trait string, faces ...int) events.Recorded {
	l.t.Helper()
	res, err := tor.Judge(tn, faces[0], faces[1:])
	require.NoError(l.t, err)
	e := rolls.FromTOR(res)
	e.Character, e.Skill, e.Trait = char, skill, trait
	return l.add(events.KindCharacter, char, "roll", events.TypeRollMade, e)
}

func (l *torLog) fold(upTo uint64) *projections.Campaign {
	l.t.Helper()
	c, err := projections.Fold("arda", l.recs, upTo)
	require.NoError(l.t, err)
	return c
}

// company records a tor campaign with a hobbit, a dwarf and an NPC, a
// session and an adventure.
func company(t *testing.T) *torLog {
	l := newTORLog(t)
	l.add(events.KindCampaign, "arda", "created", events.TypeCampaignCreated, events.CampaignCreated{Name: "Arda", System: "tor"})
	attrs := events.TORAttributes{Cuerpo: events.TORScore{Basic: 3, Favoured: 5}, Corazon: events.TORScore{Basic: 6, Favoured: 8}, Mente: events.TORScore{Basic: 5, Favoured: 7}}
	l.char("frodo", events.TORCharacterCreated{Name: "Frodo", Player: "ana", Culture: "Hobbits de la Comarca", Hobbit: true,
		Attributes: attrs, Skills: map[string]events.TORSkill{"Atención": {Rank: 2, Favoured: true}, "Sigilo": {Rank: 3}},
		Hope: 2, MaxHope: 2, Traits: []string{"Ladrón"}})
	l.char("gimli", events.TORCharacterCreated{Name: "Gimli", Player: "bea", Culture: "Enanos", Attributes: attrs,
		Skills: map[string]events.TORSkill{"Guerrear": {Rank: 3}}, Hope: 8, MaxHope: 8})
	l.char("orco", events.TORCharacterCreated{Name: "Orco", NPC: true, Attributes: attrs, Skills: map[string]events.TORSkill{}})
	l.session = "s1"
	l.add(events.KindSession, "s1", "started", events.TypeSessionStarted, events.SessionStarted{Algorithm: "journal-dice-v1", Commitment: strings.Repeat("0", 64)})
	l.add(events.KindCampaign, "arda", "adventure", events.TypeTORAdventureStarted, events.TORAdventureStarted{Number: 1, Title: "Moria", Pool: 3})
	return l
}

func TestTORSheetsAndRolls(t *testing.T) {
	l := company(t)
	c := l.fold(0)
	if c.TOR == nil || len(c.TOR.Roster) != 3 || len(c.Characters) != 0 || c.TOR.Pool != 3 {
		t.Fatalf("tor state = %+v", c.TOR)
	}
	if got := tor.StartingPool(c.TOR.Company()); got != 3 {
		t.Fatalf("starting pool of the company = %d, want 3", got)
	}
	f := c.TOR.Characters["frodo"]
	if f.Name != "Frodo" || !f.IsHobbit() || f.Skills["Atención"] != (tor.SkillRating{Rank: 2, Favoured: true}) || f.Hope != 2 {
		t.Fatalf("frodo = %+v", f)
	}

	// A failure; Hope is spent on it and it becomes a success.
	miss := l.roll("frodo", "Atención", 14, "", 5, 2, 3)
	l.add(events.KindCharacter, "frodo", "hope", events.TypeTORHopeSpent, events.TORHopeSpent{
		Character: "frodo", Roll: miss.Event.ID, Skill: "Atención", Attribute: "Cuerpo", Favoured: true, Bonus: 5,
		Hope: 1, TN: 14, Total: 15, Outcome: "success", Quality: "success",
	})
	c = l.fold(0)
	f = c.TOR.Characters["frodo"]
	r := c.TOR.Rolls[miss.Event.ID]
	if f.Hope != 1 || f.Rolls != 1 || f.Successes != 1 || !r.HopeSpent || !r.Result.Success || r.Result.HopeBonus != 5 ||
		r.Group != tor.Percepcion || !f.LastRoll.HopeSpent || f.LastRoll.EventID != miss.Event.ID {
		t.Fatalf("after hope: frodo %+v roll %+v", f, r)
	}
	if e, err := c.TOR.Eligibility(r); err != nil || !e.Qualifies || e.Box != 1 {
		t.Fatalf("eligibility = %+v, %v", e, err)
	}

	// Shadow above Hope, then the Eye: the roll is flagged as the trigger.
	l.add(events.KindCharacter, "frodo", "shadow", events.TypeTORShadowGained, events.TORShadowGained{Character: "frodo", Amount: 2, Shadow: 2})
	if f := l.fold(0).TOR.Characters["frodo"]; !f.MadnessRisk {
		t.Fatalf("hope %d below shadow %d but no madness risk", f.Hope, f.TotalShadow())
	}
	eye := l.roll("frodo", "Sigilo", 14, "", tor.EyeFace, 6, 6, 1)
	c = l.fold(0)
	f = c.TOR.Characters["frodo"]
	if !f.LastRoll.Madness || !f.LastRoll.Result.Eye || f.Eyes != 1 || f.LastRoll.Result.Total != 13 || f.Mad {
		t.Fatalf("after the eye: %+v", f.LastRoll)
	}
	// An Eye with Hope at or above Shadow is no trigger.
	gEye := l.roll("gimli", "Guerrear", 14, "", tor.EyeFace, 1, 1, 1)
	if g := l.fold(0).TOR.Rolls[gEye.Event.ID]; g.Madness {
		t.Fatal("gimli's eye flagged as madness with hope 8 and no shadow")
	}
	l.add(events.KindCharacter, "frodo", "madness", events.TypeTORMadnessBegun, events.TORMadnessBegun{Character: "frodo", Roll: eye.Event.ID, Hope: 1, Shadow: 2})
	if f := l.fold(0).TOR.Characters["frodo"]; !f.Mad {
		t.Fatal("not mad after the bout began")
	}
	l.add(events.KindCharacter, "frodo", "madness", events.TypeTORMadnessEnded, events.TORMadnessEnded{Character: "frodo", Flaw: "Receloso", PermanentShadow: 1})
	f = l.fold(0).TOR.Characters["frodo"]
	if f.Mad || f.PermanentShadow != 1 || f.Shadow != 2 || len(f.Flaws) != 1 {
		t.Fatalf("after the bout: %+v", f)
	}

	// Fellowship: a request, votes, a point taken anyway.
	req := l.add(events.KindCharacter, "frodo", "fellowship", events.TypeTORFellowshipRequested, events.TORFellowshipRequested{Character: "frodo", Fellowship: []string{"frodo", "gimli"}, Pool: 3})
	if r := l.fold(0).TOR.Request; r == nil || r.Refused() || len(r.Waiting()) != 1 || r.Waiting()[0] != "gimli" {
		t.Fatalf("request = %+v", r)
	}
	l.add(events.KindCharacter, "gimli", "vote", events.TypeTORFellowshipVoted, events.TORFellowshipVoted{Request: req.Event.ID, Character: "frodo", Voter: "gimli"})
	if r := l.fold(0).TOR.Request; !r.Refused() || r.Tally.Refuse != 1 {
		t.Fatalf("request after the vote = %+v", r)
	}
	l.add(events.KindCharacter, "frodo", "fellowship", events.TypeTORFellowshipSpent, events.TORFellowshipSpent{
		Request: req.Event.ID, Character: "frodo", Outcome: events.TORFellowshipForced, Voters: 1, Refuse: 1, Hope: 2, Shadow: 3, Pool: 2})
	c = l.fold(0)
	if f := c.TOR.Characters["frodo"]; f.Hope != 2 || f.Shadow != 3 || c.TOR.Pool != 2 || c.TOR.Request != nil {
		t.Fatalf("after taking the point: frodo %+v pool %d", f, c.TOR.Pool)
	}

	// A trait invoked for the next roll; the roll takes it; points granted.
	l.add(events.KindCharacter, "frodo", "trait", events.TypeTORTraitInvoked, events.TORTraitInvoked{Character: "frodo", Trait: "Ladrón"})
	if f := l.fold(0).TOR.Characters["frodo"]; f.PendingTrait != "Ladrón" {
		t.Fatalf("pending trait = %q", f.PendingTrait)
	}
	great := l.roll("frodo", "Sigilo", 14, "Ladrón", 10, 6, 2, 3)
	c = l.fold(0)
	if f := c.TOR.Characters["frodo"]; f.PendingTrait != "" || f.LastRoll.Trait != "Ladrón" || f.LastRoll.Result.Quality != tor.QualityGreat {
		t.Fatalf("after the trait roll: %+v", f.LastRoll)
	}
	for box, roll := range []events.Recorded{miss, great} {
		skill, group := "Atención", "Percepción"
		if box == 1 {
			skill, group = "Sigilo", "Movimiento"
		}
		l.add(events.KindCharacter, "frodo", "advancement", events.TypeTORAdvancementGranted, events.TORAdvancementGranted{
			Character: "frodo", Group: group, Box: 1, Roll: roll.Event.ID, Skill: skill, Reason: "a success"})
	}
	c = l.fold(0)
	f = c.TOR.Characters["frodo"]
	if f.Advancement[tor.Percepcion] != 1 || f.Advancement[tor.Movimiento] != 1 || f.AdventurePoints() != 2 || len(f.Points) != 2 ||
		c.TOR.Rolls[great.Event.ID].Box != 1 {
		t.Fatalf("advancement = %+v points %+v", f.Advancement, f.Points)
	}
	if e, _ := c.TOR.Eligibility(c.TOR.Rolls[great.Event.ID]); e.Qualifies {
		t.Fatalf("a roll that earned a point qualifies again: %+v", e)
	}
	if rs := c.TOR.AdventureRolls("frodo"); len(rs) != 3 || rs[0].EventID != miss.Event.ID || rs[2].EventID != great.Event.ID {
		t.Fatalf("adventure rolls = %d", len(rs))
	}

	// The fellowship phase.
	l.add(events.KindCampaign, "arda", "fellowship-phase", events.TypeTORFellowshipPhase, events.TORFellowshipPhase{
		Adventure: 1, Banked: map[string]int{"frodo": 2, "gimli": 0, "orco": 0}, ShadowCleared: map[string]int{"frodo": 3}, Pool: 3})
	c = l.fold(0)
	f = c.TOR.Characters["frodo"]
	if f.AdvancementTotal != 2 || f.AdventurePoints() != 0 || f.Points != nil || f.Shadow != 0 || f.PermanentShadow != 1 ||
		c.TOR.Pool != 3 || c.TOR.Adventure != nil || len(c.TOR.Rolls) != 0 || f.Hope != 2 {
		t.Fatalf("after the phase: %+v pool %d", f, c.TOR.Pool)
	}
	// Time travel: as of the first roll, nothing of this had happened.
	then := l.fold(miss.Seq)
	if f := then.TOR.Characters["frodo"]; f.Rolls != 1 || f.Hope != 2 || f.LastRoll.HopeSpent {
		t.Fatalf("frodo as of seq %d: %+v", miss.Seq, f)
	}
}

// TestTORCheckpoint folds half the stream, keeps the state as JSON (a
// checkpoint), folds the rest onto the restored state and compares it with
// a full fold.
func TestTORCheckpoint(t *testing.T) {
	l := company(t)
	r := l.roll("frodo", "Atención", 14, "", 2, 1, 1)
	half := uint64(len(l.recs))
	l.add(events.KindCharacter, "frodo", "hope", events.TypeTORHopeSpent, events.TORHopeSpent{
		Character: "frodo", Roll: r.Event.ID, Skill: "Atención", Attribute: "Cuerpo", Favoured: true, Bonus: 5, Hope: 1, TN: 14, Total: 9, Outcome: "failure"})
	l.add(events.KindCharacter, "frodo", "advancement", events.TypeTORAdvancementGranted, events.TORAdvancementGranted{
		Character: "frodo", Group: "Percepción", Box: 1, Reason: "the GM's decision"})
	full := l.fold(0)

	b, err := json.Marshal(l.fold(half))
	require.NoError(t, err)
	restored := projections.NewCampaign("arda")
	require.NoError(t, json.Unmarshal(b, restored))
	for _, rec := range l.recs[half:] {
		require.NoError(t, restored.Apply(rec))
	}
	got, err := json.Marshal(restored)
	require.NoError(t, err)
	want, err := json.Marshal(full)
	require.NoError(t, err)
	if string(got) != string(want) {
		t.Fatalf("checkpoint + rest:\n%s\nfull fold:\n%s", got, want)
	}
	if !full.TOR.Rolls[r.Event.ID].HopeSpent || !full.TOR.Characters["frodo"].LastRoll.HopeSpent {
		t.Fatal("hope not marked on both copies of the roll")
	}
}

func TestTORTranscript(t *testing.T) {
	l := company(t)
	r := l.roll("frodo", "Atención", 14, "", 5, 2, 3)
	l.add(events.KindCharacter, "frodo", "hope", events.TypeTORHopeSpent, events.TORHopeSpent{
		Character: "frodo", Roll: r.Event.ID, Skill: "Atención", Attribute: "Cuerpo", Favoured: true, Bonus: 5, Hope: 1, TN: 14, Total: 15, Outcome: "success", Quality: "success"})
	l.roll("gimli", "Guerrear", 14, "", tor.RuneFace, 6, 6, 1)
	l.add(events.KindCharacter, "frodo", "shadow", events.TypeTORShadowGained, events.TORShadowGained{Character: "frodo", Amount: 2, Shadow: 2, Reason: "el Balrog"})
	eye := l.roll("frodo", "Sigilo", 14, "", tor.EyeFace, 6, 6, 1)
	l.add(events.KindCharacter, "frodo", "madness", events.TypeTORMadnessBegun, events.TORMadnessBegun{Character: "frodo", Roll: eye.Event.ID, Hope: 1, Shadow: 2})
	l.add(events.KindCharacter, "frodo", "madness", events.TypeTORMadnessEnded, events.TORMadnessEnded{Character: "frodo", Flaw: "Receloso", PermanentShadow: 1})
	req := l.add(events.KindCharacter, "frodo", "fellowship", events.TypeTORFellowshipRequested, events.TORFellowshipRequested{Character: "frodo", Fellowship: []string{"frodo", "gimli"}, Pool: 3})
	l.add(events.KindCharacter, "gimli", "vote", events.TypeTORFellowshipVoted, events.TORFellowshipVoted{Request: req.Event.ID, Character: "frodo", Voter: "gimli", Agree: true})
	l.add(events.KindCharacter, "frodo", "fellowship", events.TypeTORFellowshipSpent, events.TORFellowshipSpent{Request: req.Event.ID, Character: "frodo", Outcome: "granted", Voters: 1, Agree: 1, Hope: 2, Pool: 2})
	req = l.add(events.KindCharacter, "gimli", "fellowship", events.TypeTORFellowshipRequested, events.TORFellowshipRequested{Character: "gimli", Fellowship: []string{"frodo", "gimli"}, Pool: 2})
	l.add(events.KindCharacter, "gimli", "fellowship", events.TypeTORFellowshipWithdrawn, events.TORFellowshipWithdrawn{Request: req.Event.ID, Character: "gimli"})
	l.add(events.KindCharacter, "frodo", "trait", events.TypeTORTraitInvoked, events.TORTraitInvoked{Character: "frodo", Trait: "Ladrón", Automatic: true, Skill: "Sigilo"})
	l.add(events.KindCharacter, "frodo", "advancement", events.TypeTORAdvancementGranted, events.TORAdvancementGranted{Character: "frodo", Group: "Percepción", Box: 1, Roll: r.Event.ID, Skill: "Atención", Reason: "a success"})
	l.add(events.KindCampaign, "arda", "fellowship-phase", events.TypeTORFellowshipPhase, events.TORFellowshipPhase{Adventure: 1, Banked: map[string]int{"frodo": 1}, ShadowCleared: map[string]int{"frodo": 2}, Pool: 3})

	tr := projections.NewTranscript("arda", "")
	for _, rec := range l.recs {
		require.NoError(t, tr.Apply(rec))
	}
	want := []string{
		"Frodo entra en juego (personaje jugador de ana, Hobbits de la Comarca): Esperanza 2/2, Sombra 0.",
		"Orco entra en juego (PNJ): Esperanza 0/0, Sombra 0.",
		"Empieza la aventura 1 «Moria». Reserva de comunidad: 3.",
		"Frodo tira Atención contra NO 14: d12 5 + d6 [2 3] = 10 → fallo [nonce 0]. Puede gastar 1 de Esperanza: +5 (total 15).",
		"Frodo gasta 1 de Esperanza en su tirada de Atención: +5 (Cuerpo favorecido) → total 15 contra NO 14 → éxito. Esperanza 2 → 1.",
		"Gimli tira Guerrear contra NO 14: d12 la Runa (éxito automático) + d6 [6 6 1] = 25 → éxito extraordinario [nonce 0]. Vale un punto de progreso en Oficio (1.ª casilla), si el máster lo concede.",
		"Frodo gana 2 de Sombra (el Balrog): Sombra 0 → 2. Su Esperanza (1) queda por debajo de la Sombra (2): el Ojo desataría un ataque de locura.",
		"Frodo tira Sigilo contra NO 14: d12 el Ojo (0) + d6 [6 6 1] = 13 → fallo [nonce 0]. ¡El Ojo con la Esperanza (1) por debajo de la Sombra (2)!",
		"¡Frodo sufre un ataque de locura! El Ojo con Esperanza 1 y Sombra 2: el máster controla al personaje hasta que termine.",
		"Termina el ataque de locura de Frodo: +1 Sombra permanente (ahora 1) y el defecto «Receloso».",
		"Frodo pide un punto de comunidad (reserva 3) para recuperar 1 de Esperanza; votan Gimli.",
		"Gimli vota sí a la petición de Frodo. La comunidad lo concede (1 sí, 0 no).",
		"La comunidad concede a Frodo un punto (1 sí, 0 no): Esperanza 1 → 2, reserva 3 → 2.",
		"Gimli retira su petición de un punto de comunidad.",
		"Frodo invoca su rasgo «Ladrón»: el máster concede un éxito automático en Sigilo, sin tirada.",
		"El máster concede a Frodo un punto de progreso en Percepción (1.ª casilla de 3) por su tirada de Atención (éxito).",
		"Fase de comunidad: termina la aventura 1; puntos de progreso: Frodo 1 (total 1). Se borra la Sombra temporal (Frodo 2). La reserva de comunidad vuelve a 3.",
	}
	var text strings.Builder
	for _, line := range tr.Lines {
		if strings.HasPrefix(line.Text, "journal.") {
			t.Errorf("no line for %s", line.Type)
		}
		text.WriteString(line.Text + "\n")
	}
	for _, w := range want {
		if !strings.Contains(text.String(), w+"\n") {
			t.Errorf("transcript lacks\n  %s\ngot:\n%s", w, text.String())
			break
		}
	}
}
