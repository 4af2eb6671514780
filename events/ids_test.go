package events

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
)

func TestValidRequestID(t *testing.T) {
	tests := []struct {
		id string
		ok bool
	}{
		{"0195952e-6d7f-7000-8000-0000000000ee", true},
		{"cli:2026-12-01T08:00:00Z.1", true},
		{"A_b.c-d:9", true},
		{strings.Repeat("x", MaxRequestIDLen), true},
		{"", false},
		{strings.Repeat("x", MaxRequestIDLen+1), false},
		{"a b", false},
		{"a/b", false},
		{"a|b", false},
		{"a\nb", false},
		{"ñ", false},
		{"a\x00", false},
	}
	for _, tt := range tests {
		err := ValidRequestID(tt.id)
		if tt.ok {
			require.NoError(t, err, "%q", tt.id)
			continue
		}
		require.ErrorIs(t, err, ErrInvalidRequestID, "%q", tt.id)
	}
}

func TestRequestEventID(t *testing.T) {
	base := RequestEventID("mordor", "req-1", "roll {}", 0)
	require.Equal(t, base, RequestEventID("mordor", "req-1", "roll {}", 0), "not deterministic")
	u, err := uuid.Parse(base)
	require.NoError(t, err)
	require.Equal(t, uuid.Version(8), u.Version())
	require.Equal(t, uuid.RFC4122, u.Variant())
	require.NoError(t, validUUID(base))
	seen := map[string]string{base: "base"}
	for name, id := range map[string]string{
		"campaign": RequestEventID("gondor", "req-1", "roll {}", 0),
		"request":  RequestEventID("mordor", "req-2", "roll {}", 0),
		"command":  RequestEventID("mordor", "req-1", "roll {\"x\":1}", 0),
		"index":    RequestEventID("mordor", "req-1", "roll {}", 1),
		// The separators keep the parts apart.
		"shifted": RequestEventID("mordor", "req-1roll {}", "", 0),
	} {
		require.NoError(t, validUUID(id), name)
		if other, dup := seen[id]; dup {
			t.Errorf("%s gives the id of %s", name, other)
		}
		seen[id] = name
	}
	g := &RequestIDs{Campaign: "mordor", Request: "req-1", Command: "roll {}"}
	for i := range 3 {
		id, err := g.NewID()
		require.NoError(t, err)
		require.Equal(t, RequestEventID("mordor", "req-1", "roll {}", i), id)
	}
}

// TestRequestIDInDocuments: the request id is an optional envelope
// attribute; events without it (all events written before it) decode and
// encode as before, events with it take the fast path, and a document
// with an invalid one is refused.
func TestRequestIDInDocuments(t *testing.T) {
	at := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	spec := Spec{Campaign: "mordor", Kind: KindCampaign, AggregateID: "mordor", Name: Name(TypeDayStarted),
		Type: TypeDayStarted, Actor: "gm", Data: DayStarted{}}
	ids := &RequestIDs{Campaign: "mordor", Request: "req-1", Command: "day-new"}

	old, err := New(spec, ids, at)
	require.NoError(t, err)
	oldDoc, err := Encode(old)
	require.NoError(t, err)
	require.NotContains(t, string(oldDoc), "requestid", "an event without a request id writes no attribute")
	ref, err := referenceEncode(old)
	require.NoError(t, err)
	require.Equal(t, string(ref), string(oldDoc))

	spec.RequestID = "req-1"
	e, err := New(spec, ids, at)
	require.NoError(t, err)
	doc, err := Encode(e)
	require.NoError(t, err)
	require.Contains(t, string(doc), `"causationid":"","requestid":"req-1","data":`)
	ref, err = referenceEncode(e)
	require.NoError(t, err)
	require.Equal(t, string(ref), string(doc), "Encode writes what encoding/json writes")
	fast, _, ok := readFast(doc, false)
	require.True(t, ok, "readFast gave up on %s", doc)
	require.Equal(t, "req-1", fast.RequestID)
	require.Empty(t, readAgrees(doc))
	got, err := Decode(doc)
	require.NoError(t, err)
	require.Equal(t, "req-1", got.RequestID)
	require.Empty(t, referenceAgrees(doc))

	for _, bad := range []string{"req 1", strings.Repeat("r", MaxRequestIDLen+1), "r\\u0000"} {
		d := bytes.Replace(doc, []byte(`"requestid":"req-1"`), []byte(`"requestid":"`+bad+`"`), 1)
		_, err := Decode(d)
		require.Error(t, err, "%s", d)
		require.True(t, errors.Is(err, ErrInvalidEvent) && errors.Is(err, ErrInvalidRequestID), "%v", err)
		require.Empty(t, readAgrees(d))
	}
	spec.RequestID = "req 1"
	_, err = New(spec, ids, at)
	require.ErrorIs(t, err, ErrInvalidRequestID)
}

// TestRequestEventIDKeepsTimeOfV7Requests: under a UUIDv7 request id (the
// CLI's), derived ids are UUIDv7 with the request's time, so they sort by
// the time of their requests; under any other id they are UUIDv8.
func TestRequestEventIDKeepsTimeOfV7Requests(t *testing.T) {
	early := "01930000-0000-7000-8000-000000000001"
	late := "01940000-0000-7000-8000-000000000001"
	a, b := RequestEventID("mordor", early, "roll {}", 0), RequestEventID("mordor", late, "roll {}", 0)
	for _, id := range []string{a, b} {
		u, err := uuid.Parse(id)
		require.NoError(t, err)
		if u.Version() != 7 || u.Variant() != uuid.RFC4122 {
			t.Errorf("%s: version %d variant %v, want a version 7 RFC 9562 UUID", id, u.Version(), u.Variant())
		}
	}
	if a[:13] != early[:13] || b[:13] != late[:13] {
		t.Errorf("derived ids %s, %s do not keep their requests' times %s, %s", a, b, early[:13], late[:13])
	}
	if !(a < b) {
		t.Errorf("derived ids %s, %s not ordered by their requests' times", a, b)
	}
	if a == RequestEventID("mordor", early, "roll {}", 1) {
		t.Error("index ignored")
	}
	if u := uuid.MustParse(RequestEventID("mordor", "req-1", "roll {}", 0)); u.Version() != 8 {
		t.Errorf("a request id that is not a UUIDv7 gives version %d, want 8", u.Version())
	}
}
