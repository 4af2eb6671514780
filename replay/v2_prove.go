package replay

// A suppressed roll's proof (docs/design.md §3.3, "A suppressed roll can be
// proved"): journal.roll.proved.v1 events, and proof files given with
// Options.Proofs (`journal replay --file EXPORT --proof FILE`).
//
// Invariants:
//   - A proved event holds only if its signed roll.reveal is its user's
//     under the key its request was signed with, opens the request's
//     commitment, and proves a request that was cancelled, or left
//     unrevealed at its session's end, and not proved before; its nonces
//     and its cancellation are the request's. Once the session's seed is
//     known, every roll it records re-derives from the seed with its
//     draws, or it is a mismatch.
//   - A proof file holds on the same terms against the export (else
//     ProofBad, naming what is wrong); a proof of a request whose roll the
//     export records is ProofRecorded (no flag). A file proof's faces, the
//     journal not having drawn it, are the request's first dice only
//     (firstSides: what a verifier draws without the character sheets).
//   - Either gives the flag cancelled-after-reveal, in the same words as
//     web/static/verify.js.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/signed"
)

// FlagCancelledAfterReveal: a request its requester proved after the GM
// cancelled it (or it was left unrevealed at the session's end): who
// cancelled it and the roll it would have been.
const FlagCancelledAfterReveal FlagCode = "cancelled-after-reveal"

// ProofFile is a proof file given to the verifier: its name (as the user
// gave it) and its contents, read with signed.ParseProof.
type ProofFile struct {
	Name  string
	Proof signed.Proof
}

// Proof results.
const (
	ProofFlagged  = "flagged"  // the reveal holds and the export has no roll for it: cancelled-after-reveal
	ProofRecorded = "recorded" // the export records the request's roll (or its proof)
	ProofBad      = "bad"      // the proof does not hold against the export (What says why)
)

// ProofResult is what the verifier concluded of one proof file (What in
// English; WhatIn in any language).
type ProofResult struct {
	File    string `json:"file"`
	Request string `json:"request"`
	Status  string `json:"status"`
	What    string `json:"what,omitempty"`
	msg     text
}

// WhatIn is What in l.
func (p ProofResult) WhatIn(l i18n.Lang) string {
	if p.msg == nil {
		return p.What
	}
	return p.msg.inL(l)
}

func (p *ProofResult) say(key i18n.Key, args ...any) {
	p.msg = text{msg(key, args...)}
	p.What = p.msg.inL(i18n.EN)
}

// v2Proved is one proof of a session: a proved event's or a proof file's.
type v2Proved struct {
	m       Mismatch
	file    string // the proof file ("" for a proved event)
	user    string
	r       [32]byte
	req     *v2Request
	rolls   []events.ProvedRoll // as recorded (a file's: its first dice, drawn here)
	derived bool                // the faces are re-derived from the seed
}

// requestKey is the keys a request's user could sign with when it was
// recorded (the user's active devices), kept to check its reveal wherever
// it comes from.
type requestKey struct {
	pubs        []signed.PublicKey
	fingerprint string // the devices' fingerprints, for messages
}

// keyOfRequest is the active devices of user in fold (nil: none). The
// requests of a user share one (read only) while its active devices stay
// the same, so that a long campaign does not keep a parsed key set per
// request.
func (v *Verifier) keyOfRequest(fold *projections.Campaign, user string) *requestKey {
	p := fold.Participants[user]
	if c, ok := v.x.keys[user]; ok && c.fold == fold && sameActive(p, c.from) {
		return c.key
	}
	var k requestKey
	var fps, from []string
	for _, d := range p.ActiveDevices() {
		from = append(from, d.PublicKey)
		if pub, err := signed.ParsePublicKey(d.PublicKey); err == nil {
			k.pubs = append(k.pubs, pub)
			fps = append(fps, d.Fingerprint)
		}
	}
	key := &k
	if len(k.pubs) == 0 {
		key = nil
	} else {
		k.fingerprint = strings.Join(fps, ", ")
	}
	if v.x.keys == nil {
		v.x.keys = map[string]cachedKey{}
	}
	v.x.keys[user] = cachedKey{fold: fold, from: from, key: key}
	return key
}

// cachedKey is the requestKey (nil: none) of a user's active devices in a
// campaign's fold, and their public keys as registered, newest first.
type cachedKey struct {
	fold *projections.Campaign
	from []string
	key  *requestKey
}

// sameActive reports whether p's active devices, newest first, have the
// public keys from (in order, none more).
func sameActive(p *projections.Participant, from []string) bool {
	n := 0
	if p != nil {
		for i := len(p.Devices) - 1; i >= 0; i-- {
			if !p.Devices[i].Active() {
				continue
			}
			if n == len(from) || p.Devices[i].PublicKey != from[n] {
				return false
			}
			n++
		}
	}
	return n == len(from)
}

// open opens a signed message under the first of the keys it holds under.
func (k *requestKey) open(signedString, signature, campaign, session string) (signed.Message, error) {
	var first error
	for _, pub := range k.pubs {
		m, err := signed.Open(pub, signedString, signature, campaign, session)
		if err == nil {
			return m, nil
		}
		if first == nil {
			first = err
		}
	}
	return nil, first
}

// provedEvent checks a journal.roll.proved.v1.
func (v *Verifier) provedEvent(s *session, c *campaign, m Mismatch, ev events.Event, d *events.RollProved) {
	nonce := d.Nonce
	m.Nonce = &nonce
	fail := func(kind MismatchKind, format string, args ...any) {
		m.Kind, m.What = kind, fmt.Sprintf(format, args...)
		v.record(s, m)
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
	r := s.v2.requests[d.Request]
	if why := proofFits(r, d.Request, d.User, [32]byte(rev.R), s.ended); why != nil {
		fail(MismatchRequest, "%s", why.inL(i18n.EN))
		return
	}
	var diff []string
	eq := func(what string, got, want any) {
		if fmt.Sprint(got) != fmt.Sprint(want) {
			diff = append(diff, fmt.Sprintf("%s: recorded %v, the request's %v", what, got, want))
		}
	}
	eq("nonce", d.Nonce, r.d.Nonce)
	eq("nonces", d.Nonces, r.d.Nonces)
	eq("cancelled by", d.CancelledBy, r.cancelledBy)
	eq("cancellation", d.Cancel, r.cancelID)
	taken := r.d.Taken()
	if len(d.Rolls) == 0 || len(d.Rolls) > len(taken) {
		diff = append(diff, fmt.Sprintf("%d rolls recorded, the request takes %d nonces", len(d.Rolls), len(taken)))
	} else {
		first := d.Rolls[0]
		if !slices.Equal(d.Draws, first.Draws) || !slices.Equal(d.Faces, first.Faces) || d.Total != first.Total || d.Outcome != first.Outcome {
			diff = append(diff, "draws, faces, total and outcome are not those of its first roll")
		}
		for i, pr := range d.Rolls {
			eq(fmt.Sprintf("roll %d's nonce", i+1), pr.Nonce, taken[i])
			if len(pr.Draws) == 0 || len(pr.Draws) != len(pr.Faces) || slices.ContainsFunc(pr.Draws, func(n int) bool { return n < 2 || n > 256 }) {
				diff = append(diff, fmt.Sprintf("roll %d: draws must list the sides (2 to 256) of every face", i+1))
			}
		}
	}
	if len(diff) > 0 {
		fail(MismatchInputs, "the proof is not its request's: %s", strings.Join(diff, "; "))
		return
	}
	r.proved = strings.Clone(ev.ID)
	s.v2.proved = append(s.v2.proved, &v2Proved{m: m, user: d.User, r: [32]byte(rev.R), req: r, rolls: slices.Clone(d.Rolls)})
}

// proofFits says why a reveal of r by user cannot prove request (r the
// recorded request, nil if unknown) in a session (ended or not), or nil.
func proofFits(r *v2Request, request, user string, rv [32]byte, ended bool) text {
	say := func(key i18n.Key, args ...any) text { return text{msg(key, args...)} }
	switch {
	case r == nil:
		return say("rp2.proof.unknown_request", request)
	case r.d.User != user:
		return say("rp2.proof.not_users", user, request, r.d.User)
	case r.d.Commitment == "":
		return say("rp2.proof.gm_request", request)
	case !dice.RevealMatches(rv, r.d.Commitment):
		return say("rp2.proof.commitment", request, r.d.Commitment)
	case r.state == projections.RequestMade:
		return say("rp2.proof.made", request)
	case r.proved != "":
		return say("rp2.proof.proved", request, r.proved)
	case r.state == projections.RequestPending && !ended:
		return say("rp2.proof.pending", request)
	}
	return nil
}

// firstSides are the sides of the first dice a request's roll draws,
// whatever the character sheets say: a The One Ring roll's feat die, an
// after-combat healing's d6, else a 1o3d10 roll's first round.
func firstSides(q events.RollRequested) []int {
	switch {
	case q.TN > 0:
		return []int{12}
	case q.Kind == "heal":
		return []int{6}
	}
	return []int{10, 10, 10}
}

// proofFile checks a proof file against session s of the export; it
// returns its result, and records its proof in s when it holds.
func (s *session) proofFile(pf ProofFile) ProofResult {
	p := pf.Proof
	res := ProofResult{File: pf.Name, Request: p.Request, Status: ProofBad}
	refuse := func(key i18n.Key, args ...any) ProofResult {
		res.say(key, args...)
		return res
	}
	if s.v2 == nil {
		return refuse("rp2.proof.not_v2", s.id)
	}
	r := s.v2.requests[p.Request]
	if r == nil {
		return refuse("rp2.proof.no_request", p.Request, s.id)
	}
	if r.d.User != p.User {
		return refuse("rp2.proof.not_users", p.User, p.Request, r.d.User)
	}
	if r.key == nil {
		return refuse("rp2.proof.no_key", p.Request)
	}
	msg, err := r.key.open(p.Signed, p.Signature, s.campaign, s.id)
	if err != nil {
		return refuse("rp2.proof.signature", p.Request, p.User, r.key.fingerprint)
	}
	rev, ok := msg.(*signed.Reveal)
	if !ok || rev.Request != p.Request {
		return refuse("rp2.proof.not_reveal", p.Request)
	}
	if r.state == projections.RequestMade || r.proved != "" {
		ev := r.made
		if r.proved != "" {
			ev = r.proved
		}
		res.Status = ProofRecorded
		res.say("rp2.proof.recorded", pf.Name, p.Request, ev)
		return res
	}
	if why := proofFits(r, p.Request, p.User, [32]byte(rev.R), true); why != nil {
		res.msg, res.What = why, why.inL(i18n.EN)
		return res
	}
	s.v2.proved = append(s.v2.proved, &v2Proved{m: Mismatch{Campaign: s.campaign, Session: s.id}, file: pf.Name, user: p.User,
		r: [32]byte(rev.R), req: r, rolls: []events.ProvedRoll{{Nonce: r.d.Taken()[0], Draws: firstSides(*r.d)}}})
	res.Status = ProofFlagged
	return res
}

// provedReport re-derives the faces of the session's proofs once its seed
// is known (add records a mismatch) and returns their flags.
func (s *session) provedReport(add func(Mismatch)) []Flag {
	if s.v2 == nil {
		return nil
	}
	var out []Flag
	key := s.v2.sessionKey(s.campaign, s.id)
	for _, p := range s.v2.proved {
		if key != nil {
			ok := true
			for i, pr := range p.rolls {
				got, err := derive(key.Stream(s.campaign, s.id, pr.Nonce, p.r), pr.Draws, nil)
				switch {
				case err != nil:
					m := p.m
					m.Kind, m.What = MismatchInvalidRoll, fmt.Sprintf("proved roll %d of request %s: %v", i+1, p.req.d.Request, err)
					add(m)
					ok = false
				case p.file != "":
					p.rolls[i].Faces = got
				case !slices.Equal(got, pr.Faces):
					m := p.m
					m.Kind, m.What = MismatchFaces, fmt.Sprintf("proved roll %d of request %s records faces %v, the session key and the reveal give %v",
						i+1, p.req.d.Request, clip(fmt.Sprint(pr.Faces), 200), clip(fmt.Sprint(got), 200))
					add(m)
					ok = false
				}
			}
			if !ok {
				continue
			}
			p.derived = true
		}
		out = append(out, p.flag())
	}
	return out
}

// flag is the cancelled-after-reveal flag of a proof.
func (p *v2Proved) flag() Flag {
	q := p.req
	event := p.m.EventID
	if event == "" {
		event = q.event
	}
	faces, outcomes := projections.ProvedText(p.rolls)
	switch {
	case p.file == "" && q.state == projections.RequestCancelled:
		return newFlag(FlagCancelledAfterReveal, event, "rp2.f.cancelled_after_reveal", p.user, q.d.Request, q.d.Nonce, q.cancelledBy, q.cancelID, faces, outcomes)
	case p.file == "":
		return newFlag(FlagCancelledAfterReveal, event, "rp2.f.unrevealed_after_reveal", p.user, q.d.Request, q.d.Nonce, faces, outcomes)
	case !p.derived && q.state == projections.RequestCancelled:
		return newFlag(FlagCancelledAfterReveal, event, "rp2.f.proof_cancelled_sealed", p.file, p.user, q.d.Request, q.d.Nonce, q.cancelledBy, q.cancelID)
	case !p.derived:
		return newFlag(FlagCancelledAfterReveal, event, "rp2.f.proof_unrevealed_sealed", p.file, p.user, q.d.Request, q.d.Nonce)
	case q.state == projections.RequestCancelled:
		return newFlag(FlagCancelledAfterReveal, event, "rp2.f.proof_cancelled", p.file, p.user, q.d.Request, q.d.Nonce, q.cancelledBy, q.cancelID, faces)
	}
	return newFlag(FlagCancelledAfterReveal, event, "rp2.f.proof_unrevealed", p.file, p.user, q.d.Request, q.d.Nonce, faces)
}

// sessionProofs checks the proof files of session s (Options.Proofs that
// name its campaign and session), once.
func (v *Verifier) sessionProofs(s *session) {
	for i, pf := range v.opts.Proofs {
		if pf.Proof.Campaign != s.campaign || pf.Proof.Session != s.id {
			continue
		}
		if _, done := v.proofs[i]; done {
			continue
		}
		if v.proofs == nil {
			v.proofs = map[int]ProofResult{}
		}
		v.proofs[i] = s.proofFile(pf)
	}
}

// proofsReport is the result of every proof file, in order: one naming a
// session the input does not hold is bad.
func (v *Verifier) proofsReport() []ProofResult {
	var out []ProofResult
	for i, pf := range v.opts.Proofs {
		res, ok := v.proofs[i]
		if !ok {
			res = ProofResult{File: pf.Name, Request: pf.Proof.Request, Status: ProofBad}
			res.say("rp2.proof.no_session", pf.Proof.Session, pf.Proof.Campaign)
		}
		out = append(out, res)
	}
	return out
}
