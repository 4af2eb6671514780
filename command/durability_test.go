package command_test

import (
	"bufio"
	"context"
	"crypto/rand"
	"fmt"
	mrand "math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/embedded/embeddedtest"
	"github.com/campaign-journal/journal/events/jetstore"
	"github.com/campaign-journal/journal/events/memstore"
	"github.com/campaign-journal/journal/projections"
)

// Environment of the child processes of the tests below.
const (
	killChildEnv  = "JOURNAL_KILL_CHILD_DIR"
	shareChildEnv = "JOURNAL_SHARE_CHILD_DIR"
	shareSpecEnv  = "JOURNAL_SHARE_CHILD_SPEC" // "name,rolls,damages"
	killSeedEnv   = "JOURNAL_KILL_SEED"
)

// readAll returns every event stored, checking that the sequences run
// without gaps.
func readAll(t testing.TB, ctx context.Context, st command.Store) []events.Recorded {
	t.Helper()
	var recs []events.Recorded
	require.NoError(t, st.Read(ctx, events.Query{}, func(r events.Recorded) error {
		if n := len(recs); n > 0 && r.Seq != recs[n-1].Seq+1 {
			return fmt.Errorf("sequence %d follows %d", r.Seq, recs[n-1].Seq)
		}
		recs = append(recs, r)
		return nil
	}))
	return recs
}

// checkNonces checks that the rolls of the stream took nonces 0, 1, 2, ...
// per session, and returns how many rolls there are.
func checkNonces(t testing.TB, recs []events.Recorded) int {
	t.Helper()
	next := map[string]uint64{}
	n := 0
	for _, r := range recs {
		if r.Event.Type != events.TypeRollMade {
			continue
		}
		p, err := r.Event.Payload()
		require.NoError(t, err)
		if got, want := p.(*events.RollMade).Nonce, next[r.Event.Session]; got != want {
			t.Fatalf("roll %s at %d took nonce %d, want %d: a nonce was reused or skipped", r.Event.ID, r.Seq, got, want)
		}
		next[r.Event.Session]++
		n++
	}
	return n
}

// checkRefold checks that the campaign a fresh journal loads equals a full
// refold of the events.
func checkRefold(t testing.TB, ctx context.Context, j *command.Handler, recs []events.Recorded) *projections.Campaign {
	t.Helper()
	loaded, err := j.Load(ctx, "mordor", 0)
	require.NoError(t, err)
	refold, err := projections.Fold("mordor", recs, 0)
	require.NoError(t, err)
	require.Equal(t, refold, loaded, "the loaded campaign differs from a full refold")
	return loaded
}

// TestKilledManyTimes kills (SIGKILL) a process recording commands with
// Sync on, ten times, each time after a random number (1..200) of
// acknowledged commands, on the same data folder. After each kill the
// journal restarts on the folder and finds every command acknowledged so far
// stored exactly once and whole (a contest's two rolls and verdict, an
// atomic batch, all or nothing), the nonces without gap or repeat, the
// sheets equal to a full refold, and it accepts a new roll with the next
// nonce. JOURNAL_KILL_SEED=N replays a run.
func TestKilledManyTimes(t *testing.T) {
	if testing.Short() {
		t.Skip("crash test: ten SIGKILLs, ~15 s; skipped in short mode")
	}
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv(killSeedEnv); s != "" {
		var err error
		seed, err = strconv.ParseUint(s, 10, 64)
		require.NoError(t, err)
	}
	t.Logf("seed %d (%s=%d replays this run)", seed, killSeedEnv, seed)
	rng := mrand.New(mrand.NewPCG(seed, 6))

	dir := t.TempDir()
	setupJ, _, stop := startJournal(t, dir)
	setup(t, setupJ)
	stop()

	ctx, cancel := context.WithTimeout(t.Context(), 120*time.Second)
	defer cancel()
	const kills = 10
	acked := map[string]bool{}
	var commands [][]string // the ids of each acknowledged command
	total := 0
	for round := range kills {
		target := 1 + rng.IntN(200)
		cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestKilledManyTimesChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), killChildEnv+"="+dir, killSeedEnv+"="+strconv.FormatUint(seed+uint64(round), 10))
		cmd.Stderr = os.Stderr
		out, err := cmd.StdoutPipe()
		require.NoError(t, err)
		require.NoError(t, cmd.Start())
		n := 0
		lines := bufio.NewScanner(out)
		for n < target && lines.Scan() {
			ids, ok := strings.CutPrefix(lines.Text(), "ACK ")
			if !ok {
				continue
			}
			commands = append(commands, strings.Fields(ids))
			for _, id := range strings.Fields(ids) {
				acked[id] = true
			}
			n++
		}
		require.NoError(t, cmd.Process.Kill()) // SIGKILL, in the middle of the next command
		_ = cmd.Wait()
		require.Equal(t, target, n, "round %d: the child stopped before %d acknowledged commands", round, target)
		total += n

		j, st, stop := startJournal(t, dir)
		recs := readAll(t, ctx, st)
		count := map[string]int{}
		for _, r := range recs {
			count[r.Event.ID]++
		}
		for id := range acked {
			if count[id] != 1 {
				t.Fatalf("round %d: acknowledged event %s stored %d times", round, id, count[id])
			}
		}
		for id, c := range count {
			if c != 1 {
				t.Fatalf("round %d: event %s stored %d times", round, id, c)
			}
		}
		checkWhole(t, recs)
		rolls := checkNonces(t, recs)
		loaded := checkRefold(t, ctx, j, recs)
		next := loaded.OpenSession().NextNonce
		require.Equal(t, uint64(rolls), next)
		res, err := j.Roll(ctx, "mordor", command.RollRequest{Character: "lodin", Skill: "Buscar"})
		require.NoError(t, err, "round %d: the journal must accept commands after the crash", round)
		p, err := res.Events[0].Event.Payload()
		require.NoError(t, err)
		require.Equal(t, next, p.(*events.RollMade).Nonce, "round %d: the roll after the restart takes the next nonce", round)
		acked[res.Events[0].Event.ID] = true
		stop()
		t.Logf("kill %d after %d acknowledged commands: %d events in the stream, all %d acknowledged events there once",
			round+1, n, len(recs)+1, len(acked))
	}
	t.Logf("%d kills survived, %d acknowledged commands (%d events) checked after each", kills, total, len(acked))
}

// checkWhole checks that every contest in the stream has both its rolls,
// and every attack its roll: what one command records is there whole.
func checkWhole(t testing.TB, recs []events.Recorded) {
	t.Helper()
	ids := map[string]bool{}
	for _, r := range recs {
		ids[r.Event.ID] = true
	}
	for _, r := range recs {
		if r.Event.Type != events.TypeContestResolved {
			continue
		}
		var c events.ContestResolved
		require.NoError(t, r.Event.DecodeData(&c))
		if !ids[c.RollA] || !ids[c.RollB] {
			t.Fatalf("contest %s at %d without its rolls: a command stored in part", r.Event.ID, r.Seq)
		}
	}
}

// TestKilledManyTimesChild is the process TestKilledManyTimes kills: it
// records rolls, contests (three events in one atomic append) and damage
// followed by healing, printing "ACK ids" after each acknowledged command.
func TestKilledManyTimesChild(t *testing.T) {
	dir := os.Getenv(killChildEnv)
	if dir == "" {
		t.Skip("child of TestKilledManyTimes")
	}
	seed, _ := strconv.ParseUint(os.Getenv(killSeedEnv), 10, 64)
	rng := mrand.New(mrand.NewPCG(seed, 7))
	j, _ := openJournal(t, dir)
	ctx := context.Background()
	ack := func(res command.Result, err error) {
		if err != nil {
			fmt.Fprintln(os.Stderr, "child:", err)
			os.Exit(2)
		}
		fmt.Println("ACK", strings.Join(ids(res), " "))
	}
	for {
		switch rng.IntN(3) {
		case 0:
			ack(j.Roll(ctx, "mordor", command.RollRequest{Character: "lodin", Skill: "Buscar"}))
		case 1:
			ack(j.Contest(ctx, "mordor", command.ContestRequest{A: "lodin", SkillA: "Sigilo", B: "orco", SkillB: "Pelea"}))
		default: // a kill between the two leaves the orc 1 HP down, never dead
			ack(j.Damage(ctx, "mordor", "orco", 1, ""))
			ack(j.Heal(ctx, "mordor", "orco", 1))
		}
	}
}

// lostAckStore appends every batch twice, as a client does whose first
// acknowledgement was lost and who sends the very same append again: the
// second answer is the one the journal gets.
type lostAckStore struct {
	storeAndSecrets
	mu     sync.Mutex
	first  [][]uint64 // what the lost acknowledgements said
	second [][]uint64
}

func (s *lostAckStore) Append(ctx context.Context, expect events.Expect, evs ...events.Event) ([]uint64, error) {
	lost, err := s.storeAndSecrets.Append(ctx, expect, evs...)
	if err != nil {
		return nil, err
	}
	again, err := s.storeAndSecrets.Append(ctx, expect, evs...)
	s.mu.Lock()
	s.first, s.second = append(s.first, lost), append(s.second, again)
	s.mu.Unlock()
	return again, err
}

// TestRetriedAppendStoredOnce: every append of a command is sent twice with
// the same events and expectation (a lost acknowledgement, then a retry),
// on the memory store and on JetStream. The retry returns the original
// sequences, nothing is stored twice, nonces do not skip, and the journal's
// state equals a full refold.
func TestRetriedAppendStoredOnce(t *testing.T) {
	stores := []struct {
		name string
		open func(t *testing.T) storeAndSecrets
	}{
		{"memstore", func(t *testing.T) storeAndSecrets { return memstore.New(memstore.Options{}) }},
		{"jetstore", func(t *testing.T) storeAndSecrets {
			_, st := embeddedtest.Store(t, embedded.Options{Sync: true})
			return st
		}},
	}
	for _, tt := range stores {
		t.Run(tt.name, func(t *testing.T) {
			ctx := t.Context()
			inner := tt.open(t)
			st := &lostAckStore{storeAndSecrets: inner}
			j := command.New(st, command.Options{Clock: time.Now, Rand: rand.Reader, IDs: events.NewV7(time.Now, rand.Reader)})
			setup(t, j)
			for i := range 10 {
				var err error
				switch i % 3 {
				case 0:
					_, err = j.Roll(ctx, "mordor", command.RollRequest{Character: "lodin", Skill: "Buscar"})
				case 1:
					_, err = j.Contest(ctx, "mordor", command.ContestRequest{A: "lodin", SkillA: "Sigilo", B: "orco", SkillB: "Pelea"})
				default:
					_, err = j.Damage(ctx, "mordor", "orco", 1, "")
				}
				require.NoError(t, err)
			}
			for i := range st.first {
				if !slices.Equal(st.first[i], st.second[i]) {
					t.Fatalf("append %d: the retry returned %v, the original %v", i, st.second[i], st.first[i])
				}
			}
			recs := readAll(t, ctx, inner)
			want := 0
			for _, seqs := range st.first {
				want += len(seqs)
			}
			require.Len(t, recs, want, "every event stored once")
			checkNonces(t, recs)
			checkWhole(t, recs)
			checkRefold(t, ctx, command.New(inner, command.Options{Clock: time.Now, Rand: rand.Reader, IDs: events.NewV7(time.Now, rand.Reader)}), recs)
		})
	}
}

// TestConcurrentProcesses: three child processes connect to one embedded
// server through its shared data folder, and with two goroutines in this
// process, eight writers issue rolls and damage for the same characters in
// the same session at once. No update is lost (every acknowledged roll and
// point of damage is in the sheets), every acknowledged event is stored
// once, nonces run without gap or repeat, and the sheets equal a full
// refold.
func TestConcurrentProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("multi-process test: skipped in short mode")
	}
	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()
	dir := t.TempDir()
	srv, err := embedded.Start(ctx, embedded.Options{Dir: dir, Sync: true, Share: true})
	require.NoError(t, err)
	t.Cleanup(srv.Shutdown)
	st, err := jetstore.Open(ctx, srv.JetStream(), jetstore.Options{})
	require.NoError(t, err)
	newJ := func() *command.Handler {
		return command.New(st, command.Options{Clock: time.Now, Rand: rand.Reader, IDs: events.NewV7(time.Now, rand.Reader), Retries: 1000})
	}
	shared := newJ()
	setup(t, shared)
	c, err := shared.Load(ctx, "mordor", 0)
	require.NoError(t, err)
	const children, perChild, inProcess, rolls = 3, 2, 2, 12
	writers := children*perChild + inProcess
	damages := (c.Characters["lodin"].MaxHP - 1) / writers
	require.Positive(t, damages)

	type result struct {
		kind string
		ids  []string
	}
	results := make(chan result, 4096)
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := range children {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestConcurrentProcessesChild$", "-test.count=1")
			cmd.Env = append(os.Environ(), shareChildEnv+"="+dir, fmt.Sprintf("%s=child%d,%d,%d,%d", shareSpecEnv, i, perChild, rolls, damages))
			cmd.Stderr = os.Stderr
			out, err := cmd.StdoutPipe()
			if err != nil {
				errs <- err
				return
			}
			if err := cmd.Start(); err != nil {
				errs <- err
				return
			}
			lines := bufio.NewScanner(out)
			for lines.Scan() {
				f := strings.Fields(lines.Text())
				if len(f) >= 3 && f[0] == "ACK" {
					results <- result{kind: f[1], ids: f[2:]}
				}
			}
			if err := cmd.Wait(); err != nil {
				errs <- fmt.Errorf("child %d: %w", i, err)
			}
		}()
	}
	// In this process: one journal shared by two goroutines.
	for range inProcess {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := writeConcurrently(ctx, shared, rolls, damages, func(kind string, ids []string) {
				results <- result{kind: kind, ids: ids}
			}); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(results)
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	var acked []string
	nRolls, nDamage := 0, 0
	for r := range results {
		acked = append(acked, r.ids...)
		switch r.kind {
		case "roll":
			nRolls++
		case "damage":
			nDamage++
		}
	}
	require.Equal(t, writers*rolls, nRolls, "acknowledged rolls")
	require.Equal(t, writers*damages, nDamage, "acknowledged damage")

	recs := readAll(t, ctx, st)
	count := map[string]int{}
	for _, r := range recs {
		count[r.Event.ID]++
	}
	for _, id := range acked {
		if count[id] != 1 {
			t.Fatalf("acknowledged event %s stored %d times", id, count[id])
		}
	}
	require.Equal(t, writers*rolls, checkNonces(t, recs))
	loaded := checkRefold(t, ctx, newJ(), recs)
	lodin := loaded.Characters["lodin"]
	require.Equal(t, writers*rolls, lodin.Rolls, "a roll was lost")
	require.Equal(t, lodin.MaxHP-writers*damages, lodin.HP, "damage was lost")
	t.Logf("%d writers in %d processes: %d rolls and %d damage, %d events, all acknowledged once, nonces 0..%d",
		writers, children+1, nRolls, nDamage, len(recs), nRolls-1)
}

// writeConcurrently issues rolls for lodin and damage to lodin, interleaved,
// reporting each acknowledged command.
func writeConcurrently(ctx context.Context, j *command.Handler, rolls, damages int, ack func(kind string, ids []string)) error {
	for i := 0; i < rolls || i < damages; i++ {
		if i < rolls {
			res, err := j.Roll(ctx, "mordor", command.RollRequest{Character: "lodin", Skill: "Buscar"})
			if err != nil {
				return fmt.Errorf("roll: %w", err)
			}
			ack("roll", ids(res))
		}
		if i < damages {
			res, err := j.Damage(ctx, "mordor", "lodin", 1, "")
			if err != nil {
				return fmt.Errorf("damage: %w", err)
			}
			ack("damage", ids(res))
		}
	}
	return nil
}

func ids(res command.Result) []string {
	out := make([]string, len(res.Events))
	for i, r := range res.Events {
		out[i] = r.Event.ID
	}
	return out
}

// TestConcurrentProcessesChild is a child process of TestConcurrentProcesses:
// it connects through the data folder's owner and runs its writers.
func TestConcurrentProcessesChild(t *testing.T) {
	dir := os.Getenv(shareChildEnv)
	if dir == "" {
		t.Skip("child of TestConcurrentProcesses")
	}
	var name string
	var writers, rolls, damages int
	_, err := fmt.Sscanf(strings.ReplaceAll(os.Getenv(shareSpecEnv), ",", " "), "%s %d %d %d", &name, &writers, &rolls, &damages)
	require.NoError(t, err)
	ctx := context.Background()
	srv, err := embedded.Start(ctx, embedded.Options{Dir: dir})
	require.NoError(t, err)
	defer srv.Shutdown()
	require.True(t, srv.Remote(), "the child must go through the owner")
	st, err := jetstore.Open(ctx, srv.JetStream(), jetstore.Options{})
	require.NoError(t, err)
	j := command.New(st, command.Options{Clock: time.Now, Rand: rand.Reader, IDs: events.NewV7(time.Now, rand.Reader), Actor: name, Retries: 1000})
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := writeConcurrently(ctx, j, rolls, damages, func(kind string, ids []string) {
				mu.Lock()
				defer mu.Unlock()
				fmt.Println("ACK", kind, strings.Join(ids, " "))
			})
			if err != nil {
				fmt.Fprintln(os.Stderr, name+":", err)
				os.Exit(2)
			}
		}()
	}
	wg.Wait()
}

// storeAndSecrets is a store that keeps the sessions' secrets too, as the
// real ones do: a wrapper embedding it passes both on.
type storeAndSecrets interface {
	command.Store
	events.Secrets
}
