package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
)

// publishRaw publishes data on subject into the journal's stream with the
// journal's own connection, as an attack that got that far could, and
// returns its sequence.
func (c *cli) publishRaw(subject string, data []byte) uint64 {
	c.t.Helper()
	srv, err := embedded.Start(context.Background(), embedded.Options{Dir: c.dir})
	require.NoError(c.t, err)
	defer srv.Shutdown()
	ack, err := srv.JetStream().Publish(context.Background(), subject, data)
	require.NoError(c.t, err)
	return ack.Sequence
}

// TestForeignMessageInTheJournal: a message that is not an event, on a
// campaign's subject, stops nothing: rolls and the session's end are
// recorded after it; log and export go on and warn on stderr naming it;
// replay verifies everything else, lists it loudly and exits 4, from the
// journal and from an export with a garbage line.
func TestForeignMessageInTheJournal(t *testing.T) {
	c := newCLI(t)
	c.setupCampaign()
	c.ok("-c", "mordor", "session", "start")
	c.ok("-c", "mordor", "roll", "lodin", "Sigilo")
	const subject = "journal.mordor"
	seq := c.publishRaw(subject, []byte("forged, not an event"))
	named := fmt.Sprintf("sequence %d (%s)", seq, subject)

	c.ok("-c", "mordor", "roll", "lodin", "Pelea")
	c.ok("-c", "mordor", "roll", "orco", "Pelea")
	c.ok("-c", "mordor", "session", "end")

	out, errb, code := c.run("-c", "mordor", "log")
	require.Equal(t, 0, code, "log: %s", errb)
	// The warning is in the output's language, as the log.
	require.Contains(t, errb, "aviso: se omite "+fmt.Sprintf("secuencia %d (%s)", seq, subject))
	require.Contains(t, out, "Termina la sesión s1 con 3 nonces usados")

	out, errb, code = c.run("-c", "mordor", "--lang", "en", "export")
	require.Equal(t, 0, code, "export: %s", errb)
	require.Contains(t, errb, "warning: skipped "+named)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	for _, l := range lines {
		_, err := events.Decode([]byte(l))
		require.NoError(t, err, "export line %q", l)
	}
	require.Len(t, lines, int(seq)-1+3, "every event, the foreign message left out")

	out, errb, code = c.run("-c", "mordor", "replay")
	require.Equal(t, exitMismatch, code, "replay: %s\n%s", out, errb)
	require.Contains(t, errb, "0 discrepancias, 1 mensaje que no es un evento del diario", "the error in the output's language")
	_, errb, _ = c.run("-c", "mordor", "--lang", "en", "replay")
	require.Contains(t, out, fmt.Sprintf("AJENO  secuencia %d (%s): no es un evento del diario", seq, subject))
	require.Contains(t, out, "sesión mordor/s1: verificada")
	require.Contains(t, errb, "0 mismatches, 1 message that is not a journal event")

	// The export, with a garbage line in it.
	garbage := append(append(append([]string{}, lines[:3]...), "{garbage"), lines[3:]...)
	out, errb, code = c.run("--lang", "en", "replay", "--file", writeExport(t, garbage))
	require.Equal(t, exitMismatch, code, "replay --file: %s\n%s", out, errb)
	require.Contains(t, out, "FOREIGN  line 4: not a journal event")
	require.Contains(t, out, "session mordor/s1: verified")

	// Without it, the export verifies.
	out, errb, code = c.run("replay", "--file", writeExport(t, lines))
	require.Equal(t, 0, code, "replay --file: %s\n%s", out, errb)
}

// TestRestoreReportsForeignMessages: a backup of a journal that holds a
// message that is not an event restores, and its verification says so as
// journal replay does: the message listed, counted in the summary, and
// exit 4 with replay's words, in the output's language too.
func TestRestoreReportsForeignMessages(t *testing.T) {
	c := newCLI(t)
	c.setupCampaign()
	c.ok("-c", "mordor", "session", "start")
	c.ok("-c", "mordor", "roll", "lodin", "Sigilo")
	const subject = "journal.mordor"
	seq := c.publishRaw(subject, []byte("forged, not an event"))
	c.ok("-c", "mordor", "session", "end")
	dir := t.TempDir()
	file, key := filepath.Join(dir, "b.jbk"), filepath.Join(dir, "backup.key")
	c.ok("backup", file, "--key", key)
	_, replayErr, code := c.run("--lang", "en", "replay")
	require.Equal(t, exitMismatch, code)

	dst := newCLI(t)
	out, errb, code := dst.run("--lang", "en", "restore", file, "--key", key)
	require.Equal(t, exitMismatch, code, "restore: %s\n%s", out, errb)
	require.Contains(t, out, fmt.Sprintf("FOREIGN  sequence %d (%s): not a journal event", seq, subject))
	require.Contains(t, out, "verification failed: ")
	require.Contains(t, out, "0 mismatches, 1 message that is not an event")
	require.NotContains(t, out, "verified: ")
	require.Contains(t, errb, "restored, but verification failed: 0 mismatches, 1 message that is not a journal event (see journal replay --data ")
	require.Contains(t, replayErr, "verification failed: 0 mismatches, 1 message that is not a journal event", "replay's words")
	_, replayErr, code = dst.run("--lang", "en", "replay")
	require.Equal(t, exitMismatch, code, "replay of the restored journal: %s", replayErr)

	// In Spanish.
	dst = newCLI(t)
	_, errb, code = dst.run("--lang", "es", "restore", file, "--key", key)
	require.Equal(t, exitMismatch, code)
	require.Contains(t, errb, "restaurado, pero verificación fallida: 0 discrepancias, 1 mensaje que no es un evento del diario (ver journal replay")
}
