package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/replay"
)

// v2CosignedSession plays two v2 sessions with the CLI whose ends the GM's
// device (by 'session end') and ana's (by 'session cosign') co-sign; in the
// first, three rolls of ana's, the second voided by the GM with ana's signed
// consent. It returns the export's lines.
func (tb *v2Table) v2CosignedSession() []string {
	t := tb.t
	tb.as("gm").ok("-c", "mordor", "session", "start", "--dice", "v2")
	tb.as("ana").ok("-c", "mordor", "session", "contribute")
	tb.ok("-c", "mordor", "roll", "lodin", "Sigilo", "--vs", "media")
	tb.ok("-c", "mordor", "roll", "lodin", "--attribute", "F", "--mod", "2")
	tb.ok("-c", "mordor", "roll", "lodin", "Pelea")
	var rolls []string
	for _, e := range tb.events("mordor") {
		if e.Type == events.TypeRollMade {
			rolls = append(rolls, e.ID)
		}
	}
	const reason = "rolled the wrong attribute"
	var consent command.SignedMessage
	require.NoError(t, json.Unmarshal([]byte(tb.ok("--json", "-c", "mordor", "key", "consent", rolls[1], "--reason", reason)), &consent))
	tb.as("gm").ok("-c", "mordor", "void", rolls[1], "--reason", reason, "--consent-signed", consent.Signed, "--consent-signature", consent.Signature)
	_, errb, code := tb.run("--lang", "en", "-c", "mordor", "session", "end")
	require.Equal(t, exitOK, code, errb)
	require.Contains(t, errb, "co-signing the end of session", "session end says it co-signs")
	tb.as("ana").ok("-c", "mordor", "session", "cosign")

	tb.as("gm").ok("-c", "mordor", "session", "start", "--dice", "v2")
	tb.as("ana").ok("-c", "mordor", "session", "contribute")
	tb.ok("-c", "mordor", "roll", "lodin", "Sigilo", "--vs", "media")
	tb.as("gm").ok("-c", "mordor", "session", "end")
	tb.as("ana").ok("-c", "mordor", "session", "cosign")
	export := tb.ok("-c", "mordor", "export")
	return strings.Split(strings.TrimSpace(export), "\n")
}

// dataAt decodes the data of line i.
func dataAt(t *testing.T, lines []string, i int) (events.Event, map[string]any) {
	t.Helper()
	e, err := events.Decode([]byte(lines[i]))
	require.NoError(t, err)
	var d map[string]any
	require.NoError(t, json.Unmarshal(e.Data, &d))
	return e, d
}

// TestV2SessionTampering: tamper classes of co-signed session ends and void
// consents (and of the chain around them) on a CLI export, each caught by
// default 'replay --file' with a mismatch line naming the event. It adds to
// TestV2Tampering's classes, not repeating them.
func TestV2SessionTampering(t *testing.T) {
	tb := newV2Table(t)
	lines := tb.v2CosignedSession()
	other := strings.Repeat("ab", 32)

	// Untouched, it verifies with flags (exit 5): the voided roll, with
	// its roller's consent; both ends co-signed by both devices.
	path := writeExport(t, lines)
	out := tb.flagged("--lang", "en", "replay", "--file", path)
	require.Contains(t, out, "its roller ana consented (signature verified)", out)
	require.Contains(t, out, "end co-signed by 2 devices: gm (gm), ana (player)")
	require.NotContains(t, out, "MISMATCH")
	js, _, code := tb.run("--json", "replay", "--file", path)
	require.Equal(t, exitFlagged, code)
	var rep replay.Report
	require.NoError(t, json.Unmarshal([]byte(js), &rep))
	require.Len(t, rep.Sessions, 2)
	require.Equal(t, replay.FlagVoided, rep.Sessions[0].Flags[0].Code)
	require.Equal(t, "ana", rep.Sessions[0].Voided[0].ConsentBy)
	require.Len(t, rep.Sessions[0].Cosigned, 2)
	require.Equal(t, 1, rep.Totals.Flags)
	es := tb.flagged("--lang", "es", "replay", "--file", path)
	require.Contains(t, es, "AVISO  tirada")
	require.Contains(t, es, "quien tiró, ana, consintió (firma comprobada)")
	require.Contains(t, es, "OK con 1 aviso:")
	require.Contains(t, tb.ok("--lang", "en", "help", "exit-codes"), "5  flagged")
	// The stream is checked the same way (the stored bytes of each end).
	require.Contains(t, tb.flagged("--lang", "en", "-c", "mordor", "replay"), "end co-signed by 2 devices")
	require.Contains(t, tb.ok("--lang", "en", "-c", "mordor", "replay", "--reproduce"), "IDENTICAL:")

	cosign := func(nth int) int { return indexOf(t, lines, events.TypeSessionCosigned, nth) }
	anaS1, anaS2 := cosign(2), cosign(4) // the GM's co-signs first, at session end
	ended1 := indexOf(t, lines, events.TypeSessionEnded, 1)
	voidAt := indexOf(t, lines, events.TypeEventVoided, 1)
	_, gmCosign := dataAt(t, lines, cosign(1))
	_, anaS2Data := dataAt(t, lines, anaS2)
	_, voidData := dataAt(t, lines, voidAt)
	roll1 := idAt(t, lines, indexOf(t, lines, events.TypeRollMade, 1))
	reg := idAt(t, lines, indexOf(t, lines, events.TypeDeviceRegistered, 1))
	editAt := func(i int, change func(e *events.Event, d map[string]any)) []string {
		e, d := dataAt(t, lines, i)
		change(&e, d)
		var err error
		e.Data, err = json.Marshal(d)
		require.NoError(t, err)
		b, err := events.Encode(e)
		require.NoError(t, err)
		out := append([]string(nil), lines...)
		out[i] = string(b)
		return rechain(t, out)
	}
	editVoid := func(change func(d map[string]any)) func() ([]string, string) {
		return func() ([]string, string) {
			return editAt(voidAt, func(_ *events.Event, d map[string]any) { change(d) }), idAt(t, lines, voidAt)
		}
	}
	editCosign := func(i int, change func(e *events.Event, d map[string]any)) func() ([]string, string) {
		return func() ([]string, string) { return editAt(i, change), idAt(t, lines, i) }
	}

	tests := []tamperCase{
		{"a co-signature's hash outside the signed string", editCosign(anaS1, func(_ *events.Event, d map[string]any) { d["ended"] = other }),
			"the event's hash"},
		{"a co-signature's signed hash", editCosign(anaS1, func(_ *events.Event, d map[string]any) {
			d["signed"] = strings.Replace(d["signed"].(string), d["ended"].(string), other, 1)
			d["ended"] = other
		}), "bad signature"},
		{"a forged co-signature (another message's signature)", editCosign(anaS1, func(_ *events.Event, d map[string]any) {
			d["signature"] = gmCosign["signature"]
		}), "does not hold"},
		{"a co-signature of another session", editCosign(anaS1, func(_ *events.Event, d map[string]any) {
			d["signed"], d["signature"], d["ended"], d["ended_event"] = anaS2Data["signed"], anaS2Data["signature"], anaS2Data["ended"], anaS2Data["ended_event"]
		}), `session is "s2"`},
		{"a co-signature naming another session-ended event", editCosign(anaS1, func(_ *events.Event, d map[string]any) {
			d["ended_event"] = uuid.NewString()
		}), "names session-ended event"},
		{"a co-signature by a user with no key", editCosign(anaS1, func(e *events.Event, d map[string]any) {
			d["user"], e.Actor = "bea", "bea"
		}), "no registered key"},
		{"the session-ended event changed after its co-signatures", func() ([]string, string) {
			return editAt(ended1, func(e *events.Event, _ map[string]any) { e.Actor = "ana" }), idAt(t, lines, anaS1)
		}, "hashes to"},
		{"the session-ended line re-spaced (the same event, other bytes)", func() ([]string, string) {
			out := append([]string(nil), lines...)
			out[ended1] = "{ " + strings.TrimPrefix(out[ended1], "{")
			return out, idAt(t, lines, anaS1)
		}, "hashes to"},
		{"a second co-signature by the same user", func() ([]string, string) {
			e, _ := dataAt(t, lines, anaS1)
			e.ID = uuid.NewString()
			b, err := events.Encode(e)
			require.NoError(t, err)
			out := append(append(append([]string(nil), lines[:anaS1+1]...), string(b)), lines[anaS1+1:]...)
			return rechain(t, out), e.ID
		}, "a second time"},
		{"a co-signature moved before the end", func() ([]string, string) {
			out := append([]string(nil), lines[:ended1]...)
			out = append(out, lines[anaS1], lines[ended1])
			out = append(out, lines[ended1+1:anaS1]...)
			out = append(out, lines[anaS1+1:]...)
			return rechain(t, out), idAt(t, lines, anaS1)
		}, "has not ended before it"},
		{"a forged void consent", editVoid(func(d map[string]any) { d["consent_signature"] = gmCosign["signature"] }), "consent does not hold"},
		{"a consent for another event", editVoid(func(d map[string]any) { d["event_id"] = roll1 }), "the consent names event"},
		{"a consent's reason changed", editVoid(func(d map[string]any) { d["reason"] = "it was a bad roll" }), "is not the void's"},
		{"a consent's signed reason changed", editVoid(func(d map[string]any) {
			d["consent_signed"] = strings.Replace(d["consent_signed"].(string), voidData["reason"].(string), "it was a bad roll", 1)
			d["reason"] = "it was a bad roll"
		}), "bad signature"},
		{"a consent attributed to the GM", editVoid(func(d map[string]any) { d["consent_user"] = "gm" }), `the consent is "gm"'s`},
		{"a consent on the void of an event that is no roll", editVoid(func(d map[string]any) { d["event_id"] = reg }), "no journal-dice-v2 roll before it"},
		{"a dropped final roll", func() ([]string, string) {
			i := indexOf(t, lines, events.TypeRollMade, 3)
			out := append(append([]string(nil), lines[:i]...), lines[i+1:]...)
			return out, idAt(t, lines, i+1)
		}, "chain is broken"},
		{"a duplicated line", func() ([]string, string) {
			i := indexOf(t, lines, events.TypeRollMade, 1)
			out := append(append(append([]string(nil), lines[:i+1]...), lines[i]), lines[i+1:]...)
			return out, idAt(t, lines, i)
		}, "identical copy"},
	}
	requireTamperMismatches(t, tb.cli, tests)
	require.GreaterOrEqual(t, len(tests), 18)
}
