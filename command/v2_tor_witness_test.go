package command_test

import (
	"context"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/signed"
)

// TestV2TORGMRollWitnessed: in a The One Ring campaign the GM's roll (no
// commitment) is witnessed by a player's device naming its own TOR
// character, and the roll is drawn with the witness's value.
func TestV2TORGMRollWitnessed(t *testing.T) {
	ctx := context.Background()
	tt := setupTORV2(t)
	id := uuid.NewString()
	a := tt.rollAction("thorin", "Atletismo", 14, "")
	_, err := tt.j.RequestRoll(ctx, arda, tt.sealAction(t, "gm", id, nil, "thorin", a))
	require.NoError(t, err, "the GM asks for a roll without a commitment")
	w := tt.devs["ana"].seal(t, &signed.Witness{Header: signed.Header{Campaign: arda, Session: "s2"}, Request: id, Value: signed.Hex32{0xc0, 1}})
	res, err := tt.j.MustFor(command.Call{Actor: "ana"}).Witness(ctx, arda, command.RollWitnessSigned{Character: "bilbo", SignedMessage: w})
	require.NoError(t, err, "a TOR player's device witnesses the GM's roll")
	var made *events.RollMade
	for _, r := range res.Events {
		if r.Event.Type == events.TypeRollMade {
			made = payload[*events.RollMade](t, r)
		}
	}
	require.NotNil(t, made)
	require.Equal(t, "ana", made.Witness)
	require.Equal(t, signed.Hex32{0xc0, 1}.String(), made.Reveal)
	rep := verifyStore(t, tt.st)
	require.Zero(t, rep.Totals.Mismatches, "%+v", rep)
}

// TestV2TORGMRollFromChains: in a The One Ring session where a player's
// device (bea's) contributed a witness chain, the GM's roll records
// witness index 1 and is drawn from bea's chain value; ana, whose
// contribution has no chain, cannot witness it; replay verifies it.
func TestV2TORGMRollFromChains(t *testing.T) {
	ctx := context.Background()
	tt := setupTORV2(t)
	bea := tt.devs["bea"]
	commitment := seedCommitment(t, tt.j, arda, "s2")
	w := dice.DeviceWitnessSecret(bea.priv, arda, "s2", commitment.String())
	_, err := tt.j.MustFor(command.Call{Actor: "bea"}).Contribute(ctx, arda, command.ContributeSigned{Character: "thorin", SignedMessage: bea.seal(t, &signed.Contribute{
		Header: signed.Header{Campaign: arda, Session: "s2"}, Value: signed.Hex32{0xbb}, Commitment: commitment, WitnessAnchor: signed.Hex32(dice.WitnessAnchor(w))})})
	require.NoError(t, err)
	id := uuid.NewString()
	res, err := tt.j.RequestRoll(ctx, arda, tt.sealAction(t, "gm", id, nil, "thorin", tt.rollAction("thorin", "Atletismo", 14, "")))
	require.NoError(t, err)
	require.Equal(t, 1, payload[*events.RollRequested](t, res.Events[0]).WitnessIndex)
	v, err := dice.WitnessValue(w, 1)
	require.NoError(t, err)
	hdr := signed.Header{Campaign: arda, Session: "s2"}
	_, err = tt.j.MustFor(command.Call{Actor: "ana"}).Witness(ctx, arda, command.RollWitnessSigned{Character: "bilbo",
		SignedMessage: tt.devs["ana"].seal(t, &signed.Witness{Header: hdr, Request: id, Index: 1, Value: signed.Hex32{0xc0}})})
	require.ErrorContains(t, err, "contributed no witness chain")
	res, err = tt.j.MustFor(command.Call{Actor: "bea"}).Witness(ctx, arda, command.RollWitnessSigned{Character: "thorin",
		SignedMessage: bea.seal(t, &signed.Witness{Header: hdr, Request: id, Index: 1, Value: signed.Hex32(v)})})
	require.NoError(t, err)
	var made *events.RollMade
	for _, r := range res.Events {
		if r.Event.Type == events.TypeRollMade {
			made = payload[*events.RollMade](t, r)
		}
	}
	require.NotNil(t, made)
	require.Equal(t, command.WitnessChain, made.Witness)
	r := dice.CombineWitnesses([][32]byte{v})
	require.Equal(t, signed.Hex32(r).String(), made.Reveal)
	rep := verifyStore(t, tt.st)
	require.Zero(t, rep.Totals.Mismatches, "%+v", rep)
}
