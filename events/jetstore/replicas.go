package jetstore

import (
	"context"
	"slices"

	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/nats-io/nats.go/jetstream"
)

// Replicas: a journal's number of replicas, like its partitions, is fixed
// when it is created (1 on the embedded server, 3 on a cluster). Open
// reads it from the journal's streams and never changes it: an
// Options.Replicas of 0 takes the journal's (1 for a new journal), any
// other value must be the journal's, else Open fails with ErrReplicas,
// changing nothing. An existing stream or bucket is updated only when a
// setting the journal makes differs from its own, and then with its own
// replicas; a missing one is created with the journal's.

// ErrReplicas marks an Options.Replicas that disagrees with the journal's.
var ErrReplicas = msgerr.New("replicas")

// replicasError is the refusal of a number of replicas want on a journal
// that has have.
func replicasError(have, want int) error {
	return msgerr.Errorf("jetstore: %w: this journal has %d, not %d (the number of replicas is fixed when the journal is created)", ErrReplicas, have, want)
}

// checkReplicas refuses a negative Options.Replicas.
func checkReplicas(want int) error {
	if want < 0 {
		return msgerr.Errorf("jetstore: %w: %d is not a number of replicas (0 takes the journal's)", ErrReplicas, want)
	}
	return nil
}

// journalReplicas returns the replicas of a journal whose streams have
// infos (nil for one that is missing): its first existing stream's, or
// want (1 for 0) for a new journal. A want other than 0 that an existing
// stream does not have is refused with ErrReplicas.
func journalReplicas(infos []*jetstream.StreamInfo, want int) (int, error) {
	have := 0
	for _, info := range infos {
		if info == nil {
			continue
		}
		r := max(info.Config.Replicas, 1)
		if want != 0 && r != want {
			return 0, replicasError(r, want)
		}
		if have == 0 {
			have = r
		}
	}
	if have == 0 {
		return max(want, 1), nil
	}
	return have, nil
}

// Replicas returns the journal's number of replicas as stored (those of
// its stream JOURNAL, or JOURNAL-0), 0 for a server with no journal yet.
func Replicas(ctx context.Context, js jetstream.JetStream) (int, error) {
	for _, name := range []string{StreamName, PartitionStream(0)} {
		info, err := streamInfo(ctx, js, name)
		if err != nil {
			return 0, err
		}
		if info != nil {
			return max(info.Config.Replicas, 1), nil
		}
	}
	return 0, nil
}

// ensureStream creates the stream of cfg if info (its info, nil when it
// is missing) says there is none, and otherwise updates it only when a
// setting of cfg differs from its own, keeping its replicas.
func ensureStream(ctx context.Context, js jetstream.JetStream, info *jetstream.StreamInfo, cfg jetstream.StreamConfig) error {
	if info == nil {
		_, err := js.CreateStream(ctx, cfg)
		return err
	}
	cfg.Replicas = max(info.Config.Replicas, 1)
	if sameStreamConfig(info.Config, cfg) {
		return nil
	}
	_, err := js.UpdateStream(ctx, cfg)
	return err
}

// sameStreamConfig reports whether have (a stream's configuration, as the
// server reports it) has every setting of want that the journal makes;
// the others (and metadata the server adds) are the server's.
func sameStreamConfig(have, want jetstream.StreamConfig) bool {
	for k, v := range want.Metadata {
		if have.Metadata[k] != v {
			return false
		}
	}
	return have.Description == want.Description &&
		slices.Equal(have.Subjects, want.Subjects) &&
		have.Retention == want.Retention &&
		have.MaxConsumers == want.MaxConsumers &&
		have.MaxMsgs == want.MaxMsgs &&
		have.MaxBytes == want.MaxBytes &&
		have.MaxAge == want.MaxAge &&
		have.MaxMsgsPerSubject == want.MaxMsgsPerSubject &&
		have.MaxMsgSize == want.MaxMsgSize &&
		have.Discard == want.Discard &&
		have.Storage == want.Storage &&
		have.Replicas == want.Replicas &&
		have.Duplicates == want.Duplicates &&
		have.DenyDelete == want.DenyDelete &&
		have.DenyPurge == want.DenyPurge &&
		have.AllowDirect == want.AllowDirect &&
		have.AllowAtomicPublish == want.AllowAtomicPublish &&
		(have.RePublish == nil) == (want.RePublish == nil)
}

// OpenKeyValue opens the key-value bucket of cfg, creating it when it is
// missing with cfg.Replicas, 0 meaning the journal's (see Replicas; 1
// with no journal). An existing bucket keeps its replicas, whatever
// cfg.Replicas: it is updated only when a setting of cfg (description,
// history, storage, value size) differs from its own, and then with its
// own replicas.
func OpenKeyValue(ctx context.Context, js jetstream.JetStream, cfg jetstream.KeyValueConfig) (jetstream.KeyValue, error) {
	info, err := streamInfo(ctx, js, "KV_"+cfg.Bucket)
	if err != nil {
		return nil, err
	}
	if info == nil {
		if cfg.Replicas == 0 {
			r, err := Replicas(ctx, js)
			if err != nil {
				return nil, err
			}
			cfg.Replicas = max(r, 1)
		}
		// Create, not create-or-update: a bucket made meanwhile by another
		// process is not changed (a different one is an error).
		return js.CreateKeyValue(ctx, cfg)
	}
	cfg.Replicas = max(info.Config.Replicas, 1)
	maxValue := int32(-1)
	if cfg.MaxValueSize != 0 {
		maxValue = cfg.MaxValueSize
	}
	have := info.Config
	if have.Description == cfg.Description && have.MaxMsgsPerSubject == int64(max(cfg.History, 1)) &&
		have.Storage == cfg.Storage && have.MaxMsgSize == maxValue && have.AllowDirect {
		return js.KeyValue(ctx, cfg.Bucket)
	}
	return js.CreateOrUpdateKeyValue(ctx, cfg)
}
