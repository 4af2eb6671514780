package command_test

import (
	"context"
	"crypto/rand"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/embedded/embeddedtest"
)

// TestForeignMessageDoesNotStopTheCampaign: a message that is not an
// event, published on the campaign's subjects with the journal's own
// connection (as an attack that got that far could), is left out of the
// fold, and every command goes on: the journal that had the campaign
// cached (it catches up past the message) and a fresh one (it folds the
// whole campaign) both roll, void and end the session, and agree.
func TestForeignMessageDoesNotStopTheCampaign(t *testing.T) {
	ctx := context.Background()
	srv, st := embeddedtest.Store(t, embedded.Options{})
	// Ids of their own for each journal: two deterministic ones would make
	// the same ids, which the store takes for retries.
	journal := func() *command.Handler {
		return command.New(st, command.Options{Clock: time.Now, Rand: rand.Reader, IDs: events.NewV7(time.Now, rand.Reader)})
	}
	cached := journal()
	setup(t, cached)

	for _, doc := range []string{"not an event", `{"specversion":"1.0","type":"journal.roll.made.v1"}`} {
		_, err := srv.JetStream().Publish(ctx, "journal.mordor", []byte(doc))
		require.NoError(t, err)
	}
	before := count(t, st)

	roll, err := cached.Roll(ctx, "mordor", command.RollRequest{Character: "lodin", Skill: "Sigilo"})
	require.NoError(t, err, "a roll after the foreign messages, by the journal that had the campaign cached")
	fresh := journal()
	_, err = fresh.Roll(ctx, "mordor", command.RollRequest{Character: "ruisenor", Skill: "Advertir"})
	require.NoError(t, err, "a roll by a journal that folds the campaign afresh")
	_, err = cached.Void(ctx, "mordor", roll.Events[0].Event.ID, "rolled by mistake")
	require.NoError(t, err)

	// One more foreign message, last on the campaign: the next append's
	// expectation must count it.
	_, err = srv.JetStream().Publish(ctx, "journal.mordor", []byte("{}"))
	require.NoError(t, err)
	end, err := fresh.EndSession(ctx, "mordor")
	require.NoError(t, err, "session end after a foreign message")
	require.Len(t, end.Events, 1)
	require.Equal(t, before+4, count(t, st), "the rolls, the void and the session end are recorded")

	a, err := cached.Load(ctx, "mordor", 0)
	require.NoError(t, err)
	b, err := journal().Load(ctx, "mordor", 0)
	require.NoError(t, err)
	require.Nil(t, a.OpenSession())
	require.Equal(t, a.Events, b.Events)
	require.Equal(t, a.LastSeq, b.LastSeq)
	last, err := st.Last(ctx, "journal.mordor")
	require.NoError(t, err)
	require.Equal(t, last, a.LastSeq)
}
