package replay

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// What a read of the stream cannot see by itself: a message the stream
// lost (docs/design.md §2: the stream denies delete and purge, so a message
// missing from it was lost to its files being edited or damaged). A read
// of one campaign skips the hole without a word; journal log and journal
// replay ask the store what its streams say they miss before reading
// (events.Missing), count what the read gets, and say so in words:
//   - the sequences the stream counts as deleted or lost;
//   - fewer messages read on the filter than the server counts there (a
//     message it holds in its files but can no longer give);
//   - and, message by message, where a campaign's chain breaks (an event
//     missing between two others: ChainChecker, Verify's chain).

// Losses is what the streams a read covers say they miss, and how many
// messages the read got on them, to compare with the server's count. A
// nil *Losses (a store that cannot say) counts nothing and reports none.
type Losses struct {
	ms     []events.Missing
	filter string
	read   atomic.Uint64 // messages read (events and foreign) up to ms[0].Last, in the last pass
}

// NewLosses is what the streams of filter say they miss (ms).
func NewLosses(ms []events.Missing, filter string) *Losses {
	return &Losses{ms: ms, filter: filter}
}

// Counts reports whether the read's messages are counted: on one stream.
func (l *Losses) Counts() bool { return l != nil && len(l.ms) == 1 }

// Saw counts a message the read got at sequence seq.
func (l *Losses) Saw(seq uint64) {
	if l.Counts() && seq <= l.ms[0].Last {
		l.read.Add(1)
	}
}

// Source is src counting what each pass reads (from zero at each pass).
func (l *Losses) Source(src Source) Source {
	if !l.Counts() {
		return src
	}
	return func(ctx context.Context, fn func(Input) error) error {
		l.read.Store(0)
		return src(ctx, func(in Input) error {
			if in.Foreign != nil {
				l.Saw(in.Foreign.Seq)
			} else {
				l.Saw(in.Seq)
			}
			return fn(in)
		})
	}
}

// Report says, in words (one warning each), every loss, and how many
// messages are missing (0: none the streams know of). complete says the
// read went up to the filter's last sequence, so that its count can be
// compared with the server's.
func (l *Losses) Report(complete bool) (warnings []error, missing uint64) {
	if l == nil {
		return nil, 0
	}
	var n uint64
	for _, m := range l.ms {
		if m.Deleted > 0 {
			n += m.Deleted
			warnings = append(warnings, msgerr.Errorf("warning: stream %s has no message at %d of its sequences (%s): it denies deletes, so its files were edited or damaged and the messages there are lost; if one was an event of this campaign, its chain breaks after it",
				m.Stream, m.Deleted, seqList(m.DeletedSeqs, m.Deleted)))
		}
		if m.Lost > 0 {
			n += m.Lost
			warnings = append(warnings, msgerr.Errorf("warning: the server found %d messages of stream %s damaged in its files and dropped them (%s): they are lost",
				m.Lost, m.Stream, seqList(m.LostSeqs, m.Lost)))
		}
	}
	if complete && l.Counts() {
		m := l.ms[0]
		if read := l.read.Load(); read < m.Count {
			n += m.Count - read
			warnings = append(warnings, msgerr.Errorf("warning: the server counts %d messages on %s up to sequence %d of stream %s, and gives only %d: %d are in its files but cannot be read (damaged on disk)",
				m.Count, l.filter, m.Last, m.Stream, read, m.Count-read))
		}
	}
	return warnings, n
}

// seqList names sequences: "sequences 4, 9" or "sequences 4, 9 and 3 more".
func seqList(seqs []uint64, total uint64) string {
	if len(seqs) == 0 {
		return fmt.Sprintf("%d sequences", total)
	}
	parts := make([]string, len(seqs))
	for i, s := range seqs {
		parts[i] = strconv.FormatUint(s, 10)
	}
	out := "sequences " + strings.Join(parts, ", ")
	if more := total - uint64(len(seqs)); total > uint64(len(seqs)) {
		out += fmt.Sprintf(" and %d more", more)
	}
	return out
}
