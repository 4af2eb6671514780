package command_test

import (
	"bufio"
	"context"
	"crypto/rand"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/jetstore"
	"github.com/campaign-journal/journal/projections"
)

const crashChildEnv = "JOURNAL_COMMAND_CRASH_DIR"

// openJournal starts an embedded server with Sync on in dir and returns a
// journal over it; the server stops when the test ends.
func openJournal(t testing.TB, dir string) (*command.Handler, *jetstore.Store) {
	t.Helper()
	j, st, stop := startJournal(t, dir)
	t.Cleanup(stop)
	return j, st
}

func startJournal(t testing.TB, dir string) (*command.Handler, *jetstore.Store, func()) {
	t.Helper()
	srv, err := embedded.Start(context.Background(), embedded.Options{Dir: dir, Sync: true})
	require.NoError(t, err)
	st, err := jetstore.Open(context.Background(), srv.JetStream(), jetstore.Options{})
	if err != nil {
		srv.Shutdown()
		require.NoError(t, err)
	}
	return command.New(st, command.Options{Clock: time.Now, Rand: rand.Reader, IDs: events.NewV7(time.Now, rand.Reader)}), st, srv.Shutdown
}

// TestKilledMidCommands kills (SIGKILL) a process recording rolls and
// damage with Sync on, restarts on its folder, and finds every acknowledged
// event once, the sheets equal to a full refold, and the journal accepting
// new commands with the next nonce.
func TestKilledMidCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("crash test: skipped in short mode")
	}
	dir := t.TempDir()
	setupJ, _, stop := startJournal(t, dir)
	setup(t, setupJ) // campaign, characters, open session
	stop()           // the child owns the folder next
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	const acksBeforeKill = 120
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestKilledMidCommandsChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashChildEnv+"="+dir)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	acked := map[string]bool{}
	lines := bufio.NewScanner(out)
	for lines.Scan() && len(acked) < acksBeforeKill {
		if id, ok := strings.CutPrefix(lines.Text(), "ACK "); ok {
			acked[id] = true
		}
	}
	require.NoError(t, cmd.Process.Kill())
	_ = cmd.Wait()
	require.GreaterOrEqual(t, len(acked), acksBeforeKill, "child stopped early")

	j, st := openJournal(t, dir)
	seen := map[string]int{}
	var recs []events.Recorded
	require.NoError(t, st.Read(ctx, events.Query{}, func(r events.Recorded) error {
		seen[r.Event.ID]++
		recs = append(recs, r)
		return nil
	}))
	for id := range acked {
		if seen[id] != 1 {
			t.Errorf("acknowledged event %s stored %d times", id, seen[id])
		}
	}
	loaded, err := j.Load(ctx, "mordor", 0)
	require.NoError(t, err)
	refold, err := projections.Fold("mordor", recs, 0)
	require.NoError(t, err)
	for _, id := range loaded.Roster {
		if a, b := loaded.Characters[id], refold.Characters[id]; a.HP != b.HP || a.Rolls != b.Rolls {
			t.Errorf("%s: loaded HP %d rolls %d, refold HP %d rolls %d", id, a.HP, a.Rolls, b.HP, b.Rolls)
		}
	}
	next := loaded.OpenSession().NextNonce
	res, err := j.Roll(ctx, "mordor", command.RollRequest{Character: "lodin", Skill: "Buscar"})
	require.NoError(t, err, "the journal must accept commands after the crash")
	p, _ := res.Events[0].Event.Payload()
	if n := p.(*events.RollMade).Nonce; n != next {
		t.Fatalf("roll after restart took nonce %d, want %d", n, next)
	}
	t.Logf("%d acknowledged events checked after SIGKILL; %d events in the stream", len(acked), len(recs))
}

// TestKilledMidCommandsChild is the child process of TestKilledMidCommands.
func TestKilledMidCommandsChild(t *testing.T) {
	dir := os.Getenv(crashChildEnv)
	if dir == "" {
		t.Skip("child of TestKilledMidCommands")
	}
	j, _ := openJournal(t, dir)
	ctx := context.Background()
	for i := 0; ; i++ {
		var res command.Result
		var err error
		if i%2 == 0 {
			res, err = j.Roll(ctx, "mordor", command.RollRequest{Character: "lodin", Skill: "Buscar"})
		} else {
			res, err = j.Damage(ctx, "mordor", "ruisenor", 1, "")
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "child:", err)
			os.Exit(2)
		}
		for _, r := range res.Events {
			fmt.Printf("ACK %s\n", r.Event.ID)
		}
	}
}
