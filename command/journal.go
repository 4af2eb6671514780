// Package command turns the requests of game masters and players into
// events: it validates each request against the campaign folded from the
// stream, rolls dice from the session's committed stream, and appends the
// resulting events atomically, conditional on the campaign's last sequence.
//
// Invariants: a refused request records nothing. Every roll of a session
// takes the next nonce, with no gaps and no repeats, because every append is
// conditional on the campaign's last sequence: a writer that raced another
// gets events.ErrConcurrency, refolds and retries. The session's seed is read
// only from the secret store and enters an event only when the session ends.
package command

import (
	"context"
	"crypto/rand"
	"errors"
	"io"
	"sync"
	"time"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/rules/ryf"
)

// Store is what the handler needs from an event store. The sessions'
// secrets are kept apart (Options.Secrets).
type Store interface {
	Append(ctx context.Context, expect events.Expect, evs ...events.Event) ([]uint64, error)
	Read(ctx context.Context, q events.Query, fn func(events.Recorded) error) error
}

// Errors callers check with errors.Is. Messages name what is wrong.
var (
	// ErrInvalid marks a request refused because of its input or the state of play.
	ErrInvalid = msgerr.New("invalid request")
	// ErrNotFound marks a request naming something that does not exist.
	ErrNotFound = events.ErrNotFound
)

// invalid returns an error wrapping ErrInvalid with a message. The errors
// among args stay wrapped too (invalid("--vs: %v", err) is still
// errors.Is ryf.ErrUnknownDifficulty), so that callers can tell causes apart.
func invalid(format string, args ...any) error {
	k := msgerr.Errorf(format, args...)
	e := &invalidError{msg: ErrInvalid.Error() + ": " + k.Error(), errs: []error{ErrInvalid}, k: k}
	for _, a := range args {
		if err, ok := a.(error); ok {
			e.errs = append(e.errs, err)
		}
	}
	return e
}

// malformed is invalid for a request malformed as asked (ErrUsage too): a
// value that is none of those the request may name.
func malformed(format string, args ...any) error {
	e := invalid(format, args...).(*invalidError)
	e.errs = append(e.errs, ErrUsage)
	return e
}

// invalidError is what invalid returns: its message, and the errors it wraps.
// It is keyed (msgerr.Keyed) as "%w: %v": ErrInvalid, and the message
// keyed by its own format.
type invalidError struct {
	msg  string
	errs []error
	k    error
}

func (e *invalidError) Error() string   { return e.msg }
func (e *invalidError) Unwrap() []error { return e.errs }
func (e *invalidError) Key() string     { return "%w: %v" }
func (e *invalidError) Args() []any     { return []any{ErrInvalid, e.k} }

// notFound returns an error wrapping ErrNotFound with a message.
func notFound(format string, args ...any) error {
	return msgerr.Errorf("%w: %s", ErrNotFound, msgerr.Errorf(format, args...))
}

// Handler is the command handler: it handles commands over a store (the
// journal is the stream of events it appends to). It is safe for
// concurrent use. Its per-call fields are one Call's, set at once by For
// (call.go).
type Handler struct {
	*shared
	// actor is recorded as who issued each event (Call.Actor).
	actor string
	// request is the client's id of the one command this view runs, or
	// empty (Call.RequestID); command is what the command is
	// (Call.fingerprint), part of what its event ids derive from.
	request, command string
	// name is the catalogue name of the command this view runs, recorded
	// as the command attribute of its events (Call.Command), or empty.
	name string
	// admitted: the limiter admitted this view's one command already
	// (a session start, before its seed is stored; see admit).
	admitted bool
	// gm: the caller authenticated the actor as the campaign's GM
	// (Call.GM): it may roll in secret (free.go) though no key says so.
	gm bool
	// player: the caller authenticated the actor as a player (Call.Player):
	// it is never the GM here, whatever keys or names say.
	player bool
}

// shared is what every view of a handler (For) shares: the store, the
// injected clock and randomness, and the cache of folded campaigns.
type shared struct {
	// defaultActor is Options.Actor: the actor of a Call that names none.
	defaultActor string
	store        Store
	secrets      events.Secrets // nil: sessions cannot start (no seed can be kept)
	clock        func() time.Time
	rand         io.Reader
	ids          events.IDs
	// retries bounds the attempts of one command under contention.
	retries int
	// checkpoints keeps the campaigns' checkpoints (nil: none), written
	// every checkpointEvery events folded (0: never written, only read).
	checkpoints     Checkpoints
	checkpointEvery int
	// beacon fetches drand rounds (nil: none reachable).
	beacon BeaconRounds
	// limiter admits each command's append (nil: every one).
	limiter Limiter
	// noAnchor: never anchor a campaign's chain (Options.NoAnchor).
	noAnchor bool
	// noSeenCheck: never check a message's seen (Options.NoSeenCheck).
	noSeenCheck bool

	// states caches each campaign's folded state between commands, so a
	// command folds only the events recorded since the last one. Each entry
	// is guarded by its own lock, held for a whole command.
	//
	// Invariants: at most maxStates entries (when positive) once state
	// returns, unless every entry is busy; an entry is dropped only while
	// idle (its lock taken with TryLock), and a command that still holds a
	// dropped entry works on it as on any stale cache: its append carries
	// the campaign's expected last sequence, so nothing is recorded twice
	// or out of order.
	mu        sync.Mutex
	states    map[string]*campaignState
	maxStates int    // 0 or negative: no bound
	tick      uint64 // counts state calls: the entries' recency
	// rules are the RyF rules of campaigns without a catalogue of their
	// own, by options (guarded by mu).
	rules map[rulesKey]*ryf.Rules
}

// campaignState is a cached fold of one campaign.
type campaignState struct {
	mu sync.Mutex
	// used is the handler's tick at the last state call for it (guarded
	// by the handler's mu): the least recently used idle entry is dropped
	// first.
	used uint64
	c    *projections.Campaign // nil: fold from the start
	// requests indexes the events of c recorded under a request id, by
	// actor and request id (see requestKey): rebuilt with every full fold.
	requests map[requestKey]requested
	// catch, when catching, is the request whose events the fold collects
	// into caught as it reads them.
	catch    requestKey
	catching bool
	caught   []events.Recorded
	// hasLast says the campaign has an event; lastRaw is the stored bytes
	// of its last one as read (nil for one this handler appended), lastHash
	// their hash once known, lastEventID its id: the next event's prevhash
	// (chain.go).
	hasLast     bool
	lastRaw     []byte
	lastHash    string
	lastEventID string
	// key is the open session's dice key, read once from the secret store.
	key        *dice.Key
	keySession string
	// rules are the campaign's RyF rules, built once for the state they
	// were built from.
	rules rulesCache
	// lastSeq and lastID are the sequence and id of the last message
	// folded into c ("": not an event); savedEvents is c.Events at its
	// last checkpoint, written or read (see maybeCheckpoint).
	lastSeq     uint64
	lastID      string
	savedEvents int
	// msgs is how many messages of the campaign's subject the stream holds
	// up to lastSeq (events and messages that are not events), counted as
	// they are folded, read or appended; uncounted says a checkpoint of an
	// older handler without the count started the fold, so msgs is not
	// known. epoch is the stream's (SubjectCount), asked before the fold
	// read it: a checkpoint records both (checkpoint.go).
	msgs      uint64
	uncounted bool
	epoch     string
	// rewrite says the checkpoint read lacks what s now knows (its
	// count): the next maybeCheckpoint writes it, however few events
	// followed it.
	rewrite bool
	// filter is the campaign's subject (events.CampaignFilter), once
	// an append has needed it.
	filter string
}

// rulesCache keeps a campaign's RyF rules between commands. The rules are
// a function of the campaign's system and options, which its creation
// fixes, and of its skills and weapons, which only grow (a new definition
// of a weapon is appended): the same fold with as many skills and weapons
// has the same rules. A refold makes a new fold, and rules built afresh.
type rulesCache struct {
	fold            *projections.Campaign
	system          string
	carisma, hard   bool
	budget          int
	skills, weapons int
	rules           *ryf.Rules
}

// rulesKey is what the rules of a campaign without skills or weapons of
// its own depend on.
type rulesKey struct {
	system        string
	carisma, hard bool
	budget        int
}

// sharedRules returns the rules of a campaign that defines no skills or
// weapons of its own, shared by every such campaign with the same options
// (rules are immutable), so that thousands of campaigns do not each hold
// a copy (about 9 KB).
func (j *Handler) sharedRules(c *projections.Campaign) (*ryf.Rules, error) {
	k := rulesKey{system: c.System, carisma: c.Carisma, hard: c.HardDefense, budget: c.AttrBudget}
	j.mu.Lock()
	r := j.rules[k]
	j.mu.Unlock()
	if r != nil {
		return r, nil
	}
	r, err := RyFRules(c)
	if err != nil {
		return nil, err
	}
	j.mu.Lock()
	if j.rules == nil {
		j.rules = map[rulesKey]*ryf.Rules{}
	}
	j.rules[k] = r
	j.mu.Unlock()
	return r, nil
}

// ryfRules returns the rules of the draft's campaign (see RyFRules),
// built once per state of the campaign's catalogue.
func (d *draft) ryfRules() (*ryf.Rules, error) {
	c, rc := d.campaign, d.rules
	if rc != nil && rc.rules != nil && rc.fold == c && rc.system == c.System && rc.carisma == c.Carisma &&
		rc.hard == c.HardDefense && rc.budget == c.AttrBudget && rc.skills == len(c.Skills) && rc.weapons == len(c.Weapons) {
		return rc.rules, nil
	}
	var r *ryf.Rules
	var err error
	if len(c.Skills) == 0 && len(c.Weapons) == 0 {
		r, err = d.j.sharedRules(c) // most campaigns: the rules' own catalogue
	} else {
		r, err = RyFRules(c)
	}
	if err != nil || rc == nil {
		return r, err
	}
	*rc = rulesCache{fold: c, system: c.System, carisma: c.Carisma, hard: c.HardDefense, budget: c.AttrBudget,
		skills: len(c.Skills), weapons: len(c.Weapons), rules: r}
	return r, nil
}

// Options configure a Handler. Clock, randomness and ids are injected;
// every field has a default, so Options{} is a working handler.
type Options struct {
	// Clock stamps the events (default time.Now).
	Clock func() time.Time
	// Rand is the source of session seeds (default crypto/rand.Reader).
	Rand io.Reader
	// IDs makes the events' ids (default UUID v7 from Clock and Rand).
	IDs events.IDs
	// Actor is recorded as who issued each event (default "gm").
	Actor string
	// Retries bounds the attempts of one command under contention
	// (default 50).
	Retries int
	// Secrets keeps the sessions' seeds (default: the store, when it
	// keeps secrets too, as jetstore and memstore do).
	Secrets events.Secrets
	// Checkpoints, when set, keeps a checkpoint of each campaign folded:
	// a cold load reads it and the events after it (see CheckpointKey).
	Checkpoints Checkpoints
	// CheckpointEvery is how many events folded since a campaign's last
	// checkpoint make the handler write a new one (default
	// DefaultCheckpointEvery; negative: never write, only read).
	CheckpointEvery int
	// Beacon, when set, fetches drand quicknet rounds for the GM rolls
	// pinned to one (nil: the handler has no route to the beacon; the
	// round's signature is given to ResolveBeacon, or a player witnesses).
	Beacon BeaconRounds
	// Limiter, when set, admits or refuses each command's append before
	// it is made: rate limits and quotas (see Limiter). Nil: no limits.
	Limiter Limiter
	// NoAnchor keeps the handler from anchoring the chain of a campaign
	// created before every event was chained (chain.go): for a handler
	// that re-runs a recorded campaign (package reproduce), which copies
	// the recorded anchor where the record has it. Every other handler
	// leaves it false.
	NoAnchor bool
	// NoSeenCheck keeps the handler from checking a device message's seen
	// against the campaign (v2_seen.go): for a handler that re-runs a
	// recorded campaign (package reproduce), whose stream numbers its
	// own sequences; the verifier checks seen by hash. Every other
	// handler leaves it false.
	NoSeenCheck bool
	// CacheCampaigns bounds how many campaigns' folds the handler keeps
	// between commands (default DefaultCacheCampaigns; negative: no
	// bound). Past it, the least recently used idle campaign's fold is
	// dropped: its next command loads it again, as a new process would
	// (from its checkpoint, then the events after it).
	CacheCampaigns int
}

// DefaultCacheCampaigns is Options.CacheCampaigns's default: a server of
// many tables keeps the folds of the 4 096 most recently used campaigns.
const DefaultCacheCampaigns = 4096

// New returns a command handler over store, with the defaults of Options for the
// fields left unset.
func New(store Store, o Options) *Handler {
	if o.Clock == nil {
		o.Clock = time.Now
	}
	if o.Rand == nil {
		o.Rand = rand.Reader
	}
	if o.IDs == nil {
		o.IDs = events.NewV7(o.Clock, o.Rand)
	}
	if o.Retries <= 0 {
		o.Retries = 50
	}
	if o.Actor == "" {
		o.Actor = "gm"
	}
	if o.Secrets == nil {
		o.Secrets, _ = store.(events.Secrets) // the stores keep both
	}
	if o.CheckpointEvery == 0 {
		o.CheckpointEvery = DefaultCheckpointEvery
	}
	if o.CacheCampaigns == 0 {
		o.CacheCampaigns = DefaultCacheCampaigns
	}
	return &Handler{actor: o.Actor, shared: &shared{defaultActor: o.Actor, store: store, secrets: o.Secrets, clock: o.Clock, rand: o.Rand, ids: o.IDs,
		retries: o.Retries, states: map[string]*campaignState{}, maxStates: o.CacheCampaigns,
		checkpoints: o.Checkpoints, checkpointEvery: max(o.CheckpointEvery, 0), beacon: o.Beacon, limiter: o.Limiter, noAnchor: o.NoAnchor, noSeenCheck: o.NoSeenCheck}}
}

// Result is what a command recorded, and the campaign state after it.
// Campaign is the handler's own cached state: read it before the next
// command on the same campaign, and never concurrently with one.
type Result struct {
	Events   []events.Recorded     `json:"events"`
	Campaign *projections.Campaign `json:"-"`
	// Repeated is set when the command's request id had already recorded
	// these events: nothing was recorded this time (see Call.RequestID).
	Repeated bool `json:"repeated,omitempty"`
	// Secret is, for the GM's secret rolls the command recorded, the
	// outcome their reveal will record (free.go): the GM's answer only,
	// never an event.
	Secret []SecretRoll `json:"secret,omitempty"`
}

// Load folds campaign id from the store, up to sequence upTo (0: all):
// from the campaign's checkpoint when it has a usable one at or below
// upTo, else from the start (see Checkpoints).
func (j *Handler) Load(ctx context.Context, id string, upTo uint64) (*projections.Campaign, error) {
	s := &campaignState{}
	c, err := j.load(ctx, id, upTo, s)
	if err != nil {
		return nil, err
	}
	if upTo == 0 {
		s.c = c
		j.maybeCheckpoint(ctx, s)
	}
	return c, nil
}

// load folds campaign id up to sequence upTo (0: all) in one read of its
// events: from its checkpoint, if usable, else from the start. A void
// naming an event already folded (before the checkpoint, or before the
// void) makes it fold again from the start, every void known, so that the
// state always equals a full refold. s collects the index of request ids
// (s.note sees every event read) and the last message read.
func (j *Handler) load(ctx context.Context, id string, upTo uint64, s *campaignState) (*projections.Campaign, error) {
	filter, err := events.CampaignFilter(id)
	if err != nil {
		return nil, invalid("campaign %q: %v", clip.Text(id), err)
	}
	s.reset()
	count, known := j.countSubject(ctx, filter, s)
	if cp := j.readCheckpoint(ctx, id, upTo); cp != nil {
		done, follows, err := cp.holdsAll(count, known, s)
		if done {
			return cp.c, nil
		}
		c := cp.c
		if err == nil {
			c, err = j.foldFrom(ctx, filter, cp, upTo, follows, s)
		}
		if err == nil {
			if cp.msgs == 0 && known && s.lastSeq == cp.seq && upTo == 0 {
				// A checkpoint without the count, and nothing after it when
				// the load read (after the count): the count is the
				// checkpoint's, which the next write records.
				s.msgs, s.uncounted, s.rewrite = count, false, true
			}
			return c, nil
		}
		if !errors.Is(err, errBadCheckpoint) {
			return nil, err
		}
		s.reset()
	}
	return j.loadFromStart(ctx, filter, id, upTo, s)
}

// reset forgets what a fold of s knew, its epoch aside, before a fold
// from the start or from a checkpoint.
func (s *campaignState) reset() {
	s.requests, s.caught, s.lastSeq, s.lastID, s.savedEvents = nil, nil, 0, "", 0
	s.msgs, s.uncounted, s.rewrite = 0, false, false
}

// loadFromStart is load without a checkpoint: the campaign's events are
// read from its first.
func (j *Handler) loadFromStart(ctx context.Context, filter, id string, upTo uint64, s *campaignState) (*projections.Campaign, error) {
	c := projections.NewCampaign(id)
	if err := j.store.Read(ctx, events.Query{Subject: filter, To: upTo, OnForeign: s.passForeign(c)}, s.apply(c, true)); err != nil {
		return nil, err
	}
	if c.RefoldNeeded {
		return j.refold(ctx, filter, c, upTo)
	}
	return c, nil
}

// foldFrom folds the events after checkpoint cp into its state, up to
// upTo. Unless follows (the store counted messages after the checkpoint),
// it first asks the store for the campaign's last message
// (lastIsCheckpoint): when it is the checkpoint's own, the state is
// cp's and nothing is read. Else the read starts at the checkpoint's own
// last message, which must
// be in the stream as the checkpoint names it: else (a checkpoint ahead
// of the stream, or of another stream) the error wraps errBadCheckpoint.
// The events after the checkpoint are read first, then folded, so that a
// void among them of an event among them leaves it out from the start, as
// a full refold does; a void of an event the checkpoint holds makes it
// refold from the start.
func (j *Handler) foldFrom(ctx context.Context, filter string, cp *checkpoint, upTo uint64, follows bool, s *campaignState) (*projections.Campaign, error) {
	c := cp.c
	cp.into(s)
	verified := false
	check := func(seq uint64, id string) (skip bool, err error) {
		if verified {
			return false, nil
		}
		if seq != cp.seq || id != cp.lastID {
			return false, errBadCheckpoint
		}
		verified = true
		return true, nil
	}
	type message struct {
		rec     events.Recorded
		foreign *events.Foreign
	}
	if !follows {
		switch done, err := j.lastIsCheckpoint(ctx, filter, cp, s); {
		case err != nil:
			return nil, err
		case done:
			return c, nil
		}
	}
	var tail []message
	ids := map[string]bool{}
	q := events.Query{Subject: filter, From: cp.seq, To: upTo, OnForeign: func(f events.Foreign) error {
		if skip, err := check(f.Seq, ""); skip || err != nil {
			return err
		}
		tail = append(tail, message{foreign: &f})
		return nil
	}}
	err := j.store.Read(ctx, q, func(r events.Recorded) error {
		if skip, err := check(r.Seq, r.Event.ID); skip || err != nil {
			if skip { // the checkpoint's own last event: the chain's previous one (chain.go)
				s.noteLast(r)
			}
			return err
		}
		tail = append(tail, message{rec: r})
		ids[r.Event.ID] = true
		return nil
	})
	if err != nil {
		return nil, err
	}
	if !verified {
		return nil, errBadCheckpoint // the stream holds nothing at the checkpoint's sequence
	}
	for _, m := range tail {
		if m.foreign != nil || m.rec.Event.Type != events.TypeEventVoided {
			continue
		}
		var v events.EventVoided
		if err := m.rec.Event.DecodeData(&v); err != nil {
			return nil, err
		}
		if ids[v.EventID] {
			if c.Voided == nil {
				c.Voided = map[string]string{}
			}
			c.Voided[v.EventID] = v.Reason // as a full refold knows it; the void's own fold sets the last reason
		}
	}
	apply, pass := s.apply(c, true), s.passForeign(c)
	for _, m := range tail {
		if m.foreign != nil {
			err = pass(*m.foreign)
		} else {
			err = apply(m.rec)
		}
		if err != nil {
			return nil, err
		}
	}
	if c.RefoldNeeded {
		return j.refold(ctx, filter, c, upTo)
	}
	return c, nil
}

// refold folds the campaign of stale (a fold that met a void naming an
// event it had folded) again from the start, up to upTo, knowing from the
// start every void stale met. The index of request ids is already built.
func (j *Handler) refold(ctx context.Context, filter string, stale *projections.Campaign, upTo uint64) (*projections.Campaign, error) {
	c := projections.NewCampaign(stale.ID)
	c.KnowVoids(stale.Voided)
	if err := j.store.Read(ctx, events.Query{Subject: filter, To: upTo, OnForeign: passForeign(c)}, c.Apply); err != nil {
		return nil, err
	}
	return c, nil
}

// apply returns the fold of events into c, that notes each in s first
// (when note) and remembers the last.
func (s *campaignState) apply(c *projections.Campaign, note bool) func(events.Recorded) error {
	return func(r events.Recorded) error {
		if note {
			s.note(r)
		}
		s.lastSeq, s.lastID = r.Seq, r.Event.ID
		s.msgs++
		return c.Apply(r)
	}
}

// passForeign is the package's passForeign that also remembers the
// message as the last one read.
func (s *campaignState) passForeign(c *projections.Campaign) func(events.Foreign) error {
	pass := passForeign(c)
	return func(f events.Foreign) error {
		s.lastSeq, s.lastID = f.Seq, ""
		s.msgs++
		return pass(f)
	}
}

// passForeign returns the OnForeign of a fold of c: a message of the
// campaign that is not an event (published into the stream past the
// commands) is left out of the fold, but c.LastSeq passes it, since the
// stream counts it as the campaign's last sequence: the next append's
// expectation is then met, and the campaign goes on.
func passForeign(c *projections.Campaign) func(events.Foreign) error {
	return func(f events.Foreign) error {
		c.LastSeq = max(c.LastSeq, f.Seq)
		return nil
	}
}

// draft collects the events a command will append.
type draft struct {
	// ctx is the command's context, for the reads a decision needs (a
	// journal-dice-v2 path's request, whose signature has none).
	ctx      context.Context
	j        *Handler
	campaign *projections.Campaign
	now      time.Time
	evs      []events.Event
	err      error
	// key and nonce draw the dice of the open session: each roll takes the
	// next nonce.
	key   *dice.Key
	nonce uint64
	// rules caches the campaign's RyF rules (nil: build them every time).
	rules *rulesCache
	// ids yields the ids of the drafted events: the handler's, or those
	// derived from the command's request id.
	ids events.IDs
}

// add appends one event to the draft and returns its id.
func (d *draft) add(kind events.Kind, aggID, typ string, data any) string {
	if d.err != nil {
		return ""
	}
	session := ""
	if s := d.campaign.OpenSession(); s != nil {
		session = s.ID
	}
	ev, err := events.New(events.Spec{
		Campaign: d.campaign.ID, Kind: kind, AggregateID: aggID, Name: events.Name(typ), Type: typ,
		Session: session, Actor: d.j.actor, RequestID: d.j.request, Command: d.j.name, Data: data,
	}, d.ids, d.now)
	if err != nil {
		d.err = err
		return ""
	}
	d.evs = append(d.evs, ev)
	return ev.ID
}

// state returns the cache entry of a campaign.
func (j *Handler) state(campaign string) *campaignState {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.tick++
	s := j.states[campaign]
	if s == nil {
		j.evictLocked()
		s = &campaignState{}
		j.states[campaign] = s
	}
	s.used = j.tick
	return s
}

// evictLocked drops the least recently used idle entries until one more
// fits under maxStates (j.mu held). A busy entry (its lock held by a
// command) is never dropped.
func (j *Handler) evictLocked() {
	for j.maxStates > 0 && len(j.states) >= j.maxStates {
		var oldest string
		var o *campaignState
		for id, s := range j.states {
			if o == nil || s.used < o.used {
				if s.mu.TryLock() {
					if o != nil {
						o.mu.Unlock()
					}
					oldest, o = id, s
				}
			}
		}
		if o == nil {
			return // every entry is busy
		}
		delete(j.states, oldest)
		o.mu.Unlock()
	}
}

// CachedCampaigns returns how many campaigns' folds the handler keeps now.
func (j *Handler) CachedCampaigns() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return len(j.states)
}

// catchUp brings the cached state up to the stream: a load the first
// time (from the campaign's checkpoint, if any), then only the events
// recorded since. It writes a checkpoint when enough events were folded
// since the last one.
func (j *Handler) catchUp(ctx context.Context, campaign string, s *campaignState) (*projections.Campaign, error) {
	if s.c == nil {
		c, err := j.load(ctx, campaign, 0, s)
		if err != nil {
			return nil, err
		}
		s.c = c
		j.maybeCheckpoint(ctx, s)
		return c, nil
	}
	filter, err := events.CampaignFilter(campaign)
	if err != nil {
		return nil, invalid("campaign %q: %v", clip.Text(campaign), err)
	}
	c := s.c
	if err := j.store.Read(ctx, events.Query{Subject: filter, From: s.c.LastSeq + 1, OnForeign: s.passForeign(c)}, s.apply(c, true)); err != nil {
		s.c = nil // a partial fold is not to be trusted
		return nil, err
	}
	if s.c.RefoldNeeded {
		s.c = nil
		return j.catchUp(ctx, campaign, s)
	}
	j.maybeCheckpoint(ctx, s)
	return s.c, nil
}

// execute runs decide on the campaign's state and appends what it drafts,
// conditional on the campaign's last sequence. The state is the handler's
// cached fold, which another writer may have moved past: then the append is
// refused with ErrConcurrency, and execute catches up with the stream and
// decides again. A refusal decided on state not read in this call is also
// decided again on fresh state, so that a stale cache never refuses a
// command. Before the first append, the handler's Limiter (if any) admits
// the command, once however often it is decided; a refusal records
// nothing. decide must not modify the campaign state it is given.
func (j *Handler) execute(ctx context.Context, campaign string, decide func(d *draft) error) (Result, error) {
	s := j.state(campaign)
	s.mu.Lock()
	defer s.mu.Unlock()
	var lastErr error
	stale, admitted := false, j.admitted
	for range j.retries {
		fresh := s.c == nil || stale
		if fresh {
			if _, err := j.catchUp(ctx, campaign, s); err != nil {
				return Result{}, err
			}
			stale = false
		}
		c := s.c
		if j.request != "" {
			if res, ok, err := j.repeated(ctx, campaign, s); ok || err != nil {
				return res, err
			}
		}
		d := &draft{ctx: ctx, j: j, campaign: c, now: j.clock().UTC(), rules: &s.rules, ids: j.ids}
		if j.request != "" {
			d.ids = j.requestIDs(campaign)
		}
		if open := c.OpenSession(); open != nil {
			if s.keySession != open.ID {
				key, err := j.sessionKey(ctx, c.ID, open.ID)
				if err != nil {
					return Result{}, err
				}
				s.key, s.keySession = key, open.ID
			}
			d.key, d.nonce = s.key, open.NextNonce
		}
		err := decide(d)
		if err == nil {
			err = d.err
		}
		for _, ev := range d.evs {
			if err != nil {
				break
			}
			err = checkText(ev)
		}
		if err != nil {
			if !fresh {
				stale = true
				continue
			}
			return Result{}, err
		}
		if len(d.evs) == 0 {
			return Result{Campaign: c}, nil
		}
		if !admitted { // once: a retry after a conflict is the same command
			if err := j.admit(campaign, c.Events, len(d.evs)); err != nil {
				return Result{}, err
			}
			admitted = true
		}
		if s.filter == "" {
			s.filter, _ = events.CampaignFilter(campaign) // valid: Load checked it
		}
		if c.NeedsAnchor() && !j.noAnchor {
			err := j.anchor(ctx, s, c, d.now)
			if errors.Is(err, events.ErrConcurrency) {
				lastErr, stale = err, true
				continue
			}
			if err != nil {
				s.c = nil // the anchor may or may not have been stored
				return Result{}, err
			}
		}
		lastHash, err := s.chain(d.evs)
		if err != nil {
			return Result{}, err
		}
		seqs, err := j.store.Append(ctx, events.ExpectLast(s.filter, c.LastSeq), d.evs...)
		if errors.Is(err, events.ErrConcurrency) {
			lastErr, stale = err, true
			continue
		}
		if err != nil {
			// The append may or may not have been stored: fold afresh next time.
			s.c = nil
			return Result{}, err
		}
		if j.request != "" {
			return j.recorded(ctx, campaign, s)
		}
		res := Result{Campaign: c, Events: make([]events.Recorded, 0, len(d.evs))}
		s.appended(d.evs[len(d.evs)-1], lastHash)
		for i, ev := range d.evs {
			rec := events.Recorded{Seq: seqs[i], Subject: ev.StreamSubject, Event: ev}
			s.lastSeq, s.lastID = rec.Seq, ev.ID
			s.msgs++ // appended after the campaign's last: nothing between
			if err := c.Apply(rec); err != nil {
				s.c = nil
				return Result{}, err
			}
			res.Events = append(res.Events, rec)
		}
		if c.RefoldNeeded { // a void: fold again, leaving the voided event out
			s.c = nil
			if res.Campaign, err = j.catchUp(ctx, campaign, s); err != nil {
				return Result{}, err
			}
		} else {
			j.maybeCheckpoint(ctx, s)
		}
		return res, nil
	}
	return Result{}, msgerr.Errorf("gave up after %d attempts: %w", j.retries, lastErr)
}
