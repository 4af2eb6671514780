package web

// What a page waits for first (the dashboard's transcript, luck charts and
// newest cards; the table's newest cards) is read without reading the
// campaign's whole stream per request:
//
//   - The transcript of a session (GET .../transcript?session=S&lang=L,
//     what app.js asks for) and the luck statistics (GET .../stats) are
//     projections the server keeps: the fold the scanning path makes
//     (projections.Transcript, replay.LuckCounter), kept with the stream
//     sequence it has read up to. A request reads only the events after
//     it, up to the campaign's last sequence, and answers exactly what a
//     read of the whole campaign answers (same fold, same events, same
//     order).
//   - Those projections are checkpointed (page checkpoints): each entry
//     writes its state, with the stream sequence of the last event it
//     folded and that event's hash (events.ChainHash of its stored bytes),
//     into the checkpoint store of its campaign's projector
//     (live.Projector.Checkpoints, the bucket journal_checkpoints), under
//     "page.transcript.<campaign>.s-<session>.l-<lang>" and
//     "page.stats.<campaign>.s-<session>.c-<character>": when it is first
//     built, then every pageCheckpointEvery events it moves. The luck
//     counter's state is counts (replay.LuckState); the transcript's is
//     the campaign state its fold reached and its last
//     pageCheckpointLines lines (projections.TranscriptState), what
//     app.js shows (?tail=100): its size is bounded by the lines kept,
//     not by the campaign's events. A value over live.MaxValue is not
//     written: the failure is logged (error) and counted
//     (journal_page_checkpoint_errors_total).
//   - A new entry (after a start or a restart of the server, or an
//     eviction) loads its checkpoint, and reads only the events after
//     it. A checkpoint that does not decode, of another format or
//     another fold (projections.Fingerprint), of another selection, whose
//     state no fold could have (replay.RestoreLuckCounter,
//     projections.RestoreTranscript) or whose last event is not in the
//     stream at its sequence with its hash, is ignored (logged): the entry
//     folds the campaign from the stream. A request for more of the
//     transcript than a restored entry kept (the whole of it, or a tail
//     longer than the lines kept) folds the campaign from the stream.
//
// What a forged page checkpoint can do: the bucket is on the host's disk,
// and the GM who hosts can write in it. A checkpoint whose last event and
// hash match the stream but whose state is edited (other counts, other
// lines) changes what the dashboard shows — its transcript lines and luck
// charts — from then on, until the entry is rebuilt from the stream (a
// void or a character created, an eviction, a request for the whole
// transcript, a restart without the checkpoint). It cannot change the
// record (the stream, which it never writes), nor replay's verdict, nor
// any verifier's (journal verify, the audit page and every export read
// the stream, never a page checkpoint), nor the commands' decisions
// (they fold the stream); the pages' verdicts still come from the record.
//   - The newest page of cards (GET .../events?tail=N&types=…) is read
//     backwards in windows of stream sequences that double, until it has
//     N events or reaches the start: what it reads is about the page, not
//     the campaign.
//
// Invariants: an entry only ever moves forward, by folding the events of
// its campaign in stream order, from nothing or from a checkpoint of its
// own selection whose last event the stream holds at its sequence; one
// whose fold failed is dropped; a statistics entry that meets a void or a
// character's creation after it was built is rebuilt from the stream (the
// two passes of replay.Luck know both from the start), a restored one as
// well; a restored entry + the events after it answers what a scan of the
// campaign answers, as an entry kept in memory does.

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"

	"sync"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/live"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/replay"
)

// pageCacheEntries bounds each kind of entry the server keeps (the least
// recently used is dropped).
const pageCacheEntries = 64

// pageCache holds the server's projections of the pages' reports.
type pageCache struct {
	mu          sync.Mutex
	clock       uint64
	transcripts map[string]*transcriptEntry
	stats       map[string]*statsEntry
}

func newPageCache() *pageCache {
	return &pageCache{transcripts: map[string]*transcriptEntry{}, stats: map[string]*statsEntry{}}
}

// transcriptEntry is the transcript of one campaign's session in one
// language, folded up to pos.
type transcriptEntry struct {
	mu                sync.Mutex
	used              uint64
	campaign, session string
	lang              i18n.Lang
	tr                *projections.Transcript
	pos               uint64
	cp                pageCheckpoint
}

// reset empties the entry: nothing folded.
func (e *transcriptEntry) reset() {
	e.tr = projections.NewTranscript(e.campaign, e.session)
	e.tr.Lang = e.lang
	e.pos = 0
	e.cp.last = events.Recorded{}
}

// statsEntry is the luck counter of one selection, fed up to pos, and its
// last report (taken at repAt).
type statsEntry struct {
	mu    sync.Mutex
	used  uint64
	f     replay.LuckFilter
	l     *replay.LuckCounter
	pos   uint64
	rep   replay.LuckReport
	repAt uint64
	cp    pageCheckpoint
}

// evict drops the least recently used entries beyond pageCacheEntries; the
// caller holds c.mu.
func evict[E interface{ usedAt() uint64 }](m map[string]E) {
	for len(m) > pageCacheEntries {
		oldest, at := "", ^uint64(0)
		for k, e := range m {
			if u := e.usedAt(); u < at {
				oldest, at = k, u
			}
		}
		delete(m, oldest)
	}
}

func (e *transcriptEntry) usedAt() uint64 { return e.used }
func (e *statsEntry) usedAt() uint64      { return e.used }

// transcript returns the entry of (campaign, session, lang), made if new.
func (c *pageCache) transcript(campaign, session string, lang i18n.Lang) *transcriptEntry {
	key := campaign + "|" + session + "|" + string(lang)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.clock++
	e := c.transcripts[key]
	if e == nil {
		e = &transcriptEntry{campaign: campaign, session: session, lang: lang}
		e.reset()
		c.transcripts[key] = e
		evict(c.transcripts)
	}
	e.used = c.clock
	return e
}

// lines returns the transcript's lines up to last (the campaign's last
// sequence), reading from the store only the events after the entry's
// position; need is how many of the last lines the caller wants (0: all):
// an entry restored with fewer lines kept folds the campaign from the
// start. The lines returned are never changed afterwards (the entry only
// appends). events is the number of events folded.
func (e *transcriptEntry) lines(ctx context.Context, ps pageStore, filter string, last, need uint64) ([]projections.Line, int, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	key := transcriptKey(e.campaign, e.session, e.lang)
	if !e.cp.tried {
		e.cp.tried = true
		e.restore(ctx, ps, key, filter, last)
	}
	if e.tr.Dropped > 0 && (need == 0 || need > uint64(len(e.tr.Lines))) {
		e.reset() // the lines before the restored ones are asked for
	}
	if e.pos < last {
		err := ps.read(ctx, events.Query{Subject: filter, From: e.pos + 1, To: last}, func(rec events.Recorded) error {
			if err := e.tr.Apply(rec); err != nil {
				return err
			}
			e.pos, e.cp.last = rec.Seq, rec
			return nil
		})
		if err != nil {
			e.reset() // half folded: the next request folds it again
			return nil, 0, err
		}
		e.pos = last // foreign messages up to last, skipped as a scan skips them
	}
	e.cp.save(ctx, ps, key, func() (pageDoc, bool) {
		st := e.tr.State(pageCheckpointLines)
		return pageDoc{Transcript: &st}, len(st.Lines) > 0
	})
	return e.tr.Lines[:len(e.tr.Lines):len(e.tr.Lines)], e.tr.Campaign.Events, nil
}

// restore loads the entry's checkpoint, if there is one it can trust.
func (e *transcriptEntry) restore(ctx context.Context, ps pageStore, key, filter string, last uint64) {
	doc, rec, ok := ps.load(ctx, key, filter, last)
	if !ok || doc.Transcript == nil {
		return
	}
	st := *doc.Transcript
	if st.Session != e.session || st.Lang != e.lang || st.Campaign == nil || st.Campaign.ID != e.campaign {
		ps.ignored(key, "a checkpoint of another selection")
		return
	}
	tr, err := projections.RestoreTranscript(st)
	if err != nil {
		ps.ignored(key, err.Error())
		return
	}
	e.tr, e.pos, e.cp.last, e.cp.saved = tr, rec.Seq, rec, rec.Seq
}

// readFunc is a store's Read.
type readFunc func(ctx context.Context, q events.Query, fn func(events.Recorded) error) error

// statsOf returns the entry of a selection, made if new.
func (c *pageCache) statsOf(f replay.LuckFilter) *statsEntry {
	key := f.Campaign + "|" + f.Session + "|" + f.Character
	c.mu.Lock()
	defer c.mu.Unlock()
	c.clock++
	e := c.stats[key]
	if e == nil {
		e = &statsEntry{f: f}
		c.stats[key] = e
		evict(c.stats)
	}
	e.used = c.clock
	return e
}

// rebuildTypes are the events after which a luck counter fed one event at
// a time could differ from replay.Luck's two passes (which learn players
// and voids first): the counter is then built again.
var rebuildTypes = map[string]bool{events.TypeEventVoided: true, events.TypeCharacterCreated: true, events.TypeTORCharacterCreated: true}

// report returns the selection's luck report up to last: replay.Luck's
// over the campaign's events up to last, reading from the store only the
// events after the entry's position (all of them when it is built).
func (e *statsEntry) report(ctx context.Context, ps pageStore, filter string, last uint64) (replay.LuckReport, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	key := statsKey(e.f)
	if !e.cp.tried {
		e.cp.tried = true
		e.restore(ctx, ps, key, filter, last)
	}
	if e.l != nil && e.repAt == last {
		return e.rep, nil
	}
	if e.l != nil && e.pos < last {
		rebuild := false
		var tail []events.Recorded
		err := ps.read(ctx, events.Query{Subject: filter, From: e.pos + 1, To: last}, func(rec events.Recorded) error {
			if rebuildTypes[rec.Event.Type] && (e.f.Campaign == "" || rec.Event.Campaign == e.f.Campaign) {
				rebuild = true
				return errEnough
			}
			tail = append(tail, rec)
			return nil
		})
		switch {
		case rebuild:
			e.l = nil
		case err != nil:
			e.l = nil
			return replay.LuckReport{}, err
		default:
			for _, rec := range tail {
				e.l.Add(rec)
				e.cp.last = rec
			}
			e.pos = last
		}
	}
	if e.l == nil || e.pos > last {
		l := replay.NewLuckCounter(e.f)
		scan := events.Query{Subject: filter, To: last, Types: []string{events.TypeCharacterCreated, events.TypeTORCharacterCreated, events.TypeEventVoided}}
		if err := ps.read(ctx, scan, func(rec events.Recorded) error { l.Scan(rec); return nil }); err != nil {
			return replay.LuckReport{}, err
		}
		var lastRec events.Recorded
		if err := ps.read(ctx, events.Query{Subject: filter, To: last}, func(rec events.Recorded) error { l.Add(rec); lastRec = rec; return nil }); err != nil {
			return replay.LuckReport{}, err
		}
		e.l, e.pos, e.cp.last, e.cp.saved = l, last, lastRec, 0
	}
	e.cp.save(ctx, ps, key, func() (pageDoc, bool) {
		st := e.l.State()
		return pageDoc{Luck: &st}, st.Rolls > 0
	})
	e.rep, e.repAt = e.l.Report(), last
	return e.rep, nil
}

// restore loads the entry's checkpoint, if there is one it can trust.
func (e *statsEntry) restore(ctx context.Context, ps pageStore, key, filter string, last uint64) {
	doc, rec, ok := ps.load(ctx, key, filter, last)
	if !ok || doc.Luck == nil {
		return
	}
	if doc.Luck.Filter != e.f {
		ps.ignored(key, "a checkpoint of another selection")
		return
	}
	l, err := replay.RestoreLuckCounter(*doc.Luck)
	if err != nil {
		ps.ignored(key, err.Error())
		return
	}
	e.l, e.pos, e.cp.last, e.cp.saved = l, rec.Seq, rec, rec.Seq
}

// readTail returns the last n events of q (at most; To must be set), in
// stream order, reading backwards in windows of stream sequences that
// double (the first of 4n, at least 256), so that what it reads is about n
// events of the campaign however long its stream.
func readTail(ctx context.Context, read readFunc, q events.Query, n uint64) ([]recordJSON, error) {
	lo := max(q.From, 1)
	end := q.To
	w := max(4*n, 256)
	var chunks [][]recordJSON
	got := uint64(0)
	for end >= lo && got < n {
		start := lo
		if end-lo+1 > w {
			start = end - w + 1
		}
		var chunk []recordJSON
		wq := q
		wq.From, wq.To = start, end
		if err := read(ctx, wq, func(rec events.Recorded) error {
			chunk = append(chunk, recordJSON{Seq: rec.Seq, Subject: rec.Subject, Event: rec.Event})
			return nil
		}); err != nil {
			return nil, err
		}
		chunks = append(chunks, chunk)
		got += uint64(len(chunk))
		if start == lo {
			break
		}
		end, w = start-1, 2*w
	}
	out := make([]recordJSON, 0, min(got, n))
	for i := len(chunks) - 1; i >= 0; i-- {
		out = append(out, chunks[i]...)
	}
	if uint64(len(out)) > n {
		out = out[uint64(len(out))-n:]
	}
	return out, nil
}

// Page checkpoints (see the file's comment).
const (
	// pageFormat is the version of the page checkpoints' documents: one
	// of another is ignored.
	pageFormat = 1
	// pageCheckpointEvery is how many events an entry moves between two
	// of its checkpoints.
	pageCheckpointEvery = 256
	// pageCheckpointLines is how many of its last lines a transcript's
	// checkpoint keeps (app.js shows 100).
	pageCheckpointLines = 128
	pagePrefix          = "page."
)

// pageFingerprint names the fold in page checkpoints (projections.Fingerprint,
// computed once).
var pageFingerprint = sync.OnceValue(projections.Fingerprint)

// transcriptKey is the checkpoint key of a transcript entry.
func transcriptKey(campaign, session string, lang i18n.Lang) string {
	return pagePrefix + "transcript." + campaign + ".s-" + session + ".l-" + string(lang)
}

// statsKey is the checkpoint key of a statistics entry.
func statsKey(f replay.LuckFilter) string {
	return pagePrefix + "stats." + f.Campaign + ".s-" + f.Session + ".c-" + f.Character
}

// pageDoc is a page checkpoint: an entry's state when it had folded its
// campaign's events up to stream sequence Seq, the last of them, whose
// stored bytes hash to Hash (events.ChainHash).
type pageDoc struct {
	Format      int    `json:"format"`
	Fingerprint string `json:"fingerprint"`
	Seq         uint64 `json:"seq"`
	Hash        string `json:"hash"`
	// One of them.
	Transcript *projections.TranscriptState `json:"transcript,omitempty"`
	Luck       *replay.LuckState            `json:"luck,omitempty"`
}

// pageCheckpoint is what an entry knows of its checkpoint: whether it
// tried to load one, the sequence of the last one written or loaded (0:
// none), and the last event it folded.
type pageCheckpoint struct {
	tried bool
	saved uint64
	last  events.Recorded
}

// save writes the entry's checkpoint (state gives its document, and
// whether it is worth one: a selection that names nothing, a session or
// a character without lines or rolls, writes no key) when the entry has
// none yet or has moved pageCheckpointEvery events past it; the caller
// holds the entry's lock. A failure is logged and counted, and
// tried again pageCheckpointEvery events later.
func (c *pageCheckpoint) save(ctx context.Context, ps pageStore, key string, state func() (pageDoc, bool)) {
	seq := c.last.Seq
	if ps.kv == nil || seq == 0 || c.saved != 0 && seq < c.saved+pageCheckpointEvery || seq == c.saved {
		return
	}
	doc, worth := state()
	if !worth {
		return
	}
	c.saved = seq
	doc.Format, doc.Fingerprint, doc.Seq, doc.Hash = pageFormat, pageFingerprint(), seq, events.ChainHash(c.last.Raw)
	b, err := json.Marshal(doc)
	if err == nil {
		err = ps.kv.Put(context.WithoutCancel(ctx), key, b) // not lost to a client gone
	}
	if err != nil {
		ps.log.Error("page checkpoint not written: the next start folds this page's campaign", "key", key, "seq", seq, "bytes", len(b), "err", err)
		if ps.metrics != nil {
			ps.metrics.pageCheckpointErrors.Inc()
		}
	}
}

// pageStore is what the page cache reads and checkpoints a campaign
// through.
type pageStore struct {
	read    readFunc
	kv      live.KV // nil: no checkpoints
	log     *slog.Logger
	metrics *Metrics
}

// pageStore returns the page cache's store of campaign: the server's
// store, and the checkpoints of the campaign's projector.
func (s *Server) pageStore(campaign string) pageStore {
	ps := pageStore{read: s.opts.Store.Read, log: s.opts.Logger, metrics: s.metrics}
	if s.proj != nil {
		ps.kv = s.proj.For(campaign).Checkpoints()
	}
	return ps
}

// ignored logs a checkpoint not trusted.
func (ps pageStore) ignored(key, why string) {
	ps.log.Warn("page checkpoint ignored: folding from the stream", "key", key, "why", why)
}

// load returns the checkpoint under key and the event it ends at, when it
// decodes, is of this format and this fold, and its last event is in the
// stream (filter, up to last) at its sequence with its hash.
func (ps pageStore) load(ctx context.Context, key, filter string, last uint64) (pageDoc, events.Recorded, bool) {
	var doc pageDoc
	if ps.kv == nil {
		return doc, events.Recorded{}, false
	}
	b, err := ps.kv.Get(ctx, key)
	switch {
	case errors.Is(err, events.ErrNotFound):
		return doc, events.Recorded{}, false
	case err != nil:
		ps.ignored(key, err.Error())
		return doc, events.Recorded{}, false
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		ps.ignored(key, "does not decode: "+err.Error())
		return doc, events.Recorded{}, false
	}
	if doc.Format != pageFormat || doc.Fingerprint != pageFingerprint() {
		ps.ignored(key, "of another format or fold")
		return doc, events.Recorded{}, false
	}
	if doc.Seq == 0 || doc.Seq > last {
		ps.ignored(key, "not of this stream (past its end)")
		return doc, events.Recorded{}, false
	}
	var rec events.Recorded
	err = ps.read(ctx, events.Query{Subject: filter, From: doc.Seq, To: doc.Seq}, func(r events.Recorded) error {
		rec = r
		return nil
	})
	if err != nil || rec.Seq != doc.Seq || events.ChainHash(rec.Raw) != doc.Hash {
		ps.ignored(key, "its last event is not the stream's")
		return doc, events.Recorded{}, false
	}
	return doc, rec, true
}
