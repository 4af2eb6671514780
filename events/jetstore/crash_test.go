package jetstore_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/jetstore"
)

// crashDirEnv names the data folder of the crash test's child process.
const crashDirEnv = "JOURNAL_CRASH_CHILD_DIR"

// TestCrash kills a process that appends with Sync on (SIGKILL, mid-stream)
// and checks, after restarting on its folder, that every acknowledged event
// is there exactly once and that no atomic batch is there in part.
func TestCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("crash test: skipped in short mode")
	}
	const acksBeforeKill = 300
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashDirEnv+"="+dir)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())

	var tried [][]string // every append the child began, acknowledged or not
	acked := map[string]bool{}
	lines := bufio.NewScanner(out)
	for lines.Scan() && len(acked) < acksBeforeKill {
		word, rest, _ := strings.Cut(lines.Text(), " ")
		switch word {
		case "TRY":
			tried = append(tried, strings.Fields(rest))
		case "ACK":
			for _, id := range strings.Fields(rest) {
				acked[id] = true
			}
		}
	}
	require.NoError(t, cmd.Process.Kill()) // SIGKILL
	_ = cmd.Wait()
	if len(acked) < acksBeforeKill {
		t.Fatalf("child stopped after %d acknowledged events", len(acked))
	}

	srv := startServer(t, dir, true)
	s := openStore(t, srv)
	count := map[string]int{}
	var prev uint64
	require.NoError(t, s.Read(ctx, events.Query{}, func(r events.Recorded) error {
		if r.Seq != prev+1 {
			return fmt.Errorf("sequence %d after %d", r.Seq, prev)
		}
		prev = r.Seq
		count[r.Event.ID]++
		return nil
	}))
	for id := range acked {
		if count[id] != 1 {
			t.Errorf("acknowledged event %s stored %d times", id, count[id])
		}
	}
	for _, ids := range tried {
		n := 0
		for _, id := range ids {
			n += count[id]
		}
		if n != 0 && n != len(ids) {
			t.Errorf("batch %v stored in part: %d of %d", ids, n, len(ids))
		}
	}
	t.Logf("killed after %d acknowledged events; %d stored after restart", len(acked), len(count))

	// The store goes on from where it was.
	last, err := s.Last(ctx, "journal.crash")
	require.NoError(t, err)
	_, err = s.Append(ctx, events.ExpectLast("journal.crash", last), testEvent(t, "crash", "c", "after"))
	require.NoError(t, err)
}

// TestCrashChild is the process TestCrash kills: it appends single events
// and batches of three with Sync on, each conditional on the campaign's last
// sequence, printing "TRY ids" before and "ACK ids" after each append.
func TestCrashChild(t *testing.T) {
	dir := os.Getenv(crashDirEnv)
	if dir == "" {
		t.Skip("helper process of TestCrash")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	srv, err := embedded.Start(ctx, embedded.Options{Dir: dir, Sync: true})
	require.NoError(t, err)
	defer srv.Shutdown()
	s, err := jetstore.Open(ctx, srv.JetStream(), jetstore.Options{})
	require.NoError(t, err)
	filter := "journal.crash"
	var last uint64
	for i := range 5000 {
		n := 1 + 2*(i%2) // 1, 3, 1, 3, ...
		evs := make([]events.Event, n)
		ids := make([]string, n)
		for j := range evs {
			evs[j] = testEvent(t, "crash", "c", fmt.Sprint("e", i))
			ids[j] = evs[j].ID
		}
		fmt.Println("TRY", strings.Join(ids, " "))
		seqs, err := s.Append(ctx, events.ExpectLast(filter, last), evs...)
		require.NoError(t, err)
		last = seqs[len(seqs)-1]
		fmt.Println("ACK", strings.Join(ids, " "))
	}
}
