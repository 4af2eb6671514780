// Package exportfile reads an export (journal export's JSON Lines) from a
// file for an audit, which makes several passes over it (replay.Source):
// a regular file is opened again at each pass; a FIFO, a pipe or a
// terminal, which can be read only once, is copied by the first pass to a
// temporary file that every pass then reads. On a terminal a progress line
// is drawn while the file is read.
//
// Invariants:
//   - Every pass reads the same bytes: a file that is not regular is
//     copied once, and only the copy is read.
//   - Nothing blocks past its context: opening a FIFO with no writer and
//     reading one whose writer is silent both give up when ctx is done,
//     and the open given up on is released (its file closed).
//   - The progress line is drawn only on the writer given, at most every
//     100 ms and never in the first 250 ms; Clear erases it.
//   - Errors name the file clipped (clip.Text), never whole.
package exportfile

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/replay"
)

// Options say how an export is read.
type Options struct {
	// Passes is how many times the audit reads the source (for the
	// progress line's share).
	Passes int
	// Progress is where the progress line is drawn (a terminal); nil draws
	// none. It is drawn only for a regular file, whose size is known.
	Progress io.Writer
	// Now is the progress line's clock (nil: time.Now).
	Now func() time.Time
	// Spooled is told the name of the temporary file a copy is made in, as
	// soon as it exists, for the caller to remove when it is done.
	Spooled func(name string)
}

// Source is the export at path as a source of an audit's passes, and a
// function that clears any progress line (it may be called more than once).
func Source(path string, o Options) (replay.Source, func(), error) {
	info, err := os.Stat(path)
	if err != nil {
		if pe, ok := errors.AsType[*fs.PathError](err); ok {
			pe.Path = clip.Text(pe.Path).String() // an os error quotes the path whole
		}
		return nil, nil, msgerr.Errorf("export: %w", err)
	}
	if info.IsDir() {
		return nil, nil, msgerr.Errorf("export %s is a folder, not a JSON Lines file", clip.Text(path))
	}
	var p *Progress
	if o.Progress != nil && info.Mode().IsRegular() {
		now := o.Now
		if now == nil {
			now = time.Now
		}
		p = NewProgress(o.Progress, now, info.Size(), o.Passes)
	}
	name, spooled := path, !info.Mode().IsRegular()
	open := func(ctx context.Context) (io.ReadCloser, error) {
		if spooled {
			tmp, err := Spool(ctx, path, info.Mode(), o.Spooled)
			if err != nil {
				return nil, err
			}
			name, spooled = tmp, false
		}
		f, err := OpenContext(ctx, name, info.Mode())
		if err != nil || p == nil {
			return f, err
		}
		p.NextPass()
		return &countingFile{File: f, p: p}, nil
	}
	src := replay.JSONLSourceContext(open)
	if p == nil {
		return src, func() {}, nil
	}
	counted := func(ctx context.Context, fn func(replay.Input) error) error {
		return src(ctx, func(in replay.Input) error {
			p.Event()
			return fn(in)
		})
	}
	return counted, p.Clear, nil
}

// OpenContext opens path for reading, giving up when ctx is done: opening
// a FIFO blocks in open(2) until a writer opens it. On cancellation the
// pending open is released by opening the FIFO as its writer (O_RDWR
// never blocks on Linux) until that open has returned, and the file it
// opened is closed.
func OpenContext(ctx context.Context, path string, mode os.FileMode) (*os.File, error) {
	if mode&os.ModeNamedPipe == 0 {
		return os.Open(path)
	}
	type opened struct {
		f   *os.File
		err error
	}
	done := make(chan opened, 1)
	go func() {
		f, err := os.Open(path)
		done <- opened{f, err}
	}()
	select {
	case o := <-done:
		return o.f, o.err
	case <-ctx.Done():
	}
	w, err := os.OpenFile(path, os.O_RDWR, 0) // a writer: the pending open returns
	go func() {
		if o := <-done; o.f != nil {
			o.f.Close()
		}
		if err == nil {
			w.Close()
		}
	}()
	return nil, ctx.Err()
}

// Spool copies the export at path, which is not a regular file, to a
// temporary file, and returns its name; made, when not nil, is told the
// name as soon as the file exists (the caller removes it). The copy ends
// when ctx is done, however silent the writer.
func Spool(ctx context.Context, path string, mode os.FileMode, made func(name string)) (string, error) {
	in, err := OpenContext(ctx, path, mode)
	if err != nil {
		return "", err
	}
	defer in.Close()
	out, err := os.CreateTemp("", "journal-export-*.jsonl")
	if err != nil {
		return "", msgerr.Errorf("copy %s: %w", path, err)
	}
	if made != nil {
		made(out.Name())
	}
	stop := replay.CancelReads(ctx, in)
	_, err = io.Copy(out, in)
	stop()
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", msgerr.Errorf("copy %s: %w", path, err)
	}
	return out.Name(), nil
}

// countingFile reports the bytes read from an export to a progress line.
type countingFile struct {
	*os.File
	p *Progress
}

func (f *countingFile) Read(b []byte) (int, error) {
	n, err := f.File.Read(b)
	f.p.Bytes(n)
	return n, err
}
