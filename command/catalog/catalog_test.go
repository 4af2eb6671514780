package catalog_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/command/catalog"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/memstore"
)

func TestNamesAreUniqueAndFound(t *testing.T) {
	seen := map[string]bool{}
	for _, name := range catalog.Names() {
		if seen[name] {
			t.Fatalf("command %q listed twice", name)
		}
		seen[name] = true
		if s, ok := catalog.Lookup(name); !ok || s.Name != name {
			t.Fatalf("Lookup(%q) = %v, %v", name, s.Name, ok)
		}
	}
	if _, ok := catalog.Lookup("drop-table"); ok {
		t.Fatal("an unknown command was found")
	}
}

// Bad bodies are refused with ErrInvalid before any handler runs.
func TestBadBodiesRefused(t *testing.T) {
	store := memstore.New(memstore.Options{})
	j := command.New(store, command.Options{})
	roll, _ := catalog.Lookup("roll")
	for _, body := range []string{`{"character":`, `{"character":"a","unknown":1}`, `{"character":"a"} {}`, `{}`, `[1]`} {
		_, err := roll.Run(context.Background(), j, command.Call{}, "c", []byte(body))
		if !errors.Is(err, command.ErrInvalid) {
			t.Errorf("body %s: err = %v, want ErrInvalid", body, err)
		}
	}
}

// The contest and combat-start bodies carry each side's choices and the
// tokens spent on initiative, as the CLI's flags do.
func TestContestAndCombatBodies(t *testing.T) {
	ctx := context.Background()
	store := memstore.New(memstore.Options{})
	j := command.New(store, command.Options{Clock: time.Now, Rand: rand.NewChaCha8([32]byte{3}),
		IDs: events.NewV7(time.Now, rand.NewChaCha8([32]byte{4}))})
	_, err := j.CreateCampaign(ctx, command.CreateCampaign{ID: "c", System: "ryf"})
	require.NoError(t, err)
	for _, req := range []command.CreateCharacter{
		{ID: "a", Player: "ana", Attributes: "F=8,R=7,D=9,I=8,P=8", Skills: "Sigilo=3", Specialization: "Sigilo"},
		{ID: "b", Player: "bea", Attributes: "F=8,R=7,D=9,I=8,P=8", Skills: "Pelea=3", Specialization: "Pelea"},
	} {
		_, err := j.CreateCharacter(ctx, "c", req)
		require.NoError(t, err)
	}
	_, err = j.StartSession(ctx, "c", "", "")
	require.NoError(t, err)
	contest, _ := catalog.Lookup("contest")
	res, err := contest.Run(ctx, j, command.Call{}, "c", []byte(`{"a":"a","skill_a":"sigilo","attribute_a":"P","modifier_a":-1,"token_a":true,"specialization_a":true,
		"b":"b","skill_b":"D","modifier_b":2}`))
	require.NoError(t, err)
	p, err := res.Events[0].Event.Payload()
	require.NoError(t, err)
	a := p.(*events.RollMade)
	require.True(t, a.Token && a.Specialization && a.Opposed)
	require.Equal(t, []any{"P", -1, 8 + 3 - 1}, []any{a.Attribute, a.Modifier, a.Base})
	p, err = res.Events[1].Event.Payload()
	require.NoError(t, err)
	b := p.(*events.RollMade)
	require.Equal(t, []any{"attribute", "D", 2*9 + 2}, []any{b.Kind, b.Attribute, b.Base})

	start, _ := catalog.Lookup("combat-start")
	res, err = start.Run(ctx, j, command.Call{}, "c", []byte(`{"participants":["a","b"],"token":["b"]}`))
	require.NoError(t, err)
	for _, x := range res.Events[:2] {
		p, err := x.Event.Payload()
		require.NoError(t, err)
		r := p.(*events.RollMade)
		require.Equal(t, r.Character == "b", r.Token, r.Character)
	}
	_, err = contest.Run(ctx, j, command.Call{}, "c", []byte(`{"a":"a","skill_a":"F","b":"b","skill_b":"F","legacy":true}`))
	require.ErrorIs(t, err, command.ErrInvalid, "no body may ask for the rules before docs/rules.md 1.5")
	_, err = contest.Run(ctx, j, command.Call{}, "c", []byte(`{"a":"a","skill_a":"sigilo","attr_a":"P","b":"b","skill_b":"F"}`))
	require.ErrorIs(t, err, command.ErrInvalid, "one spelling: attribute_a, as the action's a.attribute")
}

// TestRunRefusesABadCall: a call command.Handler.For refuses (a malformed
// request id, both roles) is refused by Run before the command decides,
// with a valid body, and records nothing; the same body with a good call
// records under the catalogue's name.
func TestRunRefusesABadCall(t *testing.T) {
	ctx := context.Background()
	store := memstore.New(memstore.Options{})
	j := command.New(store, command.Options{})
	create, _ := catalog.Lookup("campaign-create")
	body := []byte(`{"id":"c","system":"ryf"}`)
	for _, c := range []command.Call{{RequestID: "no spaces"}, {GM: true, Player: true}} {
		_, err := create.Run(ctx, j, c, "c", body)
		require.ErrorIs(t, err, command.ErrInvalid, "%+v", c)
		last, err := store.Last(ctx, "journal.>")
		require.NoError(t, err)
		require.Zero(t, last, "%+v recorded something", c)
	}
	res, err := create.Run(ctx, j, command.Call{RequestID: "ok-1"}, "c", body)
	require.NoError(t, err)
	require.Equal(t, "campaign-create", res.Events[0].Event.Command)
	require.Equal(t, "ok-1", res.Events[0].Event.RequestID)
	last, err := store.Last(ctx, "journal.>")
	require.NoError(t, err)
	require.NotZero(t, last, "the filter sees what is recorded")
}
