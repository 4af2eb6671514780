package replay

import (
	"context"
	"crypto/sha256"
	"fmt"
	"hash/maphash"
	"math"
	"slices"
	"strings"

	"time"

	"github.com/google/uuid"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rolls"
	"github.com/campaign-journal/journal/rules/dice"
)

// DefaultMaxMismatches is how many mismatches a session (and the report's
// own list) keeps when Options.MaxMismatches is 0; the rest are counted.
const DefaultMaxMismatches = 1000

// Options configure a verification.
type Options struct {
	// Lang is the language of the texts a report holds that are written
	// while it is made (the transcript of a reproduction); the zero Lang
	// is Spanish, the transcript's language of old. The text writers take
	// their own (WriteTextIn).
	Lang i18n.Lang `json:"lang,omitempty"`
	// Seeds are seeds (64 hex digits) given by someone who holds them, for
	// sessions that have not revealed theirs yet (`--seed`). A key is a
	// session id, or "campaign/session" when session ids repeat across
	// campaigns (that form wins).
	Seeds map[string]string `json:"seeds,omitempty"`
	// Campaign, when set, leaves out every event of other campaigns.
	Campaign string `json:"campaign,omitempty"`
	// Session, when set, checks and reports only that session; the other
	// events of its campaign are still folded and checked for duplicate ids.
	Session string `json:"session,omitempty"`
	// MaxMismatches caps the mismatches listed per session and in the
	// report's own list (0: DefaultMaxMismatches); the rest are counted in
	// Omitted.
	MaxMismatches int `json:"max_mismatches,omitempty"`
	// Now is the time of the verification, for the flag of a v2 session
	// not revealed StaleAfter after its last event (zero: time.Now();
	// StaleAfter 0: DefaultStaleAfter). v2_flags.go.
	Now        time.Time     `json:"-"`
	StaleAfter time.Duration `json:"-"`
	// Proofs are proof files of suppressed rolls to check against the
	// input (`--proof`, v2_prove.go); each gets a Report.Proofs entry.
	Proofs []ProofFile `json:"-"`
}

// MismatchKind names what a mismatch is about.
type MismatchKind string

// The kinds of mismatch.
const (
	// MismatchCommitment: a seed (revealed or given) does not match the
	// session's commitment.
	MismatchCommitment MismatchKind = "commitment"
	// MismatchSeed: a revealed seed that is not 64 hex digits.
	MismatchSeed MismatchKind = "seed"
	// MismatchAlgorithm: a session started with another algorithm than journal-dice-v1.
	MismatchAlgorithm MismatchKind = "algorithm"
	// MismatchFaces: the recorded faces are not the ones the seed gives.
	MismatchFaces MismatchKind = "faces"
	// MismatchRules: a total, outcome or other rule-derived field is not
	// what the rules make of the recorded inputs and faces.
	MismatchRules MismatchKind = "rules"
	// MismatchInputs: a roll's attribute value or skill rank differs from
	// the character sheet the projections fold at that point.
	MismatchInputs MismatchKind = "inputs"
	// MismatchInvalidRoll: faces or inputs that no roll of that kind can
	// produce (too few or too many faces, a face out of range, bad dice).
	MismatchInvalidRoll MismatchKind = "invalid-roll"
	// MismatchNonceGap: nonces missing from a session — rolls made and hidden.
	MismatchNonceGap MismatchKind = "nonce-gap"
	// MismatchNonceRepeat: a nonce taken by two rolls.
	MismatchNonceRepeat MismatchKind = "nonce-repeat"
	// MismatchRollCount: the session-ended roll count differs from the rolls seen.
	MismatchRollCount MismatchKind = "roll-count"
	// MismatchNoSession: a roll made outside any session.
	MismatchNoSession MismatchKind = "no-session"
	// MismatchUnknownSession: an event of a session not started in the input
	// (or before its start).
	MismatchUnknownSession MismatchKind = "unknown-session"
	// MismatchAfterEnd: a roll recorded after its session ended and revealed its seed.
	MismatchAfterEnd MismatchKind = "after-end"
	// MismatchSession: a session started or ended twice.
	MismatchSession MismatchKind = "session"
	// MismatchDuplicateID: two events with the same id.
	MismatchDuplicateID MismatchKind = "duplicate-id"
	// MismatchVoidUnknown: a void naming an event that is not in the input.
	MismatchVoidUnknown MismatchKind = "void-unknown"
	// MismatchFold: an event the projections refuse to fold.
	MismatchFold MismatchKind = "fold"
	// MismatchInvalidEvent: an event whose data cannot be read.
	MismatchInvalidEvent MismatchKind = "invalid-event"
)

// Mismatch is one thing the audit found wrong, located by event.
type Mismatch struct {
	Kind MismatchKind `json:"kind"`
	// EventID is the event at fault (for a nonce gap, the roll just after
	// it, or the session-ended event when the gap is at the end).
	EventID string `json:"event_id,omitempty"`
	// Seq is the event's stream sequence, when the input has one.
	Seq uint64 `json:"seq,omitempty"`
	// Position is the event's place in the input, from 1 (the line number
	// of an export without blank lines).
	Position int    `json:"position,omitempty"`
	Campaign string `json:"campaign,omitempty"`
	Session  string `json:"session,omitempty"`
	// Nonce is the roll's nonce (for a gap, the first missing one).
	Nonce *uint64 `json:"nonce,omitempty"`
	// What says what differs, in words (English; WhatIn in any language).
	What string `json:"what"`
	// msg is What as catalogue messages, nil for a What written directly.
	msg text
}

// message is a catalogue key and its arguments.
type message struct {
	key  i18n.Key
	args []any
}

// say sets What to the catalogue's message key with args, in English, and
// keeps the message to print it in any language (WhatIn).
func (m *Mismatch) say(key i18n.Key, args ...any) { m.tell(text{msg(key, args...)}) }

// tell sets What to t in English, and keeps t to print it in any language.
func (m *Mismatch) tell(t text) { m.What, m.msg = t.inL(i18n.EN), t }

// WhatIn is What in l: the same words when the mismatch came from the
// catalogue, What as it is otherwise (read back from JSON, or built from
// an error's text).
func (m Mismatch) WhatIn(l i18n.Lang) string {
	if m.msg == nil {
		return m.What
	}
	return m.msg.inL(l)
}

// Status is a session's verdict.
type Status string

// The verdicts of a session.
const (
	// StatusVerified: the seed matches the commitment, every roll re-derives
	// and agrees with the rules, nonces run 0, 1, 2, … without gaps or repeats.
	StatusVerified Status = "verified"
	// StatusMismatch: at least one mismatch.
	StatusMismatch Status = "mismatch"
	// StatusUnrevealed: no mismatch, but no seed to re-derive the rolls
	// with: the session has not ended and no seed was given.
	StatusUnrevealed Status = "not yet revealed"
)

// VoidedRoll is a roll that a journal.event.voided.v1 event corrected. It
// still took its nonce (it was made) and is still checked.
type VoidedRoll struct {
	EventID  string `json:"event_id"`
	Nonce    uint64 `json:"nonce"`
	VoidedBy string `json:"voided_by"`
	Reason   string `json:"reason"`
	// ConsentBy is the roller whose signed void.consent the void carries,
	// verified (journal-dice-v2; v2_cosign.go).
	ConsentBy string `json:"consent_by,omitempty"`
}

// SessionReport is the verdict on one session.
type SessionReport struct {
	Campaign   string `json:"campaign"`
	Session    string `json:"session"`
	Status     Status `json:"status"`
	Commitment string `json:"commitment"`
	// SeedSource is where the seed that re-derived the rolls came from:
	// "revealed" (the session-ended event), "given" (Options.Seeds) or "".
	SeedSource string `json:"seed_source,omitempty"`
	Ended      bool   `json:"ended"`
	// DeclaredRolls is the session-ended event's roll count.
	DeclaredRolls *int `json:"declared_rolls,omitempty"`
	// Rolls counts the roll events checked (nonces and rules); Verified
	// those whose faces also re-derived from the seed, with every check
	// passed; Unverifiable those that could not be re-derived for want of a
	// seed.
	Rolls        int          `json:"rolls_checked"`
	Verified     int          `json:"rolls_verified"`
	Unverifiable int          `json:"rolls_unverifiable"`
	Voided       []VoidedRoll `json:"voided,omitempty"`
	Mismatches   []Mismatch   `json:"mismatches"`
	// Omitted counts mismatches beyond Options.MaxMismatches.
	Omitted int `json:"omitted,omitempty"`
	// journal-dice-v2 sessions (v2.go): the algorithm, how many
	// contributions entered the key, the cancelled requests, and what the
	// audit flags without failing.
	Algorithm     string             `json:"algorithm,omitempty"`
	Contributions int                `json:"contributions,omitempty"`
	Cancelled     []CancelledRequest `json:"cancelled,omitempty"`
	Flags         []Flag             `json:"flags,omitempty"`
	// Cosigned lists the verified co-signatures of the session's end (v2_cosign.go).
	Cosigned []Cosignature `json:"cosigned,omitempty"`
	// Unwitnessed lists the GM rolls resolved with the server's r (v2_witness.go).
	Unwitnessed []UnwitnessedRoll `json:"unwitnessed,omitempty"`
}

// CampaignReport is what refolding a campaign's projections gave.
type CampaignReport struct {
	Campaign   string `json:"campaign"`
	Name       string `json:"name,omitempty"`
	System     string `json:"system,omitempty"`
	Events     int    `json:"events"`
	Characters int    `json:"characters"`
	Sessions   int    `json:"sessions"`
	FoldErrors int    `json:"fold_errors"`
	// Flags are journal-dice-v2 findings that do not fail the audit (keys
	// registered for a user by someone else).
	Flags []Flag `json:"flags,omitempty"`
	// Devices lists every device registered in the campaign, revoked ones
	// included, with who registered it (docs/design.md §3.3).
	Devices []DeviceReport `json:"devices,omitempty"`
}

// Totals sum a report up.
type Totals struct {
	Events             int `json:"events"`
	Campaigns          int `json:"campaigns"`
	Sessions           int `json:"sessions"`
	SessionsVerified   int `json:"sessions_verified"`
	SessionsMismatch   int `json:"sessions_mismatch"`
	SessionsUnrevealed int `json:"sessions_unrevealed"`
	Rolls              int `json:"rolls_checked"`
	Verified           int `json:"rolls_verified"`
	Unverifiable       int `json:"rolls_unverifiable"`
	Voided             int `json:"voided"`
	// Mismatches counts every mismatch, omitted ones included.
	Mismatches int `json:"mismatches"`
	// Flags counts what the audit flags without failing (Report.Flagged).
	Flags int `json:"flags"`
	// Foreign counts the input that is not events, omitted ones included.
	Foreign int `json:"foreign"`
}

// Report is the verdict of a verification.
type Report struct {
	Sessions  []SessionReport  `json:"sessions"`
	Campaigns []CampaignReport `json:"campaigns"`
	// Mismatches are those that belong to no session of the input: rolls
	// outside a session or of an unknown one, duplicate ids outside
	// sessions, voids of unknown events, fold errors.
	Mismatches []Mismatch `json:"mismatches"`
	Omitted    int        `json:"omitted,omitempty"`
	// Foreign is the input that is not events (at most
	// Options.MaxMismatches; ForeignOmitted counts the rest), in order:
	// messages of the stream or lines of an export. Their contents cannot
	// be checked, so any makes the audit fail.
	Foreign        []ForeignMessage `json:"foreign,omitempty"`
	ForeignOmitted int              `json:"foreign_omitted,omitempty"`
	// Proofs are the results of Options.Proofs, in their order (v2_prove.go).
	Proofs []ProofResult `json:"proofs,omitempty"`
	Totals Totals        `json:"totals"`
}

// OK reports whether the audit found no mismatch anywhere and no input that
// is not an event. Sessions not yet revealed do not make it fail.
func (r Report) OK() bool { return r.Totals.Mismatches == 0 && r.Totals.Foreign == 0 }

// Verify audits every session in src: it calls src twice, once to learn the
// revealed seeds and the voids (Verifier.Scan) and once to check each event
// (Verifier.Add), and returns the Report. The error is src's (I/O, a
// malformed export, ctx); what is wrong in the events is in the Report.
// Both passes must yield the same events: bind a store read to a fixed last
// sequence.
func Verify(ctx context.Context, src Source, opts Options) (Report, error) {
	v, err := NewVerifier(opts)
	if err != nil {
		return Report{}, err
	}
	// Scan reads session ends and voids only: a JSON Lines source skips
	// the other lines of the first pass without decoding them. Input that
	// is not an event is listed by the second pass, and passed over by
	// the first.
	scan := withPassTypes(ctx, events.TypeSessionEnded, events.TypeEventVoided)
	if err := src(scan, func(in Input) error {
		if in.Foreign == nil {
			v.Scan(in.Recorded)
		}
		return nil
	}); err != nil {
		return Report{}, err
	}
	if err := v.addAll(ctx, src); err != nil { // parallel.go
		return Report{}, err
	}
	return v.Report(), nil
}

// addInput adds one input of the second pass: an event (Add), or a
// message that is not one (Foreign).
func (v *Verifier) addInput(in Input) {
	if in.Foreign != nil {
		v.Foreign(*in.Foreign)
		return
	}
	v.Add(in.Recorded)
}

// pipeBatch is how many events pipe hands over at once, and pipeDepth how
// many batches may wait: what pipe adds to the memory of a pass.
const (
	pipeBatch = 128
	pipeDepth = 4
)

// pipe calls src and hands its input to fn on a second goroutine, in
// order, a batch at a time, so that reading and decoding the next events
// overlaps with fn. It returns src's error once fn has seen every input
// handed over. fn must not fail or panic (Verifier.addInput and
// LuckCounter.Add do neither).
func pipe(ctx context.Context, src Source, fn func(Input)) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	batches := make(chan []Input, pipeDepth)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for b := range batches {
			for _, r := range b {
				fn(r)
			}
		}
	}()
	batch := make([]Input, 0, pipeBatch)
	send := func() error {
		select {
		case batches <- batch:
			batch = make([]Input, 0, pipeBatch)
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	err := src(ctx, func(in Input) error {
		batch = append(batch, in)
		if len(batch) < pipeBatch {
			return nil
		}
		return send()
	})
	if err == nil && len(batch) > 0 {
		err = send()
	}
	close(batches)
	<-done
	return err
}

// Verifier checks events one at a time, keeping per-session state but no
// events. Use it in two passes over the same events in the same order:
// Scan every event, then Add every event, then read the Report. Without the
// Scan pass a session's seed is known only from Options.Seeds or once its
// session-ended event has gone by, so its earlier rolls count as
// unverifiable. A Verifier is not safe for concurrent use.
type Verifier struct {
	opts  Options
	max   int
	given map[string]dice.Seed

	revealed  map[string]string // session key → revealed seed text (Scan)
	voids     map[idKey]*voidInfo
	ids       map[idKey]idInfo
	sessions  map[string]*session
	order     []*session
	campaigns map[string]*campaign
	corder    []*campaign
	global    []Mismatch
	omitted   int
	foreign   []ForeignMessage
	foreignN  int
	pos       int
	events    int
	faces     []int               // scratch for re-derived faces
	x         verifierV2          // journal-dice-v2's co-signatures and consents (v2_cosign.go)
	pre       *opened             // the device's message of the event being added, opened ahead (parallel.go)
	proofs    map[int]ProofResult // Options.Proofs checked, by index (v2_prove.go)
}

type idKey [16]byte

type idInfo struct {
	pos int
	sum uint64
}

type voidInfo struct {
	target   string
	by       string
	reason   string
	pos      int
	seq      uint64
	campaign string
	session  string
	resolved bool
}

type session struct {
	campaign, id string
	// downgrade is the flag of a journal-dice-v1 session started while a
	// device key was registered in its campaign (nil: none).
	downgrade *Flag
	// rulesFlags are the flags of its rolls of rules versions this
	// verifier does not know (rules.go).
	rulesFlags   []Flag
	started      bool
	ended        bool
	startID      string
	starter      string // the session-started event's actor
	endID        string
	endPos       int
	endSeq       uint64
	commitment   string
	algorithm    string
	declared     int
	seedSource   string
	key          *dice.Key
	nonces       map[uint64]idKey
	rolls        int
	verified     int
	unverifiable int
	voided       []VoidedRoll
	mismatches   []Mismatch
	omitted      int
	// v2 is set for a journal-dice-v2 session (v2.go).
	v2 *v2Session
	// hidden are the GM's secret rolls (hidden.go).
	hidden sessionHidden
}

type campaign struct {
	id       string
	fold     *projections.Campaign
	events   int
	errors   int
	contests contestRing  // the last two rolls, for contests (contests.go)
	paths    pathContests // contests and their re-rolls (v2_paths.go)
	flags    []Flag       // journal-dice-v2 flags (v2.go)
	// v2: the campaign has had a journal-dice-v2 session start.
	v2 bool
	// chain is the campaign's chain as the input holds it (chain.go).
	chain chainState
	// seen holds the hashes of the campaign's events so far (v2_seen.go).
	seen seenHashes
	v1   v1State // v1 consequences and characters (v1_consequences.go)
}

// NewVerifier returns a Verifier with the given options. A given seed that
// is not 64 hex digits is an error wrapping ErrInvalidOptions.
func NewVerifier(opts Options) (*Verifier, error) {
	v := &Verifier{
		opts:      opts,
		max:       opts.MaxMismatches,
		given:     make(map[string]dice.Seed, len(opts.Seeds)),
		revealed:  map[string]string{},
		voids:     map[idKey]*voidInfo{},
		ids:       map[idKey]idInfo{},
		sessions:  map[string]*session{},
		campaigns: map[string]*campaign{},
	}
	if v.max <= 0 {
		v.max = DefaultMaxMismatches
	}
	for k, text := range opts.Seeds {
		s, err := dice.ParseSeed(strings.TrimSpace(text))
		if err != nil {
			return nil, msgerr.Errorf("%w: seed of session %q: %w", ErrInvalidOptions, k, err)
		}
		v.given[k] = s
	}
	return v, nil
}

func sessionKey(campaign, session string) string { return campaign + "/" + session }

// keyOf returns the 16 bytes of a canonical UUID id, or a digest of any
// other text (which Decode never lets through).
func keyOf(id string) idKey {
	if k, ok := canonicalUUID(id); ok {
		return k
	}
	sum := sha256.Sum256([]byte(id))
	var k idKey
	copy(k[:], sum[:])
	return k
}

// canonicalUUID decodes a UUID in its canonical form (36 characters,
// lower-case hexadecimal digits, hyphens after the 8th, 12th, 16th and 20th
// digit): the form for which uuid.Parse(id).String() == id.
func canonicalUUID(id string) (idKey, bool) {
	var k idKey
	if len(id) != 36 {
		return k, false
	}
	j := 0
	for i := 0; i < 36; {
		switch i {
		case 8, 13, 18, 23:
			if id[i] != '-' {
				return k, false
			}
			i++
			continue
		}
		hi, ok1 := lowerHex(id[i])
		lo, ok2 := lowerHex(id[i+1])
		if !ok1 || !ok2 {
			return k, false
		}
		k[j] = hi<<4 | lo
		j++
		i += 2
	}
	return k, true
}

func lowerHex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	}
	return 0, false
}

// digestSeed seeds digest: random, fixed for the life of the process, so
// that digests compare within a verification (never stored).
var digestSeed = maphash.MakeSeed()

// digest fingerprints an event's content, to tell an identical copy from a
// different event reusing an id: a 64-bit hash (hash/maphash, hardware
// accelerated) of the type, campaign, session, subject, actor and
// causation id, each followed by a zero byte, then the data.
func digest(ev events.Event) uint64 {
	var h maphash.Hash
	h.SetSeed(digestSeed)
	for _, s := range [...]string{ev.Type, ev.Campaign, ev.Session, ev.Subject, ev.Actor, ev.CausationID} {
		h.WriteString(s)
		h.WriteByte(0)
	}
	h.Write(ev.Data)
	return h.Sum64()
}

// inCampaign reports whether the options keep events of the campaign.
func (v *Verifier) inCampaign(ev events.Event) bool {
	return v.opts.Campaign == "" || ev.Campaign == v.opts.Campaign
}

// inSession reports whether the options check events of the session.
func (v *Verifier) inSession(ev events.Event) bool {
	return v.opts.Session == "" || ev.Session == v.opts.Session
}

// Scan is the first pass: it learns the seeds that session-ended events
// reveal and the events that are voided. It checks nothing.
func (v *Verifier) Scan(rec events.Recorded) {
	ev := rec.Event
	if !v.inCampaign(ev) {
		return
	}
	switch ev.Type {
	case events.TypeSessionEnded:
		var d events.SessionEnded
		if ev.DecodeData(&d) == nil && ev.Session != "" {
			k := sessionKey(ev.Campaign, ev.Session)
			if _, ok := v.revealed[k]; !ok {
				v.revealed[k] = d.Seed
			}
		}
	case events.TypeEventVoided:
		var d events.EventVoided
		if ev.DecodeData(&d) == nil {
			v.addVoid(rec, d)
		}
	}
}

func (v *Verifier) addVoid(rec events.Recorded, d events.EventVoided) {
	k := keyOf(d.EventID)
	if _, ok := v.voids[k]; ok {
		return
	}
	v.voids[k] = &voidInfo{
		target: d.EventID, by: rec.Event.ID, reason: d.Reason, seq: rec.Seq,
		campaign: rec.Event.Campaign, session: rec.Event.Session,
	}
}

// Add is the second pass: it checks one event against what came before and
// what Scan learnt, folds it into its campaign's projection, and records
// any mismatch.
func (v *Verifier) Add(rec events.Recorded) {
	ev := rec.Event
	v.pos++
	if !v.inCampaign(ev) {
		return
	}
	m := Mismatch{EventID: ev.ID, Seq: rec.Seq, Position: v.pos, Campaign: ev.Campaign, Session: ev.Session}

	k, sum := keyOf(ev.ID), digest(ev)
	if prev, dup := v.ids[k]; dup {
		m.Kind = MismatchDuplicateID
		same := "a different event"
		if prev.sum == sum {
			same = "an identical copy"
		}
		m.say("mm.duplicate_id", prev.pos, same)
		v.record(v.sessionOf(ev), m)
		return
	}
	v.ids[k] = idInfo{pos: v.pos, sum: sum}
	v.events++

	c := v.campaign(ev.Campaign)
	c.events++
	v.checkChain(c, m, rec) // chain.go
	v.checkSeen(c, m, rec)  // v2_seen.go
	v.touchV2(c, rec)       // v2_cosign.go
	// The data is decoded once, for the fold and for the checks below.
	data, perr := ev.Payload()
	var ferr error
	if perr == nil {
		v.torEvent(c, m, ev, data) // v2_tor.go: against the state before the event
		if isDeviceType(ev.Type) {
			v.deviceEvent(c, m, ev, data) // v2_devices.go: against the state before the event
		}
	}
	v.v1Event(c, m, ev, data) // v1_consequences.go
	if perr != nil {
		ferr = c.fold.Apply(rec) // refuses the event, saying why
	} else {
		ferr = c.fold.ApplyData(rec, data)
	}
	if ferr != nil {
		c.errors++
		m.Kind = MismatchFold
		m.say("mm.fold", ferr.Error())
		v.record(nil, m)
	}
	if perr == nil {
		v.contestEvent(c, ev, data, m)
	}

	if perr == nil && (ev.Type == events.TypeAttackResolved || ev.Type == events.TypeDamageTaken) && v.inSession(ev) {
		if s := v.sessionOf(ev); s != nil && s.v2 != nil {
			v.attackConsequence(s, m, ev, data) // v2.go
		}
	}
	if perr == nil && v.inSession(ev) {
		switch ev.Type {
		case events.TypeContestResolved, events.TypeCombatStarted, events.TypeHealed:
			if s := v.sessionOf(ev); s != nil && s.v2 != nil {
				v.pathConsequence(s, c, m, ev, data) // v2_paths.go
			}
		}
	}
	if d, ok := data.(*events.ContestResolved); ok && perr == nil {
		c.noteContest(ev.ID, d)
	}
	switch ev.Type {
	case events.TypeEventVoided, events.TypeSessionStarted, events.TypeSessionEnded, events.TypeRollMade, events.TypeRollHidden:
	default:
		if !isV2Type(ev.Type) {
			return // the fold has read it
		}
	}
	if perr != nil {
		m.Kind, m.What = MismatchInvalidEvent, perr.Error()
		v.record(v.sessionOf(ev), m)
		return
	}
	if isV2Type(ev.Type) {
		if v.inSession(ev) || ev.Type == events.TypeParticipantRegistered {
			v.v2Event(c, m, ev, data)
		}
		return
	}
	switch d := data.(type) {
	case *events.EventVoided:
		v.voidConsent(c, m, ev, d) // v2_cosign.go
		v.addVoid(rec, *d)
		if vi := v.voids[keyOf(d.EventID)]; vi != nil && vi.by == ev.ID {
			vi.pos = v.pos
		}
	case *events.SessionStarted:
		if v.inSession(ev) {
			v.start(m, ev, d)
			v.downgradeFlag(c, ev, d) // v2_flags.go
		}
	case *events.SessionEnded:
		if v.inSession(ev) {
			v.end(m, rec, d)
		}
	case *events.RollHidden:
		if v.inSession(ev) {
			v.hiddenEvent(v.sessionOf(ev), m, ev, d) // hidden.go
		}
	case *events.RollMade:
		if s := v.sessionOf(ev); s != nil && s.v2 != nil {
			v.rollV2(s, c, m, ev, d)
			v.checkInputs(s, m, c.fold, d)
		} else if v.inSession(ev) {
			v.roll(m, k, ev, d)
			v.checkInputs(v.sessionOf(ev), m, c.fold, d)
		}
	}
}

// checkInputs compares a 1o3d10 roll's attribute values and skill rank with
// the character's sheet as folded so far (a roll changes neither), so that
// a roll made with an inflated skill, its total recomputed to match, is
// caught. Rolls of characters the input does not create are not compared.
func (v *Verifier) checkInputs(s *session, m Mismatch, fold *projections.Campaign, d *events.RollMade) {
	switch d.Kind {
	case "skill", "attribute", "initiative", "melee", "ranged":
	default:
		return
	}
	sheet := fold.Characters[d.Character]
	if sheet == nil {
		return
	}
	nonce := d.Nonce
	m.Nonce = &nonce
	var diff text
	add := func(key i18n.Key, args ...any) {
		if len(diff) > 0 {
			diff = append(diff, msg("mm.sep"))
		}
		diff = append(diff, msg(key, args...))
	}
	check := func(key i18n.Key, name string, got, want int) {
		if got != want {
			add(key, name, got, d.Character, want)
		}
	}
	if d.Attribute != "" {
		check("mm.attribute", d.Attribute, d.AttributeValue, sheet.Attributes[d.Attribute])
	}
	if d.Attribute2 != "" {
		check("mm.attribute", d.Attribute2, d.Attribute2Value, sheet.Attributes[d.Attribute2])
	}
	if d.Skill != "" {
		check("mm.rank", d.Skill, d.Rank, sheet.Skills[d.Skill])
	}
	if d.Specialization && d.Skill != sheet.Specialization {
		add("mm.specialization", d.Skill, d.Character, sheet.Specialization)
	}
	if len(diff) > 0 {
		m.Kind = MismatchInputs
		m.tell(diff)
		v.record(s, m)
	}
}

func (v *Verifier) campaign(id string) *campaign {
	c := v.campaigns[id]
	if c == nil {
		c = &campaign{id: id, fold: projections.NewCampaign(id)}
		v.campaigns[id] = c
		v.corder = append(v.corder, c)
	}
	return c
}

// sessionOf returns the started session an event belongs to, or nil.
func (v *Verifier) sessionOf(ev events.Event) *session {
	if ev.Session == "" || !v.inSession(ev) {
		return nil
	}
	if s := v.sessions[sessionKey(ev.Campaign, ev.Session)]; s != nil && s.started {
		return s
	}
	return nil
}

// record keeps a mismatch in its session's list, or in the report's own.
func (v *Verifier) record(s *session, m Mismatch) {
	if s != nil {
		if len(s.mismatches) < v.max {
			s.mismatches = append(s.mismatches, m)
		} else {
			s.omitted++
		}
		return
	}
	if len(v.global) < v.max {
		v.global = append(v.global, m)
	} else {
		v.omitted++
	}
}

// givenSeed returns the seed Options gave for a session.
func (v *Verifier) givenSeed(campaign, id string) (dice.Seed, bool) {
	if s, ok := v.given[sessionKey(campaign, id)]; ok {
		return s, true
	}
	s, ok := v.given[id]
	return s, ok
}

func (v *Verifier) start(m Mismatch, ev events.Event, d *events.SessionStarted) {
	if ev.Session == "" {
		m.Kind = MismatchSession
		m.say("mm.no_session_id")
		v.record(nil, m)
		return
	}
	k := sessionKey(ev.Campaign, ev.Session)
	s := v.sessions[k]
	if s != nil && s.started {
		m.Kind = MismatchSession
		m.say("mm.started_twice", s.startID)
		v.record(s, m)
		return
	}
	if s == nil {
		s = &session{campaign: ev.Campaign, id: ev.Session, nonces: map[uint64]idKey{}}
		v.sessions[k] = s
		v.order = append(v.order, s)
	}
	s.started, s.startID, s.starter = true, ev.ID, ev.Actor
	s.commitment, s.algorithm = d.Commitment, d.Algorithm
	if d.Algorithm == dice.AlgorithmV2 {
		s.v2 = &v2Session{requests: map[string]*v2Request{}}
		s.v2.x.last, s.v2.x.lastID = ev.Time, ev.ID // its last event so far (v2_flags.go)
	}
	if d.Algorithm != dice.Algorithm && d.Algorithm != dice.AlgorithmV2 {
		m.Kind = MismatchAlgorithm
		m.say("mm.algorithm", d.Algorithm, dice.Algorithm)
		v.record(s, m)
		return
	}
	if text, ok := v.revealed[k]; ok {
		if seed, err := dice.ParseSeed(text); err == nil && seed.Matches(d.Commitment) {
			s.key, s.seedSource = dice.NewKey(seed), "revealed"
			if s.v2 != nil {
				s.v2.seed = &seed
			}
			return
		}
		// The session-ended event reports what is wrong with its seed.
	}
	if seed, ok := v.givenSeed(ev.Campaign, ev.Session); ok {
		if !seed.Matches(d.Commitment) {
			m.Kind = MismatchCommitment
			m.say("mm.given_seed", d.Commitment)
			v.record(s, m)
			return
		}
		s.key, s.seedSource = dice.NewKey(seed), "given"
		if s.v2 != nil {
			s.v2.seed = &seed
		}
	}
}

func (v *Verifier) end(m Mismatch, rec events.Recorded, d *events.SessionEnded) {
	ev := rec.Event
	s := v.sessionOf(ev)
	if s == nil {
		m.Kind = MismatchUnknownSession
		m.say("mm.ends_unstarted", ev.Session)
		v.record(nil, m)
		return
	}
	if s.ended {
		m.Kind = MismatchSession
		m.say("mm.ended_twice", s.endID)
		v.record(s, m)
		return
	}
	s.ended, s.endID, s.endPos, s.endSeq, s.declared = true, ev.ID, m.Position, rec.Seq, d.Rolls
	seed, err := dice.ParseSeed(d.Seed)
	switch {
	case err != nil:
		m.Kind = MismatchSeed
		m.say("mm.seed_hex", clip(d.Seed, 80), 2*dice.SeedSize)
		v.record(s, m)
	case !seed.Matches(s.commitment):
		m.Kind = MismatchCommitment
		m.say("mm.seed_commitment", d.Seed, clip(s.commitment, 80), seed.Commitment())
		v.record(s, m)
	case s.key == nil && (s.algorithm == dice.Algorithm || s.v2 != nil):
		// Without a Scan pass the seed is learnt only now.
		s.key, s.seedSource = dice.NewKey(seed), "revealed"
		if s.v2 != nil {
			s.v2.seed = &seed
		}
	}
}

func (v *Verifier) roll(m Mismatch, id idKey, ev events.Event, d *events.RollMade) {
	nonce := d.Nonce
	m.Nonce = &nonce
	if ev.Session == "" {
		m.Kind = MismatchNoSession
		m.say("mm.no_session")
		v.record(nil, m)
		v.checkRules(nil, m, d)
		return
	}
	s := v.sessionOf(ev)
	if s == nil {
		m.Kind = MismatchUnknownSession
		m.say("mm.roll_unstarted", ev.Session)
		v.record(nil, m)
		v.checkRules(nil, m, d)
		return
	}
	s.rolls++
	if vi := v.voids[id]; vi != nil && !vi.resolved {
		vi.resolved = true
		s.voided = append(s.voided, VoidedRoll{EventID: ev.ID, Nonce: nonce, VoidedBy: vi.by, Reason: vi.reason})
	}
	if s.ended {
		m.Kind = MismatchAfterEnd
		m.say("mm.after_end", s.endID)
		v.record(s, m)
	}
	h, revealOK := v.revealOf(s, m, ev, d) // hidden.go
	if prev, taken := s.nonces[nonce]; taken && !(h != nil && revealOK && prev == keyOf(h.id)) {
		m.Kind = MismatchNonceRepeat
		m.say("mm.nonce_repeat", nonce, uuid.UUID(prev).String())
		v.record(s, m)
	} else {
		s.nonces[nonce] = id
	}
	ok := v.checkRules(s, m, d) && revealOK
	if s.key == nil {
		s.unverifiable++
		return
	}
	if v.checkFaces(s, m, ev, d) && ok {
		s.verified++
	}
}

// checkRules re-judges a roll from its inputs and faces and records what
// differs from the event.
func (v *Verifier) checkRules(s *session, m Mismatch, d *events.RollMade) bool {
	if v.unknownRules(s, m, d) { // rules.go
		return s != nil
	}
	want, err := rolls.Rejudge(*d)
	if err != nil {
		m.Kind = MismatchInvalidRoll
		m.say("mm.cannot_judge", err.Error())
		v.record(s, m)
		return false
	}
	if sameJudgement(d, &want) {
		return true // rolls.Diff finds nothing either
	}
	if diff := rolls.Diff(*d, want); len(diff) > 0 {
		m.Kind, m.What = MismatchRules, strings.Join(diff, "; ")
		v.record(s, m)
		return false
	}
	return true
}

// sameJudgement reports whether two roll events agree on every field that
// rolls.Diff compares; when they do, Diff finds no difference (Diff stays
// the judge of what differs: a test checks that this covers every field
// Diff reads). It spares formatting every field of every roll.
func sameJudgement(got, want *events.RollMade) bool {
	return got.Total == want.Total && got.Outcome == want.Outcome &&
		slices.Equal(got.Faces, want.Faces) && slices.Equal(got.Kept, want.Kept) &&
		got.DiePart == want.DiePart && got.Base == want.Base && got.Level == want.Level &&
		got.Critical == want.Critical && got.Fumble == want.Fumble && got.Natural1 == want.Natural1 &&
		got.Exploded == want.Exploded && got.Eye == want.Eye && got.Rune == want.Rune &&
		got.Quality == want.Quality && got.Feat == want.Feat && got.Rank == want.Rank
}

// checkFaces re-derives a roll's faces from the session's seed and records
// any difference from the recorded faces.
func (v *Verifier) checkFaces(s *session, m Mismatch, ev events.Event, d *events.RollMade) bool {
	sides, err := rolls.Dice(*d)
	if err != nil {
		m.Kind = MismatchInvalidRoll
		m.say("mm.which_dice", err.Error())
		v.record(s, m)
		return false
	}
	got, err := derive(s.key.Stream(ev.Campaign, ev.Session, d.Nonce, d.Entropy), sides, v.faces[:0])
	v.faces = got
	if err != nil {
		m.Kind, m.What = MismatchInvalidRoll, err.Error()
		v.record(s, m)
		return false
	}
	if !slices.Equal(got, d.Faces) {
		m.Kind = MismatchFaces
		m.say("mm.faces", clip(fmt.Sprint(d.Faces), 200), clip(fmt.Sprint(got), 200), firstDiff(got, d.Faces)+1)
		v.record(s, m)
		return false
	}
	return true
}

// derive draws one die of each of sides from st, appending the faces to buf.
func derive(st *dice.Stream, sides []int, buf []int) ([]int, error) {
	for i, n := range sides {
		f, err := st.Roll(n)
		if err != nil {
			return buf, msgerr.Errorf("die %d: %w", i+1, err)
		}
		buf = append(buf, f)
	}
	return buf, nil
}

func firstDiff(a, b []int) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// clip shortens text for a message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// Foreign lists input that is not an event in the report (Verify calls
// it for each such Input of its Source): it makes the report fail.
func (v *Verifier) Foreign(m ForeignMessage) {
	v.foreignN++
	if len(v.foreign) < v.max {
		v.foreign = append(v.foreign, m)
	}
}

// Report returns the verdict on everything added so far. It can be called
// at any time and does not change the Verifier.
func (v *Verifier) Report() Report {
	v.flushContests()
	var r Report
	r.Foreign = slices.Clone(v.foreign)
	r.ForeignOmitted = v.foreignN - len(v.foreign)
	r.Totals.Foreign = v.foreignN
	for _, s := range v.order {
		sr := v.sessionReport(s)
		r.Sessions = append(r.Sessions, sr)
		t := &r.Totals
		t.Sessions++
		switch sr.Status {
		case StatusVerified:
			t.SessionsVerified++
		case StatusMismatch:
			t.SessionsMismatch++
		default:
			t.SessionsUnrevealed++
		}
		t.Rolls += sr.Rolls
		t.Verified += sr.Verified
		t.Unverifiable += sr.Unverifiable
		t.Voided += len(sr.Voided)
		t.Mismatches += len(sr.Mismatches) + sr.Omitted
	}
	r.Proofs = v.proofsReport()
	r.Mismatches = slices.Clone(v.global)
	r.Omitted = v.omitted
	add := func(m Mismatch) {
		if len(r.Mismatches) < v.max {
			r.Mismatches = append(r.Mismatches, m)
		} else {
			r.Omitted++
		}
	}
	for _, vi := range v.voidsInOrder() {
		if _, known := v.ids[keyOf(vi.target)]; !known {
			m := Mismatch{
				Kind: MismatchVoidUnknown, EventID: vi.by, Seq: vi.seq, Position: vi.pos,
				Campaign: vi.campaign, Session: vi.session,
			}
			m.say("mm.void_unknown", clip(vi.target, 80))
			add(m)
		}
	}
	if r.Mismatches == nil {
		r.Mismatches = []Mismatch{}
	}
	r.Totals.Mismatches += len(r.Mismatches) + r.Omitted
	for _, c := range v.corder {
		devices, flags := campaignDevices(c.fold) // v2_devices.go
		r.Campaigns = append(r.Campaigns, CampaignReport{
			Campaign: c.id, Name: c.fold.Name, System: c.fold.System, Events: c.events,
			Characters: characterCount(c.fold), Sessions: len(c.fold.Sessions), FoldErrors: c.errors,
			Flags: append(slices.Clone(c.flags), flags...), Devices: devices,
		})
	}
	if r.Sessions == nil {
		r.Sessions = []SessionReport{}
	}
	if r.Campaigns == nil {
		r.Campaigns = []CampaignReport{}
	}
	r.Totals.Campaigns = len(r.Campaigns)
	r.Totals.Flags = r.Flagged()
	r.Totals.Events = v.events
	return r
}

// voidsInOrder returns the voids in the order they were added.
func (v *Verifier) voidsInOrder() []*voidInfo {
	out := make([]*voidInfo, 0, len(v.voids))
	for _, vi := range v.voids {
		out = append(out, vi)
	}
	slices.SortFunc(out, func(a, b *voidInfo) int {
		if a.pos != b.pos {
			return a.pos - b.pos
		}
		return strings.Compare(a.by, b.by)
	})
	return out
}

func (v *Verifier) sessionReport(s *session) SessionReport {
	sr := SessionReport{
		Campaign: s.campaign, Session: s.id, Commitment: s.commitment, SeedSource: s.seedSource,
		Ended: s.ended, Rolls: s.rolls, Verified: s.verified, Unverifiable: s.unverifiable,
		Voided: slices.Clone(s.voided), Mismatches: slices.Clone(s.mismatches), Omitted: s.omitted,
	}
	if s.ended {
		n := s.declared
		sr.DeclaredRolls = &n
	}
	add := func(m Mismatch) {
		if len(sr.Mismatches) < v.max {
			sr.Mismatches = append(sr.Mismatches, m)
		} else {
			sr.Omitted++
		}
	}
	base := Mismatch{Campaign: s.campaign, Session: s.id}

	// Voids seen only after their roll without a Scan pass.
	for nonce, id := range s.nonces {
		if vi := v.voids[id]; vi != nil && !vi.resolved {
			sr.Voided = append(sr.Voided, VoidedRoll{EventID: uuid.UUID(id).String(), Nonce: nonce, VoidedBy: vi.by, Reason: vi.reason})
		}
	}
	slices.SortFunc(sr.Voided, func(a, b VoidedRoll) int {
		switch {
		case a.Nonce < b.Nonce:
			return -1
		case a.Nonce > b.Nonce:
			return 1
		}
		return strings.Compare(a.EventID, b.EventID)
	})

	// Nonces: 0, 1, 2, … with no gaps.
	nonces := make([]uint64, 0, len(s.nonces))
	for n := range s.nonces {
		nonces = append(nonces, n)
	}
	slices.Sort(nonces)
	gap := func(from, to uint64, next Mismatch) {
		next.Kind = MismatchNonceGap
		first := from
		next.Nonce = &first
		if from == to {
			next.say("mm.gap_one", from)
		} else {
			next.say("mm.gap", from, to, to-from+1)
		}
		add(next)
	}
	var expect uint64 // the next nonce due
	full := false     // nonce 2⁶⁴−1 was taken: no nonce is due after it
	for _, n := range nonces {
		if n > expect {
			m := base
			m.EventID = uuid.UUID(s.nonces[n]).String()
			gap(expect, n-1, m)
		}
		if n == math.MaxUint64 {
			full = true
			break
		}
		expect = n + 1
	}
	if s.ended && !full && s.declared > 0 && uint64(s.declared) > expect {
		m := base
		m.EventID, m.Position, m.Seq = s.endID, s.endPos, s.endSeq
		gap(expect, uint64(s.declared)-1, m)
	}
	s.v2Report(&sr)
	v.v2Flags(s, &sr) // v2_flags.go
	v.sessionProofs(s)
	sr.Flags = append(sr.Flags, s.provedReport(add)...) // v2_prove.go
	if f, ok := s.emptyFlag(); ok {
		sr.Flags = append(sr.Flags, f)
	}
	if s.downgrade != nil {
		sr.Flags = append(sr.Flags, *s.downgrade)
	}
	sr.Flags = append(sr.Flags, s.rulesFlags...)
	if m := s.unresolvedAttack(); m != nil {
		add(*m)
	}
	if m := s.unresolvedPath(); m != nil {
		add(*m)
	}
	if m := s.torUnstartedMadness(); m != nil {
		add(*m)
	}
	sr.Flags = append(sr.Flags, s.hiddenFlags()...) // hidden.go
	hiddenNonces := 0
	if s.v2 == nil {
		hiddenNonces = s.hiddenLeft() // a v2 secret roll's nonce is its request's
	}
	if s.ended && s.declared != s.rolls+s.v2Consumed()+hiddenNonces {
		m := base
		m.Kind, m.EventID, m.Position, m.Seq = MismatchRollCount, s.endID, s.endPos, s.endSeq
		m.say("mm.roll_count", s.declared, s.rolls)
		add(m)
	}

	switch {
	case len(sr.Mismatches)+sr.Omitted > 0:
		sr.Status = StatusMismatch
	case s.key == nil || sr.Unverifiable > 0:
		sr.Status = StatusUnrevealed
	default:
		sr.Status = StatusVerified
	}
	if sr.Mismatches == nil {
		sr.Mismatches = []Mismatch{}
	}
	return sr
}

// characterCount counts a campaign's characters, of whichever system.
func characterCount(c *projections.Campaign) int {
	if c.TOR != nil {
		return len(c.TOR.Roster)
	}
	return len(c.Roster)
}
