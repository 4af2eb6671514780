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
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/signed"
)

// TestV2ProveOverNATS: the GM (ana, who hosts) drops bea's reveal and
// cancels her request; bea proves it over the NATS command service
// (roll-prove): journal.roll.proved.v1. Another player, another
// campaign's and the dashboard cannot prove it; a second proof is
// refused; nothing refused is recorded.
func TestV2ProveOverNATS(t *testing.T) {
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
	action, err := json.Marshal(command.RollAction{Command: "roll", SeedCommitment: started.Commitment, Character: "ruisenor", Skill: "Pelea"})
	require.NoError(t, err)
	id, rv := uuid.NewString(), [32]byte{0x42}
	c, err := dice.ParseHex32(dice.RevealCommitment(rv))
	require.NoError(t, err)
	ok("bea", "roll-request", command.RollRequestSigned{Character: "ruisenor",
		SignedMessage: seal(beaKey, &signed.Request{Header: hdr, Request: id, Commitment: c, Action: action})})
	reveal := command.RollRevealSigned{Character: "ruisenor", SignedMessage: seal(beaKey, &signed.Reveal{Header: hdr, Request: id, R: rv})}
	// The host read the reveal on its way and dropped it; the GM cancels.
	ok("ana", "roll-cancel", map[string]string{"request": id, "reason": "bea left"})
	before := w.count(t)
	for _, tc := range []struct {
		name, user string
		body       any
		want       error
	}{
		{"another player proves it as bea's character", "cai", reveal, access.ErrDenied},
		{"another player proves it with its own key", "cai", command.RollRevealSigned{Character: "lodin",
			SignedMessage: seal(caiKey, &signed.Reveal{Header: hdr, Request: id, R: rv})}, command.ErrInvalid},
		{"another campaign's player", "dov", reveal, access.ErrDenied},
		{"the dashboard", "wall", reveal, access.ErrDenied},
	} {
		err := refused(tc.user, "roll-prove", tc.body)
		require.Error(t, err, tc.name)
		if errors.Is(tc.want, access.ErrDenied) {
			require.True(t, errors.Is(err, access.ErrDenied) || strings.Contains(err.Error(), "permission denied") ||
				errors.Is(err, nats.ErrPermissionViolation), "%s: %v", tc.name, err)
		} else {
			require.ErrorContains(t, err, tc.want.Error(), tc.name)
		}
		require.Equal(t, before, w.count(t), "%s: a refused command recorded something", tc.name)
	}
	r = ok("bea", "roll-prove", reveal)
	require.Len(t, r.Recorded, 1)
	require.Equal(t, events.TypeRollProved, r.Recorded[0].Event.Type)
	var p events.RollProved
	require.NoError(t, r.Recorded[0].Event.DecodeData(&p))
	require.Equal(t, "ana", p.CancelledBy)
	require.Len(t, p.Faces, len(p.Draws))
	after := w.count(t)
	_, err = ask("bea", "roll-prove", reveal)
	require.ErrorContains(t, err, "already proved")
	require.Equal(t, after, w.count(t))
}
