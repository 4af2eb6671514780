package web_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/invite"
	"github.com/campaign-journal/journal/replay"
)

// exampleClient is examples/v2-client/client.mjs, the README's
// journal-dice-v2 client for integrators.
var exampleClient = filepath.Join("..", "examples", "v2-client", "client.mjs")

// runExampleClient runs the example client with args under node and
// returns its standard output; it fails the test when the client fails.
func runExampleClient(t *testing.T, node string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, append([]string{exampleClient}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "node client.mjs %v:\n%s%s", args, out, stderr.Bytes())
	return out
}

// firstJSON decodes the first line of out into v.
func firstJSON(t *testing.T, out []byte, v any) {
	t.Helper()
	line, _, _ := bytes.Cut(out, []byte("\n"))
	require.NoError(t, json.Unmarshal(line, v), "%s", out)
}

// lastJSON decodes the last line of out into v.
func lastJSON(t *testing.T, out []byte, v any) {
	t.Helper()
	var last []byte
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if l := bytes.TrimSpace(sc.Bytes()); len(l) > 0 {
			last = append([]byte(nil), l...)
		}
	}
	require.NoError(t, json.Unmarshal(last, v), "%s", out)
}

// TestExampleV2Client runs the integrators' example client against a real
// server: it joins mordor as bea with an invite (its own Ed25519 key,
// registered by the key's own device.register), rolls ruisenor's Pelea in
// the journal-dice-v2 session the GM starts, sends the same roll again
// with the same request id (recorded once), and verifies the export with
// verify.js; the roll is in the journal as bea's, and `journal replay`'s
// verifier re-derives it once the session has ended.
func TestExampleV2Client(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not installed: the example journal-dice-v2 client is not run (apt-get install nodejs; .ci/run installs it)")
	}
	th := newTableHarness(t)
	keyFile := filepath.Join(t.TempDir(), "bea.json")
	tok := th.invite(t, invite.Spec{User: "bea", Role: "player", Characters: []string{"ruisenor"}})

	var joined struct {
		Joined, User, Role, Fingerprint string
		Characters                      []string
	}
	firstJSON(t, runExampleClient(t, node, "join", "--url", th.url, "--invite", tok, "--key", keyFile), &joined)
	require.Equal(t, "mordor", joined.Joined)
	require.Equal(t, "bea", joined.User)
	require.Equal(t, []string{"ruisenor"}, joined.Characters)
	st, err := os.Stat(keyFile)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), st.Mode().Perm(), "the key file is the player's signature: only its owner reads it")

	// bea's key is the campaign's first: the GM's session is journal-dice-v2.
	th.gm(t, http.MethodPost, "/api/campaigns/mordor/commands/session-start", `{"id":"s1"}`, nil)
	var c struct {
		Sessions []struct{ ID, Algorithm string }
	}
	th.gm(t, http.MethodGet, "/api/campaigns/mordor", "", &c)
	require.Equal(t, "journal-dice-v2", c.Sessions[len(c.Sessions)-1].Algorithm)

	request := uuid.NewString()
	roll := []string{"roll", "--key", keyFile, "--character", "ruisenor", "--skill", "Pelea", "--vs", "media", "--request", request}
	var rolled struct {
		Request, Session, Event string
		Repeated                bool
		Lines                   []string
	}
	out := runExampleClient(t, node, roll...)
	firstJSON(t, out, &rolled)
	require.Equal(t, request, rolled.Request)
	require.Equal(t, "s1", rolled.Session)
	require.NotEmpty(t, rolled.Event, "the reveal recorded the roll: %s", out)
	require.False(t, rolled.Repeated)
	require.NotEmpty(t, rolled.Lines)
	var open struct {
		Verdict string
		Open    []string
	}
	lastJSON(t, out, &open)
	require.Contains(t, []string{"ok", "flagged"}, open.Verdict, "%s", out)
	require.Equal(t, []string{"s1"}, open.Open, "the session's seed is not revealed yet")

	// The roll is bea's, in the journal, with the client's request id.
	var made []struct {
		Event struct {
			ID    string
			Actor string
			Data  struct {
				Request   string
				Character string
			}
		}
	}
	th.gm(t, http.MethodGet, "/api/campaigns/mordor/events?types=journal.roll.made.v1", "", &made)
	require.Len(t, made, 1)
	require.Equal(t, rolled.Event, made[0].Event.ID)
	require.Equal(t, "bea", made[0].Event.Actor)
	require.Equal(t, request, made[0].Event.Data.Request)
	require.Equal(t, "ruisenor", made[0].Event.Data.Character)

	// The same request again (a retry): answered once, nothing new.
	before := th.count(t)
	var again struct {
		Event    string
		Repeated bool
	}
	firstJSON(t, runExampleClient(t, node, roll...), &again)
	require.True(t, again.Repeated, "the journal answers the retry as a repeat")
	require.Equal(t, before, th.count(t), "a retried roll with the same request id records nothing")

	th.gm(t, http.MethodPost, "/api/campaigns/mordor/commands/session-end", `{}`, nil)
	var sum struct {
		Verdict string
		Flags   []string
		Rolls   struct{ Checked, Verified int }
		Open    []string
	}
	lastJSON(t, runExampleClient(t, node, "verify", "--key", keyFile), &sum)
	require.Contains(t, []string{"ok", "flagged"}, sum.Verdict, "verify.js: %+v", sum)
	require.Empty(t, sum.Open)
	require.Equal(t, 1, sum.Rolls.Verified, "verify.js re-derives the roll: %+v", sum)

	r := th.do(http.MethodGet, "/api/campaigns/mordor/export", "", bearer(anaToken)...)
	require.Equal(t, http.StatusOK, r.status)
	rep, err := replay.Verify(context.Background(), replay.JSONLBytes(r.body), replay.Options{})
	require.NoError(t, err)
	require.True(t, rep.OK(), "replay: %+v", rep.Totals)
	require.Equal(t, 1, rep.Totals.Verified, "replay re-derives the client's roll: %+v", rep.Totals)
	require.Equal(t, string(rep.Verdict()), sum.Verdict, "verify.js and replay agree")
}
