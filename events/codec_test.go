package events_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
)

var testTime = time.Date(2025, 3, 14, 15, 9, 26, 535897000, time.UTC)

// seqIDs returns canonical v7-shaped ids 1, 2, 3, ...
func seqIDs() events.IDs {
	n := 0
	return events.IDFunc(func() (string, error) {
		n++
		return fmt.Sprintf("0195952e-6d7f-7000-8000-%012x", n), nil
	})
}

func newCampaignEvent(t *testing.T) events.Event {
	t.Helper()
	e, err := events.New(events.Spec{
		Campaign: "mordor", Kind: events.KindCampaign, AggregateID: "mordor", Name: "created",
		Type: events.TypeCampaignCreated, Actor: "gm",
		Data: events.CampaignCreated{Name: "Mordor <& co>", System: "ryf"},
	}, seqIDs(), testTime)
	require.NoError(t, err)
	return e
}

func TestNewEnvelope(t *testing.T) {
	e := newCampaignEvent(t)
	b, err := events.Encode(e)
	require.NoError(t, err)
	want := `{"specversion":"1.0","id":"0195952e-6d7f-7000-8000-000000000001","source":"/campaigns/mordor",` +
		`"type":"journal.campaign.created.v1","subject":"campaigns/mordor","time":"2025-03-14T15:09:26.535897Z",` +
		`"datacontenttype":"application/json","campaign":"mordor","session":"","actor":"gm","causationid":"",` +
		`"data":{"name":"Mordor <& co>","system":"ryf"}}`
	if string(b) != want {
		t.Fatalf("Encode =\n%s\nwant\n%s", b, want)
	}
	if got, want := e.StreamSubject, "journal.mordor"; got != want {
		t.Fatalf("StreamSubject = %q, want %q", got, want)
	}
	back, err := events.Decode(b)
	require.NoError(t, err)
	e.StreamSubject = ""
	requireSameEvent(t, e, back)

	kind, id, err := back.Aggregate()
	require.NoError(t, err)
	if kind != events.KindCampaign || id != "mordor" {
		t.Fatalf("Aggregate = %q, %q, want campaign, mordor", kind, id)
	}
	p, err := back.Payload()
	require.NoError(t, err)
	if got, ok := p.(*events.CampaignCreated); !ok || got.Name != "Mordor <& co>" {
		t.Fatalf("Payload = %#v", p)
	}
}

func requireSameEvent(t *testing.T, want, got events.Event) {
	t.Helper()
	require.True(t, want.Time.Equal(got.Time), "time %v, want %v", got.Time, want.Time)
	want.Time, got.Time = time.Time{}, time.Time{}
	require.Equal(t, want, got)
}

func TestNewRefuses(t *testing.T) {
	base := events.Spec{
		Campaign: "mordor", Kind: events.KindCharacter, AggregateID: "lodin", Name: "created",
		Type: events.TypeCampaignCreated, Actor: "gm", Data: events.CampaignCreated{Name: "x"},
	}
	tests := []struct {
		name string
		edit func(*events.Spec)
		want error
	}{
		{"bad campaign", func(s *events.Spec) { s.Campaign = "Mordor" }, events.ErrInvalidID},
		{"bad aggregate", func(s *events.Spec) { s.AggregateID = "a.b" }, events.ErrInvalidID},
		{"bad kind", func(s *events.Spec) { s.Kind = "*" }, events.ErrInvalidID},
		{"bad name", func(s *events.Spec) { s.Name = ">" }, events.ErrInvalidID},
		{"bad session", func(s *events.Spec) { s.Session = "s 1" }, events.ErrInvalidID},
		{"unknown type", func(s *events.Spec) { s.Type = "journal.nope.v1" }, events.ErrUnknownType},
		{"wrong data", func(s *events.Spec) { s.Data = map[string]int{"hp": 3} }, events.ErrInvalidEvent},
		{"data not object", func(s *events.Spec) { s.Data = 3 }, events.ErrInvalidEvent},
		{"bad causation", func(s *events.Spec) { s.CausationID = "x" }, events.ErrInvalidEvent},
		{"control in actor", func(s *events.Spec) { s.Actor = "a\nb" }, events.ErrInvalidEvent},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := base
			tt.edit(&s)
			_, err := events.New(s, seqIDs(), testTime)
			if !errors.Is(err, tt.want) || !errors.Is(err, events.ErrInvalidEvent) {
				t.Fatalf("New error = %v, want %v (and invalid event)", err, tt.want)
			}
		})
	}
	if _, err := events.New(base, seqIDs(), time.Time{}); !errors.Is(err, events.ErrInvalidEvent) {
		t.Fatalf("New at zero time: error = %v, want invalid event", err)
	}
}

// validDoc returns a valid document as a map, for tests to break.
func validDoc() map[string]any {
	return map[string]any{
		"specversion": "1.0", "id": "0195952e-6d7f-7000-8000-000000000001", "source": "/campaigns/mordor",
		"type": events.TypeCampaignCreated, "subject": "characters/lodin", "time": "2025-03-14T15:09:26Z",
		"datacontenttype": "application/json", "campaign": "mordor", "session": "s1", "actor": "gm",
		"causationid": "", "data": map[string]any{"name": "Mordor", "system": "ryf"},
	}
}

func docWith(t *testing.T, edit func(map[string]any)) []byte {
	t.Helper()
	d := validDoc()
	edit(d)
	b, err := json.Marshal(d)
	require.NoError(t, err)
	return b
}

func TestDecode(t *testing.T) {
	set := func(k string, v any) func(map[string]any) { return func(d map[string]any) { d[k] = v } }
	del := func(k string) func(map[string]any) { return func(d map[string]any) { delete(d, k) } }
	tests := []struct {
		name string
		doc  []byte
		want error // nil: accepted
	}{
		{"valid", docWith(t, func(map[string]any) {}), nil},
		{"optional attributes absent", docWith(t, func(d map[string]any) {
			delete(d, "session")
			delete(d, "actor")
			delete(d, "causationid")
		}), nil},
		{"causation id", docWith(t, set("causationid", "0195952e-6d7f-7000-8000-0000000000aa")), nil},
		{"time with offset", docWith(t, set("time", "2025-03-14T16:09:26.5+01:00")), nil},
		{"empty", nil, events.ErrInvalidEvent},
		{"not json", []byte(`{"specversion":`), events.ErrInvalidEvent},
		{"array", []byte(`[1,2]`), events.ErrInvalidEvent},
		{"trailing data", append(docWith(t, func(map[string]any) {}), " {}"...), events.ErrInvalidEvent},
		{"wrong specversion", docWith(t, set("specversion", "0.3")), events.ErrInvalidEvent},
		{"missing id", docWith(t, del("id")), events.ErrInvalidEvent},
		{"id not uuid", docWith(t, set("id", "roll-1")), events.ErrInvalidEvent},
		{"id upper case", docWith(t, set("id", "0195952E-6D7F-7000-8000-000000000001")), events.ErrInvalidEvent},
		{"id urn", docWith(t, set("id", "urn:uuid:0195952e-6d7f-7000-8000-000000000001")), events.ErrInvalidEvent},
		{"nil uuid", docWith(t, set("id", "00000000-0000-0000-0000-000000000000")), events.ErrInvalidEvent},
		{"id number", docWith(t, set("id", 7)), events.ErrInvalidEvent},
		{"unknown type", docWith(t, set("type", "journal.dragon.slain.v1")), events.ErrUnknownType},
		{"missing type", docWith(t, del("type")), events.ErrInvalidEvent},
		{"missing campaign", docWith(t, del("campaign")), events.ErrInvalidEvent},
		{"empty campaign", docWith(t, set("campaign", "")), events.ErrInvalidID},
		{"campaign with dot", docWith(t, func(d map[string]any) { d["campaign"] = "a.b"; d["source"] = "/campaigns/a.b" }), events.ErrInvalidID},
		{"source disagrees", docWith(t, set("source", "/campaigns/gondor")), events.ErrInvalidEvent},
		{"subject without kind", docWith(t, set("subject", "lodin")), events.ErrInvalidEvent},
		{"subject bad id", docWith(t, set("subject", "characters/Lodin")), events.ErrInvalidID},
		{"session wildcard", docWith(t, set("session", "*")), events.ErrInvalidID},
		{"session too long", docWith(t, set("session", strings.Repeat("s", 65))), events.ErrInvalidID},
		{"missing time", docWith(t, del("time")), events.ErrInvalidEvent},
		{"time not rfc3339", docWith(t, set("time", "14/03/2025")), events.ErrInvalidEvent},
		{"wrong content type", docWith(t, set("datacontenttype", "text/plain")), events.ErrInvalidEvent},
		{"missing data", docWith(t, del("data")), events.ErrInvalidEvent},
		{"null data", docWith(t, set("data", nil)), events.ErrInvalidEvent},
		{"data unknown field", docWith(t, set("data", map[string]any{"name": "x", "hp": 3})), events.ErrInvalidEvent},
		{"data field case", docWith(t, set("data", map[string]any{"Name": "x"})), events.ErrInvalidEvent},
		{"data wrong type", docWith(t, set("data", map[string]any{"name": 3})), events.ErrInvalidEvent},
		{"unknown attribute", docWith(t, set("extra", "x")), events.ErrInvalidEvent},
		{"attribute case", docWith(t, func(d map[string]any) { d["Type"] = d["type"]; delete(d, "type") }), events.ErrInvalidEvent},
		{"attribute null", docWith(t, set("actor", nil)), events.ErrInvalidEvent},
		{"repeated attribute", []byte(strings.Replace(string(docWith(t, func(map[string]any) {})),
			`"campaign":"mordor"`, `"campaign":"mordor","campaign":"gondor"`, 1)), events.ErrInvalidEvent},
		{"repeated data member", []byte(strings.Replace(string(docWith(t, func(map[string]any) {})),
			`"name":"Mordor"`, `"name":"Mordor","name":"Gondor"`, 1)), events.ErrInvalidEvent},
		{"data member in other case", []byte(strings.Replace(string(docWith(t, func(map[string]any) {})),
			`"name":"Mordor"`, `"name":"Mordor","NAME":"Gondor"`, 1)), events.ErrInvalidEvent},
		{"repeated data", []byte(strings.Replace(string(docWith(t, func(map[string]any) {})),
			`{"actor"`, `{"data":{"name":"x","system":"ryf"},"actor"`, 1)), events.ErrInvalidEvent},
		{"data not an object", docWith(t, set("data", []any{1})), events.ErrInvalidEvent},
		{"oversized", docWith(t, set("data", map[string]any{"name": strings.Repeat("x", events.MaxSize)})), events.ErrInvalidEvent},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := events.Decode(tt.doc)
			if tt.want == nil {
				require.NoError(t, err)
				b, err := events.Encode(e)
				require.NoError(t, err)
				back, err := events.Decode(b)
				require.NoError(t, err)
				requireSameEvent(t, e, back)
				return
			}
			if !errors.Is(err, tt.want) || !errors.Is(err, events.ErrInvalidEvent) {
				t.Fatalf("Decode error = %v, want %v (and invalid event)", err, tt.want)
			}
		})
	}
}

// TestDecodeAttributeOrder: attributes in any order decode to the same
// event, data before type included.
func TestDecodeAttributeOrder(t *testing.T) {
	e := newCampaignEvent(t)
	doc, err := events.Encode(e)
	require.NoError(t, err)
	var attrs map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(doc, &attrs))
	var b bytes.Buffer
	b.WriteString(`{"data":`)
	b.Write(attrs["data"])
	for _, name := range []string{"time", "causationid", "type", "actor", "session", "campaign", "datacontenttype", "subject", "source", "id", "specversion"} {
		fmt.Fprintf(&b, ",\n %q : %s", name, attrs[name])
	}
	b.WriteString("}\n")
	back, err := events.Decode(b.Bytes())
	require.NoError(t, err)
	e.StreamSubject = ""
	requireSameEvent(t, e, back)
}

func TestDecodeData(t *testing.T) {
	e := newCampaignEvent(t)
	var got events.CampaignCreated
	require.NoError(t, e.DecodeData(&got))
	if got.System != "ryf" {
		t.Fatalf("DecodeData system = %q, want ryf", got.System)
	}
	var other events.EventVoided
	if err := e.DecodeData(&other); !errors.Is(err, events.ErrInvalidEvent) {
		t.Fatalf("DecodeData into the wrong struct: error = %v, want invalid event", err)
	}
}

func TestPrepare(t *testing.T) {
	a := newCampaignEvent(t)
	b := a
	b.ID = "0195952e-6d7f-7000-8000-0000000000bb"
	noSubject := a
	noSubject.StreamSubject = ""
	wrongSubject := a
	wrongSubject.StreamSubject = "journal.gondor"
	oldLayout := a
	oldLayout.StreamSubject = "journal.mordor.campaign.mordor.created"
	onGondor := b
	onGondor.StreamSubject = "journal.gondor"
	onGondor.Campaign, onGondor.Source = "gondor", "/campaigns/gondor"
	// Changed after New: validated afresh.
	otherData := a
	otherData.Data = []byte(`{"name":"Gondor", "system":"ryf"}`)
	unknownField := a
	unknownField.Data = []byte(`{"name":"Gondor","hp":3}`)
	editedInPlace := a
	editedInPlace.Data = bytes.Clone(a.Data)
	editedInPlace.Data[len(editedInPlace.Data)-2] = '\\' // same length, now malformed
	otherType := a
	otherType.Type = events.TypeDayStarted
	byHand := events.Event{SpecVersion: a.SpecVersion, ID: a.ID, Source: a.Source, Type: a.Type, Subject: a.Subject,
		Time: a.Time, DataContentType: a.DataContentType, Campaign: a.Campaign, Actor: a.Actor,
		Data: []byte("{\"name\": \"Mordor <& co>\",\n\"system\":\"ryf\"}"), StreamSubject: a.StreamSubject}
	badByHand := byHand
	badByHand.Data = []byte(`{"Name":"x"}`)
	tests := []struct {
		name   string
		expect events.Expect
		evs    []events.Event
		want   error
	}{
		{"one", events.Expect{}, []events.Event{a}, nil},
		{"two with expectation", events.ExpectLast("journal.mordor", 3), []events.Event{a, b}, nil},
		{"wildcard expectation", events.ExpectLast("journal.mordor.>", 3), []events.Event{a}, events.ErrInvalidID},
		{"expectation on another campaign", events.ExpectLast("journal.gondor", 3), []events.Event{a}, events.ErrInvalidEvent},
		{"one event off the expected subject", events.ExpectLast("journal.mordor", 3), []events.Event{a, onGondor}, events.ErrInvalidEvent},
		{"two campaigns, no expectation", events.Expect{}, []events.Event{a, onGondor}, nil},
		{"none", events.Expect{}, nil, events.ErrInvalidEvent},
		{"same id twice", events.Expect{}, []events.Event{a, a}, events.ErrInvalidEvent},
		{"no stream subject", events.Expect{}, []events.Event{noSubject}, events.ErrInvalidEvent},
		{"stream subject of another campaign", events.Expect{}, []events.Event{wrongSubject}, events.ErrInvalidEvent},
		{"stream subject of the old layout", events.Expect{}, []events.Event{oldLayout}, events.ErrInvalidEvent},
		{"bad expectation filter", events.ExpectLast("mordor.>", 1), []events.Event{a}, events.ErrInvalidID},
		{"sequence without filter", events.Expect{LastSeq: 4}, []events.Event{a}, events.ErrInvalidID},
		{"too many", events.Expect{}, make([]events.Event, events.MaxBatch+1), events.ErrInvalidEvent},
		{"other data", events.Expect{}, []events.Event{otherData}, nil},
		{"unknown field added after New", events.Expect{}, []events.Event{unknownField}, events.ErrInvalidEvent},
		{"data edited in place", events.Expect{}, []events.Event{editedInPlace}, events.ErrInvalidEvent},
		{"type changed after New", events.Expect{}, []events.Event{otherType}, events.ErrInvalidEvent},
		{"built by hand", events.Expect{}, []events.Event{byHand}, nil},
		{"built by hand, data field case", events.Expect{}, []events.Event{badByHand}, events.ErrInvalidEvent},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			docs, err := events.Prepare(tt.expect, tt.evs)
			if tt.want != nil {
				if !errors.Is(err, tt.want) {
					t.Fatalf("Prepare error = %v, want %v", err, tt.want)
				}
				return
			}
			require.NoError(t, err)
			require.Len(t, docs, len(tt.evs))
			for i, d := range docs {
				want, err := events.Encode(tt.evs[i])
				require.NoError(t, err)
				if !bytes.Equal(d, want) {
					t.Fatalf("doc %d = %s, want %s", i, d, want)
				}
				back, err := events.Decode(d)
				require.NoError(t, err)
				if !bytes.Equal(back.Data, compact(t, tt.evs[i].Data)) {
					t.Fatalf("doc %d decodes with data %s", i, back.Data)
				}
			}
		})
	}
}

func compact(t *testing.T, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, json.Compact(&b, data))
	return b.Bytes()
}

func TestDecodeRecorded(t *testing.T) {
	e := newCampaignEvent(t)
	doc, err := events.Encode(e)
	require.NoError(t, err)
	rec, err := events.DecodeRecorded(7, e.StreamSubject, doc)
	require.NoError(t, err)
	if rec.Seq != 7 || rec.Subject != e.StreamSubject || rec.Event.StreamSubject != e.StreamSubject {
		t.Fatalf("DecodeRecorded = %+v", rec)
	}
	if _, err := events.DecodeRecorded(7, "journal.mordor.char.lodin.created", doc); !errors.Is(err, events.ErrInvalidEvent) {
		t.Fatalf("DecodeRecorded under another aggregate: error = %v, want invalid event", err)
	}
	if _, err := events.DecodeRecorded(7, e.StreamSubject, []byte("junk")); !errors.Is(err, events.ErrInvalidEvent) {
		t.Fatalf("DecodeRecorded of junk: error = %v, want invalid event", err)
	}
}

// TestDecodeRecordedOwned: taking the document over reads the same event
// and data as DecodeRecorded, the data a part of the document (no copy),
// bounded so that an append to it cannot overwrite what follows; a
// document the fast path leaves to the general reader still decodes.
func TestDecodeRecordedOwned(t *testing.T) {
	for name, spec := range benchSpecs() {
		e, err := events.New(spec, seqIDs(), testTime)
		require.NoError(t, err)
		doc, err := events.Encode(e)
		require.NoError(t, err)
		copied, err := events.DecodeRecorded(9, e.StreamSubject, doc)
		require.NoError(t, err)
		owned, err := events.DecodeRecordedOwned(9, e.StreamSubject, doc)
		require.NoError(t, err)
		require.Equal(t, copied, owned, name)
		wantPayload, err := copied.Event.Payload()
		require.NoError(t, err)
		gotPayload, err := owned.Event.Payload()
		require.NoError(t, err)
		require.Equal(t, wantPayload, gotPayload, name)

		data := owned.Event.Data
		start := bytes.Index(doc, data)
		require.Positive(t, start, name)
		require.Same(t, &doc[start], &data[0], "%s: the data is a part of the document", name)
		require.Equal(t, len(data), cap(data), "%s: bounded", name)
		before := bytes.Clone(doc)
		_ = append(data, "overwrite"...)
		require.Equal(t, before, doc, name)
		require.NotSame(t, &doc[start], &copied.Event.Data[0], "%s: DecodeRecorded copies", name)

		spaced := bytes.Replace(doc, []byte(`"data":{`), []byte(`"data": {`), 1) // not the fast path's form
		general, err := events.DecodeRecordedOwned(9, e.StreamSubject, spaced)
		require.NoError(t, err)
		require.Equal(t, copied.Event.ID, general.Event.ID, name)
		require.JSONEq(t, string(copied.Event.Data), string(general.Event.Data), name)
	}
}

func FuzzDecode(f *testing.F) {
	valid, err := json.Marshal(validDoc())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(valid)
	f.Add([]byte(`{}`))
	f.Add([]byte(`null`))
	f.Add([]byte(`{"specversion":"1.0","specversion":"1.0"}`))
	f.Add([]byte(strings.Replace(string(valid), `"name":"Mordor"`, `"name":"Mordor","Name":"x"`, 1)))
	f.Add([]byte(strings.Replace(string(valid), `"data":{`, `"data":{"system":{"a":[1,{}]},`, 1)))
	ids := seqIDs()
	for _, info := range events.Types() { // a document of every registered type
		e, err := events.New(events.Spec{Campaign: "mordor", Kind: info.Kind, AggregateID: "lodin", Name: info.Name,
			Type: info.Type, Session: "s1", Actor: "gm", Data: info.NewData()}, ids, testTime)
		if err != nil {
			f.Fatal(err)
		}
		doc, err := events.Encode(e)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(doc)
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		e, err := events.Decode(doc)
		if err != nil {
			if !errors.Is(err, events.ErrInvalidEvent) {
				t.Fatalf("Decode error %v does not wrap ErrInvalidEvent", err)
			}
			return
		}
		// Accepted documents re-encode, and the encoding is a fixed point.
		b1, err := events.Encode(e)
		if err != nil {
			t.Fatalf("Encode of a decoded event: %v", err)
		}
		e2, err := events.Decode(b1)
		if err != nil {
			t.Fatalf("Decode of an encoded event: %v\n%s", err, b1)
		}
		b2, err := events.Encode(e2)
		if err != nil || !bytes.Equal(b1, b2) {
			t.Fatalf("encoding is not stable: %v\n%s\n%s", err, b1, b2)
		}
	})
}
