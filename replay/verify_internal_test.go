package replay

import (
	"crypto/sha256"
	"reflect"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/rolls"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/rules/ryf"
)

// TestSameJudgementCoversDiff changes each field of a roll event in turn
// and checks that sameJudgement sees a difference exactly where rolls.Diff
// does, so that the fast path never hides what Diff would report (a field
// Diff starts comparing fails this test until sameJudgement compares it).
func TestSameJudgementCoversDiff(t *testing.T) {
	var seed dice.Seed
	res, err := ryf.Roll(ryf.Check{Kind: ryf.KindSkill, Skill: "Sigilo", Attribute: ryf.Destreza, AttributeValue: 9, Rank: 3},
		dice.NewKey(seed).Stream("c", "s", 0, ""))
	if err != nil {
		t.Fatal(err)
	}
	base := rolls.FromRyF("ryf", res)
	rv := reflect.ValueOf(base)
	for i := range rv.NumField() {
		name := rv.Type().Field(i).Name
		changed := base
		f := reflect.ValueOf(&changed).Elem().Field(i)
		switch f.Kind() {
		case reflect.Int:
			f.SetInt(f.Int() + 1)
		case reflect.Uint64:
			f.SetUint(f.Uint() + 1)
		case reflect.String:
			f.SetString(f.String() + "x")
		case reflect.Bool:
			f.SetBool(!f.Bool())
		case reflect.Slice:
			f.Set(reflect.Append(f, reflect.New(f.Type().Elem()).Elem()))
		case reflect.Pointer:
			f.Set(reflect.New(f.Type().Elem()))
			f.Elem().SetInt(1234)
		default:
			t.Fatalf("field %s of kind %s: teach this test to change it", name, f.Kind())
		}
		diff := rolls.Diff(base, changed)
		if got, want := sameJudgement(&base, &changed), len(diff) == 0; got != want {
			t.Errorf("field %s changed: sameJudgement %v, rolls.Diff %q", name, got, diff)
		}
	}
	if !sameJudgement(&base, &base) {
		t.Error("a roll differs from itself")
	}
}

// TestKeyOf checks keyOf against its definition: the 16 bytes of an id
// that uuid.Parse reads and String writes back identically, a SHA-256
// prefix of anything else.
func TestKeyOf(t *testing.T) {
	u := uuid.MustParse("0193a5b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b")
	s := u.String()
	for _, id := range []string{
		s, strings.ToUpper(s), "{" + s + "}", "urn:uuid:" + s, strings.ReplaceAll(s, "-", ""),
		s[:8] + "_" + s[9:], s[:35] + "g", s + "0", "", "not an id", uuid.Nil.String(),
		"01234567-89ab-cdef-0123-456789abcdef", "0123456-789ab-cdef-0123-456789abcdef",
	} {
		var want idKey
		if p, err := uuid.Parse(id); err == nil && p.String() == id {
			want = idKey(p)
		} else {
			sum := sha256.Sum256([]byte(id))
			copy(want[:], sum[:])
		}
		if got := keyOf(id); got != want {
			t.Errorf("keyOf(%q) = %x, want %x", id, got, want)
		}
	}
}

// TestDigestTellsEventsApart checks that digest is the same for the same
// content and differs when any field or the data changes, or a byte moves
// from one field to the next.
func TestDigestTellsEventsApart(t *testing.T) {
	ev := events.Event{Type: "journal.roll.made.v1", Campaign: "mordor", Session: "s1", Subject: "characters/lodin",
		Actor: "gm ñ", CausationID: "", Data: []byte(`{"nonce":3}`)}
	same := ev
	same.Data = []byte(`{"nonce":3}`)
	if digest(ev) != digest(same) {
		t.Fatal("the same content has two digests")
	}
	edits := map[string]func(e *events.Event){
		"type":        func(e *events.Event) { e.Type = "journal.roll.made.v2" },
		"campaign":    func(e *events.Event) { e.Campaign = "mordorx" },
		"session":     func(e *events.Event) { e.Session = "" },
		"subject":     func(e *events.Event) { e.Subject = "characters/lodim" },
		"actor":       func(e *events.Event) { e.Actor = "gm n" },
		"causation":   func(e *events.Event) { e.CausationID = "x" },
		"data":        func(e *events.Event) { e.Data = []byte(`{"nonce":4}`) },
		"moved byte":  func(e *events.Event) { e.Campaign, e.Session = "mordors", "1" },
		"no data":     func(e *events.Event) { e.Data = nil },
		"longer data": func(e *events.Event) { e.Data = []byte(`{"nonce":3} `) },
	}
	for name, edit := range edits {
		other := ev
		edit(&other)
		if digest(other) == digest(ev) {
			t.Errorf("%s: the digest did not change", name)
		}
	}
}
