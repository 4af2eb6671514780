package command_test

import (
	"context"
	"crypto/sha256"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/jetstore"
	"github.com/campaign-journal/journal/signed"
)

// cosign seals a session.cosign of session naming hash.
func (d device) cosign(t testing.TB, session string, hash [32]byte) command.CosignSigned {
	return command.CosignSigned{SignedMessage: d.seal(t, &signed.Cosign{Header: signed.Header{Campaign: "mordor", Session: session}, Ended: hash})}
}

// endedV2 plays s2 (one roll of ana's) and ends it; it returns the
// session-ended event as recorded and its stored bytes.
func endedV2(t *testing.T) (*command.Handler, *jetstore.Store, device, device, events.Recorded, []byte) {
	t.Helper()
	ctx := context.Background()
	j, st, ana, gm := setupV2(t)
	aj := j.MustFor(command.Call{Actor: "ana"})
	_, err := aj.Contribute(ctx, "mordor", ana.contribute(t, j, "s2", 0xaa))
	require.NoError(t, err)
	id, r := uuid.NewString(), secret(0x20)
	_, err = aj.RequestRoll(ctx, "mordor", ana.request(t, "s2", id, r, sigilo))
	require.NoError(t, err)
	_, err = aj.RevealRoll(ctx, "mordor", ana.reveal(t, "s2", id, r))
	require.NoError(t, err)
	res, err := j.EndSession(ctx, "mordor")
	require.NoError(t, err)
	js := st.(*jetstore.Store)
	b, err := js.StoredBytes(ctx, res.Events[0])
	require.NoError(t, err)
	return j, js, ana, gm, res.Events[0], b
}

// TestV2Cosign co-signs a v2 session's end by the hash of its
// session-ended event's stored bytes, and attacks the command: each
// refusal is one clear error and records nothing.
func TestV2Cosign(t *testing.T) {
	ctx := context.Background()
	j, st, ana, gm, ended, stored := endedV2(t)
	hash := sha256.Sum256(stored)
	h, err := events.EventHash(ended.Event)
	require.NoError(t, err)
	require.Equal(t, events.ChainHash(stored), h, "the journal hashes the stored bytes")
	aj := j.MustFor(command.Call{Actor: "ana"})
	bea := newDevice("bea", 3)

	// A v2 session still open, and the v1 session of setup.
	_, err = j.StartSessionWith(ctx, "mordor", command.SessionStart{ID: "s3", Dice: command.DiceV2})
	require.NoError(t, err)
	var wrong [32]byte
	wrong[0] = 1
	before := count(t, st)
	for _, tc := range []struct {
		name string
		j    *command.Handler
		msg  command.CosignSigned
		want string
	}{
		{"a wrong hash", aj, ana.cosign(t, "s2", wrong), "hashes to"},
		{"an unknown session", aj, ana.cosign(t, "s9", hash), "no session s9"},
		{"a session not ended", aj, ana.cosign(t, "s3", hash), "has not ended"},
		{"a v1 session", aj, ana.cosign(t, "s1", hash), "not journal-dice-v2"},
		{"an unregistered user", j.MustFor(command.Call{Actor: "bea"}), bea.cosign(t, "s2", hash), "no registered key"},
		{"another's signature", j.MustFor(command.Call{Actor: "gm"}), ana.cosign(t, "s2", hash), "signed message of gm"},
		{"a message of another type", aj, command.CosignSigned{SignedMessage: ana.seal(t, &signed.Contribute{
			Header: signed.Header{Campaign: "mordor", Session: "s2"}, Value: signed.Hex32{1}})}, "not a session.cosign"},
		{"an unknown character", aj, command.CosignSigned{Character: "nadie", SignedMessage: ana.cosign(t, "s2", hash).SignedMessage}, "nadie"},
	} {
		_, err := tc.j.Cosign(ctx, "mordor", tc.msg)
		require.ErrorContains(t, err, tc.want, tc.name)
		require.Equal(t, before, count(t, st), "%s: a refusal recorded something", tc.name)
	}

	res, err := aj.Cosign(ctx, "mordor", command.CosignSigned{Character: "lodin", SignedMessage: ana.cosign(t, "s2", hash).SignedMessage})
	require.NoError(t, err)
	ev := res.Events[0].Event
	require.Equal(t, events.TypeSessionCosigned, ev.Type)
	require.Equal(t, "s2", ev.Session, "the envelope names the co-signed session, not the one in progress")
	var d events.SessionCosigned
	require.NoError(t, ev.DecodeData(&d))
	require.Equal(t, events.SessionCosigned{User: "ana", Character: "lodin", Signed: d.Signed, Signature: d.Signature,
		Ended: events.ChainHash(stored), EndedEvent: ended.Event.ID}, d)

	before = count(t, st)
	_, err = aj.Cosign(ctx, "mordor", ana.cosign(t, "s2", hash))
	require.ErrorContains(t, err, "already co-signed")
	require.Equal(t, before, count(t, st))

	_, err = j.Cosign(ctx, "mordor", gm.cosign(t, "s2", hash))
	require.NoError(t, err, "the GM's device co-signs too")
}
