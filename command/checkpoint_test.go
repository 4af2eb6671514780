package command_test

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/jetstore"
	"github.com/campaign-journal/journal/live"
	"github.com/campaign-journal/journal/live/livetest"
	"github.com/campaign-journal/journal/projections"
)

// countingStore is a store that counts the messages its reads deliver
// (events and messages that are not events).
type countingStore struct {
	command.Store
	read atomic.Int64
	// lasts counts the ReadLast requests: each has the server load the
	// block of the stream that holds the campaign's last message.
	lasts atomic.Int64
	// noCount hides the store's SubjectCount, as a store that cannot
	// count (or a journal before it) loads.
	noCount bool
}

// SubjectCount is the store's SubjectCount, or errors.ErrUnsupported when
// the store has none (or noCount). It is not counted: it reads no message.
func (s *countingStore) SubjectCount(ctx context.Context, subject string) (uint64, string, error) {
	sc, ok := s.Store.(interface {
		SubjectCount(context.Context, string) (uint64, string, error)
	})
	if !ok || s.noCount {
		return 0, "", errors.ErrUnsupported
	}
	return sc.SubjectCount(ctx, subject)
}

func (s *countingStore) Read(ctx context.Context, q events.Query, fn func(events.Recorded) error) error {
	if q.OnForeign != nil {
		on := q.OnForeign
		q.OnForeign = func(f events.Foreign) error { s.read.Add(1); return on(f) }
	}
	return s.Store.Read(ctx, q, func(r events.Recorded) error { s.read.Add(1); return fn(r) })
}

// ReadLast is the store's ReadLast, or errors.ErrUnsupported when the
// store has none. It is not counted: one request, whatever the campaign
// holds, where reads counts what a read walks.
func (s *countingStore) ReadLast(ctx context.Context, q events.Query, fn func(events.Recorded) error) (uint64, error) {
	lr, ok := s.Store.(interface {
		ReadLast(context.Context, events.Query, func(events.Recorded) error) (uint64, error)
	})
	if !ok {
		return 0, errors.ErrUnsupported
	}
	s.lasts.Add(1)
	return lr.ReadLast(ctx, q, fn)
}

// reads returns the messages delivered since the last call.
func (s *countingStore) reads() int { return int(s.read.Swap(0)) }

// jetCheckpoints starts an embedded server and returns its store and the
// checkpoint bucket.
func jetCheckpoints(t testing.TB) (*jetstore.Store, *live.BucketKV) {
	t.Helper()
	srv, err := embedded.Start(context.Background(), embedded.Options{Dir: t.TempDir()})
	require.NoError(t, err)
	t.Cleanup(srv.Shutdown)
	st, err := jetstore.Open(context.Background(), srv.JetStream(), jetstore.Options{})
	require.NoError(t, err)
	kv, err := live.OpenBucket(context.Background(), srv.JetStream(), 1)
	require.NoError(t, err)
	return st, kv
}

// checkpointed returns a journal with a cache of its own (a fresh process)
// over a counting view of st, with checkpoints in kv written every every
// events (negative: never).
func checkpointed(st command.Store, kv command.Checkpoints, every int) (*command.Handler, *countingStore) {
	cs := &countingStore{Store: st}
	secrets, _ := st.(events.Secrets) // the counting view hides them
	return command.New(cs, command.Options{Clock: time.Now, Rand: rand.Reader, IDs: events.NewV7(time.Now, rand.Reader),
		Actor: "test", Checkpoints: kv, CheckpointEvery: every, Secrets: secrets}), cs
}

// campaignEvents reads the events of campaign, in stream order.
func campaignEvents(t testing.TB, st command.Store, campaign string) []events.Recorded {
	t.Helper()
	subject, err := events.CampaignSubject(campaign)
	require.NoError(t, err)
	var recs []events.Recorded
	require.NoError(t, st.Read(context.Background(), events.Query{Subject: subject}, func(r events.Recorded) error {
		recs = append(recs, r)
		return nil
	}))
	return recs
}

// playBoth records a RyF campaign and a TOR campaign interleaved in one
// stream: voids of events folded long before them, a void of the event
// just before it, and commands under request ids.
func playBoth(t *testing.T, st command.Store) {
	ctx := context.Background()
	j := livetest.NewJournal(st)
	livetest.Setup(ctx, t, j, "mordor")
	livetest.TOR(ctx, t, j, "erebor")
	second := livetest.PartOne(ctx, t, j, "mordor")
	livetest.PartTwo(ctx, t, j, "mordor", second)
	r, err := j.For(command.Call{RequestID: "req-1", What: "damage", Args: 1})
	require.NoError(t, err)
	res, err := r.Damage(ctx, "mordor", "lodin", 1, "")
	require.NoError(t, err)
	_, err = j.Void(ctx, "mordor", res.Events[0].Event.ID, "a mistake")
	require.NoError(t, err)
	r, err = j.For(command.Call{RequestID: "req-2", What: "damage", Args: 2})
	require.NoError(t, err)
	_, err = r.Damage(ctx, "mordor", "ruisenor", 1, "")
	require.NoError(t, err)
	tor := campaignEvents(t, st, "erebor")
	_, err = j.Void(ctx, "erebor", tor[len(tor)-3].Event.ID, "not what happened")
	require.NoError(t, err)
}

// TestCheckpointEqualsRefold: for a RyF and a TOR campaign, a checkpoint
// at every event of the campaign, then a cold load (a fresh journal):
// the state equals a full refold, including voids after the checkpoint
// naming events before it; the load reads only the events after the
// checkpoint (and the checkpoint's own last one), unless such a void
// makes it refold; loads back in time (below the checkpoint or above it)
// equal the refold up to there.
func TestCheckpointEqualsRefold(t *testing.T) {
	st, kv := jetCheckpoints(t)
	playBoth(t, st)
	ctx := context.Background()
	for _, campaign := range []string{"mordor", "erebor"} {
		recs := campaignEvents(t, st, campaign)
		full, err := projections.Fold(campaign, recs, 0)
		require.NoError(t, err)
		voids := map[string]bool{}
		for i, r := range recs {
			writer, _ := checkpointed(st, kv, -1)
			at, err := writer.WriteCheckpoint(ctx, campaign, r.Seq)
			require.NoError(t, err)
			require.Equal(t, r.Seq, at)

			j, cs := checkpointed(st, kv, -1)
			got, err := j.Load(ctx, campaign, 0)
			require.NoError(t, err)
			require.Equal(t, full, got, "%s: checkpoint at %d", campaign, r.Seq)
			voids[r.Event.ID] = true
			refold := false // a void after the checkpoint names an event at or before it
			for _, v := range recs[i+1:] {
				if v.Event.Type == events.TypeEventVoided {
					var d events.EventVoided
					require.NoError(t, v.Event.DecodeData(&d))
					if voids[d.EventID] {
						refold = true
					}
				}
			}
			// When the campaign's last message (ReadLast, uncounted) is the
			// checkpoint's, nothing is read.
			after := len(recs) - i
			if i == len(recs)-1 {
				after = 0
			}
			if n := cs.reads(); !refold {
				require.Equal(t, after, n, "%s: checkpoint at %d: reads", campaign, r.Seq)
			} else {
				require.Greater(t, n, len(recs)-i, "%s: checkpoint at %d: reads", campaign, r.Seq)
			}

			if campaign == "mordor" {
				// A retried command on the cold campaign finds its request
				// in the checkpoint's index (or in the events after it).
				j2, _ := checkpointed(st, kv, -1)
				r2, err := j2.For(command.Call{RequestID: "req-1", What: "damage", Args: 1})
				require.NoError(t, err)
				res, err := r2.Damage(ctx, campaign, "lodin", 1, "")
				require.NoError(t, err)
				require.True(t, res.Repeated, "%s: checkpoint at %d: the request is known", campaign, r.Seq)
				require.Equal(t, full, res.Campaign, "%s: checkpoint at %d: command", campaign, r.Seq)
			}

			for _, back := range []int{0, i / 2, i, min(i+1, len(recs)-1)} {
				want, err := projections.Fold(campaign, recs, recs[back].Seq)
				require.NoError(t, err)
				cs.reads()
				got, err := j.Load(ctx, campaign, recs[back].Seq)
				require.NoError(t, err)
				require.Equal(t, want, got, "%s: checkpoint at %d, load at %d", campaign, r.Seq, recs[back].Seq)
				if back < i { // below the checkpoint: from the start
					require.GreaterOrEqual(t, cs.reads(), back+1, "%s: checkpoint at %d, load at %d", campaign, r.Seq, recs[back].Seq)
				}
			}
		}
	}
}

// TestUnusableCheckpointIgnored: a checkpoint that does not decode, of
// another format, fold or campaign, whose state does not match its
// digest, ahead of the stream or whose last event is not the stream's
// is ignored: the load folds from the start, equals the refold, and
// writes the checkpoint again.
func TestUnusableCheckpointIgnored(t *testing.T) {
	st, kv := jetCheckpoints(t)
	playBoth(t, st)
	ctx := context.Background()
	recs := campaignEvents(t, st, "mordor")
	full, err := projections.Fold("mordor", recs, 0)
	require.NoError(t, err)
	writer, _ := checkpointed(st, kv, -1)
	_, err = writer.WriteCheckpoint(ctx, "mordor", recs[len(recs)-5].Seq)
	require.NoError(t, err)
	good, err := kv.Get(ctx, command.CheckpointKey("mordor"))
	require.NoError(t, err)
	_, err = writer.WriteCheckpoint(ctx, "erebor", 0)
	require.NoError(t, err)
	other, err := kv.Get(ctx, command.CheckpointKey("erebor"))
	require.NoError(t, err)

	// edit returns good with fn applied to its document; reDigest also
	// recomputes the digest of the state fn changed.
	edit := func(reDigest bool, fn func(doc, state map[string]any)) []byte {
		var doc map[string]any
		require.NoError(t, json.Unmarshal(good, &doc))
		state := doc["state"].(map[string]any)
		fn(doc, state)
		b, err := json.Marshal(state)
		require.NoError(t, err)
		if reDigest {
			sum := sha256.Sum256(b)
			doc["digest"] = hex.EncodeToString(sum[:])
		}
		doc["state"] = json.RawMessage(b)
		out, err := json.Marshal(doc)
		require.NoError(t, err)
		return out
	}
	last := recs[len(recs)-1].Seq
	for _, tc := range []struct {
		name  string
		value []byte
	}{
		{"not json", []byte("\x00not a checkpoint")},
		{"empty", nil},
		{"json of something else", []byte(`{"campaign":"mordor","seq":3}`)},
		{"another format", edit(true, func(doc, _ map[string]any) { doc["format"] = command.CheckpointFormat + 1 })},
		{"another fold", edit(true, func(doc, _ map[string]any) { doc["fingerprint"] = "0123456789abcdef" })},
		{"another campaign", other},
		{"state not its digest", edit(false, func(_, state map[string]any) {
			state["campaign"].(map[string]any)["day"] = 99
		})},
		{"ahead of the stream", edit(true, func(doc, state map[string]any) {
			doc["seq"] = last + 10
			state["campaign"].(map[string]any)["last_seq"] = last + 10
		})},
		{"another stream", edit(true, func(doc, _ map[string]any) { doc["last_id"] = "0190a1b2-0000-7000-8000-000000000000" })},
		{"the live projector's document", []byte(`{"format":1,"seq":5,"campaign":{"id":"mordor","characters":{}}}`)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.NoError(t, kv.Put(ctx, command.CheckpointKey("mordor"), tc.value))
			j, cs := checkpointed(st, kv, 1)
			got, err := j.Load(ctx, "mordor", 0)
			require.NoError(t, err)
			require.Equal(t, full, got)
			require.GreaterOrEqual(t, cs.reads(), len(recs), "the load folds from the start")

			// The load wrote the checkpoint again: the next cold load finds
			// it is at the campaign's last message and reads nothing.
			j, cs = checkpointed(st, kv, -1)
			got, err = j.Load(ctx, "mordor", 0)
			require.NoError(t, err)
			require.Equal(t, full, got)
			require.Equal(t, 0, cs.reads())
		})
	}
	// A checkpoint at the campaign's last sequence whose event id is not
	// the stream's (another stream), or that names an event where the
	// stream holds a message that is not one: ignored, though nothing
	// follows it.
	_, err = writer.WriteCheckpoint(ctx, "mordor", 0)
	require.NoError(t, err)
	atLast, err := kv.Get(ctx, command.CheckpointKey("mordor"))
	require.NoError(t, err)
	for _, tc := range []struct {
		name string
		id   string
	}{{"another id", "0190a1b2-0000-7000-8000-000000000000"}, {"no event", ""}} {
		t.Run("at the last sequence, "+tc.name, func(t *testing.T) {
			var doc map[string]json.RawMessage // the state's bytes kept: its digest holds
			require.NoError(t, json.Unmarshal(atLast, &doc))
			id, err := json.Marshal(tc.id)
			require.NoError(t, err)
			doc["last_id"] = id
			b, err := json.Marshal(doc)
			require.NoError(t, err)
			require.NoError(t, kv.Put(ctx, command.CheckpointKey("mordor"), b))
			j, cs := checkpointed(st, kv, -1)
			got, err := j.Load(ctx, "mordor", 0)
			require.NoError(t, err)
			require.Equal(t, full, got)
			require.GreaterOrEqual(t, cs.reads(), len(recs), "the load folds from the start")
		})
	}
	// The good one, for contrast, and the same re-encoded by edit: 5 events read.
	require.NoError(t, kv.Put(ctx, command.CheckpointKey("mordor"), edit(true, func(_, _ map[string]any) {})))
	j, cs := checkpointed(st, kv, -1)
	_, err = j.Load(ctx, "mordor", 0)
	require.NoError(t, err)
	require.Equal(t, 5, cs.reads(), "edit keeps a checkpoint usable")
	require.NoError(t, kv.Put(ctx, command.CheckpointKey("mordor"), good))
	j, cs = checkpointed(st, kv, -1)
	got, err := j.Load(ctx, "mordor", 0)
	require.NoError(t, err)
	require.Equal(t, full, got)
	require.Equal(t, 5, cs.reads())
}

// TestCommandsWriteCheckpoints: a long-lived journal (serve's) writes a
// campaign's checkpoint once more than CheckpointEvery events were folded
// since the last one, its own appends included; a fresh journal then
// reads only the events after it.
func TestCommandsWriteCheckpoints(t *testing.T) {
	st, kv := jetCheckpoints(t)
	ctx := context.Background()
	j, _ := checkpointed(st, kv, 10)
	_, err := j.CreateCampaign(ctx, command.CreateCampaign{ID: "mordor", System: "ryf"})
	require.NoError(t, err)
	for range 9 {
		_, err := j.NewDay(ctx, "mordor")
		require.NoError(t, err)
	}
	_, err = kv.Get(ctx, command.CheckpointKey("mordor"))
	require.ErrorIs(t, err, events.ErrNotFound, "10 events folded: no checkpoint yet")
	for range 16 {
		_, err := j.NewDay(ctx, "mordor")
		require.NoError(t, err)
	}
	// The command that folded the 11th event wrote it, and the one that
	// folded the 22nd (11 since).
	fresh, cs := checkpointed(st, kv, -1)
	c, err := fresh.Load(ctx, "mordor", 0)
	require.NoError(t, err)
	require.Equal(t, 26, c.Events)
	require.Equal(t, 1+4, cs.reads())
	full, err := projections.Fold("mordor", campaignEvents(t, st, "mordor"), 0)
	require.NoError(t, err)
	require.Equal(t, full, c)
}

// TestChainSurvivesACheckpointedLoad: a chained (journal-dice-v2)
// campaign loaded cold from a checkpoint at its very last event goes on
// with an unbroken prevhash chain: the next event names the hash of the
// checkpoint's own last event.
func TestChainSurvivesACheckpointedLoad(t *testing.T) {
	ctx := context.Background()
	j, st, ana, _ := setupV2(t)
	aj := j.MustFor(command.Call{Actor: "ana"})
	_, err := aj.Contribute(ctx, "mordor", ana.contribute(t, j, "s2", 0xaa))
	require.NoError(t, err)
	_, err = aj.RequestRoll(ctx, "mordor", ana.request(t, "s2", uuid.NewString(), secret(0x20), sigilo)) // left pending
	require.NoError(t, err)
	id := uuid.NewString()
	_, err = aj.RequestRoll(ctx, "mordor", ana.request(t, "s2", id, secret(0x40), sigilo))
	require.NoError(t, err)
	_, err = aj.RevealRoll(ctx, "mordor", ana.reveal(t, "s2", id, secret(0x40)))
	require.NoError(t, err)
	_, err = j.NewDay(ctx, "mordor")
	require.NoError(t, err)
	kv := live.NewMemKV()
	writer, _ := checkpointed(st, kv, 1)
	_, err = writer.Load(ctx, "mordor", 0)
	require.NoError(t, err)
	require.NotZero(t, kv.Puts(), "the load wrote a checkpoint")

	cold, reads := checkpointed(st, kv, -1)
	_, err = cold.NewDay(ctx, "mordor")
	require.NoError(t, err)
	require.Less(t, reads.reads(), 5, "the command loaded the campaign from its checkpoint")

	recs := campaignEvents(t, st, "mordor")
	last, prev := recs[len(recs)-1].Event, recs[len(recs)-2].Event
	want, err := events.EventHash(prev)
	require.NoError(t, err)
	if last.PrevHash != want {
		t.Fatalf("after a checkpointed load, event %s has prevhash %q, want %q (the hash of %s)", last.ID, last.PrevHash, want, prev.ID)
	}

	// And a v2 campaign's state (keys, contributions, requests) loaded
	// from a checkpoint equals its full refold.
	_, err = writer.Load(ctx, "mordor", 0)
	require.NoError(t, err)
	again, _ := checkpointed(st, kv, -1)
	loaded, err := again.Load(ctx, "mordor", 0)
	require.NoError(t, err)
	refold, err := projections.Fold("mordor", recs, 0)
	require.NoError(t, err)
	require.Equal(t, refold, loaded)
}

// TestLoadAfterNewEventsReadsThem: a checkpoint at the campaign's last
// event makes a cold load read nothing; once other events follow it
// (another journal's appends), a cold load reads every one of them (and
// the checkpoint's own), and equals the full refold.
func TestLoadAfterNewEventsReadsThem(t *testing.T) {
	st, kv := jetCheckpoints(t)
	ctx := context.Background()
	w, _ := checkpointed(st, kv, -1)
	_, err := w.CreateCampaign(ctx, command.CreateCampaign{ID: "mordor", System: "ryf"})
	require.NoError(t, err)
	_, err = w.CreateCampaign(ctx, command.CreateCampaign{ID: "erebor", System: "ryf"})
	require.NoError(t, err)
	for range 5 {
		_, err := w.NewDay(ctx, "mordor")
		require.NoError(t, err)
	}
	_, err = w.WriteCheckpoint(ctx, "mordor", 0)
	require.NoError(t, err)
	for _, after := range []int{0, 1, 7} {
		for range after {
			_, err := w.NewDay(ctx, "mordor")
			require.NoError(t, err)
			_, err = w.NewDay(ctx, "erebor") // interleaved in the stream
			require.NoError(t, err)
		}
		j, cs := checkpointed(st, kv, -1)
		got, err := j.Load(ctx, "mordor", 0)
		require.NoError(t, err)
		full, err := projections.Fold("mordor", campaignEvents(t, st, "mordor"), 0)
		require.NoError(t, err)
		require.Equal(t, full, got, "%d events after the checkpoint", after)
		want := 0
		if after > 0 {
			want = 1 + after
		}
		require.Equal(t, want, cs.reads(), "%d events after the checkpoint", after)
		_, err = w.WriteCheckpoint(ctx, "mordor", 0)
		require.NoError(t, err)
	}
}

// TestColdLoadReadsNoMessage: a cold load of a campaign whose checkpoint
// is at its last message reads no message of the stream, not even the
// last one (a ReadLast has the server load the block that holds it, up
// to 8 MB of other campaigns' events): the stream's count of the
// campaign's messages says that nothing follows. A checkpoint of a
// journal that could not count (no count in it) still loads, asking for
// the last message once; the next checkpoint written holds the count.
// The chain goes on from the checkpoint's last event.
func TestColdLoadReadsNoMessage(t *testing.T) {
	st, kv := jetCheckpoints(t)
	ctx := context.Background()
	w, _ := checkpointed(st, kv, -1)
	_, err := w.CreateCampaign(ctx, command.CreateCampaign{ID: "mordor", System: "ryf"})
	require.NoError(t, err)
	_, err = w.CreateCampaign(ctx, command.CreateCampaign{ID: "erebor", System: "ryf"})
	require.NoError(t, err)
	for range 5 {
		_, err := w.NewDay(ctx, "mordor")
		require.NoError(t, err)
		_, err = w.NewDay(ctx, "erebor") // interleaved in the stream
		require.NoError(t, err)
	}
	full := func() *projections.Campaign {
		c, err := projections.Fold("mordor", campaignEvents(t, st, "mordor"), 0)
		require.NoError(t, err)
		return c
	}

	// A checkpoint written without the count: one ReadLast, no read.
	old, ocs := checkpointed(st, kv, -1)
	ocs.noCount = true
	_, err = old.WriteCheckpoint(ctx, "mordor", 0)
	require.NoError(t, err)
	j, cs := checkpointed(st, kv, -1)
	got, err := j.Load(ctx, "mordor", 0)
	require.NoError(t, err)
	require.Equal(t, full(), got)
	require.Equal(t, 0, cs.reads())
	require.EqualValues(t, 1, cs.lasts.Load(), "a checkpoint without a count asks for the last message")

	// That load wrote it again with the count (CheckpointEvery 1 000):
	// nothing read, no last message asked for.
	j, _ = checkpointed(st, kv, 1000)
	_, err = j.Load(ctx, "mordor", 0)
	require.NoError(t, err)
	for range 3 {
		j, cs := checkpointed(st, kv, -1)
		got, err := j.Load(ctx, "mordor", 0)
		require.NoError(t, err)
		require.Equal(t, full(), got)
		require.Equal(t, 0, cs.reads())
		require.Zero(t, cs.lasts.Load(), "a counted checkpoint that holds every message asks for no message")
	}

	// Events after it: the load reads them (and the checkpoint's own),
	// without a ReadLast first.
	for range 3 {
		_, err := w.NewDay(ctx, "mordor")
		require.NoError(t, err)
	}
	j, cs = checkpointed(st, kv, -1)
	got, err = j.Load(ctx, "mordor", 0)
	require.NoError(t, err)
	require.Equal(t, full(), got)
	require.Equal(t, 1+3, cs.reads())
	require.Zero(t, cs.lasts.Load())

	// A command on the cold campaign (checkpoint at its last event) reads
	// nothing before it appends, and its event chains to the last one.
	_, err = w.WriteCheckpoint(ctx, "mordor", 0)
	require.NoError(t, err)
	j, cs = checkpointed(st, kv, -1)
	_, err = j.NewDay(ctx, "mordor")
	require.NoError(t, err)
	require.Zero(t, cs.reads())
	require.Zero(t, cs.lasts.Load())
	recs := campaignEvents(t, st, "mordor")
	want, err := events.EventHash(recs[len(recs)-2].Event)
	require.NoError(t, err)
	require.Equal(t, want, recs[len(recs)-1].Event.PrevHash, "the chain goes on from the checkpoint's last event")
}
