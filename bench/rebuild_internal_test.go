package bench

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/jetstore"
)

// BenchmarkRebuild compares reading and folding a stream of
// 20 000 events (100 campaigns, 1 000 characters; BENCH_REBUILD_EVENTS
// events over a campaign per 1 000 and 10 characters each when set),
// reporting the wall and the CPU time per event:
//
//	go test ./bench/ -run '^$' -bench Rebuild -benchtime 3x
func BenchmarkRebuild(b *testing.B) {
	ctx := context.Background()
	dir := filepath.Join(b.TempDir(), "stream")
	sizes := Options{Campaigns: 100, Characters: 1000, Events: 20_000}
	if s := os.Getenv("BENCH_REBUILD_EVENTS"); s != "" {
		n, err := strconv.Atoi(s)
		require.NoError(b, err)
		sizes = Options{Campaigns: max(1, n/1000), Characters: max(1, n/100), Events: n}
	}
	o, err := sizes.withDefaults()
	require.NoError(b, err)
	n, err := fill(ctx, dir, o)
	require.NoError(b, err)
	srv, err := embedded.Start(ctx, embedded.Options{Dir: dir})
	require.NoError(b, err)
	b.Cleanup(srv.Shutdown)
	st, err := jetstore.Open(ctx, srv.JetStream(), jetstore.Options{})
	require.NoError(b, err)
	run := func(b *testing.B, fn func() (int, error)) {
		var cpu float64
		for b.Loop() {
			t := startTimer()
			got, err := fn()
			require.NoError(b, err)
			require.Equal(b, n, got)
			cpu += (cpuTime() - t.cpu).Seconds()
		}
		b.ReportMetric(b.Elapsed().Seconds()*1e9/float64(b.N*n), "ns/event")
		b.ReportMetric(cpu*1e9/float64(b.N*n), "cpu-ns/event")
	}
	b.Run("raw-ordered-consumer", func(b *testing.B) {
		run(b, func() (int, error) {
			_, err := rawRead(ctx, srv.JetStream(), n, func(int) {})
			return n, err
		})
	})
	b.Run("store-read", func(b *testing.B) { // jetstore.Store.Read: direct gets, then the ordered pipeline
		run(b, func() (int, error) {
			n := 0
			err := st.Read(ctx, events.Query{}, func(events.Recorded) error { n++; return nil })
			return n, err
		})
	})
	b.Run("rebuild", func(b *testing.B) { // what journal bench measures
		run(b, func() (int, error) {
			f, err := Rebuild(ctx, st, nil)
			if err != nil {
				return 0, err
			}
			return f.Events, nil
		})
	})
}
