package main

import (
	"context"
	"encoding/json"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/events"
)

// remoteTable is a served journal with an access file and a player's
// (bea's, who plays lodin) NATS URL.
type remoteTable struct {
	*cli
	file, url, bea string
	s              *server
}

// newRemoteTable sets up mordor as the tests' GM on the data folder, then
// serves it with the access file and a NATS port.
func newRemoteTable(t *testing.T) *remoteTable {
	c := newCLI(t)
	c.setupCampaign()
	c.ok("-c", "mordor", "session", "start", "--dice", "v1")
	file := writeNATSAccess(t)
	s := c.serve("--access", file, "--nats-listen", "127.0.0.1:0")
	t.Cleanup(func() { s.shutdown(t) })
	m := regexp.MustCompile(`NATS (nats://\S+)`).FindStringSubmatch(s.banner)
	require.NotNil(t, m, s.banner)
	return &remoteTable{cli: c, file: file, url: m[1], s: s,
		bea: strings.Replace(m[1], "nats://", "nats://bea:bea-pw@", 1)}
}

// asBea runs the next commands as bea's device: no login of another user.
func (rt *remoteTable) asBea() { asDevice(rt.t, rt.t.TempDir()) }

// TestPlayerCLIOverNATS: with nothing but bea's NATS credentials (user and
// password; the inbox prefix is the default _INBOX.bea), the journal CLI
// rolls for bea's character, reads the log and says who bea is, through
// the journal's NATS command service: the events are bea's, as if bea had
// used the table's page.
func TestPlayerCLIOverNATS(t *testing.T) {
	rt := newRemoteTable(t)
	rt.asBea()
	out := rt.ok("--nats", rt.bea, "-c", "mordor", "--lang", "en", "roll", "lodin", "sigilo")
	require.Contains(t, out, "lodin", out)
	require.Regexp(t, `event [0-9a-f]{8}`, out, "the report names the event, as on the data folder")
	evs := rt.events("mordor")
	last := evs[len(evs)-1]
	require.Equal(t, events.TypeRollMade, last.Type)
	require.Equal(t, "bea", last.Actor, "recorded as the NATS user")
	require.Equal(t, "roll", last.Command, "recorded as the catalogue's roll")

	log := rt.ok("--nats", rt.bea, "-c", "mordor", "--lang", "en", "log")
	require.Contains(t, log, "Sigilo", log)
	local := rt.ok("--access", rt.file, "-c", "mordor", "--lang", "en", "log")
	require.Equal(t, local, log, "the same transcript as on the journal's own machine")

	who := rt.ok("--nats", rt.bea, "-c", "mordor", "--lang", "en", "whoami")
	require.Contains(t, who, "You are bea (--nats)")

	// The same --request-id again is the same roll, recorded once.
	rt.ok("--nats", rt.bea, "-c", "mordor", "--request-id", "bea-roll-1", "roll", "lodin", "pelea")
	n := len(rt.events("mordor"))
	again := rt.ok("--nats", rt.bea, "-c", "mordor", "--lang", "en", "--request-id", "bea-roll-1", "roll", "lodin", "pelea")
	require.Contains(t, again, "bea-roll-1")
	require.Len(t, rt.events("mordor"), n, "recorded once")
}

// TestPlayerCLIOverNATSIsRefusedWhatTheRoleMayNot: over the service a
// player's GM-only command, or a roll for another's character, is refused
// with the exit code the README's table gives a permission (1) and
// records nothing; a login naming another user is refused before anything
// is sent; a wrong inbox prefix is one clear usage error.
func TestPlayerCLIOverNATSIsRefusedWhatTheRoleMayNot(t *testing.T) {
	rt := newRemoteTable(t)
	rt.asBea()
	before := len(rt.events("mordor"))
	for _, args := range [][]string{
		{"damage", "orco", "3"},
		{"roll", "orco", "pelea"},
		{"session", "end"},
	} {
		_, errb, code := rt.run(append([]string{"--nats", rt.bea, "-c", "mordor", "--lang", "en"}, args...)...)
		require.Equal(t, exitFailure, code, "%v: %s", args, errb)
		require.Contains(t, errb, "denied", "%v", args)
	}
	_, errb, code := rt.run("--nats", rt.bea, "-c", "mordor", "--lang", "en", "--json", "damage", "orco", "3")
	require.Equal(t, exitFailure, code)
	var doc struct {
		Error struct {
			Code string `json:"code"`
			Exit int    `json:"exit"`
		} `json:"error"`
	}
	require.NoError(t, json.Unmarshal([]byte(errb), &doc), errb)
	require.Equal(t, "denied", doc.Error.Code)
	require.Equal(t, exitFailure, doc.Error.Exit)
	// The service's refusal in Spanish keeps its English for scripts, as
	// the same refusal on the data folder does (message_en).
	_, errb, code = rt.run("--nats", rt.bea, "-c", "mordor", "--lang", "es", "--json", "roll", "orco", "pelea")
	require.Equal(t, exitFailure, code, errb)
	var es struct {
		Error struct {
			Message   string `json:"message"`
			MessageEN string `json:"message_en"`
		} `json:"error"`
	}
	require.NoError(t, json.Unmarshal([]byte(errb), &es), errb)
	require.Contains(t, es.Error.MessageEN, "may issue", errb)
	require.Contains(t, es.Error.Message, "solo puede", errb)
	// An unknown skill is not_found over NATS as on the data folder.
	_, errb, code = rt.run("--nats", rt.bea, "-c", "mordor", "roll", "lodin", "nadar-bajo-el-agua")
	require.Equal(t, exitNotFound, code, errb)

	_, errb, code = rt.run("--nats", rt.bea, "-c", "mordor", "--lang", "en", "--inbox-prefix", "_INBOX.ana", "roll", "lodin", "sigilo")
	require.Equal(t, exitUsage, code, errb)
	require.Contains(t, errb, "--inbox-prefix _INBOX.ana")
	require.Contains(t, errb, "_INBOX.bea")
	require.Equal(t, 1, strings.Count(strings.TrimSpace(errb), "\n")+1, "one line: %s", errb)

	t.Setenv("JOURNAL_ACTOR", "ana")
	_, errb, code = rt.run("--nats", rt.bea, "-c", "mordor", "--lang", "en", "roll", "lodin", "sigilo")
	require.Equal(t, exitUsage, code, errb)
	require.Contains(t, errb, "--nats signs in to NATS as bea but you are ana")
	require.Len(t, rt.events("mordor"), before, "nothing recorded")
}

// TestPlayerCLIFollowsOverNATS: `log --follow` over the service prints the
// history, then what is recorded next (from the core-NATS feed).
func TestPlayerCLIFollowsOverNATS(t *testing.T) {
	rt := newRemoteTable(t)
	rt.asBea()
	rt.ok("--nats", rt.bea, "-c", "mordor", "roll", "lodin", "sigilo")
	ctx, cancel := context.WithCancel(context.Background())
	out, errb := &syncBuffer{}, &syncBuffer{}
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"--data", rt.dir, "--nats", rt.bea, "-c", "mordor", "--lang", "en", "log", "--follow", "--no-witness"}, out, errb)
	}()
	waitFor := func(what string, n int) {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for strings.Count(out.String(), what) < n {
			require.True(t, time.Now().Before(deadline), "log --follow never printed %d× %q:\n%s\nstderr: %s", n, what, out.String(), errb.String())
			time.Sleep(50 * time.Millisecond)
		}
	}
	waitFor("Sigilo", 1)
	rt.ok("--nats", rt.bea, "-c", "mordor", "roll", "lodin", "pelea")
	waitFor("Pelea", 1)
	t.Setenv("JOURNAL_ACTOR", "gm")
	rt.ok("--access", rt.file, "-c", "mordor", "damage", "lodin", "2") // the GM, on the journal's machine
	waitFor("lodin", 4)
	cancel()
	select {
	case code := <-done:
		require.Equal(t, exitOK, code, errb.String())
	case <-time.After(guard):
		t.Fatal("log --follow ignores its cancellation")
	}
	require.Equal(t, strings.TrimSpace(rt.ok("--access", rt.file, "-c", "mordor", "--lang", "en", "log")), strings.TrimSpace(out.String()),
		"what it followed is the log")
}

// TestPlayerCLIRollsV2OverNATS: in a journal-dice-v2 session a player's CLI
// signs its roll with its device key on its own machine and sends the
// signed request and reveal to the service: the roll is bea's and the
// verifier finds it whole.
func TestPlayerCLIRollsV2OverNATS(t *testing.T) {
	rt := newRemoteTable(t)
	rt.ok("--access", rt.file, "-c", "mordor", "session", "end")
	beaDir, gmDir := t.TempDir(), t.TempDir()
	asDevice(t, beaDir)
	rt.ok("key", "new")
	// The player registers its own key over NATS, signed by it (not the
	// GM's bare key, which the audit flags key-by-other).
	rt.ok("--nats", rt.bea, "-c", "mordor", "key", "register", "--character", "lodin")
	var reg *events.Event
	for _, e := range rt.events("mordor") {
		if e.Type == events.TypeDeviceRegistered {
			reg = &e
		}
	}
	require.NotNil(t, reg, "bea's key registration")
	require.Equal(t, "bea", reg.Actor)
	var d events.DeviceRegistered
	require.NoError(t, json.Unmarshal(reg.Data, &d))
	require.Equal(t, "bea", d.User)
	require.Equal(t, "player", d.Role)
	require.NotEmpty(t, d.Signed, "signed by bea's own device")
	asDevice(t, gmDir)
	t.Setenv("JOURNAL_ACTOR", "gm")
	rt.ok("--access", rt.file, "-c", "mordor", "session", "start", "--dice", "v2")
	asDevice(t, beaDir)
	out, errb := rt.okErr("--nats", rt.bea, "-c", "mordor", "--lang", "en", "roll", "lodin", "sigilo")
	require.Contains(t, errb, "signed as bea")
	require.Contains(t, out, "lodin")
	var made *events.Event
	for _, e := range rt.events("mordor") {
		if e.Type == events.TypeRollMade {
			made = &e
		}
	}
	require.NotNil(t, made)
	require.Equal(t, "bea", made.Actor)
	require.Equal(t, "roll-reveal", made.Command)
	asDevice(t, gmDir)
	t.Setenv("JOURNAL_ACTOR", "gm")
	rt.ok("--access", rt.file, "-c", "mordor", "session", "end")
	out, errb, code := rt.run("--access", rt.file, "-c", "mordor", "replay")
	require.Contains(t, []int{exitOK, exitFlagged}, code, "no mismatch: %s %s", out, errb)
}

// TestNATSToolReadsAndFollowsWithPlayerCreds: the stock nats tool, with
// bea's credentials and inbox prefix, reads the campaign with the
// service's events command and follows it on journalfeed.mordor, whose
// messages carry the CloudEvents content type.
func TestNATSToolReadsAndFollowsWithPlayerCreds(t *testing.T) {
	tool := natsTool()
	if tool == "" {
		t.Skip("the nats command-line client is not installed")
	}
	rt := newRemoteTable(t)
	rt.asBea()
	rt.ok("--nats", rt.bea, "-c", "mordor", "roll", "lodin", "sigilo")
	as := []string{"--server", rt.url, "--user", "bea", "--password", "bea-pw", "--inbox-prefix", "_INBOX.bea"}
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, tool, append(as, "req", "journalcmd.bea.mordor.events", "{}", "--raw")...).Output()
	require.NoError(t, err, "nats req: %s", out)
	var page struct {
		Events []struct {
			Event events.Event `json:"event"`
		} `json:"events"`
	}
	require.NoError(t, json.Unmarshal(out, &page), "%s", out)
	require.Len(t, page.Events, len(rt.events("mordor")))

	sub := exec.CommandContext(ctx, tool, append(as, "sub", access.FeedSubject("mordor"), "--count", "1")...)
	var got strings.Builder
	sub.Stdout = &got
	require.NoError(t, sub.Start())
	waited := make(chan error, 1)
	go func() { waited <- sub.Wait() }()
	for rolls := 0; ; rolls++ {
		select {
		case err := <-waited:
			require.NoError(t, err, got.String())
			require.Contains(t, got.String(), "Content-Type: "+access.FeedContentType)
			require.Contains(t, got.String(), `"type":"`+events.TypeRollMade+`"`)
			return
		case <-time.After(300 * time.Millisecond):
			require.Less(t, rolls, 60, "nats sub received nothing")
			rt.ok("--nats", rt.bea, "-c", "mordor", "roll", "lodin", "pelea")
		}
	}
}

// TestServiceClientIsDecidedByTheURLsUser: --nats makes the CLI a client
// of the command service only when its URL names a user with a password
// who is not the journal's own (by the access file's role when given,
// else by the name "journal").
func TestServiceClientIsDecidedByTheURLsUser(t *testing.T) {
	file := writeNATSAccess(t)
	for _, tt := range []struct {
		url, access string
		user        string
	}{
		{"", "", ""},
		{"nats://127.0.0.1:4222", "", ""},
		{"nats://journal:pw@127.0.0.1:4222", "", ""},
		{"nats://journal:journal-pw@127.0.0.1:4222", file, ""},
		{"nats://TOKEN@127.0.0.1:4222", "", ""},
		{"nats://bea:bea-pw@127.0.0.1:4222", "", "bea"},
		{"nats://bea:bea-pw@n1:4222,nats://bea:bea-pw@n2:4222", file, "bea"},
		{"nats://ana:ana-pw@127.0.0.1:4222", file, "ana"},
	} {
		a := newApp(nil, nil)
		a.natsURL, a.accessFile = tt.url, tt.access
		user, _, ok := a.serviceCreds()
		require.Equal(t, tt.user != "", ok, "%s (access %q)", tt.url, tt.access)
		if ok {
			require.Equal(t, tt.user, user)
		}
	}
}
