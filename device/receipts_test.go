package device_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/signed"
)

func cosignSeen(t *testing.T, seen *signed.Seen) string {
	t.Helper()
	var h signed.Hex32
	h[0] = 1
	s, err := signed.Encode(&signed.Cosign{Header: signed.Header{Campaign: "c", Session: "s", Seen: seen}, Ended: h})
	require.NoError(t, err)
	return s
}

func recs(lines ...string) []events.Recorded {
	var out []events.Recorded
	for i, l := range lines {
		out = append(out, events.Recorded{Seq: uint64(i + 1), Raw: []byte(l)})
	}
	return out
}

// The record a device is shown must extend every head it signed: a head
// rewritten is where the histories part, a head beyond the end is a cut,
// and a head found by its bytes at another sequence (a migrated campaign)
// is no alarm.
func TestCheckRecord(t *testing.T) {
	kept := []device.Receipt{{Campaign: "c", User: "ana", Signed: cosignSeen(t, signed.SeenOf(2, []byte("b")))}}
	require.Empty(t, device.CheckRecord(kept, device.Record{Events: recs("a", "b", "c")}))
	require.Empty(t, device.CheckRecord(kept, device.Record{Events: recs("x", "y", "a", "b")}), "found by hash at another sequence")

	al := device.CheckRecord(kept, device.Record{Events: recs("a", "B", "c")})
	require.Len(t, al, 1)
	require.Equal(t, device.AlarmHistory, al[0].Kind)
	require.Equal(t, "the journal's history differs from what this device signed at #2", al[0].Text)

	al = device.CheckRecord(kept, device.Record{Events: recs("a"), File: true})
	require.Len(t, al, 1)
	require.Equal(t, device.AlarmCut, al[0].Kind)
	require.Equal(t, "the file stops at #1, before #2 which this device signed after seeing: the export is cut", al[0].Text)

	require.Nil(t, device.CheckKey("ana", []string{"aa"}, []string{"bb", "aa"}))
	require.Nil(t, device.CheckKey("ana", []string{"cc", "aa"}, []string{"aa"}), "another of the device's keys")
	require.Nil(t, device.CheckKey("ana", nil, []string{"aa"}), "no key on this device")
	require.Equal(t, "the journal holds a key for ana that is not this device's", device.CheckKey("ana", []string{"aa"}, []string{"bb"}).Text)
}

// Receipts are kept in one private append-only file per campaign.
func TestReceiptStore(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "receipts")
	st := device.NewReceiptStore(dir)
	r := device.Receipt{Campaign: "c", User: "ana", PublicKey: "ab", Signed: "{}", Signature: "x", Time: time.Unix(5, 0).UTC()}
	require.NoError(t, st.Append(r))
	require.NoError(t, st.Append(r))
	got, err := st.Load("c")
	require.NoError(t, err)
	require.Equal(t, []device.Receipt{r, r}, got)
	fi, err := os.Stat(filepath.Join(dir, "c.jsonl"))
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	none, err := st.Load("d")
	require.NoError(t, err)
	require.Empty(t, none)
}
