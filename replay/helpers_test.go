package replay_test

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/rolls"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/rules/ryf"
	"github.com/campaign-journal/journal/rules/tor"
)

// world builds the events of a campaign the way the journal records them,
// without the command layer: real commitments, real streams, real rules.
type world struct {
	t        testing.TB
	ids      events.IDs
	at       time.Time
	campaign string
	system   string
	rules    *ryf.Rules
	chars    map[string]ryf.Character
	evs      []events.Event
	// sink, when set, receives events instead of evs (for large sessions).
	sink func(events.Event)
}

// fixedIDs returns a deterministic UUID v7 generator: a fixed clock and a
// seeded ChaCha8 reader.
func fixedIDs(seed byte) events.IDs {
	var s [32]byte
	s[0] = seed
	at := time.Date(2025, 3, 1, 18, 0, 0, 0, time.UTC)
	return events.NewV7(func() time.Time { return at }, rand.NewChaCha8(s))
}

// seedOf returns a deterministic session seed.
func seedOf(n byte) dice.Seed {
	var s dice.Seed
	for i := range s {
		s[i] = n + byte(i)*7
	}
	return s
}

// newWorld starts a campaign: campaign-created and three characters.
func newWorld(t testing.TB, campaign, system string, idSeed byte) *world {
	t.Helper()
	w := &world{
		t: t, ids: fixedIDs(idSeed), at: time.Date(2025, 3, 1, 18, 0, 0, 0, time.UTC),
		campaign: campaign, system: system, chars: map[string]ryf.Character{},
	}
	if system != "tor" {
		r, err := ryf.New(ryf.Options{System: ryf.System(system)})
		require.NoError(t, err)
		w.rules = r
	}
	w.event(events.KindCampaign, campaign, "created", events.TypeCampaignCreated, "",
		events.CampaignCreated{Name: "Campaña " + campaign, System: system})
	if system == "tor" {
		for i, c := range []string{"frodo", "bilbo"} {
			w.event(events.KindCharacter, c, "created", events.TypeTORCharacterCreated, "", events.TORCharacterCreated{
				Name: c, Player: []string{"ana", "bea"}[i], Culture: "hobbit", Hobbit: true,
				Attributes: events.TORAttributes{
					Cuerpo:  events.TORScore{Basic: 3, Favoured: 5},
					Corazon: events.TORScore{Basic: 6, Favoured: 8},
					Mente:   events.TORScore{Basic: 5, Favoured: 7},
				},
				Skills: map[string]events.TORSkill{"Saber": {Rank: 3, Favoured: true}},
				Hope:   14, MaxHope: 14,
			})
		}
		return w
	}
	w.character("lodin", "ana", ryf.Character{
		Attributes:     map[ryf.Attr]int{ryf.Fuerza: 8, ryf.Resistencia: 7, ryf.Destreza: 9, ryf.Inteligencia: 8, ryf.Percepcion: 8},
		Skills:         map[string]int{"Pelea": 5, "Sigilo": 3, "Armas cuerpo a cuerpo": 4, "Buscar": 2},
		Specialization: "Sigilo",
	})
	w.character("mara", "bea", ryf.Character{
		Attributes:     map[ryf.Attr]int{ryf.Fuerza: 6, ryf.Resistencia: 8, ryf.Destreza: 8, ryf.Inteligencia: 9, ryf.Percepcion: 9},
		Skills:         map[string]int{"Medicina": 5, "Buscar": 4, "Armas a distancia": 3},
		Specialization: "Medicina",
	})
	w.character("orco", "gm", ryf.Character{
		Attributes: map[ryf.Attr]int{ryf.Fuerza: 9, ryf.Resistencia: 6, ryf.Destreza: 6, ryf.Inteligencia: 3, ryf.Percepcion: 5},
		Skills:     map[string]int{"Armas cuerpo a cuerpo": 4, "Pelea": 3},
		NPC:        true,
	})
	return w
}

func (w *world) character(id, player string, c ryf.Character) {
	attrs := map[string]int{}
	for a, v := range c.Attributes {
		attrs[string(a)] = v
	}
	w.chars[id] = c
	w.event(events.KindCharacter, id, "created", events.TypeCharacterCreated, "", events.CharacterCreated{
		Name: id, Player: player, NPC: c.NPC, Attributes: attrs, Skills: c.Skills,
		Specialization: c.Specialization, MaxHP: c.MaxHP(),
	})
}

// event builds, validates and keeps one event.
func (w *world) event(kind events.Kind, agg, name, typ, session string, data any) events.Event {
	w.t.Helper()
	w.at = w.at.Add(time.Second)
	ev, err := events.New(events.Spec{
		Campaign: w.campaign, Kind: kind, AggregateID: agg, Name: name, Type: typ,
		Session: session, Actor: "gm", Data: data,
	}, w.ids, w.at)
	require.NoError(w.t, err)
	if w.sink != nil {
		w.sink(ev)
	} else {
		w.evs = append(w.evs, ev)
	}
	return ev
}

// session is an open session of a world.
type session struct {
	w     *world
	id    string
	seed  dice.Seed
	key   *dice.Key
	nonce uint64
}

func (w *world) start(id string, seed dice.Seed) *session {
	w.event(events.KindSession, id, "started", events.TypeSessionStarted, id,
		events.SessionStarted{Title: "Sesión " + id, Algorithm: dice.Algorithm, Commitment: seed.Commitment()})
	return &session{w: w, id: id, seed: seed, key: dice.NewKey(seed)}
}

func (s *session) stream(entropy string) *dice.Stream {
	return s.key.Stream(s.w.campaign, s.id, s.nonce, entropy)
}

// roll records a roll event at the session's next nonce.
func (s *session) roll(char string, rm events.RollMade, entropy string) events.Event {
	s.w.t.Helper()
	rm.Character, rm.Nonce, rm.Entropy = char, s.nonce, entropy
	s.nonce++
	return s.w.event(events.KindCharacter, char, "roll", events.TypeRollMade, s.id, rm)
}

// check rolls a 1o3d10 check from the stream.
func (s *session) check(char string, chk ryf.Check, entropy string) events.Event {
	s.w.t.Helper()
	res, err := ryf.Roll(chk, s.stream(entropy))
	require.NoError(s.w.t, err)
	rm := rolls.FromRyF(s.w.system, res)
	if chk.Difficulty != nil {
		rm.DifficultyName = ryf.DifficultyName(*chk.Difficulty)
	}
	return s.roll(char, rm, entropy)
}

// skill rolls a character's skill against a difficulty.
func (s *session) skill(char, skill string, difficulty int) events.Event {
	s.w.t.Helper()
	chk, err := s.w.rules.SkillCheck(s.w.chars[char], skill, "")
	require.NoError(s.w.t, err)
	return s.check(char, chk.WithDifficulty(difficulty), "")
}

// damage rolls damage dice.
func (s *session) damage(char, diceText string, critical bool) events.Event {
	s.w.t.Helper()
	d, err := ryf.ParseDamage(diceText)
	require.NoError(s.w.t, err)
	dr, err := ryf.RollDamage(d, critical, s.stream(""))
	require.NoError(s.w.t, err)
	return s.roll(char, rolls.FromDamage(s.w.system, dr), "")
}

// heal rolls the after-combat d6.
func (s *session) heal(char string) events.Event {
	s.w.t.Helper()
	f, err := s.stream("").Roll(6)
	require.NoError(s.w.t, err)
	return s.roll(char, rolls.FromHeal(s.w.system, ryf.AfterCombat{Face: f}), "")
}

// torRoll rolls a One Ring skill.
func (s *session) torRoll(char string, rank, tn int, entropy string) events.Event {
	s.w.t.Helper()
	res, err := tor.Roll(s.stream(entropy), rank, tn)
	require.NoError(s.w.t, err)
	rm := rolls.FromTOR(res)
	rm.Skill = "Saber"
	return s.roll(char, rm, entropy)
}

// damageTaken records damage dealt by source to char.
func (s *session) damageTaken(char, source string, amount int) events.Event {
	return s.w.event(events.KindCharacter, char, "damaged", events.TypeDamageTaken, s.id,
		events.DamageTaken{Character: char, Amount: amount, Source: source})
}

// void voids an event.
func (s *session) void(id, reason string) events.Event {
	return s.w.event(events.KindSession, s.id, "voided", events.TypeEventVoided, s.id,
		events.EventVoided{EventID: id, Reason: reason})
}

// end reveals the seed.
func (s *session) end() events.Event {
	return s.w.event(events.KindSession, s.id, "ended", events.TypeSessionEnded, s.id,
		events.SessionEnded{Seed: s.seed.String(), Rolls: int(s.nonce)})
}

// honest plays a short honest session: skill rolls, an attack with damage,
// an initiative, an attribute roll, healing.
func (s *session) honest(n int) []events.Event {
	s.w.t.Helper()
	var out []events.Event
	skills := []struct{ char, skill string }{{"lodin", "Sigilo"}, {"lodin", "Pelea"}, {"mara", "Medicina"}, {"mara", "Buscar"}, {"orco", "Pelea"}}
	for i := range n {
		switch i % 6 {
		case 0, 1, 2:
			sk := skills[i%len(skills)]
			out = append(out, s.skill(sk.char, sk.skill, []int{ryf.Facil, ryf.Media, ryf.Dificil}[i%3]))
		case 3:
			chk, err := s.w.rules.InitiativeCheck(s.w.chars["mara"])
			require.NoError(s.w.t, err)
			out = append(out, s.check("mara", chk, "mara"))
		case 4:
			out = append(out, s.damage("orco", "1d10", false))
			out = append(out, s.damageTaken("lodin", "orco", 4))
		case 5:
			chk, err := s.w.rules.AttributeCheck(s.w.chars["lodin"], ryf.Fuerza)
			require.NoError(s.w.t, err)
			out = append(out, s.check("lodin", chk.WithDifficulty(ryf.Media), ""))
		}
	}
	return out
}

// rollOf decodes a roll event's data.
func rollOf(t testing.TB, ev events.Event) events.RollMade {
	t.Helper()
	var rm events.RollMade
	require.NoError(t, ev.DecodeData(&rm))
	return rm
}

// withData returns ev with its data replaced: the same id, edited content.
func withData(t testing.TB, ev events.Event, data any) events.Event {
	t.Helper()
	b, err := json.Marshal(data)
	require.NoError(t, err)
	ev.Data = b
	require.NoError(t, ev.Validate())
	return ev
}

// editRoll returns ev with its roll data edited by f.
func editRoll(t testing.TB, ev events.Event, f func(*events.RollMade)) events.Event {
	t.Helper()
	rm := rollOf(t, ev)
	f(&rm)
	return withData(t, ev, rm)
}

// rejudged returns rm with every rule-derived field as the rules make it of
// rm's faces: a consistent forgery.
func rejudged(rm events.RollMade) (events.RollMade, error) {
	want, err := rolls.Rejudge(rm)
	if err != nil {
		return rm, err
	}
	rm.Total, rm.Outcome, rm.Kept, rm.DiePart, rm.Base, rm.Level = want.Total, want.Outcome, want.Kept, want.DiePart, want.Base, want.Level
	rm.Critical, rm.Fumble, rm.Natural1, rm.Exploded = want.Critical, want.Fumble, want.Natural1, want.Exploded
	rm.Eye, rm.Rune, rm.Quality, rm.Feat = want.Eye, want.Rune, want.Quality, want.Feat
	return rm, nil
}

// newID returns a fresh event id.
func (w *world) newID() string {
	w.t.Helper()
	id, err := w.ids.NewID()
	require.NoError(w.t, err)
	return id
}

// without returns evs without the event of the given id.
func without(evs []events.Event, id string) []events.Event {
	var out []events.Event
	for _, e := range evs {
		if e.ID != id {
			out = append(out, e)
		}
	}
	return out
}

// replace returns evs with the event of ev's id replaced by ev.
func replace(evs []events.Event, ev events.Event) []events.Event {
	out := append([]events.Event(nil), evs...)
	for i := range out {
		if out[i].ID == ev.ID {
			out[i] = ev
		}
	}
	return out
}

// insertAfter returns evs with ev inserted after the event of the given id.
func insertAfter(evs []events.Event, id string, ev events.Event) []events.Event {
	var out []events.Event
	for _, e := range evs {
		out = append(out, e)
		if e.ID == id {
			out = append(out, ev)
		}
	}
	return out
}
