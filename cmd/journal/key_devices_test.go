package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestKeyDevicesCLI: the GM who hosts registers its own key for ana
// (allowed, flagged, announced to ana on every command until she revokes
// it); ana registers a second device of her own (flagged until she
// approves it from the first); 'key devices' lists them all.
func TestKeyDevicesCLI(t *testing.T) {
	tb := newV2Table(t)
	// A key the host holds, in ana's name.
	tb.as("gm").ok("key", "new", "--name", "host")
	hostInfo := tb.ok("--json", "key", "show", "--name", "host")
	hostPub := jsonField(t, hostInfo, "public_key")
	hostFP := jsonField(t, hostInfo, "fingerprint")
	_, errb, code := tb.run("--lang", "en", "-c", "mordor", "key", "register", "ana", "--public-key", hostPub)
	require.Zero(t, code, errb)
	require.Contains(t, errb, "the audit flags it key-by-other, and ana is told")
	// ana is told on every command that reads the campaign: log, a roll.
	for _, args := range [][]string{{"log"}, {"key", "devices"}, {"character", "show", "lodin"}} {
		_, errb, code = tb.as("ana").run(append([]string{"--lang", "en", "-c", "mordor"}, args...)...)
		require.Zero(t, code, errb)
		require.Contains(t, errb, "WARNING: gm added a device to your name on", "journal %v", args)
		require.Contains(t, errb, hostFP)
	}
	_, errb, _ = tb.as("gm").run("--lang", "en", "-c", "mordor", "log")
	require.NotContains(t, errb, "WARNING: gm added a device", "only its user is told")
	require.Contains(t, tb.flagged("--lang", "en", "-c", "mordor", "replay"), "gm registered the player key "+hostFP+" for ana")
	// The Spanish words.
	_, errb, _ = tb.as("ana").run("--lang", "es", "-c", "mordor", "log")
	require.Contains(t, errb, "AVISO: gm añadió un dispositivo a tu nombre el")

	// ana revokes it from her own device: no more warning, and the list says so.
	tb.as("ana").ok("-c", "mordor", "key", "revoke", hostFP, "--reason", "not mine")
	_, errb, _ = tb.run("--lang", "en", "-c", "mordor", "log")
	require.NotContains(t, errb, "WARNING: gm added a device")
	list := tb.ok("--lang", "en", "-c", "mordor", "key", "devices")
	require.Contains(t, list, hostFP+"  registered by gm on ")
	require.Contains(t, list, "revoked by ana")

	// A second device of ana's: flagged until approved from the first.
	tb.ok("key", "new", "--name", "laptop")
	laptopFP := jsonField(t, tb.ok("--json", "key", "show", "--name", "laptop"), "fingerprint")
	_, errb, code = tb.run("--lang", "en", "-c", "mordor", "key", "register", "--name", "laptop", "--device-name", "laptop")
	require.Zero(t, code, errb)
	require.Contains(t, errb, "is flagged key-by-other until you approve it from another of your devices with 'journal key approve "+laptopFP+"'")
	out := tb.flagged("--lang", "en", "-c", "mordor", "replay")
	require.Contains(t, out, "never approved")
	_, errb, _ = tb.run("--lang", "en", "-c", "mordor", "log")
	require.Contains(t, errb, "WARNING: ana added a device to your name on")
	_, errb, code = tb.run("--lang", "en", "-c", "mordor", "key", "approve", laptopFP, "--name", "laptop")
	require.NotZero(t, code, "a device does not approve itself")
	require.Contains(t, errb, "cannot approve itself")
	tb.ok("-c", "mordor", "key", "approve", laptopFP)
	_, errb, _ = tb.run("--lang", "en", "-c", "mordor", "log")
	require.NotContains(t, errb, "WARNING")
	out = tb.flagged("--lang", "en", "-c", "mordor", "replay")
	require.NotContains(t, out, "never approved")
	require.Contains(t, out, "ana: device \"laptop\", fingerprint "+laptopFP+", registered by ana: approved by another of its devices")

	// ana's own key again, or the GM's: refused, never replaced.
	_, errb, code = tb.run("--lang", "en", "-c", "mordor", "key", "register")
	require.NotZero(t, code)
	require.Contains(t, errb, "is already registered to ana")
	// A player revokes nobody else's device.
	gmFP := ""
	for _, l := range strings.Split(list, "\n") {
		if strings.HasPrefix(l, "gm (gm)") {
			gmFP = strings.Fields(l)[3]
		}
	}
	require.NotEmpty(t, gmFP, list)
	_, errb, code = tb.run("--lang", "en", "-c", "mordor", "key", "revoke", gmFP)
	require.NotZero(t, code)
	require.Contains(t, errb, "only the GM revokes a device without signing it")
}

// jsonField is the string field name of the JSON object out.
func jsonField(t *testing.T, out, name string) string {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &m), out)
	s, _ := m[name].(string)
	require.NotEmpty(t, s, "%s in %s", name, out)
	return s
}
