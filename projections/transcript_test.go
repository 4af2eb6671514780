package projections_test

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/memstore"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rules/tor"
)

// everyKind records a RyF campaign with an event of every kind the
// transcript describes: weapons and skills defined, rolls, contests, a
// combat, damage, healing, XP, a raise, the token, a new day, a
// void.
func everyKind(t *testing.T) []events.Recorded {
	t.Helper()
	recs := recordSession(t)
	at := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	clock := func() time.Time { at = at.Add(time.Second); return at }
	store := memstore.New(memstore.Options{})
	j := command.New(store, command.Options{Clock: clock, Rand: rand.NewChaCha8([32]byte{3}), IDs: events.NewV7(clock, rand.NewChaCha8([32]byte{4}))})
	ctx := context.Background()
	var last command.Result
	for i, step := range []func() (command.Result, error){
		func() (command.Result, error) {
			return j.CreateCampaign(ctx, command.CreateCampaign{ID: "d", System: "ryf", Name: "Dunas", Carisma: true, HardDefense: true})
		},
		func() (command.Result, error) {
			return j.DefineWeapon(ctx, "d", events.WeaponDefined{Name: "Lanza", Damage: "1d10", Precision: 1})
		},
		func() (command.Result, error) { return j.DefineSkill(ctx, "d", "Cetrería", "P") },
		func() (command.Result, error) {
			return j.CreateCharacter(ctx, "d", command.CreateCharacter{ID: "a", Name: "Ana", Player: "p", Attributes: "F=8,R=7,D=9,I=8,P=8,C=5",
				Skills: "Pelea=5,Sigilo=3", Specialization: "Pelea", Weapons: []string{"Revólver"}})
		},
		func() (command.Result, error) {
			return j.CreateCharacter(ctx, "d", command.CreateCharacter{ID: "b", Name: "Bo", NPC: true, Attributes: "F=5,R=3,D=4,I=3,P=3,C=3", Skills: "Pelea=2"})
		},
		func() (command.Result, error) { return j.StartSession(ctx, "d", "s1", "") },
		func() (command.Result, error) {
			return j.Roll(ctx, "d", command.RollRequest{Character: "a", Skill: "Sigilo", Vs: "media", Token: true})
		},
		func() (command.Result, error) { return j.ReturnToken(ctx, "d", "a") },
		func() (command.Result, error) {
			return j.Roll(ctx, "d", command.RollRequest{Character: "a", Skill: "Sigilo", Vs: "12"})
		},
		func() (command.Result, error) {
			return j.Contest(ctx, "d", command.ContestRequest{A: "a", SkillA: "Pelea", B: "b", SkillB: "Pelea"})
		},
		func() (command.Result, error) {
			c, err := j.Load(ctx, "d", 0)
			require.NoError(t, err)
			return j.Damage(ctx, "d", "a", c.Characters["a"].HP-5, "b") // incapacitated
		},
		func() (command.Result, error) {
			return j.Roll(ctx, "d", command.RollRequest{Character: "a", Skill: "Sigilo"})
		},
		func() (command.Result, error) { return j.Heal(ctx, "d", "a", 5) },
		func() (command.Result, error) { return j.GrantXP(ctx, "d", "a", 10) },
		func() (command.Result, error) { return j.RaiseSkill(ctx, "d", "a", "Sigilo") },
		func() (command.Result, error) { return j.NewDay(ctx, "d") },
	} {
		res, err := step()
		require.NoError(t, err, "step %d", i)
		last = res
	}
	_, err := j.Void(ctx, "d", last.Events[0].Event.ID, "por error")
	require.NoError(t, err)
	require.NoError(t, store.Read(ctx, events.Query{}, func(r events.Recorded) error { recs = append(recs, r); return nil }))
	return recs
}

// transcriptIn folds recs per campaign into transcript lines in l.
func transcriptIn(t *testing.T, l i18n.Lang, recs []events.Recorded) []string {
	t.Helper()
	trs := map[string]*projections.Transcript{}
	var out []string
	for _, r := range recs {
		tr := trs[r.Event.Campaign]
		if tr == nil {
			tr = projections.NewTranscript(r.Event.Campaign, "")
			tr.Lang = l
			trs[r.Event.Campaign] = tr
		}
		n := len(tr.Lines)
		require.NoError(t, tr.Apply(r))
		for _, line := range tr.Lines[n:] {
			out = append(out, line.Text)
		}
	}
	return out
}

// TestTranscriptOneLanguage: a transcript in one language has no label of
// the other, for every kind of event (RyF and The One Ring).
func TestTranscriptOneLanguage(t *testing.T) {
	recs := everyKind(t)
	l := company(t)
	l.roll("frodo", "Atención", 14, "", 5, 2, 3)
	l.roll("gimli", "Guerrear", 14, "", tor.RuneFace, 6, 6, 1)
	l.roll("frodo", "Sigilo", 14, "", tor.EyeFace, 6, 6, 1)
	recs = append(recs, l.recs...)
	for _, tc := range []struct{ lang, other i18n.Lang }{{i18n.ES, i18n.EN}, {i18n.EN, i18n.ES}} {
		t.Run(string(tc.lang), func(t *testing.T) {
			lines := transcriptIn(t, tc.lang, recs)
			require.Len(t, lines, len(recs))
			for _, line := range lines {
				require.NotContains(t, line, "journal.", "a line for every event")
				w, found := i18n.HasWord(line, i18n.Words(tc.other))
				require.Falsef(t, found, "%s line %q has the %s word %q", tc.lang, line, tc.other, w)
				for _, k := range i18n.Keys(tc.lang) {
					require.NotContains(t, line, string(k)+" ", "a key left untranslated")
				}
			}
		})
	}
}

// TestTranscriptSpanishByDefault: the zero Lang writes the Spanish lines
// the transcript always wrote, word for word; English writes other lines.
func TestTranscriptSpanishByDefault(t *testing.T) {
	recs := everyKind(t)
	es := transcriptIn(t, i18n.ES, recs)
	def := transcriptIn(t, "", recs)
	en := transcriptIn(t, i18n.EN, recs)
	require.Equal(t, es, def)
	all := strings.Join(es, "\n")
	for _, want := range []string{
		"Campaña «Dunas» creada (sistema ryf, con Carisma, defensa dura).",
		"Arma definida: Lanza (Armas cuerpo a cuerpo, daño 1d10, precisión +1).",
		"Habilidad de campaña: Cetrería (P).",
		"Ana entra en juego (personaje jugador de p), ",
		"Bo entra en juego (PNJ), ",
		"Empieza el combate. Iniciativa: ",
		"Asalto 2.",
		"Termina el combate.",
		"El máster devuelve el token a Ana: su próxima tirada baja un nivel.",
		"Amanece un nuevo día: las especializaciones vuelven a estar disponibles.",
		"Ana gana 10 PX.",
	} {
		require.Contains(t, all, want)
	}
	allEN := strings.Join(en, "\n")
	for _, want := range []string{
		"Campaign «Dunas» created (system ryf, with Carisma, hard defense).",
		"Weapon defined: Lanza (Armas cuerpo a cuerpo, damage 1d10, precision +1).",
		"Round 2.", "Combat ends.", "Ana earns 10 XP.",
		"Opposed roll Ana against Bo: ",
	} {
		require.Contains(t, allEN, want)
	}
	require.Contains(t, allEN, "Sigilo", "rule names stay Spanish")
	require.Contains(t, allEN, "media", "difficulty names stay Spanish")
}
