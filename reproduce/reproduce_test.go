package reproduce_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/command/recordtest"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/memstore"
	"github.com/campaign-journal/journal/replay"
	"github.com/campaign-journal/journal/reproduce"
)

// recorder records sessions deterministically (package recordtest).
type recorder = recordtest.Recorder

func newRecorder(t *testing.T, campaign string) *recorder { return recordtest.New(t, campaign) }

// ryfSession records a whole RyF session: set-up, rolls of every kind, a
// contest, a fight to unconsciousness, healing, XP and a skill raise, the
// session's end, and a rest after it.
func ryfSession(t *testing.T) *recorder {
	t.Helper()
	r := newRecorder(t, "mordor")
	ctx, j, c := r.Ctx, r.J, r.Campaign
	r.Do("campaign", func() (command.Result, error) {
		return j.CreateCampaign(ctx, command.CreateCampaign{ID: c, Name: "La torre", System: "ryf"})
	})
	r.Do("weapon", func() (command.Result, error) {
		return j.DefineWeapon(ctx, c, events.WeaponDefined{Name: "Ballesta", Skill: "Armas a distancia", Damage: "1d10", Short: 20, Medium: 50, Long: 100, Magazine: 1})
	})
	r.Do("skill", func() (command.Result, error) { return j.DefineSkill(ctx, c, "Cocina", "I") })
	for _, req := range []command.CreateCharacter{
		{ID: "lodin", Name: "Lodin", Player: "ana", Attributes: "F=8,R=7,D=9,I=8,P=8",
			Skills: "Armas cuerpo a cuerpo=5,Pelea=4,Sigilo=5,Atletismo=3,Buscar=3", Specialization: "Sigilo", Weapons: []string{"Espada"}},
		{ID: "ruisenor", Name: "Ruiseñor", Player: "bea", Attributes: "F=6,R=8,D=10,I=8,P=8",
			Skills: "Armas a distancia=5,Advertir/Notar=5,Pelea=3,Cocina=2", Specialization: "Armas a distancia", Weapons: []string{"Ballesta"}},
		{ID: "orco", Name: "Orco", NPC: true, Attributes: "F=7,R=4,D=5,I=3,P=4",
			Skills: "Pelea=4,Armas cuerpo a cuerpo=3,Advertir/Notar=2", Weapons: []string{"Hacha"}},
	} {
		r.Do("character "+req.ID, func() (command.Result, error) { return j.CreateCharacter(ctx, c, req) })
	}
	r.Do("session", func() (command.Result, error) { return j.StartSession(ctx, c, "s1", "La torre") })
	r.Do("spec roll", func() (command.Result, error) {
		return j.Roll(ctx, c, command.RollRequest{Character: "lodin", Skill: "sigilo", Vs: "media", Specialization: true, Entropy: "ana-1"})
	})
	r.Do("token roll", func() (command.Result, error) {
		return j.Roll(ctx, c, command.RollRequest{Character: "ruisenor", Skill: "advertir", Vs: "dificil", Token: true, Modifier: 2})
	})
	r.Do("token return", func() (command.Result, error) { return j.ReturnToken(ctx, c, "ruisenor") })
	r.Do("roll after return", func() (command.Result, error) {
		return j.Roll(ctx, c, command.RollRequest{Character: "ruisenor", Skill: "cocina", Attribute: "P", Vs: "17"})
	})
	r.Do("attribute roll", func() (command.Result, error) {
		return j.Roll(ctx, c, command.RollRequest{Character: "lodin", Attribute: "F", Vs: "25"})
	})
	r.Do("contest", func() (command.Result, error) {
		return j.Contest(ctx, c, command.ContestRequest{A: "lodin", SkillA: "sigilo", B: "orco", SkillB: "P", EntropyA: "x"})
	})
	r.Do("damage", func() (command.Result, error) { return j.Damage(ctx, c, "lodin", 3, "orco") })
	r.Do("heal", func() (command.Result, error) { return j.Heal(ctx, c, "lodin", 1) })
	r.Do("combat", func() (command.Result, error) {
		return j.StartCombat(ctx, c, []string{"lodin", "ruisenor", "orco"}, "init")
	})
	r.Do("damage in combat", func() (command.Result, error) { return j.Damage(ctx, c, "ruisenor", 4, "") })
	for round := 0; round < 30; round++ {
		camp, err := j.Load(ctx, c, 0)
		require.NoError(t, err)
		if !up(camp.Characters["orco"].Status) {
			break
		}
		for _, id := range camp.Combat.Order {
			camp, err := j.Load(ctx, c, 0)
			require.NoError(t, err)
			if !up(camp.Characters[id].Status) || !up(camp.Characters["orco"].Status) {
				continue
			}
			req := command.AttackRequest{Attacker: id, Target: "orco"}
			switch id {
			case "orco":
				req.Target = "lodin"
			case "ruisenor":
				req.Range = "corta"
				if camp.Characters[id].ShotsFired["Ballesta"] > 0 {
					r.Do("reload", func() (command.Result, error) { return j.Reload(ctx, c, id, "") })
				}
			}
			r.Do("attack", func() (command.Result, error) { return j.Attack(ctx, c, req) })
		}
		r.Do("round", func() (command.Result, error) { return j.NextRound(ctx, c) })
	}
	r.Do("combat end", func() (command.Result, error) { return j.EndCombat(ctx, c) })
	camp, err := j.Load(ctx, c, 0)
	require.NoError(t, err)
	if camp.Characters["ruisenor"].ShotsFired["Ballesta"] > 0 {
		r.Do("reload", func() (command.Result, error) { return j.Reload(ctx, c, "ruisenor", "Ballesta") })
	}
	for _, id := range []string{"lodin", "ruisenor"} {
		if camp.LastCombat.DamageTaken[id] > 0 {
			r.Do("heal after", func() (command.Result, error) { return j.HealAfterCombat(ctx, c, id, "") })
		}
	}
	r.Do("xp", func() (command.Result, error) { return j.GrantXP(ctx, c, "lodin", 7) })
	r.Do("raise", func() (command.Result, error) { return j.RaiseSkill(ctx, c, "lodin", "sigilo") })
	r.Do("day", func() (command.Result, error) { return j.NewDay(ctx, c) })
	res := r.Do("late roll", func() (command.Result, error) {
		return j.Roll(ctx, c, command.RollRequest{Character: "lodin", Skill: "buscar"})
	})
	r.Do("void", func() (command.Result, error) { return j.Void(ctx, c, res.Events[0].Event.ID, "rolled by mistake") })
	r.Do("end", func() (command.Result, error) { return j.EndSession(ctx, c) })
	r.Do("rest", func() (command.Result, error) { return j.Rest(ctx, c, true) })
	return r
}

func up(status string) bool { return status == "ok" || status == "incapacitated" }

func TestReproduceRyFSessionIsIdentical(t *testing.T) {
	r := ryfSession(t)
	ctx := context.Background()
	for name, src := range map[string]replay.Source{
		"export": replay.JSONLBytes(r.Export()),
		"store":  replay.Records(r.Records()),
	} {
		t.Run(name, func(t *testing.T) {
			rep, err := reproduce.Run(ctx, src, replay.Options{})
			require.NoError(t, err)
			if !rep.OK() {
				var buf bytes.Buffer
				require.NoError(t, rep.WriteText(&buf))
				t.Fatalf("reproduction differs:\n%s", buf.String())
			}
			if len(rep.Sessions) != 1 || rep.Sessions[0].Status != reproduce.StatusIdentical || rep.Sessions[0].SeedSource != "revealed" {
				t.Fatalf("sessions = %+v", rep.Sessions)
			}
			s := rep.Sessions[0]
			if s.Rolls < 10 || s.Identical != s.Rolls {
				t.Fatalf("rolls identical %d of %d", s.Identical, s.Rolls)
			}
			camp := rep.Campaigns[0]
			if camp.Reproduced != camp.Events || camp.Copied != 0 || camp.Skipped != 0 || !camp.SheetsIdentical || camp.Characters != 3 {
				t.Fatalf("campaign = %+v", camp)
			}
			if len(camp.Transcript) != camp.Events {
				t.Fatalf("transcript has %d lines for %d events", len(camp.Transcript), camp.Events)
			}
			var buf bytes.Buffer
			require.NoError(t, rep.WriteText(&buf))
			out := buf.String()
			for _, want := range []string{"session mordor/s1: identical", "transcript of the reproduction", "Empieza el combate", "IDENTICAL:"} {
				if !strings.Contains(out, want) {
					t.Fatalf("text lacks %q:\n%s", want, out)
				}
			}
		})
	}
}

// tamper changes the data of the n-th roll line of an export.
func tamper(t *testing.T, export []byte, nth int, change func(d map[string]any)) ([]byte, string, uint64) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(string(export)), "\n")
	seen := 0
	for i, line := range lines {
		e, err := events.Decode([]byte(line))
		require.NoError(t, err)
		if e.Type != events.TypeRollMade {
			continue
		}
		if seen++; seen < nth {
			continue
		}
		var d map[string]any
		require.NoError(t, json.Unmarshal(e.Data, &d))
		change(d)
		e.Data, err = json.Marshal(d)
		require.NoError(t, err)
		b, err := events.Encode(e)
		require.NoError(t, err)
		lines[i] = string(b)
		return []byte(strings.Join(lines, "\n") + "\n"), e.ID, uint64(d["nonce"].(float64))
	}
	t.Fatalf("no roll %d in the export", nth)
	return nil, "", 0
}

func TestReproduceFindsATamperedFace(t *testing.T) {
	r := ryfSession(t)
	bad, id, nonce := tamper(t, r.Export(), 3, func(d map[string]any) {
		faces := d["faces"].([]any)
		faces[0] = float64(int(faces[0].(float64))%10 + 1)
	})
	rep, err := reproduce.Run(context.Background(), replay.JSONLBytes(bad), replay.Options{})
	require.NoError(t, err)
	if rep.OK() || rep.Sessions[0].Status != reproduce.StatusDifferent {
		t.Fatalf("a tampered face reproduced identically: %+v", rep.Totals)
	}
	m := rep.Sessions[0].Mismatches[0]
	if m.Kind != reproduce.MismatchReproduced || m.EventID != id || m.Nonce == nil || *m.Nonce != nonce || !strings.Contains(m.What, "faces recorded") {
		t.Fatalf("first difference = %+v, want faces of event %s nonce %d", m, id, nonce)
	}
	var buf bytes.Buffer
	require.NoError(t, rep.WriteText(&buf))
	if out := buf.String(); !strings.Contains(out, id) || !strings.Contains(out, "DIFFERENT:") {
		t.Fatalf("text does not name event %s:\n%s", id, out)
	}
}

func TestReproduceOneSessionAndUnrevealed(t *testing.T) {
	r := ryfSession(t)
	ctx, j := r.Ctx, r.J
	_, err := j.StartSession(ctx, "mordor", "s2", "")
	require.NoError(t, err)
	_, err = j.Roll(ctx, "mordor", command.RollRequest{Character: "lodin", Skill: "pelea"})
	require.NoError(t, err)
	export := r.Export()

	// The open session is not yet revealed: not a failure.
	rep, err := reproduce.Run(ctx, replay.JSONLBytes(export), replay.Options{})
	require.NoError(t, err)
	if !rep.OK() || rep.Totals.SessionsUnrevealed != 1 || rep.Totals.SessionsIdentical != 1 || rep.Campaigns[0].Skipped != 2 {
		t.Fatalf("totals %+v, campaign %+v", rep.Totals, rep.Campaigns[0])
	}

	// With its seed given, it reproduces too; --session keeps its transcript.
	seed, err := r.Store.GetSecret(ctx, "seed.mordor.s2")
	require.NoError(t, err)
	rep, err = reproduce.Run(ctx, replay.JSONLBytes(export), replay.Options{Session: "s2", Seeds: map[string]string{"s2": hexOf(seed)}})
	require.NoError(t, err)
	if !rep.OK() || len(rep.Sessions) != 1 || rep.Sessions[0].Session != "s2" || rep.Sessions[0].SeedSource != "given" || rep.Sessions[0].Rolls != 1 {
		t.Fatalf("sessions %+v totals %+v", rep.Sessions, rep.Totals)
	}
	if tr := rep.Campaigns[0].Transcript; len(tr) != 2 || tr[0].Session != "s2" {
		t.Fatalf("transcript of s2 = %+v", tr)
	}

	// Only s1: it stops after s1's end.
	rep, err = reproduce.Run(ctx, replay.JSONLBytes(export), replay.Options{Session: "s1"})
	require.NoError(t, err)
	if !rep.OK() || len(rep.Sessions) != 1 || rep.Campaigns[0].Skipped == 0 {
		t.Fatalf("sessions %+v campaign %+v", rep.Sessions, rep.Campaigns[0])
	}

	_, err = reproduce.Run(ctx, replay.JSONLBytes(export), replay.Options{Session: "s9"})
	if !errors.Is(err, replay.ErrNotFound) {
		t.Fatalf("unknown session: err = %v", err)
	}
	_, err = reproduce.Run(ctx, replay.JSONLBytes(export), replay.Options{Seeds: map[string]string{"s2": "zz"}})
	if !errors.Is(err, replay.ErrInvalidOptions) {
		t.Fatalf("bad seed: err = %v", err)
	}
}

func TestReproduceFindsAnEditedTotalAndAForgedEvent(t *testing.T) {
	r := ryfSession(t)
	bad, id, _ := tamper(t, r.Export(), 1, func(d map[string]any) { d["total"] = d["total"].(float64) + 5 })
	rep, err := reproduce.Run(context.Background(), replay.JSONLBytes(bad), replay.Options{})
	require.NoError(t, err)
	if rep.OK() || rep.Totals.Mismatches != 1 || rep.Sessions[0].Mismatches[0].EventID != id ||
		!strings.Contains(rep.Sessions[0].Mismatches[0].What, "total recorded") {
		t.Fatalf("an edited total: %+v", rep.Sessions[0].Mismatches)
	}

	// XP granted twice in one session: the second is refused on re-run,
	// copied, and the sheets still agree with the record.
	recs := r.Records()
	var forged events.Event
	for i, x := range recs {
		if x.Event.Type == events.TypeXPGranted {
			forged = x.Event
			id, err := events.NewV7(func() time.Time { return x.Event.Time }, rand.NewChaCha8([32]byte{1})).NewID()
			require.NoError(t, err)
			forged.ID = id
			recs = append(recs[:i+1], append([]events.Recorded{{Subject: x.Subject, Event: forged}}, recs[i+1:]...)...)
			break
		}
	}
	rep, err = reproduce.Run(context.Background(), replay.Records(recs), replay.Options{})
	require.NoError(t, err)
	if rep.OK() || rep.Sessions[0].Mismatches[0].Kind != reproduce.MismatchRefused || rep.Sessions[0].Mismatches[0].EventID != forged.ID {
		t.Fatalf("a forged xp grant: %+v", rep.Sessions[0].Mismatches)
	}
	if !rep.Campaigns[0].SheetsIdentical || rep.Campaigns[0].Copied != 1 {
		t.Fatalf("campaign = %+v", rep.Campaigns[0])
	}
}

func hexOf(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 2*len(b))
	for _, c := range b {
		out = append(out, digits[c>>4], digits[c&15])
	}
	return string(out)
}

func TestReproduceTORSession(t *testing.T) {
	r := newRecorder(t, "arda")
	ctx, j, c := r.Ctx, r.J, r.Campaign
	r.Do("campaign", func() (command.Result, error) {
		return j.CreateCampaign(ctx, command.CreateCampaign{ID: c, System: "tor"})
	})
	for _, req := range []command.CreateCharacter{
		{ID: "bilbo", Name: "Bilbo", Player: "ana", Culture: "Hobbits de la Comarca", MaxHope: 12,
			Attributes: "Cuerpo=3/5,Corazón=6/8,Mente=5/7", Skills: "Atención=3*,Sigilo=3,Acertijos=2*,Buscar=1",
			Traits: []string{"Ladrón", "Ojo avizor"}},
		{ID: "thorin", Name: "Thorin", Player: "bea", Culture: "Enanos de Erebor", MaxHope: 10,
			Attributes: "Cuerpo=7/9,Corazón=5/7,Mente=2/4", Skills: "Guerrear=3*,Atletismo=2"},
		{ID: "sam", Name: "Sam", Player: "carla", Culture: "hobbit", MaxHope: 8,
			Attributes: "Cuerpo=4/6,Corazón=6/8,Mente=3/5", Skills: "Curar=2"},
	} {
		r.Do("character "+req.ID, func() (command.Result, error) { return j.CreateCharacter(ctx, c, req) })
	}
	r.Do("session", func() (command.Result, error) { return j.StartSession(ctx, c, "", "") })
	r.Do("adventure", func() (command.Result, error) { return j.StartAdventure(ctx, c, "El camino") })
	var failed events.Recorded
	for range 40 {
		res := r.Do("roll", func() (command.Result, error) {
			return j.Roll(ctx, c, command.RollRequest{Character: "bilbo", Skill: "atencion", TN: ptr(20), Entropy: "ana"})
		})
		var d events.RollMade
		require.NoError(t, res.Events[0].Event.DecodeData(&d))
		if d.Outcome == "failure" {
			failed = res.Events[0]
			break
		}
	}
	require.NotEmpty(t, failed.Event.ID)
	r.Do("hope", func() (command.Result, error) { return j.SpendHope(ctx, c, "bilbo", failed.Event.ID) })
	r.Do("shadow", func() (command.Result, error) { return j.GainShadow(ctx, c, "sam", 2, "un mal lugar") })
	r.Do("trait", func() (command.Result, error) {
		return j.InvokeTrait(ctx, c, command.TraitRequest{Character: "bilbo", Trait: "ojo"})
	})
	res := r.Do("trait roll", func() (command.Result, error) {
		return j.Roll(ctx, c, command.RollRequest{Character: "bilbo", Skill: "Buscar", TN: ptr(1)})
	})
	r.Do("trait roll 2", func() (command.Result, error) {
		return j.Roll(ctx, c, command.RollRequest{Character: "thorin", Skill: "Atletismo", TN: ptr(10), Trait: ""})
	})
	r.Do("advancement", func() (command.Result, error) {
		return j.GrantAdvancement(ctx, c, "bilbo", "Buscar", "")
	})
	_ = res
	r.Do("ask", func() (command.Result, error) { return j.RequestFellowship(ctx, c, "bilbo") })
	r.Do("vote", func() (command.Result, error) { return j.Vote(ctx, c, "bilbo", "thorin", true) })
	r.Do("vote 2", func() (command.Result, error) { return j.Vote(ctx, c, "bilbo", "sam", false) })
	r.Do("phase", func() (command.Result, error) { return j.FellowshipPhase(ctx, c) })
	r.Do("end", func() (command.Result, error) { return j.EndSession(ctx, c) })

	rep, err := reproduce.Run(ctx, replay.JSONLBytes(r.Export()), replay.Options{})
	require.NoError(t, err)
	if !rep.OK() || rep.Totals.SessionsIdentical != 1 || rep.Campaigns[0].Copied != 0 || !rep.Campaigns[0].SheetsIdentical {
		var buf bytes.Buffer
		require.NoError(t, rep.WriteText(&buf))
		t.Fatalf("TOR reproduction:\n%s", buf.String())
	}
}

// TestAnchoredCampaignReproduces: a campaign of an earlier journal (its
// events stored without prevhash), anchored by its next command, verifies
// and reproduces: the reproduction copies the anchor where the record has
// it, and records none of its own.
func TestAnchoredCampaignReproduces(t *testing.T) {
	r := ryfSession(t)
	ctx := context.Background()
	old := memstore.New(memstore.Options{})
	for _, x := range r.Records() {
		e := x.Event
		e.PrevHash = "" // as an earlier journal stored a v1 campaign
		_, err := old.Append(ctx, events.Expect{}, e)
		require.NoError(t, err)
	}
	j := command.New(old, command.Options{Clock: func() time.Time { return time.Date(2026, 12, 2, 20, 0, 0, 0, time.UTC) }})
	_, err := j.NewDay(ctx, r.Campaign)
	require.NoError(t, err)
	var recs []events.Recorded
	require.NoError(t, old.Read(ctx, events.Query{}, func(x events.Recorded) error { recs = append(recs, x); return nil }))
	require.Equal(t, events.TypeChainAnchored, recs[len(recs)-2].Event.Type)

	rep, err := replay.Verify(ctx, replay.Records(recs), replay.Options{})
	require.NoError(t, err)
	require.True(t, rep.OK(), "%+v", rep.Mismatches)
	rp, err := reproduce.Run(ctx, replay.Records(recs), replay.Options{})
	require.NoError(t, err)
	var text bytes.Buffer
	require.NoError(t, rp.WriteText(&text))
	require.True(t, rp.OK(), text.String())
	require.Equal(t, 1, rp.Totals.Copied, "the anchor is copied, nothing else")
}

// ptr is a pointer to v (a TN given).
func ptr[T any](v T) *T { return &v }
