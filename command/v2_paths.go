package command

// The roll paths of journal-dice-v2, in one list (v2Paths), and where a
// roll's secret r comes from (v2Source).
//
// Invariants:
//   - A v2 request's path is the command its signed action names
//     (actionCommand); the recorded request is read back through the same
//     signed string, so the path of a request never depends on which
//     optional fields an event happens to carry.
//   - A path's draw is called only once r is established and checked: the
//     requester's reveal against its commitment, a witness's value, a
//     beacon round's signature; draw never reads r from anywhere else.
//   - A path that draws several rolls draws each from its own nonce of the
//     request (RollRequested.Taken), all with the same r.

import (
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/signed"
)

// v2Source is where a v2 roll's r came from, and the device message (if
// any) that gave it: what every roll event drawn with it records.
type v2Source struct {
	R [32]byte
	// Witness is "" for the requester's own reveal, the witnessing user
	// for a roll.witness, "beacon" for a drand round, "none" for an
	// unwitnessed GM roll (r from the server).
	Witness string
	// User, Signed and Signature are the device's roll.reveal or
	// roll.witness as sent (empty for the beacon and for "none").
	User, Signed, Signature string
	// Round and BeaconSignature are a beacon roll's round and its BLS
	// signature (hex), verified; r is SHA-256 of the signature.
	Round           uint64
	BeaconSignature string
	// WitnessIndex and Witnesses are a GM roll's of witness chains
	// (Witness WitnessChain): j and the values r combines.
	WitnessIndex int
	Witnesses    []events.GMWitness
}

// stamp writes the source into a v2 roll event drawn for request with
// the dice sides recorded.
func (src v2Source) stamp(e *events.RollMade, request string, sides []int) {
	e.Entropy = ""
	e.Request, e.Reveal, e.Witness, e.Draws = request, signed.Hex32(src.R).String(), src.Witness, sides
	e.User, e.Signed, e.Signature = src.User, src.Signed, src.Signature
	e.BeaconRound, e.BeaconSignature = src.Round, src.BeaconSignature
	e.WitnessIndex, e.Witnesses = src.WitnessIndex, src.Witnesses
}

// v2Path is one roll path of a v2 session.
type v2Path struct {
	// request judges the signed request r (its signature, requester and
	// id already checked by RequestRoll) and adds its roll.requested,
	// taking its nonces; it draws nothing.
	request func(j *Handler, d *draft, s *projections.Session, msg RollRequestSigned, r *signed.Request) error
	// draw draws the rolls of the recorded request q with src's r and adds
	// them and their consequences.
	draw func(d *draft, s *projections.Session, key dice.KeyV2, q events.RollRequested, src v2Source) error
	// rejudge, for a path that draws nothing (Hope re-judging a roll,
	// v2_tor.go), records the signed request's consequence at once: no
	// commitment, no nonce, no reveal. Such a path has no request or draw.
	rejudge func(j *Handler, d *draft, s *projections.Session, msg RollRequestSigned, r *signed.Request) error
}

// v2Paths lists every roll path a v2 session offers, by the command its
// action names. A command not listed is refused (ErrV2NotWired).
var v2Paths = map[string]v2Path{
	CommandRoll:   {request: (*Handler).requestSkillV2, draw: (*draft).drawSkillV2},
	CommandAttack: {request: (*Handler).requestAttackV2, draw: (*draft).drawAttackV2},
	// v2_contest.go, v2_initiative.go, v2_heal.go
	CommandContest:         {request: (*Handler).requestContestV2, draw: (*draft).drawContestV2},
	CommandCombatStart:     {request: (*Handler).requestInitiativeV2, draw: (*draft).drawInitiativeV2},
	CommandHealAfterCombat: {request: (*Handler).requestHealV2, draw: (*draft).drawHealV2},
	// The One Ring (v2_tor.go).
	CommandTORRoll: {request: (*Handler).requestTORV2, draw: (*draft).drawTORV2},
	CommandTORHope: {rejudge: (*Handler).hopeTORV2},
	// Free rolls and the GM's secret free rolls (v2_free.go).
	CommandFreeRoll: {request: (*Handler).requestFreeV2, draw: (*draft).drawFreeV2},
}

// requestCharacters are the characters a recorded request rolls for: the
// character of a roll, an attack or a healing; both sides of a contest;
// every participant of a combat start. A reveal names one of them (the
// permissions check it is the revealer's own).
func requestCharacters(q events.RollRequested) []string {
	switch {
	case q.Kind == KindContest:
		return []string{q.Character, q.B}
	case q.Kind == KindInitiative:
		return q.Participants
	}
	return []string{q.Character}
}

// CommandRoll is the command of a skill or attribute roll's action.
const CommandRoll = "roll"

// requestedCommand is the command of a recorded request's signed action.
func requestedCommand(q events.RollRequested) (string, error) {
	m, err := signed.Parse(q.Signed)
	if err != nil {
		return "", err
	}
	r, ok := m.(*signed.Request)
	if !ok {
		return "", invalid("recorded request %s is a %s", q.Request, m.Kind())
	}
	return actionCommand(r.Action), nil
}

// drawV2 draws the recorded request q with src's r through its path.
func (d *draft) drawV2(s *projections.Session, key dice.KeyV2, q events.RollRequested, src v2Source) error {
	cmd, err := requestedCommand(q)
	if err != nil {
		return err
	}
	p, ok := v2Paths[cmd]
	if !ok || p.draw == nil {
		return invalid("request %s: command %q has no journal-dice-v2 path", q.Request, clip.Text(cmd))
	}
	return p.draw(d, s, key, q, src)
}
