package events_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
)

// benchSpecs returns the specs of a roll (the commonest and largest event
// of play), a character created (nested maps) and a campaign created.
func benchSpecs() map[string]events.Spec {
	ten := 10
	return map[string]events.Spec{
		"roll": {Campaign: "mordor", Kind: events.KindCharacter, AggregateID: "lodin", Name: "roll",
			Type: events.TypeRollMade, Session: "s1", Actor: "gm", Data: events.RollMade{
				System: "ryf", Kind: "skill", Character: "lodin", Skill: "Sigilo", Attribute: "D",
				AttributeValue: 9, Rank: 3, Base: 12, Level: "normal", LevelReasons: []string{"specialization"},
				Difficulty: &ten, DifficultyName: "fácil", Specialization: true, Dice: "1o3d10",
				Nonce: 41, Entropy: "my own words", Faces: []int{3, 7, 9}, Kept: []int{7},
				Total: 19, Outcome: "success",
			}},
		"character": {Campaign: "mordor", Kind: events.KindCharacter, AggregateID: "lodin", Name: "created",
			Type: events.TypeCharacterCreated, Actor: "gm", Data: events.CharacterCreated{
				Name: "Lodin", Player: "Ana", Attributes: map[string]int{"F": 8, "R": 7, "D": 9, "I": 8, "P": 8},
				Skills: map[string]int{"Pelea": 5, "Sigilo": 3, "Buscar": 4}, Specialization: "Sigilo",
				Weapons: []string{"Espada"}, MaxHP: 23,
			}},
		"campaign": {Campaign: "mordor", Kind: events.KindCampaign, AggregateID: "mordor", Name: "created",
			Type: events.TypeCampaignCreated, Actor: "gm", Data: events.CampaignCreated{Name: "Mordor", System: "ryf"}},
	}
}

// benchDocs returns the encoded documents of benchSpecs.
func benchDocs(b *testing.B) map[string][]byte {
	b.Helper()
	out := map[string][]byte{}
	for name, s := range benchSpecs() {
		e, err := events.New(s, seqIDs(), testTime)
		require.NoError(b, err)
		doc, err := events.Encode(e)
		require.NoError(b, err)
		out[name] = doc
	}
	return out
}

// BenchmarkDecode decodes and validates one stored document: what every
// read pays per event (and what an append paid before Prepare trusted
// the data New validated).
//
//	go test -run '^$' -bench Decode -benchmem ./events/
func BenchmarkDecode(b *testing.B) {
	for _, name := range []string{"roll", "character", "campaign"} {
		doc := benchDocs(b)[name]
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := events.Decode(doc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkNew builds and validates a roll: with BenchmarkPrepare, the
// codec's share of an append of one roll.
//
//	go test -run '^$' -bench 'New|Prepare' -benchmem ./events/
func BenchmarkNew(b *testing.B) {
	s := benchSpecs()["roll"]
	ids := events.IDFunc(func() (string, error) { return "0195952e-6d7f-7000-8000-000000000001", nil })
	b.ReportAllocs()
	for b.Loop() {
		if _, err := events.New(s, ids, testTime); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPrepare is the codec's share of an append of one roll decoded
// or made by New (its data validated already).
func BenchmarkPrepare(b *testing.B) {
	doc := benchDocs(b)["roll"]
	e, err := events.Decode(doc)
	require.NoError(b, err)
	e.StreamSubject = "journal.mordor"
	b.ReportAllocs()
	for b.Loop() {
		if _, err := events.Prepare(events.Expect{}, []events.Event{e}); err != nil {
			b.Fatal(err)
		}
	}
}
