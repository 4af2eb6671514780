package web

import (
	"crypto/ed25519"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/command/recordtest"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/replay"
	"github.com/campaign-journal/journal/signed"
)

// TestVerifiersContributionCommitment: both verifiers give one verdict on
// a contribution that names its session's seed commitment (verified), one
// replayed from another journal's session of the same ids and devices (a
// host's forgery, its chain re-forged: a mismatch naming the contribution)
// and one signed before the field existed (old format: verified as before).
func TestVerifiersContributionCommitment(t *testing.T) {
	node := nodeVerifier(t)
	anaKey, gmKey := ed25519.NewKeyFromSeed(make([]byte, 32)), ed25519.NewKeyFromSeed(append(make([]byte, 31), 2))
	hdr := signed.Header{Campaign: "mordor", Session: "s1"}
	seal := func(m signed.Message) command.SignedMessage {
		s, err := signed.Encode(m)
		require.NoError(t, err)
		return command.SignedMessage{Signed: s, Signature: signed.Sign(anaKey, s)}
	}
	// play exports a v2 session s1 of mordor with ana's contribution and
	// her roll (after a v1 session s0 when other: another seed for s1); it
	// returns the lines and the contribution's index.
	play := func(other bool) ([]string, int) {
		r := recordtest.New(t, "mordor")
		ctx, j, c := r.Ctx, r.J, r.Campaign
		aj := j.MustFor(command.Call{Actor: "ana"})
		r.Do("campaign", func() (command.Result, error) {
			return j.CreateCampaign(ctx, command.CreateCampaign{ID: c, System: "ryf"})
		})
		r.Do("lodin", func() (command.Result, error) {
			return j.CreateCharacter(ctx, c, command.CreateCharacter{ID: "lodin", Name: "Lodin", Player: "ana",
				Attributes: "F=8,R=7,D=9,I=8,P=8", Skills: "Pelea=5,Sigilo=3", Specialization: "Pelea"})
		})
		if other {
			r.Do("s0", func() (command.Result, error) { return j.StartSession(ctx, c, "s0", "") })
			r.Do("s0 roll", func() (command.Result, error) {
				return j.Roll(ctx, c, command.RollRequest{Character: "lodin", Skill: "Sigilo"})
			})
			r.Do("s0 end", func() (command.Result, error) { return j.EndSession(ctx, c) })
		}
		r.Do("gm key", func() (command.Result, error) {
			return j.RegisterKey(ctx, c, command.RegisterKey{SignedMessage: device.MustRegister(gmKey, c, "gm", command.RoleGM, "")})
		})
		r.Do("ana key", func() (command.Result, error) {
			return aj.RegisterKey(ctx, c, command.RegisterKey{SignedMessage: device.MustRegister(anaKey, c, "ana", command.RolePlayer, "")})
		})
		res := r.Do("start", func() (command.Result, error) {
			return j.StartSessionWith(ctx, c, command.SessionStart{ID: "s1", Dice: command.DiceV2})
		})
		var started events.SessionStarted
		require.NoError(t, res.Events[0].Event.DecodeData(&started))
		var commitment signed.Hex32
		require.NoError(t, commitment.UnmarshalText([]byte(started.Commitment)))
		r.Do("contribute", func() (command.Result, error) {
			return aj.Contribute(ctx, c, command.ContributeSigned{SignedMessage: seal(&signed.Contribute{Header: hdr, Value: signed.Hex32{0xaa}, Commitment: commitment})})
		})
		r.Do("end", func() (command.Result, error) { return j.EndSession(ctx, c) })
		lines := strings.Split(strings.TrimSuffix(string(r.Export()), "\n"), "\n")
		for i, l := range lines {
			if strings.Contains(l, `"type":"`+events.TypeSessionContributed+`"`) {
				return lines, i
			}
		}
		t.Fatal("no contribution")
		return nil, 0
	}
	// with is lines with the contribution at i made of m, the chain re-forged.
	with := func(lines []string, i int, m command.SignedMessage) []string {
		l := decodeLine(t, lines[i])
		l.d["signed"], l.d["signature"] = m.Signed, m.Signature
		out := append([]string(nil), lines...)
		out[i] = l.encode(t)
		return rechainLines(t, out)
	}
	a, at := play(false)
	b, bt := play(true)
	replayed := decodeLine(t, a[at]).d
	require.NotEqual(t, replayed["signed"], decodeLine(t, b[bt]).d["signed"], "two seeds")
	old := seal(&signed.Contribute{Header: hdr, Value: signed.Hex32{0xaa}})
	require.NotContains(t, old.Signed, "commitment")
	dir := t.TempDir()
	cases := []struct {
		name  string
		lines []string
		want  replay.Verdict
	}{
		{"bound", b, replay.VerdictFlagged}, // s0's, s1's: empty, no roll
		{"replayed", with(b, bt, command.SignedMessage{Signed: replayed["signed"].(string), Signature: replayed["signature"].(string)}), replay.VerdictMismatch},
		{"old-format", with(b, bt, old), replay.VerdictFlagged},
	}
	files := make([]string, len(cases))
	for i, c := range cases {
		files[i] = filepath.Join(dir, c.name+".jsonl")
		require.NoError(t, os.WriteFile(files[i], []byte(strings.Join(c.lines, "\n")+"\n"), 0o600))
	}
	js := runNodeVerifier(t, node, "en", files)
	contribution := decodeLine(t, b[bt]).ev.ID
	for i, c := range cases {
		want, rep := replayView(t, c.lines, i18n.EN)
		require.Equal(t, string(c.want), want.Verdict, "%s: replay", c.name)
		require.Empty(t, want.diff(js[files[i]].view()), "%s: verify.js disagrees with replay", c.name)
		named := false
		for _, s := range rep.Sessions {
			for _, m := range s.Mismatches {
				named = named || (m.EventID == contribution && strings.Contains(m.What, "replayed from another session"))
			}
		}
		require.Equal(t, c.name == "replayed", named, "%s: the contribution named as replayed", c.name)
	}
}
