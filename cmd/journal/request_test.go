package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/recorder"
)

// TestCLIRequestID: a command run again with the same --request-id (its
// first run's outcome unknown to its user) records nothing more and
// prints the original events; the same id for another command, and an
// invalid id, are refused with one clear message and record nothing.
func TestCLIRequestID(t *testing.T) {
	c := newCLI(t)
	c.setupCampaign()
	c.ok("-c", "mordor", "session", "start")
	first := c.ok("-c", "mordor", "--request-id", "roll-1", "roll", "lodin", "Sigilo")
	n := len(c.events("mordor"))
	again := c.ok("-c", "mordor", "roll", "lodin", "Sigilo", "--request-id", "roll-1")
	require.Equal(t, n, len(c.events("mordor")), "recorded again")
	require.Contains(t, again, "Ya registrado con la petición roll-1")
	require.Contains(t, again, first, "not the original result")
	out := c.ok("-c", "mordor", "--json", "--request-id", "roll-1", "roll", "lodin", "Sigilo")
	var doc struct {
		Recorded []recorder.Recorded `json:"recorded"`
		Repeated bool                `json:"repeated"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	require.True(t, doc.Repeated)
	require.Len(t, doc.Recorded, 1)
	require.Equal(t, "roll-1", doc.Recorded[0].Event.RequestID)
	require.Contains(t, first, doc.Recorded[0].Event.ID)

	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--request-id", "roll-1", "roll", "lodin", "Pelea"}, `request id already used for another command: "roll-1"`},
		{[]string{"--request-id", "roll-1", "damage", "orco", "2"}, `request id already used for another command: "roll-1"`},
		{[]string{"--request-id", "roll 1", "damage", "orco", "2"}, "--request-id"},
		{[]string{"--request-id", strings.Repeat("x", 65), "damage", "orco", "2"}, "at most 64"},
	} {
		_, errb, code := c.run(append([]string{"-c", "mordor", "--lang", "en"}, tt.args...)...)
		require.NotZero(t, code, "%v", tt.args)
		require.Contains(t, errb, tt.want, "%v", tt.args)
		require.Equal(t, 1, strings.Count(strings.TrimSpace(errb), "\n")+1, "one message: %s", errb)
		require.Equal(t, n, len(c.events("mordor")), "%v recorded something", tt.args)
	}
	// Without --request-id, each run is a command of its own.
	c.ok("-c", "mordor", "damage", "orco", "1")
	c.ok("-c", "mordor", "damage", "orco", "1")
	require.Equal(t, n+2, len(c.events("mordor")))
}

// lostAckStore stores the first appends it is given, up to lose, and
// answers each with a timeout, as a server whose acknowledgement never
// reached the client.
type lostAckStore struct {
	command.Store
	mu   sync.Mutex
	lose int
}

func (s *lostAckStore) Append(ctx context.Context, expect events.Expect, evs ...events.Event) ([]uint64, error) {
	seqs, err := s.Store.Append(ctx, expect, evs...)
	s.mu.Lock()
	defer s.mu.Unlock()
	if err == nil && s.lose > 0 {
		s.lose--
		return nil, context.DeadlineExceeded
	}
	return seqs, err
}

// TestCLIRetriesAfterTimeout: the CLI's append is stored but its
// acknowledgement times out; the CLI tries again under its own request
// id, and the command is recorded once, with the first attempt's events.
func TestCLIRetriesAfterTimeout(t *testing.T) {
	c := newCLI(t)
	c.setupCampaign()
	c.ok("-c", "mordor", "session", "start")
	for _, tt := range []struct {
		args []string
		typ  string // recorded once
	}{
		{[]string{"roll", "lodin", "Sigilo"}, events.TypeRollMade},
		{[]string{"contest", "lodin", "Sigilo", "orco", "Pelea"}, events.TypeContestResolved},
		{[]string{"damage", "orco", "1"}, events.TypeDamageTaken},
	} {
		args := tt.args
		n := len(c.events("mordor"))
		var out, errb bytes.Buffer
		a := newApp(&out, &errb)
		st := &lostAckStore{lose: 1}
		a.wrapStore = func(inner command.Store) command.Store { st.Store = inner; return st }
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		code := runApp(ctx, a, append([]string{"--data", c.dir, "-c", "mordor", "--lang", "en"}, args...))
		cancel()
		require.Zero(t, code, "%v: %s", args, errb.String())
		require.Contains(t, errb.String(), "trying request")
		evs := c.events("mordor")
		require.Greater(t, len(evs), n, "%v recorded nothing", args)
		added := evs[n:]
		for _, e := range added {
			require.Contains(t, out.String(), e.ID, "%v: the output is not what was recorded", args)
			require.Equal(t, added[0].RequestID, e.RequestID)
		}
		require.NotContains(t, out.String(), "Ya registrado", "the retry of an unknown outcome is the command's own")
		n = 0
		for _, e := range added {
			if e.Type == tt.typ {
				n++
			}
		}
		require.Equal(t, 1, n, "%v: %d events of type %s", args, n, tt.typ)
	}
}
