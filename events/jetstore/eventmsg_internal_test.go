package jetstore

import (
	"math"
	"net/textproto"
	"strconv"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
)

// TestEventMsgHeaders: the message of an event carries exactly the
// headers that nats.Header.Set and jetstream's
// WithExpectLastSequencePerSubject would give it (a message id only
// without an expectation, the CloudEvents content type always) (the names canonical as
// Set writes them), with or without an expectation, for events of every
// aggregate kind.
func TestEventMsgHeaders(t *testing.T) {
	ids := events.IDFunc(func() (string, error) { return "0195952e-6d7f-7000-8000-0000000000ee", nil })
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		kind  events.Kind
		agg   string
		typ   string
		data  any
		seq   uint64
		isSet bool
	}{
		{events.KindCharacter, "lodin", events.TypeRollMade, events.RollMade{System: "ryf", Kind: "skill", Character: "lodin", Dice: "1o3d10", Faces: []int{1, 2, 3}, Outcome: "success"}, 0, true},
		{events.KindCharacter, "lodin", events.TypeRollMade, events.RollMade{System: "ryf", Kind: "skill", Character: "lodin", Dice: "1o3d10", Faces: []int{1, 2, 3}, Outcome: "success"}, 7, true},
		{events.KindCampaign, "mordor", events.TypeDayStarted, events.DayStarted{}, math.MaxUint64, true},
		{events.KindCampaign, "mordor", events.TypeDayStarted, events.DayStarted{}, 0, false},
	} {
		e, err := events.New(events.Spec{Campaign: "mordor", Kind: tc.kind, AggregateID: tc.agg, Type: tc.typ, Actor: "gm", Data: tc.data}, ids, at)
		require.NoError(t, err)
		// An append with an expectation sends no message id (DESIGN §2,
		// turn 3); one without, the event's id.
		got := eventMsg(e, "journal.mordor", []byte("doc"), tc.isSet, !tc.isSet, tc.seq)

		want := &nats.Msg{Subject: "journal.mordor", Data: []byte("doc"), Header: nats.Header{}}
		want.Header.Set("Content-Type", "application/cloudevents+json")
		if !tc.isSet {
			want.Header.Set(jetstream.MsgIDHeader, e.ID)
		}
		want.Header.Set(events.HeaderType, e.Type)
		want.Header.Set(events.HeaderAggregate, events.AggregateHeaderValue(tc.kind, tc.agg))
		if tc.isSet {
			want.Header.Set(jetstream.ExpectedLastSubjSeqHeader, strconv.FormatUint(tc.seq, 10))
		}
		require.Equal(t, want.Subject, got.Subject)
		require.Equal(t, want.Data, got.Data)
		require.Equal(t, want.Header, got.Header)
		for k := range got.Header {
			require.Equal(t, textproto.CanonicalMIMEHeaderKey(k), k)
		}
	}
}
