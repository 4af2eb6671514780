package replay_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/replay"
	"github.com/campaign-journal/journal/signed"
)

// devicesCampaign records a campaign with the GM's and ana's own devices,
// each registered with its proof of possession, and returns the recorder
// and the keys.
func devicesCampaign(t *testing.T) (*recorder, map[string]ed25519.PrivateKey) {
	r := newRecorder(t, "mordor")
	ctx, j, c := r.Ctx, r.J, r.Campaign
	key := func(b byte) ed25519.PrivateKey { var s [32]byte; s[0] = b; return ed25519.NewKeyFromSeed(s[:]) }
	keys := map[string]ed25519.PrivateKey{"gm": key(2), "ana": key(1), "ana2": key(3), "host": key(66)}
	r.Do("campaign", func() (command.Result, error) {
		return j.CreateCampaign(ctx, command.CreateCampaign{ID: c, System: "ryf"})
	})
	r.Do("gm key", func() (command.Result, error) {
		return j.RegisterKey(ctx, c, command.RegisterKey{SignedMessage: device.MustRegister(keys["gm"], c, "gm", command.RoleGM, "laptop")})
	})
	r.Do("ana key", func() (command.Result, error) {
		return j.MustFor(command.Call{Actor: "ana"}).RegisterKey(ctx, c, command.RegisterKey{SignedMessage: device.MustRegister(keys["ana"], c, "ana", command.RolePlayer, "phone")})
	})
	return r, keys
}

func campaignFlags(t *testing.T, rep replay.Report) []string {
	t.Helper()
	var out []string
	for _, c := range rep.Campaigns {
		for _, f := range c.Flags {
			out = append(out, string(f.Code))
		}
	}
	return out
}

func verifyExport(t *testing.T, b []byte) replay.Report {
	t.Helper()
	rep, err := replay.Verify(context.Background(), replay.JSONLBytes(b), replay.Options{})
	require.NoError(t, err)
	return rep
}

// rechainExport recomputes every chained line's prevhash from the stored
// bytes of the line before, as a host re-forging a file would.
func rechainExport(t *testing.T, b []byte) []byte {
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	for i := 1; i < len(lines); i++ {
		e, err := events.Decode([]byte(lines[i]))
		require.NoError(t, err)
		if e.PrevHash == "" {
			continue
		}
		e.PrevHash = events.ChainHash([]byte(lines[i-1]))
		raw, err := events.Encode(e)
		require.NoError(t, err)
		lines[i] = string(raw)
	}
	return []byte(strings.Join(lines, "\n") + "\n")
}

// editExport changes the data of the first event of type typ for which
// change returns true, then re-forges the chain.
func editExport(t *testing.T, b []byte, typ string, change func(d map[string]any) bool) []byte {
	lines := bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n"))
	done := false
	for i, line := range lines {
		e, err := events.Decode(line)
		require.NoError(t, err)
		if e.Type != typ || done {
			continue
		}
		var d map[string]any
		require.NoError(t, json.Unmarshal(e.Data, &d))
		if !change(d) {
			continue
		}
		e.Data, err = json.Marshal(d)
		require.NoError(t, err)
		raw, err := events.Encode(e)
		require.NoError(t, err)
		lines[i], done = raw, true
	}
	require.True(t, done, "nothing to edit")
	return rechainExport(t, append(bytes.Join(lines, []byte("\n")), '\n'))
}

func mismatchesSay(rep replay.Report) string {
	var b strings.Builder
	for _, m := range rep.Mismatches {
		b.WriteString(m.What + "\n")
	}
	for _, s := range rep.Sessions {
		for _, m := range s.Mismatches {
			b.WriteString(m.What + "\n")
		}
	}
	return b.String()
}

// Genuine own devices: no flag, and the audit lists each with its
// fingerprint and who registered it.
func TestDevicesGenuine(t *testing.T) {
	r, keys := devicesCampaign(t)
	rep := verifyExport(t, r.Export())
	require.True(t, rep.OK(), "%s", mismatchesSay(rep))
	require.Empty(t, campaignFlags(t, rep))
	require.Equal(t, []replay.DeviceReport{
		{User: "ana", Role: "player", Name: "phone", Fingerprint: signed.PublicKeyOf(keys["ana"]).Fingerprint(), PublicKey: signed.PublicKeyOf(keys["ana"]).String(), By: "ana", EventID: rep.Campaigns[0].Devices[0].EventID, Proved: true},
		{User: "gm", Role: "gm", Name: "laptop", Fingerprint: signed.PublicKeyOf(keys["gm"]).Fingerprint(), PublicKey: signed.PublicKeyOf(keys["gm"]).String(), By: "gm", EventID: rep.Campaigns[0].Devices[1].EventID, Proved: true},
	}, rep.Campaigns[0].Devices)
	var text bytes.Buffer
	require.NoError(t, rep.WriteText(&text))
	require.Contains(t, text.String(), "ana: device \"phone\", fingerprint "+signed.PublicKeyOf(keys["ana"]).Fingerprint()+", registered by ana: active")
}

// The GM who hosts registers its own key for ana (the lost-phone case):
// allowed, and flagged key-by-other in the audit, from the store and from
// a file; revoking ana's own device is flagged revoked-by-other.
func TestDevicesGMRegistersForPlayer(t *testing.T) {
	r, keys := devicesCampaign(t)
	ctx, j, c := r.Ctx, r.J, r.Campaign
	host := signed.PublicKeyOf(keys["host"])
	r.Do("host key for ana", func() (command.Result, error) {
		return j.RegisterKey(ctx, c, command.RegisterKey{User: "ana", PublicKey: host.String()})
	})
	rep := verifyExport(t, r.Export())
	require.True(t, rep.OK(), "%s", mismatchesSay(rep))
	require.Equal(t, []string{"key-by-other"}, campaignFlags(t, rep))
	require.Contains(t, rep.Campaigns[0].Flags[0].What, host.Fingerprint())
	require.Contains(t, rep.Campaigns[0].Flags[0].What, "gm registered the player key")
	r.Do("gm revokes ana's phone", func() (command.Result, error) {
		return j.RevokeDevice(ctx, c, command.RevokeDevice{User: "ana", PublicKey: signed.PublicKeyOf(keys["ana"]).String(), Reason: "lost"})
	})
	rep = verifyExport(t, r.Export())
	require.True(t, rep.OK(), "%s", mismatchesSay(rep))
	require.Equal(t, []string{"revoked-by-other", "key-by-other"}, campaignFlags(t, rep), "users by name, devices in registration order")
}

// A second device of ana's is flagged until one of her devices approves it.
func TestDevicesSecondDeviceApproved(t *testing.T) {
	r, keys := devicesCampaign(t)
	ctx, aj, c := r.Ctx, r.J.MustFor(command.Call{Actor: "ana"}), r.Campaign
	r.Do("ana's laptop", func() (command.Result, error) {
		return aj.RegisterKey(ctx, c, command.RegisterKey{SignedMessage: device.MustRegister(keys["ana2"], c, "ana", command.RolePlayer, "laptop")})
	})
	rep := verifyExport(t, r.Export())
	require.Equal(t, []string{"key-by-other"}, campaignFlags(t, rep))
	require.Contains(t, rep.Campaigns[0].Flags[0].What, "never approved")
	r.Do("approved from the phone", func() (command.Result, error) {
		return aj.ApproveDevice(ctx, c, command.ApproveDevice{SignedMessage: device.MustApprove(keys["ana"], c, "ana", signed.PublicKeyOf(keys["ana2"]))})
	})
	rep = verifyExport(t, r.Export())
	require.True(t, rep.OK(), "%s", mismatchesSay(rep))
	require.Empty(t, campaignFlags(t, rep))
	require.True(t, rep.Campaigns[0].Devices[1].Approved)

	// The host forges the approval with its own key, chain re-forged: a mismatch.
	forged := editExport(t, r.Export(), events.TypeDeviceApproved, func(d map[string]any) bool {
		d["signature"] = signed.Sign(keys["gm"], d["signed"].(string))
		return true
	})
	require.Contains(t, mismatchesSay(verifyExport(t, forged)), "not signed by another active device of ana")
}

// A registration whose device.register does not hold under the key it
// registers is a mismatch (the host re-signed it with its own key, or
// dropped the proof of a user's own device), the chain re-forged.
func TestDevicesForgedRegistration(t *testing.T) {
	r, keys := devicesCampaign(t)
	reSigned := editExport(t, r.Export(), events.TypeDeviceRegistered, func(d map[string]any) bool {
		if d["user"] != "ana" {
			return false
		}
		d["signature"] = signed.Sign(keys["gm"], d["signed"].(string))
		return true
	})
	rep := verifyExport(t, reSigned)
	require.False(t, rep.OK())
	require.Contains(t, mismatchesSay(rep), "does not hold under the key it registers")

	// The host drops the proof of ana's own registration.
	unproved := editExport(t, r.Export(), events.TypeDeviceRegistered, func(d map[string]any) bool {
		if d["user"] != "ana" {
			return false
		}
		d["signed"], d["signature"] = "", ""
		return true
	})
	require.Contains(t, mismatchesSay(verifyExport(t, unproved)), "registered without its device.register")
}

// A message signed by a revoked device is a mismatch in a file: the host
// moves ana's revocation of her phone after a request the phone signed
// later (here: a contribution signed by the phone once revoked).
func TestDevicesRevokedDeviceSigns(t *testing.T) {
	r, keys := devicesCampaign(t)
	ctx, j, aj, c := r.Ctx, r.J, r.J.MustFor(command.Call{Actor: "ana"}), r.Campaign
	r.Do("ana's laptop", func() (command.Result, error) {
		return aj.RegisterKey(ctx, c, command.RegisterKey{SignedMessage: device.MustRegister(keys["ana2"], c, "ana", command.RolePlayer, "laptop")})
	})
	rv, err := device.Revoke(device.PrivateKey(keys["ana2"]), c, "ana", signed.PublicKeyOf(keys["ana"]), "lost")
	require.NoError(t, err)
	r.Do("phone revoked", func() (command.Result, error) {
		return aj.RevokeDevice(ctx, c, command.RevokeDevice{SignedMessage: rv})
	})
	res := r.Do("start", func() (command.Result, error) {
		return j.StartSessionWith(ctx, c, command.SessionStart{ID: "s1", Dice: command.DiceV2})
	})
	var started events.SessionStarted
	require.NoError(t, res.Events[0].Event.DecodeData(&started))
	contribute := func(k ed25519.PrivateKey) command.ContributeSigned {
		s, err := signed.Encode(&signed.Contribute{Header: signed.Header{Campaign: c, Session: "s1"}, Value: signed.Hex32{0xaa}, Commitment: hex32Of(t, started.Commitment)})
		require.NoError(t, err)
		return command.ContributeSigned{SignedMessage: command.SignedMessage{Signed: s, Signature: signed.Sign(k, s)}}
	}
	_, err = aj.Contribute(ctx, c, contribute(keys["ana"]))
	require.ErrorContains(t, err, "bad signature", "the journal refuses a revoked device's message")
	r.Do("contribute", func() (command.Result, error) { return aj.Contribute(ctx, c, contribute(keys["ana2"])) })
	rep := verifyExport(t, r.Export())
	require.True(t, rep.OK(), "%s", mismatchesSay(rep))

	// The host puts the revoked phone's signature on the contribution.
	forged := editExport(t, r.Export(), events.TypeSessionContributed, func(d map[string]any) bool {
		d["signature"] = signed.Sign(keys["ana"], d["signed"].(string))
		return true
	})
	rep = verifyExport(t, forged)
	require.False(t, rep.OK())
	require.Contains(t, mismatchesSay(rep), "does not hold under any of its 1 active devices")
}

// A legacy journal.participant.registered.v1 is read as a device without
// proof: flagged key-unproved, and it still replaces its user's key.
func TestDevicesLegacyRegistration(t *testing.T) {
	r, keys := devicesCampaign(t)
	legacy := editExport(t, r.Export(), events.TypeDeviceRegistered, func(d map[string]any) bool { return d["user"] == "ana" })
	lines := strings.Split(strings.TrimSuffix(string(legacy), "\n"), "\n")
	for i, line := range lines {
		e, err := events.Decode([]byte(line))
		require.NoError(t, err)
		if e.Type == events.TypeDeviceRegistered && strings.Contains(string(e.Data), `"user":"ana"`) {
			e.Type = events.TypeParticipantRegistered
			pub := signed.PublicKeyOf(keys["ana"])
			e.Data, err = json.Marshal(events.ParticipantRegistered{User: "ana", Role: "player", PublicKey: pub.String(), Fingerprint: pub.Fingerprint()})
			require.NoError(t, err)
			raw, err := events.Encode(e)
			require.NoError(t, err)
			lines[i] = string(raw)
		}
	}
	rep := verifyExport(t, rechainExport(t, []byte(strings.Join(lines, "\n")+"\n")))
	require.True(t, rep.OK(), "%s", mismatchesSay(rep))
	require.Equal(t, []string{"key-unproved"}, campaignFlags(t, rep))
}
