package command_test

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/replay"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/signed"
)

// torTable is a The One Ring campaign (setupTOR's arda) with a v2 session
// s2 and the devices of ana (bilbo), bea (thorin), carla (sam) and the GM.
type torTable struct {
	j    *command.Handler
	st   command.Store
	devs map[string]device // by user
	seed string            // s2's seed commitment
}

func setupTORV2(t *testing.T) *torTable {
	t.Helper()
	ctx := context.Background()
	j, st := openJournal(t, t.TempDir())
	setupTOR(t, j)
	_, err := j.EndSession(ctx, arda)
	require.NoError(t, err)
	tt := &torTable{j: j, st: st, devs: map[string]device{
		"ana": newDevice("ana", 11), "bea": newDevice("bea", 12), "carla": newDevice("carla", 13), "gm": newDevice("gm", 14)}}
	_, err = j.RegisterKey(ctx, arda, tt.devs["gm"].reg(arda, command.RoleGM))
	require.NoError(t, err)
	for _, u := range []string{"ana", "bea", "carla"} {
		_, err = j.MustFor(command.Call{Actor: u}).RegisterKey(ctx, arda, tt.devs[u].reg(arda, command.RolePlayer))
		require.NoError(t, err)
	}
	res, err := j.StartSessionWith(ctx, arda, command.SessionStart{ID: "s2", Dice: command.DiceV2})
	require.NoError(t, err)
	tt.seed = payload[*events.SessionStarted](t, res.Events[0]).Commitment
	var v signed.Hex32
	v[0] = 0xaa
	_, err = j.MustFor(command.Call{Actor: "ana"}).Contribute(ctx, arda, command.ContributeSigned{Character: "bilbo",
		SignedMessage: tt.devs["ana"].seal(t, &signed.Contribute{Header: signed.Header{Campaign: arda, Session: "s2"}, Value: v, Commitment: seedCommitment(t, j, arda, "s2")})})
	require.NoError(t, err)
	return tt
}

// sealAction seals a roll.request of user for action (any action object),
// with a commitment to r unless r is nil.
func (tt *torTable) sealAction(t *testing.T, user, id string, r *[32]byte, character string, action any) command.RollRequestSigned {
	t.Helper()
	b, err := json.Marshal(action)
	require.NoError(t, err)
	req := &signed.Request{Header: signed.Header{Campaign: arda, Session: "s2"}, Request: id, Action: b}
	if r != nil {
		c, err := dice.ParseHex32(dice.RevealCommitment(*r))
		require.NoError(t, err)
		req.Commitment = c
	}
	return command.RollRequestSigned{Character: character, SignedMessage: tt.devs[user].seal(t, req)}
}

func (tt *torTable) rollAction(ch, skill string, tn int, trait string) command.TORRollAction {
	return command.TORRollAction{Command: command.CommandTORRoll, SeedCommitment: tt.seed, Character: ch, Skill: skill, TN: tn, Trait: trait}
}

func (tt *torTable) hopeAction(ch, rollRequest string) command.TORHopeAction {
	return command.TORHopeAction{Command: command.CommandTORHope, SeedCommitment: tt.seed, Character: ch, RollRequest: rollRequest}
}

// roll asks for and reveals a TOR roll of user's character; it returns the
// request's id and the recorded events of the reveal.
func (tt *torTable) roll(t *testing.T, user string, a command.TORRollAction) (string, []events.Recorded) {
	t.Helper()
	ctx := context.Background()
	id := uuid.NewString()
	var r [32]byte
	_, err := rand.Read(r[:])
	require.NoError(t, err)
	uj := tt.j.MustFor(command.Call{Actor: user})
	_, err = uj.RequestRoll(ctx, arda, tt.sealAction(t, user, id, &r, a.Character, a))
	require.NoError(t, err)
	rev := tt.devs[user].seal(t, &signed.Reveal{Header: signed.Header{Campaign: arda, Session: "s2"}, Request: id, R: r})
	res, err := uj.RevealRoll(ctx, arda, command.RollRevealSigned{Character: a.Character, SignedMessage: rev})
	require.NoError(t, err)
	return id, res.Events
}

// rollUntilV2 rolls until ok holds (at most n rolls).
func (tt *torTable) rollUntilV2(t *testing.T, user string, a command.TORRollAction, n int, ok func(*events.RollMade) bool) (string, []events.Recorded) {
	t.Helper()
	for range n {
		id, evs := tt.roll(t, user, a)
		if ok(payload[*events.RollMade](t, evs[0])) {
			return id, evs
		}
	}
	t.Fatalf("no v2 roll of %s met the condition in %d rolls", a.Character, n)
	return "", nil
}

// verifyStore replays the whole store with the default checks.
func verifyStore(t *testing.T, st command.Store) replay.Report {
	t.Helper()
	src := replay.StoreSource(st.Read, events.Query{})
	rep, err := replay.Verify(context.Background(), src, replay.Options{Campaign: arda})
	require.NoError(t, err)
	return rep
}

// TestV2TORRollAndHope: a TOR roll is a signed request (one nonce) and a
// reveal drawing the feat die and the success dice from StreamV2 with v1's
// rules; Hope is spent on it by the roller's signed request, drawing
// nothing; a bout of madness comes with the roll that starts it; replay
// verifies it all by default.
func TestV2TORRollAndHope(t *testing.T) {
	ctx := context.Background()
	tt := setupTORV2(t)
	j := tt.j

	// Bilbo's Atención is 3, favoured; a failure at TN 18 takes Hope.
	hard := tt.rollAction("bilbo", "Atención", 18, "")
	id, evs := tt.rollUntilV2(t, "ana", hard, 100, failed)
	made := payload[*events.RollMade](t, evs[0])
	require.Equal(t, id, made.Request)
	require.Equal(t, []int{12, 6, 6, 6}, made.Draws)
	require.Equal(t, 3, made.Rank)
	require.True(t, made.Favoured)
	require.Equal(t, 18, made.TN)
	require.Equal(t, "ana", made.User)

	before := load(t, j).TOR.Characters["bilbo"].Hope
	hopeID := uuid.NewString()
	res, err := j.MustFor(command.Call{Actor: "ana"}).RequestRoll(ctx, arda, tt.sealAction(t, "ana", hopeID, nil, "bilbo", tt.hopeAction("bilbo", id)))
	require.NoError(t, err)
	require.Len(t, res.Events, 1)
	h := payload[*events.TORHopeSpent](t, res.Events[0])
	require.Equal(t, evs[0].Event.ID, h.Roll)
	require.Equal(t, id, h.RollRequest)
	require.Equal(t, hopeID, h.Request)
	require.Equal(t, "ana", h.User)
	require.Equal(t, 5, h.Bonus, "Atención is Cuerpo's, favoured: Cuerpo's favoured value")
	require.Equal(t, before-1, h.Hope)
	require.Equal(t, before-1, load(t, j).TOR.Characters["bilbo"].Hope)

	// A trait invoked before the roll is named by the roll's action.
	_, err = j.MustFor(command.Call{Actor: "ana"}).InvokeTrait(ctx, arda, command.TraitRequest{Character: "bilbo", Trait: "ladrón"})
	require.NoError(t, err)
	_, evs = tt.roll(t, "ana", tt.rollAction("bilbo", "Sigilo", 14, "Ladrón"))
	require.Equal(t, "Ladrón", payload[*events.RollMade](t, evs[0]).Trait)

	// Sam's Hope (1) below 5 Shadow: the Eye starts a bout of madness.
	_, err = j.GainShadow(ctx, arda, "sam", 5, "the dark")
	require.NoError(t, err)
	_, evs = tt.rollUntilV2(t, "carla", tt.rollAction("sam", "Curar", 14, ""), 400, func(r *events.RollMade) bool { return r.Eye })
	require.Len(t, evs, 2)
	require.Equal(t, events.TypeTORMadnessBegun, evs[1].Event.Type)
	require.Equal(t, evs[0].Event.ID, payload[*events.TORMadnessBegun](t, evs[1]).Roll)

	_, err = j.EndSession(ctx, arda)
	require.NoError(t, err)
	rep := verifyStore(t, tt.st)
	if !rep.OK() {
		var b strings.Builder
		_ = rep.WriteText(&b)
		t.Fatalf("verify:\n%s", b.String())
	}
}

// TestV2TORRefusals: each bad TOR request or Hope spend gets one clear
// error and records nothing.
func TestV2TORRefusals(t *testing.T) {
	ctx := context.Background()
	tt := setupTORV2(t)
	j := tt.j
	aj, bj := j.MustFor(command.Call{Actor: "ana"}), j.MustFor(command.Call{Actor: "bea"})
	// A failed roll of bilbo to spend Hope on, and a success of thorin.
	failedID, _ := tt.rollUntilV2(t, "ana", tt.rollAction("bilbo", "Atención", 20, ""), 100, failed)
	successID, _ := tt.rollUntilV2(t, "bea", tt.rollAction("thorin", "Guerrear", 10, ""), 100, succeeded)
	var r [32]byte
	r[0] = 7
	roll := func(user string, a any) func() error {
		return func() error {
			ch := "bilbo"
			if user == "bea" {
				ch = "thorin"
			}
			_, err := j.MustFor(command.Call{Actor: user}).RequestRoll(ctx, arda, tt.sealAction(t, user, uuid.NewString(), &r, ch, a))
			return err
		}
	}
	hope := func(user string, a command.TORHopeAction, commit bool) func() error {
		return func() error {
			var rp *[32]byte
			if commit {
				rp = &r
			}
			_, err := j.MustFor(command.Call{Actor: user}).RequestRoll(ctx, arda, tt.sealAction(t, user, uuid.NewString(), rp, a.Character, a))
			return err
		}
	}
	extra := map[string]any{"command": "tor-roll", "seed_commitment": tt.seed, "character": "bilbo", "skill": "Atención", "tn": 14, "trait": "", "favoured": true}
	noTN := map[string]any{"command": "tor-roll", "seed_commitment": tt.seed, "character": "bilbo", "skill": "Atención", "trait": ""}
	tests := []struct {
		name string
		run  func() error
		want string
	}{
		{"RyF's roll action in a TOR campaign", roll("ana", command.RollAction{Command: "roll", SeedCommitment: tt.seed, Character: "bilbo", Skill: "Atención"}), `action is "tor-roll"`},
		{"tn 0", roll("ana", tt.rollAction("bilbo", "Atención", 0, "")), "names its target number"},
		{"tn missing", roll("ana", noTN), "names its target number"},
		{"tn out of range", roll("ana", tt.rollAction("bilbo", "Atención", 100, "")), "a target number is"},
		{"an unknown member", roll("ana", extra), "unknown field"},
		{"a skill by its English alias", roll("ana", tt.rollAction("bilbo", "Awareness", 14, "")), "name it as the rules do"},
		{"an unknown skill", roll("ana", tt.rollAction("bilbo", "Volar", 14, "")), "Volar"},
		{"a trait the character lacks", roll("ana", tt.rollAction("bilbo", "Atención", 14, "Herrero")), "no trait"},
		{"a trait spelled otherwise", roll("ana", tt.rollAction("bilbo", "Atención", 14, "ladrón")), "name it as the sheet does"},
		{"another seed commitment", roll("ana", command.TORRollAction{Command: "tor-roll", SeedCommitment: "00", Character: "bilbo", Skill: "Atención", TN: 14}), "seed commitment"},
		{"a roll for another player's character", roll("bea", tt.rollAction("bilbo", "Atención", 14, "")), "the signed action for bilbo"},
		{"hope on a success", hope("bea", tt.hopeAction("thorin", successID), false), "success"},
		{"hope by another player", hope("bea", tt.hopeAction("bilbo", failedID), false), "only its roller spends Hope"},
		{"hope on another character's roll", hope("ana", tt.hopeAction("bilbo", successID), false), "no roll request"},
		{"hope with a commitment", hope("ana", tt.hopeAction("bilbo", failedID), true), "Hope draws nothing"},
		{"hope on an unknown request", hope("ana", tt.hopeAction("bilbo", uuid.NewString()), false), "no roll request"},
		{"hope by the GM", func() error {
			a := tt.hopeAction("bilbo", failedID)
			_, err := j.RequestRoll(ctx, arda, tt.sealAction(t, "gm", uuid.NewString(), nil, "bilbo", a))
			return err
		}, "only its roller spends Hope"},
		{"hope, another session's seed", hope("ana", command.TORHopeAction{Command: "tor-hope", SeedCommitment: "x", Character: "bilbo", RollRequest: failedID}, false), "seed commitment"},
		{"hope unsigned in a v2 session", func() error {
			_, err := aj.SpendHope(ctx, arda, "bilbo", "")
			return err
		}, "Hope is spent by its roller's signed request"},
		{"a v1 TOR roll in a v2 session", func() error {
			_, err := bj.Roll(ctx, arda, command.RollRequest{Character: "thorin", Skill: "Guerrear"})
			return err
		}, "not available in a journal-dice-v2 session"},
		{"a TOR attack", func() error {
			_, err := aj.RequestRoll(ctx, arda, tt.sealAction(t, "ana", uuid.NewString(), &r, "bilbo",
				command.AttackAction{Command: "attack", SeedCommitment: tt.seed, Character: "bilbo", Target: "orco", Weapon: "puños"}))
			return err
		}, "The One Ring attacks"},
	}
	before := count(t, tt.st)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.run()
			require.True(t, errors.Is(err, command.ErrInvalid) || errors.Is(err, command.ErrNotFound), "%v", err)
			require.ErrorContains(t, err, tc.want)
			require.Equal(t, before, count(t, tt.st), "nothing recorded")
		})
	}

	// Hope once, then the same request again, then a second Hope.
	hopeID := uuid.NewString()
	signedHope := tt.sealAction(t, "ana", hopeID, nil, "bilbo", tt.hopeAction("bilbo", failedID))
	_, err := aj.RequestRoll(ctx, arda, signedHope)
	require.NoError(t, err)
	before = count(t, tt.st)
	_, err = aj.RequestRoll(ctx, arda, signedHope)
	require.ErrorContains(t, err, "already")
	_, err = aj.RequestRoll(ctx, arda, tt.sealAction(t, "ana", uuid.NewString(), nil, "bilbo", tt.hopeAction("bilbo", failedID)))
	require.ErrorContains(t, err, "already")
	// A newer roll: Hope goes on the latest only.
	tt.roll(t, "ana", tt.rollAction("bilbo", "Sigilo", 14, ""))
	before = count(t, tt.st)
	_, err = aj.RequestRoll(ctx, arda, tt.sealAction(t, "ana", uuid.NewString(), nil, "bilbo", tt.hopeAction("bilbo", failedID)))
	require.ErrorContains(t, err, "latest roll")
	require.Equal(t, before, count(t, tt.st))
}

// TestV2TORRollInRyF: a tor-roll or tor-hope action in a RyF campaign is
// refused and records nothing.
func TestV2TORRollInRyF(t *testing.T) {
	ctx := context.Background()
	j, st, ana, _ := setupV2(t)
	before := count(t, st)
	for _, action := range []any{
		command.TORRollAction{Command: command.CommandTORRoll, SeedCommitment: commitmentOf["s2"], Character: "lodin", Skill: "Sigilo", TN: 14},
		command.TORHopeAction{Command: command.CommandTORHope, SeedCommitment: commitmentOf["s2"], Character: "lodin", RollRequest: uuid.NewString()},
	} {
		b, err := json.Marshal(action)
		require.NoError(t, err)
		req := &signed.Request{Header: signed.Header{Campaign: "mordor", Session: "s2"}, Request: uuid.NewString(), Action: b}
		if _, ok := action.(command.TORRollAction); ok {
			req.Commitment = signed.Hex32{1}
		}
		_, err = j.MustFor(command.Call{Actor: "ana"}).RequestRoll(ctx, "mordor", command.RollRequestSigned{Character: "lodin", SignedMessage: ana.seal(t, req)})
		require.ErrorIs(t, err, command.ErrInvalid)
		require.ErrorContains(t, err, "plays ryf")
		require.Equal(t, before, count(t, st))
	}
}
