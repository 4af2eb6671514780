// Package storetest is the acceptance suite every event store passes: the
// contract described in package events, checked against a fresh store per
// test. Run it from a store's tests:
//
//	func TestStore(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) storetest.Store { return memstore.New(memstore.Options{}) })
//	}
package storetest

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
)

// Store is the event store contract under test.
type Store interface {
	Append(ctx context.Context, expect events.Expect, evs ...events.Event) ([]uint64, error)
	Read(ctx context.Context, q events.Query, fn func(events.Recorded) error) error
	Last(ctx context.Context, filter string) (uint64, error)
	events.Follower
	events.Secrets
}

// RawPublisher is a store that can also store a message as it is, as a
// client allowed to publish into the stream directly (the journal's own
// connection) can: what an attack that got that far stores. The suite's
// foreign-message tests run on a store that implements it and are skipped
// on the others.
type RawPublisher interface {
	PublishRaw(ctx context.Context, subject string, data []byte) (uint64, error)
}

// Partitioned is a store whose campaigns are spread over the streams of
// several partitions (package jetstore with Options.Partitions > 1), each
// stream with its own sequences: a campaign's sequences are its stream's,
// a read of several campaigns interleaves the streams (each in order) and
// bounds each stream by From and To, Last on several campaigns is the sum
// of the streams' last sequences. The suite expects that of a store with
// Partitions() > 1, and what one stream does of the others. A
// RawPublisher of such a store publishes a campaign subject's message on
// its partition's subject, any other in partition 0's stream.
type Partitioned interface {
	Partitions() int
}

// partitions returns the store's number of partitions (1 unless Partitioned).
func partitions(s Store) int {
	if p, ok := s.(Partitioned); ok {
		return max(p.Partitions(), 1)
	}
	return 1
}

// model counts the sequences of a store's streams as the suite stores
// messages: what each one's sequence is, whatever the partitions.
type model struct {
	k    int
	last map[int]uint64
}

func newModel(s Store) *model { return &model{k: partitions(s), last: map[int]uint64{}} }

// partition is the partition a message on subject is stored in.
func (m *model) partition(subject string) int {
	if c, err := events.ParseSubject(subject); err == nil {
		return events.Partition(c, m.k)
	}
	return 0
}

// add counts a message stored on subject and returns its sequence.
func (m *model) add(subject string) uint64 {
	p := m.partition(subject)
	m.last[p]++
	return m.last[p]
}

// key is a message's place: its partition and sequence.
type key struct {
	p   int
	seq int64 // negated: a foreign message
}

// keysOf returns the places of a read, ordered by partition when the store
// has several (the order of the streams in a read is not defined; each
// stream's is).
func (m *model) keys(subjects []string, seqs []int64) []key {
	out := make([]key, len(seqs))
	for i := range seqs {
		out[i] = key{m.partition(subjects[i]), seqs[i]}
	}
	if m.k > 1 {
		slices.SortStableFunc(out, func(a, b key) int { return a.p - b.p })
	}
	return out
}

// Run runs the suite; newStore returns an empty store and arranges its
// cleanup with t.Cleanup.
func Run(t *testing.T, newStore func(t *testing.T) Store) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s Store)
	}{
		{"AppendRead", testAppendRead},
		{"ReadQueries", testReadQueries},
		{"ReadSnapshot", testReadSnapshot},
		{"ReadCallbackError", testReadCallbackError},
		{"Last", testLast},
		{"Duplicate", testDuplicate},
		{"LostAck", testLostAck},
		{"StaleExpect", testStaleExpect},
		{"AtomicBatch", testAtomicBatch},
		{"ConcurrentWriters", testConcurrentWriters},
		{"Secrets", testSecrets},
		{"Follow", testFollow},
		{"FollowUntil", testFollowUntil},
		{"Malformed", testMalformed},
		{"InvalidQuery", testInvalidQuery},
		{"ForeignRead", testForeignRead},
		{"ForeignAppend", testForeignAppend},
		{"ForeignFollow", testForeignFollow},
		{"ForeignLongRead", testForeignLongRead},
		{"StoredBytes", testStoredBytes},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.fn(t, newStore(t))
		})
	}
}

func testContext(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// ev builds an event of campaign c on aggregate kind/id. Type TypeEventVoided
// is used when voided is true, TypeCampaignCreated otherwise.
func ev(t *testing.T, c string, kind events.Kind, id, name string, voided bool) events.Event {
	t.Helper()
	spec := events.Spec{
		Campaign: c, Kind: kind, AggregateID: id, Name: name, Actor: "gm",
		Type: events.TypeCampaignCreated, Data: events.CampaignCreated{Name: name, System: "ryf"},
	}
	if voided {
		spec.Type, spec.Data = events.TypeEventVoided, events.EventVoided{EventID: "0195952e-6d7f-7000-8000-000000000001", Reason: name}
	}
	e, err := events.New(spec, events.NewV7(time.Now, rand.Reader), time.Now())
	require.NoError(t, err)
	return e
}

func char(t *testing.T, c, id, name string) events.Event {
	t.Helper()
	return ev(t, c, events.KindCharacter, id, name, false)
}

// readAll returns every recorded event matching q.
func readAll(t *testing.T, s Store, q events.Query) []events.Recorded {
	t.Helper()
	var out []events.Recorded
	require.NoError(t, s.Read(testContext(t), q, func(r events.Recorded) error {
		out = append(out, r)
		return nil
	}))
	return out
}

func seqsOf(recs []events.Recorded) []uint64 {
	out := make([]uint64, len(recs))
	for i, r := range recs {
		out[i] = r.Seq
	}
	return out
}

// sameEvent reports whether two events are the same apart from the time's
// representation.
func sameEvent(a, b events.Event) bool {
	if !a.Time.Equal(b.Time) {
		return false
	}
	a.Time, b.Time = time.Time{}, time.Time{}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb) && a.StreamSubject == b.StreamSubject
}

func testAppendRead(t *testing.T, s Store) {
	ctx := testContext(t)
	in := []events.Event{
		char(t, "mordor", "lodin", "created"),
		char(t, "mordor", "lodin", "roll"),
		char(t, "gondor", "aragorn", "created"),
	}
	m := newModel(s)
	byKey := map[key]events.Event{}
	var want []key
	for i, e := range in {
		seqs, err := s.Append(ctx, events.Expect{}, e)
		require.NoError(t, err)
		if seq := m.add(e.StreamSubject); len(seqs) != 1 || seqs[0] != seq {
			t.Fatalf("append %d: sequences %v, want [%d]", i, seqs, seq)
		}
		k := key{m.partition(e.StreamSubject), int64(seqs[0])}
		want, byKey[k] = append(want, k), e
	}
	want = m.keys(subjectsOf(in), seqsSigned(want))
	got := readAll(t, s, events.Query{})
	gotKeys := m.keys(recSubjects(got), signed(seqsOf(got)))
	require.Equal(t, want, gotKeys, "read")
	for _, r := range got {
		e := byKey[key{m.partition(r.Subject), int64(r.Seq)}]
		if r.Subject != e.StreamSubject || !sameEvent(r.Event, e) {
			t.Fatalf("read %+v\nwant %+v", r, e)
		}
	}
}

func subjectsOf(evs []events.Event) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.StreamSubject
	}
	return out
}

func recSubjects(recs []events.Recorded) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = r.Subject
	}
	return out
}

func signed(seqs []uint64) []int64 {
	out := make([]int64, len(seqs))
	for i, s := range seqs {
		out[i] = int64(s)
	}
	return out
}

func seqsSigned(keys []key) []int64 {
	out := make([]int64, len(keys))
	for i, k := range keys {
		out[i] = k.seq
	}
	return out
}

func testReadQueries(t *testing.T, s Store) {
	ctx := testContext(t)
	in := []events.Event{
		ev(t, "mordor", events.KindCampaign, "mordor", "created", false), // 1
		char(t, "mordor", "lodin", "created"),                            // 2
		ev(t, "mordor", events.KindCharacter, "lodin", "voided", true),   // 3
		char(t, "gondor", "aragorn", "created"),                          // 4
		char(t, "mordor", "frodo", "created"),                            // 5
		ev(t, "mordor", events.KindSession, "s1", "voided", true),        // 6
		char(t, "mordor", "lodin", "roll"),                               // 7
	}
	m := newModel(s)
	seqs := make([]uint64, len(in)) // the model's sequence of each
	for i, e := range in {
		_, err := s.Append(ctx, events.Expect{}, e)
		require.NoError(t, err)
		seqs[i] = m.add(e.StreamSubject)
	}
	mordor, _ := events.CampaignFilter("mordor")
	// expected is what a store of several partitions returns for q: the
	// events matching the filter and types whose stream sequence is within
	// From and To, each stream in order.
	expected := func(q events.Query) []key {
		var subjects []string
		var want []int64
		for i, e := range in {
			if events.Match(q.Filter(), e.StreamSubject) && q.WantsType(e.Type) && seqs[i] >= max(q.From, 1) && (q.To == 0 || seqs[i] <= q.To) {
				subjects, want = append(subjects, e.StreamSubject), append(want, int64(seqs[i]))
			}
		}
		return m.keys(subjects, want)
	}
	tests := []struct {
		name string
		q    events.Query
		want []uint64
	}{
		{"all", events.Query{}, []uint64{1, 2, 3, 4, 5, 6, 7}},
		{"campaign", events.Query{Subject: mordor}, []uint64{1, 2, 3, 5, 6, 7}},
		{"every campaign", events.Query{Subject: events.StreamSubjects}, []uint64{1, 2, 3, 4, 5, 6, 7}},
		{"type", events.Query{Types: []string{events.TypeEventVoided}}, []uint64{3, 6}},
		{"campaign and type", events.Query{Subject: mordor, Types: []string{events.TypeCampaignCreated}}, []uint64{1, 2, 5, 7}},
		{"from", events.Query{From: 5}, []uint64{5, 6, 7}},
		{"to", events.Query{To: 2}, []uint64{1, 2}},
		{"range on campaign", events.Query{Subject: mordor, From: 3, To: 6}, []uint64{3, 5, 6}},
		{"range past the end", events.Query{From: 7, To: 100}, []uint64{7}},
		{"from past the end", events.Query{From: 8}, nil},
		{"empty range", events.Query{From: 5, To: 4}, nil},
		{"no such campaign", events.Query{Subject: "journal.rohan"}, nil},
		{"below a campaign subject", events.Query{Subject: "journal.mordor.>"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs := readAll(t, s, tt.q)
			got := seqsOf(recs)
			if m.k > 1 {
				require.Equal(t, expected(tt.q), m.keys(recSubjects(recs), signed(got)), "read %+v", tt.q)
				return
			}
			if !slices.Equal(got, tt.want) {
				t.Fatalf("read %+v = %v, want %v", tt.q, got, tt.want)
			}
		})
	}
}

// testReadSnapshot: a read stops at the last sequence present when it started.
func testReadSnapshot(t *testing.T, s Store) {
	ctx := testContext(t)
	for range 3 {
		_, err := s.Append(ctx, events.Expect{}, char(t, "mordor", "lodin", "roll"))
		require.NoError(t, err)
	}
	var got []uint64
	err := s.Read(ctx, events.Query{}, func(r events.Recorded) error {
		got = append(got, r.Seq)
		_, err := s.Append(ctx, events.Expect{}, char(t, "mordor", "lodin", "roll"))
		return err
	})
	require.NoError(t, err)
	if !slices.Equal(got, []uint64{1, 2, 3}) {
		t.Fatalf("read while appending = %v, want [1 2 3]", got)
	}
	last, err := s.Last(ctx, events.AllFilter)
	require.NoError(t, err)
	if last != 6 {
		t.Fatalf("last = %d, want 6", last)
	}
}

func testReadCallbackError(t *testing.T, s Store) {
	ctx := testContext(t)
	for range 3 {
		_, err := s.Append(ctx, events.Expect{}, char(t, "mordor", "lodin", "roll"))
		require.NoError(t, err)
	}
	stop := errors.New("stop")
	n := 0
	err := s.Read(ctx, events.Query{}, func(events.Recorded) error {
		n++
		if n == 2 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || n != 2 {
		t.Fatalf("read with a failing callback: error %v after %d events, want stop after 2", err, n)
	}
}

func testLast(t *testing.T, s Store) {
	ctx := testContext(t)
	last := func(filter string) uint64 {
		t.Helper()
		seq, err := s.Last(ctx, filter)
		require.NoError(t, err)
		return seq
	}
	if got := last(events.AllFilter); got != 0 {
		t.Fatalf("last of an empty store = %d, want 0", got)
	}
	m := newModel(s)
	lastOf := map[string]uint64{}
	for _, e := range []events.Event{
		char(t, "mordor", "lodin", "created"),
		char(t, "gondor", "aragorn", "created"),
		char(t, "mordor", "frodo", "created"),
	} {
		_, err := s.Append(ctx, events.Expect{}, e)
		require.NoError(t, err)
		lastOf[e.StreamSubject] = m.add(e.StreamSubject)
	}
	tests := []struct {
		filter string
		want   uint64
	}{
		{events.AllFilter, 3}, // several partitions: the sum of their last sequences
		{events.StreamSubjects, 3},
		{"journal.mordor", lastOf["journal.mordor"]}, // 3 on one stream
		{"journal.gondor", lastOf["journal.gondor"]}, // 2 on one stream
		{"journal.rohan", 0},
	}
	for _, tt := range tests {
		if got := last(tt.filter); got != tt.want {
			t.Errorf("last(%s) = %d, want %d", tt.filter, got, tt.want)
		}
	}
	if _, err := s.Last(ctx, "journal.Mordor"); !errors.Is(err, events.ErrInvalidID) {
		t.Fatalf("last of a bad filter: error = %v, want invalid id", err)
	}
}

func testDuplicate(t *testing.T, s Store) {
	ctx := testContext(t)
	lodin, _ := events.CampaignFilter("mordor")
	a := char(t, "mordor", "lodin", "created")
	seqs, err := s.Append(ctx, events.ExpectLast(lodin, 0), a)
	require.NoError(t, err)
	require.Equal(t, []uint64{1}, seqs)

	// A retry with the (now stale) expectation is stored once.
	again, err := s.Append(ctx, events.ExpectLast(lodin, 0), a)
	if err != nil || !slices.Equal(again, seqs) {
		t.Fatalf("repeated append = %v, %v; want %v, nil", again, err, seqs)
	}

	// The same for a batch.
	b, c := char(t, "mordor", "lodin", "roll"), char(t, "mordor", "lodin", "roll")
	batch, err := s.Append(ctx, events.ExpectLast(lodin, 1), b, c)
	require.NoError(t, err)
	require.Equal(t, []uint64{2, 3}, batch)
	again, err = s.Append(ctx, events.ExpectLast(lodin, 1), b, c)
	if err != nil || !slices.Equal(again, batch) {
		t.Fatalf("repeated batch = %v, %v; want %v, nil", again, err, batch)
	}

	// A batch mixing stored and new events is refused whole.
	d := char(t, "mordor", "lodin", "roll")
	if _, err := s.Append(ctx, events.ExpectLast(lodin, 1), c, d); !errors.Is(err, events.ErrInvalidEvent) {
		t.Fatalf("batch with one stored event: error = %v, want invalid event", err)
	}
	got := readAll(t, s, events.Query{})
	if !slices.Equal(seqsOf(got), []uint64{1, 2, 3}) {
		t.Fatalf("stored sequences %v, want [1 2 3]", seqsOf(got))
	}

	// Without an expectation, a retry within the window is stored once.
	e := char(t, "gondor", "boromir", "created")
	first, err := s.Append(ctx, events.Expect{}, e)
	require.NoError(t, err)
	again, err = s.Append(ctx, events.Expect{}, e)
	if err != nil || !slices.Equal(again, first) {
		t.Fatalf("repeated append without an expectation = %v, %v; want %v, nil", again, err, first)
	}
}

// testLostAck: a writer whose acknowledgement was lost retries the very
// same append (same events, same expectation) after other writers have
// moved the campaign on. The retry must return the original sequences and
// store nothing, where a naive store would report a conflict (the
// expectation is stale) or store the events again.
func testLostAck(t *testing.T, s Store) {
	ctx := testContext(t)
	mordor, _ := events.CampaignFilter("mordor")
	first, err := s.Append(ctx, events.ExpectLast(mordor, 0), char(t, "mordor", "lodin", "created"))
	require.NoError(t, err)

	one := char(t, "mordor", "lodin", "roll")
	batch := []events.Event{char(t, "mordor", "lodin", "attack"), char(t, "mordor", "orco", "damage"), char(t, "mordor", "orco", "hp")}
	seqOne, err := s.Append(ctx, events.ExpectLast(mordor, first[0]), one)
	require.NoError(t, err)
	seqBatch, err := s.Append(ctx, events.ExpectLast(mordor, seqOne[0]), batch...)
	require.NoError(t, err)
	// Another writer moves on.
	other, err := s.Append(ctx, events.ExpectLast(mordor, seqBatch[2]), char(t, "mordor", "frodo", "roll"))
	require.NoError(t, err)
	before := seqsOf(readAll(t, s, events.Query{}))

	for attempt := range 3 {
		got, err := s.Append(ctx, events.ExpectLast(mordor, first[0]), one)
		if err != nil || !slices.Equal(got, seqOne) {
			t.Fatalf("retry %d of a single append = %v, %v; want %v, nil", attempt, got, err, seqOne)
		}
		got, err = s.Append(ctx, events.ExpectLast(mordor, seqOne[0]), batch...)
		if err != nil || !slices.Equal(got, seqBatch) {
			t.Fatalf("retry %d of a batch = %v, %v; want %v, nil", attempt, got, err, seqBatch)
		}
	}
	if after := seqsOf(readAll(t, s, events.Query{})); !slices.Equal(after, before) {
		t.Fatalf("stored %v after the retries, want %v", after, before)
	}
	// A genuinely new append with the stale expectation is still a conflict.
	if _, err := s.Append(ctx, events.ExpectLast(mordor, seqOne[0]), char(t, "mordor", "lodin", "roll")); !errors.Is(err, events.ErrConcurrency) {
		t.Fatalf("new append on a stale expectation: error = %v, want concurrency", err)
	}
	last, err := s.Last(ctx, mordor)
	require.NoError(t, err)
	require.Equal(t, other[0], last)
}

// testStaleExpect: an expectation is on one campaign's subject: another
// campaign's appends never make it stale, and any other sequence than the
// campaign's last is refused, the stream's last included.
func testStaleExpect(t *testing.T, s Store) {
	ctx := testContext(t)
	mordor, _ := events.CampaignFilter("mordor")
	gondor, _ := events.CampaignFilter("gondor")

	m := newModel(s)
	_, err := s.Append(ctx, events.ExpectLast(mordor, 0), char(t, "mordor", "lodin", "created")) // 1
	require.NoError(t, err)
	first := m.add(mordor)
	_, err = s.Append(ctx, events.ExpectLast(gondor, 0), char(t, "gondor", "aragorn", "created")) // 2
	require.NoError(t, err, "an expectation on another campaign is independent")
	other := m.add(gondor)
	_, err = s.Append(ctx, events.ExpectLast(mordor, first), char(t, "mordor", "frodo", "created")) // 3
	require.NoError(t, err, "another campaign's append does not make the expectation stale")
	third := m.add(mordor)

	tests := []struct {
		name   string
		expect events.Expect
	}{
		{"nothing there yet, but there is", events.ExpectLast(mordor, 0)},
		{"older sequence on the campaign", events.ExpectLast(mordor, first)},
		{"newer sequence than exists", events.ExpectLast(mordor, 9)},
	}
	if other != third { // the same stream: gondor's is the stream's last before mordor's
		tests = append(tests, struct {
			name   string
			expect events.Expect
		}{"the stream's last, another campaign's", events.ExpectLast(mordor, other)})
	}
	for _, tt := range tests {
		_, err := s.Append(ctx, tt.expect, char(t, "mordor", "lodin", "roll"))
		if !errors.Is(err, events.ErrConcurrency) {
			t.Fatalf("%s: error = %v, want concurrency", tt.name, err)
		}
	}
	if got := readAll(t, s, events.Query{}); len(got) != 3 {
		t.Fatalf("stored %v after refused appends, want 3 events", seqsOf(got))
	}
	seqs, err := s.Append(ctx, events.ExpectLast(mordor, third), char(t, "mordor", "lodin", "roll"))
	require.NoError(t, err)
	require.Equal(t, []uint64{m.add(mordor)}, seqs)
	if _, err := s.Append(ctx, events.ExpectLast(gondor, 2), char(t, "mordor", "lodin", "roll")); !errors.Is(err, events.ErrInvalidEvent) {
		t.Fatalf("expectation on another campaign than the event's: error = %v, want invalid event", err)
	}
	if _, err := s.Append(ctx, events.ExpectLast("journal.mordor.>", 4), char(t, "mordor", "lodin", "roll")); !errors.Is(err, events.ErrInvalidID) {
		t.Fatalf("wildcard expectation: error = %v, want invalid id", err)
	}
}

func testAtomicBatch(t *testing.T, s Store) {
	ctx := testContext(t)
	lodin, _ := events.CampaignFilter("mordor")
	_, err := s.Append(ctx, events.Expect{}, char(t, "mordor", "lodin", "created"))
	require.NoError(t, err)

	batch := []events.Event{
		char(t, "mordor", "lodin", "attack"),
		char(t, "mordor", "frodo", "damage"),
		ev(t, "mordor", events.KindCharacter, "frodo", "voided", true),
	}
	_, err = s.Append(ctx, events.ExpectLast(lodin, 0), batch...)
	if !errors.Is(err, events.ErrConcurrency) {
		t.Fatalf("stale batch: error = %v, want concurrency", err)
	}
	if got := seqsOf(readAll(t, s, events.Query{})); !slices.Equal(got, []uint64{1}) {
		t.Fatalf("stored %v after a refused batch, want [1]", got)
	}
	seqs, err := s.Append(ctx, events.ExpectLast(lodin, 1), batch...)
	require.NoError(t, err)
	if !slices.Equal(seqs, []uint64{2, 3, 4}) {
		t.Fatalf("batch sequences %v, want [2 3 4]", seqs)
	}
	got := readAll(t, s, events.Query{From: 2})
	for i, r := range got {
		if !sameEvent(r.Event, batch[i]) {
			t.Fatalf("batch event %d = %+v, want %+v", i, r.Event, batch[i])
		}
	}
	// Without an expectation too.
	seqs, err = s.Append(ctx, events.Expect{}, char(t, "mordor", "lodin", "a"), char(t, "mordor", "lodin", "b"))
	require.NoError(t, err)
	require.Equal(t, []uint64{5, 6}, seqs)
}

// testConcurrentWriters: writers on one aggregate each read the state, append
// with an expectation on the last sequence they read, and retry on
// ErrConcurrency. Each event records the count it saw plus one, so a lost
// update would show as a repeated or missing count.
func testConcurrentWriters(t *testing.T, s Store) {
	ctx := testContext(t)
	const writers, n = 2, 15
	lodin, _ := events.CampaignFilter("mordor")
	var wg sync.WaitGroup
	conflicts := make([]int, writers)
	for w := range writers {
		wg.Go(func() {
			for i := 0; i < n; {
				var count int
				var last uint64
				err := s.Read(ctx, events.Query{Subject: lodin}, func(r events.Recorded) error {
					count++
					last = r.Seq
					return nil
				})
				if err != nil {
					t.Errorf("writer %d: read: %v", w, err)
					return
				}
				e := char(t, "mordor", "lodin", "inc")
				e.Data, _ = json.Marshal(events.CampaignCreated{Name: strconv.Itoa(count + 1), System: fmt.Sprint(w)})
				_, err = s.Append(ctx, events.ExpectLast(lodin, last), e)
				switch {
				case errors.Is(err, events.ErrConcurrency):
					conflicts[w]++
				case err != nil:
					t.Errorf("writer %d: append: %v", w, err)
					return
				default:
					i++
				}
			}
		})
	}
	wg.Wait()
	got := readAll(t, s, events.Query{Subject: lodin})
	if len(got) != writers*n {
		t.Fatalf("stored %d events, want %d", len(got), writers*n)
	}
	perWriter := map[string]int{}
	for i, r := range got {
		var d events.CampaignCreated
		require.NoError(t, r.Event.DecodeData(&d))
		if d.Name != strconv.Itoa(i+1) {
			t.Fatalf("event %d (seq %d) saw count %s, want %d: a lost update", i, r.Seq, d.Name, i+1)
		}
		perWriter[d.System]++
	}
	for w := range writers {
		if perWriter[fmt.Sprint(w)] != n {
			t.Fatalf("writer %d stored %d events, want %d", w, perWriter[fmt.Sprint(w)], n)
		}
	}
	t.Logf("conflicts retried: %v", conflicts)
}

func testSecrets(t *testing.T, s Store) {
	ctx := testContext(t)
	key, err := events.SecretKey("mordor", "s1")
	require.NoError(t, err)
	if _, err := s.GetSecret(ctx, key); !errors.Is(err, events.ErrNotFound) {
		t.Fatalf("get of a missing secret: error = %v, want not found", err)
	}
	require.NoError(t, s.PutSecret(ctx, key, []byte("seed-1")))
	if err := s.PutSecret(ctx, key, []byte("seed-2")); !errors.Is(err, events.ErrExists) {
		t.Fatalf("second put: error = %v, want exists", err)
	}
	got, err := s.GetSecret(ctx, key)
	require.NoError(t, err)
	if string(got) != "seed-1" {
		t.Fatalf("secret = %q, want seed-1", got)
	}
	other, _ := events.SecretKey("mordor", "s2")
	require.NoError(t, s.PutSecret(ctx, other, []byte("seed-3")))
	for _, bad := range []string{"", "a.*", "a b", "A", "a..b"} {
		if err := s.PutSecret(ctx, bad, []byte("x")); !errors.Is(err, events.ErrInvalidID) {
			t.Errorf("put under %q: error = %v, want invalid id", bad, err)
		}
	}
}

func testFollow(t *testing.T, s Store) {
	ctx := testContext(t)
	m := newModel(s)
	_, err := s.Append(ctx, events.Expect{}, char(t, "mordor", "lodin", "created"))
	require.NoError(t, err)
	first := m.add("journal.mordor")
	_, err = s.Append(ctx, events.Expect{}, char(t, "gondor", "aragorn", "created"))
	require.NoError(t, err)
	m.add("journal.gondor")

	fctx, cancel := context.WithCancel(ctx)
	defer cancel()
	got := make(chan events.Recorded, 16)
	done := make(chan error, 1)
	go func() {
		done <- s.Follow(fctx, events.Query{Subject: "journal.mordor"}, func(r events.Recorded) error {
			got <- r
			return nil
		})
	}()
	next := func() events.Recorded {
		t.Helper()
		select {
		case r := <-got:
			return r
		case err := <-done:
			t.Fatalf("follow ended: %v", err)
		case <-time.After(10 * time.Second):
			t.Fatal("follow delivered nothing in 10s")
		}
		return events.Recorded{}
	}
	if r := next(); r.Seq != first {
		t.Fatalf("first followed seq = %d, want %d", r.Seq, first)
	}
	_, err = s.Append(ctx, events.Expect{}, char(t, "gondor", "aragorn", "roll"))
	require.NoError(t, err)
	m.add("journal.gondor")
	e := char(t, "mordor", "lodin", "roll")
	_, err = s.Append(ctx, events.Expect{}, e)
	require.NoError(t, err)
	if want := m.add("journal.mordor"); true {
		if r := next(); r.Seq != want || r.Event.ID != e.ID {
			t.Fatalf("followed %d %s, want %d %s", r.Seq, r.Event.ID, want, e.ID)
		}
	}
	batch := []events.Event{char(t, "mordor", "lodin", "a"), char(t, "mordor", "lodin", "b")}
	_, err = s.Append(ctx, events.Expect{}, batch...)
	require.NoError(t, err)
	for range batch {
		if r, want := next(), m.add("journal.mordor"); r.Seq != want {
			t.Fatalf("followed %d, want %d", r.Seq, want)
		}
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("follow ended with %v, want context canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("follow did not end after cancel")
	}

	// With To, Follow ends by itself once To is passed.
	var seqs []uint64
	q := events.Query{From: 2, To: 4}
	if m.k > 1 {
		// To is one stream's sequence: refused over several streams.
		require.Error(t, s.Follow(ctx, q, func(events.Recorded) error { return nil }), "a follow with To over several streams")
		q.Subject = "journal.mordor" // 1..5 on its stream
	}
	err = s.Follow(ctx, q, func(r events.Recorded) error {
		seqs = append(seqs, r.Seq)
		return nil
	})
	require.NoError(t, err)
	if !slices.Equal(seqs, []uint64{2, 3, 4}) {
		t.Fatalf("follow 2..4 = %v, want [2 3 4]", seqs)
	}
}

// testFollowUntil: Follow with To ends once the stream reaches To, even when
// the event at To does not match the filter.
func testFollowUntil(t *testing.T, s Store) {
	ctx := testContext(t)
	_, err := s.Append(ctx, events.Expect{}, char(t, "mordor", "lodin", "created"))
	require.NoError(t, err)
	done := make(chan error, 1)
	var got []uint64
	go func() {
		done <- s.Follow(ctx, events.Query{Subject: "journal.mordor", To: 3}, func(r events.Recorded) error {
			got = append(got, r.Seq)
			return nil
		})
	}()
	time.Sleep(50 * time.Millisecond)
	_, err = s.Append(ctx, events.Expect{}, char(t, "mordor", "lodin", "roll"), char(t, samePartition(s, "mordor"), "x", "roll"))
	require.NoError(t, err)
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("follow did not end after the stream reached To")
	}
	if !slices.Equal(got, []uint64{1, 2}) {
		t.Fatalf("followed %v, want [1 2]", got)
	}
}

// samePartition returns a campaign other than c stored in c's stream:
// gondor with one partition.
func samePartition(s Store, c string) string {
	k := partitions(s)
	for i := 0; ; i++ {
		o := "gondor"
		if i > 0 {
			o = fmt.Sprint("gondor-", i)
		}
		if events.Partition(o, k) == events.Partition(c, k) {
			return o
		}
	}
}

func testMalformed(t *testing.T, s Store) {
	ctx := testContext(t)
	good := char(t, "mordor", "lodin", "created")
	tests := []struct {
		name string
		edit func(*events.Event)
		want error
	}{
		{"unknown data field", func(e *events.Event) { e.Data = json.RawMessage(`{"name":"x","hp":3}`) }, events.ErrInvalidEvent},
		{"data not json", func(e *events.Event) { e.Data = json.RawMessage(`{"name":`) }, events.ErrInvalidEvent},
		{"unknown type", func(e *events.Event) { e.Type = "journal.dragon.slain.v1" }, events.ErrUnknownType},
		{"bad id", func(e *events.Event) { e.ID = "1" }, events.ErrInvalidEvent},
		{"no stream subject", func(e *events.Event) { e.StreamSubject = "" }, events.ErrInvalidEvent},
		{"stream subject of another campaign", func(e *events.Event) { e.StreamSubject = "journal.gondor" }, events.ErrInvalidEvent},
		{"wildcard stream subject", func(e *events.Event) { e.StreamSubject = "journal.>" }, events.ErrInvalidID},
		{"stream subject of the old layout", func(e *events.Event) { e.StreamSubject = "journal.mordor.char.lodin.roll" }, events.ErrInvalidID},
		{"wrong specversion", func(e *events.Event) { e.SpecVersion = "0.3" }, events.ErrInvalidEvent},
		{"bad session", func(e *events.Event) { e.Session = "S1" }, events.ErrInvalidID},
		{"zero time", func(e *events.Event) { e.Time = time.Time{} }, events.ErrInvalidEvent},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bad := char(t, "mordor", "lodin", "roll")
			tt.edit(&bad)
			if _, err := s.Append(ctx, events.Expect{}, bad); !errors.Is(err, tt.want) {
				t.Fatalf("append: error = %v, want %v", err, tt.want)
			}
			if _, err := s.Append(ctx, events.Expect{}, good, bad); !errors.Is(err, tt.want) {
				t.Fatalf("batch append: error = %v, want %v", err, tt.want)
			}
		})
	}
	if _, err := s.Append(ctx, events.Expect{}); !errors.Is(err, events.ErrInvalidEvent) {
		t.Fatalf("empty append: error = %v, want invalid event", err)
	}
	if _, err := s.Append(ctx, events.ExpectLast("mordor", 0), good); !errors.Is(err, events.ErrInvalidID) {
		t.Fatalf("append with a bad expectation filter: error = %v, want invalid id", err)
	}
	last, err := s.Last(ctx, events.AllFilter)
	require.NoError(t, err)
	if last != 0 {
		t.Fatalf("last sequence %d after refused appends, want 0", last)
	}
}

func testInvalidQuery(t *testing.T, s Store) {
	ctx := testContext(t)
	nop := func(events.Recorded) error { return nil }
	tests := []struct {
		name string
		q    events.Query
		want error
	}{
		{"bad filter", events.Query{Subject: "other.>"}, events.ErrInvalidID},
		{"upper case", events.Query{Subject: "journal.Mordor.>"}, events.ErrInvalidID},
		{"unknown type", events.Query{Types: []string{"journal.dragon.slain.v1"}}, events.ErrUnknownType},
	}
	for _, tt := range tests {
		if err := s.Read(ctx, tt.q, nop); !errors.Is(err, tt.want) {
			t.Errorf("read %s: error = %v, want %v", tt.name, err, tt.want)
		}
		if err := s.Follow(ctx, tt.q, nop); !errors.Is(err, tt.want) {
			t.Errorf("follow %s: error = %v, want %v", tt.name, err, tt.want)
		}
	}
}

// rawPublisher returns the store's RawPublisher, or skips the test.
func rawPublisher(t *testing.T, s Store) RawPublisher {
	t.Helper()
	p, ok := s.(RawPublisher)
	if !ok {
		t.Skip("the store cannot publish a raw message")
	}
	return p
}

// publishForeign stores data under subject as is and returns its sequence.
func publishForeign(t *testing.T, p RawPublisher, subject string, data []byte) uint64 {
	t.Helper()
	seq, err := p.PublishRaw(testContext(t), subject, data)
	require.NoError(t, err)
	return seq
}

// foreignDocs are messages that are not events of the subject they are
// published under, as an attacker or a broken client could publish them.
func foreignDocs(t *testing.T) map[string][]byte {
	t.Helper()
	other, err := events.Encode(char(t, "gondor", "aragorn", "roll")) // a valid event, of another campaign
	require.NoError(t, err)
	return map[string][]byte{
		"not json":               []byte("hello, journal"),
		"json, not an event":     []byte(`{"hello":"world"}`),
		"empty":                  nil,
		"event of another place": other,
	}
}

// reading collects what a read passes to fn and to OnForeign, in order:
// an event as its sequence, a foreign message as its negated sequence.
type reading struct {
	order    []int64
	subjects []string // of each in order
	foreign  []events.Foreign
}

func (r *reading) query(q events.Query) events.Query {
	q.OnForeign = func(f events.Foreign) error {
		r.order = append(r.order, -int64(f.Seq))
		r.subjects = append(r.subjects, f.Subject)
		r.foreign = append(r.foreign, f)
		return nil
	}
	return q
}

func (r *reading) event(rec events.Recorded) error {
	r.order = append(r.order, int64(rec.Seq))
	r.subjects = append(r.subjects, rec.Subject)
	return nil
}

// stored is the subject a foreign message published on subject is
// reported with: subject itself, but in a store of several partitions a
// subject that is no campaign's, which goes in partition 0's stream.
func (m *model) stored(subject string) string {
	if _, err := events.ParseSubject(subject); err == nil || m.k <= 1 {
		return subject
	}
	return events.Prefix + ".0." + strings.TrimPrefix(subject, events.Prefix+".")
}

// testForeignRead: a message that is not an event never ends a read; it is
// reported to OnForeign in its place, with its sequence, subject and why,
// whatever the query's types, and never passed to fn.
func testForeignRead(t *testing.T, s Store) {
	ctx := testContext(t)
	p := rawPublisher(t, s)
	lodinRoll := "journal.mordor"
	m := newModel(s)
	type msg struct {
		subject string
		seq     int64 // negated: foreign
	}
	var all []msg
	add := func(subject string, foreign bool) {
		seq := int64(m.add(subject))
		if foreign {
			seq = -seq
		}
		all = append(all, msg{subject, seq})
	}
	_, err := s.Append(ctx, events.Expect{}, char(t, "mordor", "lodin", "created")) // 1
	require.NoError(t, err)
	add(lodinRoll, false)
	docs := foreignDocs(t)
	names := []string{"not json", "json, not an event", "empty", "event of another place"}
	subjects := map[key]string{}
	for _, name := range names { // 2..5
		seq := publishForeign(t, p, lodinRoll, docs[name])
		subjects[key{m.partition(lodinRoll), int64(seq)}] = lodinRoll
		add(lodinRoll, true)
	}
	seq := publishForeign(t, p, "journal.Not-A-Slug", []byte("x")) // 6: not even a campaign subject
	subjects[key{0, int64(seq)}] = m.stored("journal.Not-A-Slug")
	add("journal.Not-A-Slug", true)
	gondorOf := samePartition(s, "mordor")                                                                               // one atomic append
	_, err = s.Append(ctx, events.Expect{}, char(t, "mordor", "lodin", "roll"), char(t, gondorOf, "aragorn", "created")) // 7, 8
	require.NoError(t, err)
	add(lodinRoll, false)
	add("journal."+gondorOf, false)
	// expected is the order of a read of q on a store of several
	// partitions (none of the events is voided).
	expected := func(q events.Query) []key {
		var subs []string
		var want []int64
		for _, x := range all {
			seq := uint64(max(x.seq, -x.seq))
			if events.Match(q.Filter(), x.subject) && (x.seq < 0 || q.WantsType(events.TypeCampaignCreated)) && seq >= max(q.From, 1) && (q.To == 0 || seq <= q.To) {
				subs, want = append(subs, x.subject), append(want, x.seq)
			}
		}
		return m.keys(subs, want)
	}

	tests := []struct {
		name string
		q    events.Query
		want []int64
	}{
		{"all", events.Query{}, []int64{1, -2, -3, -4, -5, -6, 7, 8}},
		{"campaign", events.Query{Subject: "journal.mordor"}, []int64{1, -2, -3, -4, -5, 7}},
		{"other campaign", events.Query{Subject: "journal." + gondorOf}, []int64{8}},
		{"types", events.Query{Types: []string{events.TypeEventVoided}}, []int64{-2, -3, -4, -5, -6}},
		{"range", events.Query{From: 3, To: 4}, []int64{-3, -4}},
		{"ending on one", events.Query{Subject: "journal.mordor", To: 5}, []int64{1, -2, -3, -4, -5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r reading
			require.NoError(t, s.Read(ctx, r.query(tt.q), r.event))
			if m.k > 1 {
				require.Equal(t, expected(tt.q), m.keys(r.subjects, r.order))
			} else {
				require.Equal(t, tt.want, r.order)
			}
			for _, f := range r.foreign {
				require.Equal(t, subjects[key{m.partition(f.Subject), int64(f.Seq)}], f.Subject, "subject of %d", f.Seq)
				require.ErrorIs(t, f, events.ErrInvalidEvent)
				require.Contains(t, f.Error(), fmt.Sprintf("sequence %d (%s)", f.Seq, f.Subject))
			}
		})
	}

	// Unreported, the messages are skipped all the same.
	var got reading
	require.NoError(t, s.Read(ctx, events.Query{}, got.event))
	if m.k > 1 {
		var want []key
		for _, k := range expected(events.Query{}) {
			if k.seq > 0 {
				want = append(want, k)
			}
		}
		require.Equal(t, want, m.keys(got.subjects, got.order))
	} else {
		require.Equal(t, []int64{1, 7, 8}, got.order)
	}

	// OnForeign's error ends the read, as fn's does.
	stop := errors.New("stop")
	var seen []uint64
	err = s.Read(ctx, events.Query{Subject: lodinRoll, OnForeign: func(f events.Foreign) error {
		seen = append(seen, f.Seq)
		return stop
	}}, func(r events.Recorded) error {
		seen = append(seen, r.Seq)
		return nil
	})
	require.ErrorIs(t, err, stop)
	require.Equal(t, []uint64{1, 2}, seen)
}

// testForeignAppend: a foreign message on a campaign is its last sequence,
// as the stream counts it: an expectation that takes it into account is
// met, one that does not is a conflict.
func testForeignAppend(t *testing.T, s Store) {
	ctx := testContext(t)
	p := rawPublisher(t, s)
	mordor, _ := events.CampaignFilter("mordor")
	first, err := s.Append(ctx, events.ExpectLast(mordor, 0), char(t, "mordor", "lodin", "created"))
	require.NoError(t, err)
	foreign := publishForeign(t, p, "journal.mordor", []byte("garbage"))
	last, err := s.Last(ctx, mordor)
	require.NoError(t, err)
	require.Equal(t, foreign, last, "the last sequence on the campaign counts the foreign message")

	// What a reader folding events only would expect.
	_, err = s.Append(ctx, events.ExpectLast(mordor, first[0]), char(t, "mordor", "lodin", "roll"))
	require.ErrorIs(t, err, events.ErrConcurrency)
	// What a reader taking the reported message into account expects.
	var seen uint64
	require.NoError(t, s.Read(ctx, events.Query{Subject: mordor, OnForeign: func(f events.Foreign) error {
		seen = max(seen, f.Seq)
		return nil
	}}, func(r events.Recorded) error {
		seen = max(seen, r.Seq)
		return nil
	}))
	seqs, err := s.Append(ctx, events.ExpectLast(mordor, seen), char(t, "mordor", "lodin", "roll"))
	require.NoError(t, err)
	require.Equal(t, []uint64{foreign + 1}, seqs)
	seqs, err = s.Append(ctx, events.ExpectLast(mordor, seqs[0]), char(t, "mordor", "lodin", "a"), char(t, "mordor", "lodin", "b"))
	require.NoError(t, err)
	require.Equal(t, []uint64{foreign + 2, foreign + 3}, seqs)
}

// testForeignFollow: a follow goes on past a foreign message, stored
// before it started or while it follows, and reports it in its place.
func testForeignFollow(t *testing.T, s Store) {
	ctx := testContext(t)
	p := rawPublisher(t, s)
	_, err := s.Append(ctx, events.Expect{}, char(t, "mordor", "lodin", "created")) // 1
	require.NoError(t, err)
	publishForeign(t, p, "journal.mordor", []byte("garbage")) // 2

	fctx, cancel := context.WithCancel(ctx)
	defer cancel()
	got := make(chan int64, 16)
	done := make(chan error, 1)
	go func() {
		done <- s.Follow(fctx, events.Query{Subject: "journal.mordor", OnForeign: func(f events.Foreign) error {
			got <- -int64(f.Seq)
			return nil
		}}, func(r events.Recorded) error {
			got <- int64(r.Seq)
			return nil
		})
	}()
	next := func() int64 {
		t.Helper()
		select {
		case n := <-got:
			return n
		case err := <-done:
			t.Fatalf("follow ended: %v", err)
		case <-time.After(10 * time.Second):
			t.Fatal("follow delivered nothing in 10s")
		}
		return 0
	}
	require.Equal(t, int64(1), next())
	require.Equal(t, int64(-2), next())
	publishForeign(t, p, "journal.mordor", []byte(`{"specversion":"1.0"}`))     // 3
	_, err = s.Append(ctx, events.Expect{}, char(t, "mordor", "lodin", "roll")) // 4
	require.NoError(t, err)
	require.Equal(t, int64(-3), next())
	require.Equal(t, int64(4), next())
	cancel()
	require.ErrorIs(t, <-done, context.Canceled)

	// With To on a foreign message, Follow ends once it is passed.
	var r reading
	q := events.Query{From: 2, To: 3}
	if partitions(s) > 1 {
		q.Subject = "journal.mordor" // To is one stream's sequence
	}
	require.NoError(t, s.Follow(ctx, r.query(q), r.event))
	require.Equal(t, []int64{-2, -3}, r.order)
}

// testForeignLongRead: foreign messages among thousands of events (a read
// long enough for a store to switch to its bulk path) are each reported
// in place, and every event around them is read.
func testForeignLongRead(t *testing.T, s Store) {
	ctx := testContext(t)
	p := rawPublisher(t, s)
	batch := func() []events.Event {
		evs := make([]events.Event, events.MaxBatch)
		for i := range evs {
			evs[i] = char(t, "mordor", "lodin", "roll")
		}
		return evs
	}
	var foreign []uint64
	publish := func() {
		foreign = append(foreign, publishForeign(t, p, "journal.mordor", []byte("garbage")))
	}
	publish()
	_, err := s.Append(ctx, events.Expect{}, batch()...)
	require.NoError(t, err)
	publish()
	publish()
	_, err = s.Append(ctx, events.Expect{}, batch()...)
	require.NoError(t, err)
	publish()

	for _, q := range []events.Query{{}, {Subject: "journal.mordor"}, {From: 2}} {
		var r reading
		require.NoError(t, s.Read(ctx, r.query(q), r.event))
		var skipped []uint64
		read, prev := 0, int64(0)
		for _, n := range r.order {
			seq := n
			if n < 0 {
				seq = -n
				skipped = append(skipped, uint64(seq))
			} else {
				read++
			}
			if seq <= prev {
				t.Fatalf("read %+v: sequence %d after %d", q, seq, prev)
			}
			prev = seq
		}
		want := foreign
		if q.From > 1 {
			want = foreign[1:]
		}
		require.Equal(t, want, skipped, "read %+v", q)
		require.Equal(t, 2*events.MaxBatch, read, "read %+v", q)
	}
}

// testStoredBytes: Read and Follow give each event's stored bytes (Raw):
// what Append stored, which is Encode of the event, and for a message
// published into the stream directly the bytes as published, not a
// re-encoding of the event they decode to.
func testStoredBytes(t *testing.T, s Store) {
	ctx := testContext(t)
	in := []events.Event{char(t, "mordor", "lodin", "created"), char(t, "mordor", "lodin", "roll")}
	_, err := s.Append(ctx, events.Expect{}, in...)
	require.NoError(t, err)
	var respaced []byte
	if p, ok := s.(RawPublisher); ok {
		e := char(t, "mordor", "lodin", "raw")
		b, err := events.Encode(e)
		require.NoError(t, err)
		respaced = append([]byte("{ "), b[1:]...) // decodes to e, is not Encode(e)
		publishForeign(t, p, e.StreamSubject, respaced)
		in = append(in, e)
	}
	check := func(how string, got []events.Recorded) {
		t.Helper()
		require.Len(t, got, len(in), how)
		for i, r := range got {
			want, err := events.Encode(in[i])
			require.NoError(t, err)
			if i == 2 {
				want = respaced
			}
			if string(r.Raw) != string(want) {
				t.Fatalf("%s: event %d's Raw is\n%s\nwant the stored bytes\n%s", how, i, r.Raw, want)
			}
		}
	}
	check("read", readAll(t, s, events.Query{Subject: "journal.mordor"}))
	last, err := s.Last(ctx, "journal.mordor")
	require.NoError(t, err)
	var followed []events.Recorded
	require.NoError(t, s.Follow(ctx, events.Query{Subject: "journal.mordor", To: last}, func(r events.Recorded) error {
		followed = append(followed, r)
		return nil
	}))
	check("follow", followed)
}
