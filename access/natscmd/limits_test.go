package natscmd_test

import (
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/access/natscmd"
	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/embedded/embeddedtest"
	"github.com/campaign-journal/journal/events/jetstore"
	"github.com/campaign-journal/journal/limit"
)

// limitsClock is a settable clock for a limiter.
type limitsClock struct{ now time.Time }

func (c *limitsClock) Now() time.Time { return c.now }

// newLimitsWorld is an embedded journal whose command service runs its
// commands through a limiter of rate r (the GM has a rate of its own, for
// the setup: mordor, ruisenor, a session) and quota max, on a settable
// clock.
func newLimitsWorld(t *testing.T, r limit.Rate, max int) (*world, *limitsClock) {
	t.Helper()
	cfg, err := access.New(
		access.User{Name: "journal", Role: access.RoleJournal, Password: "journal-pw"},
		access.User{Name: "ana", Role: access.RoleGM, Campaign: "mordor", Password: "ana-pw"},
		access.User{Name: "bea", Role: access.RolePlayer, Campaign: "mordor", Characters: []string{"ruisenor"}, Password: "bea-pw"},
	)
	require.NoError(t, err)
	users, nks := cfg.ServerUsers()
	srv := embeddedtest.Start(t, embedded.Options{Share: true, Users: users, NkeyUsers: nks, Responder: access.ResponderPermissions()})
	w := &world{cfg: cfg, srv: srv, url: srv.ClientURL(), jc: srv.Conn()}
	rc, err := srv.ResponderConn()
	require.NoError(t, err)
	t.Cleanup(rc.Close)
	w.svcConn = rc
	w.js, err = jetstream.New(w.jc)
	require.NoError(t, err)
	w.store, err = jetstore.Open(t.Context(), w.js, jetstore.Options{})
	require.NoError(t, err)
	lc := &limitsClock{now: time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)}
	lim := limit.New(limit.Config{Rate: r, Users: map[string]limit.Rate{"ana": {PerMinute: 600, Burst: 100}},
		Exempt: cfg.Exempt(), CampaignMaxEvents: max, Clock: lc.Now})
	w.svc, err = natscmd.Start(t.Context(), w.svcConn, natscmd.Options{
		Access: cfg, Store: w.store, Commands: command.New(w.store, command.Options{Limiter: lim}),
	})
	require.NoError(t, err)
	t.Cleanup(w.svc.Stop)
	ana := w.connect(t, "ana", "ana-pw")
	for _, step := range []struct {
		cmd  string
		body any
	}{
		{"campaign-create", command.CreateCampaign{System: "ryf"}},
		{"character-create", command.CreateCharacter{ID: "ruisenor", Player: "bea", Attributes: "F=6,R=8,D=10,I=8,P=8",
			Skills: "Armas a distancia=5,Advertir=5,Pelea=3", Specialization: "Armas a distancia"}},
		{"session-start", map[string]string{"title": "La torre"}},
	} {
		_, err := natscmd.Request(t.Context(), ana.nc, "ana", "mordor", step.cmd, step.body)
		require.NoError(t, err, step.cmd)
	}
	return w, lc
}

// lastSeq is the stream's last sequence.
func (w *world) lastSeq(t *testing.T) uint64 {
	t.Helper()
	n, err := w.store.Last(t.Context(), events.AllFilter)
	require.NoError(t, err)
	return n
}

// TestRateLimitNATS: a player's burst beyond its rate is refused by the
// command service with 429 (Nats-Service-Error-Code and Retry-After
// headers, a "rate_limited" reply naming the limit) and records nothing;
// after the refill the player records again.
func TestRateLimitNATS(t *testing.T) {
	w, lc := newLimitsWorld(t, limit.Rate{PerMinute: 30, Burst: 2}, 0)
	bea := w.connect(t, "bea", "bea-pw")
	roll := command.RollRequest{Character: "ruisenor", Skill: "Advertir"}
	for i := range 2 {
		_, err := natscmd.Request(t.Context(), bea.nc, "bea", "mordor", "roll", roll)
		require.NoError(t, err, "roll %d", i+1)
	}
	before := w.lastSeq(t)
	reply, err := natscmd.Request(t.Context(), bea.nc, "bea", "mordor", "roll", roll)
	require.ErrorIs(t, err, events.ErrRateLimited)
	require.Equal(t, "rate_limited", reply.Code)
	require.Equal(t, 2, reply.RetryAfter)
	require.Equal(t, "rate limit: bea may record 30 commands a minute in campaign mordor (2 at once); try again in 2 s", reply.Error)
	require.Empty(t, reply.Recorded)
	msg, err := bea.nc.Request(access.CommandSubject("bea", "mordor", "roll"), []byte(`{"character":"ruisenor","skill":"Advertir"}`), 5*time.Second)
	require.NoError(t, err)
	require.Equal(t, "429", msg.Header.Get("Nats-Service-Error-Code"))
	require.Equal(t, "2", msg.Header.Get("Retry-After"))
	require.Equal(t, before, w.lastSeq(t), "the refused rolls recorded nothing")

	lc.now = lc.now.Add(2 * time.Second)
	_, err = natscmd.Request(t.Context(), bea.nc, "bea", "mordor", "roll", roll)
	require.NoError(t, err, "after the refill")
}

// TestQuotaNATS: past the campaign's quota the command service refuses
// with 429 and "quota", recording nothing.
func TestQuotaNATS(t *testing.T) {
	w, _ := newLimitsWorld(t, limit.Rate{}, 4) // the setup records 3
	bea := w.connect(t, "bea", "bea-pw")
	roll := command.RollRequest{Character: "ruisenor", Skill: "Advertir"}
	_, err := natscmd.Request(t.Context(), bea.nc, "bea", "mordor", "roll", roll)
	require.NoError(t, err)
	before := w.lastSeq(t)
	reply, err := natscmd.Request(t.Context(), bea.nc, "bea", "mordor", "roll", roll)
	require.ErrorIs(t, err, events.ErrQuota)
	require.Equal(t, "quota", reply.Code)
	require.Zero(t, reply.RetryAfter)
	msg, err := bea.nc.Request(access.CommandSubject("bea", "mordor", "roll"), []byte(`{"character":"ruisenor","skill":"Advertir"}`), 5*time.Second)
	require.NoError(t, err)
	require.Equal(t, "429", msg.Header.Get("Nats-Service-Error-Code"))
	require.Empty(t, msg.Header.Get("Retry-After"))
	require.Equal(t, before, w.lastSeq(t))
}
