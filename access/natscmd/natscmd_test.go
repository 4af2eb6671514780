package natscmd_test

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nkeys"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/access/natscmd"
	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/cluster"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/embedded/embeddedtest"
	"github.com/campaign-journal/journal/events/jetstore"
	"github.com/campaign-journal/journal/live"
)

// world is an embedded journal with users, its command service, and a
// campaign "mordor" set up by its GM through the service.
type world struct {
	cfg   *access.Config
	srv   *embedded.Server // nil on a server built from a configuration file
	js    jetstream.JetStream
	jc    *nats.Conn // the journal's own all-powerful connection
	store *jetstore.Store
	url   string
	eve   nkeys.KeyPair // the player who signs in with an nkey
	svc   *natscmd.Service
	// svcConn is the connection the service answers on.
	svcConn *nats.Conn
}

// users: the journal itself (as an outside process would connect), a GM of
// mordor, two players of mordor, a player of gondor, a dashboard of mordor,
// and a player with an nkey.
func newWorld(t *testing.T) *world {
	t.Helper()
	return newWorldOn(t, onResponder)
}

// serviceMode is where a world's command service runs.
type serviceMode int

const (
	// onResponder: the embedded server, the service on the responder
	// user's connection (access.ResponderPermissions), as `journal serve`
	// runs it on the embedded store.
	onResponder serviceMode = iota
	// onJournal: the embedded server, the service on the journal's own
	// all-powerful connection, where the service's check alone stands.
	onJournal
	// onConfigFile: a nats-server started from the configuration file the
	// access package writes for a cluster (deploy/auth.conf), the service
	// on the journal user's connection, as `journal serve --nats` runs it.
	onConfigFile
	// onCluster: an in-process cluster of three servers with the access
	// file's users (the permissions `journal access nats-config` writes),
	// the journal's streams and buckets at three replicas, the service on
	// the journal user's connection.
	onCluster
)

// newWorldOn is newWorld with the service where mode says.
func newWorldOn(t *testing.T, mode serviceMode) *world {
	t.Helper()
	return newWorldPartitioned(t, mode, 1)
}

// newWorldPartitioned is newWorldOn on a journal of k partitions, the
// users' permissions made for it.
func newWorldPartitioned(t *testing.T, mode serviceMode, k int) *world {
	t.Helper()
	eve, err := nkeys.CreateUser()
	require.NoError(t, err)
	evePub, err := eve.PublicKey()
	require.NoError(t, err)
	cfg, err := access.New(
		access.User{Name: "journal", Role: access.RoleJournal, Password: "journal-pw"},
		access.User{Name: "ana", Role: access.RoleGM, Campaign: "mordor", Password: "ana-pw"},
		access.User{Name: "bea", Role: access.RolePlayer, Campaign: "mordor", Characters: []string{"ruisenor"}, Password: "bea-pw"},
		access.User{Name: "cai", Role: access.RolePlayer, Campaign: "mordor", Characters: []string{"lodin"}, Password: "cai-pw"},
		access.User{Name: "dov", Role: access.RolePlayer, Campaign: "gondor", Characters: []string{"boromir"}, Password: "dov-pw"},
		access.User{Name: "wall", Role: access.RoleDashboard, Campaign: "mordor", Password: "wall-pw"},
		access.User{Name: "eve", Role: access.RolePlayer, Campaign: "mordor", Characters: []string{"nori"}, NKey: evePub},
	)
	require.NoError(t, err)
	w := &world{cfg: cfg, eve: eve}
	replicas := 1
	switch mode {
	case onConfigFile:
		w.url, w.jc = configFileServer(t, cfg)
		w.svcConn = w.jc
	case onCluster:
		replicas = 3
		w.url, w.jc = clusterServers(t, cfg)
		w.svcConn = w.jc
	default:
		users, nks := cfg.ServerUsers()
		srv := embeddedtest.Start(t, embedded.Options{Share: true, Users: users, NkeyUsers: nks,
			Responder: access.ResponderPermissions()})
		w.srv, w.url, w.jc = srv, srv.ClientURL(), srv.Conn()
		rc, err := srv.ResponderConn()
		require.NoError(t, err)
		t.Cleanup(rc.Close)
		w.svcConn = rc
		if mode == onJournal {
			w.svcConn = srv.Conn()
		}
	}
	w.js, err = jetstream.New(w.jc)
	require.NoError(t, err)
	w.store, err = jetstore.Open(t.Context(), w.js, jetstore.Options{Partitions: k, Replicas: replicas})
	require.NoError(t, err)
	// The checkpoints bucket, as serve makes it: attacks aim at it too.
	_, err = live.OpenBucket(t.Context(), w.js, replicas)
	require.NoError(t, err)
	w.svc, err = natscmd.Start(t.Context(), w.svcConn, natscmd.Options{
		Access: cfg, Store: w.store, Clock: time.Now, Rand: rand.Reader, IDs: events.NewV7(time.Now, rand.Reader),
	})
	require.NoError(t, err)
	t.Cleanup(w.svc.Stop)

	ana := w.connect(t, "ana", "ana-pw")
	for _, step := range []struct {
		cmd  string
		body any
	}{
		{"campaign-create", command.CreateCampaign{System: "ryf"}},
		{"character-create", command.CreateCharacter{ID: "lodin", Player: "cai", Attributes: "F=8,R=7,D=9,I=8,P=8",
			Skills: "Pelea=5,Sigilo=3,Buscar=4", Specialization: "Sigilo", Weapons: []string{"Espada"}}},
		{"character-create", command.CreateCharacter{ID: "ruisenor", Player: "bea", Attributes: "F=6,R=8,D=10,I=8,P=8",
			Skills: "Armas a distancia=5,Advertir=5,Pelea=3", Specialization: "Armas a distancia"}},
		{"character-create", command.CreateCharacter{ID: "nori", Player: "eve", Attributes: "F=8,R=7,D=9,I=8,P=8",
			Skills: "Pelea=5,Sigilo=3", Specialization: "Sigilo"}},
		{"character-create", command.CreateCharacter{ID: "orco", NPC: true, Attributes: "F=7,R=4,D=5,I=3,P=4", Skills: "Pelea=4"}},
		{"session-start", map[string]string{"title": "La torre"}},
	} {
		reply, err := natscmd.Request(t.Context(), ana.nc, "ana", "mordor", step.cmd, step.body)
		require.NoError(t, err, step.cmd)
		require.NotEmpty(t, reply.Recorded, step.cmd)
		for _, r := range reply.Recorded {
			require.Equal(t, "ana", r.Event.Actor, "the GM's events carry the GM's name")
		}
	}
	return w
}

// client is a NATS connection of one user, with the permission errors the
// server sent it.
type client struct {
	nc   *nats.Conn
	user string
	errs chan error
}

// connect signs in as user with password, or with what opts give (an
// nkey) when password is empty.
func (w *world) connect(t *testing.T, user, password string, opts ...nats.Option) *client {
	t.Helper()
	c := &client{user: user, errs: make(chan error, 64)}
	if password != "" {
		opts = append(opts, nats.UserInfo(user, password))
	}
	opts = append([]nats.Option{
		nats.CustomInboxPrefix(access.InboxPrefix(user)),
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) { c.errs <- err }),
	}, opts...)
	nc, err := nats.Connect(w.url, opts...)
	require.NoError(t, err, user)
	t.Cleanup(nc.Close)
	c.nc = nc
	return c
}

// count returns the number of events stored.
func (w *world) count(t *testing.T) int {
	t.Helper()
	n := 0
	require.NoError(t, w.store.Read(t.Context(), events.Query{}, func(events.Recorded) error { n++; return nil }))
	return n
}

// violation waits for the server's permissions violation naming subject.
func (c *client) violation(t *testing.T, kind, subject string) {
	t.Helper()
	want := fmt.Sprintf("Permissions Violation for %s to %q", kind, subject)
	deadline := time.After(5 * time.Second)
	for {
		select {
		case err := <-c.errs:
			if errors.Is(err, nats.ErrPermissionViolation) && strings.Contains(err.Error(), want) {
				return
			}
		case <-deadline:
			t.Fatalf("%s: no %q from the server", c.user, want)
		}
	}
}

// TestPermissions: every role does what it may through NATS, and every
// forbidden action is refused (a NATS permissions violation, or the
// journal's authorization error) with nothing recorded.
func TestPermissions(t *testing.T) {
	w := newWorld(t)
	ctx := t.Context()
	bea := w.connect(t, "bea", "bea-pw")
	secretKey := "seed.mordor.s1"

	// The positive controls first: what each role may do works.
	feed := subscribeFeed(t, bea, "mordor")
	reply, err := natscmd.Request(ctx, bea.nc, "bea", "mordor", "roll", command.RollRequest{Character: "ruisenor", Skill: "Advertir"})
	require.NoError(t, err, "a player rolls for its own character")
	require.Len(t, reply.Recorded, 1)
	require.Equal(t, "bea", reply.Recorded[0].Event.Actor)
	w.publishFeed(t, "mordor", reply.Recorded[0].Seq)
	rec := feed.next(t)
	require.Equal(t, reply.Recorded[0].Seq, rec.Seq)
	require.Equal(t, reply.Recorded[0].Event.ID, rec.Event.ID, "the feed delivers the stored roll")
	read, err := natscmd.Request(ctx, bea.nc, "bea", "mordor", access.ReadCommand, natscmd.ReadRequest{Limit: 3})
	require.NoError(t, err, "a player reads its campaign's events")
	require.Len(t, read.Events, 3)
	require.NotZero(t, read.Next)

	wall := w.connect(t, "wall", "wall-pw")
	read, err = natscmd.Request(ctx, wall.nc, "wall", "mordor", access.ReadCommand, natscmd.ReadRequest{From: 1})
	require.NoError(t, err, "a dashboard reads")
	require.Len(t, read.Events, w.count(t))

	eveNC := w.connect(t, "eve", "", nats.Nkey(mustPub(t, w.eve), w.eve.Sign))
	_, err = natscmd.Request(ctx, eveNC.nc, "eve", "mordor", "roll", command.RollRequest{Character: "nori", Skill: "Pelea"})
	require.NoError(t, err, "a player signed in with an nkey rolls for its character")

	// The journal's own user reads the session's secret: the bucket is there
	// and readable by the journal alone.
	journal := w.connect(t, "journal", "journal-pw")
	js, err := jetstream.New(journal.nc)
	require.NoError(t, err)
	kv, err := js.KeyValue(ctx, jetstore.SecretsBucket)
	require.NoError(t, err)
	_, err = kv.Get(ctx, secretKey)
	require.NoError(t, err, "the journal reads the seed")

	ana := w.connect(t, "ana", "ana-pw")
	cai := w.connect(t, "cai", "cai-pw")
	dov := w.connect(t, "dov", "dov-pw")

	pub := func(c *client, subject, data string) func(t *testing.T) {
		return func(t *testing.T) {
			require.NoError(t, c.nc.Publish(subject, []byte(data)))
			require.NoError(t, c.nc.Flush())
			c.violation(t, "Publish", subject)
		}
	}
	sub := func(c *client, subject string) func(t *testing.T) {
		return func(t *testing.T) {
			s, err := c.nc.SubscribeSync(subject)
			require.NoError(t, err)
			defer s.Unsubscribe()
			require.NoError(t, c.nc.Flush())
			c.violation(t, "Subscription", subject)
		}
	}
	denied := func(c *client, campaign, cmd string, body any) func(t *testing.T) {
		return func(t *testing.T) {
			reply, err := natscmd.Request(ctx, c.nc, c.user, campaign, cmd, body)
			if !errors.Is(err, access.ErrDenied) {
				t.Fatalf("%s %s: error = %v, want permission denied", c.user, cmd, err)
			}
			require.Equal(t, "denied", reply.Code)
			require.Empty(t, reply.Recorded)
		}
	}
	secretDirectGet := `{"last_by_subj":"$KV.journal_secrets.` + secretKey + `"}`
	tests := []struct {
		name string
		run  func(t *testing.T)
	}{
		// Commands a role may not issue.
		{"player rolls for another's character", denied(bea, "mordor", "roll", command.RollRequest{Character: "lodin", Skill: "Buscar"})},
		{"player attacks as another", denied(bea, "mordor", "attack", command.AttackRequest{Attacker: "lodin", Target: "orco"})},
		{"player smuggles a second character field", denied(bea, "mordor", "roll", []byte(`{"character":"ruisenor","Character":"lodin","skill":"Buscar"}`))},
		{"player raises another's skill", denied(cai, "mordor", "raise", map[string]string{"character": "ruisenor", "skill": "Advertir"})},
		{"player issues a GM command", pub(bea, "journalcmd.bea.mordor.damage", `{"character":"lodin","amount":5}`)},
		{"player grants XP", pub(bea, "journalcmd.bea.mordor.xp", `{"character":"ruisenor","amount":10}`)},
		{"player ends the session (reveals the seed)", pub(bea, "journalcmd.bea.mordor.session-end", `{}`)},
		{"player speaks as the GM", pub(bea, "journalcmd.ana.mordor.damage", `{"character":"lodin","amount":5}`)},
		{"player acts in another campaign", pub(bea, "journalcmd.bea.gondor.roll", `{"character":"ruisenor"}`)},
		{"gm acts in another campaign", pub(ana, "journalcmd.ana.gondor.session-start", `{}`)},
		{"dashboard rolls", pub(wall, "journalcmd.wall.mordor.roll", `{"character":"ruisenor"}`)},
		{"dashboard starts a session", pub(wall, "journalcmd.wall.mordor.session-start", `{}`)},
		// Events are the journal's to write.
		{"player writes an event", pub(bea, "journal.mordor.char.ruisenor.roll", `{}`)},
		{"gm writes an event", pub(ana, "journal.mordor.char.lodin.damage", `{}`)},
		// The stream is never deleted or purged, nor a message deleted.
		{"gm deletes the stream", pub(ana, "$JS.API.STREAM.DELETE.JOURNAL", ``)},
		{"gm purges the stream", pub(ana, "$JS.API.STREAM.PURGE.JOURNAL", `{}`)},
		{"gm deletes a message", pub(ana, "$JS.API.STREAM.MSG.DELETE.JOURNAL", `{"seq":1}`)},
		{"player deletes the stream", pub(bea, "$JS.API.STREAM.DELETE.JOURNAL", ``)},
		{"dashboard purges the stream", pub(wall, "$JS.API.STREAM.PURGE.JOURNAL", `{}`)},
		// Nobody but the journal reads a seed before it is revealed.
		{"player reads the secret by direct get", pub(bea, "$JS.API.DIRECT.GET.KV_journal_secrets", secretDirectGet)},
		{"gm reads the secret by direct get", pub(ana, "$JS.API.DIRECT.GET.KV_journal_secrets", secretDirectGet)},
		{"gm reads the secret by subject", pub(ana, "$JS.API.DIRECT.GET.KV_journal_secrets.$KV.journal_secrets."+secretKey, ``)},
		{"gm reads the bucket's stream", pub(ana, "$JS.API.STREAM.MSG.GET.KV_journal_secrets", `{"last_by_subj":"$KV.journal_secrets.`+secretKey+`"}`)},
		{"gm overwrites the secret", pub(ana, "$KV.journal_secrets."+secretKey, `x`)},
		{"player watches the bucket", sub(bea, "$KV.journal_secrets.>")},
		{"gm creates a consumer on the bucket", pub(ana, "$JS.API.CONSUMER.CREATE.KV_journal_secrets", `{}`)},
		// Reads outside one's campaign, and others' replies.
		{"player reads another campaign", pub(dov, "journalcmd.dov.mordor.events", `{}`)},
		{"player follows another campaign", pub(dov, "$JS.API.CONSUMER.CREATE.JOURNAL.x.journal.mordor", `{}`)},
		{"player follows another campaign's feed", sub(dov, access.FeedSubject("mordor"))},
		{"player follows every campaign's feed", sub(bea, access.FeedSubject(">"))},
		{"player forges a feed message", pub(bea, access.FeedSubject("mordor"), `{}`)},
		{"player taps the events' subjects", sub(bea, "journal.mordor.>")},
		{"player reads everyone's replies", sub(bea, "_INBOX.>")},
		{"player reads another's replies", sub(bea, "_INBOX.ana.>")},
		{"player forges a reply", pub(bea, "_INBOX.ana.x", `{"recorded":[]}`)},
		{"player reads the stream by JetStream", pub(bea, "$JS.API.DIRECT.GET.JOURNAL", `{"seq":1}`)},
		{"player creates a consumer", pub(bea, "$JS.API.CONSUMER.CREATE.JOURNAL.x.journal.mordor.>", `{}`)},
		{"player asks the system account", pub(bea, "$SYS.REQ.SERVER.PING", ``)},
	}
	before := w.count(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.run(t)
			if n := w.count(t); n != before {
				t.Fatalf("%d events stored, want %d: the refused action recorded something", n, before)
			}
		})
	}

	// The stream and the secret are as they were.
	stream, err := js.Stream(ctx, jetstore.StreamName)
	require.NoError(t, err)
	info, err := stream.Info(ctx)
	require.NoError(t, err)
	require.Equal(t, uint64(before), info.State.Msgs)
	_, err = kv.Get(ctx, secretKey)
	require.NoError(t, err)

	// Signing in needs a configured user.
	for _, o := range []nats.Option{nats.UserInfo("bea", "wrong"), nats.UserInfo("mallory", "x"), nats.Name("anonymous")} {
		if nc, err := nats.Connect(w.url, o, nats.MaxReconnects(0)); err == nil {
			nc.Close()
			t.Fatal("connected without valid credentials")
		} else if !strings.Contains(strings.ToLower(err.Error()), "authorization") {
			t.Fatalf("connect error = %v, want an authorization violation", err)
		}
	}
}

// configFileServer starts a nats-server from the configuration a cluster
// uses (access.Config.NATSConfig, as in deploy/auth.conf, with JetStream)
// and connects as the journal user.
func configFileServer(t *testing.T, cfg *access.Config) (string, *nats.Conn) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "nats.conf")
	conf := fmt.Sprintf("listen: \"127.0.0.1:-1\"\njetstream { store_dir: %q }\n%s", filepath.Join(dir, "js"), cfg.NATSConfig())
	require.NoError(t, os.WriteFile(path, []byte(conf), 0o600))
	opts, err := server.ProcessConfigFile(path)
	require.NoError(t, err)
	opts.NoLog, opts.NoSigs = true, true
	ns, err := server.NewServer(opts)
	require.NoError(t, err)
	ns.Start()
	t.Cleanup(func() { ns.Shutdown(); ns.WaitForShutdown() })
	require.True(t, ns.ReadyForConnections(30*time.Second))
	nc, err := nats.Connect(ns.ClientURL(), nats.UserInfo("journal", "journal-pw"))
	require.NoError(t, err)
	t.Cleanup(nc.Close)
	return ns.ClientURL(), nc
}

// clusterServers starts an in-process cluster of three servers that admit
// cfg's users, and returns its URLs and the journal user's connection.
func clusterServers(t *testing.T, cfg *access.Config) (string, *nats.Conn) {
	t.Helper()
	users, nks := cfg.ServerUsers()
	c, err := cluster.Start(t.Context(), cluster.Options{Dir: t.TempDir(), Users: users, Nkeys: nks})
	require.NoError(t, err)
	t.Cleanup(c.Shutdown)
	nc, err := c.Connect(0, nats.UserInfo("journal", "journal-pw"))
	require.NoError(t, err)
	t.Cleanup(nc.Close)
	return c.URLs(0), nc
}

func mustPub(t *testing.T, kp nkeys.KeyPair) string {
	t.Helper()
	pub, err := kp.PublicKey()
	require.NoError(t, err)
	return pub
}

// TestRequests: what the service answers to malformed, unknown and invalid
// requests, and that reads page.
func TestRequests(t *testing.T) {
	w := newWorld(t)
	ctx := t.Context()
	ana := w.connect(t, "ana", "ana-pw")
	bea := w.connect(t, "bea", "bea-pw")
	// The journal's user may publish anything: here it asks as a user the
	// configuration does not have, from that user's inbox.
	journal := w.connect(t, "journal", "journal-pw", natscmd.InboxPrefix("mallory"))
	before := w.count(t)
	tests := []struct {
		name     string
		c        *client
		user     string
		campaign string
		cmd      string
		body     any
		want     error
	}{
		{"unknown command", ana, "ana", "mordor", "dragon", []byte(`{}`), command.ErrInvalid},
		{"unknown field", ana, "ana", "mordor", "damage", []byte(`{"character":"lodin","amount":1,"x":1}`), command.ErrInvalid},
		{"trailing data", ana, "ana", "mordor", "damage", []byte(`{"character":"lodin","amount":1} {}`), command.ErrInvalid},
		{"not json", ana, "ana", "mordor", "damage", []byte(`character=lodin`), command.ErrInvalid},
		{"huge body", ana, "ana", "mordor", "damage", []byte(`{"source":"` + strings.Repeat("x", natscmd.MaxBody) + `"}`), command.ErrInvalid},
		{"unknown character", ana, "ana", "mordor", "damage", map[string]any{"character": "gandalf", "amount": 1}, command.ErrNotFound},
		{"invalid amount", ana, "ana", "mordor", "damage", map[string]any{"character": "lodin", "amount": -3}, command.ErrInvalid},
		{"campaign id disagrees", ana, "ana", "mordor", "campaign-create", map[string]any{"id": "gondor", "system": "ryf"}, command.ErrInvalid},
		{"read limit too high", ana, "ana", "mordor", access.ReadCommand, natscmd.ReadRequest{Limit: natscmd.MaxReadEvents + 1}, command.ErrInvalid},
		{"journal user not configured as a subject", journal, "mallory", "mordor", "session-end", []byte(`{}`), access.ErrDenied},
		// A player's body that does not decode is its mistake, not a
		// refusal (as over HTTP: access.AuthorizeCommand).
		{"player's cut body", bea, "bea", "mordor", "roll", []byte(`{"character":`), command.ErrInvalid},
		{"player's body not an object", bea, "bea", "mordor", "roll", []byte(`["ruisenor"]`), command.ErrInvalid},
		{"player's body of a wrong type", bea, "bea", "mordor", "roll", []byte(`{"character":"ruisenor","skill":3}`), command.ErrInvalid},
		{"player's body for another, with an unknown member", bea, "bea", "mordor", "roll", []byte(`{"character":"lodin","nope":1}`), access.ErrDenied},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := natscmd.Request(ctx, tt.c.nc, tt.user, tt.campaign, tt.cmd, tt.body)
			if !errors.Is(err, tt.want) {
				t.Fatalf("error = %v, want %v", err, tt.want)
			}
			require.Equal(t, before, w.count(t), "a refused request recorded something")
		})
	}
	// Reads page through the whole campaign.
	var seqs []uint64
	for from := uint64(0); ; {
		page, err := natscmd.Request(ctx, ana.nc, "ana", "mordor", access.ReadCommand, natscmd.ReadRequest{From: from, Limit: 2})
		require.NoError(t, err)
		for _, r := range page.Events {
			seqs = append(seqs, r.Seq)
		}
		if page.Next == 0 {
			break
		}
		from = page.Next
	}
	require.Len(t, seqs, before)
	for i := 1; i < len(seqs); i++ {
		require.Greater(t, seqs[i], seqs[i-1])
	}
}

// TestConcurrentPlayers: players and the GM issue commands at once through
// the service; every roll takes its own nonce and the sheets add up.
func TestConcurrentPlayers(t *testing.T) {
	w := newWorld(t)
	ctx := t.Context()
	type job struct {
		user, pw, cmd string
		body          any
	}
	jobs := []job{
		{"bea", "bea-pw", "roll", command.RollRequest{Character: "ruisenor", Skill: "Advertir"}},
		{"cai", "cai-pw", "roll", command.RollRequest{Character: "lodin", Skill: "Buscar"}},
		{"ana", "ana-pw", "damage", map[string]any{"character": "orco", "amount": 1}},
	}
	const each = 8
	var wg sync.WaitGroup
	errs := make(chan error, len(jobs)*each)
	for _, j := range jobs {
		c := w.connect(t, j.user, j.pw)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				_, err := natscmd.Request(ctx, c.nc, j.user, "mordor", j.cmd, j.body)
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	j := command.New(w.store, command.Options{Clock: time.Now, Rand: rand.Reader, IDs: events.NewV7(time.Now, rand.Reader)})
	c, err := j.Load(ctx, "mordor", 0)
	require.NoError(t, err)
	require.Equal(t, each, c.Characters["ruisenor"].Rolls)
	require.Equal(t, each, c.Characters["lodin"].Rolls)
	require.Equal(t, c.Characters["orco"].MaxHP-each, c.Characters["orco"].HP)
	require.Equal(t, uint64(2*each), c.OpenSession().NextNonce)
}

// TestStop: a stopped service answers nothing.
func TestStop(t *testing.T) {
	w := newWorld(t)
	ctx, cancel := context.WithCancel(t.Context())
	svc, err := natscmd.Start(ctx, w.jc, natscmd.Options{Access: w.cfg, Store: w.store, QueueGroup: "other",
		Clock: time.Now, Rand: rand.Reader, IDs: events.NewV7(time.Now, rand.Reader)})
	require.NoError(t, err)
	cancel() // stops it
	svc.Stop()
	svc.Stop()
}
