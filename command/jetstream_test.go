package command_test

import (
	"context"
	"crypto/rand"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/jetstore"
	"github.com/campaign-journal/journal/projections"
)

// jetJournal returns a journal over a store on a real embedded JetStream
// server, and a second journal on its own connection to the same server.
func jetJournals(t *testing.T) (*command.Handler, *command.Handler, *jetstore.Store) {
	t.Helper()
	dir := t.TempDir()
	srv, err := embedded.Start(context.Background(), embedded.Options{Dir: dir, Sync: false, Share: true})
	require.NoError(t, err)
	t.Cleanup(srv.Shutdown)
	st, err := jetstore.Open(context.Background(), srv.JetStream(), jetstore.Options{})
	require.NoError(t, err)
	// A second client, as a second process would be: it connects through the owner.
	other, err := embedded.Start(context.Background(), embedded.Options{Dir: dir})
	require.NoError(t, err)
	t.Cleanup(other.Shutdown)
	require.True(t, other.Remote(), "second start should connect to the owner")
	st2, err := jetstore.Open(context.Background(), other.JetStream(), jetstore.Options{})
	require.NoError(t, err)
	opts := func() command.Options {
		return command.Options{Clock: time.Now, Rand: rand.Reader, IDs: events.NewV7(time.Now, rand.Reader)}
	}
	return command.New(st, opts()), command.New(st2, opts()), st
}

// TestConcurrentWritersOnJetStream: two writers on the same character and
// session, through two connections, lose no update and share nonces without
// gaps or repeats.
func TestConcurrentWritersOnJetStream(t *testing.T) {
	a, b, st := jetJournals(t)
	setup(t, a)
	ctx := context.Background()
	const perWriter = 15
	var wg sync.WaitGroup
	errs := make(chan error, 4*perWriter)
	for _, j := range []*command.Handler{a, b} {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for range perWriter {
				_, err := j.Damage(ctx, "mordor", "ruisenor", 1, "")
				errs <- err
			}
		}()
		go func() {
			defer wg.Done()
			for range perWriter {
				_, err := j.Roll(ctx, "mordor", command.RollRequest{Character: "lodin", Skill: "Buscar"})
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	c, err := a.Load(ctx, "mordor", 0)
	require.NoError(t, err)
	r := c.Characters["ruisenor"]
	if want := r.MaxHP - 2*perWriter; r.HP != want {
		t.Fatalf("HP = %d, want %d: an update was lost", r.HP, want)
	}
	if got := c.Characters["lodin"].Rolls; got != 2*perWriter {
		t.Fatalf("lodin has %d rolls, want %d", got, 2*perWriter)
	}
	seen := map[uint64]bool{}
	require.NoError(t, st.Read(ctx, events.Query{Types: []string{events.TypeRollMade}}, func(r events.Recorded) error {
		p, err := r.Event.Payload()
		if err != nil {
			return err
		}
		n := p.(*events.RollMade).Nonce
		if seen[n] {
			t.Errorf("nonce %d used twice", n)
		}
		seen[n] = true
		return nil
	}))
	for n := range uint64(2 * perWriter) {
		if !seen[n] {
			t.Fatalf("nonce %d missing", n)
		}
	}
	// The state the writers saw equals a full refold of the stream.
	var recs []events.Recorded
	require.NoError(t, st.Read(ctx, events.Query{}, func(r events.Recorded) error { recs = append(recs, r); return nil }))
	refold, err := projections.Fold("mordor", recs, 0)
	require.NoError(t, err)
	if refold.Characters["ruisenor"].HP != r.HP || refold.LastSeq != c.LastSeq {
		t.Fatalf("refold HP %d seq %d, loaded HP %d seq %d", refold.Characters["ruisenor"].HP, refold.LastSeq, r.HP, c.LastSeq)
	}
}
