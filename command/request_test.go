package command_test

import (
	"context"
	"crypto/rand"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/embedded/embeddedtest"
)

// errLostAck is what a client sees when the server stored its append but
// the acknowledgement never came: the outcome is unknown.
var errLostAck = errors.New("lost acknowledgement: " + context.DeadlineExceeded.Error())

// unknownOutcomeStore makes the outcome of chosen appends unknown to the
// journal: with stored, the append is stored and the acknowledgement lost
// (a timeout); with lost, it is not stored; with late, the append is held and stored just before the
// next one, as a publish that arrives after the client gave up on it.
type unknownOutcomeStore struct {
	storeAndSecrets
	mu                 sync.Mutex
	stored, late, lost int // appends still to treat so
	held               func()
}

func (s *unknownOutcomeStore) Append(ctx context.Context, expect events.Expect, evs ...events.Event) ([]uint64, error) {
	s.mu.Lock()
	held := s.held
	s.held = nil
	switch {
	case s.stored > 0:
		s.stored--
		s.mu.Unlock()
		if _, err := s.storeAndSecrets.Append(ctx, expect, evs...); err != nil {
			return nil, err
		}
		return nil, errLostAck
	case s.lost > 0: // never reached the server
		s.lost--
		s.mu.Unlock()
		return nil, errLostAck
	case s.late > 0:
		s.late--
		s.held = func() { _, _ = s.storeAndSecrets.Append(context.WithoutCancel(ctx), expect, evs...) }
		s.mu.Unlock()
		return nil, errLostAck
	}
	s.mu.Unlock()
	if held != nil {
		held()
	}
	return s.storeAndSecrets.Append(ctx, expect, evs...)
}

// jetStore returns a store on a real embedded JetStream server.
func jetStore(t *testing.T) storeAndSecrets {
	t.Helper()
	_, st := embeddedtest.Store(t, embedded.Options{Sync: false})
	return st
}

func freshJournal(st command.Store) *command.Handler {
	return command.New(st, command.Options{Clock: time.Now, Rand: rand.Reader, IDs: events.NewV7(time.Now, rand.Reader)})
}

// requestCommands are commands of every shape (one event, an atomic
// batch, dice, a session start that stores a seed first), each named as
// a surface names it.
var requestCommands = []struct {
	name string
	args any
	run  func(ctx context.Context, j *command.Handler) (command.Result, error)
}{
	{"roll", command.RollRequest{Character: "lodin", Skill: "Buscar"}, func(ctx context.Context, j *command.Handler) (command.Result, error) {
		return j.Roll(ctx, "mordor", command.RollRequest{Character: "lodin", Skill: "Buscar"})
	}},
	{"contest", []string{"lodin", "Sigilo", "orco", "Pelea"}, func(ctx context.Context, j *command.Handler) (command.Result, error) {
		return j.Contest(ctx, "mordor", command.ContestRequest{A: "lodin", SkillA: "Sigilo", B: "orco", SkillB: "Pelea"})
	}},
	{"damage", []any{"orco", 1}, func(ctx context.Context, j *command.Handler) (command.Result, error) {
		return j.Damage(ctx, "mordor", "orco", 1, "")
	}},
	{"xp", []any{"lodin", 3}, func(ctx context.Context, j *command.Handler) (command.Result, error) {
		return j.GrantXP(ctx, "mordor", "lodin", 3)
	}},
	{"combat-start", []string{"lodin", "orco"}, func(ctx context.Context, j *command.Handler) (command.Result, error) {
		return j.StartCombat(ctx, "mordor", []string{"lodin", "orco"}, "")
	}},
}

// TestRequestRecordedOnceAfterUnknownOutcome: a command whose append was
// stored but whose acknowledgement was lost (the client saw a timeout)
// is issued again with the same request id, by the same journal and by
// another process's journal: nothing more is recorded, and every retry
// returns the original events (the same ids, the same dice).
func TestRequestRecordedOnceAfterUnknownOutcome(t *testing.T) {
	ctx := t.Context()
	inner := jetStore(t)
	st := &unknownOutcomeStore{storeAndSecrets: inner}
	j := freshJournal(st)
	setup(t, j)
	for _, cmd := range requestCommands {
		t.Run(cmd.name, func(t *testing.T) {
			view, err := j.For(command.Call{RequestID: "req-" + cmd.name, What: cmd.name, Args: cmd.args})
			require.NoError(t, err)
			before := count(t, inner)
			st.mu.Lock()
			st.stored = 1
			st.mu.Unlock()
			_, err = cmd.run(ctx, view)
			require.ErrorIs(t, err, errLostAck)
			stored := count(t, inner)
			require.Greater(t, stored, before, "the first attempt was stored")
			var orig []events.Recorded
			require.NoError(t, inner.Read(ctx, events.Query{From: uint64(before) + 1}, func(r events.Recorded) error {
				orig = append(orig, r)
				return nil
			}))
			// The same journal, and another process's (a CLI run again).
			other, err := freshJournal(inner).For(command.Call{RequestID: "req-" + cmd.name, What: cmd.name, Args: cmd.args})
			require.NoError(t, err)
			for i, retry := range []*command.Handler{view, view, other} {
				res, err := cmd.run(ctx, retry)
				require.NoError(t, err, "retry %d", i)
				require.True(t, res.Repeated, "retry %d: not reported as a repeat", i)
				require.Equal(t, stored, count(t, inner), "retry %d recorded again", i)
				require.Len(t, res.Events, len(orig))
				for k := range orig {
					require.Equal(t, orig[k].Seq, res.Events[k].Seq)
					require.Equal(t, orig[k].Event.ID, res.Events[k].Event.ID)
					require.JSONEq(t, string(orig[k].Event.Data), string(res.Events[k].Event.Data), "retry %d: not the original result", i)
					require.Equal(t, "req-"+cmd.name, res.Events[k].Event.RequestID)
				}
			}
		})
	}
	c, err := freshJournal(inner).Load(ctx, "mordor", 0)
	require.NoError(t, err)
	checkNonces(t, readAll(t, ctx, inner))
	require.Equal(t, c.Characters["orco"].MaxHP-1, c.Characters["orco"].HP, "damage applied once")
}

// TestRequestLandingLate: the first attempt's append reaches the server
// only after the client gave up on it, while the retry (same request id)
// has already decided afresh on a state without it, with other dice: the
// stream keeps one command, and the retry returns what is stored.
func TestRequestLandingLate(t *testing.T) {
	ctx := t.Context()
	inner := jetStore(t)
	st := &unknownOutcomeStore{storeAndSecrets: inner}
	j := freshJournal(st)
	setup(t, j)
	for _, cmd := range requestCommands[:3] {
		t.Run(cmd.name, func(t *testing.T) {
			view, err := j.For(command.Call{RequestID: "late-" + cmd.name, What: cmd.name, Args: cmd.args})
			require.NoError(t, err)
			before := count(t, inner)
			st.mu.Lock()
			st.late = 1
			st.mu.Unlock()
			_, err = cmd.run(ctx, view)
			require.ErrorIs(t, err, errLostAck)
			require.Equal(t, before, count(t, inner), "held, not stored yet")
			res, err := cmd.run(ctx, view)
			require.NoError(t, err)
			after := count(t, inner)
			require.Equal(t, before+len(res.Events), after, "recorded once")
			for _, rec := range res.Events {
				var stored events.Recorded
				require.NoError(t, inner.Read(ctx, events.Query{From: rec.Seq, To: rec.Seq}, func(r events.Recorded) error {
					stored = r
					return nil
				}))
				require.Equal(t, stored.Event.ID, rec.Event.ID)
				require.JSONEq(t, string(stored.Event.Data), string(rec.Event.Data), "the result is not what is stored")
			}
		})
	}
	checkNonces(t, readAll(t, ctx, inner))
	checkRefold(t, ctx, freshJournal(inner), readAll(t, ctx, inner))
}

// TestRequestReusedForAnotherCommand: a request id that recorded one
// command refuses another (another name, other arguments) with one
// clear error, and records nothing; another actor's same id is another
// request.
func TestRequestReusedForAnotherCommand(t *testing.T) {
	ctx := t.Context()
	inner := jetStore(t)
	j := freshJournal(inner)
	setup(t, j)
	view, err := j.For(command.Call{RequestID: "once"})
	require.NoError(t, err)
	_, err = j.MustFor(command.Call{RequestID: "once", What: "damage", Args: []any{"orco", 1}}).Damage(ctx, "mordor", "orco", 1, "")
	require.NoError(t, err)
	n := count(t, inner)
	for name, run := range map[string]func() (command.Result, error){
		"other arguments": func() (command.Result, error) {
			return j.MustFor(command.Call{RequestID: "once", What: "damage", Args: []any{"orco", 2}}).Damage(ctx, "mordor", "orco", 2, "")
		},
		"other command": func() (command.Result, error) {
			return j.MustFor(command.Call{RequestID: "once", What: "heal", Args: []any{"orco", 1}}).Heal(ctx, "mordor", "orco", 1)
		},
		"another process": func() (command.Result, error) {
			v, err := freshJournal(inner).For(command.Call{RequestID: "once", What: "roll", Args: nil})
			require.NoError(t, err)
			return v.Roll(ctx, "mordor", command.RollRequest{Character: "lodin", Skill: "Buscar"})
		},
		"session start": func() (command.Result, error) {
			_, err := view.EndSession(ctx, "mordor") // under the same id: refused too
			if !errors.Is(err, command.ErrRequestReused) {
				return command.Result{}, errors.New("session end under a used id was not refused")
			}
			return j.MustFor(command.Call{RequestID: "once", What: "session-start", Args: nil}).StartSession(ctx, "mordor", "", "")
		},
	} {
		_, err := run()
		require.ErrorIs(t, err, command.ErrRequestReused, name)
		require.ErrorIs(t, err, command.ErrInvalid, name)
		require.Contains(t, err.Error(), `"once"`, name)
		require.Equal(t, n, count(t, inner), "%s recorded something", name)
	}
	bea, err := j.For(command.Call{Actor: "bea", RequestID: "once", What: "heal", Args: []any{"orco", 1}})
	require.NoError(t, err)
	res, err := bea.Heal(ctx, "mordor", "orco", 1)
	require.NoError(t, err, "another actor's request ids are its own")
	require.False(t, res.Repeated)
	require.Equal(t, n+1, count(t, inner))
}

func TestRequestIDRefused(t *testing.T) {
	j := freshJournal(jetStore(t))
	for _, id := range []string{"a b", "ü", "x/y", string(make([]byte, 65))} {
		_, err := j.For(command.Call{RequestID: id})
		require.ErrorIs(t, err, command.ErrInvalid, "%q", id)
		require.ErrorIs(t, err, events.ErrInvalidRequestID, "%q", id)
	}
}

// TestRequestSessionStartRetried: a session start whose acknowledgement
// was lost, issued again with its request id, returns the original
// session (and its commitment to the seed kept), rather than refusing
// because a session is open.
func TestRequestSessionStartRetried(t *testing.T) {
	ctx := t.Context()
	inner := jetStore(t)
	st := &unknownOutcomeStore{storeAndSecrets: inner}
	j := freshJournal(st)
	setup(t, j)
	_, err := j.EndSession(ctx, "mordor")
	require.NoError(t, err)
	view, err := j.For(command.Call{RequestID: "start-2", What: "session-start", Args: ""})
	require.NoError(t, err)
	st.stored = 1
	_, err = view.StartSession(ctx, "mordor", "", "")
	require.ErrorIs(t, err, errLostAck)
	n := count(t, inner)
	res, err := view.StartSession(ctx, "mordor", "", "")
	require.NoError(t, err)
	require.True(t, res.Repeated)
	require.Equal(t, n, count(t, inner))
	require.Len(t, res.Events, 1)
	require.Equal(t, events.TypeSessionStarted, res.Events[0].Event.Type)
	// The session's seed is the one its commitment names: rolls verify.
	_, err = j.Roll(ctx, "mordor", command.RollRequest{Character: "lodin", Skill: "Buscar"})
	require.NoError(t, err)
}

// TestRequestSessionStartLost: a session start whose append never reached
// the server (its seed was kept) is issued again with its request id: it
// starts a session under the next id rather than refusing for good.
func TestRequestSessionStartLost(t *testing.T) {
	ctx := t.Context()
	inner := jetStore(t)
	st := &unknownOutcomeStore{storeAndSecrets: inner}
	j := freshJournal(st)
	setup(t, j)
	_, err := j.EndSession(ctx, "mordor")
	require.NoError(t, err)
	view, err := j.For(command.Call{RequestID: "start-2", What: "session-start", Args: ""})
	require.NoError(t, err)
	st.lost = 1
	_, err = view.StartSession(ctx, "mordor", "", "")
	require.ErrorIs(t, err, errLostAck)
	n := count(t, inner)
	res, err := view.StartSession(ctx, "mordor", "", "")
	require.NoError(t, err)
	require.False(t, res.Repeated)
	require.Equal(t, n+1, count(t, inner))
	require.Equal(t, "s2b", res.Events[0].Event.Session)
	_, err = j.Roll(ctx, "mordor", command.RollRequest{Character: "lodin", Skill: "Buscar"})
	require.NoError(t, err)
	res, err = j.EndSession(ctx, "mordor")
	require.NoError(t, err)
	checkRefold(t, ctx, freshJournal(inner), readAll(t, ctx, inner))
}
