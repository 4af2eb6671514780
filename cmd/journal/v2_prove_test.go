package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/signed"
)

// suppressedRequest is what the GM who hosts does to ana's roll: her
// device sends its signed request (r derived from her key, as 'journal
// roll' derives it), the host reads her reveal on its way and drops it
// (here: the reveal is never sent), and the GM cancels the request. It
// returns the session and the request's id.
func (tb *v2Table) suppressedRequest(skill string) (session, request string) {
	request = tb.pendingRequest(skill)
	tb.as("gm").ok("-c", "mordor", "roll", "cancel", request[:8], "--reason", "ana left the table")
	for _, e := range tb.events("mordor") {
		if e.Type == events.TypeSessionStarted {
			session = e.Session
		}
	}
	return session, request
}

// sessionFaces draws sides from the export's revealed seed and
// contributions for nonce and r with package dice alone: the check
// independent of the journal's own draw.
func sessionFaces(t *testing.T, lines []string, session string, nonce uint64, r [32]byte, sides []int) []int {
	t.Helper()
	var seed dice.Seed
	var contribs [][dice.ContributionSize]byte
	for _, l := range lines {
		e, err := events.Decode([]byte(l))
		require.NoError(t, err)
		if e.Session != session {
			continue
		}
		switch e.Type {
		case events.TypeSessionEnded:
			var d events.SessionEnded
			require.NoError(t, e.DecodeData(&d))
			seed, err = dice.ParseSeed(d.Seed)
			require.NoError(t, err)
		case events.TypeSessionContributed:
			var d events.SessionContributed
			require.NoError(t, e.DecodeData(&d))
			v, err := dice.ParseHex32(d.Value)
			require.NoError(t, err)
			contribs = append(contribs, v)
		}
	}
	st := dice.SessionKey(seed, "mordor", session, contribs).Stream("mordor", session, nonce, r)
	out := make([]int, len(sides))
	for i, n := range sides {
		f, err := st.Roll(n)
		require.NoError(t, err)
		out[i] = f
	}
	return out
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = fmt.Sprint(n)
	}
	return strings.Join(s, ", ")
}

// TestV2ProveSuppressedReveal: the host drops ana's reveal and cancels
// her request; 'journal roll prove' (a short id) records the roll it
// would have been, once, and replay flags cancelled-after-reveal with the
// faces the seed gives (drawn here independently).
func TestV2ProveSuppressedReveal(t *testing.T) {
	tb := newV2Table(t)
	tb.as("gm").ok("-c", "mordor", "session", "start", "--dice", "v2")
	tb.as("ana").ok("-c", "mordor", "session", "contribute")
	session, request := tb.suppressedRequest("Sigilo")

	out := tb.as("ana").ok("--lang", "en", "-c", "mordor", "roll", "prove", request[:8])
	require.Contains(t, out, "ana proved request "+request[:12]+"… (lodin), cancelled by gm: it would have been ")
	_, errb, code := tb.run("--lang", "en", "-c", "mordor", "roll", "prove", request[:8])
	require.NotEqual(t, 0, code)
	require.Contains(t, errb, "already proved")

	var proved events.RollProved
	for _, e := range tb.events("mordor") {
		if e.Type == events.TypeRollProved {
			require.NoError(t, e.DecodeData(&proved))
		}
	}
	require.Equal(t, request, proved.Request)
	require.Equal(t, "gm", proved.CancelledBy)

	tb.as("gm").ok("-c", "mordor", "session", "end")
	tb.as("ana").ok("-c", "mordor", "session", "cosign")
	lines := strings.Split(strings.TrimSpace(tb.ok("-c", "mordor", "export")), "\n")
	r := tb.anaKey().RevealSecret("mordor", session, "ana", request)
	faces := sessionFaces(t, lines, session, proved.Nonce, r, proved.Draws)
	require.Equal(t, faces, proved.Faces)
	rep := tb.flagged("--lang", "en", "replay", "--file", writeExport(t, lines))
	require.Contains(t, rep, fmt.Sprintf("ana proved request %s (nonce %d) cancelled by gm", request, proved.Nonce))
	require.Contains(t, rep, "it would have been "+joinInts(faces)+" → "+proved.Outcome)
	require.Contains(t, tb.flagged("--lang", "es", "replay", "--file", writeExport(t, lines)), "ana demostró la petición "+request)

	// The journal's proof with faces other than the seed's is a mismatch.
	bad, _ := editFirst(t, lines, events.TypeRollProved, func(map[string]any) bool { return true }, func(d map[string]any) {
		rolls := d["rolls"].([]any)
		f := rolls[0].(map[string]any)["faces"].([]any)
		f[0] = float64(int(f[0].(float64))%10 + 1)
		d["faces"] = f
	})
	out, _, code = tb.run("--lang", "en", "replay", "--file", writeExport(t, bad))
	require.Equal(t, 4, code, out)
	require.Contains(t, out, "proved roll 1 of request "+request+" records faces")
}

// TestV2ProveFile: the host will not record the proof; ana writes it to a
// file (nothing sent), and replay --file --proof flags it against the
// export with the first dice the seed gives; forged proofs are refused,
// one clear error each, and a proof of a recorded roll says so.
func TestV2ProveFile(t *testing.T) {
	tb := newV2Table(t)
	tb.as("gm").ok("-c", "mordor", "session", "start", "--dice", "v2")
	tb.as("ana").ok("-c", "mordor", "session", "contribute")
	session, request := tb.suppressedRequest("Sigilo")
	_, other := tb.suppressedRequest("Pelea")
	tb.as("ana").ok("-c", "mordor", "roll", "lodin", "Sigilo")
	dir := t.TempDir()
	proof := filepath.Join(dir, "proof.json")
	before := len(tb.events("mordor"))
	_, errb := tb.as("ana").okErr("--lang", "en", "-c", "mordor", "roll", "prove", request[:8], "--out", proof)
	require.Contains(t, errb, "proof of request "+request+" written to "+proof)
	require.Len(t, tb.events("mordor"), before, "--out sends nothing")

	var made string
	for _, e := range tb.events("mordor") {
		if e.Type == events.TypeRollMade {
			var d events.RollMade
			require.NoError(t, e.DecodeData(&d))
			made = d.Request
		}
	}
	madeProof := filepath.Join(dir, "made.json")
	tb.as("ana").okErr("-c", "mordor", "roll", "prove", made, "--out", madeProof)

	tb.as("gm").ok("-c", "mordor", "session", "end")
	tb.as("ana").ok("-c", "mordor", "session", "cosign")
	lines := strings.Split(strings.TrimSpace(tb.ok("-c", "mordor", "export")), "\n")
	export := writeExport(t, lines)
	r := tb.anaKey().RevealSecret("mordor", session, "ana", request)
	var nonce uint64
	for _, l := range lines {
		e, err := events.Decode([]byte(l))
		require.NoError(t, err)
		var d events.RollRequested
		if e.Type == events.TypeRollRequested && e.DecodeData(&d) == nil && d.Request == request {
			nonce = d.Nonce
		}
	}
	first := sessionFaces(t, lines, session, nonce, r, []int{10, 10, 10})

	out := tb.flagged("--lang", "en", "replay", "--file", export, "--proof", proof, "--proof", madeProof)
	require.Contains(t, out, fmt.Sprintf("proof file %s: ana's reveal of request %s (nonce %d), cancelled by gm", proof, request, nonce))
	require.Contains(t, out, "its first dice would have been "+joinInts(first))
	require.Contains(t, out, fmt.Sprintf("proof file %s: the roll of request %s was recorded", madeProof, made))
	require.Contains(t, tb.flagged("--lang", "es", "replay", "--file", export, "--proof", proof), "fichero de prueba "+proof)
	without := tb.flagged("--lang", "en", "replay", "--file", export)
	require.NotContains(t, without, "cancelled-after-reveal")
	require.NotContains(t, without, "ana's reveal of request")

	// Forgeries: each a clear error, exit 1.
	k := tb.anaKey()
	gmKey, err := device.NewStore(filepath.Join(tb.gmDir, "keys")).Load(device.DefaultName)
	require.NoError(t, err)
	write := func(name string, key *device.Key, req string, rv [32]byte) string {
		msg, sig, err := key.Seal(&signed.Reveal{Header: signed.Header{Campaign: "mordor", Session: session}, Request: req, R: signed.Hex32(rv)})
		require.NoError(t, err)
		b, err := json.Marshal(signed.Proof{Version: 1, Campaign: "mordor", Session: session, Request: req, User: "ana", Signed: msg, Signature: sig})
		require.NoError(t, err)
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, b, 0o600))
		return path
	}
	changed := r
	changed[0] ^= 1
	for _, c := range []struct{ path, want string }{
		{write("changed.json", k, request, changed), "does not open request " + request + "'s commitment"},
		{write("gmkey.json", gmKey, request, r), "does not hold under the key that signed request " + request},
		{write("another.json", k, other, r), "does not open request " + other + "'s commitment"},
		{write("unknown.json", k, uuid.NewString(), r), "is not in session " + session},
	} {
		out, errb, code := tb.run("--lang", "en", "replay", "--file", export, "--proof", c.path)
		require.Equal(t, exitMismatch, code, "%s: %s %s", c.path, out, errb)
		require.Contains(t, errb, "proof file "+c.path+": ", c.path)
		require.Contains(t, errb, c.want, c.path)
	}
	junk := filepath.Join(dir, "junk.json")
	require.NoError(t, os.WriteFile(junk, []byte(`{"version":1}`), 0o600))
	_, errb, code := tb.run("--lang", "en", "replay", "--file", export, "--proof", junk)
	require.NotEqual(t, 0, code)
	require.Contains(t, errb, "--proof "+junk+": malformed signed message: the proof has no \"campaign\"")
}

// provedSession plays the corpus's v2-proved export: a roll, a request
// the host suppressed (its reveal dropped, cancelled by the GM) proved by
// ana's device, another cancelled and not proved, one left unrevealed at
// the session's end and proved after it, the end co-signed.
func provedSession(t *testing.T) []string {
	tb := newV2Table(t)
	tb.as("gm").ok("-c", "mordor", "session", "start", "--dice", "v2")
	tb.as("ana").ok("-c", "mordor", "session", "contribute")
	tb.ok("-c", "mordor", "roll", "lodin", "Sigilo", "--vs", "media")
	_, proved := tb.suppressedRequest("Sigilo")
	tb.as("ana").ok("-c", "mordor", "roll", "prove", proved)
	tb.suppressedRequest("Pelea")
	late := tb.pendingRequest("Buscar")
	tb.as("gm").ok("-c", "mordor", "session", "end")
	tb.as("ana").ok("-c", "mordor", "session", "cosign")
	tb.ok("-c", "mordor", "roll", "prove", late)
	return strings.Split(strings.TrimSpace(tb.ok("-c", "mordor", "export")), "\n")
}

// pendingRequest is suppressedRequest without the cancellation: ana's
// request whose reveal the host dropped, left pending.
func (tb *v2Table) pendingRequest(skill string) string {
	t := tb.t
	var commitment, session string
	for _, e := range tb.events("mordor") {
		if e.Type == events.TypeSessionStarted {
			var d events.SessionStarted
			require.NoError(t, e.DecodeData(&d))
			commitment, session = d.Commitment, e.Session
		}
	}
	action, err := json.Marshal(command.RollAction{Command: "roll", SeedCommitment: commitment, Character: "lodin", Skill: skill, Vs: "media"})
	require.NoError(t, err)
	request := uuid.NewString()
	k := tb.anaKey()
	c, err := dice.ParseHex32(dice.RevealCommitment(k.RevealSecret("mordor", session, "ana", request)))
	require.NoError(t, err)
	msg, sig, err := k.Seal(&signed.Request{Header: signed.Header{Campaign: "mordor", Session: session}, Request: request, Commitment: c, Action: action})
	require.NoError(t, err)
	tb.as("ana").ok("-c", "mordor", "roll", "request", "--character", "lodin", "--signed", msg, "--signature", sig)
	return request
}

// TestV2ProveUnrevealedAtEnd: a request left unrevealed when the session
// ended is proved after the end, and replay flags it.
func TestV2ProveUnrevealedAtEnd(t *testing.T) {
	lines := provedSession(t)
	tb := &v2Table{cli: newCLI(t)}
	out := tb.flagged("--lang", "en", "replay", "--file", writeExport(t, lines))
	require.Contains(t, out, "left unrevealed at the session's end: it would have been ")
	require.Contains(t, out, ") cancelled by gm (event ")
	require.Equal(t, 2, strings.Count(out, "proved request"), out)
}
