package main

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A campaign whose events interleave with another campaign's in the
// stream reproduces as it was: the reproduction numbers its own
// sequences, and the devices' seen (stream sequences of the original
// journal) does not refuse the messages re-run.
func TestReproduceWithSeenInAnInterleavedJournal(t *testing.T) {
	tb := newV2Table(t)
	tb.as("gm").ok("campaign", "create", "otra", "--system", "ryf")
	tb.ok("-c", "mordor", "session", "start", "--dice", "v2")
	tb.as("gm").ok("-c", "otra", "day", "new")
	tb.as("ana").ok("-c", "mordor", "session", "contribute")
	tb.as("gm").ok("-c", "otra", "day", "new")
	tb.as("ana").ok("-c", "mordor", "roll", "lodin", "Sigilo", "--vs", "media")
	tb.as("gm").ok("-c", "mordor", "session", "end")
	out, errb, code := tb.run("--lang", "en", "-c", "mordor", "replay", "--reproduce")
	require.Zero(t, code, "%s\n%s", out, errb)
	require.Contains(t, out, "IDENTICAL:")
}
