package reproduce_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/command/catalog"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/replay"
	"github.com/campaign-journal/journal/reproduce"
)

// catalogSessions records, through the catalogue (as the HTTP API, the
// NATS service and the CLI run commands), a RyF session and a One Ring
// session that between them run every catalogued command. Steps whose
// outcome depends on the dice may be refused by the rules.
func catalogSessions(t *testing.T) *recorder {
	t.Helper()
	r := newRecorder(t, "mordor")
	run := func(campaign, name, body string, mayFail bool) command.Result {
		t.Helper()
		s, ok := catalog.Lookup(name)
		require.True(t, ok, name)
		res, err := s.Run(r.Ctx, r.J, command.Call{}, campaign, []byte(body))
		if mayFail && errors.Is(err, command.ErrInvalid) {
			return res
		}
		require.NoError(t, err, "%s %s", name, body)
		return res
	}
	m := func(name, body string) command.Result { t.Helper(); return run("mordor", name, body, false) }
	m("campaign-create", `{"name":"La torre de Mordor","system":"ryf"}`)
	for _, body := range []string{
		`{"id":"lodin","name":"Lodin","player":"Ana","attributes":"F=8,R=7,D=9,I=8,P=8","skills":"Pelea=5,Sigilo=3,Armas cuerpo a cuerpo=5,Buscar=4","specialization":"Sigilo","weapons":["Espada"]}`,
		`{"id":"ruisenor","name":"Ruiseñor","player":"Bea","attributes":"F=6,R=8,D=10,I=8,P=8","skills":"Armas a distancia=5,Advertir/Notar=5,Pelea=3,Medicina=2","specialization":"Armas a distancia","weapons":["Revólver"]}`,
		`{"id":"orco","name":"Orco","npc":true,"attributes":"F=7,R=4,D=5,I=3,P=4","skills":"Pelea=4,Armas cuerpo a cuerpo=3,Advertir/Notar=2","weapons":["Hacha"]}`,
	} {
		m("character-create", body)
	}
	m("weapon-define", `{"name":"Garrote","skill":"Armas cuerpo a cuerpo","damage":"1d6","precision":0}`)
	m("skill-define", `{"name":"Navegar","attribute":"P"}`)
	m("session-start", `{"id":"s1","title":"La torre"}`)
	m("roll", `{"character":"lodin","skill":"sigilo","vs":"media","entropy":"ana-1"}`)
	m("roll", `{"character":"ruisenor","skill":"advertir","token":true}`)
	m("token-return", `{"character":"ruisenor"}`)
	m("roll", `{"character":"lodin","attribute":"F","vs":"25"}`)
	m("free-roll", `{"character":"lodin","dice":"2d10+3","note":"trampa","entropy":"ana-2"}`)
	m("free-roll", `{"dice":"1d6"}`)
	hidden := m("roll", `{"character":"orco","skill":"advertir","vs":"media","secret":true}`)
	m("free-roll", `{"dice":"3d6-2","secret":true,"note":"emboscada"}`)
	m("reveal", `{"request":"`+hidden.Events[0].Event.ID+`"}`)
	m("contest", `{"a":"lodin","skill_a":"sigilo","b":"orco","skill_b":"advertir"}`)
	m("combat-start", `{"participants":["ruisenor","orco"]}`)
	c, err := r.J.Load(r.Ctx, "mordor", 0)
	require.NoError(t, err)
	for _, id := range c.Combat.Order {
		if id == "orco" {
			if c, err := r.J.Load(r.Ctx, "mordor", 0); err == nil && !up(c.Characters["orco"].Status) {
				continue // shot down before its turn
			}
			m("attack", `{"attacker":"orco","target":"ruisenor"}`)
		} else {
			m("attack", `{"attacker":"ruisenor","target":"orco","range":"corta"}`)
		}
	}
	m("damage", `{"character":"ruisenor","amount":5,"source":"orco"}`)
	m("heal", `{"character":"ruisenor","amount":1}`)
	m("reload", `{"character":"ruisenor"}`)
	m("combat-round", ``)
	m("combat-end", `{}`)
	m("heal-after-combat", `{"character":"ruisenor","entropy":"bea"}`)
	m("xp", `{"character":"lodin","amount":10}`)
	m("raise", `{"character":"lodin","skill":"Sigilo"}`)
	m("day-new", ``)
	m("session-end", ``)
	m("rest", `{"comfort":true}`)
	v2Session(t, r, m)

	e := func(name, body string) command.Result { t.Helper(); return run("erebor", name, body, false) }
	maybe := func(name, body string) { t.Helper(); run("erebor", name, body, true) }
	e("campaign-create", `{"id":"erebor","name":"La Tierra Media","system":"tor"}`)
	for _, body := range []string{
		`{"id":"bilbo","name":"Bilbo","player":"Ana","culture":"Hobbits de la Comarca","max_hope":12,"attributes":"Cuerpo=3/5,Corazón=6/8,Mente=5/7","skills":"Atención=3*,Sigilo=3*,Acertijos=2,Viajar=2,Buscar=2,Cortesía=1","traits":["Ladrón","Ojo avizor"]}`,
		`{"id":"thorin","name":"Thorin","player":"Bea","culture":"Enanos de Erebor","max_hope":8,"attributes":"Cuerpo=7/9,Corazón=5/7,Mente=2/4","skills":"Guerrear=3*,Impresionar=3,Atletismo=2,Persuadir=1,Saber=1","traits":["Herrero","Orgulloso"]}`,
		`{"id":"balin","name":"Balin","player":"Carlos","culture":"Enanos de Erebor","max_hope":10,"attributes":"Cuerpo=5/7,Corazón=6/8,Mente=4/6","skills":"Explorar=3*,Saber=2,Cortesía=2,Viajar=2","traits":["Erudito"]}`,
	} {
		e("character-create", body)
	}
	e("session-start", `{"id":"t1"}`)
	e("adventure-start", `{"title":"El camino al Este"}`)
	e("trait-invoke", `{"character":"bilbo","trait":"Ojo avizor"}`)
	roll := e("roll", `{"character":"bilbo","skill":"Atención","tn":14,"entropy":"ana"}`)
	fail := func() { // thorin fails a roll (TN 30 fails unless the rune shows) and spends Hope on it
		t.Helper()
		for i := 0; ; i++ {
			res := e("roll", `{"character":"thorin","skill":"Persuadir","tn":30}`)
			p, err := res.Events[0].Event.Payload()
			require.NoError(t, err)
			if p.(*events.RollMade).Outcome == "failure" {
				break
			}
			require.Less(t, i, 20, "twenty runes in a row")
		}
		e("hope-spend", `{"character":"thorin"}`)
	}
	fail()
	e("fellowship-ask", `{"character":"thorin"}`)
	e("fellowship-withdraw", `{"character":"thorin"}`)
	e("fellowship-ask", `{"character":"thorin"}`)
	e("fellowship-vote", `{"character":"thorin","voter":"bilbo","agree":true}`)
	e("fellowship-vote", `{"character":"thorin","voter":"balin","agree":true}`) // granted: the point is spent with the vote
	fail()
	e("fellowship-ask", `{"character":"thorin"}`)
	e("fellowship-vote", `{"character":"thorin","voter":"bilbo","agree":false}`)
	e("fellowship-vote", `{"character":"thorin","voter":"balin","agree":false}`)
	e("fellowship-take", `{"character":"thorin"}`) // refused: taken anyway
	e("shadow-gain", `{"character":"thorin","amount":12,"reason":"la enfermedad del dragón"}`)
	for i := 0; i < 10; i++ {
		e("roll", fmt.Sprintf(`{"character":"thorin","skill":"Saber","tn":20,"entropy":"m%d"}`, i))
	}
	maybe("madness-end", `{"character":"thorin","flaw":"Codicioso"}`)
	e("advancement-grant", `{"character":"balin","group":"Explorar"}`)
	e("void", fmt.Sprintf(`{"event_id":%q,"reason":"tirada repetida"}`, roll.Events[0].Event.ID))
	e("session-end", ``)
	e("fellowship-phase", ``)
	return r
}

// reproduced runs the reproduction of records and fails with its text when
// it differs.
func reproduced(t *testing.T, records []events.Recorded) reproduce.Report {
	t.Helper()
	rp, err := reproduce.Run(context.Background(), replay.Records(records), replay.Options{})
	require.NoError(t, err)
	if !rp.OK() {
		var b strings.Builder
		require.NoError(t, rp.WriteText(&b))
		t.Fatalf("the reproduction differs:\n%s", b.String())
	}
	return rp
}

// TestEveryCatalogedCommandReproduces records every catalogued command
// (each event names its command) and re-runs the sessions by catalogue
// lookup: identical, event by event. The same events without the command
// attribute (as recorded before it) reproduce by guessing, as before.
func TestEveryCatalogedCommandReproduces(t *testing.T) {
	r := catalogSessions(t)
	records := r.Records()
	named := map[string]bool{}
	for _, x := range records {
		require.NotEmpty(t, x.Event.Command, "event %s (%s) names no command", x.Event.ID, x.Event.Type)
		named[x.Event.Command] = true
	}
	for _, name := range catalog.Names() {
		require.True(t, named[name], "command %s: not recorded by this test, so its reproduction is untested", name)
	}
	rp := reproduced(t, records)
	require.Len(t, rp.Sessions, 3) // mordor s1, mordor s2 (journal-dice-v2), erebor t1
	for _, s := range rp.Sessions {
		require.Equal(t, reproduce.StatusIdentical, s.Status, "%s", s.Session)
	}

	// Events recorded before the attribute are v1's: journal-dice-v2's
	// events always name their command.
	var v1 []events.Recorded
	for _, x := range records {
		switch x.Event.Type {
		case events.TypeParticipantRegistered, events.TypeDeviceRegistered, events.TypeDeviceApproved, events.TypeDeviceRevoked:
			continue
		}
		if x.Event.Session != "s2" {
			v1 = append(v1, x)
		}
	}
	base := reproduced(t, v1)
	legacy := slices.Clone(v1)
	for i := range legacy {
		legacy[i].Event.Command = ""
	}
	old := reproduced(t, legacy)
	require.Equal(t, base.Totals.Events, old.Totals.Events)
	require.Equal(t, base.Totals.Rolls, old.Totals.Rolls)
}

// TestReproduceByTheCommandAttribute: the reproduction re-runs what the
// command attribute names, not what the events look like: a group of
// events relabelled as another command re-runs that command (which
// differs), and a name the catalogue does not hold is unmapped.
func TestReproduceByTheCommandAttribute(t *testing.T) {
	r := catalogSessions(t)
	records := r.Records()
	relabel := func(from, to string) []events.Recorded {
		out := slices.Clone(records)
		for i := range out {
			if out[i].Event.Command == from {
				out[i].Event.Command = to
				break
			}
		}
		return out
	}
	for _, tt := range []struct {
		from, to string
		kind     replay.MismatchKind
		what     string
	}{
		{"day-new", "rest", reproduce.MismatchReproduced, `reason recorded "gm", reproduced "rest"`},
		{"heal", "damage", reproduce.MismatchUnmapped, "damage: no damage.taken event"},
		{"xp", "drop-table", reproduce.MismatchUnmapped, `command "drop-table" is not in the catalogue`},
	} {
		rp, err := reproduce.Run(context.Background(), replay.Records(relabel(tt.from, tt.to)), replay.Options{})
		require.NoError(t, err)
		require.False(t, rp.OK(), "%s relabelled %s reproduced identically", tt.from, tt.to)
		var kinds []replay.MismatchKind
		found := false
		for _, s := range rp.Sessions {
			for _, m := range s.Mismatches {
				kinds = append(kinds, m.Kind)
				found = found || (m.Kind == tt.kind && strings.Contains(m.What, tt.what))
			}
		}
		require.True(t, found, "%s as %s: mismatches %v, want a %s naming %q: %+v", tt.from, tt.to, kinds, tt.kind, tt.what, rp.Sessions)
	}
}
