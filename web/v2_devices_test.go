package web_test

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/replay"
	"github.com/campaign-journal/journal/signed"
)

// TestDevicesOverHTTP: the GM who hosts registers a key of its own for
// bea over HTTP (allowed, flagged key-by-other by replay, announced to
// bea by GET /api/me); then key-approve and key-revoke are attacked as
// each role and anonymously, and for someone else: every refusal records
// nothing; bea revokes the host's key from her own device.
func TestDevicesOverHTTP(t *testing.T) {
	h := newAccessHarness(t)
	key := func(b byte) ed25519.PrivateKey { var s [32]byte; s[0] = b; return ed25519.NewKeyFromSeed(s[:]) }
	anaKey, beaKey, hostKey := key(1), key(2), key(9)
	js := func(v any) string { b, err := json.Marshal(v); require.NoError(t, err); return string(b) }
	post := func(token, name, body string, want int) {
		t.Helper()
		var hdr []string
		if token != "" {
			hdr = bearer(token)
		}
		r := h.do(http.MethodPost, "/api/campaigns/mordor/commands/"+name, body, hdr...)
		require.Equal(t, want, r.status, "%s %s: %s", name, body, r.body)
	}
	post(anaToken, "key-register", js(command.RegisterKey{SignedMessage: device.MustRegister(anaKey, "mordor", "ana", "gm", "")}), http.StatusOK)
	post(anaToken, "key-register", js(command.RegisterKey{User: "bea", PublicKey: signed.PublicKeyOf(beaKey).String()}), http.StatusOK)
	host := signed.PublicKeyOf(hostKey)
	post(anaToken, "key-register", js(command.RegisterKey{User: "bea", PublicKey: host.String(), Name: "lost phone"}), http.StatusOK)

	// Flagged by replay.
	rep, err := replay.Verify(context.Background(), replay.StoreSource(h.store.Read, events.Query{}), replay.Options{})
	require.NoError(t, err)
	var flagged []string
	for _, c := range rep.Campaigns {
		for _, f := range c.Flags {
			if f.Code == replay.FlagKeyByOther {
				flagged = append(flagged, f.What)
			}
		}
	}
	require.Contains(t, flagged[len(flagged)-1], "ana registered the player key "+host.Fingerprint()+" for bea")
	// Announced to bea, not to the GM.
	me := func(token string) []device.Announcement {
		var m struct {
			DevicesAdded []device.Announcement `json:"devices_added"`
		}
		h.do(http.MethodGet, "/api/me", "", bearer(token)...).json(t, &m)
		return m.DevicesAdded
	}
	added := me(beaToken)
	require.Len(t, added, 2, "bea's own key, registered by the GM, and the host's")
	require.Equal(t, host.Fingerprint(), added[1].Fingerprint)
	require.Equal(t, "ana", added[1].By)
	require.Empty(t, me(anaToken))

	approve := func(k ed25519.PrivateKey, user string, of signed.PublicKey, char string) string {
		return js(command.ApproveDevice{Character: char, SignedMessage: device.MustApprove(k, "mordor", user, of)})
	}
	revoke := func(k ed25519.PrivateKey, user string, of signed.PublicKey, char string) string {
		s, err := device.Revoke(device.PrivateKey(k), "mordor", user, of, "not mine")
		require.NoError(t, err)
		return js(command.RevokeDevice{Character: char, SignedMessage: s})
	}
	anaPub, beaPub := signed.PublicKeyOf(anaKey), signed.PublicKeyOf(beaKey)
	before := h.count(t)
	for _, tc := range []struct {
		name, token, command, body string
		want                       int
	}{
		{"anonymous approves", "", "key-approve", approve(beaKey, "bea", host, "ruisenor"), 401},
		{"anonymous revokes", "", "key-revoke", revoke(beaKey, "bea", host, "ruisenor"), 401},
		{"a dashboard approves", wallToken, "key-approve", approve(beaKey, "bea", host, "ruisenor"), 403},
		{"a dashboard revokes", wallToken, "key-revoke", revoke(beaKey, "bea", host, "ruisenor"), 403},
		{"a stranger revokes", zedToken, "key-revoke", revoke(beaKey, "bea", host, "ruisenor"), 403},
		{"a player acts for another's character", beaToken, "key-revoke", revoke(beaKey, "bea", host, "lodin"), 403},
		{"a player approves the GM's device", beaToken, "key-approve", approve(beaKey, "ana", anaPub, "ruisenor"), 400},
		{"a player revokes the GM's device unsigned", beaToken, "key-revoke", js(command.RevokeDevice{Character: "ruisenor", User: "ana", PublicKey: anaPub.String()}), 400},
		{"a player revokes the GM's device with its own signature", beaToken, "key-revoke", revoke(beaKey, "ana", anaPub, "ruisenor"), 400},
		{"the GM approves the host's key for bea with its own", anaToken, "key-approve", approve(anaKey, "bea", host, "ruisenor"), 400},
		{"the GM sends bea's approval signed by the host's key", anaToken, "key-approve", approve(hostKey, "bea", beaPub, "ruisenor"), 400},
		{"bea approves the host's key signed by the host's key itself", beaToken, "key-approve",
			js(command.ApproveDevice{Character: "ruisenor", SignedMessage: selfApproval(t, hostKey, "bea")}), 400},
	} {
		post(tc.token, tc.command, tc.body, tc.want)
		require.Equal(t, before, h.count(t), "%s: a refused request recorded something", tc.name)
	}
	// bea revokes the host's key from her own device: no longer announced.
	post(beaToken, "key-revoke", revoke(beaKey, "bea", host, "ruisenor"), http.StatusOK)
	added = me(beaToken)
	require.Len(t, added, 1)
	require.Equal(t, beaPub.Fingerprint(), added[0].Fingerprint)
}

// selfApproval is a device.approve of k's own key, signed by k.
func selfApproval(t *testing.T, k ed25519.PrivateKey, user string) command.SignedMessage {
	s, err := signed.Encode(&signed.DeviceApprove{Header: signed.Header{Campaign: "mordor"}, User: user, PublicKey: signed.PublicKeyOf(k).String()})
	require.NoError(t, err)
	return command.SignedMessage{Signed: s, Signature: signed.Sign(k, s)}
}
