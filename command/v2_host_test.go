package command_test

import (
	"context"
	"encoding/hex"
	"fmt"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/rules/dice"
)

// facesOf rolls lodin's Sigilo check (3d10) from a stream.
func facesOf(t *testing.T, st *dice.Stream) []int {
	var out []int
	for range 3 {
		f, err := st.Roll(10)
		require.NoError(t, err)
		out = append(out, f)
	}
	return out
}

// TestV2HostCannotPreviewAPlayersRoll is DESIGN §3.2's GM-host attack,
// scripted against a real journal on a data folder. Under v1 the host
// reads the seed from the data folder and previews the next nonce exactly
// (so it can burn it with an NPC roll when it is good for the player).
// Under v2 the host reads S and derives K, but the faces of ana's roll
// depend on ana's secret r, which the host learns only from the reveal,
// after the request and its nonce are recorded; it cannot burn a nonce
// with a GM roll, nor ask for a roll as ana.
func TestV2HostCannotPreviewAPlayersRoll(t *testing.T) {
	ctx := context.Background()
	j, st := openJournal(t, t.TempDir())
	setup(t, j) // a v1 session s1 is open

	// v1: the host's preview of the next nonce is the roll.
	seedKey, err := events.SecretKey("seed", "mordor", "s1")
	require.NoError(t, err)
	raw, err := st.GetSecret(ctx, seedKey)
	require.NoError(t, err)
	preview := facesOf(t, dice.NewStream(dice.Seed(raw), "mordor", "s1", 0, ""))
	res, err := j.Roll(ctx, "mordor", command.RollRequest{Character: "lodin", Skill: "Sigilo"})
	require.NoError(t, err)
	require.Equal(t, preview, payload[*events.RollMade](t, res.Events[0]).Faces[:3], "v1: the host previews the roll exactly")
	_, err = j.EndSession(ctx, "mordor")
	require.NoError(t, err)

	// v2.
	ana, gm := newDevice("ana", 1), newDevice("gm", 2)
	_, err = j.RegisterKey(ctx, "mordor", gm.reg("mordor", command.RoleGM))
	require.NoError(t, err)
	_, err = j.MustFor(command.Call{Actor: "ana"}).RegisterKey(ctx, "mordor", ana.reg("mordor", command.RolePlayer))
	require.NoError(t, err)
	res, err = j.StartSessionWith(ctx, "mordor", command.SessionStart{ID: "s2", Dice: command.DiceV2})
	require.NoError(t, err)
	commitmentOf = map[string]string{"s2": payload[*events.SessionStarted](t, res.Events[0]).Commitment}
	aj := j.MustFor(command.Call{Actor: "ana"})
	res, err = aj.Contribute(ctx, "mordor", ana.contribute(t, j, "s2", 0x5a))
	require.NoError(t, err)
	contribution, err := dice.ParseHex32(payload[*events.SessionContributed](t, res.Events[0]).Value)
	require.NoError(t, err)

	// The host reads S from the data folder and derives K.
	seedKey, err = events.SecretKey("seed", "mordor", "s2")
	require.NoError(t, err)
	raw, err = st.GetSecret(ctx, seedKey)
	require.NoError(t, err)
	k := dice.SessionKey(dice.Seed(raw), "mordor", "s2", [][32]byte{contribution})

	// It cannot burn a nonce with a roll of its own, nor ask as ana.
	_, err = j.RequestRoll(ctx, "mordor", gm.request(t, "s2", uuid.NewString(), secret(9), command.RollAction{Command: "roll", Character: "orco", Skill: "Pelea"}))
	require.ErrorContains(t, err, "a GM's request takes no commitment")
	_, err = j.RequestRoll(ctx, "mordor", ana.request(t, "s2", uuid.NewString(), secret(9), sigilo))
	require.ErrorContains(t, err, "bad signature")

	// ana's device asks: the nonce is fixed, r is not in the journal.
	r := secret(0x77)
	id := uuid.NewString()
	asked, err := aj.RequestRoll(ctx, "mordor", ana.request(t, "s2", id, r, sigilo))
	require.NoError(t, err)
	req := payload[*events.RollRequested](t, asked.Events[0])
	require.Equal(t, uint64(0), req.Nonce)
	b, err := events.Encode(asked.Events[0].Event)
	require.NoError(t, err)
	require.NotContains(t, string(b), hex.EncodeToString(r[:]), "the request records only r's commitment")

	// The host's previews of nonce 0 with K, one per guess of r: the faces
	// vary with r, so knowing K and the nonce previews nothing.
	seen := map[string]bool{}
	for g := range 64 {
		seen[fmt.Sprint(facesOf(t, k.Stream("mordor", "s2", req.Nonce, secret(byte(0x80+g)))))] = true
	}
	require.Greater(t, len(seen), 32, "the faces depend on r, which the host does not know")

	// The reveal, after the nonce is fixed: the faces are those of r.
	made, err := aj.RevealRoll(ctx, "mordor", ana.reveal(t, "s2", id, r))
	require.NoError(t, err)
	roll := payload[*events.RollMade](t, made.Events[0])
	require.Greater(t, made.Events[0].Seq, asked.Events[0].Seq)
	require.Equal(t, facesOf(t, k.Stream("mordor", "s2", req.Nonce, r)), roll.Faces[:3])
	require.Equal(t, req.Nonce, roll.Nonce)
	require.Equal(t, hex.EncodeToString(r[:]), roll.Reveal)
}
