package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/jetstore"
)

// playedLines plays a v1 session of campaign mordor in a folder of its
// own and returns its export, and the index of its second roll.
func playedLines(t *testing.T) ([]string, int) {
	t.Helper()
	c := newCLI(t)
	c.setupCampaign()
	c.ok("-c", "mordor", "session", "start", "--dice", "v1")
	for _, skill := range []string{"Sigilo", "Pelea", "Sigilo"} {
		c.ok("-c", "mordor", "roll", "lodin", skill)
	}
	c.ok("-c", "mordor", "session", "end")
	lines := strings.Split(strings.TrimSpace(c.ok("-c", "mordor", "export")), "\n")
	return lines, indexOf(t, lines, events.TypeRollMade, 2)
}

// TestLostMessageDeleted: a message gone from the middle of the stream
// (deleted here through the journal's own connection, on a stream made
// to allow it before the journal ever opened it: the journal's denies
// deletes) is a hole no read of the campaign shows. journal log says so
// in words, and where the campaign's chain breaks; journal replay says so
// and fails, of the campaign and of the whole journal; /healthz counts
// the deleted message and says "degraded".
func TestLostMessageDeleted(t *testing.T) {
	lines, roll := playedLines(t)
	c := newCLI(t)
	ctx := context.Background()
	srv, err := embedded.Start(ctx, embedded.Options{Dir: c.dir, Sync: true})
	require.NoError(t, err)
	js := srv.JetStream()
	cfg := jetstore.StreamConfig(jetstore.Options{})
	cfg.DenyDelete = false
	st, err := js.CreateStream(ctx, cfg)
	require.NoError(t, err)
	for _, l := range lines {
		e, err := events.Decode([]byte(l))
		require.NoError(t, err)
		m := &nats.Msg{Subject: "journal.mordor", Data: []byte(l), Header: nats.Header{}}
		m.Header.Set(jetstream.MsgIDHeader, e.ID)
		m.Header.Set(events.HeaderType, e.Type)
		_, err = js.PublishMsg(ctx, m)
		require.NoError(t, err)
	}
	lost := uint64(roll + 1) // the second roll's sequence
	require.NoError(t, st.DeleteMsg(ctx, lost))
	srv.Shutdown()

	out, errb, code := c.run("--lang", "en", "-c", "mordor", "log")
	require.Equal(t, 0, code, errb)
	require.Contains(t, errb, fmt.Sprintf("stream JOURNAL has no message at 1 of its sequences (sequences %d)", lost))
	require.Contains(t, errb, fmt.Sprintf("the campaign's chain breaks at sequence %d", lost+1))
	require.Contains(t, out, "Sigilo", "the log goes on")

	for _, args := range [][]string{{"-c", "mordor", "replay"}, {"replay"}} {
		out, errb, code = c.run(append([]string{"--lang", "en"}, args...)...)
		require.Equal(t, exitMismatch, code, "replay %v: %s\n%s", args, out, errb)
		require.Contains(t, errb, fmt.Sprintf("sequences %d", lost), "replay %v", args)
		require.Contains(t, errb, "messages lost from the stream: 1", "replay %v", args)
		require.Contains(t, out, "chain is broken", "replay %v", args)
	}

	s := c.serve()
	defer func() { require.Zero(t, s.shutdown(t)) }()
	var h struct {
		Status  string `json:"status"`
		Deleted uint64 `json:"deleted_messages"`
	}
	require.Eventually(t, func() bool {
		resp, err := http.Get(s.url + "/healthz")
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		return json.NewDecoder(resp.Body).Decode(&h) == nil && h.Status != "lagging"
	}, 20*time.Second, 50*time.Millisecond)
	require.Equal(t, "degraded", h.Status)
	require.Equal(t, uint64(1), h.Deleted)
}

// TestLostMessageDamagedOnDisk: a message damaged in the stream's files
// (one byte of it changed on disk while the journal was stopped) is one
// the server still counts and no longer gives: a read skips it. journal
// log says so in words and where the chain breaks; journal replay fails.
func TestLostMessageDamagedOnDisk(t *testing.T) {
	c := newCLI(t)
	c.setupCampaign()
	c.ok("-c", "mordor", "session", "start", "--dice", "v1")
	for _, skill := range []string{"Sigilo", "Pelea", "Sigilo"} {
		c.ok("-c", "mordor", "roll", "lodin", skill)
	}
	c.ok("-c", "mordor", "session", "end")
	lines := strings.Split(strings.TrimSpace(c.ok("-c", "mordor", "export")), "\n")
	roll := indexOf(t, lines, events.TypeRollMade, 2)
	e, err := events.Decode([]byte(lines[roll]))
	require.NoError(t, err)

	var blk string
	require.NoError(t, filepath.Walk(c.dir, func(p string, _ os.FileInfo, err error) error {
		if err == nil && filepath.Ext(p) == ".blk" && strings.Contains(p, string(filepath.Separator)+jetstore.StreamName+string(filepath.Separator)) {
			blk = p
		}
		return err
	}))
	require.NotEmpty(t, blk, "the stream's block file")
	b, err := os.ReadFile(blk)
	require.NoError(t, err)
	at := bytes.Index(b, []byte(e.ID))
	require.Positive(t, at)
	b[at+40] ^= 1 // inside the roll's document: its record's checksum no longer holds
	require.NoError(t, os.WriteFile(blk, b, 0o600))

	out, errb, code := c.run("--lang", "en", "-c", "mordor", "log")
	require.Equal(t, 0, code, errb)
	require.Contains(t, errb, fmt.Sprintf("the server counts %d messages on journal.mordor", len(lines)))
	require.Contains(t, errb, fmt.Sprintf("and gives only %d: 1 are in its files but cannot be read", len(lines)-1))
	require.Contains(t, errb, fmt.Sprintf("the campaign's chain breaks at sequence %d", roll+2))
	require.NotContains(t, out, e.ID[len(e.ID)-8:], "the damaged event is not shown")

	out, errb, code = c.run("--lang", "en", "-c", "mordor", "replay")
	require.Equal(t, exitMismatch, code, "%s\n%s", out, errb)
	require.Contains(t, errb, "cannot be read")
	require.Contains(t, out, "chain is broken")
}
