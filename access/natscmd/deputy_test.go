package natscmd_test

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/access/natscmd"
	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/embedded/embeddedtest"
	"github.com/campaign-journal/journal/events/jetstore"
	"github.com/campaign-journal/journal/live"
)

// feedReader is a user's core-NATS subscription to a campaign's feed.
type feedReader struct{ sub *nats.Subscription }

// subscribeFeed subscribes c to campaign's feed; the subscription must be
// allowed (no permissions violation comes back).
func subscribeFeed(t *testing.T, c *client, campaign string) *feedReader {
	t.Helper()
	sub, err := c.nc.SubscribeSync(access.FeedSubject(campaign))
	require.NoError(t, err)
	t.Cleanup(func() { _ = sub.Unsubscribe() })
	require.NoError(t, c.nc.Flush())
	select {
	case err := <-c.errs:
		t.Fatalf("%s subscribes to %s: %v", c.user, access.FeedSubject(campaign), err)
	case <-time.After(50 * time.Millisecond):
	}
	return &feedReader{sub: sub}
}

// next returns the next event of the feed, decoded as a client would:
// its sequence from the Journal-Seq header, the CloudEvent from the body.
func (f *feedReader) next(t *testing.T) events.Recorded {
	t.Helper()
	m, err := f.sub.NextMsg(10 * time.Second)
	require.NoError(t, err, "the feed delivered nothing")
	seq, err := strconv.ParseUint(m.Header.Get(access.FeedSeqHeader), 10, 64)
	require.NoError(t, err, "the feed message's %s header", access.FeedSeqHeader)
	require.Equal(t, access.FeedContentType, m.Header.Get("Content-Type"))
	rec, err := events.DecodeRecorded(seq, events.Prefix+"."+m.Subject[len(access.FeedPrefix)+1:], m.Data)
	require.NoError(t, err)
	return rec
}

// publishFeed publishes the stored event at seq of campaign on the feed,
// with the journal's own connection, as `journal serve` does after folding
// it (the serve side has its own tests; here the feed's permissions are
// under test).
func (w *world) publishFeed(t *testing.T, campaign string, seq uint64) {
	t.Helper()
	var found bool
	require.NoError(t, w.store.Read(t.Context(), events.Query{Subject: events.Prefix + "." + campaign, From: seq, To: seq}, func(r events.Recorded) error {
		doc, err := events.Encode(r.Event)
		if err != nil {
			return err
		}
		found = true
		m := nats.NewMsg(access.FeedSubject(campaign))
		m.Header.Set(access.FeedSeqHeader, strconv.FormatUint(r.Seq, 10))
		m.Header.Set("Content-Type", access.FeedContentType)
		m.Data = doc
		return w.jc.PublishMsg(m)
	}))
	require.True(t, found, "no event at %d", seq)
	require.NoError(t, w.jc.Flush())
}

// TestFollowWithoutJetStream: every role of mordor (a GM, a player with a
// password, a player with an nkey, a dashboard) follows its campaign as
// DESIGN §6 says, without touching the JetStream API: its history a page at
// a time through the command service's read, from any sequence, then the
// live feed journalfeed.mordor; on one partition, on three, and on a
// three-server cluster. A user of gondor reads and follows gondor only.
func TestFollowWithoutJetStream(t *testing.T) {
	for _, mode := range deputyModes() {
		t.Run(mode.name, func(t *testing.T) {
			w := newWorldPartitioned(t, mode.mode, mode.k)
			ctx := t.Context()
			var want []uint64
			require.NoError(t, w.store.Read(ctx, events.Query{Subject: "journal.mordor"}, func(r events.Recorded) error {
				want = append(want, r.Seq)
				return nil
			}))
			require.NotEmpty(t, want)
			bea := w.connect(t, "bea", "bea-pw")
			for _, user := range []string{"ana", "bea", "wall", "eve"} {
				var c *client
				if user == "eve" {
					c = w.connect(t, "eve", "", nats.Nkey(mustPub(t, w.eve), w.eve.Sign))
				} else {
					c = w.connect(t, user, user+"-pw")
				}
				feed := subscribeFeed(t, c, "mordor")
				// The history, two events a page, from the first.
				var got []uint64
				for from := uint64(1); from != 0; {
					page, err := natscmd.Request(ctx, c.nc, user, "mordor", access.ReadCommand, natscmd.ReadRequest{From: from, Limit: 2})
					require.NoError(t, err, "%s reads mordor's history from %d", user, from)
					for _, r := range page.Events {
						require.Equal(t, "mordor", r.Event.Campaign)
						got = append(got, r.Seq)
					}
					from = page.Next
				}
				require.Equal(t, want, got, "%s reads every event of mordor, in order", user)
				// Then the live feed.
				reply, err := natscmd.Request(ctx, bea.nc, "bea", "mordor", "roll", command.RollRequest{Character: "ruisenor", Skill: "Advertir"})
				require.NoError(t, err)
				w.publishFeed(t, "mordor", reply.Recorded[0].Seq)
				rec := feed.next(t)
				require.Equal(t, reply.Recorded[0].Event.ID, rec.Event.ID, "%s sees the new roll on the feed", user)
				require.Equal(t, reply.Recorded[0].Seq, rec.Seq)
				want = append(want, rec.Seq)
				select {
				case err := <-c.errs:
					t.Fatalf("%s: %v", user, err)
				default:
				}
			}
			dov := w.connect(t, "dov", "dov-pw")
			subscribeFeed(t, dov, "gondor")
			page, err := natscmd.Request(ctx, dov.nc, "dov", "gondor", access.ReadCommand, natscmd.ReadRequest{From: 1})
			require.NoError(t, err, "dov reads gondor")
			require.Empty(t, page.Events, "gondor has no events")
			other := access.CommandSubject("dov", "mordor", access.ReadCommand)
			require.NoError(t, dov.nc.PublishRequest(other, dov.nc.NewRespInbox(), []byte(`{}`)))
			dov.violation(t, "Publish", other)
		})
	}
}

// deputyModes are the journals the confused-deputy suite attacks: the
// embedded server (the service on the responder), a server made from the
// configuration file `journal access nats-config` writes, the embedded
// server with three partitions, and a three-server cluster with the same
// users.
func deputyModes() []struct {
	name string
	mode serviceMode
	k    int
} {
	return []struct {
		name string
		mode serviceMode
		k    int
	}{
		{"embedded", onResponder, 1},
		{"config file", onConfigFile, 1},
		{"three partitions", onResponder, 3},
		{"cluster", onCluster, 1},
	}
}

// TestAttackConfusedDeputy: no user can make JetStream act for it. As every
// role (a GM, a player, a dashboard, a player of another campaign, a player
// signed in with an nkey), on one partition and three and on a cluster,
// each JetStream request a user might use as a deputy — a pull from an
// existing consumer of the stream, the creation of a consumer (ordered,
// durable, push), an account or stream info request, a direct get of the
// secrets — is sent with every hostile reply or deliver subject: the
// stream's and every partition's delete and purge, the secrets' and the
// checkpoints' delete, the open session's seed key, an event subject of
// its own and of another campaign, another consumer's delete, another
// user's inbox. Each request reaches the server (the positive control: the
// server answers it with a permissions violation naming that very
// subject) and nothing changes: the streams, their configurations and
// counts, the secrets and the seed, the checkpoints.
// TestConfusedDeputyIsReal shows the same request, where permissions let
// it through, does delete a stream.
func TestAttackConfusedDeputy(t *testing.T) {
	var a tally
	for _, mode := range deputyModes() {
		t.Run(mode.name, func(t *testing.T) { attackDeputy(t, &a, newWorldPartitioned(t, mode.mode, mode.k)) })
	}
	a.log(t, "confused deputies")
	require.Equal(t, a.tried.Load(), a.refused.Load())
	require.Zero(t, a.recorded.Load())
	require.GreaterOrEqual(t, a.tried.Load(), int64(4*5*8*10), "the suite ran every request")
}

func attackDeputy(t *testing.T, a *tally, w *world) {
	ctx := t.Context()
	k := w.store.Partitions()
	streams := jetstore.StreamNames(k)
	mordorStream := jetstore.CampaignStream("mordor", k)
	mordorSubject, gondorSubject := "journal.mordor", "journal.gondor"
	if k > 1 {
		mordorSubject, _ = events.PartitionSubject("mordor", k)
		gondorSubject, _ = events.PartitionSubject("gondor", k)
	}
	// A pull consumer of the journal's, as a dashboard's or a projector's
	// would be: the pull requests below name it, so a request let through
	// would be served.
	_, err := w.js.CreateOrUpdateConsumer(ctx, mordorStream, jetstream.ConsumerConfig{
		Name: "victim", FilterSubject: mordorSubject, AckPolicy: jetstream.AckNonePolicy, InactiveThreshold: time.Hour,
	})
	require.NoError(t, err)

	kvs, cps := "KV_"+jetstore.SecretsBucket, "KV_"+live.Bucket
	targets := []string{
		"$JS.API.STREAM.DELETE." + kvs,
		"$JS.API.STREAM.DELETE." + cps,
		"$JS.API.STREAM.PURGE." + kvs,
		"$KV." + jetstore.SecretsBucket + "." + seedKey,
		"$KV." + live.Bucket + "." + command.CheckpointKey("mordor"),
		mordorSubject,
		gondorSubject,
		"$JS.API.CONSUMER.DELETE." + mordorStream + ".victim",
		access.InboxPrefix("ana") + ".stolen",
		access.FeedSubject("gondor"),
	}
	for _, s := range streams {
		targets = append(targets, "$JS.API.STREAM.DELETE."+s, "$JS.API.STREAM.PURGE."+s)
	}
	type request struct {
		name    string
		subject string
		body    func(target string) string
		reply   bool // the target is the reply subject (else it is in the body)
	}
	requests := []request{
		{"pulls from the journal's consumer", "$JS.API.CONSUMER.MSG.NEXT." + mordorStream + ".victim",
			func(string) string { return `{"batch":1,"no_wait":true}` }, true},
		{"creates an ordered-style consumer", "$JS.API.CONSUMER.CREATE." + mordorStream + ".evil." + mordorSubject,
			func(string) string {
				return `{"stream_name":"` + mordorStream + `","config":{"name":"evil","filter_subject":"` + mordorSubject + `","ack_policy":"none","mem_storage":true}}`
			}, true},
		{"creates a push consumer delivering there", "$JS.API.CONSUMER.CREATE." + mordorStream + ".push." + mordorSubject,
			func(target string) string {
				return `{"stream_name":"` + mordorStream + `","config":{"name":"push","filter_subject":"` + mordorSubject + `","deliver_subject":"` + target + `","ack_policy":"none"}}`
			}, false},
		{"creates a durable delivering there", "$JS.API.CONSUMER.DURABLE.CREATE." + mordorStream + ".durable",
			func(target string) string {
				return `{"stream_name":"` + mordorStream + `","config":{"durable_name":"durable","deliver_subject":"` + target + `","ack_policy":"none"}}`
			}, false},
		{"asks for the account's info", "$JS.API.INFO", func(string) string { return `` }, true},
		{"lists the streams", "$JS.API.STREAM.NAMES", func(string) string { return `{}` }, true},
		{"asks for the stream's info", "$JS.API.STREAM.INFO." + mordorStream, func(string) string { return `` }, true},
		{"gets a message directly", "$JS.API.DIRECT.GET." + mordorStream, func(string) string { return `{"seq":1}` }, true},
		{"gets the seed directly", "$JS.API.DIRECT.GET." + kvs,
			func(string) string { return `{"last_by_subj":"$KV.` + jetstore.SecretsBucket + `.` + seedKey + `"}` }, true},
		{"asks the system account", "$SYS.REQ.SERVER.PING", func(string) string { return `` }, true},
	}
	for _, r := range []struct{ user, password string }{{"ana", "ana-pw"}, {"bea", "bea-pw"}, {"wall", "wall-pw"}, {"dov", "dov-pw"}, {"eve", ""}} {
		var c *client
		if r.password == "" {
			c = w.connect(t, r.user, "", nats.Nkey(mustPub(t, w.eve), w.eve.Sign))
		} else {
			c = w.connect(t, r.user, r.password)
		}
		role, _ := w.cfg.ByName(r.user)
		who := string(role.Role) + " " + r.user + " "
		for _, req := range requests {
			// One snapshot before and after each request's every target:
			// each request is counted and must draw its own violation.
			w.attack(t, a, who+req.name, func(t *testing.T) {
				for _, target := range targets {
					a.tried.Add(1)
					m := &nats.Msg{Subject: req.subject, Data: []byte(req.body(target))}
					if req.reply {
						m.Reply = target
					} else {
						m.Reply = c.nc.NewRespInbox()
					}
					require.NoError(t, c.nc.PublishMsg(m))
					require.NoError(t, c.nc.Flush())
					c.violation(t, "Publish", req.subject)
					a.refused.Add(1)
				}
			})
			a.tried.Add(-1) // the group itself is not an attack of its own
			a.refused.Add(-1)
		}
	}
	// The victim consumer is the journal's and still there.
	_, err = w.js.Consumer(ctx, mordorStream, "victim")
	require.NoError(t, err, "the journal's consumer survived")
}

// TestConfusedDeputyIsReal is the suite's positive control at the level of
// JetStream itself: where a user's permissions let one pull request through
// (as the follow permissions did before DESIGN §6, turn 3), the server
// sends the pull's status reply, with the account's authority, to the
// reply subject the user chose: aimed at a stream's delete, it deletes
// the stream. This is what TestAttackConfusedDeputy guards against; if it
// ever stops holding, that suite's refusals prove less.
func TestConfusedDeputyIsReal(t *testing.T) {
	srv := embeddedtest.Start(t, embedded.Options{Share: true, Users: []*server.User{{
		Username: "mallory", Password: "mallory-pw",
		Permissions: &server.Permissions{
			Publish:   &server.SubjectPermission{Allow: []string{"$JS.API.CONSUMER.MSG.NEXT.VICTIM.*"}},
			Subscribe: &server.SubjectPermission{Allow: []string{"_INBOX.mallory.>"}},
		},
	}}})
	js := srv.JetStream()
	ctx := t.Context()
	for _, name := range []string{"VICTIM", "TARGET"} {
		_, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: name, Subjects: []string{fmt.Sprintf("%s.>", name)}})
		require.NoError(t, err)
	}
	_, err := js.CreateOrUpdateConsumer(ctx, "VICTIM", jetstream.ConsumerConfig{Name: "c", AckPolicy: jetstream.AckNonePolicy})
	require.NoError(t, err)
	nc, err := nats.Connect(srv.ClientURL(), nats.UserInfo("mallory", "mallory-pw"), nats.CustomInboxPrefix("_INBOX.mallory"))
	require.NoError(t, err)
	t.Cleanup(nc.Close)
	require.NoError(t, nc.PublishRequest("$JS.API.CONSUMER.MSG.NEXT.VICTIM.c", "$JS.API.STREAM.DELETE.TARGET", []byte(`{"batch":1,"no_wait":true}`)))
	require.NoError(t, nc.Flush())
	require.Eventually(t, func() bool {
		_, err := js.Stream(ctx, "TARGET")
		return err != nil
	}, 10*time.Second, 20*time.Millisecond, "one pull request with a hostile reply subject deletes a stream")
	_, err = js.Stream(ctx, "VICTIM")
	require.NoError(t, err)
}

// TestUserPermissionsNameNoJetStream: no role but the journal's is allowed
// any subject of the JetStream API, key-value, object stores or the
// system, on the embedded server or in the configuration written for a
// cluster, and each denies them whole.
func TestUserPermissionsNameNoJetStream(t *testing.T) {
	cfg, err := access.New(
		access.User{Name: "journal", Role: access.RoleJournal, Password: "journal-pw"},
		access.User{Name: "ana", Role: access.RoleGM, Campaign: "*", Password: "ana-pw"},
		access.User{Name: "bea", Role: access.RolePlayer, Campaign: "mordor", Characters: []string{"ruisenor"}, Password: "bea-pw"},
		access.User{Name: "wall", Role: access.RoleDashboard, Campaign: "mordor", Password: "wall-pw"},
	)
	require.NoError(t, err)
	users, _ := cfg.ServerUsers()
	for _, u := range users {
		if u.Username == "journal" {
			require.Nil(t, u.Permissions, "the journal is the operator")
			continue
		}
		p := u.Permissions
		for _, list := range [][]string{p.Publish.Allow, p.Subscribe.Allow} {
			for _, s := range list {
				for _, bad := range []string{"$JS.", "$KV.", "$O.", "$SYS.", "journal."} {
					require.False(t, strings.HasPrefix(s, bad), "%s may reach %s", u.Username, s)
				}
			}
		}
		for _, d := range []string{"$JS.>", "$KV.>", "$SYS.>", "journal.>", access.FeedPrefix + ".>"} {
			require.Contains(t, p.Publish.Deny, d, u.Username)
		}
		for _, d := range []string{"$JS.>", "$KV.>", "$SYS.>", "journal.>"} {
			require.Contains(t, p.Subscribe.Deny, d, u.Username)
		}
	}
	conf := cfg.NATSConfig()
	require.NotContains(t, conf, "CONSUMER", "the cluster's configuration names no consumer subject")
	b, err := json.Marshal(users)
	require.NoError(t, err)
	require.NotContains(t, string(b), "MSG.NEXT")
}
