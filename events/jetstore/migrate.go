package jetstore

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// The old layout, written by versions before 2026-12-01: every event under
// journal.<campaign>.<kind>.<id>.<event>, every append conditional on the
// wildcard journal.<campaign>.> (a check that visits every subject of the
// campaign), every event republished on journalfeed.>. Open refuses it
// (ErrOldLayout); Migrate copies it into the current layout.

// ErrOldLayout is returned by Open for a JOURNAL stream in the old layout,
// or a migration left unfinished: nothing is changed, run Migrate
// (`journal migrate`).
var ErrOldLayout = msgerr.New("the journal is stored in the old layout (one subject per aggregate and event): run `journal migrate` to copy it into the current one")

// BackupStream is the stream Migrate keeps the old layout's messages in,
// exactly as they were (same sequences, subjects, headers and bytes): a
// mirror of the old JOURNAL, made a stream of its own once verified, with
// DenyDelete and DenyPurge. Nothing reads it; an administrator may delete
// it once satisfied with the migration.
const BackupStream = "JOURNAL-OLD-LAYOUT"

// oldLayout reports whether a JOURNAL stream configuration is not the
// current one: other subjects (journal.>) or a republished feed.
func oldLayout(cfg jetstream.StreamConfig) bool {
	return cfg.RePublish != nil || len(cfg.Subjects) != 1 || cfg.Subjects[0] != events.StreamSubjects
}

// checkLayout returns an error wrapping ErrOldLayout if the server holds
// the old layout, or a migration that has not finished.
func checkLayout(ctx context.Context, js jetstream.JetStream) error {
	journal, err := streamInfo(ctx, js, StreamName)
	if err != nil {
		return err
	}
	backup, err := streamInfo(ctx, js, BackupStream)
	if err != nil {
		return err
	}
	switch {
	case journal != nil && oldLayout(journal.Config):
		return msgerr.Errorf("jetstore: stream %s: %w", StreamName, ErrOldLayout)
	case journal != nil && backup != nil:
		old, err := oldSubjects(ctx, js)
		if err != nil {
			return err
		}
		if old {
			return msgerr.Errorf("jetstore: stream %s holds messages of the old layout beside the backup %s: %w", StreamName, BackupStream, ErrOldLayout)
		}
	}
	switch {
	case backup != nil && (journal == nil || backup.Config.Mirror != nil || journal.State.LastSeq < backup.State.LastSeq):
		return msgerr.Errorf("jetstore: a migration into stream %s has not finished: %w", StreamName, ErrOldLayout)
	}
	return nil
}

// oldSubjects reports whether the JOURNAL stream holds a message on a
// subject of the old layout (more tokens than journal.<campaign>).
func oldSubjects(ctx context.Context, js jetstream.JetStream) (bool, error) {
	st, err := js.Stream(ctx, StreamName)
	if err != nil {
		return false, msgerr.Errorf("jetstore: stream %s: %w", StreamName, err)
	}
	info, err := st.Info(ctx, jetstream.WithSubjectFilter(events.Prefix+".*.>"))
	if err != nil {
		return false, msgerr.Errorf("jetstore: stream %s: %w", StreamName, err)
	}
	return len(info.State.Subjects) > 0, nil
}

// streamInfo returns the info of a stream, nil when there is none.
func streamInfo(ctx context.Context, js jetstream.JetStream, name string) (*jetstream.StreamInfo, error) {
	st, err := js.Stream(ctx, name)
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, msgerr.Errorf("jetstore: stream %s: %w", name, err)
	}
	return st.CachedInfo(), nil
}

// Migration says what Migrate did.
type Migration struct {
	// Migrated is false when there was nothing to migrate (no stream, or
	// one in the current layout with no migration pending).
	Migrated bool `json:"migrated"`
	// Messages is how many messages the journal holds after the migration,
	// all of them copied from the old layout; Events of them decode as
	// journal events, Foreign do not (copied as they were all the same).
	Messages uint64 `json:"messages"`
	Events   uint64 `json:"events"`
	Foreign  uint64 `json:"foreign"`
	// Campaigns and Sessions count the distinct campaigns and sessions of
	// the events.
	Campaigns int `json:"campaigns"`
	Sessions  int `json:"sessions"`
	// Backup is the stream keeping the old layout's messages.
	Backup string `json:"backup"`
}

// Migrate copies a journal of the old layout into the current one, losing
// nothing, and returns what it did. Steps, each verified before the next;
// an interrupted migration is resumed by running it again:
//
//  1. The old JOURNAL is mirrored into BackupStream, and the mirror is
//     checked message by message (sequence, subject, headers, bytes).
//  2. The backup is made a stream of its own (the mirror is promoted), and
//     only then the old JOURNAL is deleted as a whole (its DenyDelete and
//     DenyPurge forbid removing messages, not the stream; streams cannot
//     be renamed).
//  3. A new JOURNAL (StreamConfig(opts)) receives every message of the
//     backup, in order, each at its very sequence (every copy expects the
//     previous sequence, so sequences, and the checkpoints that name them,
//     stay valid), under journal.<campaign> (the old subject's second
//     token) with its headers but NATS's own and the journal's headers
//     for events.
//  4. The new JOURNAL is checked against the backup: as many messages,
//     each with the same bytes, at the same sequence.
//
// The old stream must have no gaps (it denies deletes, so it has none
// unless changed by hand); a message whose subject has no campaign token
// stops the migration before anything is changed. Run it with nothing else
// writing to the journal.
//
// The migrated journal has one partition (its sequences are kept, so its
// stream is the one JOURNAL): Options.Partitions above 1 is refused with
// ErrPartitions, changing nothing. It keeps the old journal's replicas
// (the backup's, when the old JOURNAL is gone): an Options.Replicas other
// than 0 and those is refused with ErrReplicas, changing nothing.
func Migrate(ctx context.Context, js jetstream.JetStream, opts Options) (Migration, error) {
	m := Migration{Backup: BackupStream}
	if opts.Partitions > 1 {
		return m, msgerr.Errorf("migrate: %w: the old layout migrates into a journal of one partition, its sequences kept; not %d", ErrPartitions, opts.Partitions)
	}
	if err := checkReplicas(opts.Replicas); err != nil {
		return m, err
	}
	journal, err := streamInfo(ctx, js, StreamName)
	if err != nil {
		return m, err
	}
	backup, err := streamInfo(ctx, js, BackupStream)
	if err != nil {
		return m, err
	}
	existing := journal
	if existing == nil {
		existing = backup
	}
	if opts.Replicas, err = journalReplicas([]*jetstream.StreamInfo{existing}, opts.Replicas); err != nil {
		return m, err
	}
	current := journal != nil && !oldLayout(journal.Config)
	if current && backup != nil {
		old, err := oldSubjects(ctx, js)
		if err != nil {
			return m, err
		}
		if old {
			return m, msgerr.Errorf("migrate: stream %s holds messages of the old layout beside the backup %s: check them, delete %s by hand, and migrate again", StreamName, BackupStream, StreamName)
		}
	}
	if journal == nil && backup == nil || current && backup == nil ||
		current && backup.Config.Mirror == nil && journal.State.LastSeq >= backup.State.LastSeq {
		return Migration{}, nil // nothing to migrate, or migrated already
	}
	if journal != nil && oldLayout(journal.Config) {
		if backup != nil && backup.Config.Mirror == nil {
			return m, msgerr.Errorf("migrate: a stream %s is already there beside the old-layout %s: check it and delete it by hand, then migrate again; nothing was changed", BackupStream, StreamName)
		}
		if err := checkOld(ctx, js, journal); err != nil {
			return m, err
		}
		if err := backUp(ctx, js, journal, opts); err != nil {
			return m, err
		}
		if err := js.DeleteStream(ctx, StreamName); err != nil {
			return m, msgerr.Errorf("migrate: delete the old stream %s (its copy is in %s): %w", StreamName, BackupStream, err)
		}
		journal = nil
	} else if backup.Config.Mirror != nil {
		return m, msgerr.Errorf("migrate: %s is still a mirror of a stream %s that is gone: check it by hand", BackupStream, StreamName)
	}
	if journal == nil {
		if err := createEmpty(ctx, js, StreamConfig(opts)); err != nil {
			return m, err
		}
	}
	if err := copyBackup(ctx, js); err != nil {
		return m, err
	}
	if err := verifyCopy(ctx, js, &m); err != nil {
		return m, err
	}
	m.Migrated = true
	return m, nil
}

// createEmpty creates the new JOURNAL stream, empty. nats-server v2.15.2
// removes a deleted stream's files after answering the delete: a stream
// created again at once under the same name can come back with the
// deleted one's messages. Those are the old stream's, kept in the
// verified backup: the stream is deleted again until it comes back empty.
func createEmpty(ctx context.Context, js jetstream.JetStream, cfg jetstream.StreamConfig) error {
	for attempt := 1; ; attempt++ {
		st, err := js.CreateStream(ctx, cfg)
		if err != nil {
			return msgerr.Errorf("migrate: create stream %s: %w", StreamName, err)
		}
		if state := st.CachedInfo().State; state.Msgs == 0 && state.LastSeq == 0 {
			return nil
		}
		if attempt == 50 {
			return msgerr.Errorf("migrate: stream %s comes back with the messages of the one deleted; the backup %s holds them: migrate again", StreamName, BackupStream)
		}
		if err := js.DeleteStream(ctx, StreamName); err != nil {
			return msgerr.Errorf("migrate: delete stream %s: %w", StreamName, err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// checkOld checks that every message of the old stream can be copied: no
// gaps, a campaign token in every subject.
func checkOld(ctx context.Context, js jetstream.JetStream, info *jetstream.StreamInfo) error {
	st := info.State
	if st.Msgs != 0 && (st.FirstSeq != 1 || st.Msgs != st.LastSeq) {
		return msgerr.Errorf("migrate: stream %s has gaps (%d messages from %d to %d): its sequences cannot be kept; nothing was changed", StreamName, st.Msgs, st.FirstSeq, st.LastSeq)
	}
	return eachRaw(ctx, js, StreamName, st.LastSeq, func(msg jetstream.Msg, seq uint64) error {
		if _, err := newSubject(msg.Subject()); err != nil {
			return msgerr.Errorf("migrate: sequence %d: %w; nothing was changed", seq, err)
		}
		return nil
	})
}

// newSubject returns the current layout's subject for an old one:
// journal.<campaign> from journal.<campaign>.<anything>.
func newSubject(old string) (string, error) {
	parts := strings.SplitN(old, ".", 3)
	if len(parts) < 2 || parts[0] != events.Prefix {
		return "", msgerr.Errorf("subject %q has no campaign token", old)
	}
	s, err := events.CampaignSubject(parts[1])
	if err != nil {
		return "", msgerr.Errorf("subject %q: %w", old, err)
	}
	return s, nil
}

// backUp mirrors the old stream into BackupStream, waits for the mirror to
// hold every message, checks each, and promotes the mirror to a stream of
// its own.
func backUp(ctx context.Context, js jetstream.JetStream, old *jetstream.StreamInfo, opts Options) error {
	cfg := jetstream.StreamConfig{
		Name:         BackupStream,
		Description:  "the journal's messages in the old layout, kept by `journal migrate`",
		Mirror:       &jetstream.StreamSource{Name: StreamName},
		Retention:    jetstream.LimitsPolicy,
		MaxConsumers: -1, MaxMsgs: -1, MaxBytes: -1, MaxMsgsPerSubject: -1,
		Storage:     jetstream.FileStorage,
		Replicas:    max(old.Config.Replicas, 1),
		DenyDelete:  true,
		DenyPurge:   true,
		AllowDirect: true,
	}
	if _, err := js.CreateOrUpdateStream(ctx, cfg); err != nil {
		return msgerr.Errorf("migrate: backup stream %s: %w", BackupStream, err)
	}
	last := old.State.LastSeq
	for {
		info, err := streamInfo(ctx, js, BackupStream)
		if err != nil {
			return err
		}
		if info.State.LastSeq >= last {
			break
		}
		select {
		case <-ctx.Done():
			return msgerr.Errorf("migrate: waiting for the backup (%d of %d messages): %w", info.State.LastSeq, last, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
	if err := compareStreams(ctx, js, StreamName, BackupStream, last, func(a, b jetstream.Msg) error {
		if a.Subject() != b.Subject() || !sameHeaders(a.Headers(), b.Headers()) {
			return msgerr.New("subject or headers differ")
		}
		return nil
	}); err != nil {
		return msgerr.Errorf("migrate: the backup %s is not a copy of %s: %w; nothing was removed", BackupStream, StreamName, err)
	}
	if err := unchanged(ctx, js, last); err != nil {
		return err
	}
	cfg.Mirror = nil
	if _, err := js.UpdateStream(ctx, cfg); err != nil {
		return msgerr.Errorf("migrate: promote the backup %s: %w; nothing was removed", BackupStream, err)
	}
	return unchanged(ctx, js, last)
}

// unchanged checks that the old stream and its backup both still end at
// sequence last: that nothing wrote to the journal during the migration.
func unchanged(ctx context.Context, js jetstream.JetStream, last uint64) error {
	for _, name := range []string{StreamName, BackupStream} {
		info, err := streamInfo(ctx, js, name)
		if err != nil {
			return err
		}
		if info == nil || info.State.LastSeq != last {
			return msgerr.Errorf("migrate: stream %s changed during the migration (something writes to the journal: stop it and migrate again); nothing was removed", name)
		}
	}
	return nil
}

// sameHeaders compares the headers a mirror keeps (the server adds none of
// the origin's own to a mirrored message but may add its own Nats-* ones).
func sameHeaders(a, b nats.Header) bool {
	for k, v := range a {
		if strings.HasPrefix(k, "Nats-") {
			continue
		}
		if strings.Join(b[k], "\x00") != strings.Join(v, "\x00") {
			return false
		}
	}
	return true
}

// copyBackup publishes every message of the backup that the new JOURNAL
// does not hold yet, in order, each expecting the previous sequence so that
// it lands at its own.
func copyBackup(ctx context.Context, js jetstream.JetStream) error {
	backup, err := streamInfo(ctx, js, BackupStream)
	if err != nil {
		return err
	}
	journal, err := streamInfo(ctx, js, StreamName)
	if err != nil {
		return err
	}
	from := journal.State.LastSeq + 1
	if journal.State.LastSeq > backup.State.LastSeq {
		return msgerr.Errorf("migrate: %s holds %d messages, more than the %d of the backup %s", StreamName, journal.State.LastSeq, backup.State.LastSeq, BackupStream)
	}
	const window = 256
	type copying struct {
		f   jetstream.PubAckFuture
		seq uint64
	}
	var pending []copying
	wait := func(n int) error {
		for len(pending) > n {
			select {
			case ack := <-pending[0].f.Ok():
				if ack.Sequence != pending[0].seq || ack.Duplicate {
					return msgerr.Errorf("migrate: copy of sequence %d stored at %d (duplicate %v)", pending[0].seq, ack.Sequence, ack.Duplicate)
				}
			case err := <-pending[0].f.Err():
				return msgerr.Errorf("migrate: copy sequence %d: %w", pending[0].seq, err)
			case <-ctx.Done():
				return ctx.Err()
			}
			pending = pending[1:]
		}
		return nil
	}
	err = eachRawFrom(ctx, js, BackupStream, from, backup.State.LastSeq, func(msg jetstream.Msg, seq uint64) error {
		out, err := migratedMsg(msg)
		if err != nil {
			return err
		}
		f, err := js.PublishMsgAsync(out, jetstream.WithExpectLastSequence(seq-1))
		if err != nil {
			return msgerr.Errorf("migrate: copy sequence %d: %w", seq, err)
		}
		pending = append(pending, copying{f, seq})
		return wait(window)
	})
	if err != nil {
		return err
	}
	return wait(0)
}

// migratedMsg is an old message in the current layout: its campaign's
// subject, its bytes, its headers but NATS's own (Nats-Msg-Id, the
// expectations it was stored with), and the journal's headers when it is
// an event.
func migratedMsg(msg jetstream.Msg) (*nats.Msg, error) {
	subject, err := newSubject(msg.Subject())
	if err != nil {
		return nil, err
	}
	out := &nats.Msg{Subject: subject, Data: msg.Data(), Header: nats.Header{}}
	for k, v := range msg.Headers() {
		if !strings.HasPrefix(k, "Nats-") {
			out.Header[k] = v
		}
	}
	if e, err := events.Decode(msg.Data()); err == nil {
		out.Header.Set(events.HeaderType, e.Type)
		if kind, id, err := e.Aggregate(); err == nil {
			out.Header.Set(events.HeaderAggregate, events.AggregateHeaderValue(kind, id))
		}
	}
	return out, nil
}

// verifyCopy checks the new JOURNAL against the backup, message by message,
// and counts what it holds.
func verifyCopy(ctx context.Context, js jetstream.JetStream, m *Migration) error {
	backup, err := streamInfo(ctx, js, BackupStream)
	if err != nil {
		return err
	}
	journal, err := streamInfo(ctx, js, StreamName)
	if err != nil {
		return err
	}
	if journal.State.Msgs != backup.State.Msgs || journal.State.LastSeq != backup.State.LastSeq {
		return msgerr.Errorf("migrate: %s holds %d messages up to %d, the backup %s %d up to %d", StreamName,
			journal.State.Msgs, journal.State.LastSeq, BackupStream, backup.State.Msgs, backup.State.LastSeq)
	}
	campaigns := map[string]bool{}
	sessions := map[string]bool{}
	err = compareStreams(ctx, js, BackupStream, StreamName, backup.State.LastSeq, func(old, cur jetstream.Msg) error {
		want, err := newSubject(old.Subject())
		if err != nil || cur.Subject() != want {
			return msgerr.Errorf("subject %q for %q", cur.Subject(), old.Subject())
		}
		m.Messages++
		rec, err := events.DecodeRecorded(0, cur.Subject(), cur.Data())
		if err != nil {
			m.Foreign++
			return nil
		}
		m.Events++
		campaigns[rec.Event.Campaign] = true
		if rec.Event.Session != "" {
			sessions[rec.Event.Campaign+"/"+rec.Event.Session] = true
		}
		return nil
	})
	if err != nil {
		return msgerr.Errorf("migrate: %s is not a copy of the backup %s: %w", StreamName, BackupStream, err)
	}
	m.Campaigns, m.Sessions = len(campaigns), len(sessions)
	return nil
}

// compareStreams reads streams a and b side by side up to sequence last and
// checks that each sequence holds the same bytes in both, and what same
// says about the pair.
func compareStreams(ctx context.Context, js jetstream.JetStream, a, b string, last uint64, same func(a, b jetstream.Msg) error) error {
	if last == 0 {
		return nil
	}
	ca, stopA, err := orderedRaw(ctx, js, a, 1)
	if err != nil {
		return err
	}
	defer stopA()
	cb, stopB, err := orderedRaw(ctx, js, b, 1)
	if err != nil {
		return err
	}
	defer stopB()
	for seq := uint64(1); seq <= last; seq++ {
		ma, sa, err := nextRaw(ctx, ca)
		if err != nil {
			return msgerr.Errorf("read %s: %w", a, err)
		}
		mb, sb, err := nextRaw(ctx, cb)
		if err != nil {
			return msgerr.Errorf("read %s: %w", b, err)
		}
		if sa != seq || sb != seq {
			return msgerr.Errorf("sequence %d: found %d in %s and %d in %s", seq, sa, a, sb, b)
		}
		if string(ma.Data()) != string(mb.Data()) {
			return msgerr.Errorf("sequence %d: the bytes differ", seq)
		}
		if err := same(ma, mb); err != nil {
			return msgerr.Errorf("sequence %d: %w", seq, err)
		}
	}
	return nil
}

// eachRaw calls fn for every message of a stream up to sequence last.
func eachRaw(ctx context.Context, js jetstream.JetStream, stream string, last uint64, fn func(jetstream.Msg, uint64) error) error {
	return eachRawFrom(ctx, js, stream, 1, last, fn)
}

func eachRawFrom(ctx context.Context, js jetstream.JetStream, stream string, from, last uint64, fn func(jetstream.Msg, uint64) error) error {
	if from > last {
		return nil
	}
	it, stop, err := orderedRaw(ctx, js, stream, from)
	if err != nil {
		return err
	}
	defer stop()
	for {
		msg, seq, err := nextRaw(ctx, it)
		if err != nil {
			return msgerr.Errorf("read %s: %w", stream, err)
		}
		if seq > last {
			return nil
		}
		if err := fn(msg, seq); err != nil {
			return err
		}
		if seq == last {
			return nil
		}
	}
}

type rawIter struct{ ch chan rawNext }

type rawNext struct {
	msg jetstream.Msg
	err error
}

// orderedRaw starts an ordered consumer on every subject of a stream from
// sequence from.
func orderedRaw(ctx context.Context, js jetstream.JetStream, stream string, from uint64) (*rawIter, func(), error) {
	cons, err := js.OrderedConsumer(ctx, stream, jetstream.OrderedConsumerConfig{
		DeliverPolicy: jetstream.DeliverByStartSequencePolicy, OptStartSeq: from,
	})
	if err != nil {
		return nil, nil, msgerr.Errorf("read %s: %w", stream, err)
	}
	msgs, err := cons.Messages()
	if err != nil {
		return nil, nil, msgerr.Errorf("read %s: %w", stream, err)
	}
	it := &rawIter{ch: make(chan rawNext)}
	done := make(chan struct{})
	go func() {
		for {
			msg, err := msgs.Next()
			select {
			case it.ch <- rawNext{msg, err}:
			case <-done:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	stop := func() {
		close(done)
		msgs.Stop()
		ctx, cancel := context.WithTimeout(context.Background(), dropConsumerTimeout)
		defer cancel()
		if info := cons.CachedInfo(); info != nil {
			_ = js.DeleteConsumer(ctx, stream, info.Name)
		}
	}
	return it, stop, nil
}

// nextRaw returns the next message and its stream sequence.
func nextRaw(ctx context.Context, it *rawIter) (jetstream.Msg, uint64, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	select {
	case n := <-it.ch:
		if n.err != nil {
			return nil, 0, n.err
		}
		meta, err := n.msg.Metadata()
		if err != nil {
			return nil, 0, err
		}
		return n.msg, meta.Sequence.Stream, nil
	case <-ctx.Done():
		return nil, 0, ctx.Err()
	}
}
