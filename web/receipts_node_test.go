package web

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/signed"
)

// The browser's check of an export against a device's receipts
// (receipts.js checkFile, used by the offline verifier) reaches the same
// alarms, in the same words, as `journal replay --file F --receipts DIR`
// (device.CheckRecord): none on the genuine file, the sequence where the
// histories part on a file rewritten before a player's message (the chain
// re-forged), and a cut on a file that stops before the player's last head.
func TestReceiptsCheckNodeAgreesWithGo(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not installed: the JavaScript receipts check is not run")
	}
	b, err := os.ReadFile(filepath.Join(corpusDir, "genuine", "v2-ryf.jsonl"))
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	// The receipts of the player whose messages carry seen: its messages as
	// recorded (what its device kept).
	var kept []device.Receipt
	var user string
	lastHead := -1
	for _, l := range lines {
		e, err := events.Decode([]byte(l))
		require.NoError(t, err)
		var d struct {
			User   string `json:"user"`
			Signed string `json:"signed"`
		}
		_ = json.Unmarshal(e.Data, &d)
		m, err := signed.Parse(d.Signed)
		if d.Signed == "" || err != nil || m.Head().Seen == nil || (user != "" && d.User != user) || d.User == "gm" {
			continue
		}
		user = d.User
		kept = append(kept, device.Receipt{Campaign: e.Campaign, User: d.User, Signed: d.Signed})
	}
	if len(kept) == 0 {
		t.Skip("the genuine corpus carries no seen yet: regenerate it (JOURNAL_UPDATE_CORPUS=1 go test ./cmd/journal -run TestCorpusGenuineExports)")
	}
	m, _ := signed.Parse(kept[len(kept)-1].Signed)
	for i, l := range lines {
		if m.Head().Seen.Matches([]byte(l)) {
			lastHead = i
		}
	}
	require.Positive(t, lastHead)
	rewritten := slicesCloneRename(t, lines)
	cases := map[string][]string{"genuine": lines, "cut": lines[:lastHead], "rewritten": rewritten, "re-signed": reSigned(t, lines, user)}
	want := map[string][]string{"genuine": nil, "cut": {device.AlarmCut}, "rewritten": {device.AlarmHistory},
		"re-signed": {device.AlarmHistory, device.AlarmMessage}}

	dir := t.TempDir()
	var rc strings.Builder
	for _, k := range kept {
		b, _ := json.Marshal(k)
		rc.Write(b)
		rc.WriteByte('\n')
	}
	receipts := filepath.Join(dir, "receipts.jsonl")
	require.NoError(t, os.WriteFile(receipts, []byte(rc.String()), 0o600))
	for name, ls := range cases {
		var recs []events.Recorded
		for _, l := range ls {
			e, err := events.Decode([]byte(l))
			require.NoError(t, err)
			recs = append(recs, events.Recorded{Event: e, Raw: []byte(l)})
		}
		goAlarms := device.CheckRecord(kept, device.Record{Events: recs, File: true})
		var kinds, texts []string
		for _, a := range goAlarms {
			kinds = append(kinds, a.Kind)
			texts = append(texts, a.Text)
		}
		require.Equal(t, want[name], kinds, "%s: Go", name)

		file := filepath.Join(dir, name+".jsonl")
		require.NoError(t, os.WriteFile(file, []byte(strings.Join(ls, "\n")+"\n"), 0o600))
		script := `const fs = require("fs");
for (const f of ["static/dice.js", "static/signed.js", "static/receipts.js"]) (0, eval)(fs.readFileSync(f, "utf8"));
const R = globalThis.JournalReceipts;
const kept = R.parseJSONL(fs.readFileSync(process.argv[1], "utf8"));
const records = fs.readFileSync(process.argv[2], "utf8").split("\n").filter((l) => l).map((l) => ({ event: JSON.parse(l), line: l }));
R.checkFile(kept, records, "en").then((a) => console.log(JSON.stringify(a)), (e) => { console.error(e); process.exit(1); });`
		out, err := exec.Command(node, "-e", script, receipts, file).CombinedOutput()
		require.NoError(t, err, "%s", out)
		var js []device.Alarm
		require.NoError(t, json.Unmarshal(out, &js), "%s", out)
		var jsKinds, jsTexts []string
		for _, a := range js {
			jsKinds = append(jsKinds, a.Kind)
			jsTexts = append(jsTexts, a.Text)
		}
		require.Equal(t, kinds, jsKinds, "%s: receipts.js", name)
		require.Equal(t, texts, jsTexts, "%s: the same words", name)
	}
}

// slicesCloneRename renames the campaign in its first event and re-forges
// the chain, as the host would: every later line's bytes change.
func slicesCloneRename(t *testing.T, lines []string) []string {
	t.Helper()
	out := append([]string(nil), lines...)
	l := decodeLine(t, out[0])
	l.d["name"] = "rewritten"
	out[0] = l.encode(t)
	return rechainLines(t, out)
}

// reSigned replaces user's first roll request with another one for the same
// request id (as a host that re-keyed the player and signs for it would)
// and re-forges the chain.
func reSigned(t *testing.T, lines []string, user string) []string {
	t.Helper()
	out := append([]string(nil), lines...)
	for i := range out {
		l := decodeLine(t, out[i])
		if l.ev.Type != events.TypeRollRequested || l.d["user"] != user {
			continue
		}
		m, err := signed.Parse(l.d["signed"].(string))
		require.NoError(t, err)
		r := m.(*signed.Request)
		r.Commitment[0] ^= 1
		s, err := signed.Encode(r)
		require.NoError(t, err)
		l.d["signed"] = s
		out[i] = l.encode(t)
		return rechainLines(t, out)
	}
	t.Fatalf("no roll request of %s", user)
	return nil
}
