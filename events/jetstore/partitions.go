package jetstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// Partitions: a journal of k > 1 partitions (fixed at its creation)
// stores its events in the k streams JOURNAL-0 … JOURNAL-<k-1>, each
// capturing journal.<p>.*, a campaign's events in the stream of its
// partition events.Partition(campaign, k) under
// journal.<p>.<campaign> (events.PartitionSubject). A journal of one
// partition is the stream JOURNAL with journal.<campaign>, as before.
// Every stream carries k in its metadata under PartitionsKey; Open reads
// it and refuses an Options.Partitions that disagrees (ErrPartitions).
//
// The store translates: events, expects, queries and the Recorded it
// delivers name the campaign subject journal.<campaign> whatever k.
// Sequences are the stream's: a campaign lives in exactly one stream, so
// everything kept per campaign (a LastSeq, an Expect, a read From or To on
// a campaign) is a sequence of that stream, as with one partition. A
// filter over several campaigns (journal.*, journal.>) spans the k
// streams: Read and Follow read them in parallel, each stream in order,
// the streams interleaved, From and To bounding each stream; Last returns
// the sum of the streams' last sequences on it (with no deletes, the
// number of messages it matches when it matches all), which grows with
// every append but is no event's sequence.

// PartitionsKey is the stream metadata key holding a journal's number of
// partitions.
const PartitionsKey = "journal-partitions"

// ErrPartitions marks an Options.Partitions that disagrees with the
// journal's, or a journal whose streams do not agree.
var ErrPartitions = msgerr.New("partitions")

// StreamNames returns the names of the streams of a journal of k
// partitions: JOURNAL for k <= 1, JOURNAL-0 … JOURNAL-<k-1> otherwise.
func StreamNames(k int) []string {
	if k <= 1 {
		return []string{StreamName}
	}
	names := make([]string, k)
	for p := range names {
		names[p] = PartitionStream(p)
	}
	return names
}

// PartitionStream is the name of partition p's stream in a journal of
// more than one partition: JOURNAL-<p>.
func PartitionStream(p int) string { return StreamName + "-" + strconv.Itoa(p) }

// CampaignStream returns the stream holding campaign's events in a
// journal of k partitions.
func CampaignStream(campaign string, k int) string {
	return StreamNames(k)[events.Partition(campaign, k)]
}

// Partitions returns the journal's number of partitions as stored, 0 for
// a server with no journal yet. The error wraps ErrPartitions when the
// streams disagree (JOURNAL beside JOURNAL-0, or a JOURNAL-0 without a
// readable PartitionsKey).
func Partitions(ctx context.Context, js jetstream.JetStream) (int, error) {
	one, err := streamInfo(ctx, js, StreamName)
	if err != nil {
		return 0, err
	}
	first, err := streamInfo(ctx, js, PartitionStream(0))
	if err != nil {
		return 0, err
	}
	switch {
	case one != nil && first != nil:
		return 0, msgerr.Errorf("jetstore: %w: both streams %s and %s are there", ErrPartitions, StreamName, PartitionStream(0))
	case one != nil:
		return 1, nil
	case first == nil:
		return 0, nil
	}
	k, err := strconv.Atoi(first.Config.Metadata[PartitionsKey])
	if err != nil || k < 2 || events.ValidPartitions(k) != nil {
		return 0, msgerr.Errorf("jetstore: %w: stream %s has no valid %s metadata (%q)", ErrPartitions, PartitionStream(0), PartitionsKey, first.Config.Metadata[PartitionsKey])
	}
	return k, nil
}

// Partition returns the store restricted to partition p's stream for
// reads over several campaigns: a filter over several campaigns (journal.*,
// journal.>) reads, follows and takes the last of that stream alone, so
// the view is a journal of one stream with one sequence, and its
// Partitions is 1; a campaign's filter and appends go to the campaign's
// stream as in s. A reader that keeps one position over the journal
// (package live) runs one per partition on these. p out of range panics.
func (s *Store) Partition(p int) *Store {
	if p < 0 || p >= s.k {
		panic(fmt.Sprintf("jetstore: partition %d of %d", p, s.k))
	}
	v := *s
	v.only = p + 1
	return &v
}

// target is one stream to read and the filter on it, in its subjects.
type target struct {
	stream, filter string
	all            string // the filter of every message of the stream
	// whole is true when filter covers every subject the journal
	// configures the stream with (journal.* or journal.> on JOURNAL,
	// journal.<p>.* or journal.<p>.> on JOURNAL-<p>): an ordered consumer
	// then needs no filter (see Store.startOrdered).
	whole bool
}

// targets returns the streams and filters a (validated) filter in
// campaign subjects covers: the one stream of its campaign when its
// second token is a campaign, every stream when it is a wildcard.
func (s *Store) targets(filter string) []target {
	if s.k <= 1 {
		return []target{{StreamName, filter, events.AllFilter, filter == events.AllFilter || filter == events.StreamSubjects}}
	}
	rest := strings.TrimPrefix(filter, events.Prefix+".")
	first, _, _ := strings.Cut(rest, ".")
	if first != "*" && first != ">" {
		p := events.Partition(first, s.k)
		return []target{s.target(p, rest)}
	}
	if s.only != 0 {
		return []target{s.target(s.only-1, rest)}
	}
	out := make([]target, s.k)
	for p := range out {
		out[p] = s.target(p, rest)
	}
	return out
}

// target is partition p's stream with the filter journal.<p>.<rest>.
func (s *Store) target(p int, rest string) target {
	in := events.Prefix + "." + strconv.Itoa(p) + "."
	return target{stream: s.streams[p], filter: in + rest, all: in + ">", whole: rest == ">" || rest == "*"}
}

// storedSubject is the subject an event of the campaign subject subject
// is stored under.
func (s *Store) storedSubject(subject string) (string, error) {
	campaign, err := events.ParseSubject(subject)
	if err != nil {
		return "", err
	}
	return events.PartitionSubject(campaign, s.k)
}

// campaignSubject translates a stored subject back into the campaign
// subject: journal.<p>.<campaign> becomes journal.<campaign> when p is
// the campaign's partition. Any other subject is returned as it is (a
// message the store did not write, which then does not decode as an
// event of its subject).
func (s *Store) campaignSubject(stored string) string {
	if s.k <= 1 {
		return stored
	}
	rest, ok := strings.CutPrefix(stored, events.Prefix+".")
	if !ok {
		return stored
	}
	ps, campaign, ok := strings.Cut(rest, ".")
	if !ok || strings.Contains(campaign, ".") || events.ValidID(campaign) != nil || ps != strconv.Itoa(events.Partition(campaign, s.k)) {
		return stored
	}
	return events.Prefix + "." + campaign
}

// fanIn runs each of fns (one per stream) in parallel, each handing its
// records and foreign reports to emit, which calls fn and q.OnForeign
// one at a time, and returns the first error (the others are cancelled).
func (s *Store) fanIn(ctx context.Context, q events.Query, ts []target, each func(ctx context.Context, t target, q events.Query, fn func(events.Recorded) error) error, fn func(events.Recorded) error) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var mu sync.Mutex
	stopped := msgerr.New("stopped")
	var first error
	fail := func(err error) error {
		if first == nil {
			first = err
			cancel(stopped)
		}
		return err
	}
	sub := q
	if q.OnForeign != nil {
		sub.OnForeign = func(f events.Foreign) error {
			mu.Lock()
			defer mu.Unlock()
			if first != nil {
				return first
			}
			if err := q.OnForeign(f); err != nil {
				return fail(err)
			}
			return nil
		}
	}
	var wg sync.WaitGroup
	for _, t := range ts {
		wg.Go(func() {
			err := each(ctx, t, sub, func(r events.Recorded) error {
				mu.Lock()
				defer mu.Unlock()
				if first != nil {
					return first
				}
				if err := fn(r); err != nil {
					return fail(err)
				}
				return nil
			})
			if err != nil {
				mu.Lock()
				if context.Cause(ctx) != stopped {
					fail(err)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return first
}

// StoredBytes returns the exact bytes stored for r, an event this store
// read, from its campaign's stream at r.Seq: what an export writes
// verbatim, and what journal-dice-v2's prevhash chain hashes. The error
// wraps events.ErrNotFound when the stream holds no message there.
func (s *Store) StoredBytes(ctx context.Context, r events.Recorded) ([]byte, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	stream := s.streams[events.Partition(r.Event.Campaign, s.k)]
	st, err := s.js.Stream(ctx, stream)
	if err != nil {
		return nil, msgerr.Errorf("jetstore: stream %s: %w", stream, err)
	}
	m, err := st.GetMsg(ctx, r.Seq)
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return nil, msgerr.Errorf("%w: no message at sequence %d of %s", events.ErrNotFound, r.Seq, stream)
	}
	if err != nil {
		return nil, msgerr.Errorf("jetstore: the stored bytes of event %s (seq %d of %s): %w", r.Event.ID, r.Seq, stream, err)
	}
	return m.Data, nil
}
