package replay

// Verification on every core. Two stages run on GOMAXPROCS goroutines
// each, around the Verifier, which stays sequential (every check depends on
// what came before it in its campaign):
//
//   - readJSONLParallel decodes an export's lines in batches on a pool of
//     goroutines and hands the events on in their order;
//   - addAll (the second pass of Verify) checks, on a pool of goroutines,
//     the Ed25519 signature of every event that records a device's
//     message, ahead of Verifier.Add, against the keys registered for its
//     user so far in the input; Add then takes the result (openSigned)
//     where the key it would use is the one checked, and checks for itself
//     otherwise.
//
// Invariants: the Verifier sees exactly the events, in exactly the order,
// that the sequential pass gives it, and every result it takes from the
// pool is that of the same pure function (signed.Open) on the same
// arguments, so a Report is the same either way. Memory stays bounded by
// a few batches per goroutine.

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"runtime"
	"sync"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/signed"
)

// Sizes of the parallel stages' batches: lines (or events) per batch, and
// the most bytes of lines in one.
const (
	parallelBatch      = 128
	parallelBatchBytes = 256 << 10
)

// workers is how many goroutines a parallel stage runs.
func workers() int { return runtime.GOMAXPROCS(0) }

// ordered runs work on each job sent to the returned submit on n
// goroutines and hands each result to emit on the caller of wait, in the
// order the jobs were submitted. Submit blocks while 2n jobs are pending;
// it returns false once emit failed or ctx is done (stop submitting then).
// Call close when every job is submitted, then wait: it returns emit's
// first error, else ctx's.
type ordered[J, R any] struct {
	ctx   context.Context
	jobs  chan orderedJob[J, R]
	queue chan chan R
	stop  chan struct{}
	once  sync.Once
	wg    sync.WaitGroup
}

type orderedJob[J, R any] struct {
	job J
	out chan R
}

func newOrdered[J, R any](ctx context.Context, n int, work func(J) R) *ordered[J, R] {
	o := &ordered[J, R]{ctx: ctx, jobs: make(chan orderedJob[J, R], n), queue: make(chan chan R, 2*n), stop: make(chan struct{})}
	for range n {
		o.wg.Add(1)
		go func() {
			defer o.wg.Done()
			for j := range o.jobs {
				j.out <- work(j.job)
			}
		}()
	}
	return o
}

// submit hands j to the pool.
func (o *ordered[J, R]) submit(j J) bool {
	out := make(chan R, 1)
	select {
	case o.queue <- out:
	case <-o.stop:
		return false
	case <-o.ctx.Done():
		return false
	}
	select {
	case o.jobs <- orderedJob[J, R]{job: j, out: out}:
		return true
	case <-o.stop:
	case <-o.ctx.Done():
	}
	out <- *new(R) // the job was queued but will not run: unblock emit
	return false
}

// close says that every job is submitted.
func (o *ordered[J, R]) close() {
	close(o.jobs)
	close(o.queue)
}

// drain hands every result to emit, in order, until emit fails; then it
// signals submitters to stop and waits for the pool.
func (o *ordered[J, R]) drain(emit func(R) error) error {
	var first error
	for out := range o.queue {
		r := <-out
		if first != nil {
			continue
		}
		if err := emit(r); err != nil {
			first = err
			o.once.Do(func() { close(o.stop) })
		}
	}
	o.wg.Wait()
	return first
}

// decodedLine is a line of an export and what decoding it gave.
type decodedLine struct {
	line int
	l    jsonlLine
	err  error
}

// readJSONLParallel is readJSONL with the lines decoded on every core:
// the same events, errors, foreign lines and line numbers, in the same
// order. It reads on a goroutine of its own and calls fn and foreign on
// the caller's.
func readJSONLParallel(ctx context.Context, r io.Reader, fn func(line int, l jsonlLine) error, foreign func(ForeignMessage) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer CancelReads(ctx, r)()
	only := passTypesOf(ctx)
	type batch struct {
		first int
		lines [][]byte // each line's exact bytes (its own copy); nil entries: blank or skipped lines
	}
	pool := newOrdered(ctx, workers(), func(b batch) []decodedLine {
		out := make([]decodedLine, 0, len(b.lines))
		for i, raw := range b.lines {
			if raw == nil {
				continue
			}
			ev, err := events.DecodeOwned(bytes.TrimSpace(raw)) // the event's data may be a part of raw, which is its own
			out = append(out, decodedLine{line: b.first + i, l: jsonlLine{raw: raw, ev: ev}, err: err})
		}
		return out
	})
	readErr := make(chan error, 1)
	go func() {
		defer pool.close()
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 0, 64<<10), maxLine)
		line := 0
		b := batch{first: 1}
		size := 0
		send := func() bool {
			ok := pool.submit(b)
			b, size = batch{first: line + 1}, 0
			return ok
		}
		for sc.Scan() {
			line++
			if line%1024 == 0 && ctx.Err() != nil {
				readErr <- ctx.Err()
				return
			}
			raw, doc := lineBytes(sc.Bytes())
			if len(doc) == 0 || (only != nil && !only.mayBe(doc)) {
				b.lines = append(b.lines, nil)
			} else {
				b.lines = append(b.lines, bytes.Clone(raw))
				size += len(raw)
			}
			if len(b.lines) >= parallelBatch || size >= parallelBatchBytes {
				if !send() {
					readErr <- nil
					return
				}
			}
		}
		if len(b.lines) > 0 && !send() {
			readErr <- nil
			return
		}
		err := sc.Err()
		switch {
		case err == nil:
		case errors.Is(err, bufio.ErrTooLong):
			err = msgerr.Errorf("%w: line %d: longer than %d bytes", ErrMalformed, line+1, events.MaxSize)
		case ctx.Err() != nil && errors.Is(err, os.ErrDeadlineExceeded):
			err = ctx.Err()
		default:
			err = msgerr.Errorf("read export after line %d: %w", line, err)
		}
		readErr <- err
	}()
	err := pool.drain(func(ds []decodedLine) error {
		for _, d := range ds {
			if d.err != nil {
				if foreign != nil {
					if err := foreign(foreignLine(d.line, d.err)); err != nil {
						cancel()
						return err
					}
					continue
				}
				cancel() // the reader may block on a silent pipe
				return msgerr.Errorf("%w: line %d: %w", ErrMalformed, d.line, d.err)
			}
			if err := fn(d.line, d.l); err != nil {
				cancel()
				return err
			}
		}
		return nil
	})
	rerr := <-readErr
	if err != nil {
		return err
	}
	if rerr != nil {
		return rerr
	}
	return ctx.Err()
}

// opened is a device's message in an event, opened ahead of Add.
type opened struct {
	pub                                  signed.PublicKey
	signed, signature, campaign, session string
	msg                                  signed.Message
}

// preparedBatch is a batch of the input and, for each event, its opened
// message (nil: none opened).
type preparedBatch struct {
	ins    []Input
	opened []*opened
}

// keyRing is every key registered for each user so far in the input.
type keyRing struct {
	mu   sync.RWMutex
	keys map[string][]signed.PublicKey
}

func (k *keyRing) add(user string, pub signed.PublicKey) {
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, p := range k.keys[user] {
		if p == pub {
			return
		}
	}
	k.keys[user] = append(k.keys[user], pub)
}

func (k *keyRing) of(user string) []signed.PublicKey {
	k.mu.RLock()
	defer k.mu.RUnlock()
	return k.keys[user]
}

// deviceMessage returns the device's message an event records: its user,
// signed string and signature ("" when it records none).
func deviceMessage(data any) (user, s, sig string) {
	switch d := data.(type) {
	case *events.SessionContributed:
		return d.User, d.Signed, d.Signature
	case *events.RollRequested:
		return d.User, d.Signed, d.Signature
	case *events.RollMade:
		return d.User, d.Signed, d.Signature
	}
	return "", "", ""
}

// openAhead opens the device's message of rec, if any, with the first key
// of its user under which it opens.
func openAhead(ring *keyRing, rec events.Recorded) *opened {
	ev := rec.Event
	if !isV2Type(ev.Type) && ev.Type != events.TypeRollMade {
		return nil
	}
	data, err := ev.Payload()
	if err != nil {
		return nil
	}
	user, s, sig := deviceMessage(data)
	if s == "" {
		return nil
	}
	for _, pub := range ring.of(user) {
		if m, err := signed.Open(pub, s, sig, ev.Campaign, ev.Session); err == nil {
			return &opened{pub: pub, signed: s, signature: sig, campaign: ev.Campaign, session: ev.Session, msg: m}
		}
	}
	return nil
}

// addAll is the second pass of Verify: it reads src and calls v.Add on
// every event and v.Foreign on every message that is not one, in order,
// with the devices' messages opened ahead on every core. src's error is
// returned once every input handed over is added.
func (v *Verifier) addAll(ctx context.Context, src Source) error {
	if workers() < 2 {
		return pipe(ctx, src, v.addInput)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ring := &keyRing{keys: map[string][]signed.PublicKey{}}
	pool := newOrdered(ctx, workers(), func(b preparedBatch) preparedBatch {
		b.opened = make([]*opened, len(b.ins))
		for i, in := range b.ins {
			if in.Foreign == nil {
				b.opened[i] = openAhead(ring, in.Recorded)
			}
		}
		return b
	})
	srcErr := make(chan error, 1)
	go func() {
		defer pool.close()
		batch := make([]Input, 0, parallelBatch)
		err := src(ctx, func(r Input) error {
			if r.Foreign == nil && (r.Event.Type == events.TypeParticipantRegistered || r.Event.Type == events.TypeDeviceRegistered) {
				if data, err := r.Event.Payload(); err == nil {
					user, key := "", ""
					switch d := data.(type) {
					case *events.ParticipantRegistered:
						user, key = d.User, d.PublicKey
					case *events.DeviceRegistered:
						user, key = d.User, d.PublicKey
					}
					if pub, err := signed.ParsePublicKey(key); err == nil {
						ring.add(user, pub)
					}
				}
			}
			batch = append(batch, r)
			if len(batch) < parallelBatch {
				return nil
			}
			ok := pool.submit(preparedBatch{ins: batch})
			batch = make([]Input, 0, parallelBatch)
			if !ok {
				return ctx.Err()
			}
			return nil
		})
		if err == nil && len(batch) > 0 && !pool.submit(preparedBatch{ins: batch}) {
			err = ctx.Err()
		}
		srcErr <- err
	}()
	_ = pool.drain(func(b preparedBatch) error {
		for i, in := range b.ins {
			v.pre = nil
			if i < len(b.opened) {
				v.pre = b.opened[i]
			}
			v.addInput(in)
		}
		v.pre = nil
		return nil
	})
	return <-srcErr
}

// openSigned is signed.Open, taking the result opened ahead (addAll) when
// it was opened with the same arguments.
func (v *Verifier) openSigned(pub signed.PublicKey, s, sig, campaign, session string) (signed.Message, error) {
	if p := v.pre; p != nil && p.pub == pub && p.signed == s && p.signature == sig && p.campaign == campaign && p.session == session {
		return p.msg, nil
	}
	return signed.Open(pub, s, sig, campaign, session)
}
