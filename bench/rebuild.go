package bench

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/jetstore"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rolls"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/rules/ryf"
)

// Source is the stream a rebuild reads (jetstore.Store, memstore.Store).
type Source interface {
	// Follow delivers the events matching q in stream order, then waits
	// for more (an ordered consumer on JetStream).
	events.Follower
	// Read delivers the events matching q stored when it was called.
	Read(ctx context.Context, q events.Query, fn func(events.Recorded) error) error
	// Last is the last sequence on a subject filter, 0 when none.
	Last(ctx context.Context, filter string) (uint64, error)
}

// Folds are the projections of every campaign of a stream.
type Folds struct {
	// Campaigns are the folded campaigns, by id.
	Campaigns map[string]*projections.Campaign
	// Events counts the events folded; Refolded the campaigns folded a
	// second time because a void named an event already folded.
	Events   int
	Refolded int
}

// Rebuild folds every campaign of the stream from the start, as a process
// without checkpoints does when it starts (live.Projector follows the
// stream the same way): the stream is followed through src.Follow up to
// its last sequence when Rebuild was called, every event decoded and
// validated by the store (on JetStream an ordered consumer, the decoding
// spread over the cores, see jetstore), and folded in stream order into its
// campaign's projection. A campaign whose fold meets a void of an event it
// has already folded is read and folded again on its own with the voids
// known from the start (projections.Fold), so that every state equals a
// full refold. progress, when not nil, is told how many events are folded
// every progressEvery events.
func Rebuild(ctx context.Context, src Source, progress func(folded int)) (*Folds, error) {
	f := &Folds{Campaigns: map[string]*projections.Campaign{}}
	last, err := src.Last(ctx, events.AllFilter)
	if err != nil {
		return nil, fmt.Errorf("rebuild: %w", err)
	}
	if last == 0 {
		return f, nil
	}
	var c *projections.Campaign // events of one campaign often follow each other
	err = src.Follow(ctx, events.Query{To: last}, func(rec events.Recorded) error {
		if c == nil || c.ID != rec.Event.Campaign {
			c = f.Campaigns[rec.Event.Campaign]
			if c == nil {
				c = projections.NewCampaign(rec.Event.Campaign)
				f.Campaigns[rec.Event.Campaign] = c
			}
		}
		if err := c.Apply(rec); err != nil {
			return err
		}
		f.Events++
		if progress != nil && f.Events%progressEvery == 0 {
			progress(f.Events)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("rebuild: %w", err)
	}
	if err := f.refold(ctx, src); err != nil {
		return nil, err
	}
	return f, nil
}

// progressEvery is how many folded events Rebuild reports progress after.
const progressEvery = 4096

// refold folds again, on its own and knowing its voids from the start, each
// campaign whose fold met a void of an event it had folded already.
func (f *Folds) refold(ctx context.Context, src Source) error {
	for id, c := range f.Campaigns {
		if !c.RefoldNeeded {
			continue
		}
		filter, err := events.CampaignFilter(id)
		if err != nil {
			return err
		}
		var recs []events.Recorded
		if err := src.Read(ctx, events.Query{Subject: filter, To: c.LastSeq}, func(rec events.Recorded) error {
			recs = append(recs, rec)
			return nil
		}); err != nil {
			return fmt.Errorf("rebuild %s: %w", id, err)
		}
		if f.Campaigns[id], err = projections.Fold(id, recs, 0); err != nil {
			return fmt.Errorf("rebuild %s: %w", id, err)
		}
		f.Refolded++
	}
	return nil
}

// rebuild measures Rebuild against a raw ordered consumer reading the same
// stream. The stream is written on a server that does not sync (to fill it
// quickly), then served again with the run's sync setting for the reads.
func (e *env) rebuild(ctx context.Context) (Pair, error) {
	var p Pair
	o := e.o
	dir := filepath.Join(e.dir, "rebuild")
	o.progress(StageRebuild, "setup", 0, o.Events)
	n, err := fill(ctx, dir, o)
	if err != nil {
		return p, err
	}
	srv, err := embedded.Start(ctx, embedded.Options{Dir: dir, Sync: o.Sync})
	if err != nil {
		return p, err
	}
	defer srv.Shutdown()
	st, err := jetstore.Open(ctx, srv.JetStream(), jetstore.Options{})
	if err != nil {
		return p, err
	}
	last, err := st.Last(ctx, events.AllFilter)
	if err != nil {
		return p, err
	}
	if last != uint64(n) {
		return p, fmt.Errorf("stream holds %d events, %d were written", last, n)
	}
	p.Journal.What = fmt.Sprintf("events followed from the store as a starting process does (jetstore.Store.Follow: an ordered consumer without a filter subject, journal.> covering the stream, decoded and validated on %d goroutines), folded in stream order into %d campaigns' projections (bench.Rebuild)", runtime.GOMAXPROCS(0), o.Campaigns)
	p.Raw.What = "messages read by a raw ordered consumer (jetstream.OrderedConsumer without a filter subject, as the journal's, no decoding)"
	var size int
	for round := range o.Rounds {
		var folds *Folds
		err := e.measureJournal(&p, n, func() error {
			var err error
			folds, err = Rebuild(ctx, st, func(done int) { o.progress(StageRebuild, "journal", done, n) })
			return err
		})
		if err != nil {
			return p, err
		}
		if folds.Events != n {
			return p, fmt.Errorf("rebuild folded %d events of %d", folds.Events, n)
		}
		if round == 0 {
			chars := 0
			for _, c := range folds.Campaigns {
				chars += len(c.Characters)
			}
			held := liveHeap()
			campaigns, refolded := len(folds.Campaigns), folds.Refolded
			folds = nil
			state := held - min(held, liveHeap())
			p.Notes = append(p.Notes, fmt.Sprintf("%d events, %d campaigns, %d characters folded (%d refolded after a void); the folded state holds %.1f MB of heap",
				n, campaigns, chars, refolded, float64(state)/(1<<20)))
		}
		folds = nil

		var bytes int
		err = e.measureRaw(&p, n, func() error {
			var err error
			bytes, err = rawRead(ctx, srv.JetStream(), n, func(done int) { o.progress(StageRebuild, "raw", done, n) })
			return err
		})
		if err != nil {
			return p, err
		}
		size = bytes / n
	}
	p.Journal.MessageBytes, p.Raw.MessageBytes = size, size
	return p, nil
}

// rawRead reads n messages of the journal's stream with an ordered
// consumer and returns the bytes of their payloads. The consumer has no
// filter subject, as the journal's own whole-stream read has none: a
// filter (journal.>) would make nats-server match each block's subjects
// for every message, a cost the journal's side does not pay.
func rawRead(ctx context.Context, js jetstream.JetStream, n int, progress func(int)) (int, error) {
	cons, err := js.OrderedConsumer(ctx, jetstore.StreamName, jetstream.OrderedConsumerConfig{})
	if err != nil {
		return 0, fmt.Errorf("ordered consumer: %w", err)
	}
	it, err := cons.Messages()
	if err != nil {
		return 0, fmt.Errorf("ordered consumer: %w", err)
	}
	defer it.Stop()
	total := 0
	for i := range n {
		m, err := it.Next(jetstream.NextContext(ctx))
		if err != nil {
			return 0, fmt.Errorf("ordered consumer after %d messages: %w", i, err)
		}
		total += len(m.Data())
		if i%4096 == 0 {
			progress(i)
		}
	}
	return total, nil
}

// fill writes the rebuild's stream into dir, on a server without sync: for
// each campaign its creation, characters and a session, then rolls of every
// character in turn across all campaigns (real RyF rolls from the session's
// dice), then the sessions' ends, o.Events events in all (or the setup
// alone when it is more). It returns the number of events written.
func fill(ctx context.Context, dir string, o Options) (int, error) {
	srv, err := embedded.Start(ctx, embedded.Options{Dir: dir})
	if err != nil {
		return 0, err
	}
	defer srv.Shutdown()
	if _, err := jetstore.Open(ctx, srv.JetStream(), jetstore.Options{}); err != nil {
		return 0, err
	}
	// A journal's stream is older than its deduplication window, save for
	// its last two minutes: a server starting on it indexes the ids of
	// those minutes only. A stream filled seconds before the measurement
	// would have the server index every id of it when it starts (about
	// 160 MB of heap for 1 000 000 events), which no journal meets. So the
	// fill keeps a window of fillWindow, and waits it out at the end; the
	// rebuild's server restores the journal's configuration (jetstore.Open)
	// after starting, which changes the window without indexing again.
	cfg := jetstore.StreamConfig(jetstore.Options{})
	cfg.Duplicates = fillWindow
	if _, err := srv.JetStream().UpdateStream(ctx, cfg); err != nil {
		return 0, fmt.Errorf("fill: %w", err)
	}
	var failed atomic.Int64
	var firstErr atomic.Value
	js, err := jetstream.New(srv.Conn(),
		jetstream.WithPublishAsyncMaxPending(4096),
		jetstream.WithPublishAsyncErrHandler(func(_ jetstream.JetStream, _ *nats.Msg, err error) {
			if failed.Add(1) == 1 {
				firstErr.Store(err)
			}
		}))
	if err != nil {
		return 0, err
	}
	g, err := newGenerator(o)
	if err != nil {
		return 0, err
	}
	written := 0
	err = g.each(func(ev events.Event) error {
		doc, err := g.encode(ev)
		if err != nil {
			return err
		}
		m := &nats.Msg{Subject: ev.StreamSubject, Data: doc, Header: nats.Header{}}
		m.Header.Set(jetstream.MsgIDHeader, ev.ID)
		m.Header.Set(events.HeaderType, ev.Type)
		if kind, id, err := ev.Aggregate(); err == nil {
			m.Header.Set(events.HeaderAggregate, events.AggregateHeaderValue(kind, id))
		}
		if _, err := js.PublishMsgAsync(m, jetstream.WithStallWait(time.Minute)); err != nil {
			return fmt.Errorf("fill: publish: %w", err)
		}
		written++
		if written%4096 == 0 {
			o.progress(StageRebuild, "setup", written, o.Events)
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	select {
	case <-js.PublishAsyncComplete():
	case <-ctx.Done():
		return 0, ctx.Err()
	}
	if n := failed.Load(); n > 0 {
		return 0, fmt.Errorf("fill: %d publishes failed: %v", n, firstErr.Load())
	}
	select { // the last ids leave the window
	case <-time.After(fillWindow + 100*time.Millisecond):
	case <-ctx.Done():
		return 0, ctx.Err()
	}
	return written, nil
}

// fillWindow is the deduplication window of the stream while fill writes
// it (see fill).
const fillWindow = time.Second

// generator makes the events of the rebuild's stream.
type generator struct {
	o     Options
	ids   events.IDs
	at    time.Time
	rules *ryf.Rules
	char  ryf.Character
	data  events.CharacterCreated
	camps []benchCampaign
	buf   bytes.Buffer
}

func newGenerator(o Options) (*generator, error) {
	rules, err := ryf.New(ryf.Options{System: ryf.RyF})
	if err != nil {
		return nil, err
	}
	attrs, err := rules.ParseAttributes(benchAttrs)
	if err != nil {
		return nil, err
	}
	skills, err := rules.ParseSkills(benchSkills)
	if err != nil {
		return nil, err
	}
	ch := ryf.Character{Attributes: attrs, Skills: skills, Specialization: benchSkill}
	data := events.CharacterCreated{Player: "p", Attributes: map[string]int{}, Skills: skills, Specialization: benchSkill, MaxHP: ch.MaxHP()}
	for a, v := range attrs {
		data.Attributes[string(a)] = v
	}
	at := time.Date(2026, 1, 1, 18, 0, 0, 0, time.UTC)
	return &generator{
		o: o, ids: events.NewV7(func() time.Time { return at }, rand.NewChaCha8(sha256.Sum256([]byte("bench")))), at: at,
		rules: rules, char: ch, data: data, camps: campaigns("r", o.Campaigns, o.Characters),
	}, nil
}

// seedOf is a campaign's session seed (deterministic: the stream is a fixture).
func seedOf(campaign string) dice.Seed {
	return dice.Seed(sha256.Sum256([]byte("bench-seed-" + campaign)))
}

// each calls fn with every event of the stream in order.
func (g *generator) each(fn func(events.Event) error) error {
	setup := 0
	for _, c := range g.camps {
		setup += 3 + len(c.chars) // created, characters, session started and ended
	}
	rollsLeft := max(g.o.Events-setup, 0)
	const session = "s1"
	newEvent := func(s events.Spec) (events.Event, error) {
		s.Actor = "bench"
		g.at = g.at.Add(time.Millisecond)
		return events.New(s, g.ids, g.at)
	}
	emit := func(s events.Spec) error {
		ev, err := newEvent(s)
		if err != nil {
			return err
		}
		return fn(ev)
	}
	keys := make([]*dice.Key, len(g.camps))
	for i, c := range g.camps {
		if err := emit(events.Spec{Campaign: c.id, Kind: events.KindCampaign, AggregateID: c.id, Name: "created",
			Type: events.TypeCampaignCreated, Data: events.CampaignCreated{Name: "Bench " + c.id, System: "ryf"}}); err != nil {
			return err
		}
		for _, ch := range c.chars {
			d := g.data
			d.Name = ch
			if err := emit(events.Spec{Campaign: c.id, Kind: events.KindCharacter, AggregateID: ch, Name: "created",
				Type: events.TypeCharacterCreated, Data: d}); err != nil {
				return err
			}
		}
		seed := seedOf(c.id)
		keys[i] = dice.NewKey(seed)
		if err := emit(events.Spec{Campaign: c.id, Kind: events.KindSession, AggregateID: session, Name: "started",
			Session: session, Type: events.TypeSessionStarted,
			Data: events.SessionStarted{Title: "bench", Commitment: seed.Commitment(), Algorithm: dice.Algorithm}}); err != nil {
			return err
		}
	}
	check, err := g.rules.SkillCheck(g.char, benchSkill, "")
	if err != nil {
		return err
	}
	diff, err := ryf.ParseDifficulty(benchVs)
	if err != nil {
		return err
	}
	check = check.WithDifficulty(diff)
	nonces := make([]uint64, len(g.camps))
	for k := range rollsLeft {
		i := k % len(g.camps)
		c := g.camps[i]
		ch := c.chars[(k/len(g.camps))%len(c.chars)]
		res, err := ryf.Roll(check, keys[i].Stream(c.id, session, nonces[i], ""))
		if err != nil {
			return err
		}
		e := rolls.FromRyF("ryf", res)
		e.Character, e.Nonce = ch, nonces[i]
		e.DifficultyName = ryf.DifficultyName(diff)
		nonces[i]++
		if err := emit(events.Spec{Campaign: c.id, Kind: events.KindCharacter, AggregateID: ch, Name: "roll",
			Session: session, Type: events.TypeRollMade, Data: e}); err != nil {
			return err
		}
	}
	for i, c := range g.camps {
		if err := emit(events.Spec{Campaign: c.id, Kind: events.KindSession, AggregateID: session, Name: "ended",
			Session: session, Type: events.TypeSessionEnded,
			Data: events.SessionEnded{Seed: seedOf(c.id).String(), Rolls: int(nonces[i])}}); err != nil {
			return err
		}
	}
	return nil
}

// encode writes an event's document as the codec does (compact, without
// HTML escaping); events.New has validated the event.
func (g *generator) encode(ev events.Event) ([]byte, error) {
	g.buf.Reset()
	enc := json.NewEncoder(&g.buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(ev); err != nil {
		return nil, err
	}
	return bytes.Clone(bytes.TrimSuffix(g.buf.Bytes(), []byte("\n"))), nil
}
