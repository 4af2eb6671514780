package jetstore

import (
	"context"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// Missing returns, for each stream filter covers (a campaign's: its
// partition's stream), what it says it does not hold, and how many
// messages it counts on the filter up to its last sequence there. It asks
// the stream's information with its deleted sequences and, for a filter
// other than the whole stream's, the count on the filter; the last
// sequence is asked before and after, and the question asked again when
// an append came in between, so that Count and Last agree.
func (s *Store) Missing(ctx context.Context, filter string) ([]events.Missing, error) {
	if err := events.ValidFilter(filter); err != nil {
		return nil, err
	}
	var out []events.Missing
	for _, t := range s.targets(filter) {
		m, err := s.missing(ctx, t)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

func (s *Store) missing(ctx context.Context, t target) (events.Missing, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	st, err := s.js.Stream(ctx, t.stream)
	if err != nil {
		return events.Missing{}, msgerr.Errorf("jetstore: stream %s: %w", t.stream, err)
	}
	for try := 0; ; try++ {
		before, err := s.lastOn(ctx, t.stream, t.filter)
		if err != nil {
			return events.Missing{}, err
		}
		opts := []jetstream.StreamInfoOpt{jetstream.WithDeletedDetails(true)}
		if !t.whole {
			opts = append(opts, jetstream.WithSubjectFilter(t.filter))
		}
		info, err := st.Info(ctx, opts...)
		if err != nil {
			return events.Missing{}, msgerr.Errorf("jetstore: stream %s: %w", t.stream, err)
		}
		after, err := s.lastOn(ctx, t.stream, t.filter)
		if err != nil {
			return events.Missing{}, err
		}
		if before != after && try < 5 {
			continue // an append came in between
		}
		state := info.State
		m := events.Missing{Stream: t.stream, Last: after}
		// The deleted sequences, between the stream's first and last (the
		// server lists a sequence 0 for a stream that never held one).
		var deleted []uint64
		for _, seq := range state.Deleted {
			if seq >= state.FirstSeq && seq <= state.LastSeq && seq != 0 {
				deleted = append(deleted, seq)
			}
		}
		m.Deleted, m.DeletedSeqs = uint64(len(deleted)), first(deleted)
		if state.Lost != nil {
			m.Lost, m.LostSeqs = uint64(len(state.Lost.Msgs)), first(state.Lost.Msgs)
		}
		if t.whole {
			m.Count = state.Msgs
		} else {
			for _, n := range state.Subjects { // the filter's subjects: one for a campaign
				m.Count += n
			}
		}
		return m, nil
	}
}

// first is the first events.MaxListed of seqs.
func first(seqs []uint64) []uint64 {
	if len(seqs) > events.MaxListed {
		seqs = seqs[:events.MaxListed]
	}
	return append([]uint64(nil), seqs...)
}
