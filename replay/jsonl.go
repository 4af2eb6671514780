package replay

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/campaign-journal/journal/events"
)

// maxLine is the longest line ReadJSONL accepts: one event of events.MaxSize
// bytes and its line ending.
const maxLine = events.MaxSize + 2

// ReadJSONL reads an export in JSON Lines form — one CloudEvent per line, as
// `journal export` writes it — and calls fn with each event, decoded and
// validated with events.Decode, in order. Blank lines are skipped. A line
// that does not decode, or is longer than events.MaxSize, stops the read
// with an error wrapping ErrMalformed that names the line number (in a
// pass of Verify, a line that does not decode is listed in the Report
// instead, and the read goes on: see ReportForeign); an error from fn
// stops it and is returned as is. Lines are decoded on every core
// (parallel.go); memory is bounded by a few batches of lines.
func ReadJSONL(r io.Reader, fn func(events.Event) error) error {
	return readJSONL(context.Background(), r, func(_ int, ev events.Event) error { return fn(ev) })
}

// readJSONL is ReadJSONL with a context, checked every few lines, and the
// line number of each event. A read that blocks (a pipe or a FIFO whose
// writer is silent) ends when ctx is done, if r can be given a read
// deadline (an *os.File on a pipe, a FIFO, a terminal: see CancelReads).
func readJSONL(ctx context.Context, r io.Reader, fn func(line int, ev events.Event) error) error {
	if workers() > 1 {
		return readJSONLParallel(ctx, r, fn)
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
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 || (only != nil && !only.mayBe(b)) {
			continue
		}
		ev, err := events.Decode(b)
		if err != nil {
			if ReportForeign(ctx, foreignLine(line, err)) {
				continue // a pass of Verify lists it
			}
			return fmt.Errorf("%w: line %d: %w", ErrMalformed, line, err)
		}
		ReportStoredHash(ctx, ev, b) // the line is the event's stored bytes (v2_cosign.go)
		if err := fn(line, ev); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return fmt.Errorf("%w: line %d: longer than %d bytes", ErrMalformed, line+1, events.MaxSize)
		}
		if cerr := ctx.Err(); cerr != nil && errors.Is(err, os.ErrDeadlineExceeded) {
			return cerr
		}
		return fmt.Errorf("read export after line %d: %w", line, err)
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
			return fmt.Errorf("write export: %w", err)
		}
	}
	return nil
}

// Source iterates the events of an audit in stream order, calling fn for
// each and stopping at fn's first error, which it returns. A Source can be
// called more than once and yields the same events each time: Verify and
// Luck make two passes. A store's Read fits once its query is bound:
//
//	src := func(ctx context.Context, fn func(events.Recorded) error) error {
//		return store.Read(ctx, q, fn)
//	}
type Source func(ctx context.Context, fn func(events.Recorded) error) error

// JSONLSource is a Source over an export in JSON Lines form that open opens
// afresh for each pass; each pass reads it with ReadJSONL's rules and closes
// it. Events from an export carry no stream sequence (Seq is 0).
func JSONLSource(open func() (io.ReadCloser, error)) Source {
	return JSONLSourceContext(func(context.Context) (io.ReadCloser, error) { return open() })
}

// JSONLSourceContext is JSONLSource with an open that honours the pass's
// context (opening a FIFO blocks until a writer comes), and reads that
// end when the context is done (see CancelReads).
func JSONLSourceContext(open func(ctx context.Context) (io.ReadCloser, error)) Source {
	return func(ctx context.Context, fn func(events.Recorded) error) (err error) {
		rc, err := open(ctx)
		if err != nil {
			return fmt.Errorf("open export: %w", err)
		}
		defer func() {
			if cerr := rc.Close(); cerr != nil && err == nil {
				err = fmt.Errorf("close export: %w", cerr)
			}
		}()
		return readJSONL(ctx, rc, func(_ int, ev events.Event) error {
			return fn(events.Recorded{Event: ev})
		})
	}
}

// JSONLBytes is a Source over an export held in memory.
func JSONLBytes(b []byte) Source {
	return JSONLSource(func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(b)), nil
	})
}

// Events is a Source over events in memory, without stream sequences.
func Events(evs ...events.Event) Source {
	return func(ctx context.Context, fn func(events.Recorded) error) error {
		for _, ev := range evs {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := fn(events.Recorded{Subject: ev.StreamSubject, Event: ev}); err != nil {
				return err
			}
		}
		return nil
	}
}

// Records is a Source over recorded events in memory.
func Records(recs []events.Recorded) Source {
	return func(ctx context.Context, fn func(events.Recorded) error) error {
		for _, r := range recs {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := fn(r); err != nil {
				return err
			}
		}
		return nil
	}
}
