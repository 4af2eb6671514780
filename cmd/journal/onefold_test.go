package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/jetstore"
)

// foldCounter is a store that counts the folds of a campaign made through
// it: every load of a campaign (command.Handler.Load, or a command's first
// catch-up) asks the store for the campaign's count first (SubjectCount),
// and no other read does. It counts the reads too.
type foldCounter struct {
	command.Store
	folds, reads atomic.Int64
}

func (s *foldCounter) Read(ctx context.Context, q events.Query, fn func(events.Recorded) error) error {
	s.reads.Add(1)
	return s.Store.Read(ctx, q, fn)
}

func (s *foldCounter) ReadLast(ctx context.Context, q events.Query, fn func(events.Recorded) error) (uint64, error) {
	s.reads.Add(1)
	return s.Store.(*jetstore.Store).ReadLast(ctx, q, fn)
}

func (s *foldCounter) SubjectCount(ctx context.Context, subject string) (uint64, string, error) {
	s.folds.Add(1)
	return s.Store.(*jetstore.Store).SubjectCount(ctx, subject)
}

// counted runs one command line in-process on c's data folder, the whole
// CLI code path on a real embedded server, and returns its stdout, the
// folds it made of the campaign and the store reads.
func (c *cli) counted(args ...string) (out string, folds, reads int) {
	c.t.Helper()
	var stdout, stderr bytes.Buffer
	a := newApp(&stdout, &stderr)
	st := &foldCounter{}
	a.wrapStore = func(inner command.Store) command.Store { st.Store = inner; return st }
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	code := runApp(ctx, a, append([]string{"--data", c.dir}, args...))
	require.Zero(c.t, code, "%v: %s", args, stderr.String())
	return stdout.String(), int(st.folds.Load()), int(st.reads.Load())
}

// TestOneFoldPerCommand: a CLI command folds its campaign once. The
// command's look at the campaign before it runs (is the session v2?), the
// command's own catch-up and the report on the state before what it
// recorded share that fold; the command then reads back only what it
// appended. Before, a v1 roll folded three times (InV2Session's load, the
// command's catch-up, a load to describe the result) and a day two.
func TestOneFoldPerCommand(t *testing.T) {
	c := newCLI(t)
	c.setupCampaign()
	c.ok("-c", "mordor", "session", "start")
	for _, args := range [][]string{
		{"-c", "mordor", "--lang", "en", "roll", "lodin", "Sigilo"},
		{"-c", "mordor", "--lang", "en", "day", "new"},
		{"-c", "mordor", "--lang", "en", "damage", "lodin", "2"},
	} {
		out, folds, reads := c.counted(args...)
		require.Equal(t, 1, folds, "%v: folds of the campaign", args)
		// The fold's read (the checkpoint's tail, or the whole campaign)
		// and the read back of what the command appended.
		require.LessOrEqual(t, reads, 2, "%v: reads", args)
		require.Contains(t, out, "seq ", "%v: the report names what it recorded", args)
	}
	// The report is described on the state before the command: the damage
	// line names the hit points before and after it.
	var sheet struct {
		HP int `json:"hp"`
	}
	require.NoError(t, json.Unmarshal([]byte(c.ok("-c", "mordor", "--json", "character", "show", "lodin")), &sheet))
	out, _, _ := c.counted("-c", "mordor", "--lang", "en", "damage", "lodin", "1")
	require.Contains(t, out, fmt.Sprintf("takes 1 damage: HP %d → %d", sheet.HP, sheet.HP-1))
}

// TestOneFoldPerV2Roll: a journal-dice-v2 roll, request and reveal in one
// command, folds its campaign once too.
func TestOneFoldPerV2Roll(t *testing.T) {
	tb := newV2Table(t)
	tb.as("gm").ok("-c", "mordor", "session", "start", "--dice", "v2")
	tb.as("ana").ok("-c", "mordor", "session", "contribute")
	out, folds, _ := tb.counted("-c", "mordor", "roll", "lodin", "Sigilo", "--vs", "media")
	// (Its other reads are not folds: the device's receipts check, the
	// event each signed message says it saw, read by the device to hash
	// it and by the journal to check it, the tail read before the
	// action is built, and the read back of each step.)
	require.Equal(t, 1, folds, "folds of the campaign")
	require.Contains(t, out, "Sigilo")
	// A co-signature of the session's end reads the same one fold.
	tb.as("gm").ok("-c", "mordor", "session", "end")
	_, folds, _ = tb.as("ana").counted("-c", "mordor", "session", "cosign")
	require.Equal(t, 1, folds, "session cosign: folds of the campaign")
}
