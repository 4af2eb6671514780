package events_test

import (
	"bytes"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
)

func TestValidID(t *testing.T) {
	tests := []struct {
		id string
		ok bool
	}{
		{"lodin", true},
		{"camp-1", true},
		{"s_2", true},
		{"0", true},
		{strings.Repeat("a", 64), true},
		{"", false},
		{strings.Repeat("a", 65), false},
		{"Lodin", false},
		{"a.b", false},
		{"*", false},
		{">", false},
		{"a b", false},
		{"ñandú", false},
		{"a/b", false},
	}
	for _, tt := range tests {
		err := events.ValidID(tt.id)
		if (err == nil) != tt.ok || err != nil && !errors.Is(err, events.ErrInvalidID) {
			t.Errorf("ValidID(%q) = %v, want ok=%v", tt.id, err, tt.ok)
		}
	}
}

func TestSubjects(t *testing.T) {
	s, err := events.CampaignSubject("mordor")
	require.NoError(t, err)
	if want := "journal.mordor"; s != want {
		t.Fatalf("CampaignSubject = %q, want %q", s, want)
	}
	c, err := events.ParseSubject(s)
	require.NoError(t, err)
	if c != "mordor" {
		t.Fatalf("ParseSubject = %q, want mordor", c)
	}
	f, err := events.CampaignFilter("mordor")
	require.NoError(t, err)
	if f != s {
		t.Fatalf("CampaignFilter = %q, want the campaign subject %q", f, s)
	}
	require.NoError(t, events.ValidFilter(f))
	for _, bad := range []string{"journal.mordor.char.lodin.roll", "journal.mordor.>", "journal.*", "x.mordor", "journal", "journal.", "journal.Mordor", ""} {
		if _, err := events.ParseSubject(bad); !errors.Is(err, events.ErrInvalidID) {
			t.Errorf("ParseSubject(%q) error = %v, want invalid id", bad, err)
		}
	}
	for _, bad := range []string{"a.>", "Mordor", "", "*"} {
		if _, err := events.CampaignSubject(bad); !errors.Is(err, events.ErrInvalidID) {
			t.Errorf("CampaignSubject(%q) error = %v, want invalid id", bad, err)
		}
	}
}

func TestValidFilter(t *testing.T) {
	tests := []struct {
		filter string
		ok     bool
	}{
		{"journal.>", true},
		{"journal.mordor.>", true},
		{"journal.mordor", true},
		{"journal.*", true},
		{"journal.p1.mordor", true},
		{"journal.*.char.*.roll", false},
		{"journal.mordor.char.lodin.roll", false},
		{"journal", false},
		{"other.>", false},
		{"journal.>.x", false},
		{"journal.Mordor.>", false},
		{"journal.mordor..>", false},
		{"journal.a.b.c.d.e", false},
		{"", false},
	}
	for _, tt := range tests {
		if err := events.ValidFilter(tt.filter); (err == nil) != tt.ok {
			t.Errorf("ValidFilter(%q) = %v, want ok=%v", tt.filter, err, tt.ok)
		}
	}
}

func TestMatch(t *testing.T) {
	tests := []struct {
		filter, subject string
		want            bool
	}{
		{"journal.>", "journal.mordor.char.lodin.roll", true},
		{"journal.mordor.>", "journal.mordor.char.lodin.roll", true},
		{"journal.mordor.>", "journal.gondor.char.lodin.roll", false},
		{"journal.mordor.>", "journal.mordor", false},
		{"journal.*.char.*.roll", "journal.mordor.char.lodin.roll", true},
		{"journal.*.char.*.roll", "journal.mordor.char.lodin.heal", false},
		{"journal.mordor.char.lodin.roll", "journal.mordor.char.lodin.roll", true},
		{"journal.mordor.char.lodin", "journal.mordor.char.lodin.roll", false},
		{"journal.mordor.char.lodin.roll", "journal.mordor.char.lodin", false},
		{"journal.mordor.char.lod.>", "journal.mordor.char.lodin.roll", false},
		{"journal.*", "journal.mordor.char.lodin.roll", false},
	}
	for _, tt := range tests {
		if got := events.Match(tt.filter, tt.subject); got != tt.want {
			t.Errorf("Match(%q, %q) = %v, want %v", tt.filter, tt.subject, got, tt.want)
		}
	}
}

func TestKindPlural(t *testing.T) {
	tests := []struct {
		kind events.Kind
		want string
	}{
		{events.KindCharacter, "characters"},
		{events.KindCampaign, "campaigns"},
		{events.KindSession, "sessions"},
		{events.KindCombat, "combats"},
	}
	for _, tt := range tests {
		if got := tt.kind.Plural(); got != tt.want {
			t.Errorf("%s.Plural() = %q, want %q", tt.kind, got, tt.want)
		}
		e := events.Event{Subject: tt.want + "/x1"}
		kind, id, err := e.Aggregate()
		require.NoError(t, err)
		if kind != tt.kind || id != "x1" {
			t.Errorf("Aggregate(%q) = %q, %q, want %q, x1", e.Subject, kind, id, tt.kind)
		}
	}
}

func TestV7(t *testing.T) {
	now := time.UnixMilli(1_700_000_000_123)
	clock := func() time.Time { return now }
	g := events.NewV7(clock, bytes.NewReader(bytes.Repeat([]byte{0xff}, 10*5000)))
	var prev string
	for i := range 5000 { // more than one millisecond's counter holds
		id, err := g.NewID()
		require.NoError(t, err)
		u, err := uuid.Parse(id)
		require.NoError(t, err)
		if u.Version() != 7 || u.Variant() != uuid.RFC4122 || u.String() != id {
			t.Fatalf("id %s: version %d variant %v", id, u.Version(), u.Variant())
		}
		if i == 0 {
			if ms := u.Time(); ms == 0 {
				t.Fatalf("id %s has no time", id)
			}
			sec, nsec := u.Time().UnixTime()
			if got := time.Unix(sec, nsec).UnixMilli(); got != now.UnixMilli() {
				t.Fatalf("id %s time = %d ms, want %d", id, got, now.UnixMilli())
			}
		}
		if id <= prev {
			t.Fatalf("id %d %s not after %s", i, id, prev)
		}
		prev = id
	}
	if _, err := events.NewV7(clock, bytes.NewReader(nil)).NewID(); err == nil {
		t.Fatal("NewID with no randomness: no error")
	}
}

func TestV7Concurrent(t *testing.T) {
	g := events.NewV7(func() time.Time { return time.UnixMilli(1) }, zeroReader{})
	var mu sync.Mutex
	seen := map[string]bool{}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 500 {
				id, err := g.NewID()
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				if seen[id] {
					t.Errorf("id %s twice", id)
				}
				seen[id] = true
				mu.Unlock()
			}
		})
	}
	wg.Wait()
}

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
