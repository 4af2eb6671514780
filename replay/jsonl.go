package replay

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"time"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// maxLine is the longest line ReadJSONL accepts: one event of events.MaxSize
// bytes and its line ending.
const maxLine = events.MaxSize + 2

// ReadJSONL reads an export in JSON Lines form — one CloudEvent per line, as
// `journal export` writes it — and calls fn with each event, decoded and
// validated with events.Decode, in order. Blank lines are skipped. A line
// that does not decode, or is longer than events.MaxSize, stops the read
// with an error wrapping ErrMalformed that names the line number; an error
// from fn stops it and is returned as is. (A Source over an export,
// JSONLSource, hands such a line on as an Input of its own instead, for a
// pass of Verify to list.) Lines are decoded on every core (parallel.go);
// memory is bounded by a few batches of lines.
func ReadJSONL(r io.Reader, fn func(events.Event) error) error {
	return readJSONL(context.Background(), r, func(_ int, l jsonlLine) error { return fn(l.ev) }, nil)
}

// jsonlLine is a line of an export that decoded: its exact bytes (the
// line without its line ending: "\n", or "\r\n") and the event.
type jsonlLine struct {
	raw []byte
	ev  events.Event
}

// lineBytes is the exact bytes of a line as bufio.ScanLines gives it: the
// line without a final "\r" (an export written with CRLF line endings),
// and the part of it that is decoded, without surrounding white space.
// The line's bytes are what the event's line holds: a line re-spaced
// inside is other bytes, whose hash the next event's prevhash is not.
func lineBytes(l []byte) (raw, doc []byte) {
	raw = bytes.TrimSuffix(l, []byte("\r"))
	return raw, bytes.TrimSpace(raw)
}

// readJSONL is ReadJSONL with a context, checked every few lines, the line
// number and exact bytes of each event, and foreign: when set, a line that
// does not decode is passed to it (its error ends the read) and the read
// goes on; when nil, such a line ends the read with ErrMalformed. A read
// that blocks (a pipe or a FIFO whose writer is silent) ends when ctx is
// done, if r can be given a read deadline (an *os.File on a pipe, a FIFO,
// a terminal: see CancelReads).
func readJSONL(ctx context.Context, r io.Reader, fn func(line int, l jsonlLine) error, foreign func(ForeignMessage) error) error {
	if workers() > 1 {
		return readJSONLParallel(ctx, r, fn, foreign)
	}
	defer CancelReads(ctx, r)()
	only := passTypesOf(ctx)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	line := 0
	for sc.Scan() {
		line++
		if line%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		raw, doc := lineBytes(sc.Bytes())
		if len(doc) == 0 || (only != nil && !only.mayBe(doc)) {
			continue
		}
		raw = bytes.Clone(raw)
		ev, err := events.DecodeOwned(bytes.TrimSpace(raw)) // the event's data may be a part of raw, which is its own
		if err != nil {
			if foreign != nil {
				if err := foreign(foreignLine(line, err)); err != nil {
					return err
				}
				continue
			}
			return msgerr.Errorf("%w: line %d: %w", ErrMalformed, line, err)
		}
		if err := fn(line, jsonlLine{raw: raw, ev: ev}); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return msgerr.Errorf("%w: line %d: longer than %d bytes", ErrMalformed, line+1, events.MaxSize)
		}
		if cerr := ctx.Err(); cerr != nil && errors.Is(err, os.ErrDeadlineExceeded) {
			return cerr
		}
		return msgerr.Errorf("read export after line %d: %w", line, err)
	}
	return nil
}

// CancelReads makes the reads of r that block end when ctx is done, when r
// can be given a read deadline (SetReadDeadline: an *os.File on a pipe, a
// FIFO or a terminal, whose reads the runtime polls; a net.Conn): such a
// read then fails with os.ErrDeadlineExceeded. Reads of a regular file
// never block for long and are left alone. Call the returned func when
// done reading.
func CancelReads(ctx context.Context, r io.Reader) (stop func()) {
	d, ok := r.(interface{ SetReadDeadline(time.Time) error })
	if !ok || ctx.Done() == nil {
		return func() {}
	}
	after := context.AfterFunc(ctx, func() { _ = d.SetReadDeadline(time.Now()) })
	return func() { after() }
}

// passTypesKey is the context key under which a pass of Verify or Luck
// tells this package's JSON Lines sources the only event types it reads.
type passTypesKey struct{}

// typeSet is a set of event types, each as it appears in an unescaped
// document: a JSON string, quotes included.
type typeSet [][]byte

// withPassTypes returns a context telling this package's JSON Lines
// sources that the pass reads events of these types only (it ignores the
// others). A source may then skip lines that cannot be of those types
// without decoding them; every other source ignores the hint, and a line
// it skips is decoded, and refused if malformed, by the pass that reads
// every line. Only a pass that ignores other events may set it.
func withPassTypes(ctx context.Context, types ...string) context.Context {
	set := make(typeSet, len(types))
	for i, t := range types {
		set[i] = []byte(`"` + t + `"`)
	}
	return context.WithValue(ctx, passTypesKey{}, set)
}

func passTypesOf(ctx context.Context) typeSet {
	set, _ := ctx.Value(passTypesKey{}).(typeSet)
	return set
}

// mayBe reports whether a line can be an event of one of the types: it
// holds one of them as a JSON string, or it has an escape (a backslash),
// with which a type could be spelled otherwise. A line that is not one of
// them may also say yes; a line that is never says no.
//
// Without a backslash no string can hold a quote, so the first
// "type":" with no '{' or '[' before it (but the object's own) is the
// envelope's type attribute: its value decides, without reading the rest
// of the line. The same holds when the line's only backslashes come after
// that value (a journal-dice-v2 event's signed message, in data, is a
// string full of escaped quotes): nothing before it is escaped. Any other
// line is searched for the types anywhere.
func (s typeSet) mayBe(line []byte) bool {
	if t, ok := topLevelType(line); ok {
		for _, want := range s {
			if bytes.Equal(t, want) {
				return true
			}
		}
		return false
	}
	if bytes.IndexByte(line, '\\') >= 0 {
		return true
	}
	for _, t := range s {
		if bytes.Contains(line, t) {
			return true
		}
	}
	return false
}

// typeAttr starts the type attribute of a compact document.
var typeAttr = []byte(`"type":"`)

// topLevelType returns the value of the type attribute of a line, quotes
// included, when it is found as a member of the top-level object before
// any nested value and nothing up to the end of that value is escaped (no
// backslash); ok is false otherwise.
func topLevelType(line []byte) (t []byte, ok bool) {
	i := bytes.Index(line, typeAttr)
	if i < 1 || bytes.IndexAny(line[1:i], "{[") >= 0 {
		return nil, false
	}
	start := i + len(typeAttr) - 1 // the opening quote
	end := bytes.IndexByte(line[start+1:], '"')
	if end < 0 {
		return nil, false
	}
	t = line[start : start+end+2]
	if bytes.IndexByte(line[:start+end+2], '\\') >= 0 {
		return nil, false
	}
	return t, true
}

// WriteJSONL writes events in the export's JSON Lines form: each encoded
// with events.Encode on a line of its own.
func WriteJSONL(w io.Writer, evs ...events.Event) error {
	for _, ev := range evs {
		b, err := events.Encode(ev)
		if err != nil {
			return err
		}
		b = append(b, '\n')
		if _, err := w.Write(b); err != nil {
			return msgerr.Errorf("write export: %w", err)
		}
	}
	return nil
}

// Input is one message of an audit's input, in stream order: an event as
// stored, or, when Foreign is set, a message that is not an event (the
// Recorded is then empty). Recorded.Raw is the event's exact stored bytes
// — a stream message's body, an export's line without its line ending —
// and Recorded.Event their decoding. What the chain and the co-signatures
// hash is Raw, never a re-encoding of Event: an event without Raw has no
// bytes to check a link against, and a link to it is a mismatch.
type Input struct {
	events.Recorded
	// Foreign is a message of the input that is not an event: a pass of
	// Verify lists it (and fails), other readers skip it or stop (see
	// EventsOnly).
	Foreign *ForeignMessage
}

// Source iterates the input of an audit in stream order, calling fn for
// each event (with its stored bytes) and each message that is not an
// event, and stopping at fn's first error, which it returns. A Source can
// be called more than once and yields the same input each time: Verify
// and Luck make two passes. A store's Read fits once its query is bound
// (StoreSource).
type Source func(ctx context.Context, fn func(Input) error) error

// StoreSource is a Source over a store's read of q (q.OnForeign is the
// Source's own): each event read, with the stored bytes the store gives
// (events.Recorded.Raw), and each message on the filter that is not an
// event, in its place.
func StoreSource(read func(context.Context, events.Query, func(events.Recorded) error) error, q events.Query) Source {
	return func(ctx context.Context, fn func(Input) error) error {
		q := q
		q.OnForeign = func(f events.Foreign) error {
			m := ForeignOf(f)
			return fn(Input{Foreign: &m})
		}
		return read(ctx, q, func(r events.Recorded) error { return fn(Input{Recorded: r}) })
	}
}

// EventsOnly adapts fn, a reader of events, to a Source: it is called with
// each event of the input; a message of a stream that is not an event is
// skipped, and a line of an export that is not one ends the read with an
// error wrapping ErrMalformed that names the line (what ReadJSONL does).
func EventsOnly(fn func(events.Recorded) error) func(Input) error {
	return func(in Input) error {
		if f := in.Foreign; f != nil {
			if f.Line != 0 {
				return msgerr.Errorf("%w: line %d: %s", ErrMalformed, f.Line, f.Reason)
			}
			return nil
		}
		return fn(in.Recorded)
	}
}

// JSONLSource is a Source over an export in JSON Lines form that open opens
// afresh for each pass; each pass reads it with ReadJSONL's rules and closes
// it, handing a line that does not decode on as a foreign Input. Events
// from an export carry no stream sequence (Seq is 0); their Raw is their
// line.
func JSONLSource(open func() (io.ReadCloser, error)) Source {
	return JSONLSourceContext(func(context.Context) (io.ReadCloser, error) { return open() })
}

// JSONLSourceContext is JSONLSource with an open that honours the pass's
// context (opening a FIFO blocks until a writer comes), and reads that
// end when the context is done (see CancelReads).
func JSONLSourceContext(open func(ctx context.Context) (io.ReadCloser, error)) Source {
	return func(ctx context.Context, fn func(Input) error) (err error) {
		rc, err := open(ctx)
		if err != nil {
			return msgerr.Errorf("open export: %w", err)
		}
		defer func() {
			if cerr := rc.Close(); cerr != nil && err == nil {
				err = msgerr.Errorf("close export: %w", cerr)
			}
		}()
		return readJSONL(ctx, rc, func(_ int, l jsonlLine) error {
			return fn(Input{Recorded: events.Recorded{Event: l.ev, Raw: l.raw}})
		}, func(m ForeignMessage) error { return fn(Input{Foreign: &m}) })
	}
}

// JSONLBytes is a Source over an export held in memory.
func JSONLBytes(b []byte) Source {
	return JSONLSource(func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(b)), nil
	})
}

// Events is a Source over events in memory, never stored: without stream
// sequences, and with the bytes a store's Append would store for each
// (events.Encode's), since they have no stored bytes of their own. A
// verifier of what a journal stored reads it (StoreSource, JSONLSource),
// not this.
func Events(evs ...events.Event) Source {
	return func(ctx context.Context, fn func(Input) error) error {
		for _, ev := range evs {
			if err := ctx.Err(); err != nil {
				return err
			}
			raw, err := events.Encode(ev)
			if err != nil {
				raw = nil // invalid: the verifier says so
			}
			if err := fn(Input{Recorded: events.Recorded{Subject: ev.StreamSubject, Event: ev, Raw: raw}}); err != nil {
				return err
			}
		}
		return nil
	}
}

// Records is a Source over recorded events in memory, with the stored
// bytes they carry (events.Recorded.Raw).
func Records(recs []events.Recorded) Source {
	return func(ctx context.Context, fn func(Input) error) error {
		for _, r := range recs {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := fn(Input{Recorded: r}); err != nil {
				return err
			}
		}
		return nil
	}
}
