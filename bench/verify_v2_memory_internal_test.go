package bench

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/replay"
)

// BenchmarkVerifyV2Memory verifies an export of 20 000 journal-dice-v2
// rolls (40 sessions of 500, four players with keys of their own) and
// reports the peak live heap while it runs, sampled every 2 000 input
// lines after a garbage collection, above the live heap before it:
// what the verifier keeps of a long campaign's sessions.
//
//	go test ./bench/ -run '^$' -bench VerifyV2Memory -benchtime 1x
func BenchmarkVerifyV2Memory(b *testing.B) {
	ctx := context.Background()
	rolls := 20_000
	// BENCH_V2_EXPORT names a file to keep the export in (and reuse).
	path := os.Getenv("BENCH_V2_EXPORT")
	if path == "" {
		path = filepath.Join(b.TempDir(), "v2.jsonl")
	}
	if _, err := os.Stat(path); err != nil {
		_, err := writeV2Export(ctx, path, rolls, nil)
		require.NoError(b, err)
	}
	heapProfile := os.Getenv("BENCH_HEAP_PROFILE") // a heap profile at the peak
	src := replay.JSONLSource(func() (io.ReadCloser, error) { return os.Open(path) })
	var peak uint64
	sampled := func(ctx context.Context, fn func(replay.Input) error) error {
		n := 0
		return src(ctx, func(in replay.Input) error {
			if n++; n%2000 == 0 {
				if h := liveHeapNow(); h > peak {
					peak = h
					if heapProfile != "" {
						f, err := os.Create(heapProfile)
						require.NoError(b, err)
						require.NoError(b, pprof.WriteHeapProfile(f))
						require.NoError(b, f.Close())
					}
				}
			}
			return fn(in)
		})
	}
	var worst uint64
	for b.Loop() {
		base := liveHeapNow()
		peak = base
		rep, err := replay.Verify(ctx, sampled, replay.Options{})
		require.NoError(b, err)
		require.True(b, rep.OK())
		require.Equal(b, rolls, rep.Totals.Verified)
		peak = max(peak, liveHeapNow()) // the report still holds the verifier's state
		runtime.KeepAlive(rep)
		worst = max(worst, peak-base)
	}
	b.ReportMetric(float64(worst)/(1<<20), "peak-live-MB")
	b.ReportMetric(float64(rolls*b.N)/b.Elapsed().Seconds(), "rolls/s")
}

// liveHeapNow returns the live heap after a garbage collection.
func liveHeapNow() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
