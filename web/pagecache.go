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
//     order). The first request after the server starts (or after an
//     entry was evicted) folds the campaign once.
//   - The newest page of cards (GET .../events?tail=N&types=…) is read
//     backwards in windows of stream sequences that double, until it has
//     N events or reaches the start: what it reads is about the page, not
//     the campaign.
//
// Invariants: an entry only ever moves forward, by folding the events of
// its campaign in stream order; one whose fold failed is dropped; a
// statistics entry that meets a void or a character's creation after it
// was built is rebuilt from the stream (the two passes of replay.Luck know
// both from the start).

import (
	"context"
	"sync"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
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
}

// reset empties the entry: nothing folded.
func (e *transcriptEntry) reset() {
	e.tr = projections.NewTranscript(e.campaign, e.session)
	e.tr.Lang = e.lang
	e.pos = 0
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
// position. The lines returned are never changed afterwards (the entry
// only appends). events is the number of events folded.
func (e *transcriptEntry) lines(ctx context.Context, read readFunc, filter string, last uint64) ([]projections.Line, int, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.pos < last {
		err := read(ctx, events.Query{Subject: filter, From: e.pos + 1, To: last}, func(rec events.Recorded) error {
			if err := e.tr.Apply(rec); err != nil {
				return err
			}
			e.pos = rec.Seq
			return nil
		})
		if err != nil {
			e.reset() // half folded: the next request folds it again
			return nil, 0, err
		}
		e.pos = last // foreign messages up to last, skipped as a scan skips them
	}
	return e.tr.Lines[:len(e.tr.Lines):len(e.tr.Lines)], e.tr.Campaign.Events, nil
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
func (e *statsEntry) report(ctx context.Context, read readFunc, filter string, last uint64) (replay.LuckReport, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.l != nil && e.repAt == last {
		return e.rep, nil
	}
	if e.l != nil && e.pos < last {
		rebuild := false
		var tail []events.Recorded
		err := read(ctx, events.Query{Subject: filter, From: e.pos + 1, To: last}, func(rec events.Recorded) error {
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
			}
			e.pos = last
		}
	}
	if e.l == nil || e.pos > last {
		l := replay.NewLuckCounter(e.f)
		scan := events.Query{Subject: filter, To: last, Types: []string{events.TypeCharacterCreated, events.TypeTORCharacterCreated, events.TypeEventVoided}}
		if err := read(ctx, scan, func(rec events.Recorded) error { l.Scan(rec); return nil }); err != nil {
			return replay.LuckReport{}, err
		}
		if err := read(ctx, events.Query{Subject: filter, To: last}, func(rec events.Recorded) error { l.Add(rec); return nil }); err != nil {
			return replay.LuckReport{}, err
		}
		e.l, e.pos = l, last
	}
	e.rep, e.repAt = e.l.Report(), last
	return e.rep, nil
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
