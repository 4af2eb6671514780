package demo

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"

	"github.com/google/uuid"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/signed"
)

// The demo played with journal-dice-v2 (the default): the GM and each
// player make a device key (a key file in a configuration folder of the
// demo's own, as the CLI's device package keeps them) and register it;
// each player's device contributes to the session key; a player's roll is
// a signed request and then the reveal of its secret r, from the player's
// own device; a GM's roll (the NPC's attacks, the initiative) is a request
// without commitment that a player's device witnesses; the players'
// devices co-sign the session's end. The verification then checks every
// signature, reveal, witness, draw, consequence, the chain and the
// co-signatures.
//
// Invariants: nothing the demo's devices send is made by the journal: each
// message is sealed with the sender's key and recorded as the sender (the
// journal's view As the user) under the catalogue's name of the command
// (so that `replay --reproduce` re-runs it), so the demo goes through the
// checks a real table does. With Options.Seeds set (tests) every r, witness value and
// contribution is read from it too, so that the story is fixed.

// gm is the user of the demo's GM device: a person's name, as the
// players' (the journal's own GM identity "gm" records the GM's other
// commands, which take no key).
const gm = "marta"

// devices are the demo's participants' device keys and journals.
type devices struct {
	d    step
	keys map[string]*device.Key
	// players are the users who play, in order; plays maps a character
	// to its player's user.
	players []string
	plays   map[string]string
	next    int // the player whose device witnesses the next GM roll
}

// newDevices makes the device keys of gm and of players (in the demo's
// configuration folder, Options.KeysDir) and registers them: the GM's
// first (its bootstrap), then each player's own.
func (d step) newDevices(plays map[string]string, players ...string) (*devices, error) {
	st := device.NewStore(filepath.Join(d.o.KeysDir, "keys"))
	dv := &devices{d: d, keys: map[string]*device.Key{}, players: players, plays: plays}
	for i, user := range append([]string{gm}, players...) {
		k, err := st.New(user, device.NewOptions{Rand: rand.Reader})
		if err != nil {
			return nil, err
		}
		dv.keys[user] = k
		role := command.RolePlayer
		if user == gm {
			role = command.RoleGM
		}
		title := ""
		if i == 0 {
			title = "demo.keys"
		}
		err = d.do(title, func() (command.Result, error) {
			reg, err := device.Register(k, d.campaign, user, role, "demo")
			if err != nil {
				return command.Result{}, err
			}
			return d.j.MustFor(command.Call{Actor: user, Command: "key-register"}).RegisterKey(d.ctx, d.campaign, command.RegisterKey{SignedMessage: reg})
		})
		if err != nil {
			return nil, err
		}
	}
	return dv, nil
}

// session returns the campaign's open session.
func (dv *devices) session() (*projections.Session, error) {
	c, err := dv.d.j.Load(dv.d.ctx, dv.d.campaign, 0)
	if err != nil {
		return nil, err
	}
	s := c.OpenSession()
	if s == nil {
		return nil, msgerr.Errorf("demo: no session in progress")
	}
	return s, nil
}

// header is the scope of a message for the open session s.
// Like every device the journal ships, the demo's say what they saw:
// seen is the campaign's latest event (Host.Seen).
func (dv *devices) header(s *projections.Session) signed.Header {
	h := signed.Header{Campaign: dv.d.campaign, Session: s.ID}
	if c, err := dv.d.j.Load(dv.d.ctx, dv.d.campaign, 0); err == nil {
		if seen, err := dv.d.o.Host.Seen(dv.d.ctx, dv.d.campaign, c.LastSeq); err == nil {
			h.Seen = seen
		}
	}
	return h
}

func (dv *devices) random32() (signed.Hex32, error) {
	var v signed.Hex32
	_, err := io.ReadFull(dv.d.rand(), v[:])
	return v, err
}

// start starts the v2 session id and has each player's device contribute.
func (dv *devices) start(id, title string) (command.Result, error) {
	ctx, j, campaign := dv.d.ctx, dv.d.j, dv.d.campaign
	all, err := j.StartSessionWith(ctx, campaign, command.SessionStart{ID: id, Title: title, Dice: command.DiceV2})
	if err != nil {
		return all, err
	}
	s, err := dv.session()
	if err != nil {
		return all, err
	}
	return dv.eachPlayer(all, func(user string) (command.Result, error) {
		v, err := dv.random32()
		if err != nil {
			return command.Result{}, err
		}
		var commitment signed.Hex32
		if err := commitment.UnmarshalText([]byte(s.Commitment)); err != nil {
			return command.Result{}, err
		}
		// With the device's witness chain for the session's GM rolls.
		msg, sig, err := dv.keys[user].Seal(dv.keys[user].Contribution(campaign, s.ID, v, commitment))
		if err != nil {
			return command.Result{}, err
		}
		return j.MustFor(command.Call{Actor: user, Command: "session-contribute"}).Contribute(ctx, campaign, command.ContributeSigned{Character: dv.characterOf(user),
			SignedMessage: command.SignedMessage{Signed: msg, Signature: sig}})
	})
}

// eachPlayer adds to all what f records for each player, in order; it
// stops at the first error.
func (dv *devices) eachPlayer(all command.Result, f func(user string) (command.Result, error)) (command.Result, error) {
	for _, user := range dv.players {
		res, err := f(user)
		if err != nil {
			return all, err
		}
		all.Events = append(all.Events, res.Events...)
	}
	return all, nil
}

// characterOf is a character user plays (for the permissions).
func (dv *devices) characterOf(user string) string {
	for ch, u := range dv.plays {
		if u == user {
			return ch
		}
	}
	return ""
}

// roll asks for character's roll with action (built on the open session):
// a player's character's roll is its player's request and reveal; any other
// is the GM's, witnessed by the next player's device.
func (dv *devices) roll(character string, action func(*projections.Session) (any, error)) (command.Result, error) {
	ctx, j, campaign := dv.d.ctx, dv.d.j, dv.d.campaign
	s, err := dv.session()
	if err != nil {
		return command.Result{}, err
	}
	act, err := action(s)
	if err != nil {
		return command.Result{}, err
	}
	actionJSON, err := json.Marshal(act)
	if err != nil {
		return command.Result{}, err
	}
	id, err := uuid.NewRandomFromReader(dv.d.rand())
	if err != nil {
		return command.Result{}, err
	}
	request := id.String()
	user, ok := dv.plays[character]
	if !ok {
		return dv.gmRoll(s, character, request, actionJSON)
	}
	r, err := dv.random32()
	if err != nil {
		return command.Result{}, err
	}
	commitment, err := dice.ParseHex32(dice.RevealCommitment(r))
	if err != nil {
		return command.Result{}, err
	}
	k := dv.keys[user]
	msg, sig, err := k.Seal(&signed.Request{Header: dv.header(s), Request: request, Commitment: commitment, Action: actionJSON})
	if err != nil {
		return command.Result{}, err
	}
	all, err := j.MustFor(command.Call{Actor: user, Command: "roll-request"}).RequestRoll(ctx, campaign, command.RollRequestSigned{Character: character,
		SignedMessage: command.SignedMessage{Signed: msg, Signature: sig}})
	if err != nil {
		return all, err
	}
	msg, sig, err = k.Seal(&signed.Reveal{Header: dv.header(s), Request: request, R: r})
	if err != nil {
		return all, err
	}
	res, err := j.MustFor(command.Call{Actor: user, Command: "roll-reveal"}).RevealRoll(ctx, campaign, command.RollRevealSigned{Character: character,
		SignedMessage: command.SignedMessage{Signed: msg, Signature: sig}})
	all.Events = append(all.Events, res.Events...)
	return all, err
}

// gmRoll records the GM's request (no commitment) for character and the
// witness of the next player's device: r of the GM's roll.
func (dv *devices) gmRoll(s *projections.Session, character, request string, action []byte) (command.Result, error) {
	ctx, j, campaign := dv.d.ctx, dv.d.j, dv.d.campaign
	msg, sig, err := dv.keys[gm].Seal(&signed.Request{Header: dv.header(s), Request: request, Action: action})
	if err != nil {
		return command.Result{}, err
	}
	all, err := j.MustFor(command.Call{Actor: gm, Command: "roll-request"}).RequestRoll(ctx, campaign, command.RollRequestSigned{Character: character,
		SignedMessage: command.SignedMessage{Signed: msg, Signature: sig}})
	if err != nil {
		return all, err
	}
	var index int
	for _, r := range all.Events {
		var q events.RollRequested
		if r.Event.Type == events.TypeRollRequested && r.Event.DecodeData(&q) == nil && q.Request == request {
			index = q.WitnessIndex
		}
	}
	if index == 0 {
		return all, msgerr.Errorf("demo: GM request %s has no witness index: the players' contributions have no witness chain", request)
	}
	// Every player's device witnesses with its chain's value for the
	// request, the next one first (the order does not count: r combines
	// them in contribution order); the last one in makes the roll.
	for k := range dv.players {
		witness := dv.players[(dv.next+k)%len(dv.players)]
		w, err := dv.keys[witness].Chain(campaign, s.ID, s.Commitment).Witness(request, index)
		if err != nil {
			return all, err
		}
		msg, sig, err := dv.keys[witness].Seal(w)
		if err != nil {
			return all, err
		}
		res, err := j.MustFor(command.Call{Actor: witness, Command: "roll-witness"}).Witness(ctx, campaign, command.RollWitnessSigned{Character: dv.characterOf(witness),
			SignedMessage: command.SignedMessage{Signed: msg, Signature: sig}})
		all.Events = append(all.Events, res.Events...)
		if err != nil {
			return all, err
		}
	}
	dv.next++
	return all, nil
}

// hope is the signed request of character's player spending 1 Hope on
// its latest roll (it draws nothing: no commitment, no reveal).
func (dv *devices) hope(character string) (command.Result, error) {
	ctx, j, campaign := dv.d.ctx, dv.d.j, dv.d.campaign
	s, err := dv.session()
	if err != nil {
		return command.Result{}, err
	}
	act, err := j.TORHopeActionFor(ctx, campaign, character)
	if err != nil {
		return command.Result{}, err
	}
	actionJSON, err := json.Marshal(act)
	if err != nil {
		return command.Result{}, err
	}
	id, err := uuid.NewRandomFromReader(dv.d.rand())
	if err != nil {
		return command.Result{}, err
	}
	user := dv.plays[character]
	msg, sig, err := dv.keys[user].Seal(&signed.Request{Header: dv.header(s), Request: id.String(), Action: actionJSON})
	if err != nil {
		return command.Result{}, err
	}
	return j.MustFor(command.Call{Actor: user, Command: "roll-request"}).RequestRoll(ctx, campaign, command.RollRequestSigned{Character: character,
		SignedMessage: command.SignedMessage{Signed: msg, Signature: sig}})
}

// end ends the session and has each player's device co-sign its end: the
// SHA-256 of the session-ended event's stored bytes, read from the store.
func (dv *devices) end() (command.Result, error) {
	ctx, j, campaign := dv.d.ctx, dv.d.j, dv.d.campaign
	s, err := dv.session()
	if err != nil {
		return command.Result{}, err
	}
	all, err := j.EndSession(ctx, campaign)
	if err != nil {
		return all, err
	}
	hash, err := dv.d.o.Host.EndedHash(ctx, campaign, s.ID)
	if err != nil {
		return all, err
	}
	return dv.eachPlayer(all, func(user string) (command.Result, error) {
		msg, sig, err := dv.keys[user].Seal(&signed.Cosign{Header: dv.header(s), Ended: hash})
		if err != nil {
			return command.Result{}, err
		}
		return j.MustFor(command.Call{Actor: user, Command: "session-cosign"}).Cosign(ctx, campaign, command.CosignSigned{Character: dv.characterOf(user),
			SignedMessage: command.SignedMessage{Signed: msg, Signature: sig}})
	})
}

// play is how the demo's rolls are made: journal-dice-v1's commands, or
// the devices of journal-dice-v2 (v2 != nil).
type play struct {
	d  step
	v2 *devices
}

func (p play) roll(req command.RollRequest) (command.Result, error) {
	if p.v2 == nil {
		return p.d.j.Roll(p.d.ctx, p.d.campaign, req)
	}
	return p.v2.roll(req.Character, func(s *projections.Session) (any, error) {
		c, err := p.d.j.Load(p.d.ctx, p.d.campaign, 0)
		if err != nil {
			return nil, err
		}
		if c.TOR != nil {
			return p.d.j.TORRollActionFor(p.d.ctx, p.d.campaign, req)
		}
		return p.d.j.RollActionFor(p.d.ctx, p.d.campaign, req)
	})
}

func (p play) contest(req command.ContestRequest) (command.Result, error) {
	if p.v2 == nil {
		return p.d.j.Contest(p.d.ctx, p.d.campaign, req)
	}
	return p.v2.roll(req.A, func(*projections.Session) (any, error) {
		return p.d.j.ContestActionFor(p.d.ctx, p.d.campaign, req)
	})
}

// startCombat is the GM's: in v2 its initiative is witnessed.
func (p play) startCombat(participants ...string) (command.Result, error) {
	if p.v2 == nil {
		return p.d.j.StartCombat(p.d.ctx, p.d.campaign, participants, "")
	}
	return p.v2.roll("", func(*projections.Session) (any, error) {
		return p.d.j.InitiativeActionFor(p.d.ctx, p.d.campaign, command.CombatStart{Participants: participants})
	})
}

func (p play) attack(req command.AttackRequest) (command.Result, error) {
	if p.v2 == nil {
		return p.d.j.Attack(p.d.ctx, p.d.campaign, req)
	}
	return p.v2.roll(req.Attacker, func(*projections.Session) (any, error) {
		return p.d.j.AttackActionFor(p.d.ctx, p.d.campaign, req)
	})
}

func (p play) heal(character string) (command.Result, error) {
	if p.v2 == nil {
		return p.d.j.HealAfterCombat(p.d.ctx, p.d.campaign, character, "")
	}
	return p.v2.roll(character, func(*projections.Session) (any, error) {
		return p.d.j.HealActionFor(p.d.ctx, p.d.campaign, character)
	})
}

func (p play) spendHope(character string) (command.Result, error) {
	if p.v2 == nil {
		return p.d.j.SpendHope(p.d.ctx, p.d.campaign, character, "")
	}
	return p.v2.hope(character)
}

func (p play) startSession(id, title string) (command.Result, error) {
	if p.v2 == nil {
		return p.d.j.StartSession(p.d.ctx, p.d.campaign, id, title)
	}
	return p.v2.start(id, title)
}

func (p play) endSession() (command.Result, error) {
	if p.v2 == nil {
		return p.d.j.EndSession(p.d.ctx, p.d.campaign)
	}
	return p.v2.end()
}

// title is the heading key of a step, its v2 variant when there is one.
func (p play) title(key string) string {
	if p.v2 == nil {
		return key
	}
	switch key {
	case "demo.session_end":
		return "demo.v2_session_end"
	case "demo.verification":
		return "demo.v2_verification"
	}
	return key
}

// startTitle prints the v2 session start's heading (with the
// algorithm's name) or returns the v1 key.
func (p play) startTitle() string {
	if p.v2 == nil {
		return "demo.session_start"
	}
	p.d.heading(p.d.o.Lang.T("demo.v2_session_start", dice.AlgorithmV2))
	return ""
}

// rollsTitle prints, in v2, how the rolls are made.
func (p play) rollsTitle() {
	if p.v2 != nil && !p.d.o.JSON {
		fmt.Fprintf(p.d.o.Out, "  %s\n", p.d.o.Lang.T("demo.v2_rolls"))
	}
}

// newPlay makes the demo's way of rolling: v2 makes and registers the
// device keys of the GM and of players (plays: character → user).
func (d step) newPlay(plays map[string]string, players ...string) (play, error) {
	p := play{d: d}
	if !d.o.V2 {
		return p, nil
	}
	dv, err := d.newDevices(plays, players...)
	if err != nil {
		return p, err
	}
	p.v2 = dv
	return p, nil
}
