package natscmd_test

import (
	"context"
	"crypto/ed25519"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/access/natscmd"
	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/signed"
)

// TestDevicesOverNATS: over the NATS command service the GM registers a
// key of its own for bea (allowed); key-register, key-approve and
// key-revoke are attacked as each role and for someone else: nothing
// refused is recorded; bea revokes the host's key from her own device.
func TestDevicesOverNATS(t *testing.T) {
	w := newWorld(t)
	key := func(b byte) ed25519.PrivateKey { var s [32]byte; s[0] = b; return ed25519.NewKeyFromSeed(s[:]) }
	anaKey, beaKey, hostKey := key(1), key(2), key(9)
	conns := map[string]*client{}
	for _, u := range []string{"ana", "bea", "cai", "dov", "wall"} {
		conns[u] = w.connect(t, u, u+"-pw")
	}
	ask := func(user, cmd string, body any) (*natscmd.Reply, error) {
		ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
		defer cancel()
		return natscmd.Request(ctx, conns[user].nc, user, "mordor", cmd, body)
	}
	refused := func(user, cmd string, body any) error {
		ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
		defer cancel()
		done := make(chan error, 1)
		go func() {
			_, err := natscmd.Request(ctx, conns[user].nc, user, "mordor", cmd, body)
			done <- err
		}()
		for {
			select {
			case err := <-done:
				return err
			case e := <-conns[user].errs:
				if errors.Is(e, nats.ErrPermissionViolation) {
					return e
				}
			}
		}
	}
	ok := func(user, cmd string, body any) *natscmd.Reply {
		t.Helper()
		r, err := ask(user, cmd, body)
		require.NoError(t, err, "%s %s", user, cmd)
		return r
	}
	ok("ana", "key-register", command.RegisterKey{SignedMessage: device.MustRegister(anaKey, "mordor", "ana", "gm", "")})
	ok("ana", "key-register", command.RegisterKey{User: "bea", PublicKey: signed.PublicKeyOf(beaKey).String()})
	host := signed.PublicKeyOf(hostKey)
	r := ok("ana", "key-register", command.RegisterKey{User: "bea", PublicKey: host.String()})
	require.Equal(t, "journal.device.registered.v1", r.Recorded[0].Event.Type)

	rv := func(k ed25519.PrivateKey, user string, of signed.PublicKey, char string) command.RevokeDevice {
		s, err := device.Revoke(device.PrivateKey(k), "mordor", user, of, "not mine")
		require.NoError(t, err)
		return command.RevokeDevice{Character: char, SignedMessage: s}
	}
	ap := func(k ed25519.PrivateKey, user string, of signed.PublicKey, char string) command.ApproveDevice {
		return command.ApproveDevice{Character: char, SignedMessage: device.MustApprove(k, "mordor", user, of)}
	}
	anaPub, beaPub := signed.PublicKeyOf(anaKey), signed.PublicKeyOf(beaKey)
	caiKey := key(3)
	before := w.count(t)
	for _, tc := range []struct {
		name, user, cmd string
		body            any
		want            error
	}{
		{"a player registers a key", "bea", "key-register", command.RegisterKey{SignedMessage: device.MustRegister(caiKey, "mordor", "bea", "player", "")}, access.ErrDenied},
		{"the dashboard registers a key", "wall", "key-register", command.RegisterKey{User: "bea", PublicKey: signed.PublicKeyOf(caiKey).String()}, access.ErrDenied},
		{"another campaign's GM registers a key", "dov", "key-register", command.RegisterKey{User: "bea", PublicKey: signed.PublicKeyOf(caiKey).String()}, access.ErrDenied},
		{"a player revokes as another's character", "bea", "key-revoke", rv(beaKey, "bea", host, "lodin"), access.ErrDenied},
		{"the dashboard revokes", "wall", "key-revoke", rv(beaKey, "bea", host, "ruisenor"), access.ErrDenied},
		{"the dashboard approves", "wall", "key-approve", ap(beaKey, "bea", host, "ruisenor"), access.ErrDenied},
		{"a player approves the GM's device", "bea", "key-approve", ap(beaKey, "ana", anaPub, "ruisenor"), command.ErrInvalid},
		{"a player revokes the GM's device unsigned", "bea", "key-revoke", command.RevokeDevice{Character: "ruisenor", User: "ana", PublicKey: anaPub.String()}, command.ErrInvalid},
		{"the GM approves the host's key for bea with its own", "ana", "key-approve", ap(anaKey, "bea", host, "ruisenor"), command.ErrInvalid},
		{"the GM sends an approval signed by the host's key", "ana", "key-approve", ap(hostKey, "bea", beaPub, "ruisenor"), command.ErrInvalid},
	} {
		err := refused(tc.user, tc.cmd, tc.body)
		require.Error(t, err, tc.name)
		if errors.Is(tc.want, access.ErrDenied) {
			require.True(t, errors.Is(err, access.ErrDenied) || strings.Contains(err.Error(), "permission denied") ||
				errors.Is(err, nats.ErrPermissionViolation), "%s: %v", tc.name, err)
		} else {
			require.ErrorContains(t, err, tc.want.Error(), tc.name)
		}
		require.Equal(t, before, w.count(t), "%s: a refused command recorded something", tc.name)
	}
	r = ok("bea", "key-revoke", rv(beaKey, "bea", host, "ruisenor"))
	require.Equal(t, "journal.device.revoked.v1", r.Recorded[0].Event.Type)
	require.Equal(t, "bea", r.Recorded[0].Event.Actor)
}
