package replay_test

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/replay"
)

// export writes one ended session of about steps roll-making steps (skill,
// initiative, attribute, damage and damage-taken events) to w, as JSON
// Lines, without keeping the events. It returns the number of events and
// rolls.
func export(tb testing.TB, w io.Writer, steps int) (nEvents, nRolls int) {
	tb.Helper()
	bw := bufio.NewWriter(w)
	wd := newWorld(tb, "mordor", "ryf", 42)
	sink := func(ev events.Event) {
		require.NoError(tb, replay.WriteJSONL(bw, ev))
		nEvents++
		if ev.Type == events.TypeRollMade {
			nRolls++
		}
	}
	for _, ev := range wd.evs {
		sink(ev)
	}
	wd.evs, wd.sink = nil, sink
	s := wd.start("s1", seedOf(42))
	for i := 0; i < steps; i += 60 {
		s.honest(min(60, steps-i))
	}
	s.end()
	require.NoError(tb, bw.Flush())
	return nEvents, nRolls
}

// BenchmarkVerify verifies an in-memory export of a 10 000-roll session.
// Compare with BenchmarkDecodeOnly, which merely decodes the same export.
func BenchmarkVerify(b *testing.B) {
	var buf bytes.Buffer
	_, nRolls := export(b, &buf, 10_000)
	data := buf.Bytes()
	src := replay.JSONLBytes(data)
	rep, err := replay.Verify(context.Background(), src, replay.Options{})
	require.NoError(b, err)
	require.True(b, rep.OK())
	require.Equal(b, nRolls, rep.Totals.Verified)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := replay.Verify(context.Background(), src, replay.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(nRolls)*float64(b.N)/b.Elapsed().Seconds(), "rolls/s")
}

// BenchmarkDecodeOnly decodes the export BenchmarkVerify verifies, once
// (Verify reads it twice).
func BenchmarkDecodeOnly(b *testing.B) {
	var buf bytes.Buffer
	_, nRolls := export(b, &buf, 10_000)
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		err := replay.ReadJSONL(bytes.NewReader(data), func(events.Event) error { n++; return nil })
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(nRolls)*float64(b.N)/b.Elapsed().Seconds(), "rolls/s")
}

// BenchmarkVerifyLargeSession verifies a session of about 100 000 events
// read from a file, twice (the two passes), and reports the peak live heap
// sampled every 5 000 events (after a GC) above the heap before the
// verification, next to the file's size: memory stays bounded by
// per-session state, not by the events.
func BenchmarkVerifyLargeSession(b *testing.B) {
	path := filepath.Join(b.TempDir(), "session.jsonl")
	f, err := os.Create(path)
	require.NoError(b, err)
	nEvents, nRolls := export(b, f, 85_500)
	require.NoError(b, f.Close())
	st, err := os.Stat(path)
	require.NoError(b, err)

	src := replay.JSONLSource(func() (io.ReadCloser, error) { return os.Open(path) })
	var peak uint64
	sampled := func(ctx context.Context, fn func(replay.Input) error) error {
		n := 0
		return src(ctx, func(r replay.Input) error {
			if n++; n%5000 == 0 {
				peak = max(peak, liveHeap())
			}
			return fn(r)
		})
	}
	var worst uint64
	for b.Loop() {
		base := liveHeap()
		peak = base
		rep, err := replay.Verify(context.Background(), sampled, replay.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if !rep.OK() || rep.Totals.Verified != nRolls || rep.Totals.Events != nEvents {
			b.Fatalf("got OK %v, %d rolls verified of %d, %d events of %d", rep.OK(), rep.Totals.Verified, nRolls, rep.Totals.Events, nEvents)
		}
		worst = max(worst, peak-base)
	}
	b.ReportMetric(float64(nEvents), "events")
	b.ReportMetric(float64(st.Size())/(1<<20), "file-MB")
	b.ReportMetric(float64(worst)/(1<<20), "peak-live-MB")
	b.ReportMetric(float64(nRolls)*float64(b.N)/b.Elapsed().Seconds(), "rolls/s")
}

// liveHeap returns the live heap after a garbage collection.
func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
