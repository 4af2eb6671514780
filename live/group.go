package live

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/feed"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// Group is the live projection of a journal of k partitions: one
// Projector per partition, projector p over partition p's stream alone
// (jetstore.Store.Partition(p)), each with its position in that stream
// and its checkpoint keys apart (PartitionKV). A campaign lives in one
// stream, so its state, its sequences and its transcript lines are those
// of the projector of its partition (For). A group of one projector is
// the projection of a journal of one partition, as before.
//
// Invariants: projector p folds only partition p's stream; the state of a
// campaign is the state its partition's projector holds; the group's
// figures sum the projectors' (positions, stream lasts, lags, skipped
// messages), and its health is the worst of theirs.
type Group struct {
	ps []*Projector
}

// NewGroup returns the group of the projectors given, projector p being
// partition p's (at least one).
func NewGroup(ps ...*Projector) *Group {
	if len(ps) == 0 {
		panic("live: a group of no projector")
	}
	return &Group{ps: slices.Clone(ps)}
}

// Subscribe follows campaign's events on the live feed of its
// partition's projector (Projector.Subscribe).
func (g *Group) Subscribe(campaign string) *feed.Subscription {
	return g.For(campaign).Subscribe(campaign)
}

// FeedReaders returns the number of open subscriptions of the projectors'
// live feeds.
func (g *Group) FeedReaders() int {
	n := 0
	for _, p := range g.ps {
		n += p.FeedReaders()
	}
	return n
}

// Partitions returns the number of partitions (projectors).
func (g *Group) Partitions() int { return len(g.ps) }

// Partition returns partition p's projector.
func (g *Group) Partition(p int) *Projector { return g.ps[p] }

// For returns the projector of campaign's partition.
func (g *Group) For(campaign string) *Projector {
	return g.ps[events.Partition(campaign, len(g.ps))]
}

// PartitionKV returns the checkpoint keys of partition p of a journal of k
// partitions in kv: kv itself for k <= 1 (the keys "position" and
// "campaign.<id>", as a journal of one partition always had), else the
// keys under "partition-<p>." so that the k projectors' checkpoints stay
// apart in one bucket.
func PartitionKV(kv KV, p, k int) KV {
	if kv == nil || k <= 1 {
		return kv
	}
	return prefixKV{kv: kv, prefix: "partition-" + strconv.Itoa(p) + "."}
}

// prefixKV is the keys of a KV under a prefix, without it.
type prefixKV struct {
	kv     KV
	prefix string
}

func (k prefixKV) Get(ctx context.Context, key string) ([]byte, error) {
	return k.kv.Get(ctx, k.prefix+key)
}

func (k prefixKV) Put(ctx context.Context, key string, value []byte) error {
	return k.kv.Put(ctx, k.prefix+key, value)
}

func (k prefixKV) Keys(ctx context.Context) ([]string, error) {
	all, err := k.kv.Keys(ctx)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, key := range all {
		if rest, ok := strings.CutPrefix(key, k.prefix); ok {
			out = append(out, rest)
		}
	}
	return out, nil
}

// Restore restores every projector (Projector.Restore) and returns the
// position each resumes from.
func (g *Group) Restore(ctx context.Context) ([]uint64, error) {
	from := make([]uint64, len(g.ps))
	for i, p := range g.ps {
		f, err := p.Restore(ctx)
		if err != nil {
			if len(g.ps) > 1 {
				return nil, msgerr.Errorf("partition %d: %w", i, err)
			}
			return nil, err
		}
		from[i] = f
	}
	return from, nil
}

// Run runs every projector until ctx ends or one of them stops; it then
// stops the others and returns the first error (ctx.Err() when ctx ended).
func (g *Group) Run(ctx context.Context) error {
	if len(g.ps) == 1 {
		return g.ps[0].Run(ctx)
	}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make(chan error, len(g.ps))
	var wg sync.WaitGroup
	for i, p := range g.ps {
		wg.Go(func() {
			err := p.Run(runCtx)
			if err != nil && !errors.Is(err, context.Canceled) {
				err = msgerr.Errorf("partition %d: %w", i, err)
			}
			errs <- err
		})
	}
	first := <-errs
	cancel()
	wg.Wait()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return first
}

// Checkpoint checkpoints every projector, and returns the first error.
func (g *Group) Checkpoint(ctx context.Context) error {
	var first error
	for i, p := range g.ps {
		if err := p.Checkpoint(ctx); err != nil && first == nil {
			first = err
			if len(g.ps) > 1 {
				first = msgerr.Errorf("partition %d: %w", i, err)
			}
		}
	}
	return first
}

// Campaigns lists the campaigns of every partition, by id.
func (g *Group) Campaigns() []Summary {
	if len(g.ps) == 1 {
		return g.ps[0].Campaigns()
	}
	var out []Summary
	for _, p := range g.ps {
		out = append(out, p.Campaigns()...)
	}
	slices.SortFunc(out, func(a, b Summary) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// PollLast asks every projector's stream for its last sequence and tells
// the projector (NoteStreamLast); it returns the first error.
func (g *Group) PollLast(ctx context.Context) error {
	for i, p := range g.ps {
		last, err := p.src.Last(ctx, events.AllFilter)
		if err != nil {
			return msgerr.Errorf("partition %d: %w", i, err)
		}
		p.NoteStreamLast(last)
	}
	return nil
}

// CatchUp waits until every projector has folded its stream up to the
// last sequence it holds now, or ctx ends.
func (g *Group) CatchUp(ctx context.Context) error {
	for i, p := range g.ps {
		last, err := p.src.Last(ctx, events.AllFilter)
		if err != nil {
			return msgerr.Errorf("partition %d: %w", i, err)
		}
		if err := p.WaitFor(ctx, last); err != nil {
			return msgerr.Errorf("partition %d: %w", i, err)
		}
	}
	return nil
}

// Stats returns the projectors' figures summed: positions, stream lasts,
// checkpoint sequences, restored positions, failures and skipped
// messages; CheckpointAt and ProgressAt are the oldest, LastForeign the
// last partition's that has one. With one projector, its figures.
func (g *Group) Stats() Stats {
	if len(g.ps) == 1 {
		return g.ps[0].Stats()
	}
	var sum Stats
	for i, p := range g.ps {
		s := p.Stats()
		sum.Position += s.Position
		sum.StreamLast += s.StreamLast
		sum.CheckpointSeq += s.CheckpointSeq
		sum.RestoredFrom += s.RestoredFrom
		sum.Failures += s.Failures
		sum.Foreign += s.Foreign
		if s.LastForeign != nil {
			sum.LastForeign = s.LastForeign
		}
		if i == 0 || s.CheckpointAt.Before(sum.CheckpointAt) {
			sum.CheckpointAt = s.CheckpointAt
		}
		if i == 0 || s.ProgressAt.Before(sum.ProgressAt) {
			sum.ProgressAt = s.ProgressAt
		}
	}
	return sum
}

// GroupHealth is the health of every partition's projector and of the
// whole: the worst status of them, the figures summed (Group.Stats), the
// longest SinceProgress of the partitions that are behind.
type GroupHealth struct {
	Health
	// Partitions is each partition's health, by partition.
	Partitions []Health
}

// severity orders the statuses from the best.
var severity = map[string]int{HealthOK: 0, HealthDegraded: 1, HealthLagging: 2, HealthStuck: 3}

// Health returns the group's health: stuck when any partition is stuck,
// else lagging when any lags, else degraded when any skipped something,
// else ok. With one projector, its health.
func (g *Group) Health() GroupHealth {
	parts := make([]Health, len(g.ps))
	for i, p := range g.ps {
		parts[i] = p.Health()
	}
	if len(g.ps) == 1 {
		return GroupHealth{Health: parts[0], Partitions: parts}
	}
	h := Health{Status: HealthOK, Stats: g.Stats(), StuckAfter: parts[0].StuckAfter}
	var since time.Duration
	for _, ph := range parts {
		if severity[ph.Status] > severity[h.Status] {
			h.Status = ph.Status
		}
		if ph.Lag() > 0 {
			since = max(since, ph.SinceProgress)
		}
		h.StuckAfter = max(h.StuckAfter, ph.StuckAfter)
	}
	h.SinceProgress = since
	return GroupHealth{Health: h, Partitions: parts}
}
