package live

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/jetstore"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// Bucket is the JetStream key-value bucket that holds the checkpoints.
const Bucket = jetstore.CheckpointsBucket

// MaxValue is the largest checkpoint value the bucket takes (its
// MaxValueSize, and the NATS server's default max_payload). Put refuses a
// larger one with ErrTooLarge, naming the key and the sizes, before
// anything is sent: a checkpoint that does not fit is an error its writer
// logs and counts, never one lost on the way.
const MaxValue = 1 << 20

// ErrTooLarge is the error of a Put of a value over MaxValue.
var ErrTooLarge = msgerr.New("checkpoint value over the bucket's limit")

// tooLarge refuses a value over MaxValue.
func tooLarge(key string, value []byte) error {
	if len(value) > MaxValue {
		return msgerr.Errorf("checkpoint %s: %d bytes, limit %d: %w", key, len(value), MaxValue, ErrTooLarge)
	}
	return nil
}

// KV is where checkpoints are kept: a small key-value store whose keys are
// dotted slugs. Get returns an error wrapping events.ErrNotFound for a
// missing key.
type KV interface {
	Get(ctx context.Context, key string) ([]byte, error)
	Put(ctx context.Context, key string, value []byte) error
	Keys(ctx context.Context) ([]string, error)
}

// BucketKV is a KV on a JetStream key-value bucket.
type BucketKV struct {
	kv jetstream.KeyValue
}

// OpenBucket opens the checkpoint bucket (file storage, one revision per
// key) and returns it. A missing bucket is created with replicas, 0
// meaning the journal's (its stream's; 1 with no journal); an existing
// one keeps its own replicas, whatever replicas says, and is updated only
// when its other settings differ (jetstore.OpenKeyValue).
func OpenBucket(ctx context.Context, js jetstream.JetStream, replicas int) (*BucketKV, error) {
	kv, err := jetstore.OpenKeyValue(ctx, js, jetstream.KeyValueConfig{
		Bucket:       Bucket,
		Description:  "journal serve: folded projections and the stream sequence they reach",
		History:      1,
		Storage:      jetstream.FileStorage,
		Replicas:     max(replicas, 0),
		MaxValueSize: MaxValue,
	})
	if err != nil {
		return nil, msgerr.Errorf("live: bucket %s: %w", Bucket, err)
	}
	return &BucketKV{kv: kv}, nil
}

// Get returns the value of key.
func (b *BucketKV) Get(ctx context.Context, key string) ([]byte, error) {
	e, err := b.kv.Get(ctx, key)
	if err != nil {
		if errors.Is(err, jetstream.ErrKeyNotFound) || errors.Is(err, jetstream.ErrKeyDeleted) {
			return nil, msgerr.Errorf("checkpoint %s: %w", key, events.ErrNotFound)
		}
		return nil, msgerr.Errorf("checkpoint %s: %w", key, err)
	}
	return e.Value(), nil
}

// Put stores value under key; a value over MaxValue is refused
// (ErrTooLarge).
func (b *BucketKV) Put(ctx context.Context, key string, value []byte) error {
	if err := tooLarge(key, value); err != nil {
		return err
	}
	if _, err := b.kv.Put(ctx, key, value); err != nil {
		return msgerr.Errorf("checkpoint %s: %w", key, err)
	}
	return nil
}

// Keys lists the keys present, sorted.
func (b *BucketKV) Keys(ctx context.Context) ([]string, error) {
	lister, err := b.kv.ListKeys(ctx)
	if err != nil {
		return nil, msgerr.Errorf("checkpoint keys: %w", err)
	}
	defer func() { _ = lister.Stop() }() // the listing has ended by then
	var keys []string
	for k := range lister.Keys() {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys, nil
}

// MemKV is a KV held in memory, for tests and for a journal without
// JetStream. It is safe for concurrent use.
type MemKV struct {
	mu sync.Mutex
	m  map[string][]byte
	// Puts counts the puts, for tests.
	puts int
}

// NewMemKV returns an empty MemKV.
func NewMemKV() *MemKV { return &MemKV{m: map[string][]byte{}} }

// Get returns a copy of the value of key.
func (m *MemKV) Get(_ context.Context, key string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.m[key]
	if !ok {
		return nil, msgerr.Errorf("checkpoint %s: %w", key, events.ErrNotFound)
	}
	return slices.Clone(v), nil
}

// Put stores a copy of value under key; a value over MaxValue is
// refused (ErrTooLarge), as the bucket refuses it.
func (m *MemKV) Put(_ context.Context, key string, value []byte) error {
	if strings.TrimSpace(key) == "" {
		return msgerr.Errorf("checkpoint: empty key")
	}
	if err := tooLarge(key, value); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.m[key] = slices.Clone(value)
	m.puts++
	return nil
}

// Keys lists the keys present, sorted.
func (m *MemKV) Keys(context.Context) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Sorted(maps.Keys(m.m)), nil
}

// Puts returns how many puts were made.
func (m *MemKV) Puts() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.puts
}

// LookupBucket returns the checkpoint bucket if it exists, without
// creating or changing it (an error wrapping events.ErrNotFound when it
// does not exist).
func LookupBucket(ctx context.Context, js jetstream.JetStream) (*BucketKV, error) {
	kv, err := js.KeyValue(ctx, Bucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		return nil, msgerr.Errorf("live: bucket %s: %w", Bucket, events.ErrNotFound)
	}
	if err != nil {
		return nil, msgerr.Errorf("live: bucket %s: %w", Bucket, err)
	}
	return &BucketKV{kv: kv}, nil
}

// Checkpoints returns the store the projector checkpoints into (nil:
// none): on a journal of several partitions, its partition's keys
// (PartitionKV). Others may keep their own keys there beside the
// projector's ("position" and "campaign.<id>", which only it writes).
func (p *Projector) Checkpoints() KV { return p.kv }
