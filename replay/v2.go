package replay

// Verification of journal-dice-v2 sessions (docs/design.md §3.2), by default:
//   - every event made from a device's message: its signature under the key
//     registered for its user at that point of the stream, its scope
//     (campaign, session), and that the event's fields equal the signed ones
//     (a request's action names the session's seed commitment, so a seed
//     swapped afterwards breaks every request's signature check);
//   - each reveal against its request's commitment, from the requester;
//   - K = SessionKey(S, campaign, session, contributions in stream order),
//     contributions only before the session's first request;
//   - the faces re-derived from StreamV2(K, campaign, session, nonce, r) with
//     the recorded draws, which must be the dice the rules roll; totals and
//     outcomes re-judged by the rules as for v1;
//   - nonces without gaps: a request takes its nonce, its roll uses it,
//     a cancelled request consumes it.
// It flags, without failing: a session with no contribution, cancelled
// requests, requests left unrevealed at the session's end, and keys
// replaced by someone else than their user.

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/internal/own"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rolls"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/rules/ryf"
	"github.com/campaign-journal/journal/signed"
)

// MismatchSignature: an event made from a device's message whose signature,
// scope or fields do not hold. MismatchReveal: a roll whose reveal does not
// answer its request. MismatchRequest: a roll request or cancellation that
// does not fit the session (unknown, repeated, late contribution...).
const (
	MismatchSignature MismatchKind = "signature"
	MismatchReveal    MismatchKind = "reveal"
	MismatchRequest   MismatchKind = "request"
)

// CancelledRequest is a v2 roll request the GM cancelled: its nonce is
// consumed and no roll was drawn for it.
type CancelledRequest struct {
	Request string `json:"request"`
	Nonce   uint64 `json:"nonce"`
	EventID string `json:"event_id"`
	Reason  string `json:"reason"`
}

// v2Session is what the verifier knows of a v2 session.
type v2Session struct {
	seed          *dice.Seed
	contributions [][dice.ContributionSize]byte
	requests      map[string]*v2Request
	order         []string // request ids in stream order
	cancelled     []CancelledRequest
	key           *dice.KeyV2
	attack        *v2Attack      // the attack whose rolls are recorded and whose resolution is due
	path          *v2Due         // the contest, initiative or healing whose consequence is due (v2_paths.go)
	torState      *v2TOR         // The One Ring's rolls and Hope (v2_tor.go)
	x             v2SessionExtra // co-signatures, flags, last event (v2_cosign.go)
	gm            v2GM           // GM rolls: witnessed, beacon, unwitnessed (v2_witness.go)
	independent   int            // contributions that count toward the key's independence from the GM (countsAsPlayers)
	anchors       []v2Anchor     // the devices of a session of witness chains (v2_chain.go)
	gmRequests    int            // GM requests so far in a session of witness chains
	proved        []*v2Proved    // proofs of suppressed rolls (v2_prove.go)
}

type v2Request struct {
	event string
	state string
	// d is the request as recorded: the fold's record of it
	// (projections.PendingRoll.Requested, read only here), so that a long
	// campaign keeps one copy of each request, not one in the fold and one
	// here; the verifier's own copy when the fold did not record it.
	d *events.RollRequested
	// signed and signature are its device message, kept while it is
	// pending (read by its first roll's witness check, v2_witness.go): the
	// fold forgets its copy of them once the request is made, before the
	// verifier checks that roll.
	signed, signature string
	rolled            int // roll events recorded for it
	at                time.Time
	// witnessed are the chain witnesses recorded for it (v2_chain.go), in
	// stream order; receipted whether a player's device receipted it
	// before its beacon round.
	witnessed []events.GMWitness
	receipted bool
	// v2_prove.go: the key the request was signed under; who cancelled it
	// and the cancellation event; its first roll event; its proof event.
	key                   *requestKey
	cancelledBy, cancelID string
	made, proved          string
	// hidden is the roll.hidden of a secret request (hidden.go).
	hidden string
}

// drop forgets what of a request no later check reads once it is made or
// cancelled: its device message and signature (read only while it is
// pending: by its first roll's witness check, v2_witness.go). The verifier
// streams a long campaign: what it keeps of each request is its
// bookkeeping (state, nonces, commitment, inputs), not its signed string.
func (r *v2Request) drop() { r.signed, r.signature = "", "" }

// v2Attack is what an attack's rolls say its consequences must be: the
// v1 attack's rules (command.resolveAttack) read from the recorded rolls,
// which checkRules re-judges and the faces check re-derives.
type v2Attack struct {
	m                Mismatch // the attack roll's, for a resolution missing at the end
	request          string
	attackID         string
	attacker, target string
	hit, critical    bool
	total            int
	damageID         string
	damage           int
	taken            bool
}

// v2Action is a roll.request's action object (command.RollAction; package
// replay does not import the command layer).
type v2Action struct {
	Command        string `json:"command"`
	SeedCommitment string `json:"seed_commitment"`
	Character      string `json:"character"`
	Skill          string `json:"skill"`
	Attribute      string `json:"attribute"`
	Vs             string `json:"vs"`
	Modifier       int    `json:"modifier"`
	Token          bool   `json:"token"`
	Specialization bool   `json:"specialization"`
	// An attack's (command "attack"): command.AttackAction.
	Target string `json:"target"`
	Weapon string `json:"weapon"`
	Range  string `json:"range"`
	Cover  bool   `json:"cover"`
	// The roll call a roll answers (command.RollAction.Call), if any.
	Call string `json:"call,omitempty"`
}

// isAttackRequest reports whether a recorded request is an attack's (it
// names a target): two nonces, the attack's and the damage's.
func isAttackRequest(d events.RollRequested) bool { return d.Target != "" }

func parseAction(b []byte) (v2Action, error) {
	var a v2Action
	return a, signed.DecodeAction(b, &a)
}

// countsAsPlayers reports whether a contribution by user counts toward a
// v2 session key's independence from the GM (docs/design.md §3.3,
// "Contributions that count"): it does unless user is the GM, that is a
// user registered with the role gm at this point of the stream (fold), or
// the actor who started the session (starter). Every contribution enters
// the key; a session none of whose contributions counts is flagged
// no-contribution. web/static/verify.js applies the same rule.
func countsAsPlayers(fold *projections.Campaign, starter, user string) bool {
	if user == starter {
		return false
	}
	p := fold.Participants[user]
	return p == nil || p.Role != "gm"
}

// isV2Type reports whether typ is one of journal-dice-v2's own events.
func isV2Type(typ string) bool {
	switch typ {
	case events.TypeParticipantRegistered, events.TypeSessionContributed, events.TypeRollRequested, events.TypeRollCancelled,
		events.TypeSessionCosigned, events.TypeRollWitnessed, events.TypeRollReceipted, events.TypeRollProved:
		return true
	}
	return false
}

// open checks a device's message recorded in ev: the signature under the
// key registered for user in fold (the state at this point of the stream)
// and the scope. It records a mismatch and returns nil when it fails.
func (v *Verifier) open(s *session, m Mismatch, fold *projections.Campaign, ev events.Event, user, signedString, signature string) signed.Message {
	msg, _ := v.openDevice(s, m, fold, ev, user, signedString, signature)
	return msg
}

// openDevice is open, returning the device under which the message opened:
// any of user's devices active at this point (v2_devices.go), newest first.
func (v *Verifier) openDevice(s *session, m Mismatch, fold *projections.Campaign, ev events.Event, user, signedString, signature string) (signed.Message, projections.Device) {
	p := fold.Participants[user]
	devs := p.ActiveDevices()
	if len(devs) == 0 {
		m.Kind, m.What = MismatchSignature, fmt.Sprintf("signed by %q, who has no registered key at this point", user)
		if p != nil {
			m.What = fmt.Sprintf("signed by %q, whose every device is revoked at this point", user)
		}
		v.record(s, m)
		return nil, projections.Device{}
	}
	if ev.Actor != user {
		m.Kind, m.What = MismatchSignature, fmt.Sprintf("recorded as issued by %q, but the device's message is %q's", ev.Actor, user)
		v.record(s, m)
		return nil, projections.Device{}
	}
	msg, dev, err := v.openUnder(devs, signedString, signature, ev.Campaign, ev.Session)
	if err == nil {
		return msg, dev
	}
	m.Kind, m.What = MismatchSignature, fmt.Sprintf("%s's message does not hold under any of its %d active devices (newest: seq %d, %s): %v", user, len(devs), devs[0].Seq, devs[0].Fingerprint, err)
	v.record(s, m)
	return nil, projections.Device{}
}

// v2Event checks one of journal-dice-v2's own events.
func (v *Verifier) v2Event(c *campaign, m Mismatch, ev events.Event, data any) {
	switch d := data.(type) {
	case *events.ParticipantRegistered:
		v.checkRegistration(c, m, ev, d)
		return
	}
	s := v.sessionOf(ev)
	if s == nil || s.v2 == nil {
		m.Kind, m.What = MismatchRequest, fmt.Sprintf("%s outside a journal-dice-v2 session", ev.Type)
		v.record(s, m)
		return
	}
	switch d := data.(type) {
	case *events.SessionContributed:
		msg := v.open(s, m, c.fold, ev, d.User, d.Signed, d.Signature)
		if msg == nil {
			return
		}
		cm, ok := msg.(*signed.Contribute)
		if !ok || cm.Value.String() != d.Value {
			m.Kind, m.What = MismatchSignature, "the contribution's value is not the signed one"
			v.record(s, m)
			return
		}
		// A contribution names its session's seed commitment, so that it
		// cannot be replayed into another journal's session of the same
		// ids; one signed before the field existed (none) is accepted as
		// before (old format, docs/trust.md). verify.js checks the same.
		if !cm.Commitment.IsZero() && cm.Commitment.String() != s.commitment {
			m.Kind, m.What = MismatchSignature, fmt.Sprintf("the contribution signs seed commitment %s, not its session's (%s): replayed from another session", cm.Commitment, s.commitment)
			v.record(s, m)
			return
		}
		if len(s.v2.order) > 0 {
			m.Kind, m.What = MismatchRequest, fmt.Sprintf("a contribution after the session's first roll request (%s)", s.v2.order[0])
			v.record(s, m)
			return
		}
		if d.WitnessAnchor != signedAnchor(cm) {
			m.Kind, m.What = MismatchSignature, "the contribution's witness anchor is not the signed one"
			v.record(s, m)
			return
		}
		s.v2.contributions = append(s.v2.contributions, [32]byte(cm.Value))
		if countsAsPlayers(c.fold, s.starter, d.User) {
			s.v2.independent++
			s.v2.addAnchor(d.User, cm) // v2_chain.go
		}
	case *events.RollRequested:
		v.checkRequest(s, c, m, ev, d)
	case *events.SessionCosigned:
		v.cosignEvent(s, c, m, ev, d) // v2_cosign.go
	case *events.RollWitnessed:
		v.witnessedEvent(s, c, m, ev, d) // v2_chain.go
	case *events.RollReceipted:
		v.receiptedEvent(s, c, m, ev, d) // v2_chain.go
	case *events.RollProved:
		v.provedEvent(s, c, m, ev, d) // v2_prove.go
	case *events.RollCancelled:
		r := s.v2.requests[d.Request]
		nonce := d.Nonce
		m.Nonce = &nonce
		switch {
		case r == nil:
			m.Kind, m.What = MismatchRequest, fmt.Sprintf("cancels request %s, which is not recorded before", d.Request)
		case r.state != projections.RequestPending:
			m.Kind, m.What = MismatchRequest, fmt.Sprintf("cancels request %s, which is already %s", d.Request, r.state)
		case r.d.Nonce != d.Nonce:
			m.Kind, m.What = MismatchRequest, fmt.Sprintf("cancels request %s with nonce %d, the request took %d", d.Request, d.Nonce, r.d.Nonce)
		}
		if m.Kind != "" {
			v.record(s, m)
			return
		}
		r.state = projections.RequestCancelled
		r.drop()
		r.cancelledBy, r.cancelID = ev.Actor, ev.ID
		own.Strings(&r.cancelledBy, &r.cancelID)
		s.v2.cancelled = append(s.v2.cancelled, CancelledRequest{Request: d.Request, Nonce: d.Nonce, EventID: ev.ID, Reason: d.Reason})
	}
}

func (v *Verifier) checkRegistration(c *campaign, m Mismatch, ev events.Event, d *events.ParticipantRegistered) {
	pub, err := signed.ParsePublicKey(d.PublicKey)
	switch {
	case err != nil:
		m.Kind, m.What = MismatchSignature, fmt.Sprintf("registers an unusable key for %s: %v", d.User, err)
	case pub.Fingerprint() != d.Fingerprint:
		m.Kind, m.What = MismatchSignature, fmt.Sprintf("fingerprint %s is not the key's (%s)", d.Fingerprint, pub.Fingerprint())
	case d.Role != "player" && d.Role != "gm":
		m.Kind, m.What = MismatchSignature, fmt.Sprintf("role %q: want player or gm", d.Role)
	}
	if m.Kind != "" {
		v.record(v.sessionOf(ev), m)
	}
	// Its flags (key-unproved, key-by-other) are the audit's list of
	// devices' (campaignDevices, v2_devices.go).
}

func (v *Verifier) checkRequest(s *session, c *campaign, m Mismatch, ev events.Event, d *events.RollRequested) {
	nonce := d.Nonce
	m.Nonce = &nonce
	msg := v.open(s, m, c.fold, ev, d.User, d.Signed, d.Signature)
	if msg == nil {
		return
	}
	req, ok := msg.(*signed.Request)
	if !ok {
		m.Kind, m.What = MismatchSignature, fmt.Sprintf("the signed message is a %s, not a roll.request", msg.Kind())
		v.record(s, m)
		return
	}
	var diff []string
	eq := func(what string, got, want any) {
		if got != want {
			diff = append(diff, fmt.Sprintf("%s: recorded %v, signed %v", what, got, want))
		}
	}
	eq("request", d.Request, req.Request)
	eq("commitment", d.Commitment, signedCommitment(req))
	eq("beacon round", d.BeaconRound, req.BeaconRound)
	if req.Wait > 0 { // a wait the GM's device signed (none: an older device)
		eq("wait", uint64(max(d.Wait, 0)), req.Wait)
	}
	if d.Kind == rolls.KindFree {
		diff = append(diff, freeRequestDiff(s, d, req.Action, eq)...) // v2_free.go
	} else if isPathRequest(*d) {
		diff = append(diff, pathRequestDiff(s, d, req.Action, eq)...) // v2_paths.go
	} else if c.fold.System == torSystem {
		diff = append(diff, torRequestDiff(s, d, req.Action)...) // v2_tor.go
	} else if a, err := parseAction(req.Action); err != nil {
		diff = append(diff, "the signed action: "+err.Error())
	} else {
		command := "roll"
		if isAttackRequest(*d) {
			command = "attack"
		}
		eq("command", command, a.Command)
		eq("target", d.Target, a.Target)
		eq("weapon", d.Weapon, a.Weapon)
		eq("range", d.Range, a.Range)
		eq("cover", d.Cover, a.Cover)
		eq("seed commitment (the session's)", s.commitment, a.SeedCommitment)
		eq("character", d.Character, a.Character)
		eq("skill", d.Skill, a.Skill)
		eq("attribute", d.Attribute, a.Attribute)
		eq("vs", d.Vs, a.Vs)
		eq("modifier", d.Modifier, a.Modifier)
		eq("token", d.Token, a.Token)
		eq("specialization", d.Specialization, a.Specialization)
	}
	if len(diff) > 0 {
		m.Kind, m.What = MismatchSignature, "the event's fields are not the signed ones: "+strings.Join(diff, "; ")
		v.record(s, m)
		return
	}
	if prev := s.v2.requests[d.Request]; prev != nil {
		m.Kind, m.What = MismatchRequest, fmt.Sprintf("request %s recorded again (first by event %s): a replayed request", d.Request, prev.event)
		v.record(s, m)
		return
	}
	want := []uint64{d.Nonce}
	if isAttackRequest(*d) {
		want = []uint64{d.Nonce, d.Nonce + 1}
	}
	for i := 1; i < pathNonces(*d); i++ {
		want = append(want, d.Nonce+uint64(i))
	}
	if !slices.Equal(d.Taken(), want) {
		m.Kind, m.What = MismatchRequest, fmt.Sprintf("the request takes nonces %v, want %v (an attack takes its nonce and the next, for its damage)", d.Taken(), want)
		v.record(s, m)
		return
	}
	for _, n := range want {
		if prev, taken := s.nonces[n]; taken {
			m.Kind, m.What = MismatchNonceRepeat, fmt.Sprintf("nonce %d already taken by event %s", n, idString(prev))
			v.record(s, m)
			return
		}
	}
	for _, n := range want {
		s.nonces[n] = keyOf(ev.ID)
	}
	if !v.checkGMRequest(s, c, m, ev, d) { // v2_witness.go
		return
	}
	// The ids it keeps are copies: a decoded event's strings share one
	// allocation with its whole text, signed string included, which a
	// kept substring would keep alive for the rest of the input.
	event, id := ev.ID, d.Request
	own.Strings(&event, &id)
	v.repeatedRequest(s, c, ev, d, id, req.Action) // v2_cosign.go
	s.v2.requests[id] = &v2Request{event: event, state: projections.RequestPending, d: foldedRequest(c.fold, ev, d),
		signed: d.Signed, signature: d.Signature, at: ev.Time, key: v.keyOfRequest(c.fold, d.User)}
	s.v2.order = append(s.v2.order, id)
}

// foldedRequest is the fold's record of the request event ev records (d),
// recorded just before the checks (Verifier.Add), for the verifier to read
// instead of a copy of its own; a copy of d when the fold did not record it.
func foldedRequest(fold *projections.Campaign, ev events.Event, d *events.RollRequested) *events.RollRequested {
	if s := fold.Session(ev.Session); s != nil {
		if p := s.Requests[d.Request]; p != nil && p.Event == ev.ID {
			return &p.Requested
		}
	}
	own := *d
	return &own
}

// rollV2 checks a roll of a v2 session: its reveal, its inputs against its
// request, its draws, its faces and its judgement.
func (v *Verifier) rollV2(s *session, c *campaign, m Mismatch, ev events.Event, d *events.RollMade) {
	nonce := d.Nonce
	m.Nonce = &nonce
	s.rolls++
	if s.ended {
		m.Kind, m.What = MismatchAfterEnd, fmt.Sprintf("roll recorded after the session ended (event %s) and revealed its seed", s.endID)
		v.record(s, m)
	}
	fail := func(kind MismatchKind, format string, args ...any) {
		m.Kind, m.What = kind, fmt.Sprintf(format, args...)
		v.record(s, m)
	}
	// A reveal of a secret roll has its inputs (hidden.go), whatever else
	// is wrong with it (verify.js checks it first too).
	v.revealOf(s, m, ev, d)
	r := s.v2.requests[d.Request]
	if d.Witness != chainWitness && (d.WitnessIndex != 0 || len(d.Witnesses) > 0) {
		fail(MismatchReveal, "a roll with a witness index or witnesses that is not made from witness chains (witness %q)", d.Witness)
		return
	}
	damage := r != nil && isAttackRequest(*r.d) && r.state == projections.RequestMade && r.rolled == 1
	damage = damage || r != nil && isPathRequest(*r.d) && r.state == projections.RequestMade && r.rolled < len(r.d.Taken())
	switch {
	case d.Request == "":
		fail(MismatchRequest, "a roll of a journal-dice-v2 session without a request: drawn without the roller's secret")
		return
	case r == nil:
		fail(MismatchRequest, "the roll answers request %s, which is not recorded before it", d.Request)
		return
	case r.state != projections.RequestPending && !damage: // an attack's damage roll comes after its attack roll
		fail(MismatchRequest, "the roll answers request %s, which is already %s (the first reveal or witness wins)", d.Request, r.state)
		return
	case d.User != r.d.User && r.d.Commitment != "": // a GM's request is witnessed by another (v2_witness.go)
		fail(MismatchReveal, "revealed by %q, the request is %q's", d.User, r.d.User)
		return
	}
	if r.hidden != "" || d.Hidden != "" {
		if d.Hidden != r.hidden {
			m.Kind = MismatchInputs
			m.say("mm.hidden_missing", d.Request, r.hidden)
			v.record(s, m)
			return
		}
	}
	r.state = projections.RequestMade
	defer r.drop() // once this first roll is checked: no later check reads its device message
	if r.made == "" {
		r.made = strings.Clone(ev.ID) // not the roll event's whole text
	}
	r.rolled++
	v.rolledV2(s, ev, d, r) // v2_cosign.go
	var rv [32]byte
	if r.d.Commitment == "" {
		var ok bool
		if rv, ok = v.gmRollR(s, c, m, ev, d, r, damage); !ok {
			return
		}
	} else {
		if d.Witness != "" {
			fail(MismatchReveal, "witness %q recorded for request %s, which has a commitment: its requester reveals it", d.Witness, d.Request)
			return
		}
		msg := v.open(s, m, c.fold, ev, d.User, d.Signed, d.Signature)
		if msg == nil {
			return
		}
		rev, ok := msg.(*signed.Reveal)
		if !ok {
			fail(MismatchSignature, "the signed message is a %s, not a roll.reveal", msg.Kind())
			return
		}
		if rev.Request != d.Request || rev.R.String() != d.Reveal {
			fail(MismatchSignature, "the event's request and reveal are not the signed ones")
			return
		}
		if !dice.RevealMatches([32]byte(rev.R), r.d.Commitment) {
			fail(MismatchReveal, "SHA-256 of the reveal %s is not request %s's commitment %s", clip(d.Reveal, 80), d.Request, r.d.Commitment)
			return
		}
		rv = [32]byte(rev.R)
	}
	var diff []string
	eq := func(what string, got, want any) {
		if got != want {
			diff = append(diff, fmt.Sprintf("%s: rolled %v, requested %v", what, got, want))
		}
	}
	add := func(what string) { diff = append(diff, what) }
	if r.d.Kind == rolls.KindFree {
		freeRollInputs(d, r, eq) // v2_free.go
	} else if isAttackRequest(*r.d) {
		v.attackRoll(s, m, ev, d, r, damage, eq, add)
	} else if isPathRequest(*r.d) {
		v.pathRoll(s, c, m, ev, d, r, eq, add) // v2_paths.go
	} else if c.fold.System == torSystem {
		v.torRoll(s, c, m, ev, d, r, eq, add) // v2_tor.go
	} else {
		rollInputs(d, r, eq, add)
	}
	if len(diff) > 0 {
		fail(MismatchInputs, "the roll is not the one requested: %s", strings.Join(diff, "; "))
		return
	}
	ok := v.checkRules(s, m, d)
	sides, err := rolls.Dice(*d)
	if err != nil {
		fail(MismatchInvalidRoll, "cannot tell which dice the roll drew: %v", err)
		return
	}
	if !slices.Equal(sides, d.Draws) {
		fail(MismatchFaces, "recorded draws %v, the rules roll %v", clip(fmt.Sprint(d.Draws), 200), clip(fmt.Sprint(sides), 200))
		return
	}
	key := s.v2.sessionKey(ev.Campaign, ev.Session)
	if key == nil {
		s.unverifiable++
		return
	}
	got, err := derive(key.Stream(ev.Campaign, ev.Session, d.Nonce, rv), d.Draws, v.faces[:0])
	v.faces = got
	if err != nil {
		fail(MismatchInvalidRoll, "%v", err)
		return
	}
	if !slices.Equal(got, d.Faces) {
		fail(MismatchFaces, "recorded faces %v, the session key and the reveal give %v (first difference at die %d)",
			clip(fmt.Sprint(d.Faces), 200), clip(fmt.Sprint(got), 200), firstDiff(got, d.Faces)+1)
		return
	}
	if ok {
		s.verified++
	}
}

// rollInputs compares a skill or attribute roll with its request.
func rollInputs(d *events.RollMade, r *v2Request, eq func(string, any, any), add func(string)) {
	eq("nonce", d.Nonce, r.d.Nonce)
	eq("character", d.Character, r.d.Character)
	eq("kind", d.Kind, r.d.Kind)
	eq("skill", d.Skill, r.d.Skill)
	eq("modifier", d.Modifier, r.d.Modifier)
	eq("token", d.Token, r.d.Token)
	eq("specialization", d.Specialization, r.d.Specialization)
	if len(r.d.Attribute) == 1 {
		eq("attribute", d.Attribute, r.d.Attribute)
	}
	if r.d.Vs != "" {
		want, err := ryf.ParseDifficulty(r.d.Vs)
		switch {
		case err != nil:
			add(fmt.Sprintf("the requested difficulty %q: %v", r.d.Vs, err))
		case d.Difficulty == nil:
			add(fmt.Sprintf("difficulty: rolled none, requested %q", r.d.Vs))
		default:
			eq("difficulty", *d.Difficulty, want)
		}
	} else if d.Difficulty != nil {
		add(fmt.Sprintf("difficulty: rolled %d, requested none", *d.Difficulty))
	}
}

// sessionKey returns K once the seed is known (nil before).
func (s *v2Session) sessionKey(campaign, session string) *dice.KeyV2 {
	if s.seed == nil {
		return nil
	}
	if s.key == nil {
		k := dice.SessionKey(*s.seed, campaign, session, s.contributions)
		s.key = &k
	}
	return s.key
}

// v2Report adds a v2 session's flags and cancelled requests to its report.
func (s *session) v2Report(sr *SessionReport) {
	if s.v2 == nil {
		return
	}
	sr.Algorithm = dice.AlgorithmV2
	sr.Contributions = len(s.v2.contributions)
	sr.Cancelled = slices.Clone(s.v2.cancelled)
	sr.Flags = append(sr.Flags, s.sessionFlags()...) // v2_flags.go
	s.gmReport(sr)                                   // v2_witness.go
}

// v2Consumed counts the nonces a v2 session consumed without a roll event:
// cancelled and unrevealed requests.
func (s *session) v2Consumed() int {
	if s.v2 == nil {
		return 0
	}
	n := 0
	for _, r := range s.v2.requests {
		n += len(r.d.Taken()) - r.rolled
	}
	return n
}

func idString(k idKey) string {
	var b strings.Builder
	const hexd = "0123456789abcdef"
	for i, c := range k {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			b.WriteByte('-')
		}
		b.WriteByte(hexd[c>>4])
		b.WriteByte(hexd[c&15])
	}
	return b.String()
}

// writeV2Session writes, in l, what the audit checked of a v2 session and
// its flags; of a v1 session, its flags (empty) only.
func writeV2Session(w io.Writer, l i18n.Lang, s SessionReport) {
	if s.Algorithm != dice.AlgorithmV2 {
		writeFlags(w, l, s.Flags)
		return
	}
	fmt.Fprintln(w, "  "+l.N("rp2.contributions", s.Contributions, s.Algorithm))
	writeCosigned(w, l, s)
	writeFlags(w, l, s.Flags)
}

// attackRoll compares a roll of an attack request with the request: the
// attack roll takes the first nonce, the damage roll (damage) the second,
// only after a hit. It keeps what the attack's consequences must be.
func (v *Verifier) attackRoll(s *session, m Mismatch, ev events.Event, d *events.RollMade, r *v2Request, damage bool, eq func(string, any, any), add func(string)) {
	nonces := r.d.Taken()
	eq("character", d.Character, r.d.Character)
	eq("target", d.Target, r.d.Target)
	eq("weapon", d.Weapon, r.d.Weapon)
	if !damage {
		if a := s.v2.attack; a != nil {
			mm := m
			mm.Kind, mm.What = MismatchRules, fmt.Sprintf("attack of request %s (roll %s) has no resolution before the next attack", a.request, a.attackID)
			v.record(s, mm)
		}
		eq("nonce", d.Nonce, nonces[0])
		eq("kind", d.Kind, r.d.Kind)
		eq("modifier", d.Modifier, r.d.Modifier)
		eq("token", d.Token, r.d.Token)
		eq("specialization", d.Specialization, r.d.Specialization)
		eq("range", d.Range, r.d.Range)
		eq("cover", d.Cover, r.d.Cover)
		hit := d.Outcome == string(ryf.OutcomeSuccess) || d.Outcome == string(ryf.OutcomeCritical)
		s.v2.attack = &v2Attack{m: m, request: d.Request, attackID: ev.ID, attacker: d.Character, target: d.Target,
			hit: hit, critical: hit && d.Critical, total: d.Total}
		return
	}
	eq("nonce", d.Nonce, nonces[len(nonces)-1])
	eq("kind", d.Kind, rolls.KindDamage)
	a := s.v2.attack
	switch {
	case a == nil || a.request != d.Request:
		add("a damage roll after its attack was resolved")
	case !a.hit:
		add(fmt.Sprintf("a damage roll for an attack that missed (roll %s)", a.attackID))
	default:
		eq("critical (the attack's)", d.Critical, a.critical)
		a.damageID, a.damage = ev.ID, d.Total
	}
}

// attackConsequence checks, in a v2 session, the damage an attack deals
// and its resolution against what its recorded rolls say (v1's rules:
// a hit is a success, the damage is the damage roll's total, taken by the
// target from the attacker when above 0). Damage taken outside an attack
// (the GM's, by hand) is not a roll's and is not checked here.
func (v *Verifier) attackConsequence(s *session, m Mismatch, ev events.Event, data any) {
	a := s.v2.attack
	bad := func(format string, args ...any) {
		m.Kind, m.What = MismatchRules, fmt.Sprintf(format, args...)
		v.record(s, m)
	}
	switch d := data.(type) {
	case *events.DamageTaken:
		if a == nil {
			return
		}
		switch {
		case a.damageID == "":
			bad("damage taken during the attack of request %s, which has no damage roll", a.request)
		case a.taken:
			bad("damage taken twice for the attack of request %s", a.request)
		case d.Character != a.target || d.Source != a.attacker || d.Amount != a.damage:
			bad("damage taken: %s takes %d from %s, the attack's rolls say %s takes %d from %s",
				d.Character, d.Amount, d.Source, a.target, a.damage, a.attacker)
		}
		a.taken = true
	case *events.AttackResolved:
		s.v2.attack = nil
		if a == nil || d.AttackRoll != a.attackID {
			bad("attack resolved for roll %s, which is not the v2 attack roll just recorded", clip(d.AttackRoll, 40))
			return
		}
		var diff []string
		eq := func(what string, got, want any) {
			if got != want {
				diff = append(diff, fmt.Sprintf("%s: recorded %v, the rolls say %v", what, got, want))
			}
		}
		eq("attacker", d.Attacker, a.attacker)
		eq("target", d.Target, a.target)
		eq("hit", d.Hit, a.hit)
		eq("critical", d.Critical, a.critical)
		eq("total", d.Total, a.total)
		eq("damage roll", d.DamageRoll, a.damageID)
		eq("damage", d.Damage, a.damage)
		if a.hit && a.damageID == "" {
			diff = append(diff, "a hit without its damage roll")
		}
		if a.damage > 0 && !a.taken {
			diff = append(diff, fmt.Sprintf("%s takes no damage, the damage roll says %d", a.target, a.damage))
		}
		if len(diff) > 0 {
			bad("the attack's consequences are not the rules': %s", strings.Join(diff, "; "))
		}
	}
}

// unresolvedAttack is the mismatch of an attack whose rolls are recorded
// and whose resolution is not, at the end of the input (nil: none).
func (s *session) unresolvedAttack() *Mismatch {
	if s.v2 == nil || s.v2.attack == nil {
		return nil
	}
	a := s.v2.attack
	m := a.m
	m.Kind, m.What = MismatchRules, fmt.Sprintf("attack of request %s (roll %s) has no resolution after its rolls", a.request, a.attackID)
	return &m
}
