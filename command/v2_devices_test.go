package command_test

import (
	"context"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	devkeys "github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/signed"
)

func (d device) approve(campaign string, of device) command.SignedMessage {
	return devkeys.MustApprove(d.priv, campaign, d.user, signed.PublicKeyOf(of.priv))
}

func (d device) revoke(t testing.TB, campaign string, of device, reason string) command.SignedMessage {
	s, err := devkeys.Revoke(devkeys.PrivateKey(d.priv), campaign, d.user, signed.PublicKeyOf(of.priv), reason)
	require.NoError(t, err)
	return s
}

func devicesOf(t *testing.T, j *command.Handler, user string) []string {
	c, err := j.Load(context.Background(), "mordor", 0)
	require.NoError(t, err)
	var out []string
	for _, d := range c.Participants[user].Devices {
		state := "active"
		switch {
		case d.Revoked:
			state = "revoked"
		case d.Approved:
			state = "approved"
		case d.ByOther(user):
			state = "by-other"
		}
		out = append(out, d.Fingerprint+" "+state)
	}
	return out
}

// TestDeviceRegisterProofOfPossession: a registration whose device.register
// is not signed by the key it registers is refused, whoever sends it; so is
// a key registered a second time (to anyone): nothing replaces a key.
func TestDeviceRegisterProofOfPossession(t *testing.T) {
	ctx := context.Background()
	j, _, ana, gm := setupV2(t)
	bea := newDevice("bea", 3)
	forged := bea.reg("mordor", command.RolePlayer)
	// The host signs bea's registration with its own key: no proof.
	forged.Signature = signed.Sign(gm.priv, forged.Signed)
	_, err := j.RegisterKey(ctx, "mordor", forged)
	require.ErrorContains(t, err, "the device.register does not hold")
	_, err = j.MustFor(command.Call{Actor: "bea"}).RegisterKey(ctx, "mordor", forged)
	require.ErrorContains(t, err, "the device.register does not hold")

	// The GM's own key registered again for ana, bare or signed: refused.
	_, err = j.RegisterKey(ctx, "mordor", command.RegisterKey{User: "ana", PublicKey: gm.pub()})
	require.ErrorContains(t, err, "is already registered to gm")
	_, err = j.MustFor(command.Call{Actor: "ana"}).RegisterKey(ctx, "mordor", command.RegisterKey{SignedMessage: devkeys.MustRegister(gm.priv, "mordor", "ana", "player", "")})
	require.ErrorContains(t, err, "is already registered to gm")
	// ana's key again: refused, not replaced.
	_, err = j.MustFor(command.Call{Actor: "ana"}).RegisterKey(ctx, "mordor", ana.reg("mordor", command.RolePlayer))
	require.ErrorContains(t, err, "is already registered to ana")
	// A bare key for oneself: refused (one's own device proves it holds its key).
	_, err = j.MustFor(command.Call{Actor: "bea"}).RegisterKey(ctx, "mordor", command.RegisterKey{PublicKey: bea.pub()})
	require.ErrorContains(t, err, "proof that you hold it")
}

// TestDeviceGMRegistersForPlayer: the GM who hosts registers its own key
// for a player (the lost-phone case): allowed, recorded with no proof and
// by the GM, so the audit flags it and the player is told.
func TestDeviceGMRegistersForPlayer(t *testing.T) {
	ctx := context.Background()
	j, _, ana, gm := setupV2(t)
	host := newDevice("ana", 77) // a key the host holds, in ana's name
	res, err := j.RegisterKey(ctx, "mordor", command.RegisterKey{User: "ana", PublicKey: host.pub(), Name: "lost phone"})
	require.NoError(t, err)
	var d events.DeviceRegistered
	require.NoError(t, res.Events[0].Event.DecodeData(&d))
	require.Equal(t, events.DeviceRegistered{User: "ana", Role: "player", Name: "lost phone", PublicKey: host.pub(),
		Fingerprint: signed.PublicKeyOf(host.priv).Fingerprint(), By: "gm"}, d)
	require.Equal(t, []string{
		signed.PublicKeyOf(ana.priv).Fingerprint() + " active",
		signed.PublicKeyOf(host.priv).Fingerprint() + " by-other",
	}, devicesOf(t, j, "ana"))
	// The host's key signs for ana until ana revokes it from her own device.
	_, err = j.MustFor(command.Call{Actor: "ana"}).RequestRoll(ctx, "mordor", host.request(t, "s2", uuid.NewString(), secret(1), sigilo))
	require.NoError(t, err)
	_, err = j.MustFor(command.Call{Actor: "ana"}).RevokeDevice(ctx, "mordor", command.RevokeDevice{SignedMessage: ana.revoke(t, "mordor", host, "not mine")})
	require.NoError(t, err)
	_, err = j.MustFor(command.Call{Actor: "ana"}).RequestRoll(ctx, "mordor", host.request(t, "s2", uuid.NewString(), secret(2), sigilo))
	require.ErrorContains(t, err, "bad signature", "a revoked device signs nothing")
	_ = gm
}

// TestDeviceSecondDevice: a player's second device is flagged until one of
// her devices approves it; both sign; an approval signed by another user's
// device, or by the device itself, is refused; a revoked one signs nothing.
func TestDeviceSecondDevice(t *testing.T) {
	ctx := context.Background()
	j, _, ana, gm := setupV2(t)
	aj := j.MustFor(command.Call{Actor: "ana"})
	ana2, ana3 := newDevice("ana", 9), newDevice("ana", 10)
	_, err := aj.RegisterKey(ctx, "mordor", ana2.reg("mordor", command.RolePlayer))
	require.NoError(t, err)
	fp := func(d device) string { return signed.PublicKeyOf(d.priv).Fingerprint() }
	require.Equal(t, []string{fp(ana) + " active", fp(ana2) + " by-other"}, devicesOf(t, j, "ana"))
	for _, d := range []device{ana, ana2} {
		_, err = aj.RequestRoll(ctx, "mordor", d.request(t, "s2", uuid.NewString(), secret(1), sigilo))
		require.NoError(t, err, "every active device of ana signs for her")
	}

	// An approval signed by another user's device (the GM's): refused.
	byGM := devkeys.MustApprove(gm.priv, "mordor", "ana", signed.PublicKeyOf(ana2.priv))
	_, err = aj.ApproveDevice(ctx, "mordor", command.ApproveDevice{SignedMessage: byGM})
	require.ErrorContains(t, err, "not signed by another active device of ana")
	_, err = j.ApproveDevice(ctx, "mordor", command.ApproveDevice{SignedMessage: byGM})
	require.ErrorContains(t, err, "gm may approve only its own devices")
	// By the device itself: refused.
	self, err := signed.Encode(&signed.DeviceApprove{Header: signed.Header{Campaign: "mordor"}, User: "ana", PublicKey: ana2.pub()})
	require.NoError(t, err)
	_, err = aj.ApproveDevice(ctx, "mordor", command.ApproveDevice{SignedMessage: command.SignedMessage{Signed: self, Signature: signed.Sign(ana2.priv, self)}})
	require.ErrorContains(t, err, "not signed by another active device of ana")
	// From her first device: approved.
	_, err = aj.ApproveDevice(ctx, "mordor", command.ApproveDevice{SignedMessage: ana.approve("mordor", ana2)})
	require.NoError(t, err)
	require.Equal(t, []string{fp(ana) + " active", fp(ana2) + " approved"}, devicesOf(t, j, "ana"))

	// A third, approved in the same append.
	reg := ana3.reg("mordor", command.RolePlayer)
	appr := ana2.approve("mordor", ana3)
	reg.Approval = &appr
	res, err := aj.RegisterKey(ctx, "mordor", reg)
	require.NoError(t, err)
	require.Len(t, res.Events, 2)
	require.Equal(t, events.TypeDeviceApproved, res.Events[1].Event.Type)

	// ana revokes her first device from the third.
	_, err = aj.RevokeDevice(ctx, "mordor", command.RevokeDevice{SignedMessage: ana3.revoke(t, "mordor", ana, "lost")})
	require.NoError(t, err)
	_, err = aj.RequestRoll(ctx, "mordor", ana.request(t, "s2", uuid.NewString(), secret(3), sigilo))
	require.ErrorContains(t, err, "bad signature")
	_, err = aj.RevokeDevice(ctx, "mordor", command.RevokeDevice{SignedMessage: ana.revoke(t, "mordor", ana2, "")})
	require.ErrorContains(t, err, "not signed by an active device of ana", "a revoked device revokes nothing")
}

// TestDeviceRevokeWho: a player revokes nobody else's device; the GM
// revokes any, unsigned.
func TestDeviceRevokeWho(t *testing.T) {
	ctx := context.Background()
	j, _, ana, gm := setupV2(t)
	_, err := j.MustFor(command.Call{Actor: "ana"}).RevokeDevice(ctx, "mordor", command.RevokeDevice{User: "gm", PublicKey: gm.pub()})
	require.ErrorContains(t, err, "only the GM revokes a device without signing it")
	_, err = j.MustFor(command.Call{Actor: "ana"}).RevokeDevice(ctx, "mordor", command.RevokeDevice{SignedMessage: ana.revoke(t, "mordor", gm, "")})
	require.ErrorContains(t, err, "ana has no device")
	_, err = j.RevokeDevice(ctx, "mordor", command.RevokeDevice{User: "ana", PublicKey: ana.pub(), Reason: "she asked"})
	require.NoError(t, err)
	require.Equal(t, []string{signed.PublicKeyOf(ana.priv).Fingerprint() + " revoked"}, devicesOf(t, j, "ana"))
}
