// Package live keeps the journal's campaign projections up to date from the
// event stream, for long-running processes (`journal serve`), and
// checkpoints them in a key-value bucket so that a restart resumes from the
// last checkpoint instead of refolding the whole stream.
//
// Invariants:
//   - The Projector is the only writer of its state, and it writes only by
//     folding recorded events in stream order (projections.Campaign.Apply),
//     or, when a void names an event already folded, by refolding that
//     campaign from the stream with its voids known: the state of every
//     campaign at position P equals a refold of the stream up to P as
//     command.Handler.Load makes it. A fold that fails (or panics) on an
//     event skips it, counts it (Stats.Failures, Options.OnError) and logs it.
//   - A message of the stream that is not an event (events.Foreign: put
//     there past the commands) never stops the projection: it is skipped,
//     counted (Stats.Foreign, Options.OnForeign) and logged, and the
//     position passes it.
//   - Position is the last stream sequence delivered to the fold or
//     skipped. It never goes back.
//   - The live feed (Subscribe, package feed) carries every event the
//     projector delivers to the fold, folded or refused, in stream order,
//     after the fold and outside the state lock, to every subscription of
//     its campaign, and then to Options.OnFeed; it never waits for a
//     reader (a reader that falls behind is closed, feed.ErrSlow). Readers
//     cost the stream nothing: the projector's consumer is the only one.
//   - Health tells a projection that keeps up (ok; degraded once it has
//     skipped a message or an event) from one behind the stream that still
//     moves (lagging) and one behind that has not moved for
//     Options.StuckAfter (stuck).
//   - A checkpoint is consistent: the campaign states it writes are all
//     taken at one position P, under one lock, and the key "position" is
//     written last. Every campaign key holds the state at the sequence it
//     names, and every campaign without a newer key had no event between
//     its key's sequence and the position key's. Restoring takes each
//     campaign from its key, resumes the stream after the position key's
//     sequence, and skips events a campaign's key already holds, so a
//     restored state equals a refold even after a crash between two puts.
//   - A checkpoint of another format or written by another fold (another
//     projections.Fingerprint: the projections' shape or the build's revision changed),
//     or ahead of the stream (a stream that was recreated), is ignored: the
//     projector refolds from the start.
//   - The projector reads and writes only its own keys ("position",
//     "campaign.<id>"); others kept in its store (Checkpoints: the web
//     server's page checkpoints, "page.*") are never read into its state.
//   - A checkpoint value over MaxValue is refused before it is sent
//     (ErrTooLarge): the projector logs the failed checkpoint and keeps
//     its campaigns dirty for the next one.
package live

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/feed"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/projections"
)

// Format is the version of the checkpoint documents. A projector ignores
// checkpoints of any other format and refolds.
const Format = 1

// Keys of the checkpoint bucket.
const (
	positionKey    = "position"
	campaignPrefix = "campaign."
)

// Source is what the projector reads: the stream, followed live, read
// (to refold a campaign after a void), and its last sequence.
type Source interface {
	events.Follower
	Read(ctx context.Context, q events.Query, fn func(events.Recorded) error) error
	Last(ctx context.Context, filter string) (uint64, error)
}

// ErrPartitioned is the error of Restore and Run on a source of several
// partitions' streams (jetstore.Store with Partitions > 1): the projector
// keeps one position, a sequence of one stream. Run one projector per
// partition, on jetstore.Store.Partition(p) with PartitionKV, in a Group:
// a campaign lives in one.
var ErrPartitioned = msgerr.New("live: the journal has several partitions, each stream with its own sequences: run one projector per partition")

// partitioned is a source that may span several streams.
type partitioned interface{ Partitions() int }

// oneStream refuses a source of several streams (ErrPartitioned).
func (p *Projector) oneStream() error {
	if ps, ok := p.src.(partitioned); ok && ps.Partitions() > 1 {
		return msgerr.Errorf("%w (%d)", ErrPartitioned, ps.Partitions())
	}
	return nil
}

// Options configures a Projector. Zero values take the defaults.
type Options struct {
	// Every is how many folded events trigger a checkpoint (default 1000).
	Every int
	// Interval is how often a checkpoint is written while there are
	// unsaved events (default 5 s); it is also how often the stream's last
	// sequence is polled for the lag.
	Interval time.Duration
	// Clock tells the time of checkpoints (default time.Now).
	Clock func() time.Time
	// Logger reports errors the projector survives (default: discard).
	Logger *slog.Logger
	// OnEvent, when set, is called for every event folded, after the fold,
	// outside the state lock (for metrics). It must not block.
	OnEvent func(events.Recorded)
	// OnError, when set, is called for every event the fold refused.
	OnError func(events.Recorded, error)
	// OnForeign, when set, is called for every message of the stream that
	// is not an event, skipped. It must not block.
	OnForeign func(events.Foreign)
	// StuckAfter is how long a projection behind the stream may go without
	// moving before Health calls it stuck (default 30 s).
	StuckAfter time.Duration
	// Fingerprint names the fold in the checkpoints it writes and accepts
	// (default: projections.Fingerprint()).
	Fingerprint string
	// Lang is the language of Text's transcript lines (default Spanish,
	// the transcript's own); TextIn gives each line in either language.
	Lang i18n.Lang
	// FeedBuffer is how many events may wait for one reader of the live
	// feed (Subscribe) before the reader is closed as too slow (default
	// feed.DefaultBuffer).
	FeedBuffer int
	// OnFeed, when set, is called with every event the live feed carries
	// (folded or refused by the fold), in stream order, after the feed's
	// readers got it, outside the state lock (journal serve publishes it
	// on core NATS). It must not block.
	OnFeed func(*feed.Event)
}

// Projector folds every campaign of the stream, live. Use New, then Restore
// and Run; read with View, Campaigns and WaitFor. Its methods are safe for
// concurrent use.
type Projector struct {
	src  Source
	kv   KV
	opts Options

	mu        sync.RWMutex
	campaigns map[string]*projections.Campaign
	// saved is the sequence each campaign's checkpoint holds; events at or
	// below it are already folded into the restored state.
	saved    map[string]uint64
	dirty    map[string]bool
	position uint64
	pending  int           // events folded since the last checkpoint
	advanced chan struct{} // closed and replaced whenever position moves
	// texts keeps the transcript lines of the last TextMemory events folded.
	texts    map[uint64]lines
	textSeqs []uint64 // ring of the sequences in texts
	textNext int

	statMu       sync.Mutex
	streamLast   uint64
	checkpointAt time.Time
	checkpointSq uint64
	restoredFrom uint64
	failures     int
	foreign      int
	lastForeign  *events.Foreign
	// progressAt is when the position last moved, or the projector was
	// last seen caught up with the stream.
	progressAt time.Time

	cpMu   sync.Mutex    // one checkpoint at a time
	cpKick chan struct{} // asks the checkpoint loop for one now

	// hub is the live feed: the events delivered to the fold, fanned out
	// to the readers of their campaign (Subscribe).
	hub *feed.Hub
}

// New returns a projector over src that checkpoints into kv (nil: none).
func New(src Source, kv KV, opts Options) *Projector {
	if opts.Every <= 0 {
		opts.Every = 1000
	}
	if opts.Interval <= 0 {
		opts.Interval = 5 * time.Second
	}
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Fingerprint == "" {
		opts.Fingerprint = projections.Fingerprint()
	}
	if opts.StuckAfter <= 0 {
		opts.StuckAfter = DefaultStuckAfter
	}
	return &Projector{
		src: src, kv: kv, opts: opts, progressAt: opts.Clock(),
		campaigns: map[string]*projections.Campaign{},
		saved:     map[string]uint64{},
		dirty:     map[string]bool{},
		advanced:  make(chan struct{}),
		texts:     map[uint64]lines{},
		textSeqs:  make([]uint64, TextMemory),
		cpKick:    make(chan struct{}, 1),
		hub:       feed.NewHub(opts.FeedBuffer),
	}
}

// positionDoc is the value of the "position" key.
type positionDoc struct {
	Format int `json:"format"`
	// Fingerprint names the code that folded the checkpoint (projections.Fingerprint).
	Fingerprint string    `json:"fingerprint"`
	Seq         uint64    `json:"seq"`
	Saved       time.Time `json:"saved"`
}

// campaignDoc is the value of a "campaign.<id>" key: the campaign folded up
// to stream sequence Seq.
type campaignDoc struct {
	Format   int                   `json:"format"`
	Seq      uint64                `json:"seq"`
	Campaign *projections.Campaign `json:"campaign"`
}

// Restore loads the last checkpoint, if any, and returns the position it
// resumes from (0: none, a full refold). It must be called before Run.
func (p *Projector) Restore(ctx context.Context) (uint64, error) {
	if err := p.oneStream(); err != nil {
		return 0, err
	}
	if p.kv == nil {
		return 0, nil
	}
	b, err := p.kv.Get(ctx, positionKey)
	if errors.Is(err, events.ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	var pos positionDoc
	if err := json.Unmarshal(b, &pos); err != nil || pos.Format != Format {
		p.opts.Logger.Warn("checkpoint of another format: refolding", "err", err, "format", pos.Format)
		return 0, nil
	}
	if pos.Fingerprint != p.opts.Fingerprint {
		p.opts.Logger.Info("checkpoint written by another fold: refolding", "checkpoint", pos.Fingerprint, "this", p.opts.Fingerprint)
		return 0, nil
	}
	last, err := p.src.Last(ctx, events.AllFilter)
	if err != nil {
		return 0, err
	}
	if pos.Seq > last {
		p.opts.Logger.Warn("checkpoint is ahead of the stream: refolding", "checkpoint", pos.Seq, "stream", last)
		return 0, nil
	}
	keys, err := p.kv.Keys(ctx)
	if err != nil {
		return 0, err
	}
	campaigns := map[string]*projections.Campaign{}
	saved := map[string]uint64{}
	for _, k := range keys {
		id, ok := strings.CutPrefix(k, campaignPrefix)
		if !ok {
			continue
		}
		b, err := p.kv.Get(ctx, k)
		if err != nil {
			return 0, err
		}
		var doc campaignDoc
		if err := json.Unmarshal(b, &doc); err != nil || doc.Format != Format || doc.Campaign == nil || doc.Campaign.ID != id || doc.Seq > last {
			p.opts.Logger.Warn("unusable checkpoint: refolding", "key", k, "err", err)
			return 0, nil
		}
		campaigns[id] = projections.Normalize(doc.Campaign)
		saved[id] = doc.Seq
	}
	p.mu.Lock()
	p.campaigns, p.saved, p.position = campaigns, saved, pos.Seq
	p.mu.Unlock()
	p.statMu.Lock()
	p.checkpointAt, p.checkpointSq, p.restoredFrom = pos.Saved, pos.Seq, pos.Seq
	p.streamLast = max(p.streamLast, last)
	p.statMu.Unlock()
	return pos.Seq, nil
}

// Run follows the stream from the position on, folding every event, and
// checkpoints every Options.Every events or Options.Interval, until ctx
// ends; it then returns ctx.Err(). A failing stream is followed again
// after a pause. Write the final checkpoint with Checkpoint after Run
// returns.
func (p *Projector) Run(ctx context.Context) error {
	if err := p.oneStream(); err != nil {
		return err
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		p.checkpointLoop(ctx)
	}()
	defer wg.Wait()
	pause := 100 * time.Millisecond
	for {
		from := p.Position() + 1
		q := events.Query{From: from, OnForeign: p.skip}
		err := p.src.Follow(ctx, q, func(rec events.Recorded) error { return p.fold(ctx, rec) })
		if ctx.Err() != nil {
			return ctx.Err()
		}
		p.opts.Logger.Error("following the stream failed; retrying", "from", from, "err", err)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(pause):
		}
		pause = min(2*pause, 5*time.Second)
	}
}

// fold folds one event into its campaign.
func (p *Projector) fold(ctx context.Context, rec events.Recorded) error {
	p.mu.RLock()
	seen := rec.Seq <= p.position
	id := rec.Event.Campaign
	fresh := rec.Seq > p.saved[id]
	p.mu.RUnlock()
	if seen {
		return nil // redelivered after a retry
	}
	// A void may name an event already folded: refold the campaign from the
	// stream, knowing its voids from the start (as command.Handler.Load
	// does). The refold reads the store outside the lock; on failure nothing
	// has changed and the event comes again when the stream is followed again.
	var refolded *projections.Campaign
	if fresh && rec.Event.Type == events.TypeEventVoided {
		var err error
		if refolded, err = p.refold(ctx, id, rec.Seq); err != nil {
			return msgerr.Errorf("refold campaign %s after void %s: %w", id, rec.Event.ID, err)
		}
	}

	p.mu.Lock()
	var err error
	if fresh {
		c := p.campaigns[id]
		if c == nil {
			c = projections.NewCampaign(id)
		}
		var text lines
		if text, err = apply(c, rec); err == nil {
			if refolded != nil {
				c = refolded
			}
			p.campaigns[id] = c
			p.dirty[id] = true
			p.remember(rec.Seq, text)
		}
	}
	kick := p.advance(rec.Seq)
	p.mu.Unlock()
	p.progressed()

	if err != nil {
		p.statMu.Lock()
		p.failures++
		p.statMu.Unlock()
		p.opts.Logger.Error("event refused by the fold; skipped", "seq", rec.Seq, "id", rec.Event.ID, "err", err)
		if p.opts.OnError != nil {
			p.opts.OnError(rec, err)
		}
	} else if p.opts.OnEvent != nil {
		p.opts.OnEvent(rec)
	}
	p.publish(rec)
	if kick {
		select {
		case p.cpKick <- struct{}{}:
		default:
		}
	}
	return nil
}

// publish puts rec on the live feed: to the readers of its campaign, then
// to Options.OnFeed. It encodes the event only when someone takes it.
func (p *Projector) publish(rec events.Recorded) {
	id := rec.Event.Campaign
	if p.opts.OnFeed == nil && !p.hub.Wants(id) {
		return
	}
	ev, err := feed.NewEvent(rec)
	if err != nil {
		p.opts.Logger.Error("event does not encode for the live feed; its readers are closed", "seq", rec.Seq, "id", rec.Event.ID, "err", err)
		p.hub.Fail(id, msgerr.Errorf("live feed: event %d: %w", rec.Seq, err))
		return
	}
	p.hub.Publish(ev)
	if p.opts.OnFeed != nil {
		p.opts.OnFeed(ev)
	}
}

// Subscribe follows campaign's events on the live feed: every event of it
// the projector delivers to the fold after Subscribe returns (those
// before are in the store: read them after subscribing, and skip the
// sequences the subscription repeats). Close the subscription when done;
// a reader that lets Options.FeedBuffer events wait is closed
// (feed.ErrSlow).
func (p *Projector) Subscribe(campaign string) *feed.Subscription { return p.hub.Subscribe(campaign) }

// FeedReaders returns the number of open subscriptions of the live feed.
func (p *Projector) FeedReaders() int { return p.hub.Subscribers() }

// advance moves the position to seq, folded or skipped, and wakes
// WaitFor; it reports whether a checkpoint is due. The caller holds the
// lock.
func (p *Projector) advance(seq uint64) (kick bool) {
	p.position = seq
	p.pending++
	close(p.advanced)
	p.advanced = make(chan struct{})
	return p.pending >= p.opts.Every
}

// progressed notes that the position moved now.
func (p *Projector) progressed() {
	now := p.opts.Clock()
	p.statMu.Lock()
	p.progressAt = now
	p.statMu.Unlock()
}

// skip passes a message of the stream that is not an event: the position
// moves past it, and it is counted and logged, loudly, for it can only
// have been put there past the commands.
func (p *Projector) skip(f events.Foreign) error {
	p.mu.Lock()
	if f.Seq <= p.position {
		p.mu.Unlock()
		return nil // redelivered after a retry
	}
	// The stream counts the message in its campaign's last sequence, and
	// so does a refold (command.Handler.Load): so does the live state.
	if id := campaignOf(f.Subject); p.campaigns[id] != nil && f.Seq > p.saved[id] {
		p.campaigns[id].LastSeq = max(p.campaigns[id].LastSeq, f.Seq)
		p.dirty[id] = true
	}
	kick := p.advance(f.Seq)
	p.mu.Unlock()
	p.progressed()
	p.statMu.Lock()
	p.foreign++
	p.lastForeign = &f
	p.statMu.Unlock()
	p.opts.Logger.Error("message of the stream is not a journal event; skipped", "seq", f.Seq, "subject", f.Subject, "err", f.Err)
	if p.opts.OnForeign != nil {
		p.opts.OnForeign(f)
	}
	if kick {
		select {
		case p.cpKick <- struct{}{}:
		default:
		}
	}
	return nil
}

// campaignOf returns the campaign token of a subject journal.<campaign>...
// ("" for none).
func campaignOf(subject string) string {
	rest, ok := strings.CutPrefix(subject, events.Prefix+".")
	if !ok {
		return ""
	}
	id, _, _ := strings.Cut(rest, ".")
	return id
}

// refold folds campaign id from the stream up to sequence upTo, with its
// voids known from the start.
func (p *Projector) refold(ctx context.Context, id string, upTo uint64) (*projections.Campaign, error) {
	filter, err := events.CampaignFilter(id)
	if err != nil {
		return nil, err
	}
	voids := map[string]string{}
	err = p.src.Read(ctx, events.Query{Subject: filter, To: upTo, Types: []string{events.TypeEventVoided}}, func(r events.Recorded) error {
		var v events.EventVoided
		if err := r.Event.DecodeData(&v); err != nil {
			return err
		}
		voids[v.EventID] = v.Reason
		return nil
	})
	if err != nil {
		return nil, err
	}
	c := projections.NewCampaign(id)
	c.KnowVoids(voids)
	passForeign := func(f events.Foreign) error { // as skip does
		c.LastSeq = max(c.LastSeq, f.Seq)
		return nil
	}
	if err := p.src.Read(ctx, events.Query{Subject: filter, To: upTo, OnForeign: passForeign}, func(r events.Recorded) error {
		_, err := apply(c, r)
		return err
	}); err != nil {
		return nil, err
	}
	return c, nil
}

// lines is an event's transcript line in each language.
type lines struct{ es, en string }

// in is the line in l (Spanish for the zero Lang).
func (t lines) in(l i18n.Lang) string {
	if l.Or() == i18n.EN {
		return t.en
	}
	return t.es
}

// apply describes rec with the state before it (its transcript line, in
// each language) and folds it into c, turning a panic of the fold into an
// error so that one bad event cannot stop the service.
func apply(c *projections.Campaign, rec events.Recorded) (text lines, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = msgerr.Errorf("fold of %s panicked: %v", rec.Event.ID, r)
		}
	}()
	data, err := rec.Event.Payload()
	if err != nil {
		return lines{}, err
	}
	text = lines{es: projections.DescribeIn(i18n.ES, c, rec.Event, data), en: projections.DescribeIn(i18n.EN, c, rec.Event, data)}
	return text, c.Apply(rec)
}

// checkpointLoop writes checkpoints on its timer or when kicked, and polls
// the stream's last sequence, until ctx ends.
func (p *Projector) checkpointLoop(ctx context.Context) {
	tick := time.NewTicker(p.opts.Interval)
	defer tick.Stop()
	p.pollLast(ctx)
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			p.pollLast(ctx)
		case <-p.cpKick:
		}
		if err := p.Checkpoint(ctx); err != nil && ctx.Err() == nil {
			p.opts.Logger.Error("checkpoint failed", "err", err)
		}
	}
}

func (p *Projector) pollLast(ctx context.Context) {
	last, err := p.src.Last(ctx, events.AllFilter)
	if err != nil {
		return
	}
	p.NoteStreamLast(last)
}

// Checkpoint writes the campaigns changed since the last checkpoint, then
// the position, if anything changed. Safe to call at any time, including
// after Run returned (the final checkpoint).
func (p *Projector) Checkpoint(ctx context.Context) error {
	if p.kv == nil {
		return nil
	}
	p.cpMu.Lock()
	defer p.cpMu.Unlock()

	p.mu.Lock()
	if p.pending == 0 && len(p.dirty) == 0 {
		p.mu.Unlock()
		return nil
	}
	pos := p.position
	ids := make([]string, 0, len(p.dirty))
	for id := range p.dirty {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	docs := make([][]byte, len(ids))
	var err error
	for i, id := range ids {
		docs[i], err = json.Marshal(campaignDoc{Format: Format, Seq: pos, Campaign: p.campaigns[id]})
		if err != nil {
			break
		}
	}
	if err == nil {
		p.dirty = map[string]bool{}
		p.pending = 0
	}
	p.mu.Unlock()
	if err != nil {
		return msgerr.Errorf("checkpoint: %w", err)
	}

	restore := func() {
		p.mu.Lock()
		for _, id := range ids {
			p.dirty[id] = true
		}
		p.pending++
		p.mu.Unlock()
	}
	for i, id := range ids {
		if err := p.kv.Put(ctx, campaignPrefix+id, docs[i]); err != nil {
			restore()
			return err
		}
	}
	now := p.opts.Clock()
	b, err := json.Marshal(positionDoc{Format: Format, Fingerprint: p.opts.Fingerprint, Seq: pos, Saved: now.UTC()})
	if err != nil {
		restore()
		return msgerr.Errorf("checkpoint: %w", err)
	}
	if err := p.kv.Put(ctx, positionKey, b); err != nil {
		restore()
		return err
	}
	p.statMu.Lock()
	p.checkpointAt, p.checkpointSq = now, pos
	p.statMu.Unlock()
	return nil
}

// TextMemory is how many recent transcript lines the projector keeps.
const TextMemory = 4096

// remember keeps the transcript line of sequence seq, forgetting the
// oldest; the caller holds the lock.
func (p *Projector) remember(seq uint64, text lines) {
	if old := p.textSeqs[p.textNext]; old != 0 {
		delete(p.texts, old)
	}
	p.textSeqs[p.textNext] = seq
	p.textNext = (p.textNext + 1) % len(p.textSeqs)
	p.texts[seq] = text
}

// Text returns the transcript line of a recently folded event (one of the
// last TextMemory), described with the state before it, in Options.Lang.
func (p *Projector) Text(seq uint64) (string, bool) {
	return p.TextIn(seq, p.opts.Lang)
}

// TextIn is Text in l: the line a reader in l sees (the table's log and
// a command's answer speak the request's language).
func (p *Projector) TextIn(seq uint64, l i18n.Lang) (string, bool) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	t, ok := p.texts[seq]
	return t.in(l), ok
}

// Position returns the last stream sequence folded.
func (p *Projector) Position() uint64 {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return p.position
}

// WaitFor waits until the position reaches seq, or ctx ends.
func (p *Projector) WaitFor(ctx context.Context, seq uint64) error {
	for {
		p.mu.RLock()
		pos, ch := p.position, p.advanced
		p.mu.RUnlock()
		if pos >= seq {
			return nil
		}
		select {
		case <-ctx.Done():
			return msgerr.Errorf("waiting for the projection to reach %d (at %d): %w", seq, pos, ctx.Err())
		case <-ch:
		}
	}
}

// View calls fn with campaign id's live state under the read lock, or
// returns an error wrapping events.ErrNotFound when no event of it was
// folded. fn must not keep c or anything in it, nor call the projector.
func (p *Projector) View(id string, fn func(c *projections.Campaign) error) error {
	p.mu.RLock()
	defer p.mu.RUnlock()
	c := p.campaigns[id]
	if c == nil || c.Events == 0 {
		return msgerr.Errorf("campaign %s: %w", id, events.ErrNotFound)
	}
	return fn(c)
}

// Summary is one line of the campaign list.
type Summary struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	System     string `json:"system"`
	Characters int    `json:"characters"`
	Sessions   int    `json:"sessions"`
	// OpenSession is the session in progress, empty when none.
	OpenSession string    `json:"open_session,omitempty"`
	InCombat    bool      `json:"in_combat"`
	Events      int       `json:"events"`
	LastSeq     uint64    `json:"last_seq"`
	Created     time.Time `json:"created"`
	Updated     time.Time `json:"updated"`
}

// Campaigns lists the campaigns that have been created, by id.
func (p *Projector) Campaigns() []Summary {
	p.mu.RLock()
	defer p.mu.RUnlock()
	out := make([]Summary, 0, len(p.campaigns))
	for _, c := range p.campaigns {
		if c.System == "" {
			continue // events of a campaign never created (refused by the commands)
		}
		s := Summary{ID: c.ID, Name: c.Name, System: c.System, Characters: len(c.Roster), Sessions: len(c.Sessions),
			InCombat: c.Combat != nil, Events: c.Events, LastSeq: c.LastSeq, Created: c.Created, Updated: c.Updated}
		if o := c.OpenSession(); o != nil {
			s.OpenSession = o.ID
		}
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b Summary) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// Stats are the projector's figures for metrics.
type Stats struct {
	// Position is the last sequence folded; StreamLast the stream's last
	// sequence as last seen (polled every Interval, and never below
	// Position).
	Position   uint64
	StreamLast uint64
	// CheckpointSeq and CheckpointAt are the position and time of the last
	// checkpoint written or restored (zero when none).
	CheckpointSeq uint64
	CheckpointAt  time.Time
	// RestoredFrom is the position the projector restored from (0: a full fold).
	RestoredFrom uint64
	// Failures counts events the fold refused.
	Failures int
	// Foreign counts the messages of the stream skipped for not being
	// events; LastForeign is the last of them (nil: none).
	Foreign     int
	LastForeign *events.Foreign
	// ProgressAt is when the position last moved, or the projector was
	// last seen caught up with the stream (by a poll, NoteStreamLast or
	// the start).
	ProgressAt time.Time
}

// Lag is how many stream messages are not folded yet.
func (s Stats) Lag() uint64 {
	if s.StreamLast > s.Position {
		return s.StreamLast - s.Position
	}
	return 0
}

// Stats returns the projector's figures.
func (p *Projector) Stats() Stats {
	pos := p.Position()
	p.statMu.Lock()
	defer p.statMu.Unlock()
	return Stats{Position: pos, StreamLast: max(p.streamLast, pos), CheckpointSeq: p.checkpointSq,
		CheckpointAt: p.checkpointAt, RestoredFrom: p.restoredFrom, Failures: p.failures,
		Foreign: p.foreign, LastForeign: p.lastForeign, ProgressAt: p.progressAt}
}

// NoteStreamLast tells the projector the stream holds at least seq (for
// example after an append by this process), so that the lag is current
// between polls.
func (p *Projector) NoteStreamLast(seq uint64) {
	pos := p.Position()
	now := p.opts.Clock()
	p.statMu.Lock()
	p.streamLast = max(p.streamLast, seq)
	if p.streamLast <= pos {
		p.progressAt = now // caught up: not behind since
	}
	p.statMu.Unlock()
}

// DefaultStuckAfter is Options.StuckAfter's default.
const DefaultStuckAfter = 30 * time.Second

// The projection's health, from the best to the worst.
const (
	// HealthOK: caught up with the stream as last seen, nothing skipped.
	HealthOK = "ok"
	// HealthDegraded: caught up, but messages that are not events or
	// events the fold refused were skipped (see Stats).
	HealthDegraded = "degraded"
	// HealthLagging: behind the stream, and moved within StuckAfter.
	HealthLagging = "lagging"
	// HealthStuck: behind the stream, and has not moved for StuckAfter.
	HealthStuck = "stuck"
)

// Health is the projection's health and the figures it is decided on.
type Health struct {
	Status string
	Stats
	// SinceProgress is how long ago the position last moved (or the
	// projector was seen caught up); StuckAfter the limit for stuck.
	SinceProgress time.Duration
	StuckAfter    time.Duration
}

// Health returns the projection's health now (Options.Clock), with the
// stream's last sequence as last seen: tell the projector the current one
// first (NoteStreamLast) for a current verdict.
func (p *Projector) Health() Health {
	st := p.Stats()
	h := Health{Stats: st, SinceProgress: max(p.opts.Clock().Sub(st.ProgressAt), 0), StuckAfter: p.opts.StuckAfter}
	switch {
	case st.Lag() > 0 && h.SinceProgress >= p.opts.StuckAfter:
		h.Status = HealthStuck
	case st.Lag() > 0:
		h.Status = HealthLagging
	case st.Foreign > 0 || st.Failures > 0:
		h.Status = HealthDegraded
	default:
		h.Status = HealthOK
	}
	return h
}
