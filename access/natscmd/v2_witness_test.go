package natscmd_test

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/nats-io/nats.go"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/access/natscmd"
	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/signed"
)

// TestV2GMRollsOverNATS attacks the GM-roll commands over the NATS command
// service as each role: the GM (ana) cannot witness its own roll nor
// resolve it before its wait; players cannot resolve, nor witness as
// another's character or another campaign's; the dashboard cannot do
// either; anonymous clients cannot sign in. Nothing refused is recorded;
// bea's witness draws the roll.
func TestV2GMRollsOverNATS(t *testing.T) {
	w := newWorld(t)
	key := func(b byte) ed25519.PrivateKey { var s [32]byte; s[0] = b; return ed25519.NewKeyFromSeed(s[:]) }
	anaKey, beaKey, caiKey := key(1), key(2), key(3)
	conns := map[string]*client{}
	for _, u := range []string{"ana", "bea", "cai", "dov", "wall"} {
		conns[u] = w.connect(t, u, u+"-pw")
	}
	ask := func(user, cmd string, body any) (*natscmd.Reply, error) {
		ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
		defer cancel()
		return natscmd.Request(ctx, conns[user].nc, user, "mordor", cmd, body)
	}
	// refused asks and returns the service's refusal, or the server's
	// permissions violation when it refused the publish (a GM command's
	// subject is not a player's nor a dashboard's), whichever comes first.
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
	ok("ana", "session-end", map[string]any{})
	ok("ana", "key-register", command.RegisterKey{SignedMessage: device.MustRegister(anaKey, "mordor", "ana", "gm", "")})
	ok("ana", "key-register", command.RegisterKey{User: "bea", PublicKey: signed.PublicKeyOf(beaKey).String()})
	ok("ana", "key-register", command.RegisterKey{User: "cai", PublicKey: signed.PublicKeyOf(caiKey).String()})
	r := ok("ana", "session-start", map[string]string{"id": "s2", "dice": "v2"})
	var started events.SessionStarted
	require.NoError(t, r.Recorded[0].Event.DecodeData(&started))
	hdr := signed.Header{Campaign: "mordor", Session: "s2"}
	seal := func(k ed25519.PrivateKey, m signed.Message) command.SignedMessage {
		s, err := signed.Encode(m)
		require.NoError(t, err)
		return command.SignedMessage{Signed: s, Signature: signed.Sign(k, s)}
	}
	action, err := json.Marshal(command.RollAction{Command: "roll", SeedCommitment: started.Commitment, Character: "orco", Skill: "Pelea"})
	require.NoError(t, err)
	id := uuid.NewString()
	ok("ana", "roll-request", command.RollRequestSigned{Character: "orco", Wait: 3600,
		SignedMessage: seal(anaKey, &signed.Request{Header: hdr, Request: id, Action: action})})
	witness := func(k ed25519.PrivateKey, char string) command.RollWitnessSigned {
		return command.RollWitnessSigned{Character: char, SignedMessage: seal(k, &signed.Witness{Header: hdr, Request: id, Value: signed.Hex32{0x77}})}
	}
	resolve := map[string]any{"request": id, "unwitnessed": true}
	before := w.count(t)
	for _, tc := range []struct {
		name, user, cmd string
		body            any
		want            error
	}{
		{"the GM witnesses its own roll", "ana", "roll-witness", witness(anaKey, "orco"), command.ErrInvalid},
		{"the GM resolves before the wait", "ana", "roll-resolve", resolve, command.ErrInvalid},
		{"a player resolves", "bea", "roll-resolve", resolve, access.ErrDenied},
		{"a player witnesses as another's character", "bea", "roll-witness", witness(beaKey, "lodin"), access.ErrDenied},
		{"a player witnesses with another's key", "cai", "roll-witness", witness(beaKey, "lodin"), command.ErrInvalid},
		{"another campaign's player witnesses", "dov", "roll-witness", witness(beaKey, "boromir"), access.ErrDenied},
		{"the dashboard witnesses", "wall", "roll-witness", witness(beaKey, "ruisenor"), access.ErrDenied},
		{"the dashboard resolves", "wall", "roll-resolve", resolve, access.ErrDenied},
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
	if nc, err := nats.Connect(w.url, nats.Name("anonymous"), nats.MaxReconnects(0)); err == nil {
		nc.Close()
		t.Fatal("an anonymous client signed in")
	}
	r = ok("bea", "roll-witness", witness(beaKey, "ruisenor"))
	var made events.RollMade
	require.NoError(t, r.Recorded[0].Event.DecodeData(&made))
	require.Equal(t, "bea", made.Witness)
	require.Equal(t, "bea", r.Recorded[0].Event.Actor)
	after := w.count(t)
	_, err = ask("cai", "roll-witness", witness(caiKey, "lodin"))
	require.ErrorContains(t, err, "the first witness wins")
	require.Equal(t, after, w.count(t))
}
