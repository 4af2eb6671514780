package command

// journal-dice-v2 (docs/design.md §3.2), the vertical slice: participants'
// keys, v2 sessions with signed contributions, and skill and attribute
// rolls asked for (a signed roll.request with a commitment to the device's
// secret r) before they are drawn (a signed roll.reveal of r).
//
// Invariants:
//   - Every event made from a device's message records the signed string
//     verbatim, its signature and the user, and is recorded only if the
//     signature verifies under the key registered for the user (the actor)
//     at that point of the stream, the message is for this campaign and
//     session, and its fields equal the event's.
//   - The journal never draws a v2 roll before its request and nonce are
//     recorded; the faces come from StreamV2(K, campaign, session, nonce, r)
//     with K = SessionKey(S, campaign, session, contributions in stream
//     order) and r the revealed secret, checked against the commitment.
//   - Contributions are refused once the session has a roll request, so K
//     is fixed before the first nonce is.
//   - Who may register which key: a user registers its own key as a player
//     (any actor, for itself); registering another user's key, or any key
//     with the role gm, is the GM's: a user registered with the role gm, or
//     the actor "gm" (the journal's own GM identity, the CLI's default)
//     unless a player of that name is registered. The first gm key may be
//     registered by its own user (bootstrap). Over HTTP and NATS the
//     catalogue makes key-register a GM command. A user may have several
//     devices; nothing replaces a registered key (v2_devices.go).
//   - The GM (who may know K) cannot reveal a roll of its own: its request
//     carries no commitment and its r comes from someone else: the first
//     player's roll.witness, a drand quicknet round named in the request, or,
//     after the wait the GM chose, the server, recorded as unwitnessed
//     (v2_witness.go). A GM's request with a commitment, and a player's
//     without one, are refused (a Hope spend draws nothing and takes none).
//   - In a v2 session only the paths of v2Paths are wired (skill and
//     attribute rolls; attacks with their damage, v2_attack.go; contests,
//     v2_contest.go; initiative, v2_initiative.go; healing after a combat,
//     v2_heal.go; The One Ring's rolls and Hope, v2_tor.go): every other
//     roll path is refused with one clear error, so no v1 draw enters a v2
//     session.

import (
	"context"
	"slices"
	"strings"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rolls"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/rules/ryf"
	"github.com/campaign-journal/journal/signed"
)

// Roles of registered participants.
const (
	RolePlayer = "player"
	RoleGM     = "gm"
)

// Dice algorithms a session may be started with (SessionStart.Dice).
const (
	DiceV1 = "v1"
	DiceV2 = "v2"
)

// ErrV2NotWired marks a roll path that journal-dice-v2 sessions do not
// offer yet. It wraps ErrInvalid.
var ErrV2NotWired = msgerr.Errorf("%w: not available in a journal-dice-v2 session yet", ErrInvalid)

// RegisterKey is a device key registration (v2_devices.go): a device's own
// device.register, signed by its key (SignedMessage; User, Role, Name and
// PublicKey, where given, must equal the signed ones), or, the GM's for
// someone else, a bare key: User (empty: the actor) with Role (player or
// gm; empty: player), Name and PublicKey (64 lower-case hex). Approval is
// a device.approve of the new key signed by another device of its user.
type RegisterKey struct {
	// Character is one of the acting player's characters, for the
	// permissions of a player registering its own key over HTTP or NATS
	// (the GM names none); the command does not read it.
	Character string `json:"character" help:"one of your characters, for the permissions of a player over NATS or HTTP (default: yours in the campaign)"`
	User      string `json:"user,omitempty" cli:"[USER]"`
	Role      string `json:"role,omitempty" cli:"--role player|gm" help:"player or gm (default: player; gm for the GM's own key)"`
	Name      string `json:"name,omitempty" cli:"--device-name NAME" help:"what the device is, as the audit lists it (laptop, phone)"`
	PublicKey string `json:"public_key,omitempty" cli:"--public-key HEX" help:"the user's public key: 64 hex digits, as 'journal key show' prints it"`
	SignedMessage
	Approval *SignedMessage `json:"approval,omitempty" cli:"-"`
}

// isGM reports whether the journal's actor acts as the campaign's GM: a
// user registered with the role gm, or the journal's own GM identity "gm"
// (the CLI's default actor) unless a player of that name is registered.
func (j *Handler) isGM(c *projections.Campaign) bool {
	if j.player {
		return false // authenticated as a player by the caller (Call.Player)
	}
	if p := c.Participants[j.actor]; p != nil {
		return p.Role == RoleGM
	}
	return j.actor == "gm"
}

// hasGMKey reports whether any user is registered with the role gm.
func hasGMKey(c *projections.Campaign) bool {
	for _, p := range c.Participants {
		if p.Role == RoleGM {
			return true
		}
	}
	return false
}

// SessionStart starts a session (StartSessionWith).
type SessionStart struct {
	ID    string `json:"id,omitempty" cli:"[ID]"`
	Title string `json:"title,omitempty" cli:"--title T" help:"the session's title"`
	// Dice is v1 (journal-dice-v1), v2 (journal-dice-v2), or empty: the
	// campaign's default (DefaultDice).
	Dice string `json:"dice,omitempty" cli:"--dice V" help:"v1 or v2 (journal-dice-v2); default: v2 when the campaign has a registered device key, else v1 (refused once it has one)"`
}

// DefaultDice is the dice algorithm a session started without an explicit
// choice uses in campaign c (docs/design.md §3.2: new sessions use v2 by
// default): DiceV2 once any device key (a player's or the GM's) is
// registered, since such a campaign refuses v1 sessions (no downgrade,
// §3.3), else DiceV1.
func DefaultDice(c *projections.Campaign) string {
	if c != nil && len(c.Participants) > 0 {
		return DiceV2
	}
	return DiceV1
}

// StartSessionWith is StartSession with the dice algorithm chosen:
// req.Dice v1 or v2 as asked (v2 is allowed without any player key; v1 is
// refused, ErrDowngrade, once any device key is registered), or
// empty for the campaign's default (DefaultDice), judged on the same state
// the session-started event is recorded on. The event records the
// algorithm either way.
func (j *Handler) StartSessionWith(ctx context.Context, campaign string, req SessionStart) (Result, error) {
	switch req.Dice {
	case "":
		return j.startSession(ctx, campaign, req.ID, req.Title, "")
	case DiceV1:
		return j.startSession(ctx, campaign, req.ID, req.Title, dice.Algorithm)
	case DiceV2:
		return j.startSession(ctx, campaign, req.ID, req.Title, dice.AlgorithmV2)
	}
	return Result{}, invalid("--dice %q: want v1 or v2", clip.Text(req.Dice))
}

// signedBy opens a device's message sent by user: under any of user's
// devices active in the campaign (newest first), the signature, the shape,
// the scope.
func (d *draft) signedBy(user, signedString, signature, session string) (signed.Message, error) {
	devs := d.campaign.Participants[user].ActiveDevices()
	if len(devs) == 0 {
		return nil, invalid("%s has no registered key in campaign %s: register one with 'journal key register'", user, d.campaign.ID)
	}
	m, err := openUnder(devs, SignedMessage{Signed: signedString, Signature: signature}, d.campaign.ID, session)
	if err != nil {
		return nil, invalid("signed message of %s: %v", user, err)
	}
	if err := d.checkSeen(m); err != nil {
		return nil, err
	}
	return m, nil
}

// signedAs opens a device's message sent by user in session (signedBy),
// which must be a message of type want (T).
func signedAs[T signed.Message](d *draft, user string, msg SignedMessage, session string, want signed.Type) (T, error) {
	var zero T
	m, err := d.signedBy(user, msg.Signed, msg.Signature, session)
	if err != nil {
		return zero, err
	}
	t, ok := m.(T)
	if !ok {
		return zero, invalid("signed message is a %s, not a %s", m.Kind(), want)
	}
	return t, nil
}

// openV2 returns the open session, which must use journal-dice-v2.
func (d *draft) openV2() (*projections.Session, error) {
	s := d.campaign.OpenSession()
	if s == nil {
		return nil, invalid("no session in progress: start one with 'journal session start --dice v2'")
	}
	if !s.V2() {
		return nil, invalid("session %s uses %s, not journal-dice-v2", s.ID, s.Algorithm)
	}
	return s, nil
}

// SignedMessage is a device's message as sent: the signed string and its
// base64url Ed25519 signature (signed.Sealed, which package device makes).
type SignedMessage = signed.Sealed

// ContributeSigned is a signed session.contribute; Character is a
// character of the campaign whose player sends it (the GM names any, an
// NPC say), so that the permissions know the player is in the campaign.
// Commands that do not go through the permissions may leave it empty.
type ContributeSigned struct {
	Character string `json:"character" help:"a character you play, for the permissions (default: yours, or an NPC)"`
	SignedMessage
}

// RollRevealSigned is a signed roll.reveal for Character's request.
type RollRevealSigned struct {
	Character     string `json:"character" help:"the character rolling"`
	SignedMessage `cli:"inline"`
}

// Contribute records the actor's signed session.contribute to the open v2
// session's key; refused once the session has a roll request, and unless
// it names the session's seed commitment (signed.Contribute.Commitment).
func (j *Handler) Contribute(ctx context.Context, campaign string, in ContributeSigned) (Result, error) {
	msg := in.SignedMessage
	return j.execute(ctx, campaign, func(d *draft) error {
		s, err := d.openV2()
		if err != nil {
			return err
		}
		if in.Character != "" {
			if err := characterExists(d.campaign, in.Character); err != nil {
				return err
			}
		}
		c, err := signedAs[*signed.Contribute](d, j.actor, msg, s.ID, signed.TypeContribute)
		if err != nil {
			return err
		}
		// Bound to this session's seed, so that it cannot be replayed into
		// another journal's session of the same ids (old devices' messages
		// without the field are refused here; verifiers still accept those
		// recorded before, docs/trust.md).
		if c.Commitment.IsZero() {
			return invalid("the contribution names no seed commitment: sign session %s's, %s (update the device)", s.ID, s.Commitment)
		}
		if c.Commitment.String() != s.Commitment {
			return invalid("the contribution names seed commitment %s, session %s's is %s", c.Commitment, s.ID, s.Commitment)
		}
		if len(s.Requests) > 0 {
			return invalid("session %s already has a roll request: contributions are taken only before the first", s.ID)
		}
		for _, v := range s.Contributions {
			if v == c.Value.String() {
				return invalid("this contribution is already recorded in session %s", s.ID)
			}
		}
		anchor, err := d.checkAnchor(j.actor, s, c) // v2_chain.go
		if err != nil {
			return err
		}
		d.add(events.KindSession, s.ID, events.TypeSessionContributed, events.SessionContributed{
			User: j.actor, Character: in.Character, Signed: msg.Signed, Signature: msg.Signature, Value: c.Value.String(),
			WitnessAnchor: anchor,
		})
		return nil
	})
}

// RollAction is the action of a v2 skill or attribute roll: the object in
// a roll.request's action. Every member is written, zeros and false
// included, and none other is accepted. SeedCommitment is the session's
// seed commitment as the device saw it: the signed request binds the
// session's seed, so that a host that swapped the seed afterwards (and
// re-derived every face) is caught by the requests it cannot re-sign.
type RollAction struct {
	Command        string `json:"command"` // "roll"
	SeedCommitment string `json:"seed_commitment"`
	Character      string `json:"character"`
	Skill          string `json:"skill"`
	Attribute      string `json:"attribute"`
	Vs             string `json:"vs"`
	Modifier       int    `json:"modifier"`
	Token          bool   `json:"token"`
	Specialization bool   `json:"specialization"`
	// Call is the GM's roll call the roll answers (calls.go); absent for
	// none (the one member that may be left out).
	Call string `json:"call,omitempty"`
}

// ParseRollAction reads a roll.request's action strictly.
func ParseRollAction(action []byte) (RollAction, error) {
	var a RollAction
	if err := decodeAction(action, &a); err != nil {
		return a, err
	}
	if a.Command != CommandRoll {
		return a, invalid("action: command %q: journal-dice-v2 wires \"roll\" (skill and attribute rolls), \"attack\", \"contest\", \"combat-start\" and \"heal-after-combat\"", clip.Text(a.Command))
	}
	return a, nil
}

func (a RollAction) request() RollRequest {
	return RollRequest{Character: a.Character, Skill: a.Skill, Attribute: a.Attribute, Vs: a.Vs,
		Modifier: a.Modifier, Token: a.Token, Specialization: a.Specialization}
}

// RollRequestSigned is a signed roll.request sent for Character (named
// here too, so that the permissions read the acting character; it must be
// the action's).
type RollRequestSigned struct {
	Character     string `json:"character" help:"the character rolling"`
	SignedMessage `cli:"inline"`
	// Wait is, for a GM's request (no commitment), how long in seconds it
	// waits for a player's witness before the GM may resolve it
	// unwitnessed (0: DefaultWitnessWait); a player's request has none.
	Wait int `json:"wait,omitempty" cli:"-"`
}

// RequestRoll records the actor's signed roll.request in the open v2
// session: judged against the rules and the state, it takes the next
// nonce; nothing is drawn.
func (j *Handler) RequestRoll(ctx context.Context, campaign string, msg RollRequestSigned) (Result, error) {
	return j.execute(ctx, campaign, func(d *draft) error {
		s, err := d.openV2()
		if err != nil {
			return err
		}
		r, err := signedAs[*signed.Request](d, j.actor, msg.SignedMessage, s.ID, signed.TypeRequest)
		if err != nil {
			return err
		}
		if p := v2Paths[actionCommand(r.Action)]; p.rejudge != nil {
			return p.rejudge(j, d, s, msg, r) // draws nothing (v2_paths.go)
		}
		// The GM may know K (a self-hosted GM reads S): a roll it revealed
		// itself it could choose by trying r's, so its request takes no
		// commitment and its r comes from a player's device (roll.witness)
		// or the beacon (v2_witness.go).
		gm := j.isGM(d.campaign)
		wait, err := d.checkWitnessed(gm, msg, r)
		if err != nil {
			return err
		}
		if p := s.Requests[r.Request]; p != nil {
			return invalid("request %s is already recorded (%s, nonce %d): a request is recorded once", r.Request, p.State, p.Requested.Nonce)
		}
		path, ok := v2Paths[actionCommand(r.Action)]
		if !ok {
			_, err := ParseRollAction(r.Action)
			return err
		}
		if err := path.request(j, d, s, msg, r); err != nil {
			return err
		}
		if gm {
			index, err := d.nextWitnessIndex(s) // v2_chain.go
			if err != nil {
				return err
			}
			return d.markWitnessed(r, wait, index)
		}
		return nil
	})
}

// requestSkillV2 records a skill or attribute roll's signed request.
func (j *Handler) requestSkillV2(d *draft, s *projections.Session, msg RollRequestSigned, r *signed.Request) error {
	a, err := ParseRollAction(r.Action)
	if err != nil {
		return err
	}
	if a.SeedCommitment != s.Commitment {
		return invalid("the request names seed commitment %q, session %s's is %s", clip.Text(a.SeedCommitment), s.ID, s.Commitment)
	}
	if msg.Character != "" && msg.Character != a.Character {
		return invalid("the request is for %s, the signed action for %s", msg.Character, a.Character)
	}
	kind, err := d.judgeV2(a)
	if err != nil {
		return err
	}
	if a.Call != "" {
		if err := d.checkAnswer(a.Call, a.Character, a.Skill, a.Attribute, a.Vs); err != nil {
			return err
		}
	}
	d.add(events.KindCharacter, a.Character, events.TypeRollRequested, events.RollRequested{
		User: j.actor, Signed: msg.Signed, Signature: msg.Signature, Request: r.Request,
		Commitment: r.Commitment.String(), Nonce: d.nonce,
		Character: a.Character, Kind: kind, Skill: a.Skill, Attribute: a.Attribute, Vs: a.Vs,
		Modifier: a.Modifier, Token: a.Token, Specialization: a.Specialization,
	})
	d.nonce++
	if a.Call != "" {
		return d.answerCall(a.Call, a.Character, r.Request) // calls.go
	}
	return nil
}

// judgeV2 checks a roll action against the rules and the state, as the v1
// roll does, and returns its kind (skill or attribute).
func (d *draft) judgeV2(a RollAction) (string, error) {
	if d.campaign.System == SystemTOR {
		return "", invalid("action: command %q: a The One Ring roll's action is %q", clip.Text(a.Command), CommandTORRoll)
	}
	rules, err := d.ryfRules()
	if err != nil {
		return "", err
	}
	ch, err := character(d.campaign, a.Character)
	if err != nil {
		return "", err
	}
	if err := canAct(ch); err != nil {
		return "", err
	}
	check, err := buildCheck(d.campaign, rules, ch, a.request())
	if err != nil {
		return "", invalidOr(err)
	}
	// The verifier compares the roll with the signed action: a name the
	// rules resolve but spelled otherwise would record a roll that does not
	// verify, so the action names them as the rules do (RollActionFor).
	if a.Skill != "" && check.Skill != a.Skill {
		return "", invalid("action: skill %q: name it as the rules do, %q", clip.Text(a.Skill), check.Skill)
	}
	if len(a.Attribute) == 1 && string(check.Attribute) != a.Attribute {
		return "", invalid("action: attribute %q: name it as the rules do, %q", clip.Text(a.Attribute), check.Attribute)
	}
	return string(check.Kind), nil
}

// RollActionFor is the action a device signs for req, a skill or attribute
// roll in the open v2 session: req's skill and attribute named as the
// rules name them (judgeV2 refuses other spellings), every input written.
func (j *Handler) RollActionFor(ctx context.Context, campaign string, req RollRequest) (RollAction, error) {
	camp, err := j.Current(ctx, campaign) // the cached fold, as the command will find it (current.go)
	if err != nil {
		return RollAction{}, err
	}
	d := &draft{j: j, campaign: camp}
	s, err := d.openV2()
	if err != nil {
		return RollAction{}, err
	}
	a := RollAction{Command: CommandRoll, SeedCommitment: s.Commitment, Character: req.Character, Skill: req.Skill,
		Attribute: req.Attribute, Vs: req.Vs, Modifier: req.Modifier, Token: req.Token, Specialization: req.Specialization, Call: req.Call}
	if camp.System == SystemTOR {
		return a, nil // judgeV2 says what a The One Ring roll's action is
	}
	rules, err := d.ryfRules()
	if err != nil {
		return RollAction{}, err
	}
	ch, err := character(camp, req.Character)
	if err != nil {
		return RollAction{}, err
	}
	check, err := buildCheck(camp, rules, ch, a.request())
	if err != nil {
		return RollAction{}, invalidOr(err)
	}
	if a.Skill != "" {
		a.Skill = check.Skill
	}
	if len(a.Attribute) == 1 {
		a.Attribute = string(check.Attribute)
	}
	return a, nil
}

// RevealRoll records the roll of the actor's pending request: the signed
// roll.reveal's r must match the request's commitment; the faces are drawn
// from StreamV2 with the session key and r.
func (j *Handler) RevealRoll(ctx context.Context, campaign string, in RollRevealSigned) (Result, error) {
	return j.execute(ctx, campaign, func(d *draft) error { return j.reveal(ctx, d, in) })
}

// reveal drafts RevealRoll's roll on d (ProveRoll reveals a pending
// request through it too).
func (j *Handler) reveal(ctx context.Context, d *draft, in RollRevealSigned) error {
	msg := in.SignedMessage
	s, err := d.openV2()
	if err != nil {
		return err
	}
	rev, err := signedAs[*signed.Reveal](d, j.actor, msg, s.ID, signed.TypeReveal)
	if err != nil {
		return err
	}
	p := s.Requests[rev.Request]
	if p == nil {
		return notFound("no roll request %s in session %s", rev.Request, s.ID)
	}
	if p.State != projections.RequestPending {
		return invalid("request %s is already %s", rev.Request, p.State)
	}
	if in.Character != "" && !slices.Contains(requestCharacters(p.Requested), in.Character) {
		return invalid("request %s is for %s, not %s", rev.Request, strings.Join(requestCharacters(p.Requested), " and "), in.Character)
	}
	if p.Requested.User != j.actor {
		return invalid("request %s is %s's: only its requester reveals it", rev.Request, p.Requested.User)
	}
	req, err := signed.Parse(p.Requested.Signed)
	if err != nil {
		return msgerr.Errorf("recorded request %s: %w", rev.Request, err)
	}
	if err := signed.CheckReveal(req.(*signed.Request), rev); err != nil {
		return invalid("%v", err)
	}
	key, err := d.j.sessionKeyV2(ctx, d.campaign, s)
	if err != nil {
		return err
	}
	return d.drawV2(s, key, p.Requested, v2Source{R: [32]byte(rev.R), User: j.actor, Signed: msg.Signed, Signature: msg.Signature})
}

// drawSkillV2 draws a skill or attribute roll's request with src's r.
func (d *draft) drawSkillV2(s *projections.Session, key dice.KeyV2, a events.RollRequested, src v2Source) error {
	action := RollAction{Command: CommandRoll, Character: a.Character, Skill: a.Skill, Attribute: a.Attribute, Vs: a.Vs,
		Modifier: a.Modifier, Token: a.Token, Specialization: a.Specialization}
	rules, err := d.ryfRules()
	if err != nil {
		return err
	}
	ch, err := character(d.campaign, a.Character)
	if err != nil {
		return err
	}
	check, err := buildCheck(d.campaign, rules, ch, action.request())
	if err != nil {
		return invalidOr(err)
	}
	rec := &sidesRecorder{r: key.Stream(d.campaign.ID, s.ID, a.Nonce, src.R)}
	res, err := ryf.Roll(check, rec)
	if err != nil {
		return invalidOr(err)
	}
	e := rolls.FromRyF(d.campaign.System, res)
	e.Character, e.Nonce = a.Character, a.Nonce
	src.stamp(&e, a.Request, rec.sides)
	if a.Vs != "" && check.Difficulty != nil {
		e.DifficultyName = ryf.DifficultyName(*check.Difficulty)
	}
	d.add(events.KindCharacter, a.Character, events.TypeRollMade, e)
	return nil
}

// RollCancelRequest is a CancelRoll: the request, and why.
type RollCancelRequest struct {
	Request string `json:"request" cli:"REQUEST" resolve:"request"`
	Reason  string `json:"reason" cli:"--reason R" help:"why it is cancelled"`
}

// CancelRoll records the GM's cancellation of a request left unrevealed:
// its nonce stays consumed.
func (j *Handler) CancelRoll(ctx context.Context, campaign, request, reason string) (Result, error) {
	return j.execute(ctx, campaign, func(d *draft) error {
		s, err := d.openV2()
		if err != nil {
			return err
		}
		if !j.isGM(d.campaign) {
			return invalid("only the GM cancels a roll request")
		}
		if err := checkField("reason", reason); err != nil {
			return err
		}
		p := s.Requests[request]
		if p == nil {
			return notFound("no roll request %s in session %s", request, s.ID)
		}
		if p.State != projections.RequestPending {
			return invalid("request %s is already %s", request, p.State)
		}
		d.add(events.KindCharacter, freeAggregate(p.Requested.Character), events.TypeRollCancelled, events.RollCancelled{
			Request: request, Nonce: p.Requested.Nonce, Reason: reason,
		})
		return nil
	})
}

// sessionKeyV2 derives K of a v2 session from its seed (the secret store)
// and the contributions recorded so far.
func (j *Handler) sessionKeyV2(ctx context.Context, c *projections.Campaign, s *projections.Session) (dice.KeyV2, error) {
	seed, err := j.sessionSeed(ctx, c.ID, s.ID)
	if err != nil {
		return dice.KeyV2{}, err
	}
	if !seed.Matches(s.Commitment) {
		return dice.KeyV2{}, msgerr.Errorf("seed of session %s does not match its commitment: the secret store was altered", s.ID)
	}
	contribs := make([][dice.ContributionSize]byte, len(s.Contributions))
	for i, v := range s.Contributions {
		b, err := dice.ParseHex32(v)
		if err != nil {
			return dice.KeyV2{}, msgerr.Errorf("contribution %d of session %s: %w", i+1, s.ID, err)
		}
		contribs[i] = b
	}
	return dice.SessionKey(seed, c.ID, s.ID, contribs), nil
}

// sidesRecorder draws from a stream and records the sides of every die,
// in order: a v2 roll's draws.
type sidesRecorder struct {
	r     dice.Roller
	sides []int
}

func (s *sidesRecorder) Roll(sides int) (int, error) {
	face, err := s.r.Roll(sides)
	if err == nil {
		s.sides = append(s.sides, sides)
	}
	return face, err
}
