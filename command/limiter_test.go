package command_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/memstore"
	"github.com/campaign-journal/journal/limit"
)

// limitClock is a settable clock for a limiter.
type limitClock struct{ now time.Time }

func (c *limitClock) Now() time.Time { return c.now }

// limitedJournal is newJournal with a limiter of rate r (the setup's
// actor, "gm", exempt, as the journal role is) and quota max events.
func limitedJournal(t *testing.T, store command.Store, r limit.Rate, max int) (*command.Handler, *limitClock) {
	t.Helper()
	lc := &limitClock{now: time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)}
	clock := fixedClock()
	j := command.New(store, command.Options{Clock: clock, Rand: rand.NewChaCha8([32]byte{7}), IDs: events.NewV7(clock, rand.NewChaCha8([32]byte{9})),
		Limiter: limit.New(limit.Config{Rate: r, CampaignMaxEvents: max, Exempt: []string{"gm"}, Clock: lc.Now})})
	return j, lc
}

// last is the store's last sequence.
func last(t *testing.T, st *memstore.Store) uint64 {
	t.Helper()
	n, err := st.Last(t.Context(), events.AllFilter)
	require.NoError(t, err)
	return n
}

// TestRateLimited: a player's burst beyond its rate is refused with
// ErrRateLimited, naming the limit and when to retry, and records
// nothing; the exempt actor records on; after the refill the player
// records again. Refused and repeated commands take no token.
func TestRateLimited(t *testing.T) {
	ctx := t.Context()
	st := memstore.New(memstore.Options{})
	j, lc := limitedJournal(t, st, limit.Rate{PerMinute: 60, Burst: 3}, 0)
	setup(t, j)
	bea := j.MustFor(command.Call{Actor: "bea"})
	roll := func(as *command.Handler) error {
		_, err := as.Roll(ctx, "mordor", command.RollRequest{Character: "ruisenor", Skill: "Advertir"})
		return err
	}
	// A refused command takes no token.
	_, err := bea.Roll(ctx, "mordor", command.RollRequest{Character: "ruisenor", Skill: "Cocina"})
	require.ErrorIs(t, err, command.ErrInvalid)
	for i := range 3 {
		require.NoError(t, roll(bea), "roll %d of the burst", i+1)
	}
	before := last(t, st)
	err = roll(bea)
	require.ErrorIs(t, err, command.ErrRateLimited)
	require.ErrorIs(t, err, events.ErrRateLimited)
	if want := "rate limit: bea may record 60 commands a minute in campaign mordor (3 at once); try again in 1 s"; err.Error() != want {
		t.Errorf("refusal:\n got %q\nwant %q", err, want)
	}
	var ra interface{ RetryAfter() time.Duration }
	require.True(t, errors.As(err, &ra), "the refusal says when to retry")
	require.Equal(t, time.Second, ra.RetryAfter())
	require.Equal(t, before, last(t, st), "a refused command records nothing")

	for i := range 20 {
		require.NoError(t, roll(j), "the exempt actor's roll %d", i+1)
	}
	before = last(t, st)
	require.ErrorIs(t, roll(bea), command.ErrRateLimited, "the exempt actor's rolls gave bea nothing")
	require.Equal(t, before, last(t, st))

	lc.now = lc.now.Add(time.Second)
	req, err := j.For(command.Call{Actor: "bea", RequestID: "r1"})
	require.NoError(t, err)
	_, err = req.Roll(ctx, "mordor", command.RollRequest{Character: "ruisenor", Skill: "Advertir"})
	require.NoError(t, err, "after the refill")
	res, err := req.Roll(ctx, "mordor", command.RollRequest{Character: "ruisenor", Skill: "Advertir"})
	require.NoError(t, err, "a repeated request records nothing, and takes no token")
	require.True(t, res.Repeated)
	require.ErrorIs(t, roll(bea), command.ErrRateLimited)
}

// TestRateLimitOnceAcrossRetries: a command that lost a race and is
// decided again is one command to the limiter.
func TestRateLimitOnceAcrossRetries(t *testing.T) {
	ctx := t.Context()
	st := memstore.New(memstore.Options{})
	racy := &raceOnce{Store: st}
	j, _ := limitedJournal(t, racy, limit.Rate{PerMinute: 1, Burst: 1}, 0)
	setup(t, j)
	racy.armed = true
	_, err := j.MustFor(command.Call{Actor: "bea"}).Roll(ctx, "mordor", command.RollRequest{Character: "ruisenor", Skill: "Advertir"})
	require.NoError(t, err)
	require.False(t, racy.armed, "the append lost one race")
}

// raceOnce refuses the first append after armed with ErrConcurrency.
type raceOnce struct {
	*memstore.Store
	armed bool
}

func (r *raceOnce) Append(ctx context.Context, expect events.Expect, evs ...events.Event) ([]uint64, error) {
	if r.armed {
		r.armed = false
		return nil, events.ErrConcurrency
	}
	return r.Store.Append(ctx, expect, evs...)
}

// TestCampaignQuota: an append that would take a campaign past its quota
// is refused with ErrQuota and records nothing; one that reaches it is
// recorded; a command of several events counts them all; other campaigns
// and the exempt actor are not held.
func TestCampaignQuota(t *testing.T) {
	ctx := t.Context()
	st := memstore.New(memstore.Options{})
	j, _ := limitedJournal(t, st, limit.Rate{}, 10)
	setup(t, j) // 5 events, as the exempt actor
	c, err := j.Load(ctx, "mordor", 0)
	require.NoError(t, err)
	require.Equal(t, 5, c.Events)
	bea := j.MustFor(command.Call{Actor: "bea"})
	for i := range 5 {
		_, err := bea.Roll(ctx, "mordor", command.RollRequest{Character: "ruisenor", Skill: "Advertir"})
		require.NoError(t, err, "roll %d, up to the quota", i+1)
	}
	before := last(t, st)
	_, err = bea.Roll(ctx, "mordor", command.RollRequest{Character: "ruisenor", Skill: "Advertir"})
	require.ErrorIs(t, err, command.ErrQuota)
	require.EqualError(t, err, "quota: campaign mordor holds 10 events, at most 10: 1 more cannot be recorded")
	require.Equal(t, before, last(t, st), "a refused command records nothing")
	_, err = j.Roll(ctx, "mordor", command.RollRequest{Character: "ruisenor", Skill: "Advertir"})
	require.NoError(t, err, "the exempt actor is not held to the quota")

	ana := j.MustFor(command.Call{Actor: "ana"})
	_, err = ana.CreateCampaign(ctx, command.CreateCampaign{ID: "gondor", System: "ryf"})
	require.NoError(t, err, "another campaign has a quota of its own")
	_, err = ana.CreateCharacter(ctx, "gondor", command.CreateCharacter{ID: "lodin", Player: "ana",
		Attributes: "F=8,R=7,D=9,I=8,P=8", Skills: "Pelea=5,Sigilo=3", Specialization: "Sigilo"})
	require.NoError(t, err)
	for i := range 8 {
		_, err := ana.Damage(ctx, "gondor", "lodin", 1, "")
		require.NoError(t, err, "damage %d", i+1)
	}
	// The quota is reached: a session start is refused before its seed
	// is stored.
	before = last(t, st)
	_, err = ana.StartSession(ctx, "gondor", "s1", "")
	require.ErrorIs(t, err, command.ErrQuota)
	require.Equal(t, before, last(t, st))
	key, err := events.SecretKey("seed", "gondor", "s1")
	require.NoError(t, err)
	_, err = st.GetSecret(ctx, key)
	require.ErrorIs(t, err, events.ErrNotFound, "a refused session start keeps no seed")
}
