package bench

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/jetstore"
)

// rawStream is the plain stream the raw side publishes to, on the same
// server as the journal's: file storage, one replica, no journal headers.
const (
	rawStream  = "BENCHRAW"
	rawSubject = "benchraw"
)

// The characters of the benchmark campaigns, and the roll they make.
const (
	benchAttrs  = "F=8,R=7,D=9,I=8,P=8"
	benchSkills = "Pelea=5,Sigilo=3,Buscar=4,Armas cuerpo a cuerpo=5"
	benchSkill  = "Sigilo"
	benchVs     = "media"
)

// newJournal returns the journal's command handlers as the CLI builds them.
func newJournal(st command.Store) *command.Handler {
	return command.New(st, command.Options{
		Clock: time.Now, Rand: rand.Reader, IDs: events.NewV7(time.Now, rand.Reader), Actor: "bench",
	})
}

// setupCampaign creates a RyF campaign with its characters and opens a session.
func setupCampaign(ctx context.Context, j *command.Handler, id string, chars []string) error {
	if _, err := j.CreateCampaign(ctx, command.CreateCampaign{ID: id, Name: "Bench " + id, System: command.SystemRyF}); err != nil {
		return fmt.Errorf("campaign %s: %w", id, err)
	}
	for _, c := range chars {
		_, err := j.CreateCharacter(ctx, id, command.CreateCharacter{
			ID: c, Name: c, Player: "p-" + c, Attributes: benchAttrs, Skills: benchSkills, Specialization: benchSkill,
		})
		if err != nil {
			return fmt.Errorf("character %s/%s: %w", id, c, err)
		}
	}
	if _, err := j.StartSession(ctx, id, "", "bench"); err != nil {
		return fmt.Errorf("session of %s: %w", id, err)
	}
	return nil
}

// roll makes one roll command, as `journal roll CHAR Sigilo --vs media` does.
func roll(ctx context.Context, j *command.Handler, campaign, char string) error {
	_, err := j.Roll(ctx, campaign, command.RollRequest{Character: char, Skill: benchSkill, Vs: benchVs})
	return err
}

// rollSize makes a few rolls and returns the average size of their documents.
func rollSize(ctx context.Context, j *command.Handler, campaign, char string, n int) (int, error) {
	total := 0
	for range n {
		res, err := j.Roll(ctx, campaign, command.RollRequest{Character: char, Skill: benchSkill, Vs: benchVs})
		if err != nil {
			return 0, err
		}
		doc, err := events.Encode(res.Events[0].Event)
		if err != nil {
			return 0, err
		}
		total += len(doc)
	}
	return total / n, nil
}

// splits divides n into k nearly equal positive parts (fewer when n < k).
func splits(n, k int) []int {
	k = max(1, min(k, n))
	out := make([]int, k)
	for i := range out {
		out[i] = n / k
		if i < n%k {
			out[i]++
		}
	}
	return out
}

// rawPayload returns a message of size bytes.
func rawPayload(size int) []byte {
	b := make([]byte, size)
	for i := range b {
		b[i] = 'a' + byte(i%26)
	}
	return b
}

// rawJS returns a JetStream context on the server with the raw stream.
func (e *env) rawJS(ctx context.Context, opts ...jetstream.JetStreamOpt) (jetstream.JetStream, error) {
	js, err := jetstream.New(e.srv.Conn(), opts...)
	if err != nil {
		return nil, err
	}
	_, err = js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name: rawStream, Subjects: []string{rawSubject + ".>"}, Storage: jetstream.FileStorage, Replicas: 1,
		Duplicates: 2 * time.Minute,
	})
	if err != nil {
		return nil, fmt.Errorf("raw stream: %w", err)
	}
	return js, nil
}

// guardedStream is the stream of the guarded raw side: configured as the
// journal's (jetstore.StreamConfig: deduplication window, deny delete and
// purge, one literal subject per campaign, no republished feed), on the
// same server.
const (
	guardedStream  = "BENCHGUARDED"
	guardedSubject = "benchguarded"
)

// guardedJS returns a JetStream context on the server with the guarded
// stream.
func (e *env) guardedJS(ctx context.Context) (jetstream.JetStream, error) {
	js, err := jetstream.New(e.srv.Conn())
	if err != nil {
		return nil, err
	}
	cfg := jetstore.StreamConfig(jetstore.Options{})
	cfg.Name, cfg.Subjects = guardedStream, []string{guardedSubject + ".*"}
	if _, err := js.CreateOrUpdateStream(ctx, cfg); err != nil {
		return nil, fmt.Errorf("guarded stream: %w", err)
	}
	return js, nil
}

// guardedCampaign publishes raw messages as the journal appends the
// events of one campaign: each on the campaign's one subject, with the
// journal's content type, type and aggregate headers, conditional on the
// campaign's last sequence (no Nats-Msg-Id: the expectation makes the
// append exactly-once, as it does the journal's, DESIGN §2 turn 3) (Nats-Expected-Last-Subject-Sequence on
// that literal subject), waiting for each acknowledgement as the
// journal does (jetstore.Store publishes asynchronously and waits on the
// future). Everything the journal's own code does (rules, dice, codec,
// folds) is left out: the guarded side is what the server's guarantees
// cost, the ceiling of any journal on this server.
type guardedCampaign struct {
	js      jetstream.JetStream
	subject string
	// mu is held for a whole append, as the journal holds its campaign's
	// lock for a whole command: writers sharing a campaign take turns.
	mu   sync.Mutex
	last uint64
}

func newGuardedCampaign(js jetstream.JetStream, campaign string) *guardedCampaign {
	return &guardedCampaign{js: js, subject: guardedSubject + "." + campaign}
}

// publish stores msg on the campaign's subject, as an event of aggregate
// char.<char>, and waits for it.
func (g *guardedCampaign) publish(ctx context.Context, char string, msg []byte) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	m := &nats.Msg{Subject: g.subject, Data: msg, Header: make(nats.Header, 4)}
	m.Header.Set("Content-Type", events.MediaType)
	m.Header.Set(events.HeaderType, events.TypeRollMade)
	m.Header.Set(events.HeaderAggregate, events.AggregateHeaderValue(events.KindCharacter, char))
	f, err := g.js.PublishMsgAsync(m, jetstream.WithExpectLastSequencePerSubject(g.last))
	if err != nil {
		return fmt.Errorf("guarded publish: %w", err)
	}
	select {
	case ack := <-f.Ok():
		g.last = ack.Sequence
		return nil
	case err := <-f.Err():
		return fmt.Errorf("guarded publish: %w", err)
	case <-ctx.Done():
		return ctx.Err()
	}
}

// measureJournal runs a round of n units of the journal side, fn, within
// the peak tracker, and counts it.
func (e *env) measureJournal(p *Pair, n int, fn func() error) error {
	return e.measure(&p.Journal, &p.PeakRSS, &p.PeakHeap, n, fn)
}

// measureRaw is measureJournal for the raw side.
func (e *env) measureRaw(p *Pair, n int, fn func() error) error {
	return e.measure(&p.Raw, &p.RawPeakRSS, &p.RawPeakHeap, n, fn)
}

// measureGuarded is measureJournal for the guarded raw side (its memory
// is not kept).
func (e *env) measureGuarded(p *Pair, n int, fn func() error) error {
	if p.Guarded == nil {
		p.Guarded = &Rate{}
	}
	var rss, heap uint64
	return e.measure(p.Guarded, &rss, &heap, n, fn)
}

// measure runs fn, a round of n units, and counts it in r, with the peak
// memory meanwhile. It settles the memory first.
func (e *env) measure(r *Rate, peakRSS, peakHeap *uint64, n int, fn func() error) error {
	settle()
	e.peak.begin()
	t := startTimer()
	err := fn()
	if err == nil {
		r.add(n, t)
	}
	rss, heap := e.peak.end()
	*peakRSS, *peakHeap = max(*peakRSS, rss), max(*peakHeap, heap)
	return err
}

// sequential measures roll commands on one character, one after another,
// against raw synchronous publishes of the same size.
func (e *env) sequential(ctx context.Context) (Pair, error) {
	var p Pair
	o := e.o
	if err := e.server(ctx); err != nil {
		return p, err
	}
	j := newJournal(e.st)
	const camp, char = "seq", "lodin"
	o.progress(StageSequential, "setup", 0, o.Rolls)
	if err := setupCampaign(ctx, j, camp, []string{char}); err != nil {
		return p, err
	}
	size, err := rollSize(ctx, j, camp, char, 10)
	if err != nil {
		return p, err
	}
	js, err := e.rawJS(ctx)
	if err != nil {
		return p, err
	}
	msg := rawPayload(size)
	for range 10 { // warm up the raw side as the journal's was
		if _, err := js.Publish(ctx, rawSubject+".seq", msg); err != nil {
			return p, err
		}
	}
	gjs, err := e.guardedJS(ctx)
	if err != nil {
		return p, err
	}
	guarded := newGuardedCampaign(gjs, camp)
	for range 10 {
		if err := guarded.publish(ctx, char, msg); err != nil {
			return p, err
		}
	}
	p.Journal.What = "roll commands on one character, one after another (command.Handler.Roll)"
	p.Raw.What = "raw synchronous publishes (jetstream.Publish), one after another"
	p.Guarded = &Rate{What: "raw publishes with the journal's guarantees (the campaign's expected last sequence, a stream configured as the journal's), one after another", MessageBytes: size}
	p.Journal.MessageBytes, p.Raw.MessageBytes = size, size
	done := 0
	for _, n := range splits(o.Rolls, o.Rounds) {
		// inTurn makes the round's n appends one after another.
		inTurn := func(phase string, appendOne func() error) func() error {
			return func() error {
				for i := range n {
					if err := appendOne(); err != nil {
						return err
					}
					if i%64 == 0 {
						o.progress(StageSequential, phase, done+i, o.Rolls)
					}
				}
				return nil
			}
		}
		if err := e.measureJournal(&p, n, inTurn("journal", func() error { return roll(ctx, j, camp, char) })); err != nil {
			return p, err
		}
		err := e.measureRaw(&p, n, inTurn("raw", func() error {
			if _, err := js.Publish(ctx, rawSubject+".seq", msg); err != nil {
				return fmt.Errorf("raw publish: %w", err)
			}
			return nil
		}))
		if err != nil {
			return p, err
		}
		if err := e.measureGuarded(&p, n, inTurn("guarded", func() error { return guarded.publish(ctx, char, msg) })); err != nil {
			return p, err
		}
		done += n
	}
	return p, nil
}

// benchCampaign is one campaign of the concurrent appends.
type benchCampaign struct {
	id    string
	chars []string
}

// campaigns lays out n campaigns with chars characters spread over them.
func campaigns(prefix string, n, chars int) []benchCampaign {
	out := make([]benchCampaign, n)
	next := 0
	for i, k := range splits(chars, n) {
		out[i].id = fmt.Sprintf("%s%05d", prefix, i)
		for range k {
			out[i].chars = append(out[i].chars, fmt.Sprintf("c%06d", next))
			next++
		}
	}
	return out
}

// parallel runs fn(i) for i in [0, n) on workers goroutines and returns the
// first error.
func parallel(parent context.Context, n, workers int, fn func(ctx context.Context, i int) error) error {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	var next atomic.Int64
	var wg sync.WaitGroup
	var once sync.Once
	var first error
	for range min(workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n || ctx.Err() != nil {
					return
				}
				if err := fn(ctx, i); err != nil {
					once.Do(func() { first = err; cancel() })
					return
				}
			}
		}()
	}
	wg.Wait()
	if first != nil {
		return first
	}
	return parent.Err()
}

// concurrent measures roll commands across many campaigns at once: Window
// goroutines, each owning some campaigns and appending synchronously,
// against raw asynchronous publishes with Window pending.
func (e *env) concurrent(ctx context.Context) (Pair, error) {
	return e.concurrentOver(ctx, StageConcurrent, "m", e.o.Campaigns, e.o.Characters)
}

// concurrentMany is concurrent over ManyCampaigns campaigns of one
// character each, in the same stream as the other append stages.
func (e *env) concurrentMany(ctx context.Context) (Pair, error) {
	return e.concurrentOver(ctx, StageConcurrentMany, "w", e.o.ManyCampaigns, e.o.ManyCampaigns)
}

// concurrentOver is the concurrent appends of a stage over nCamps
// campaigns (ids prefix...) holding nChars characters.
func (e *env) concurrentOver(ctx context.Context, stage, prefix string, nCamps, nChars int) (Pair, error) {
	var p Pair
	o := e.o
	o.Campaigns, o.Characters, o.Window = nCamps, nChars, min(nCamps, 256)
	if stage == StageConcurrent {
		o.Window = e.o.Window
	}
	if err := e.server(ctx); err != nil {
		return p, err
	}
	j := newJournal(e.st)
	camps := campaigns(prefix, o.Campaigns, o.Characters)
	var setupDone atomic.Int64
	err := parallel(ctx, len(camps), o.Window, func(ctx context.Context, i int) error {
		defer func() { o.progress(stage, "setup", int(setupDone.Add(1)), len(camps)) }()
		if err := setupCampaign(ctx, j, camps[i].id, camps[i].chars); err != nil {
			return err
		}
		return roll(ctx, j, camps[i].id, camps[i].chars[0]) // fold and session key cached
	})
	if err != nil {
		return p, err
	}
	size, err := rollSize(ctx, j, camps[0].id, camps[0].chars[0], 10)
	if err != nil {
		return p, err
	}
	var rawErrs atomic.Int64
	var firstRawErr atomic.Value
	js, err := e.rawJS(ctx,
		jetstream.WithPublishAsyncMaxPending(o.Window),
		jetstream.WithPublishAsyncErrHandler(func(_ jetstream.JetStream, _ *nats.Msg, err error) {
			if rawErrs.Add(1) == 1 {
				firstRawErr.Store(err)
			}
		}))
	if err != nil {
		return p, err
	}
	msg := rawPayload(size)
	subjects := make([]string, 0, o.Characters)
	for _, c := range camps {
		for _, ch := range c.chars {
			subjects = append(subjects, rawSubject+"."+prefix+"."+c.id+"."+ch)
		}
	}
	workers := o.Window
	owned := make([][]int, workers) // campaigns of each worker
	for w := range workers {
		if workers > len(camps) {
			owned[w] = []int{w % len(camps)}
			continue
		}
		for i := w; i < len(camps); i += workers {
			owned[w] = append(owned[w], i)
		}
	}
	p.Journal.What = fmt.Sprintf("roll commands over %d characters in %d campaigns, %d goroutines appending synchronously", o.Characters, o.Campaigns, workers)
	p.Raw.What = fmt.Sprintf("raw asynchronous publishes over %d subjects, %d pending at most (jetstream.PublishAsync)", len(subjects), workers)
	gjs, err := e.guardedJS(ctx)
	if err != nil {
		return p, err
	}
	guarded := make([]*guardedCampaign, len(camps))
	for i, c := range camps {
		guarded[i] = newGuardedCampaign(gjs, c.id)
	}
	p.Guarded = &Rate{What: fmt.Sprintf("raw publishes with the journal's guarantees (each campaign's expected last sequence, a stream configured as the journal's) over %d campaigns, %d goroutines waiting for each acknowledgement", len(camps), workers), MessageBytes: size}
	p.Journal.MessageBytes, p.Raw.MessageBytes = size, size
	done := 0
	for _, n := range splits(o.Rolls, o.Rounds) {
		parts := splits(n, workers)
		// spread makes the round's n appends: parts[w] on worker w, over
		// its campaigns in turn and their characters in turn.
		spread := func(phase string, appendOne func(ctx context.Context, campaign int, char string) error) error {
			var count atomic.Int64
			return parallel(ctx, len(parts), len(parts), func(ctx context.Context, w int) error {
				mine := owned[w]
				for k := range parts[w] {
					ci := mine[k%len(mine)]
					if err := appendOne(ctx, ci, camps[ci].chars[(k/len(mine))%len(camps[ci].chars)]); err != nil {
						return err
					}
					if c := count.Add(1); c%256 == 0 {
						o.progress(stage, phase, done+int(c), o.Rolls)
					}
				}
				return nil
			})
		}
		err := e.measureJournal(&p, n, func() error {
			return spread("journal", func(ctx context.Context, ci int, ch string) error {
				return roll(ctx, j, camps[ci].id, ch)
			})
		})
		if err != nil {
			return p, err
		}

		err = e.measureRaw(&p, n, func() error {
			for i := range n {
				if _, err := js.PublishAsync(subjects[i%len(subjects)], msg, jetstream.WithStallWait(time.Minute)); err != nil {
					return fmt.Errorf("raw async publish: %w", err)
				}
				if i%256 == 0 {
					o.progress(stage, "raw", done+i, o.Rolls)
				}
			}
			select {
			case <-js.PublishAsyncComplete():
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(5 * time.Minute):
				return errors.New("raw async publishes not acknowledged after 5 minutes")
			}
			if n := rawErrs.Load(); n > 0 {
				return fmt.Errorf("%d raw async publishes failed: %v", n, firstRawErr.Load())
			}
			return nil
		})
		if err != nil {
			return p, err
		}
		err = e.measureGuarded(&p, n, func() error {
			return spread("guarded", func(ctx context.Context, ci int, ch string) error {
				return guarded[ci].publish(ctx, ch, msg)
			})
		})
		if err != nil {
			return p, err
		}
		done += n
	}
	return p, nil
}

// settle collects the garbage of what ran before a measurement and gives
// the memory back to the system, so that neither the time nor the peak
// memory of one side includes the other's or the setup's. It collects
// twice: the buffers that an embedded server (such as the one that filled
// the rebuild's stream and was shut down) leaves in its sync.Pools are
// freed only by the second collection after their last use, 227 MB after
// filling 300 000 events.
func settle() {
	runtime.GC()
	debug.FreeOSMemory()
}
