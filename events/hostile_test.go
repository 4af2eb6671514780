package events_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
)

// TestDecodeHostile feeds the codec what an attacker or a broken client
// might store or send: oversized and deeply nested documents, invalid
// UTF-8, and ids that would be NATS subject syntax. Each is refused with
// ErrInvalidEvent (and ErrInvalidID for ids), quickly, without panicking.
func TestDecodeHostile(t *testing.T) {
	valid, err := json.Marshal(validDoc())
	require.NoError(t, err)
	doc := string(valid)
	replace := func(from, to string) []byte {
		t.Helper()
		require.Contains(t, doc, from)
		return []byte(strings.Replace(doc, from, to, 1))
	}
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	tests := []struct {
		name string
		doc  []byte
		want error
	}{
		{"just over MaxSize", []byte(`{"x":"` + strings.Repeat("a", events.MaxSize) + `"}`), events.ErrInvalidEvent},
		{"16 MiB of spaces", []byte(strings.Repeat(" ", 16<<20)), events.ErrInvalidEvent},
		{"deep data, 100000 levels", replace(`"data":{`, `"data":{"x":`+deep(100000)+`,`), events.ErrInvalidEvent},
		{"deep data, 9000 levels", replace(`"data":{`, `"data":{"name2":`+deep(9000)+`,`), events.ErrInvalidEvent},
		{"deep envelope", []byte(`{"actor":` + deep(50000) + `}`), events.ErrInvalidEvent},
		{"unclosed deep", []byte(`{"data":` + strings.Repeat(`{"a":`, 200000)), events.ErrInvalidEvent},
		{"invalid utf-8 in data", replace(`"Mordor"`, "\"Mor\xffdor\""), events.ErrInvalidEvent},
		{"invalid utf-8 in actor", replace(`"actor":"gm"`, "\"actor\":\"g\xc3m\""), events.ErrInvalidEvent},
		{"invalid utf-8 in a key", replace(`"name":`, "\"na\xffme\":"), events.ErrInvalidEvent},
		{"overlong utf-8 slash", replace(`"Mordor"`, "\"Mor\xc0\xafdor\""), events.ErrInvalidEvent},
		{"utf-16 surrogate escape in actor", replace(`"actor":"gm"`, `"actor":"g\ud800m"`), nil}, // decodes to U+FFFD, valid
		{"nul escape in actor", replace(`"actor":"gm"`, `"actor":"g\u0000m"`), events.ErrInvalidEvent},
		{"raw nul", replace(`"actor":"gm"`, "\"actor\":\"g\x00m\""), events.ErrInvalidEvent},
		{"bom before the object", append([]byte("\xef\xbb\xbf"), valid...), events.ErrInvalidEvent},
	}
	for _, tok := range []string{".", "*", ">", " ", "\t", "a.b", "a*", "a>", "..", "$JS", "A", "é", "a\u0000b", "a\nb"} {
		tests = append(tests,
			struct {
				name string
				doc  []byte
				want error
			}{"campaign " + tok, docWith(t, func(d map[string]any) { d["campaign"] = tok; d["source"] = "/campaigns/" + tok }), events.ErrInvalidID},
			struct {
				name string
				doc  []byte
				want error
			}{"subject id " + tok, docWith(t, func(d map[string]any) { d["subject"] = "characters/" + tok }), events.ErrInvalidID},
			struct {
				name string
				doc  []byte
				want error
			}{"session " + tok, docWith(t, func(d map[string]any) { d["session"] = tok }), events.ErrInvalidID},
		)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := events.Decode(tt.doc)
			if tt.want == nil {
				require.NoError(t, err)
				return
			}
			if !errors.Is(err, tt.want) || !errors.Is(err, events.ErrInvalidEvent) {
				t.Fatalf("Decode error = %v, want %v (and invalid event)", err, tt.want)
			}
		})
	}
}

// TestSubjectInjection: an id that is NATS subject syntax never becomes a
// subject, a filter or a secret key.
func TestSubjectInjection(t *testing.T) {
	for _, id := range []string{"", ".", "*", ">", "a.b", "a.*", "a.>", "a b", "A", "a\x00", "a\r\nPUB x 1", strings.Repeat("a", events.MaxIDLen+1)} {
		if _, err := events.CampaignSubject(id); !errors.Is(err, events.ErrInvalidID) {
			t.Errorf("CampaignSubject(%q) error = %v, want invalid id", id, err)
		}
		if err := events.ExpectLast("journal."+id, 1).Validate(); !errors.Is(err, events.ErrInvalidID) {
			t.Errorf("ExpectLast(journal.%s) error = %v, want invalid id", id, err)
		}
		if _, err := events.CampaignFilter(id); !errors.Is(err, events.ErrInvalidID) {
			t.Errorf("CampaignFilter(%q) error = %v, want invalid id", id, err)
		}
		if _, err := events.SecretKey("mordor", id); !errors.Is(err, events.ErrInvalidID) {
			t.Errorf("SecretKey(%q) error = %v, want invalid id", id, err)
		}
		_, err := events.New(events.Spec{Campaign: "mordor", Kind: events.KindCharacter, AggregateID: id, Name: "roll",
			Type: events.TypeDamageTaken, Data: events.DamageTaken{Character: "x", Amount: 1}}, seqIDs(), testTime)
		if !errors.Is(err, events.ErrInvalidID) {
			t.Errorf("New(aggregate %q) error = %v, want invalid id", id, err)
		}
	}
	for _, f := range []string{"journal.>.x", "journal.a b.>", "journal.a..b", "journal.*.>.x", "journal", "other.>", "journal.a.b.c"} {
		if err := events.ValidFilter(f); !errors.Is(err, events.ErrInvalidID) {
			t.Errorf("ValidFilter(%q) error = %v, want invalid id", f, err)
		}
	}
}

// TestNewRefusesInvalidUTF8: data with a string that is not UTF-8, wherever
// it hides, is refused rather than silently changed to U+FFFD.
func TestNewRefusesInvalidUTF8(t *testing.T) {
	bad := "Lo\xffdin"
	tests := []struct {
		name string
		data any
	}{
		{"field", events.CharacterCreated{Name: bad, Attributes: map[string]int{"F": 8}, Skills: map[string]int{}}},
		{"map key", events.CharacterCreated{Name: "Lodin", Attributes: map[string]int{bad: 8}, Skills: map[string]int{}}},
		{"slice element", events.CharacterCreated{Name: "Lodin", Weapons: []string{"Espada", bad}}},
		{"pointer", &events.CharacterCreated{Player: bad}},
		{"raw data", json.RawMessage("{\"name\":\"" + bad + "\"}")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := events.New(events.Spec{Campaign: "mordor", Kind: events.KindCharacter, AggregateID: "lodin", Name: "created",
				Type: events.TypeCharacterCreated, Data: tt.data}, seqIDs(), testTime)
			if !errors.Is(err, events.ErrInvalidEvent) {
				t.Fatalf("New error = %v, want invalid event", err)
			}
		})
	}
	e := newCampaignEvent(t)
	e.Data = json.RawMessage("{\"name\":\"" + bad + "\",\"system\":\"ryf\"}")
	if _, err := events.Encode(e); !errors.Is(err, events.ErrInvalidEvent) {
		t.Fatalf("Encode of data not UTF-8: error = %v, want invalid event", err)
	}
}
