package natscmd_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/access/natscmd"
	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events/jetstore"
	"github.com/campaign-journal/journal/live"
)

// seedKey is the secret of the session newWorld opens.
const seedKey = "seed.mordor.s1"

// state is what no attack may change: the stream's count, last sequence and
// configuration, and the secrets bucket's, with the open session's seed.
type state struct {
	Msgs, Last               uint64
	Config                   string
	SecretMsgs, SecretLast   uint64
	SecretConfig, Seed       string
	SeedRevision             uint64
	SecretConsumers, Streams int
	Checkpoints              string
}

// snapshot reads the state as the journal (its own connection).
func (w *world) snapshot(t *testing.T) state {
	t.Helper()
	ctx := t.Context()
	js := w.js
	var s state
	journal := jetstore.StreamNames(w.store.Partitions()) // every partition's stream
	for _, name := range append(journal, "KV_"+jetstore.SecretsBucket) {
		st, err := js.Stream(ctx, name)
		require.NoError(t, err, "stream %s is gone", name)
		info, err := st.Info(ctx)
		require.NoError(t, err)
		cfg, err := json.Marshal(info.Config)
		require.NoError(t, err)
		if slices.Contains(journal, name) {
			s.Msgs, s.Last, s.Config = s.Msgs+info.State.Msgs, s.Last+info.State.LastSeq, s.Config+string(cfg)
		} else {
			s.SecretMsgs, s.SecretLast, s.SecretConfig, s.SecretConsumers = info.State.Msgs, info.State.LastSeq, string(cfg), info.State.Consumers
		}
	}
	cps, err := js.Stream(ctx, "KV_"+live.Bucket)
	require.NoError(t, err, "the checkpoints are gone")
	cpInfo, err := cps.Info(ctx)
	require.NoError(t, err)
	cpCfg, err := json.Marshal(cpInfo.Config)
	require.NoError(t, err)
	s.Checkpoints = fmt.Sprintf("%d/%d %s", cpInfo.State.Msgs, cpInfo.State.LastSeq, cpCfg)
	names := js.StreamNames(ctx)
	for range names.Name() {
		s.Streams++
	}
	require.NoError(t, names.Err())
	kv, err := js.KeyValue(ctx, jetstore.SecretsBucket)
	require.NoError(t, err)
	e, err := kv.Get(ctx, seedKey)
	require.NoError(t, err, "the open session's seed")
	s.Seed, s.SeedRevision = fmt.Sprintf("%x", e.Value()), e.Revision()
	return s
}

// tally counts the attacks of a suite: tried, refused (the server or the
// service refused, as the attack expects) and the events the stream gained
// while they ran.
type tally struct {
	tried, refused atomic.Int64
	recorded       atomic.Uint64
}

func (a *tally) log(t *testing.T, what string) {
	t.Logf("%s: attacks tried %d, refused %d, events recorded by them %d", what, a.tried.Load(), a.refused.Load(), a.recorded.Load())
}

// attack runs one attack as a subtest: it must be refused (run returns
// only when the refusal was seen, failing otherwise) and leave the state
// exactly as it was.
func (w *world) attack(t *testing.T, a *tally, name string, run func(t *testing.T)) {
	t.Helper()
	a.tried.Add(1)
	t.Run(name, func(t *testing.T) {
		before := w.snapshot(t)
		// Judged even when run fails: what the attack recorded is counted.
		defer func() {
			after := w.snapshot(t)
			if after.Last > before.Last {
				a.recorded.Add(after.Last - before.Last)
			}
			if !reflect.DeepEqual(before, after) {
				t.Errorf("the attack changed the stream, the secrets or the seed:\nbefore %+v\nafter  %+v", before, after)
			}
			if !t.Failed() {
				a.refused.Add(1)
			}
		}()
		run(t)
	})
}

// waitHandled waits until the service has handled (answered or dropped)
// n requests in all.
func (w *world) waitHandled(t *testing.T, n uint64) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	for {
		answered, dropped := w.svc.Counts()
		if answered+dropped >= n {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the service handled %d requests, want %d", answered+dropped, n)
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// hostileReply sends c's request (one its role may issue) with reply as its
// reply subject. The service must drop it unanswered and unrun: nothing
// reaches reply (watched by the journal's connection) and nothing is
// recorded.
func (w *world) hostileReply(c *client, cmd string, body any, reply string) func(t *testing.T) {
	return func(t *testing.T) {
		data, err := json.Marshal(body)
		require.NoError(t, err)
		watch := w.jc
		var sub *nats.Subscription
		if reply != "" && !strings.ContainsAny(reply, "*>") {
			sub, err = watch.SubscribeSync(reply)
			require.NoError(t, err)
			defer sub.Unsubscribe()
			require.NoError(t, watch.Flush())
		}
		answered, dropped := w.svc.Counts()
		require.NoError(t, c.nc.PublishMsg(&nats.Msg{Subject: access.CommandSubject(c.user, "mordor", cmd), Reply: reply, Data: data}))
		require.NoError(t, c.nc.Flush())
		w.waitHandled(t, answered+dropped+1)
		// Whatever the service published went out before its counters moved:
		// a round trip on its connection, then on the watcher's, delivers it.
		require.NoError(t, w.svcConn.Flush())
		require.NoError(t, watch.Flush())
		if sub != nil {
			if m, err := sub.NextMsg(0); err == nil {
				t.Errorf("the service published on %s: %s", reply, m.Data)
			}
		}
		if a, d := w.svc.Counts(); d != dropped+1 || a != answered {
			t.Errorf("the service answered the request (answered %d→%d, dropped %d→%d), want it dropped unanswered", answered, a, dropped, d)
		}
	}
}

// TestAttackHostileReplies: as each role, a request the role may send,
// with a reply subject aimed at what is not the requester's (the stream,
// the secrets, the feed, the JetStream API, another's inbox, the command
// service itself), is dropped unanswered and unrun: nothing is published
// there and nothing recorded. Both ways the journal runs the service: on
// the responder user (embedded serve) and on its own all-powerful
// connection (serve on a cluster), where the service's check alone stands.
func TestAttackHostileReplies(t *testing.T) {
	var a tally
	for _, mode := range []struct {
		name string
		mode serviceMode
	}{{"embedded, responder connection", onResponder}, {"embedded, journal connection", onJournal}, {"cluster config file, journal connection", onConfigFile}} {
		t.Run(mode.name, func(t *testing.T) {
			w := newWorldOn(t, mode.mode)
			roles := []struct {
				c     *client
				other string
				cmd   string
				body  any
			}{
				{w.connect(t, "ana", "ana-pw"), "bea", "damage", map[string]any{"character": "orco", "amount": 1}},
				{w.connect(t, "bea", "bea-pw"), "ana", "roll", command.RollRequest{Character: "ruisenor", Skill: "Advertir"}},
				{w.connect(t, "wall", "wall-pw"), "ana", access.ReadCommand, map[string]any{}},
			}
			for _, r := range roles {
				role, _ := w.cfg.ByName(r.c.user)
				targets := []struct{ name, reply string }{
					{"another campaign's stream", "journal.gondor.char.boromir.roll"},
					{"its own campaign's stream", "journal.mordor.char.ruisenor.roll"},
					{"the open session's seed", "$KV." + jetstore.SecretsBucket + "." + seedKey},
					{"its own campaign's subject", "journal.mordor"},
					{"a consumer on its campaign", "$JS.API.CONSUMER.CREATE.JOURNAL.x.journal.mordor"},
					{"another user's inbox", access.InboxPrefix(r.other) + ".forged"},
					{"stream delete", "$JS.API.STREAM.DELETE." + jetstore.StreamName},
					{"stream purge", "$JS.API.STREAM.PURGE." + jetstore.StreamName},
					{"stream config edit", "$JS.API.STREAM.UPDATE." + jetstore.StreamName},
					{"message delete", "$JS.API.STREAM.MSG.DELETE." + jetstore.StreamName},
					{"secrets delete", "$JS.API.STREAM.DELETE.KV_" + jetstore.SecretsBucket},
					{"secrets purge", "$JS.API.STREAM.PURGE.KV_" + jetstore.SecretsBucket},
					{"consumer on the secrets", "$JS.API.CONSUMER.CREATE.KV_" + jetstore.SecretsBucket},
					{"the command service as the gm", access.CommandSubject("ana", "mordor", "session-end")},
					{"the system account", "$SYS.REQ.SERVER.PING"},
					{"the service discovery", "$SRV.PING"},
					{"its own inbox, with a wildcard", access.InboxPrefix(r.c.user) + ".>"},
					{"its own inbox prefix, no token", access.InboxPrefix(r.c.user)},
					{"an inbox of a longer name", access.InboxPrefix(r.c.user) + "x.y"},
					{"no reply at all", ""},
				}
				for _, tg := range targets {
					w.attack(t, &a, string(role.Role)+" "+r.c.user+" aims the reply at "+tg.name, w.hostileReply(r.c, r.cmd, r.body, tg.reply))
				}
			}
			// The positive control: the same requests on their own inboxes are
			// answered, and the suite's requests were sound.
			for _, r := range roles {
				_, err := natscmd.Request(t.Context(), r.c.nc, r.c.user, "mordor", r.cmd, r.body)
				require.NoError(t, err, r.c.user)
			}
		})
	}
	a.log(t, "hostile reply subjects")
	require.Equal(t, a.tried.Load(), a.refused.Load())
	require.Zero(t, a.recorded.Load())
}

// TestAttackDirect: as each role, every direct path to what is the
// journal's alone (forged events and feed messages, the stream's and the
// secrets' JetStream API: delete, purge, config edits, consumers, reads of
// the seed; others' inboxes and the system account) is a NATS permissions
// violation, and nothing changes. Anonymous clients and wrong credentials
// do not sign in at all. On the embedded server (serve --access) and on a
// server started from the cluster's generated configuration file.
func TestAttackDirect(t *testing.T) {
	var a tally
	for _, mode := range []struct {
		name string
		mode serviceMode
	}{{"embedded", onResponder}, {"cluster config file", onConfigFile}} {
		t.Run(mode.name, func(t *testing.T) { attackDirect(t, &a, newWorldOn(t, mode.mode)) })
	}
	a.log(t, "direct paths")
	require.Equal(t, a.tried.Load(), a.refused.Load())
	require.Zero(t, a.recorded.Load())
}

// attackDirect is TestAttackDirect on one world.

func attackDirect(t *testing.T, a *tally, w *world) {
	pub := func(c *client, subject, data string) func(t *testing.T) {
		return func(t *testing.T) {
			require.NoError(t, c.nc.PublishMsg(&nats.Msg{Subject: subject, Reply: c.nc.NewRespInbox(), Data: []byte(data)}))
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
	stream, kvs, cps := jetstore.StreamName, "KV_"+jetstore.SecretsBucket, "KV_"+live.Bucket
	seedSubject := "$KV." + jetstore.SecretsBucket + "." + seedKey
	streamConfig, err := json.Marshal(jetstream.StreamConfig{Name: stream, Subjects: []string{"journal.>", "evil.>"}, DenyDelete: false})
	require.NoError(t, err)
	for _, r := range []struct{ user, other string }{{"ana", "bea"}, {"bea", "ana"}, {"wall", "ana"}} {
		c := w.connect(t, r.user, r.user+"-pw")
		role, _ := w.cfg.ByName(r.user)
		who := string(role.Role) + " " + r.user + " "
		for _, tt := range []struct {
			name string
			run  func(t *testing.T)
		}{
			{"forges an event in its campaign", pub(c, "journal.mordor.char.ruisenor.roll", `{}`)},
			{"forges an event in another campaign", pub(c, "journal.gondor.char.boromir.roll", `{}`)},
			{"forges an event on its campaign's subject", pub(c, "journal.mordor", `{}`)},
			{"forges a reply to another", pub(c, access.InboxPrefix(r.other)+".x", `{"recorded":[]}`)},
			{"asks as another user", pub(c, access.CommandSubject(r.other, "mordor", "events"), `{}`)},
			{"deletes the stream", pub(c, "$JS.API.STREAM.DELETE."+stream, ``)},
			{"purges the stream", pub(c, "$JS.API.STREAM.PURGE."+stream, `{}`)},
			{"deletes a message", pub(c, "$JS.API.STREAM.MSG.DELETE."+stream, `{"seq":1}`)},
			{"edits the stream's config", pub(c, "$JS.API.STREAM.UPDATE."+stream, string(streamConfig))},
			{"creates a stream over the events", pub(c, "$JS.API.STREAM.CREATE.EVIL", `{"name":"EVIL","subjects":["journal.>"]}`)},
			{"reads the stream", pub(c, "$JS.API.DIRECT.GET."+stream, `{"seq":1}`)},
			{"creates a consumer on the stream", pub(c, "$JS.API.CONSUMER.CREATE."+stream, `{"stream_name":"JOURNAL","config":{}}`)},
			{"deletes the secrets", pub(c, "$JS.API.STREAM.DELETE."+kvs, ``)},
			{"purges the secrets", pub(c, "$JS.API.STREAM.PURGE."+kvs, `{}`)},
			{"edits the secrets' config", pub(c, "$JS.API.STREAM.UPDATE."+kvs, `{"name":"`+kvs+`"}`)},
			{"creates a consumer on the secrets", pub(c, "$JS.API.CONSUMER.CREATE."+kvs, `{"stream_name":"`+kvs+`","config":{}}`)},
			{"creates a filtered consumer on the secrets", pub(c, "$JS.API.CONSUMER.CREATE."+kvs+".x."+seedSubject, `{}`)},
			{"creates a durable on the secrets", pub(c, "$JS.API.CONSUMER.DURABLE.CREATE."+kvs+".x", `{}`)},
			{"reads the seed by direct get", pub(c, "$JS.API.DIRECT.GET."+kvs, `{"last_by_subj":"`+seedSubject+`"}`)},
			{"reads the seed by subject", pub(c, "$JS.API.DIRECT.GET."+kvs+"."+seedSubject, ``)},
			{"reads the seed by message get", pub(c, "$JS.API.STREAM.MSG.GET."+kvs, `{"last_by_subj":"`+seedSubject+`"}`)},
			{"overwrites the seed", pub(c, seedSubject, `00`)},
			{"plants a checkpoint", pub(c, "$KV."+live.Bucket+"."+command.CheckpointKey("mordor"), `{"format":1}`)},
			{"reads a checkpoint", pub(c, "$JS.API.DIRECT.GET."+cps, `{"last_by_subj":"$KV.`+live.Bucket+`.`+command.CheckpointKey("mordor")+`"}`)},
			{"purges the checkpoints", pub(c, "$JS.API.STREAM.PURGE."+cps, `{}`)},
			{"deletes the checkpoints", pub(c, "$JS.API.STREAM.DELETE."+cps, ``)},
			{"lists the streams", pub(c, "$JS.API.STREAM.LIST", `{}`)},
			{"asks the system account", pub(c, "$SYS.REQ.SERVER.PING", ``)},
			{"pings the services", pub(c, "$SRV.PING", ``)},
			{"watches the secrets", sub(c, "$KV."+jetstore.SecretsBucket+".>")},
			{"taps the events' subjects", sub(c, "journal.>")},
			{"taps the JetStream API", sub(c, "$JS.API.>")},
			{"taps the command requests", sub(c, access.CommandPrefix+".>")},
			{"reads another's inbox", sub(c, access.InboxPrefix(r.other)+".>")},
			{"reads every inbox", sub(c, "_INBOX.>")},
			{"follows another campaign", pub(c, "$JS.API.CONSUMER.CREATE."+stream+".x.journal.gondor", `{"stream_name":"JOURNAL","config":{"name":"x","filter_subject":"journal.gondor"}}`)},
		} {
			w.attack(t, a, who+tt.name, tt.run)
		}
	}

	// Signing in needs a configured user and its own credentials, and the
	// journal's internal users are nobody else's.
	for _, tt := range []struct {
		name string
		opt  nats.Option
	}{
		{"anonymous", nats.Name("anonymous")},
		{"wrong password", nats.UserInfo("bea", "ana-pw")},
		{"unknown user", nats.UserInfo("mallory", "mallory-pw")},
		{"a token", nats.Token("journal-pw")},
		{"the owner's user name", nats.UserInfo("journal-owner-", "")},
		{"the responder's user name", nats.UserInfo("journal-owner-responder", "")},
	} {
		w.attack(t, a, "anonymous client signs in with "+tt.name, func(t *testing.T) {
			nc, err := nats.Connect(w.url, tt.opt, nats.MaxReconnects(0))
			if err == nil {
				nc.Close()
				t.Fatal("signed in")
			}
			require.Contains(t, strings.ToLower(err.Error()), "authorization")
		})
	}
}

// TestResponderPermissions: the connection serve answers requests on
// cannot publish where a reply must never land, whatever the service
// would try: defence in depth under the service's own check.
func TestResponderPermissions(t *testing.T) {
	var a tally
	w := newWorld(t)
	errs := make(chan error, 64)
	rc, err := w.srv.ResponderConn(nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) { errs <- err }))
	require.NoError(t, err)
	t.Cleanup(rc.Close)
	c := &client{nc: rc, user: "responder", errs: errs}
	for _, subject := range []string{
		"journal.mordor.char.ruisenor.roll",
		"journal.mordor",
		"$KV." + jetstore.SecretsBucket + "." + seedKey,
		"$JS.API.STREAM.DELETE." + jetstore.StreamName,
		"$JS.API.STREAM.PURGE." + jetstore.StreamName,
		"$JS.API.STREAM.UPDATE." + jetstore.StreamName,
		"$JS.API.CONSUMER.CREATE.KV_" + jetstore.SecretsBucket,
		"$JS.API.DIRECT.GET.KV_" + jetstore.SecretsBucket,
		access.CommandSubject("ana", "mordor", "session-end"),
		"$SYS.REQ.SERVER.PING",
	} {
		w.attack(t, &a, "responder publishes on "+subject, func(t *testing.T) {
			require.NoError(t, rc.Publish(subject, []byte(`{}`)))
			require.NoError(t, rc.Flush())
			c.violation(t, "Publish", subject)
		})
	}
	w.attack(t, &a, "responder reads the secrets", func(t *testing.T) {
		s, err := rc.SubscribeSync("$KV.>")
		require.NoError(t, err)
		defer s.Unsubscribe()
		require.NoError(t, rc.Flush())
		c.violation(t, "Subscription", "$KV.>")
	})
	// What it is for: an inbox.
	in, err := w.jc.SubscribeSync("_INBOX.bea.ok")
	require.NoError(t, err)
	require.NoError(t, w.jc.Flush())
	require.NoError(t, rc.Publish("_INBOX.bea.ok", []byte("ok")))
	m, err := in.NextMsg(5 * time.Second)
	require.NoError(t, err)
	require.True(t, bytes.Equal(m.Data, []byte("ok")))
	a.log(t, "responder connection")
	require.Equal(t, a.tried.Load(), a.refused.Load())
	require.Zero(t, a.recorded.Load())
}

// TestRequestInboxPrefix: the client refuses to send from a connection
// whose inbox is not the user's, where no reply would come.
func TestRequestInboxPrefix(t *testing.T) {
	w := newWorld(t)
	nc, err := nats.Connect(w.url, nats.UserInfo("bea", "bea-pw"))
	require.NoError(t, err)
	t.Cleanup(nc.Close)
	_, err = natscmd.Request(t.Context(), nc, "bea", "mordor", access.ReadCommand, map[string]any{})
	require.ErrorIs(t, err, natscmd.ErrInboxPrefix)
	ok, err := nats.Connect(w.url, nats.UserInfo("bea", "bea-pw"), natscmd.InboxPrefix("bea"))
	require.NoError(t, err)
	t.Cleanup(ok.Close)
	_, err = natscmd.Request(t.Context(), ok, "bea", "mordor", access.ReadCommand, map[string]any{})
	require.NoError(t, err)
}

// violationLike waits for the server's permissions violation on a publish
// to a subject starting with prefix and ending with suffix (a consumer
// name between them is the client's random choice).
func (c *client) violationLike(t *testing.T, prefix, suffix string) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case err := <-c.errs:
			if !errors.Is(err, nats.ErrPermissionViolation) {
				continue
			}
			_, subject, ok := strings.Cut(err.Error(), "Permissions Violation for Publish to \"")
			subject, _, _ = strings.Cut(subject, "\"")
			if ok && strings.HasPrefix(subject, prefix) && strings.HasSuffix(subject, suffix) {
				return
			}
		case <-deadline:
			t.Fatalf("%s: no permissions violation on %s…%s from the server", c.user, prefix, suffix)
		}
	}
}
