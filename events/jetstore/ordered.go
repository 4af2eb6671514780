package jetstore

import (
	"context"
	"errors"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// The ordered pipeline behind long reads and Follow: a reader goroutine
// takes an ordered consumer's messages and groups them in chunks, worker
// goroutines decode the chunks, and the caller's goroutine receives the
// chunks in stream order and calls the callback. Decoding, the costly part
// of a read, runs on every core and overlaps with the reading and with the
// callback, where one goroutine did all three one message after another.
//
// Invariants:
//   - The caller sees the events in the order the consumer delivered them,
//     each once, and a reader's error or idle mark only after every
//     message read before it. A message that is not an event goes to
//     Query.OnForeign in its place, never to the callback, and never ends
//     the pipeline.
//   - A chunk is handed on as soon as it is full, as soon as the consumer
//     says nothing more is pending (so a live event is never held back
//     waiting for more), and at the bound.
//   - At most pipeChunks chunks of pipeChunkSize messages are held, read
//     ahead of the callback: memory stays bounded whatever the stream.
//     Delivered chunks go back to a pool that every pipe shares (and the
//     garbage collector empties when they are not needed), and each
//     event's data is a part of its message's payload
//     (events.DecodeRecordedOwned): a long read allocates little besides
//     the events themselves, and a follow idling at the tail holds no
//     chunk of its own.
//   - close stops the reader, the workers and the consumer's iterator, and
//     waits for them.

// pipeChunkSize is how many messages one chunk holds at most; pipeChunks
// is how many chunks may wait for a worker or for the callback. The reader
// decodes a chunk of at most inlineDecode messages itself (the tail of a
// follow, where events come one at a time): it would wait for the next
// one anyway, and the event reaches the caller without a worker's hop.
const (
	pipeChunkSize = 128
	pipeChunks    = 8
	inlineDecode  = 4
)

// chunk is a run of consecutive messages of an ordered consumer.
type chunk struct {
	msgs []jetstream.Msg
	seqs []uint64
	// Set by a worker: the messages decoded, in order, up to the bound.
	// A message that is not an event has a record with its sequence and
	// subject but no event (no id), and its Foreign, in order, in foreign.
	recs    []events.Recorded
	foreign []events.Foreign
	// Set by the reader, after msgs: the consumer failed (readErr), or
	// nothing came within the idle wait (idle).
	readErr error
	idle    bool
	done    chan struct{} // closed once the chunk is decoded
}

// pipeOptions shapes an ordered pipeline.
type pipeOptions struct {
	// upper is the last sequence wanted (0: none): the reader stops after
	// it, and no message past it is decoded.
	upper uint64
	// wait bounds the wait for a message when the consumer has said that
	// nothing more is pending (0: until ctx ends), and for the first one.
	// When it passes, the reader's error is context.DeadlineExceeded,
	// unless idle. While messages are pending the reader waits without a
	// timer of its own: the consumer's heartbeats find a lost server.
	wait time.Duration
	// idle makes a passed wait an idle mark, after which the reader goes on.
	idle bool
	// subject translates a stored subject into the campaign subject (nil:
	// none, see Store.campaignSubject).
	subject func(string) string
	// match, when not nil, tests the stored subject of each message of a
	// consumer made without a filter against the read's (see
	// Store.startOrdered, filterTest): a message it refuses is read and
	// passed, never decoded nor delivered.
	match func(string) bool
}

// filterTest returns a test of whether a subject matches filter, as the
// server's filter does (events.Match); a filter journal.<...>.> without
// "*" is a prefix test.
func filterTest(filter string) func(string) bool {
	if prefix, ok := strings.CutSuffix(filter, ">"); ok && !strings.Contains(prefix, "*") {
		return func(subject string) bool { return len(subject) > len(prefix) && strings.HasPrefix(subject, prefix) }
	}
	return func(subject string) bool { return events.Match(filter, subject) }
}

// pipe is a running ordered pipeline.
type pipe struct {
	it     jetstream.MessagesContext
	order  chan *chunk
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// startPipe starts reading it, which the pipe stops when it is closed.
func startPipe(ctx context.Context, it jetstream.MessagesContext, o pipeOptions) *pipe {
	ctx, cancel := context.WithCancel(ctx)
	workers := runtime.GOMAXPROCS(0)
	p := &pipe{it: it, order: make(chan *chunk, pipeChunks), cancel: cancel}
	jobs := make(chan *chunk, pipeChunks)
	context.AfterFunc(ctx, it.Stop) // wakes a reader waiting in Next
	p.wg.Add(1 + workers)
	go func() {
		defer p.wg.Done()
		defer close(p.order)
		defer close(jobs)
		readPipe(ctx, it, o, jobs, p.order)
	}()
	for range workers {
		go func() {
			defer p.wg.Done()
			for c := range jobs {
				c.decode(o)
				close(c.done)
			}
		}()
	}
	return p
}

// next returns the next chunk, decoded, or false once the reader has
// ended and every chunk was returned, or ctx is done.
func (p *pipe) next(ctx context.Context) (*chunk, bool) {
	select {
	case c, ok := <-p.order:
		if !ok {
			return nil, false
		}
		select {
		case <-c.done:
			return c, true
		case <-ctx.Done():
			return nil, false
		}
	case <-ctx.Done():
		return nil, false
	}
}

// delivered is what pipe.deliver reports of one chunk.
type delivered struct {
	// last is the sequence of the last message read and passed on or
	// skipped (0 if none): the chunk's last one, unless err stopped it.
	last uint64
	// err is fn's error or q.OnForeign's, after the events before it.
	err error
	// readErr and idle are what the reader said after the chunk.
	readErr error
	idle    bool
}

// deliver passes the events of the next chunk that q wants to fn, in
// order, and gives the chunk back to be filled again (fn's events are
// copies). ok is false once the reader has ended and every chunk was
// delivered, or ctx is done.
func (p *pipe) deliver(ctx context.Context, q events.Query, fn func(events.Recorded) error) (d delivered, ok bool) {
	c, ok := p.next(ctx)
	if !ok {
		return d, false
	}
	d.readErr, d.idle = c.readErr, c.idle
	foreign := c.foreign
	for _, rec := range c.recs {
		switch {
		case rec.Event.ID == "" && len(foreign) > 0: // not an event (a decoded one has an id)
			if q.OnForeign != nil {
				d.err = q.OnForeign(foreign[0])
			}
			foreign = foreign[1:]
		case q.WantsType(rec.Event.Type):
			d.err = fn(rec)
		}
		if d.err != nil {
			return d, true
		}
		d.last = rec.Seq
	}
	if len(c.seqs) > 0 {
		d.last = c.seqs[len(c.seqs)-1] // past the bound: read, not decoded
	}
	c.recycle()
	return d, true
}

// recycle puts the chunk back in the pool, empty.
func (c *chunk) recycle() {
	clear(c.recs[:cap(c.recs)])
	clear(c.foreign)
	c.msgs, c.seqs, c.recs, c.foreign = c.msgs[:0], c.seqs[:0], c.recs[:0], c.foreign[:0]
	c.readErr, c.idle, c.done = nil, false, nil
	chunks.Put(c)
}

// chunks are the chunks of every pipe, to be filled again.
var chunks = sync.Pool{New: func() any {
	return &chunk{
		msgs: make([]jetstream.Msg, 0, pipeChunkSize),
		seqs: make([]uint64, 0, pipeChunkSize),
		recs: make([]events.Recorded, 0, pipeChunkSize),
	}
}}

// close stops the pipeline and waits for its goroutines.
func (p *pipe) close() {
	p.cancel()
	for range p.order { // what is left is not wanted
	}
	p.wg.Wait()
	p.it.Stop()
}

// readPipe reads messages into chunks and hands each to the workers and,
// in order, to the caller, until the bound, an error or ctx's end.
func readPipe(ctx context.Context, it jetstream.MessagesContext, o pipeOptions, jobs, order chan<- *chunk) {
	take := func() *chunk {
		c := chunks.Get().(*chunk)
		c.done = make(chan struct{})
		return c
	}
	var c *chunk // the chunk being filled; none while waiting for a first message
	filling := func() *chunk {
		if c == nil {
			c = take()
		}
		return c
	}
	hand := func() bool {
		to := []chan<- *chunk{jobs, order}
		if len(c.msgs) <= inlineDecode { // the live tail: a hop saved
			c.decode(o)
			close(c.done)
			to = to[1:]
		}
		for _, ch := range to {
			select {
			case ch <- c:
			case <-ctx.Done():
				return false
			}
		}
		c = nil
		return true
	}
	timed := []jetstream.NextOpt{jetstream.NextMaxWait(o.wait)}
	caughtUp := true // as far as the reader knows: nothing read yet
	for {
		var msg jetstream.Msg
		var err error
		if caughtUp && o.wait > 0 {
			msg, err = it.Next(timed...)
		} else {
			msg, err = it.Next()
		}
		if err != nil {
			if ctx.Err() != nil {
				err = ctx.Err()
			} else if errors.Is(err, nats.ErrTimeout) || errors.Is(err, context.DeadlineExceeded) {
				if o.idle {
					filling().idle = true
					if !hand() {
						return
					}
					continue
				}
				err = context.DeadlineExceeded
			}
			filling().readErr = err
			hand()
			return
		}
		seq, pending, ok := ackSequence(msg.Reply())
		if !ok {
			filling().readErr = msgerr.Errorf("message on %s: %w", msg.Subject(), jetstream.ErrNotJSMessage)
			hand()
			return
		}
		filling()
		c.msgs, c.seqs = append(c.msgs, msg), append(c.seqs, seq)
		caughtUp = pending == 0
		reached := o.upper != 0 && seq >= o.upper
		if len(c.msgs) == pipeChunkSize || caughtUp || reached {
			if !hand() || reached {
				return
			}
		}
	}
}

// decode decodes the chunk's messages up to the bound o.upper (0: none)
// that o.match lets through, taking their payloads over, and lets the
// messages go. A message that is not an event is kept as a record without
// an event and its Foreign.
func (c *chunk) decode(o pipeOptions) {
	for i, m := range c.msgs {
		if o.upper != 0 && c.seqs[i] > o.upper {
			break
		}
		sub := m.Subject()
		if o.match != nil && !o.match(sub) {
			continue
		}
		if o.subject != nil {
			sub = o.subject(sub)
		}
		rec, err := events.DecodeRecordedOwned(c.seqs[i], sub, m.Data())
		if err != nil {
			f, ok := errors.AsType[events.Foreign](err)
			if !ok {
				f = events.Foreign{Seq: c.seqs[i], Subject: m.Subject(), Err: err}
			}
			c.foreign = append(c.foreign, f)
			rec = events.Recorded{Seq: c.seqs[i], Subject: m.Subject()}
		}
		c.recs = append(c.recs, rec)
	}
	clear(c.msgs)
}

// ackSequence reads the stream sequence and the pending count from the
// reply subject of a consumer's message, as jetstream.Msg.Metadata does
// but without building the metadata:
// $JS.ACK.<stream>.<consumer>.<delivered>.<sseq>.<cseq>.<tm>.<pending>,
// or the newer form with <domain>.<account hash> before <stream> and a
// token after <pending>.
func ackSequence(reply string) (seq, pending uint64, ok bool) {
	rest, ok := strings.CutPrefix(reply, "$JS.ACK.")
	if !ok {
		return 0, 0, false
	}
	var tokens [10]string
	n := 0
	for n < len(tokens) {
		tok, after, more := strings.Cut(rest, ".")
		tokens[n], rest = tok, after
		n++
		if !more {
			break
		}
	}
	at := 3 // v1: stream, consumer, delivered, sseq, cseq, tm, pending
	switch {
	case n >= 9: // v2: domain and account hash first, a token last
		at = 5
	case n != 7:
		return 0, 0, false
	}
	seq, err := strconv.ParseUint(tokens[at], 10, 64)
	if err != nil || seq == 0 {
		return 0, 0, false
	}
	if pending, err = strconv.ParseUint(tokens[at+3], 10, 64); err != nil {
		return 0, 0, false
	}
	return seq, pending, true
}
