package command_test

import (
	"context"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
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
	res, err := tt.j.As("ana").Witness(ctx, arda, command.RollWitnessSigned{Character: "bilbo", SignedMessage: w})
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
