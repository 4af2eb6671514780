package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/jetstore"
)

// readCounter is a store that counts the events its reads deliver.
type readCounter struct {
	command.Store
	n atomic.Int64
}

func (s *readCounter) Read(ctx context.Context, q events.Query, fn func(events.Recorded) error) error {
	return s.Store.Read(ctx, q, func(r events.Recorded) error { s.n.Add(1); return fn(r) })
}

// ReadLast counts as one message read (the server loads the block that
// holds it); SubjectCount reads none. Both pass to the CLI's store, so
// that its loads take the path they take without the counter.
func (s *readCounter) ReadLast(ctx context.Context, q events.Query, fn func(events.Recorded) error) (uint64, error) {
	s.n.Add(1)
	return s.Store.(*jetstore.Store).ReadLast(ctx, q, fn)
}

func (s *readCounter) SubjectCount(ctx context.Context, subject string) (uint64, string, error) {
	return s.Store.(*jetstore.Store).SubjectCount(ctx, subject)
}

// TestCLIColdLoadReadsTheCheckpoint: the CLI, a fresh process each time
// and no serve, writes a checkpoint of a campaign it folded from the start
// (more than command.DefaultCheckpointEvery events), and the next command
// on the cold campaign reads that checkpoint and only the events after it.
func TestCLIColdLoadReadsTheCheckpoint(t *testing.T) {
	c := newCLI(t)
	c.ok("campaign", "create", "mordor", "--system", "ryf")
	days := func(n int) { // appended by another writer, past this CLI
		ctx := context.Background()
		srv, err := embedded.Start(ctx, embedded.Options{Dir: c.dir})
		require.NoError(t, err)
		defer srv.Shutdown()
		st, err := jetstore.Open(ctx, srv.JetStream(), jetstore.Options{})
		require.NoError(t, err)
		j := command.New(st, command.Options{Clock: time.Now, Rand: rand.Reader, IDs: events.NewV7(time.Now, rand.Reader)})
		for range n {
			_, err := j.NewDay(ctx, "mordor")
			require.NoError(t, err)
		}
	}
	cliReads := func(args ...string) int {
		var out, errb bytes.Buffer
		a := newApp(&out, &errb)
		st := &readCounter{}
		a.wrapStore = func(inner command.Store) command.Store { st.Store = inner; return st }
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		code := runApp(ctx, a, append([]string{"--data", c.dir, "-c", "mordor"}, args...))
		require.Zero(t, code, "%v: %s", args, errb.String())
		return int(st.n.Load())
	}
	days(988) // 989 events
	// Cold, no checkpoint: the CLI reads the whole campaign, and writes the
	// checkpoint at its 989th event before appending the 990th.
	// (The CLI folds the campaign once, before the command runs: 989; the
	// command decides on that fold and reads back the 1 it appended under
	// its request id.)
	require.Equal(t, 989+1, cliReads("day", "new"))
	days(10) // 1000 events
	// Cold again: the checkpoint's own last event and the 11 after it, and
	// the read back: about 10 events, not 1000.
	require.Equal(t, 1+11+1, cliReads("day", "new"))
	require.Len(t, c.events("mordor"), 1001)
}
