package client

import (
	"context"
	"errors"
	"testing"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/events"
)

// TestCreds: service mode only for a URL naming a user with a password
// who is not the journal's own.
func TestCreds(t *testing.T) {
	for url, want := range map[string]string{
		"":                                  "",
		"nats://127.0.0.1:4222":             "",
		"nats://TOKEN@127.0.0.1:4222":       "",
		"nats://journal:pw@127.0.0.1:4222":  "",
		"nats://bea:pw@n1:4222,nats://n2":   "bea",
		" nats://ana:pw@127.0.0.1:4222, n2": "ana",
	} {
		user, _, ok := Creds(url, nil)
		if ok != (want != "") || user != want && ok {
			t.Errorf("Creds(%q) = %q, %v; want %q", url, user, ok, want)
		}
	}
}

// TestWithRequestID adds request_id to the body, keeps the rest, and
// refuses a body that is not a JSON object.
func TestWithRequestID(t *testing.T) {
	got, err := WithRequestID([]byte(`{"a":1}`), "r-1")
	if err != nil || string(got) != `{"a":1,"request_id":"r-1"}` {
		t.Fatalf("WithRequestID = %s, %v", got, err)
	}
	if got, _ := WithRequestID([]byte(`null`), "r"); string(got) != `{"request_id":"r"}` {
		t.Errorf("null body: %s", got)
	}
	if got, _ := WithRequestID([]byte(`[1]`), ""); string(got) != `[1]` {
		t.Errorf("no request id changes nothing: %s", got)
	}
	if _, err := WithRequestID([]byte(`[1]`), "r"); err == nil {
		t.Error("an array body accepted")
	}
}

// TestStoreRecordsNothing: the client's store refuses every write with
// access.ErrDenied and reads no other campaign.
func TestStoreRecordsNothing(t *testing.T) {
	st := NewStore(nil, "mordor")
	if _, err := st.Append(context.Background(), events.Expect{}); !errors.Is(err, access.ErrDenied) {
		t.Errorf("Append: %v", err)
	}
	if err := st.PutSecret(context.Background(), "k", nil); !errors.Is(err, access.ErrDenied) {
		t.Errorf("PutSecret: %v", err)
	}
	other, _ := events.CampaignSubject("gondor")
	if err := st.Read(context.Background(), events.Query{Subject: other}, func(events.Recorded) error {
		t.Fatal("read another campaign")
		return nil
	}); err != nil {
		t.Error(err)
	}
}
