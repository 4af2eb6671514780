package events_test

import (
	"testing"
	"time"

	"github.com/campaign-journal/journal/events"
)

// TestPayloadFollowsData checks that Payload gives the data an event has
// now: the value New or Decode kept while the event is unchanged, a fresh
// decoding once its data or type changed.
func TestPayloadFollowsData(t *testing.T) {
	ids := events.IDFunc(func() (string, error) { return "0195952e-6d7f-7000-8000-000000000001", nil })
	ev, err := events.New(events.Spec{Campaign: "mordor", Kind: events.KindCharacter, AggregateID: "lodin", Name: "damage",
		Type: events.TypeDamageTaken, Data: events.DamageTaken{Character: "lodin", Amount: 3}},
		ids, time.Date(2025, 3, 14, 15, 9, 26, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := events.Encode(ev)
	if err != nil {
		t.Fatal(err)
	}
	decoded, err := events.Decode(doc)
	if err != nil {
		t.Fatal(err)
	}
	amount := func(e events.Event) (int, error) {
		v, err := e.Payload()
		if err != nil {
			return 0, err
		}
		return v.(*events.DamageTaken).Amount, nil
	}
	inPlace, err := events.Decode(doc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := inPlace.Payload(); err != nil {
		t.Fatal(err)
	}
	inPlace.Data[len(inPlace.Data)-2] = '8' // the data it was decoded from, edited in place
	if n, err := amount(inPlace); err != nil || n != 8 {
		t.Errorf("decoded, edited in place: amount %d, %v; want 8", n, err)
	}
	for name, e := range map[string]events.Event{"new": ev, "decoded": decoded} {
		if n, err := amount(e); err != nil || n != 3 {
			t.Errorf("%s: amount %d, %v; want 3", name, n, err)
		}
		e.Data = []byte(`{"character":"lodin","amount":5}`)
		if n, err := amount(e); err != nil || n != 5 {
			t.Errorf("%s, data replaced: amount %d, %v; want 5", name, n, err)
		}
		if n, err := amount(e); err != nil || n != 5 {
			t.Errorf("%s, data replaced, again: amount %d, %v; want 5", name, n, err)
		}
		e.Data[len(e.Data)-2] = '7' // edited in place: same slice, same length
		if n, err := amount(e); err != nil || n != 7 {
			t.Errorf("%s, data edited in place: amount %d, %v; want 7", name, n, err)
		}
		e.Type = events.TypeDayStarted
		if _, err := e.Payload(); err == nil {
			t.Errorf("%s, type changed: Payload read damage data as a new day", name)
		}
	}
}
