package command_test

import (
	"context"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/jetstore"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/signed"
)

// TestV2GMCannotGrindItsNPCRoll is the GM-host attack on its own NPC roll:
// the host reads S and knows K, so it could preview any r it chose. It
// cannot choose r: its request has no commitment (one with a commitment is
// refused, so it cannot reveal), it cannot witness, the witness's value is
// chosen on the player's device after the nonce is fixed, the first
// witness is final (no re-witness, no later resolution), and the only r
// the server draws is after the wait and recorded as unwitnessed.
func TestV2GMCannotGrindItsNPCRoll(t *testing.T) {
	ctx := context.Background()
	j, st, _, dev := setupGMRolls(t, nil)
	gm := dev["gm"]
	// The host derives K from S in its data folder.
	seedKey, err := events.SecretKey("seed", "mordor", "s2")
	require.NoError(t, err)
	raw, err := st.(*jetstore.Store).GetSecret(ctx, seedKey)
	require.NoError(t, err)
	camp, err := j.Load(ctx, "mordor", 0)
	require.NoError(t, err)
	contrib, err := dice.ParseHex32(camp.OpenSession().Contributions[0])
	require.NoError(t, err)
	k := dice.SessionKey(dice.Seed(raw), "mordor", "s2", [][32]byte{contrib})

	// The host grinds r's offline for the best face, then tries to use it.
	best, bestFace := secret(0), 0
	for g := range 64 {
		r := secret(byte(g))
		if f := facesOf(t, k.Stream("mordor", "s2", 0, r)); f[0] > bestFace {
			best, bestFace = r, f[0]
		}
	}
	id := uuid.NewString()
	before := count(t, st)
	_, err = j.RequestRoll(ctx, "mordor", gm.request(t, "s2", id, best, orcoPelea))
	require.ErrorContains(t, err, "a GM's request takes no commitment", "the GM cannot commit to its ground r")
	_, err = j.RequestRoll(ctx, "mordor", gm.gmRequest(t, "s2", id, 0, 60, orcoPelea))
	require.NoError(t, err)
	_, err = j.Witness(ctx, "mordor", gm.witness(t, "s2", id, best))
	require.ErrorContains(t, err, "never by a GM", "the GM cannot witness with its ground r")
	_, err = j.RevealRoll(ctx, "mordor", command.RollRevealSigned{SignedMessage: gm.seal(t, &signed.Reveal{
		Header: signed.Header{Campaign: "mordor", Session: "s2"}, Request: id, R: best})})
	require.ErrorContains(t, err, "takes a witness, not a reveal")
	_, err = j.ResolveUnwitnessed(ctx, "mordor", id)
	require.ErrorContains(t, err, "more", "the server's r only after the wait")
	require.Equal(t, before+1, count(t, st), "only the request is recorded")

	// bea's device witnesses with a value of its own: that is r, and the
	// faces are what K and bea's value give, not the host's choice.
	v := secret(0xb0)
	res, err := j.MustFor(command.Call{Actor: "bea"}).Witness(ctx, "mordor", dev["bea"].witness(t, "s2", id, v))
	require.NoError(t, err)
	roll := payload[*events.RollMade](t, res.Events[0])
	require.Equal(t, facesOf(t, k.Stream("mordor", "s2", 0, v)), roll.Faces[:3])
	// A second witness (ana's, perhaps better for the GM) cannot replace it.
	_, err = j.MustFor(command.Call{Actor: "ana"}).Witness(ctx, "mordor", dev["ana"].witness(t, "s2", id, best))
	require.ErrorContains(t, err, "the first witness wins")
	_, err = j.ResolveUnwitnessed(ctx, "mordor", id)
	require.ErrorContains(t, err, "already made")
}
