package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/signed"
)

// receiptsSession plays, as ana's device, a contribution and two rolls of
// an open v2 session (no co-signature: what catches a rewrite below is the
// players' seen alone), and returns the export's lines.
func (tb *v2Table) receiptsSession() []string {
	tb.as("gm").ok("-c", "mordor", "session", "start", "--dice", "v2")
	tb.as("ana").ok("-c", "mordor", "session", "contribute")
	tb.ok("-c", "mordor", "roll", "lodin", "Sigilo", "--vs", "media")
	tb.ok("-c", "mordor", "roll", "lodin", "--attribute", "F")
	return strings.Split(strings.TrimSpace(tb.ok("-c", "mordor", "export")), "\n")
}

// anaReceipts is ana's receipts folder.
func (tb *v2Table) anaReceipts() string { return filepath.Join(tb.anaDir, "receipts") }

// Every message the CLI signs carries seen (the campaign's latest event it
// read: that event's sequence and the hash of its stored bytes) and is kept
// in the device's receipts before it is sent.
func TestCLIMessagesCarrySeenAndAreKept(t *testing.T) {
	tb := newV2Table(t)
	lines := tb.receiptsSession()
	kept, err := device.NewReceiptStore(tb.anaReceipts()).Load("mordor")
	require.NoError(t, err)
	require.Len(t, kept, 6, "the device's registration, a contribution, two requests and two reveals")
	byHash := map[signed.Hex32]bool{}
	for _, l := range lines {
		byHash[signed.SeenOf(1, []byte(l)).Hash] = true
	}
	for _, k := range kept {
		require.Equal(t, "ana", k.User)
		require.Equal(t, tb.anaKey().Public().String(), k.PublicKey)
		m, err := signed.Parse(k.Signed)
		require.NoError(t, err)
		require.NotNil(t, m.Head().Seen, "%s carries seen", m.Kind())
		require.True(t, byHash[m.Head().Seen.Hash], "%s's seen is an event of the campaign", m.Kind())
		require.Contains(t, strings.Join(lines, "\n"), strings.ReplaceAll(k.Signed[:40], `"`, `\"`), "recorded as signed")
	}
	// Nothing differs: no warning, and replay --receipts agrees.
	_, errb, code := tb.as("ana").run("--lang", "en", "-c", "mordor", "log")
	require.Zero(t, code)
	require.NotContains(t, errb, "WARNING")
	out, _, code := tb.run("--lang", "en", "replay", "--file", writeExport(t, lines), "--receipts", tb.anaReceipts())
	require.NotEqual(t, exitMismatch, code, out)
	require.Contains(t, out, "receipts: 6 kept messages, the record extends every head they signed")
}

// The GM who hosts rewrites an event before ana's signed messages (here a
// character's name: nothing a roll depends on) and re-forges the chain:
// the file's own checks all hold, but ana's messages say they were signed
// having seen other bytes, so replay of the file alone finds the rewrite;
// with ana's receipts it names where the histories part; published into a
// fresh data folder, ana's CLI warns on every load.
func TestHostRewritesHistoryBeforeAPlayersMessage(t *testing.T) {
	tb := newV2Table(t)
	lines := tb.receiptsSession()
	forged, _ := edit(t, lines, events.TypeCharacterCreated, 1, func(_ *events.Event, d map[string]any) { d["name"] = "Lodin el Traidor" })

	out, errb, code := tb.run("--lang", "en", "replay", "--file", writeExport(t, forged))
	require.Equal(t, exitMismatch, code, "%s\n%s", out, errb)
	require.Contains(t, out, "which is not in this history: the history was rewritten before it")

	out, _, code = tb.run("--lang", "en", "--json", "replay", "--file", writeExport(t, forged), "--receipts", tb.anaReceipts())
	require.Equal(t, exitMismatch, code)
	require.Contains(t, out, `"kind": "history-differs"`)
	require.Contains(t, out, "the journal's history differs from what this device signed at #")

	// The same forged events in a fresh data folder: ana's device warns.
	fresh := &cli{t: t, dir: t.TempDir()}
	fresh.ok("campaign", "create", "otra", "--system", "ryf") // so that sequences differ too
	fresh.publishLines(forged)
	tb.as("ana")
	_, errb, code = fresh.run("--lang", "en", "-c", "mordor", "log")
	require.Zero(t, code)
	require.Contains(t, errb, "WARNING: the journal's history differs from what this device signed at #")
	_, errb, _ = fresh.run("--lang", "es", "-c", "mordor", "character", "show", "lodin")
	require.Contains(t, errb, "la historia del diario difiere de lo que firmó este dispositivo en #")
	// log and replay say it in --json too, in their receipts member.
	out, _, _ = fresh.run("--lang", "en", "--json", "-c", "mordor", "log")
	require.Contains(t, out, `{"receipts":{"kept":0,"ok":false,"alarms":[{"kind":"history-differs"`)
	out, _, _ = fresh.run("--lang", "en", "--json", "-c", "mordor", "replay")
	require.Contains(t, out, `"receipts": {`)
	require.Contains(t, out, `"kind": "history-differs"`)

	// The genuine events in a fresh folder (other sequences, same bytes): no warning.
	moved := &cli{t: t, dir: t.TempDir()}
	moved.ok("campaign", "create", "otra", "--system", "ryf")
	moved.publishLines(lines)
	_, errb, code = moved.run("--lang", "en", "-c", "mordor", "log")
	require.Zero(t, code)
	require.NotContains(t, errb, "WARNING")
}

// The host cuts an export before the last head ana signed after seeing:
// the cut file verifies on its own, and replay --receipts says it is cut.
func TestHostCutsTheExportBeforeAPlayersHead(t *testing.T) {
	tb := newV2Table(t)
	lines := tb.receiptsSession()
	kept, err := device.NewReceiptStore(tb.anaReceipts()).Load("mordor")
	require.NoError(t, err)
	m, err := signed.Parse(kept[len(kept)-1].Signed)
	require.NoError(t, err)
	last := m.Head().Seen
	cut := -1
	for i, l := range lines {
		if last.Matches([]byte(l)) {
			cut = i // the file stops before ana's last head
		}
	}
	require.Positive(t, cut)
	path := writeExport(t, lines[:cut])
	out, errb, code := tb.run("--lang", "en", "replay", "--file", path, "--receipts", tb.anaReceipts())
	require.Equal(t, exitMismatch, code, "%s\n%s", out, errb)
	require.Contains(t, out, "before #")
	require.Contains(t, out, "which this device signed after seeing: the export is cut")
}

// The host (or a proxy on its port) shows ana's device other bytes for an
// event ana signed after seeing: ana's device warns on load. (The journal
// refusing a message signed on such a view is command's
// TestV2SeenDiffersIsRefused.) And a key the journal holds for ana that is
// not her device's is named.
func TestDeviceWarnsWhenShownAnotherHistory(t *testing.T) {
	tb := newV2Table(t)
	tb.receiptsSession()
	kept, err := device.NewReceiptStore(tb.anaReceipts()).Load("mordor")
	require.NoError(t, err)
	m, err := signed.Parse(kept[0].Signed)
	require.NoError(t, err)
	head := m.Head().Seen.Seq

	var out, errb bytes.Buffer
	a := newApp(&out, &errb)
	a.wrapStore = func(inner command.Store) command.Store { return proxyStore{Store: inner, seq: head} }
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	tb.as("ana")
	code := runApp(ctx, a, []string{"--data", tb.dir, "--lang", "en", "-c", "mordor", "log"})
	require.Zero(t, code, errb.String())
	require.Contains(t, errb.String(), "WARNING: the journal's history differs from what this device signed at #")

	// The GM adds a device of its own making to ana's name: announced.
	other, err := device.NewStore(t.TempDir()).New("x", device.NewOptions{Rand: rand.Reader})
	require.NoError(t, err)
	tb.as("gm").ok("-c", "mordor", "key", "register", "ana", "--public-key", other.Public().String())
	_, e, _ := tb.as("ana").run("--lang", "en", "-c", "mordor", "character", "show", "lodin")
	require.Contains(t, e, "WARNING: gm added a device to your name")
	require.NotContains(t, e, "that is not this device's", "ana's own device is still hers")
	// The GM revokes ana's own device: the journal now holds for ana only
	// a key that is not this device's.
	own, err := device.NewStore(filepath.Join(tb.anaDir, "keys")).Load(device.DefaultName)
	require.NoError(t, err)
	tb.as("gm").ok("-c", "mordor", "key", "revoke", own.Fingerprint(), "--reason", "lost")
	_, e, _ = tb.as("ana").run("--lang", "en", "-c", "mordor", "character", "show", "lodin")
	require.Contains(t, e, "WARNING: the journal holds a key for ana that is not this device's")
}

// proxyStore shows other stored bytes for the event at seq, as a host's
// proxy could show a device.
type proxyStore struct {
	command.Store
	seq uint64
}

func (p proxyStore) Read(ctx context.Context, q events.Query, fn func(events.Recorded) error) error {
	return p.Store.Read(ctx, q, func(r events.Recorded) error {
		if r.Seq == p.seq && r.Raw != nil {
			r.Raw = append(append([]byte(nil), r.Raw...), ' ')
		}
		return fn(r)
	})
}

// publishLines publishes export lines into the journal's stream as they
// are, each on its campaign's subject, as a host writing a campaign into
// a fresh data folder could.
func (c *cli) publishLines(lines []string) {
	c.t.Helper()
	srv, err := embedded.Start(context.Background(), embedded.Options{Dir: c.dir})
	require.NoError(c.t, err)
	defer srv.Shutdown()
	for _, l := range lines {
		e, err := events.Decode([]byte(l))
		require.NoError(c.t, err)
		subject, err := events.CampaignSubject(e.Campaign)
		require.NoError(c.t, err)
		_, err = srv.JetStream().Publish(context.Background(), subject, []byte(l))
		require.NoError(c.t, err)
	}
}

// The offline verifier takes a device's receipts too: the export the host
// cut before ana's last head fails there as in replay --receipts, and the
// whole export passes.
func TestOfflineVerifierTakesReceipts(t *testing.T) {
	tb := newV2Table(t)
	lines := tb.receiptsSession()
	kept, err := device.NewReceiptStore(tb.anaReceipts()).Load("mordor")
	require.NoError(t, err)
	m, err := signed.Parse(kept[len(kept)-1].Signed)
	require.NoError(t, err)
	cut := -1
	for i, l := range lines {
		if m.Head().Seen.Matches([]byte(l)) {
			cut = i
		}
	}
	require.Positive(t, cut)
	jsonl, err := os.ReadFile(filepath.Join(tb.anaReceipts(), "mordor.jsonl"))
	require.NoError(t, err)
	check, ctx := offlineVerifier(t, tb.as("gm").cli)
	q, err := json.Marshal(string(jsonl))
	require.NoError(t, err)
	_, err = chromedp.Run(ctx, chromedp.Evaluate[bool](`(JournalVerifier.receipts(`+string(q)+`), true)`))
	require.NoError(t, err)
	status, text := check("export.jsonl", lines)
	require.NotEqual(t, "mismatch", status, text)
	status, text = check("export.jsonl", lines[:cut])
	require.Equal(t, "mismatch", status, text)
	require.Contains(t, text, "which this device signed after seeing: the export is cut")
}
