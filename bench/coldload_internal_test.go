package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/jetstore"
)

// BenchmarkColdLoad loads a campaign of about 1 000 events with a fresh
// journal (command.Journal.Load), the stream at BENCH_COLD_EVENTS events
// (default 100 000) interleaved over events/1 000 campaigns as the
// cold-load stage writes them, for a CPU profile of a cold load:
//
//	BENCH_COLD_EVENTS=300000 go test ./bench/ -run '^$' -bench ColdLoad -benchtime 20x -cpuprofile cpu.prof
func BenchmarkColdLoad(b *testing.B) {
	ctx := context.Background()
	events := 100_000
	if s := os.Getenv("BENCH_COLD_EVENTS"); s != "" {
		var err error
		events, err = strconv.Atoi(s)
		require.NoError(b, err)
	}
	camps := events / 1000
	o, err := Options{Campaigns: camps, Characters: camps * 10, Events: events}.withDefaults()
	require.NoError(b, err)
	dir := filepath.Join(b.TempDir(), "stream")
	_, err = fill(ctx, dir, o)
	require.NoError(b, err)
	srv, err := embedded.Start(ctx, embedded.Options{Dir: dir})
	require.NoError(b, err)
	b.Cleanup(srv.Shutdown)
	st, err := jetstore.Open(ctx, srv.JetStream(), jetstore.Options{})
	require.NoError(b, err)
	list := campaigns("r", o.Campaigns, o.Characters)
	k := 0
	for b.Loop() {
		c, err := newJournal(st).Load(ctx, list[k%len(list)].id, 0)
		require.NoError(b, err)
		require.Greater(b, c.Events, 900, fmt.Sprint(list[k%len(list)].id))
		k++
	}
}
