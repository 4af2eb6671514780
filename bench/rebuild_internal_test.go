package bench

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/jetstore"
	"github.com/campaign-journal/journal/projections"
)

// BenchmarkRebuild compares the ways of reading and folding a stream of
// 20 000 events (100 campaigns, 1 000 characters), reporting the wall and
// the CPU time per event:
//
//	go test ./bench/ -run '^$' -bench Rebuild -benchtime 3x
func BenchmarkRebuild(b *testing.B) {
	ctx := context.Background()
	dir := filepath.Join(b.TempDir(), "stream")
	o, err := Options{Campaigns: 100, Characters: 1000, Events: 20_000}.withDefaults()
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
	b.Run("store-read-serial", func(b *testing.B) { // the way before issue 7: direct gets, decode, fold, one goroutine
		run(b, func() (int, error) {
			f := &Folds{Campaigns: map[string]*projections.Campaign{}}
			err := st.Read(ctx, events.Query{}, func(rec events.Recorded) error {
				return f.fold([]events.Recorded{rec})
			})
			return f.Events, err
		})
	})
	b.Run("store-follow", func(b *testing.B) {
		run(b, func() (int, error) {
			f, err := Rebuild(ctx, st)
			if err != nil {
				return 0, err
			}
			return f.Events, nil
		})
	})
	for _, w := range []int{1, 2} {
		b.Run("jetstream-workers-"+string(rune('0'+w)), func(b *testing.B) {
			run(b, func() (int, error) {
				f, err := RebuildJetStream(ctx, srv.JetStream(), st, w, nil)
				if err != nil {
					return 0, err
				}
				return f.Events, nil
			})
		})
	}
}
