package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
)

// cli runs the journal's command line in-process against data folder dir.
type cli struct {
	t   *testing.T
	dir string
}

func newCLI(t *testing.T) *cli {
	t.Helper()
	t.Setenv("JOURNAL_DATA", "")
	t.Setenv("JOURNAL_CAMPAIGN", "")
	t.Setenv("NATS_URL", "")
	// The tests read Spanish transcripts unless they pass --lang.
	t.Setenv("LC_ALL", "")
	t.Setenv("LC_MESSAGES", "")
	t.Setenv("LANG", "es_ES.UTF-8")
	return &cli{t: t, dir: t.TempDir()}
}

// run returns stdout, stderr and the exit code of one command line.
func (c *cli) run(args ...string) (string, string, int) {
	c.t.Helper()
	var out, errb bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	code := run(ctx, append([]string{"--data", c.dir}, args...), &out, &errb)
	return out.String(), errb.String(), code
}

// ok runs a command line that must succeed and returns its stdout.
func (c *cli) ok(args ...string) string {
	c.t.Helper()
	out, errb, code := c.run(args...)
	if code != 0 {
		c.t.Fatalf("journal %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), code, out, errb)
	}
	return out
}

// events returns the exported events of campaign camp.
func (c *cli) events(camp string) []events.Event {
	c.t.Helper()
	out, _, code := c.run("-c", camp, "export")
	if code != 0 {
		return nil
	}
	var evs []events.Event
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		e, err := events.Decode([]byte(line))
		require.NoError(c.t, err)
		evs = append(evs, e)
	}
	return evs
}

func (c *cli) setupCampaign() {
	c.t.Helper()
	c.ok("campaign", "create", "mordor", "--system", "ryf")
	c.ok("-c", "mordor", "character", "create", "lodin", "--player", "ana", "--attrs", "F=8,R=7,D=9,I=8,P=8",
		"--skills", "Pelea=5,Sigilo=3,Armas cuerpo a cuerpo=5", "--spec", "Sigilo", "--weapons", "Espada")
	c.ok("character", "create", "orco", "--npc", "--attrs", "F=7,R=4,D=5,I=3,P=4", "--skills", "Pelea=4", "-c", "mordor")
}

func TestBadInputRecordsNothing(t *testing.T) {
	c := newCLI(t)
	c.setupCampaign()
	c.ok("-c", "mordor", "session", "start")
	before := len(c.events("mordor"))
	tests := []struct {
		args []string
		want string // in the error message
	}{
		{[]string{"roll", "gandalf", "Sigilo"}, `no character "gandalf"`},
		{[]string{"roll", "lodin", "Cocina"}, `unknown skill "Cocina"`},
		{[]string{"roll", "lodin", "Sigilo", "--vs", "trivial"}, "--vs"},
		{[]string{"roll", "lodin", "Sigilo", "--bogus"}, "unknown flag: --bogus"},
		{[]string{"roll", "lodin", "Sigilo", "--mod", "x"}, "--mod"},
		{[]string{"roll", "lodin", "Sigilo", "--mod", "1000"}, "modifier"},
		{[]string{"roll", "orco", "Pelea", "--token"}, "no token"},
		{[]string{"xp", "grant", "lodin", "11"}, "xp grant 11, want 1..10"},
		{[]string{"damage", "lodin", "-3"}, "damage"},
		{[]string{"skill", "raise", "lodin", "Sigilo"}, "not enough xp"},
		{[]string{"attack", "lodin", "orco"}, "no combat in progress"},
		{[]string{"character", "create", "x.y", "--player", "p"}, "character id"},
		{[]string{"character", "create", "bad", "--player", "p", "--attrs", "F=11,R=10,D=10,I=10,P=10", "--skills", "Pelea=7", "--spec", "Pelea"}, "budget 40"},
		{[]string{"session", "start"}, "still in progress"},
		{[]string{"combat", "start", "lodin"}, "requires at least 2 arguments"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, "_"), func(t *testing.T) {
			out, errb, code := c.run(append([]string{"-c", "mordor", "--lang", "en"}, tt.args...)...)
			if code == 0 {
				t.Fatalf("exit 0, want failure; stdout %s", out)
			}
			if !strings.Contains(errb, tt.want) {
				t.Fatalf("stderr %q does not name %q", errb, tt.want)
			}
			if n := strings.Count(strings.TrimSpace(errb), "\n"); n > 0 {
				t.Fatalf("want one line of error, got %d:\n%s", n+1, errb)
			}
			if got := len(c.events("mordor")); got != before {
				t.Fatalf("%d events recorded by a refused command", got-before)
			}
		})
	}
}

func TestRollLineAndJSON(t *testing.T) {
	c := newCLI(t)
	c.setupCampaign()
	c.ok("-c", "mordor", "session", "start")
	out := c.ok("-c", "mordor", "roll", "lodin", "sigilo", "--vs", "media", "--entropy", "ana")
	for _, want := range []string{"dados", "objetivo", "total", "evento ", "nonce 0"} {
		if !strings.Contains(out, want) {
			t.Fatalf("roll line lacks %q:\n%s", want, out)
		}
	}
	out = c.ok("roll", "lodin", "--attribute", "F", "--vs", "25", "-c", "mordor", "--json")
	var doc struct {
		Recorded []struct {
			Seq   uint64       `json:"seq"`
			Event events.Event `json:"event"`
		} `json:"recorded"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &doc), out)
	if len(doc.Recorded) != 1 || doc.Recorded[0].Event.Type != events.TypeRollMade {
		t.Fatalf("json = %s", out)
	}
	p, err := doc.Recorded[0].Event.Payload()
	require.NoError(t, err)
	r := p.(*events.RollMade)
	if r.Kind != "attribute" || r.Nonce != 1 || len(r.Faces) != 3 {
		t.Fatalf("roll = %+v", r)
	}
	// The sheet as of before the rolls, and now.
	now := c.ok("-c", "mordor", "character", "show", "lodin", "--json")
	var sheet struct{ Rolls int }
	require.NoError(t, json.Unmarshal([]byte(now), &sheet))
	if sheet.Rolls != 2 {
		t.Fatalf("rolls = %d, want 2", sheet.Rolls)
	}
	then := c.ok("-c", "mordor", "character", "show", "lodin", "--json", "--at", "3")
	require.NoError(t, json.Unmarshal([]byte(then), &sheet))
	if sheet.Rolls != 0 {
		t.Fatalf("rolls at seq 3 = %d, want 0", sheet.Rolls)
	}
}

// TestDemo runs the demo with fixed session seeds: its dice, and so its
// story (the orc knocked unconscious, not killed outright), are the same on
// every run.
func TestDemo(t *testing.T) {
	demoSeeds = rand.NewChaCha8([32]byte{1})
	t.Cleanup(func() { demoSeeds = nil })
	c := newCLI(t)
	out := c.ok("demo")
	for _, want := range []string{"Empieza la sesión s1", "Empieza el combate", "inconsciente", "gana 7 PX", "sube Sigilo", "Semilla revelada", "Hojas finales"} {
		if !strings.Contains(out, want) {
			t.Fatalf("demo output lacks %q:\n%s", want, out)
		}
	}
}

// TestNATSCLIReadsTheStream reads the stream with the standard nats client
// while a server shares the data folder.
func TestNATSCLIReadsTheStream(t *testing.T) {
	natsBin, err := exec.LookPath("nats")
	if err != nil {
		t.Skip("the nats command-line client is not installed (go install github.com/nats-io/natscli/nats@v0.5.0; .ci/run installs it)")
	}
	c := newCLI(t)
	c.setupCampaign()
	a := newApp(&bytes.Buffer{}, &bytes.Buffer{})
	a.dataDir = c.dir
	ctx := context.Background()
	_, err = a.openStore(ctx, true, "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(a.close)
	url := a.srv.ClientURL()
	cmd := exec.Command(natsBin, "--server", url, "stream", "get", "JOURNAL", "1", "--json")
	if info, err := os.ReadFile(c.dir + "/server.json"); err == nil {
		var s struct{ Token string }
		if json.Unmarshal(info, &s) == nil && s.Token != "" {
			cmd.Args = append(cmd.Args, "--token", s.Token)
		}
	}
	raw, err := cmd.CombinedOutput()
	require.NoError(t, err, string(raw))
	// The stored message: subject, sequence and the body (base64 in JSON).
	var msg struct {
		Subject string `json:"subject"`
		Seq     uint64 `json:"seq"`
		Data    []byte `json:"data"`
	}
	require.NoError(t, json.Unmarshal(raw, &msg), string(raw))
	if msg.Subject != "journal.mordor" || msg.Seq != 1 {
		t.Fatalf("message 1: subject %q seq %d", msg.Subject, msg.Seq)
	}
	e, err := events.Decode(msg.Data)
	require.NoError(t, err, string(msg.Data))
	if e.Type != events.TypeCampaignCreated || e.Campaign != "mordor" {
		t.Fatalf("first message = %+v", e)
	}
}
