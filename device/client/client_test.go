package client

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/signed"
)

// recs is a Reader over fixed events.
type recs []events.Recorded

func (rs recs) Read(_ context.Context, q events.Query, fn func(events.Recorded) error) error {
	for _, r := range rs {
		if (q.From == 0 || r.Seq >= q.From) && (q.To == 0 || r.Seq <= q.To) {
			if err := fn(r); err != nil {
				return err
			}
		}
	}
	return nil
}

// sent is one step a Client sent.
type sent struct {
	id, campaign, name string
	body               any
}

// testClient is a device of user with a key, its receipts in a temporary
// folder, the store st, and its steps and notices kept.
func testClient(t *testing.T, user string, st Reader) (*Client, *device.Key, device.ReceiptStore, *[]sent, *strings.Builder) {
	t.Helper()
	dir := t.TempDir()
	k, err := device.NewStore(dir+"/keys").New(device.DefaultName, device.NewOptions{Rand: rand.Reader})
	require.NoError(t, err)
	rs := device.NewReceiptStore(dir + "/receipts")
	var steps []sent
	var notes strings.Builder
	c := &Client{
		User: func() (string, error) {
			if user == "" {
				return "", device.ErrNoIdentity
			}
			return user, nil
		},
		Store:     func(context.Context) (Reader, error) { return st, nil },
		Receipts:  func() (device.ReceiptStore, error) { return rs, nil },
		Keys:      func() (device.Store, error) { return device.NewStore(dir + "/keys"), nil },
		RequestID: func() (string, error) { return "cli-1", nil },
		Send: func(_ context.Context, id, campaign, name string, body any) (command.Result, error) {
			steps = append(steps, sent{id, campaign, name, body})
			return command.Result{}, nil
		},
		Report: func(context.Context, string, ...command.Result) error { return nil },
		Warn:   func(format string, args ...any) { fmt.Fprintf(&notes, format+"\n", args...) },
		Lang:   "en",
		Err:    &notes,
		Text:   &notes,
	}
	return c, k, rs, &steps, &notes
}

// TestSealKeepsWhatItSigns: a sealed message says what the device saw
// (the event at lastSeq, by its stored bytes' hash) and is in the
// receipts before it is returned; without a user nothing is signed or
// kept.
func TestSealKeepsWhatItSigns(t *testing.T) {
	raw := []byte(`{"id":"e3"}`)
	st := recs{{Seq: 3, Raw: raw}}
	c, k, rs, _, _ := testClient(t, "ana", st)
	var told []string
	c.Signed = func(user string, _ *device.Key) { told = append(told, user) }
	m := &signed.Reveal{Header: signed.Header{Campaign: "mordor", Session: "s1"}, Request: "4f0c7a52-3e0b-5d7e-9b3a-2c1d0e9f8a7b", R: k.RevealSecret("mordor", "s1", "ana", "r")}
	msg, sig, err := c.Seal(context.Background(), "mordor", 3, k, m)
	require.NoError(t, err)
	require.Equal(t, k.Sign(msg), sig)
	want := signed.SeenOf(3, raw)
	require.Contains(t, msg, fmt.Sprintf(`"seen":{"seq":3,"hash":"%x"}`, want.Hash[:]), "the seal carries what the device saw")
	kept, err := rs.Load("mordor")
	require.NoError(t, err)
	require.Len(t, kept, 1)
	require.Equal(t, msg, kept[0].Signed)
	require.Equal(t, "ana", kept[0].User)
	require.Equal(t, []string{"ana"}, told)

	nobody, k2, rs2, _, _ := testClient(t, "", st)
	_, _, err = nobody.Seal(context.Background(), "mordor", 3, k2, m)
	require.ErrorIs(t, err, device.ErrNoIdentity)
	kept, err = rs2.Load("mordor")
	require.NoError(t, err)
	require.Empty(t, kept, "nothing signed, nothing kept")
}

// v2Camp is a campaign with an open v2 session, ana a player and gm its GM.
func v2Camp() (*projections.Campaign, *projections.Session) {
	camp := projections.NewCampaign("mordor")
	camp.Participants = map[string]*projections.Participant{
		"ana": {Role: command.RolePlayer}, "gm": {Role: command.RoleGM},
	}
	s := &projections.Session{ID: "s1", Algorithm: "journal-dice-v2", Commitment: strings.Repeat("ab", 32)}
	camp.Sessions = append(camp.Sessions, s)
	return camp, s
}

// TestRequestRevealIsTheSameForARetry: a player's roll is a request then
// its reveal, under the command's request id; r opens the request's
// commitment; the same command run again sends the very same messages.
func TestRequestRevealIsTheSameForARetry(t *testing.T) {
	camp, s := v2Camp()
	c, k, _, steps, notes := testClient(t, "ana", recs{})
	run := func() []sent {
		*steps = nil
		err := c.RequestReveal(context.Background(), Session{Campaign: "mordor", Key: k, Camp: camp, Session: s}, "lodin", GMRoll{},
			func() (any, error) { return map[string]any{"type": "roll", "character": "lodin"}, nil })
		require.NoError(t, err)
		return *steps
	}
	first := run()
	require.Len(t, first, 2)
	require.Equal(t, []string{"cli-1.request", "roll-request", "cli-1.reveal", "roll-reveal"},
		[]string{first[0].id, first[0].name, first[1].id, first[1].name})
	req := first[0].body.(command.RollRequestSigned)
	rev := first[1].body.(command.RollRevealSigned)
	require.Equal(t, "lodin", req.Character)
	var rq struct {
		Request, Commitment string
	}
	var rv struct{ Request, R string }
	require.NoError(t, json.Unmarshal([]byte(req.Signed), &rq))
	require.NoError(t, json.Unmarshal([]byte(rev.Signed), &rv))
	require.Equal(t, device.RequestID("mordor", "s1", "ana", "cli-1"), rq.Request)
	require.Equal(t, rq.Request, rv.Request)
	r, err := dice.ParseHex32(rv.R)
	require.NoError(t, err)
	require.Equal(t, dice.RevealCommitment(r), rq.Commitment, "r opens the request's commitment")
	require.Equal(t, k.RevealSecret("mordor", "s1", "ana", rq.Request), r, "r is what 'roll prove' re-derives from the recorded request")
	require.Contains(t, notes.String(), "WARNING: your reveal for request "+rq.Request, "a reveal the journal's answer lacks is told")
	require.Equal(t, first, run(), "a retry sends the same request and the same reveal")
}

// TestGMRollTakesAWitness: the GM's request has no commitment and no
// reveal: it waits (whole seconds) for a witness; a wait that is not
// whole seconds is a usage error and nothing is sent.
func TestGMRollTakesAWitness(t *testing.T) {
	camp, s := v2Camp()
	c, k, _, steps, notes := testClient(t, "gm", recs{})
	t0 := Session{Campaign: "mordor", Key: k, Camp: camp, Session: s}
	act := func() (any, error) { return map[string]any{"type": "roll"}, nil }
	err := c.RequestReveal(context.Background(), t0, "orc", GMRoll{Wait: 1500 * time.Millisecond}, act)
	require.ErrorIs(t, err, command.ErrUsage)
	var k1 msgerr.Keyed
	require.True(t, errors.As(err, &k1))
	require.Equal(t, "--wait %s: want whole seconds, at least 1s", k1.Key())
	require.Empty(t, *steps)
	require.NoError(t, c.RequestReveal(context.Background(), t0, "orc", GMRoll{Wait: time.Minute}, act))
	require.Len(t, *steps, 1)
	req := (*steps)[0].body.(command.RollRequestSigned)
	require.Equal(t, 60, req.Wait)
	require.NotContains(t, req.Signed, `"commitment"`)
	require.Contains(t, notes.String(), "ana", "the GM is told who may witness")
}

// TestActingCharacter: a command names the character the actor plays,
// else the first NPC, else the first character.
func TestActingCharacter(t *testing.T) {
	camp := projections.NewCampaign("mordor")
	camp.Roster = []string{"lodin", "orc", "gimli"}
	camp.Characters = map[string]*projections.Sheet{"lodin": {Player: "bea"}, "orc": {NPC: true}, "gimli": {Player: "Ana"}}
	require.Equal(t, "gimli", ActingCharacter(camp, "ana"))
	require.Equal(t, "orc", ActingCharacter(camp, "carla"))
	camp.Roster = []string{"lodin"}
	require.Equal(t, "lodin", ActingCharacter(camp, "carla"))
	require.Equal(t, "gimli", PlayedBy(camp, "ana", "lodin", "gimli"))
	require.Equal(t, "lodin", PlayedBy(camp, "carla", "lodin", "gimli"))
}
