package events

import (
	"reflect"
	"testing"
	"time"
)

// TestOpaqueWitnessesRoundTrip: a GM roll of witness chains (its
// witnesses a list of objects, which the fast path does not decode) is
// written and read back whole: the fast path gives up on it, and the
// general way decides.
func TestOpaqueWitnessesRoundTrip(t *testing.T) {
	ids := IDFunc(func() (string, error) { return "0195952e-6d7f-7000-8000-0000000000ee", nil })
	roll := RollMade{System: "ryf", Kind: "skill", Character: "orc", Dice: "1o3d10", Faces: []int{1, 2, 3}, Outcome: "success",
		Witness: "chain", WitnessIndex: 2, Witnesses: []GMWitness{{User: "ana", Value: "ab"}, {User: "bo", Value: "cd"}}}
	e, err := New(Spec{Type: TypeRollMade, Data: roll, Campaign: "mordor", Kind: KindCharacter, AggregateID: "orc", Name: "x", Session: "s1", Actor: "gm"},
		ids, time.Date(2025, 3, 14, 15, 9, 26, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	v, _ := dataFor(TypeRollMade)
	if decodeFast(TypeRollMade, e.Data, v) {
		t.Errorf("the fast path decoded %s", e.Data)
	}
	var back RollMade
	if err := e.DecodeData(&back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, roll) {
		t.Errorf("read back %+v, want %+v", back, roll)
	}
}
