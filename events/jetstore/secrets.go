package jetstore

import (
	"bytes"
	"context"

	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/nats-io/nats.go/jetstream"
)

// The secrets bucket is written once per key, by the server's own rule and
// not only the journal's: its stream (KV_journal_secrets) keeps one
// message per subject and discards a new one for a subject that has one
// (DiscardNewPerSubject), allows no roll-up, and denies message delete
// and purge. So nothing that reaches the stream — a second PutSecret, a
// key-value delete or purge marker, an empty message published there by a
// JetStream reply aimed at a seed's key (the confused deputy of DESIGN §6,
// turn 3) — replaces or removes a seed once written: an open session's
// seed is revealed at its end exactly as committed at its start. PutSecret
// also reads the value back and compares it with what it wrote.

// secretsConfig returns the stream configuration of the secrets bucket
// that holds each key once: cfg (as nats.go made it for the bucket) with
// the per-subject discard, no roll-up and no delete or purge.
func secretsConfig(cfg jetstream.StreamConfig) jetstream.StreamConfig {
	cfg.Discard = jetstream.DiscardNew
	cfg.DiscardNewPerSubject = true
	cfg.MaxMsgsPerSubject = 1
	cfg.AllowRollup = false
	cfg.DenyDelete = true
	cfg.DenyPurge = true
	return cfg
}

// writeOnce makes the secrets bucket's stream hold each key once
// (secretsConfig), updating it when it does not yet; its replicas are
// left as they are.
func writeOnce(ctx context.Context, js jetstream.JetStream) error {
	info, err := streamInfo(ctx, js, "KV_"+SecretsBucket)
	if err != nil {
		return err
	}
	if info == nil {
		return msgerr.Errorf("jetstore: bucket %s: no stream", SecretsBucket)
	}
	want := secretsConfig(info.Config)
	have := info.Config
	if have.Discard == want.Discard && have.DiscardNewPerSubject && have.MaxMsgsPerSubject == 1 &&
		!have.AllowRollup && have.DenyDelete && have.DenyPurge {
		return nil
	}
	if _, err := js.UpdateStream(ctx, want); err != nil {
		return msgerr.Errorf("jetstore: bucket %s: hold each secret once: %w", SecretsBucket, err)
	}
	return nil
}

// readBack checks that key holds value: what PutSecret wrote is what the
// bucket keeps.
func (s *Store) readBack(ctx context.Context, key string, value []byte) error {
	got, err := s.GetSecret(ctx, key)
	if err != nil {
		return msgerr.Errorf("secret %s: read back: %w", key, err)
	}
	if !bytes.Equal(got, value) {
		return msgerr.Errorf("secret %s: the bucket holds %d bytes that differ from the %d written", key, len(got), len(value))
	}
	return nil
}
