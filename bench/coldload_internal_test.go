package bench

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/jetstore"
	"github.com/campaign-journal/journal/live"
)

// coldEvents is BENCH_COLD_EVENTS, default 100 000.
func coldEvents(tb testing.TB) int {
	if s := os.Getenv("BENCH_COLD_EVENTS"); s != "" {
		n, err := strconv.Atoi(s)
		require.NoError(tb, err)
		return n
	}
	return 100_000
}

// coldStream fills (once, in dir when given) a stream of n events
// interleaved over n/1 000 campaigns as the cold-load stage writes them,
// and returns its folder and campaigns.
func coldStream(tb testing.TB, dir string, n int) (string, []benchCampaign) {
	o, err := Options{Campaigns: n / 1000, Characters: n / 100, Events: n}.withDefaults()
	require.NoError(tb, err)
	if dir == "" {
		dir = tb.TempDir()
	}
	dir = filepath.Join(dir, fmt.Sprint(n))
	if _, err := os.Stat(dir); err != nil {
		_, err = fill(context.Background(), dir, o)
		require.NoError(tb, err)
	}
	return dir, campaigns("r", o.Campaigns, o.Characters)
}

// coldJournal starts a server on dir and returns a fresh journal on it
// with the checkpoint bucket, as the cold-load stage opens them.
func coldJournal(tb testing.TB, dir string) (*embedded.Server, *command.Handler, *live.BucketKV) {
	ctx := context.Background()
	srv, err := embedded.Start(ctx, embedded.Options{Dir: dir})
	require.NoError(tb, err)
	st, err := jetstore.Open(ctx, srv.JetStream(), jetstore.Options{})
	require.NoError(tb, err)
	kv, err := live.OpenBucket(ctx, srv.JetStream(), 1)
	require.NoError(tb, err)
	return srv, command.New(st, command.Options{Clock: time.Now, Rand: rand.Reader, IDs: events.NewV7(time.Now, rand.Reader),
		Actor: "bench", Checkpoints: kv}), kv
}

// BenchmarkColdLoad is the cold-load stage's load, for a CPU profile: a
// campaign of about 1 000 events loaded from its checkpoint by a fresh
// journal on a freshly started server (started with the timer stopped),
// the stream at BENCH_COLD_EVENTS events (default 100 000):
//
//	BENCH_COLD_EVENTS=1000000 go test ./bench/ -run '^$' -bench ColdLoad -benchtime 20x -cpuprofile cpu.prof
func BenchmarkColdLoad(b *testing.B) {
	ctx := context.Background()
	dir, list := coldStream(b, "", coldEvents(b))
	list = list[:min(len(list), 4)]
	for _, c := range list { // the checkpoints
		srv, j, _ := coldJournal(b, dir)
		_, err := j.Load(ctx, c.id, 0)
		require.NoError(b, err)
		srv.Shutdown()
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		srv, j, _ := coldJournal(b, dir)
		settle()
		b.StartTimer()
		c, err := j.Load(ctx, list[i%len(list)].id, 0)
		b.StopTimer()
		require.NoError(b, err)
		require.Greater(b, c.Events, 900)
		srv.Shutdown()
		b.StartTimer()
	}
}

// BenchmarkColdLoadSteps times each step of a cold load on a freshly
// started server, the sizes alternating (wall time, and the process's CPU
// time: the server runs in it): the checkpoint's get, the first request
// on the stream (the campaign's last message: the server reads the block
// holding it), the same again (the block read), and a whole cold load on
// another fresh server; each iteration is one of each at each size. It
// fills streams of 100 000 and 1 000 000 events, in BENCH_COLD_DIR when
// set (kept for the next run) or in a temporary folder.
//
//	BENCH_COLD_DIR=/tmp/cold go test ./bench/ -run '^$' -bench ColdLoadSteps -benchtime 16x -v
func BenchmarkColdLoadSteps(b *testing.B) {
	root := os.Getenv("BENCH_COLD_DIR")
	if root == "" {
		root = b.TempDir()
	}
	ctx := context.Background()
	sizes := []int{100_000, 1_000_000}
	dirs := map[int]string{}
	camps := map[int][]benchCampaign{}
	steps := map[int]map[string][]time.Duration{}
	for _, n := range sizes {
		dirs[n], camps[n] = coldStream(b, root, n)
		steps[n] = map[string][]time.Duration{}
		for _, c := range camps[n][:4] {
			srv, j, _ := coldJournal(b, dirs[n])
			_, err := j.Load(ctx, c.id, 0)
			require.NoError(b, err)
			srv.Shutdown()
		}
	}
	k := 0
	for b.Loop() {
		k++
		for _, n := range sizes {
			camp := camps[n][k%4].id
			subj, err := events.CampaignSubject(camp)
			require.NoError(b, err)
			srv, _, kv := coldJournal(b, dirs[n])
			settle()
			tm, cpu := time.Now(), cpuTime()
			lap := func(name string) {
				steps[n][name] = append(steps[n][name], time.Since(tm))
				steps[n][name+" (cpu)"] = append(steps[n][name+" (cpu)"], cpuTime()-cpu)
				tm, cpu = time.Now(), cpuTime()
			}
			_, err = kv.Get(ctx, command.CheckpointKey(camp))
			require.NoError(b, err)
			lap("1 checkpoint get")
			req, err := json.Marshal(map[string]any{"last_by_subj": subj, "no_hdr": true})
			require.NoError(b, err)
			for _, step := range []string{"2 last message, cold", "3 last message, warm"} {
				_, err = srv.Conn().Request("$JS.API.STREAM.MSG.GET."+jetstore.StreamName, req, 5*time.Second)
				require.NoError(b, err)
				lap(step)
			}
			srv.Shutdown()
			srv, j, _ := coldJournal(b, dirs[n])
			settle()
			tm, cpu = time.Now(), cpuTime()
			_, err = j.Load(ctx, camp, 0)
			require.NoError(b, err)
			lap("4 cold load")
			srv.Shutdown()
		}
	}
	b.StopTimer()
	for _, n := range sizes {
		names := make([]string, 0, len(steps[n]))
		for k := range steps[n] {
			names = append(names, k)
		}
		slices.Sort(names)
		for _, k := range names {
			d := steps[n][k]
			slices.Sort(d)
			b.Logf("%8d events  %-22s p50 %7.3f ms  min %7.3f  max %7.3f", n, k, float64(d[len(d)/2])/1e6, float64(d[0])/1e6, float64(d[len(d)-1])/1e6)
		}
	}
}
