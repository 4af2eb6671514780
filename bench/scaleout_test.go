package bench

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/cluster"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/jetstore"
)

// The scale-out benchmarks measure a journal of K partitions on the
// embedded server (K = 1, 2, 4) and on a three-server cluster in this
// process at R3 (K = 1, 3): roll commands from 100 campaigns at once, the
// bytes on disk per event, a rebuild reading the K streams in parallel,
// and the memory of 10 000 campaigns. Every write synced when BENCH_SYNC
// is set. They are benchmarks only (go test never runs them).
//
//	go test ./bench/ -run '^$' -bench 'ScaleOutAppends' -benchtime 20000x
//	BENCH_SCALE_EVENTS=100000 go test ./bench/ -run '^$' -bench 'ScaleOutRebuild' -benchtime 2x
//	go test ./bench/ -run '^$' -bench 'ScaleOutMemory' -benchtime 1x

// scaleSetup is one journal layout under measurement.
type scaleSetup struct {
	name     string
	cluster  bool // three servers, the journal at R3
	k        int
	replicas int
}

var scaleSetups = []scaleSetup{
	{"embedded/K=1", false, 1, 1},
	{"embedded/K=2", false, 2, 1},
	{"embedded/K=4", false, 4, 1},
	{"cluster-R3/K=1", true, 1, 3},
	{"cluster-R3/K=3", true, 3, 3},
}

// scaleJournal is a running journal of one setup.
type scaleJournal struct {
	dir string
	js  jetstream.JetStream
	nc  *nats.Conn
	st  *jetstore.Store
	c   *cluster.Cluster // nil on the embedded server
}

func benchSync() bool { return os.Getenv("BENCH_SYNC") != "" }

// startScale starts the servers of s in a fresh folder and opens the
// journal's K streams.
func startScale(b *testing.B, s scaleSetup) *scaleJournal {
	b.Helper()
	ctx := context.Background()
	sj := &scaleJournal{dir: b.TempDir()}
	if s.cluster {
		c, err := cluster.Start(ctx, cluster.Options{Dir: sj.dir, Sync: benchSync()})
		require.NoError(b, err)
		b.Cleanup(c.Shutdown)
		sj.c = c
		nc, err := c.Connect(0, nats.Name("bench"))
		require.NoError(b, err)
		b.Cleanup(nc.Close)
		sj.nc = nc
		sj.js, err = jetstream.New(nc)
		require.NoError(b, err)
	} else {
		srv, err := embedded.Start(ctx, embedded.Options{Dir: sj.dir, Sync: benchSync()})
		require.NoError(b, err)
		b.Cleanup(srv.Shutdown)
		sj.nc, sj.js = srv.Conn(), srv.JetStream()
	}
	var err error
	deadline := time.Now().Add(30 * time.Second)
	for { // the first stream creation may race the cluster's elections
		sj.st, err = jetstore.Open(ctx, sj.js, jetstore.Options{Replicas: s.replicas, Partitions: s.k})
		if err == nil || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	require.NoError(b, err)
	require.Equal(b, s.k, sj.st.Partitions())
	if sj.c != nil {
		for _, name := range jetstore.StreamNames(s.k) {
			require.NoError(b, sj.c.WaitReplicas(ctx, name))
		}
	}
	return sj
}

// leaders logs (and returns) the server leading each of the journal's
// streams on a cluster.
func (sj *scaleJournal) leaders(b *testing.B, k int) string {
	b.Helper()
	if sj.c == nil {
		return "embedded"
	}
	out := ""
	for _, name := range jetstore.StreamNames(k) {
		i, err := sj.c.StreamLeader(context.Background(), name)
		require.NoError(b, err)
		out += fmt.Sprintf("%s@%s ", name, sj.c.Name(i))
	}
	b.Logf("leaders: %s", out)
	return out
}

// disk is the bytes of a store folder's files by what they hold.
type disk struct {
	journal int64 // the journal's streams' message blocks and indexes, every replica
	raft    int64 // the Raft groups' logs and state (the streams' WALs, the meta group)
	other   int64 // the rest: the secrets bucket, the servers' own state
}

// diskOf walks dir and sums the apparent size of its files.
func diskOf(dir string) disk {
	var d disk
	_ = filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return nil
		}
		info, err := e.Info()
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, path)
		switch parts := strings.Split(filepath.ToSlash(rel), "/"); {
		case slices.Contains(parts, "_js_"):
			d.raft += info.Size()
		case slices.ContainsFunc(parts, func(p string) bool { return p == jetstore.StreamName || strings.HasPrefix(p, jetstore.StreamName+"-") }):
			d.journal += info.Size()
		default:
			d.other += info.Size()
		}
		return nil
	})
	return d
}

// BenchmarkScaleOutAppends: roll commands (the journal's whole write path)
// from 100 campaigns at once, one goroutine each, 10 characters in each
// campaign, into a journal of K partitions; one operation is one roll (one
// event). It also reports the bytes on disk each event added: the
// journal's streams' files (all three servers' on the cluster, and per
// replica) and the Raft logs, over the events appended, and the server's
// own count of a message's bytes.
func BenchmarkScaleOutAppends(b *testing.B) {
	const nCamps = 100
	for _, s := range scaleSetups {
		b.Run(s.name, func(b *testing.B) {
			ctx := context.Background()
			sj := startScale(b, s)
			j := newJournal(sj.st)
			camps := campaigns("s", nCamps, 10*nCamps)
			require.NoError(b, parallel(ctx, nCamps, 16, func(ctx context.Context, i int) error {
				return setupCampaign(ctx, j, camps[i].id, camps[i].chars)
			}))
			leaders := sj.leaders(b, s.k)
			b.Run("rolls-100-campaigns", func(b *testing.B) {
				time.Sleep(100 * time.Millisecond) // the file store's write-behind
				before := diskOf(sj.dir)
				var next atomic.Int64
				n := int64(b.N)
				errs := make([]error, nCamps)
				b.ResetTimer()
				var wg sync.WaitGroup
				for i, c := range camps {
					wg.Go(func() {
						for r := 0; ; r++ {
							if next.Add(1) > n {
								return
							}
							if err := roll(ctx, j, c.id, c.chars[r%len(c.chars)]); err != nil {
								errs[i] = err
								return
							}
						}
					})
				}
				wg.Wait()
				b.StopTimer()
				for _, err := range errs {
					require.NoError(b, err)
				}
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rolls/s")
				if b.N < 1000 {
					return // too few events for a size per event
				}
				time.Sleep(100 * time.Millisecond)
				after := diskOf(sj.dir)
				var msgs, bytes uint64
				for _, name := range jetstore.StreamNames(s.k) {
					st, err := sj.js.Stream(ctx, name)
					require.NoError(b, err)
					info, err := st.Info(ctx)
					require.NoError(b, err)
					msgs, bytes = msgs+info.State.Msgs, bytes+info.State.Bytes
				}
				per := func(d int64) float64 { return float64(d) / float64(b.N) }
				b.ReportMetric(per(after.journal-before.journal)/float64(s.replicas), "stream-B/event/replica")
				b.ReportMetric(per(after.raft-before.raft), "raft-B/event")
				b.ReportMetric(float64(bytes)/float64(msgs), "server-B/msg")
				b.Logf("%s: %d events appended; journal streams +%d B (%.0f B/event, all replicas), raft +%d B, other +%d B; "+
					"now %d B journal, %d B raft, %d B other for %d messages (server's count %d B); %s",
					s.name, b.N, after.journal-before.journal, per(after.journal-before.journal), after.raft-before.raft,
					after.other-before.other, after.journal, after.raft, after.other, msgs, bytes, leaders)
			})
		})
	}
}

// fillScale writes n events (the rebuild's fixture: 100 campaigns, 1 000
// characters, real RyF rolls) into the journal's K streams by asynchronous
// publishes with the journal's headers, as fill does for one stream.
//
// A publish whose acknowledgement does not come within fillAckWait counts
// as failed: on a loaded machine a replicated stream's leader can step
// down with publishes in flight, which then get no answer at all, and
// waiting for them hung the benchmark until its timeout (1 run in 11 under
// stress). fillScale then returns an error, and the caller builds the
// fixture again on fresh servers (fillScaleRetry): re-publishing only the
// lost events would store them out of their campaign's order.
func fillScale(b *testing.B, sj *scaleJournal, k int, o Options) (int, error) {
	b.Helper()
	var failed atomic.Int64
	var firstErr atomic.Value
	js, err := jetstream.New(sj.nc,
		jetstream.WithPublishAsyncMaxPending(4096),
		jetstream.WithPublishAsyncTimeout(fillAckWait),
		jetstream.WithPublishAsyncErrHandler(func(_ jetstream.JetStream, _ *nats.Msg, err error) {
			if failed.Add(1) == 1 {
				firstErr.Store(err)
			}
		}))
	require.NoError(b, err)
	g, err := newGenerator(o)
	require.NoError(b, err)
	written := 0
	require.NoError(b, g.each(func(ev events.Event) error {
		doc, err := g.encode(ev)
		if err != nil {
			return err
		}
		subject, err := events.PartitionSubject(ev.Campaign, k)
		if err != nil {
			return err
		}
		m := &nats.Msg{Subject: subject, Data: doc, Header: nats.Header{}}
		m.Header.Set(jetstream.MsgIDHeader, ev.ID)
		m.Header.Set(events.HeaderType, ev.Type)
		if kind, id, err := ev.Aggregate(); err == nil {
			m.Header.Set(events.HeaderAggregate, events.AggregateHeaderValue(kind, id))
		}
		if _, err := js.PublishMsgAsync(m, jetstream.WithStallWait(time.Minute)); err != nil {
			return err
		}
		written++
		return nil
	}))
	select {
	case <-js.PublishAsyncComplete():
	case <-time.After(2 * fillAckWait): // every pending publish has timed out by then
		return written, fmt.Errorf("%d publishes still unacknowledged after %v", js.PublishAsyncPending(), 2*fillAckWait)
	}
	if n := failed.Load(); n > 0 {
		return written, fmt.Errorf("%d publishes failed: %v", n, firstErr.Load())
	}
	return written, nil
}

// fillAckWait is how long fillScale waits for one publish's acknowledgement.
const fillAckWait = 30 * time.Second

// fillScaleRetry starts the servers of s and fills them (fillScale), up to
// three times, each on fresh servers after a failed fill.
func fillScaleRetry(b *testing.B, s scaleSetup, o Options) (*scaleJournal, int) {
	b.Helper()
	for attempt := 1; ; attempt++ {
		sj := startScale(b, s)
		written, err := fillScale(b, sj, s.k, o)
		if err == nil {
			return sj, written
		}
		require.Less(b, attempt, 3, "fill: %v", err)
		b.Logf("%s: fill attempt %d failed (%v): again on fresh servers", s.name, attempt, err)
		if sj.c != nil {
			sj.c.Shutdown()
		}
	}
}

// rebuildAll folds every campaign of a journal of k partitions, the k
// streams read in parallel (one Rebuild on each partition's view, as
// journal serve runs one projector per partition), and returns the
// number of events folded.
func rebuildAll(ctx context.Context, st *jetstore.Store, k int) (int, int, error) {
	folds := make([]*Folds, k)
	errs := make([]error, k)
	var wg sync.WaitGroup
	for p := range k {
		wg.Go(func() {
			src := st
			if k > 1 {
				src = st.Partition(p)
			}
			folds[p], errs[p] = Rebuild(ctx, src, nil)
		})
	}
	wg.Wait()
	n, camps := 0, 0
	for p := range k {
		if errs[p] != nil {
			return 0, 0, errs[p]
		}
		n += folds[p].Events
		camps += len(folds[p].Campaigns)
	}
	return n, camps, nil
}

// BenchmarkScaleOutRebuild: a rebuild of BENCH_SCALE_EVENTS events
// (default 100 000; 100 campaigns, 1 000 characters) from a journal of K
// partitions, the K streams read in parallel; one operation is one whole
// rebuild, reported in events/s.
func BenchmarkScaleOutRebuild(b *testing.B) {
	n := 100_000
	if v := os.Getenv("BENCH_SCALE_EVENTS"); v != "" {
		var err error
		n, err = strconv.Atoi(v)
		require.NoError(b, err)
	}
	o := Options{Campaigns: 100, Characters: 1000, Events: n}
	for _, s := range scaleSetups {
		b.Run(s.name, func(b *testing.B) {
			ctx := context.Background()
			start := time.Now()
			sj, written := fillScaleRetry(b, s, o)
			b.Logf("%s: filled %d events in %v (%.0f/s async); %s", s.name, written, time.Since(start).Round(time.Millisecond),
				float64(written)/time.Since(start).Seconds(), sj.leaders(b, s.k))
			if sj.c != nil {
				for _, name := range jetstore.StreamNames(s.k) {
					require.NoError(b, sj.c.WaitReplicas(ctx, name))
				}
			}
			b.Run("rebuild", func(b *testing.B) {
				for b.Loop() {
					got, camps, err := rebuildAll(ctx, sj.st, s.k)
					require.NoError(b, err)
					require.Equal(b, written, got)
					require.Equal(b, o.Campaigns, camps)
				}
				b.ReportMetric(float64(written*b.N)/b.Elapsed().Seconds(), "events/s")
			})
		})
	}
}

// BenchmarkScaleOutMemory measures what 10 000 campaigns cost in memory,
// against 10 campaigns of the same events and characters: the server's
// heap once the stream is written (its per-subject state: the subject
// index and the blocks' subject states), and the projections of a full
// rebuild held in memory. 50 000 events, 10 000 characters in both.
func BenchmarkScaleOutMemory(b *testing.B) {
	for _, nCamps := range []int{10, 10_000} {
		b.Run("campaigns="+strconv.Itoa(nCamps), func(b *testing.B) {
			for b.Loop() {
				ctx := context.Background()
				o := Options{Campaigns: nCamps, Characters: 10_000, Events: 50_000}
				dir := b.TempDir()
				srv, err := embedded.Start(ctx, embedded.Options{Dir: dir})
				require.NoError(b, err)
				st, err := jetstore.Open(ctx, srv.JetStream(), jetstore.Options{})
				require.NoError(b, err)
				cfg := jetstore.StreamConfig(jetstore.Options{})
				cfg.Duplicates = fillWindow // the ids of two minutes are not the subjects' state
				_, err = srv.JetStream().UpdateStream(ctx, cfg)
				require.NoError(b, err)
				rss0, _ := procStatus("VmRSS")
				h0 := settledHeap()
				written, err := fillScale(b, &scaleJournal{dir: dir, js: srv.JetStream(), nc: srv.Conn(), st: st}, 1, o)
				require.NoError(b, err)
				time.Sleep(fillWindow + 11*time.Second) // the ids leave the window, the block caches expire
				h1 := settledHeap()
				rss1, _ := procStatus("VmRSS")
				folds, err := Rebuild(ctx, st, nil)
				require.NoError(b, err)
				require.Equal(b, written, folds.Events)
				time.Sleep(11 * time.Second) // the block caches the rebuild loaded expire
				h2 := settledHeap()
				rss2, _ := procStatus("VmRSS")
				runtime.KeepAlive(folds)
				server, proj := int64(h1)-int64(h0), int64(h2)-int64(h1)
				b.ReportMetric(float64(server)/1e6, "MB-server-heap")
				b.ReportMetric(float64(proj)/1e6, "MB-projections-heap")
				b.ReportMetric(float64(rss2)/1e6, "MB-RSS")
				chars := 0
				for _, c := range folds.Campaigns {
					chars += len(c.Characters)
				}
				b.Logf("campaigns=%d: %d events; server heap +%d B after the fill, projections +%d B (%d campaigns, %d characters); RSS %d → %d → %d",
					nCamps, written, server, proj, len(folds.Campaigns), chars, rss0, rss1, rss2)
				srv.Shutdown()
			}
		})
	}
}

// BenchmarkScaleOutCommandCache measures the heap of the journal's cache
// of folded campaigns (command.Handler keeps every campaign it has served,
// its rules shared): 2 000 campaigns of one character and an open
// session, made by one journal, then a fresh journal rolls once in each,
// caching it. The heap it adds over the 2 000 campaigns is the cost of one
// cached campaign (with the server's few bytes for each new message).
func BenchmarkScaleOutCommandCache(b *testing.B) {
	const nCamps = 2000
	for b.Loop() {
		ctx := context.Background()
		srv, err := embedded.Start(ctx, embedded.Options{Dir: b.TempDir()})
		require.NoError(b, err)
		st, err := jetstore.Open(ctx, srv.JetStream(), jetstore.Options{})
		require.NoError(b, err)
		camps := campaigns("k", nCamps, nCamps)
		setup := newJournal(st)
		require.NoError(b, parallel(ctx, nCamps, 16, func(ctx context.Context, i int) error {
			return setupCampaign(ctx, setup, camps[i].id, camps[i].chars)
		}))
		setup = nil
		j := newJournal(st)
		require.NoError(b, roll(ctx, j, camps[0].id, camps[0].chars[0])) // the shared rules
		h0 := settledHeap()
		require.NoError(b, parallel(ctx, nCamps-1, 8, func(ctx context.Context, i int) error {
			return roll(ctx, j, camps[i+1].id, camps[i+1].chars[0])
		}))
		time.Sleep(11 * time.Second) // the block caches the loads read expire
		h1 := settledHeap()
		runtime.KeepAlive(j)
		per := float64(int64(h1)-int64(h0)) / float64(nCamps-1)
		b.ReportMetric(per, "B/cached-campaign")
		b.Logf("%d campaigns cached: heap %d → %d (%.0f B each)", nCamps-1, h0, h1, per)
		srv.Shutdown()
	}
}

// settledHeap is the live heap after two collections (the second empties
// the pools' victim caches, where the server keeps block buffers).
func settledHeap() uint64 {
	runtime.GC()
	return liveHeap()
}
