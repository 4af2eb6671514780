// Package jetstore is the journal's event store on NATS JetStream: every
// event is one message of the stream JOURNAL under its campaign's subject
// journal.<campaign> (events.CampaignSubject), with the headers
// Journal-Type and Journal-Aggregate, and session secrets live in the
// key-value bucket journal_secrets. A journal created with k > 1
// partitions keeps each campaign in the stream JOURNAL-<p> of its
// partition p = events.Partition(campaign, k), under journal.<p>.<campaign>
// (see Partitions in partitions.go); k is fixed at creation.
//
// Invariants:
//   - Only documents that pass the codec (events.Prepare: encode, decode) are
//     published, with Content-Type application/cloudevents+json. A retried
//     append is stored once. An append with an Expect (every command's)
//     sends no Nats-Msg-Id (DESIGN §2, turn 3): a repeat of one that was
//     stored is refused for its now stale expectation, and the store finds
//     the original by reading the campaign's subject after the expected
//     sequence (at any age), returning its original sequences. An append
//     without an Expect carries Nats-Msg-Id = the event id, and the server
//     drops a repeat within the duplicate window (at least two minutes).
//   - An append with an Expect carries Nats-Expected-Last-Subject-Sequence
//     on its first message, checked by the server on that message's literal
//     subject, the campaign's (never the wildcard -Subject form, whose check
//     visits every subject under it); several events go in one atomic batch
//     (all stored, contiguously, or none).
//   - The stream denies delete and purge and has no limits: events are never
//     removed.
//   - Reads decode every message. A message that is not a journal event of
//     its subject (published into the stream directly, not by Append) is
//     never passed on as an event and never ends a read: it is reported to
//     Query.OnForeign in its place and the read goes on past it.
//   - The stream has no RePublish: users follow a campaign through the
//     journal (`serve`'s live feed and history reads; no user reaches the
//     JetStream API, see package access); StartGuard deletes any consumer
//     of it that is not what an ordered consumer is (durable, push,
//     long-lived), in case an operator's tool made one.
//   - The journal's number of replicas, like its partitions, is fixed
//     when it is created: Open never changes an existing stream's or
//     bucket's replicas, and refuses an Options.Replicas other than the
//     journal's with ErrReplicas, changing nothing (see replicas.go).
//   - Open refuses a stream of the old layout (an event per subject
//     journal.<campaign>.<kind>.<id>.<event>, with a republished feed)
//     with ErrOldLayout, changing nothing; Migrate copies it into the
//     current layout.
package jetstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/synadia-io/orbit.go/jetstreamext"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// Names of what Open creates.
const (
	StreamName    = "JOURNAL"
	SecretsBucket = "journal_secrets"
	// CheckpointsBucket holds the projections' checkpoints (package live
	// opens it; named here, with the journal's other names, so that a
	// backup finds it without importing the projector).
	CheckpointsBucket = "journal_checkpoints"
)

// DefaultDuplicates is the stream's deduplication window unless Options say
// more; it is also the least allowed.
const DefaultDuplicates = 2 * time.Minute

// readBatch is how many messages one direct-get request asks for, and
// readMaxBytes roughly bounds the bytes it returns: the memory of a read.
const (
	readBatch    = 256
	readMaxBytes = 4 << 20
)

// requestTimeout bounds a server request when the context has no deadline;
// dropConsumerTimeout bounds the best-effort delete of a finished read's
// consumer.
const (
	requestTimeout      = 10 * time.Second
	dropConsumerTimeout = 2 * time.Second
)

// JetStream API error codes the store interprets.
const (
	errCodeNoMessageFound     jetstream.ErrorCode = 10037
	errCodeBatchDuplicateMsg  jetstream.ErrorCode = 10201
	errCodeWrongLastSeq                           = jetstream.JSErrCodeStreamWrongLastSequence         // 10071
	errCodeWrongLastSeqCommon                     = jetstream.JSErrCodeStreamWrongLastSequenceConstant // 10164, replicated streams
)

// Options configures Open.
type Options struct {
	// Replicas is the journal's number of replicas (of its streams and
	// the secrets bucket), fixed when it is created: 0 takes the journal's
	// (1 for a new one; give 3 to create a journal on a cluster); any
	// other value must be the journal's, else Open fails with ErrReplicas.
	Replicas int
	// Duplicates is the deduplication window; 0 means DefaultDuplicates.
	// Less than DefaultDuplicates is refused.
	Duplicates time.Duration
	// Partitions is the journal's number of partitions, fixed when its
	// streams are created: 0 takes the journal's (1 for a new one); any
	// other value must be the journal's, else Open fails with ErrPartitions.
	Partitions int
}

// StreamConfig returns the configuration of the JOURNAL stream (a journal
// of one partition).
func StreamConfig(opts Options) jetstream.StreamConfig {
	if opts.Replicas <= 0 {
		opts.Replicas = 1
	}
	if opts.Duplicates == 0 {
		opts.Duplicates = DefaultDuplicates
	}
	return jetstream.StreamConfig{
		Name:               StreamName,
		Description:        "the campaign journal: every fact of play, immutable",
		Subjects:           []string{events.StreamSubjects},
		Retention:          jetstream.LimitsPolicy,
		MaxConsumers:       -1,
		MaxMsgs:            -1,
		MaxBytes:           -1,
		MaxAge:             0,
		MaxMsgsPerSubject:  -1,
		MaxMsgSize:         1 << 20,
		Discard:            jetstream.DiscardNew,
		Storage:            jetstream.FileStorage,
		Replicas:           opts.Replicas,
		Duplicates:         opts.Duplicates,
		DenyDelete:         true,
		DenyPurge:          true,
		AllowDirect:        true,
		AllowAtomicPublish: true,
	}
}

// PartitionStreamConfig returns the configuration of partition p's stream
// in a journal of k > 1 partitions: StreamConfig's, named JOURNAL-<p>,
// capturing journal.<p>.*, with k in its metadata.
func PartitionStreamConfig(opts Options, p, k int) jetstream.StreamConfig {
	cfg := StreamConfig(opts)
	if k <= 1 {
		return cfg
	}
	cfg.Name = PartitionStream(p)
	cfg.Description = fmt.Sprintf("the campaign journal, partition %d of %d: every fact of play, immutable", p, k)
	cfg.Subjects = []string{events.PartitionStreamSubjects(p, k)}
	cfg.Metadata = map[string]string{PartitionsKey: strconv.Itoa(k)}
	return cfg
}

// Store is the JetStream event store. It holds no context; every call takes one.
type Store struct {
	js jetstream.JetStream
	// pub publishes single-event appends asynchronously (see publish); its
	// acknowledgements time out after requestTimeout.
	pub    jetstream.JetStream
	nc     *nats.Conn
	kv     jetstream.KeyValue
	prefix string // JetStream API prefix, ending in "."
	// k is the journal's number of partitions, streams the names of its
	// streams (StreamNames(k)), partition p's at index p.
	k       int
	streams []string
	// only is 1 + the partition of a Partition view, 0 otherwise.
	only int
	// replicas is the journal's number of replicas.
	replicas int
}

// Replicas returns the journal's number of replicas, fixed when it was
// created.
func (s *Store) Replicas() int { return s.replicas }

// Partitions returns the journal's number of partitions: 1 for a
// Partition view.
func (s *Store) Partitions() int {
	if s.only != 0 {
		return 1
	}
	return s.k
}

// Open creates the journal's streams (JOURNAL, or JOURNAL-0 …
// JOURNAL-<k-1> for k = Options.Partitions > 1 on a new journal) and the
// secrets bucket, or updates those that have other settings than the
// journal's (keeping their replicas), and returns the store. A stream of
// the old layout is left as it is: the error wraps ErrOldLayout (run
// Migrate). A Partitions or Replicas that disagrees with the journal's is
// refused, changing nothing: the error wraps ErrPartitions or ErrReplicas.
// Opening a journal whose streams and bucket have its settings changes
// nothing (no update is sent).
func Open(ctx context.Context, js jetstream.JetStream, opts Options) (*Store, error) {
	if opts.Duplicates != 0 && opts.Duplicates < DefaultDuplicates {
		return nil, msgerr.Errorf("jetstore: duplicate window %v is less than %v", opts.Duplicates, DefaultDuplicates)
	}
	if err := checkReplicas(opts.Replicas); err != nil {
		return nil, err
	}
	if opts.Partitions != 0 {
		if err := events.ValidPartitions(opts.Partitions); err != nil {
			return nil, msgerr.Errorf("jetstore: %w", err)
		}
	}
	if err := checkLayout(ctx, js); err != nil {
		return nil, err
	}
	k, err := Partitions(ctx, js)
	if err != nil {
		return nil, err
	}
	switch {
	case k == 0:
		k = max(opts.Partitions, 1)
	case opts.Partitions != 0 && opts.Partitions != k:
		return nil, msgerr.Errorf("jetstore: %w: this journal has %d, not %d (the number of partitions is fixed when the journal is created)", ErrPartitions, k, opts.Partitions)
	}
	infos := make([]*jetstream.StreamInfo, k)
	for p, name := range StreamNames(k) {
		if infos[p], err = streamInfo(ctx, js, name); err != nil {
			return nil, err
		}
	}
	if opts.Replicas, err = journalReplicas(infos, opts.Replicas); err != nil {
		return nil, err
	}
	for p := range k {
		cfg := PartitionStreamConfig(opts, p, k)
		if err := ensureStream(ctx, js, infos[p], cfg); err != nil {
			return nil, msgerr.Errorf("jetstore: stream %s: %w", cfg.Name, err)
		}
	}
	kv, err := OpenKeyValue(ctx, js, jetstream.KeyValueConfig{
		Bucket:      SecretsBucket,
		Description: "session secrets, written once",
		History:     1,
		Storage:     jetstream.FileStorage,
		Replicas:    opts.Replicas,
	})
	if err != nil {
		return nil, msgerr.Errorf("jetstore: bucket %s: %w", SecretsBucket, err)
	}
	if err := writeOnce(ctx, js); err != nil {
		return nil, err
	}
	prefix := apiPrefix(js.Options())
	pub, err := jetstream.NewWithAPIPrefix(js.Conn(), prefix, jetstream.WithPublishAsyncTimeout(requestTimeout))
	if err != nil {
		return nil, msgerr.Errorf("jetstore: %w", err)
	}
	return &Store{js: js, pub: pub, nc: js.Conn(), kv: kv, prefix: prefix, k: k, streams: StreamNames(k), replicas: opts.Replicas}, nil
}

func apiPrefix(o jetstream.JetStreamOptions) string {
	switch {
	case o.APIPrefix != "":
		return strings.TrimSuffix(o.APIPrefix, ".") + "."
	case o.Domain != "":
		return "$JS." + o.Domain + ".API."
	}
	return jetstream.DefaultAPIPrefix
}

// withTimeout gives ctx a deadline if it has none.
func withTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, requestTimeout)
}

// Append stores evs atomically (see the contract in package events) and
// returns their stream sequences. A stale expect returns an error wrapping
// events.ErrConcurrency; events already stored return their original
// sequences.
func (s *Store) Append(ctx context.Context, expect events.Expect, evs ...events.Event) ([]uint64, error) {
	docs, err := events.Prepare(expect, evs)
	if err != nil {
		return nil, err
	}
	msgs := make([]*nats.Msg, len(evs))
	for i, e := range evs {
		subject := e.StreamSubject // one partition: stored as it is (Prepare checked it)
		if s.k > 1 {
			if subject, err = s.storedSubject(e.StreamSubject); err != nil {
				return nil, msgerr.Errorf("%w: event %s: %w", events.ErrInvalidEvent, e.ID, err)
			}
		}
		if i > 0 && s.k > 1 && subject != msgs[0].Subject && s.targets(e.StreamSubject)[0].stream != s.targets(evs[0].StreamSubject)[0].stream {
			return nil, msgerr.Errorf("%w: an atomic append of %s and %s spans two partitions' streams", events.ErrInvalidEvent, evs[0].Campaign, e.Campaign)
		}
		// The expectation is on the first message's own subject, which
		// Prepare checked is expect.Subject.
		msgs[i] = eventMsg(e, subject, docs[i], i == 0 && expect.IsSet(), !expect.IsSet(), expect.LastSeq)
	}

	if len(msgs) == 1 {
		ack, err := s.publish(ctx, msgs[0])
		if err == nil {
			return []uint64{ack.Sequence}, nil // a duplicate's ack has the original sequence
		}
		if apiCode(err) == errCodeWrongLastSeq || apiCode(err) == errCodeWrongLastSeqCommon {
			return s.afterRefusal(ctx, expect, evs, err)
		}
		return nil, msgerr.Errorf("append %s: %w", evs[0].ID, err)
	}

	ack, err := jetstreamext.PublishMsgBatch(ctx, s.js, msgs)
	if err == nil {
		// The batch is stored contiguously and ends at ack.Sequence.
		first := ack.Sequence - uint64(len(msgs)) + 1
		seqs := make([]uint64, len(msgs))
		for i := range seqs {
			seqs[i] = first + uint64(i)
		}
		return seqs, nil
	}
	switch apiCode(err) {
	case errCodeWrongLastSeq, errCodeWrongLastSeqCommon, errCodeBatchDuplicateMsg:
		return s.afterRefusal(ctx, expect, evs, err)
	}
	return nil, msgerr.Errorf("append batch of %d from %s: %w", len(evs), evs[0].ID, err)
}

// eventMsg is the message that stores an event: its document under its
// campaign's subject, with Content-Type application/cloudevents+json, its
// type and aggregate in the journal's headers, when withID its id as
// Nats-Msg-Id, and, when expect, the expectation that the last sequence on
// that subject is lastSeq
// (Nats-Expected-Last-Subject-Sequence, as
// jetstream.WithExpectLastSequencePerSubject writes it). The headers are
// those nats.Header.Set would make, without its canonicalization (the
// names are canonical already: TestEventMsgHeaders).
func eventMsg(e events.Event, subject string, doc []byte, expect, withID bool, lastSeq uint64) *nats.Msg {
	h := make(nats.Header, 5)
	h[contentTypeHeader] = contentType
	if withID {
		h[jetstream.MsgIDHeader] = []string{e.ID}
	}
	h[events.HeaderType] = []string{e.Type}
	if kind, id, err := e.Aggregate(); err == nil { // valid: Prepare checked it
		h[events.HeaderAggregate] = []string{events.AggregateHeaderValue(kind, id)}
	}
	if expect {
		h[jetstream.ExpectedLastSubjSeqHeader] = []string{strconv.FormatUint(lastSeq, 10)}
	}
	return &nats.Msg{Subject: subject, Data: doc, Header: h}
}

// contentTypeHeader and contentType are every event message's
// Content-Type: a structured-mode CloudEvent (CloudEvents' NATS binding).
const contentTypeHeader = "Content-Type"

var contentType = []string{events.MediaType}

// publish stores one message and returns the server's acknowledgement: it
// returns only once the server has acknowledged (or refused) the message,
// the context is done, or requestTimeout has passed without an answer, as
// a synchronous publish does. It publishes asynchronously and waits on the
// acknowledgement's future rather than making a request: concurrent
// appends then share one reply subscription instead of each paying a
// request's inbox, timer and response routing, which bench measured at
// about a third of the throughput of many concurrent appends. Like a
// synchronous publish, it publishes again (same message, same id) when
// the stream has no responder yet, during a leader election.
func (s *Store) publish(ctx context.Context, m *nats.Msg, opts ...jetstream.PublishOpt) (*jetstream.PubAck, error) {
	f, err := s.pub.PublishMsgAsync(m, opts...)
	if err != nil {
		return nil, err
	}
	select {
	case ack := <-f.Ok():
		return ack, nil
	case err := <-f.Err():
		return nil, err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// afterRefusal decides what a refused append means. The server checks the
// expected sequence before the message id on a single node, so a retry of
// an append that was stored comes back as a wrong last sequence (and a
// retried batch as "contains duplicate message id"): look in the stream for
// each event. All stored: the append had succeeded, and these are its
// sequences. None: a real conflict.
func (s *Store) afterRefusal(ctx context.Context, expect events.Expect, evs []events.Event, cause error) ([]uint64, error) {
	from := uint64(1)
	if expect.IsSet() {
		// Stored under this very expectation, an event came after LastSeq.
		from = expect.LastSeq + 1
	}
	seqs := make([]uint64, len(evs))
	stored := 0
	for i, e := range evs {
		seq, err := s.storedSeq(ctx, e, from)
		if err != nil {
			return nil, err
		}
		if seq != 0 {
			seqs[i] = seq
			stored++
		}
	}
	switch {
	case stored == len(evs):
		return seqs, nil
	case stored > 0:
		return nil, msgerr.Errorf("%w: %d of %d events of the append are already stored", events.ErrInvalidEvent, stored, len(evs))
	case apiCode(cause) == errCodeBatchDuplicateMsg:
		return nil, msgerr.Errorf("append: %w", cause)
	}
	return nil, msgerr.Errorf("%w: last sequence on %s is not %d: %w", events.ErrConcurrency, expect.Subject, expect.LastSeq, cause)
}

// errFound ends the read of storedSeq.
var errFound = msgerr.New("found")

// storedSeq returns the sequence of event e if the stream holds it at
// sequence from or later, or 0. It reads the messages of e's own subject
// from there up to the leader's last one (a lagging replica cannot make it
// miss the event).
//
// It reads rather than asking the server with a probe publish (the event
// again, with a Nats-Expected-Last-Msg-Id no message has, which the server
// answers with the original sequence of a duplicate): on a replicated
// stream, nats-server v2.15.2 stops answering for the stream after such a
// refusal (TestExpectedLastMsgIDWedgesReplicatedStream in events/cluster).
// Reading also finds events older than the duplicate window.
func (s *Store) storedSeq(ctx context.Context, e events.Event, from uint64) (uint64, error) {
	var found uint64
	_, err := s.read(ctx, s.targets(e.StreamSubject)[0], events.Query{Subject: e.StreamSubject}, from, func(r events.Recorded) error {
		if r.Event.ID == e.ID {
			found = r.Seq
			return errFound
		}
		return nil
	})
	if err != nil && !errors.Is(err, errFound) {
		return 0, msgerr.Errorf("append %s: look for it in the stream: %w", e.ID, err)
	}
	return found, nil
}

// apiCode returns the JetStream API error code in err, or 0.
func apiCode(err error) jetstream.ErrorCode {
	var apiErr *jetstream.APIError
	if errors.As(err, &apiErr) {
		return apiErr.ErrorCode
	}
	return 0
}

// Last returns the last stream sequence on a subject filter, 0 when none.
// It asks the stream leader (not a direct get), so it is current on a
// cluster. On a filter over the streams of several partitions it is the
// sum of their last sequences on it (see Partitions).
func (s *Store) Last(ctx context.Context, filter string) (uint64, error) {
	if err := events.ValidFilter(filter); err != nil {
		return 0, err
	}
	var sum uint64
	for _, t := range s.targets(filter) {
		last, err := s.lastOn(ctx, t.stream, t.filter)
		if err != nil {
			return 0, err
		}
		sum += last
	}
	return sum, nil
}

// lastOn is Last on one stream, the filter in its subjects.
func (s *Store) lastOn(ctx context.Context, stream, filter string) (uint64, error) {
	m, err := s.lastMsg(ctx, stream, filter)
	if err != nil || m == nil {
		return 0, err
	}
	return m.Seq, nil
}

// storedMsg is a message as a direct get answers it (no headers).
type storedMsg struct {
	Subject string `json:"subject"`
	Seq     uint64 `json:"seq"`
	Data    []byte `json:"data"`
}

// lastMsg returns the last message on filter in one stream, nil when there
// is none: one direct get to the stream's leader (last_by_subj), so it is
// current on a cluster.
func (s *Store) lastMsg(ctx context.Context, stream, filter string) (*storedMsg, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	req, err := json.Marshal(struct {
		LastFor   string `json:"last_by_subj"`
		NoHeaders bool   `json:"no_hdr"`
	}{filter, true})
	if err != nil {
		return nil, err
	}
	resp, err := s.nc.RequestWithContext(ctx, s.prefix+"STREAM.MSG.GET."+stream, req)
	if err != nil {
		return nil, msgerr.Errorf("last on %s: %w", filter, err)
	}
	var r struct {
		Error   *jetstream.APIError `json:"error"`
		Message *storedMsg          `json:"message"`
	}
	if err := json.Unmarshal(resp.Data, &r); err != nil {
		return nil, msgerr.Errorf("last on %s: %w", filter, err)
	}
	switch {
	case r.Error != nil && r.Error.ErrorCode == errCodeNoMessageFound:
		return nil, nil
	case r.Error != nil:
		return nil, msgerr.Errorf("last on %s: %w", filter, r.Error)
	case r.Message == nil || r.Message.Seq == 0:
		return nil, msgerr.Errorf("last on %s: empty response", filter)
	}
	return r.Message, nil
}

// Read calls fn for each event matching q in stream order, up to the last
// sequence on the filter when Read was called (or q.To). It fetches
// batches of at most 256 messages (about 4 MiB) by direct get, so memory
// stays bounded. A message that does not decode is reported to
// q.OnForeign and skipped. The first error, from fn or q.OnForeign, or
// from the server, ends it.
//
// On a replicated stream, build an Expect from a read without q.To (or from
// Last): such a read is checked to reach the leader's last sequence, where a
// read bounded by q.To served by a lagging follower may end early.
func (s *Store) Read(ctx context.Context, q events.Query, fn func(events.Recorded) error) error {
	if err := q.Validate(); err != nil {
		return err
	}
	if ts := s.targets(q.Filter()); len(ts) == 1 {
		_, err := s.read(ctx, ts[0], q, max(q.From, 1), fn)
		return err
	}
	return s.fanIn(ctx, q, s.targets(q.Filter()), func(ctx context.Context, t target, q events.Query, fn func(events.Recorded) error) error {
		_, err := s.read(ctx, t, q, max(q.From, 1), fn)
		return err
	}, fn)
}

// read delivers events matching q from sequence next up to the last on the
// filter (and q.To) and returns the sequence after the last one delivered
// or passed.
//
// Direct gets may be answered by any replica, and a follower can be a
// little behind the leader. When the bound is the last sequence on the
// filter (the leader's answer), the read must deliver that very message;
// if a replica ends the read short, the rest is asked again for a while,
// then it is an error, never a silently short read.
func (s *Store) read(ctx context.Context, t target, q events.Query, next uint64, fn func(events.Recorded) error) (uint64, error) {
	filter := t.filter
	last, err := s.lastOn(ctx, t.stream, filter)
	if err != nil {
		return next, err
	}
	upper, mustReach := last, true
	if q.To != 0 && q.To < last {
		upper, mustReach = q.To, false
	}
	for retry := 0; next <= upper; {
		batch, pending, err := s.getBatch(ctx, t.stream, filter, next, int(min(readBatch, upper-next+1)))
		if err != nil {
			return next, err
		}
		if len(batch) == 0 {
			if !mustReach {
				break
			}
			if retry++; retry > shortReadRetries {
				return next, msgerr.Errorf("read %s: stopped at sequence %d, before the last one %d (a replica is behind)", filter, next, upper)
			}
			select {
			case <-ctx.Done():
				return next, ctx.Err()
			case <-time.After(shortReadWait):
			}
			continue
		}
		for _, m := range batch {
			if m.seq > upper {
				return upper + 1, nil
			}
			if err := s.deliverRaw(q, m, fn); err != nil {
				return next, err
			}
			next = m.seq + 1
		}
		if pending > readOrderedAbove && next <= upper {
			return s.readOrdered(ctx, q, t, next, upper, fn)
		}
	}
	return max(next, upper+1), nil
}

// readOrderedAbove is how many messages left to read make read go on
// with an ordered consumer rather than direct gets: a batched direct get
// costs the server about 11 µs a message on a filter, an ordered consumer
// about 3 µs, but creating the consumer costs a round trip or two (see
// bench/RESULTS.md).
const readOrderedAbove = 1024

// readOrdered is read from sequence next up to upper, which the stream
// holds (the leader's last sequence on the filter, or a bound below it),
// through an ordered consumer on the filter. It ends at upper, never
// short: an ordered consumer is served by the stream leader, and a
// message it does not deliver within requestTimeout of saying nothing
// more is pending is an error (while messages are pending, the consumer's
// heartbeats find a lost server).
func (s *Store) readOrdered(ctx context.Context, q events.Query, t target, next, upper uint64, fn func(events.Recorded) error) (uint64, error) {
	// An ordered consumer made while the stream elects a leader, or on a
	// server just restarted, may deliver nothing within its wait: the read
	// goes on from where it stopped with a new consumer, orderedAttempts
	// times, then with batched direct gets, which any replica answers and
	// read retries when short. An error of fn, or of ctx, ends the read.
	for attempt := 1; ; attempt++ {
		n, err := s.readOrderedOnce(ctx, q, t, next, upper, fn)
		var re *orderedReadError
		if err == nil || ctx.Err() != nil || !errors.As(err, &re) {
			return n, err
		}
		next = n
		if attempt == orderedAttempts {
			return s.readDirect(ctx, q, t, next, upper, fn)
		}
		select {
		case <-ctx.Done():
			return next, ctx.Err()
		case <-time.After(time.Duration(attempt) * 200 * time.Millisecond):
		}
	}
}

// orderedAttempts is how many ordered consumers a read makes before it
// reads the rest by direct gets.
const orderedAttempts = 3

// orderedReadError is a read of an ordered consumer that failed on the
// server's side (not fn's): the read may go on from where it stopped.
type orderedReadError struct{ err error }

func (e *orderedReadError) Error() string { return e.err.Error() }
func (e *orderedReadError) Unwrap() error { return e.err }

// readDirect reads from next up to upper (which the stream holds) by
// batched direct gets only.
func (s *Store) readDirect(ctx context.Context, q events.Query, t target, next, upper uint64, fn func(events.Recorded) error) (uint64, error) {
	for retry := 0; next <= upper; {
		batch, _, err := s.getBatch(ctx, t.stream, t.filter, next, int(min(readBatch, upper-next+1)))
		if err != nil {
			return next, err
		}
		if len(batch) == 0 {
			if retry++; retry > shortReadRetries {
				return next, msgerr.Errorf("read %s: stopped at sequence %d, before the last one %d (a replica is behind)", t.filter, next, upper)
			}
			select {
			case <-ctx.Done():
				return next, ctx.Err()
			case <-time.After(shortReadWait):
			}
			continue
		}
		for _, m := range batch {
			if m.seq > upper {
				return upper + 1, nil
			}
			if err := s.deliverRaw(q, m, fn); err != nil {
				return next, err
			}
			next = m.seq + 1
		}
	}
	return max(next, upper+1), nil
}

// deliverRaw decodes a message of a direct get and gives it to fn (a
// message that is no event goes to q's foreign report).
func (s *Store) deliverRaw(q events.Query, m rawMsg, fn func(events.Recorded) error) error {
	rec, err := events.DecodeRecordedOwned(m.seq, s.campaignSubject(m.subject), m.data) // a reply of its own
	if err != nil {
		return q.ReportForeign(err)
	}
	if q.WantsType(rec.Event.Type) {
		return fn(rec)
	}
	return nil
}

// readOrderedOnce is readOrdered with one ordered consumer.
func (s *Store) readOrderedOnce(ctx context.Context, q events.Query, t target, next, upper uint64, fn func(events.Recorded) error) (uint64, error) {
	filter := t.filter
	p, stop, err := s.startOrdered(ctx, t, next, pipeOptions{upper: upper, wait: requestTimeout})
	if err != nil {
		return next, &orderedReadError{msgerr.Errorf("read %s: %w", filter, err)}
	}
	defer stop()
	for next <= upper {
		d, ok := p.deliver(ctx, q, fn)
		if !ok {
			if ctx.Err() != nil {
				return next, ctx.Err()
			}
			return next, &orderedReadError{msgerr.Errorf("read %s: ended at sequence %d of %d", filter, next, upper)}
		}
		if d.last != 0 {
			next = d.last + 1
		}
		if d.err != nil {
			return next, d.err
		}
		if d.readErr != nil {
			return next, &orderedReadError{msgerr.Errorf("read %s: at sequence %d of %d: %w", filter, next, upper, d.readErr)}
		}
	}
	return max(next, upper+1), nil
}

// startOrdered starts an ordered pipeline on an ordered consumer of filter
// from sequence from; stop ends both, the server's side of the consumer
// included (see dropConsumer).
//
// A filter that covers the whole stream (target.whole) makes a consumer
// without a filter: nats-server 2.15 then loads each next message as it
// is (fileStore.LoadNextMsg with no filter, every message a match), where
// a wildcard filter other than the stream's own subject has it match the
// block's subjects for every message it delivers. The pipeline then drops
// a message whose subject the filter does not match (a subject added to
// the stream by hand), so the reader sees what a filtered consumer sends.
// Creating a consumer without a filter takes the stream-wide
// $JS.API.CONSUMER.CREATE.<stream>.<name>, which access denies every user
// (users follow with a filter, access.FollowSubjects): the Store is the
// journal's own connection.
func (s *Store) startOrdered(ctx context.Context, t target, from uint64, o pipeOptions) (p *pipe, stop func(), err error) {
	cfg := jetstream.OrderedConsumerConfig{
		FilterSubjects: []string{t.filter},
		DeliverPolicy:  jetstream.DeliverByStartSequencePolicy,
		OptStartSeq:    from,
	}
	if t.whole {
		cfg.FilterSubjects, o.match = nil, filterTest(t.filter)
	}
	cons, err := s.js.OrderedConsumer(ctx, t.stream, cfg)
	if err != nil {
		return nil, nil, err
	}
	it, err := cons.Messages()
	if err != nil {
		s.dropConsumer(t.stream, cons)
		return nil, nil, err
	}
	o.subject = s.campaignSubject
	p = startPipe(ctx, it, o)
	return p, func() { p.close(); s.dropConsumer(t.stream, cons) }, nil
}

// A read that a replica ends short is retried shortReadRetries times,
// shortReadWait apart.
const (
	shortReadRetries = 20
	shortReadWait    = 100 * time.Millisecond
)

type rawMsg struct {
	seq     uint64
	subject string
	data    []byte
}

// getBatch asks for up to n messages on filter from sequence from, by one
// batched direct get, and collects them (so that a slow callback cannot
// stall the reply). An empty result means no message there. pending is
// how many messages on filter the server counted after the last one
// returned.
func (s *Store) getBatch(ctx context.Context, stream, filter string, from uint64, n int) (batch []rawMsg, pending uint64, err error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	req, err := json.Marshal(struct {
		Seq      uint64 `json:"seq"`
		NextFor  string `json:"next_by_subj"`
		Batch    int    `json:"batch"`
		MaxBytes int    `json:"max_bytes"`
	}{from, filter, n, readMaxBytes})
	if err != nil {
		return nil, 0, err
	}
	inbox := s.nc.NewRespInbox()
	sub, err := s.nc.SubscribeSync(inbox)
	if err != nil {
		return nil, 0, msgerr.Errorf("read %s: %w", filter, err)
	}
	defer sub.Unsubscribe()
	if err := s.nc.PublishRequest(s.prefix+"DIRECT.GET."+stream, inbox, req); err != nil {
		return nil, 0, msgerr.Errorf("read %s: %w", filter, err)
	}
	out := make([]rawMsg, 0, n)
	for {
		m, err := sub.NextMsgWithContext(ctx)
		if err != nil {
			return nil, 0, msgerr.Errorf("read %s from %d: %w", filter, from, err)
		}
		if status := m.Header.Get("Status"); status != "" && len(m.Data) == 0 {
			switch status {
			case "204": // end of batch
				pending, _ := strconv.ParseUint(m.Header.Get(numPendingHeader), 10, 64)
				return out, pending, nil
			case "404": // nothing from there on
				return out, 0, nil
			}
			return nil, 0, msgerr.Errorf("read %s from %d: direct get status %s %s", filter, from, status, m.Header.Get("Description"))
		}
		seq, err := strconv.ParseUint(m.Header.Get(jetstream.SequenceHeader), 10, 64)
		if err != nil {
			return nil, 0, msgerr.Errorf("read %s from %d: bad sequence header: %w", filter, from, err)
		}
		out = append(out, rawMsg{seq: seq, subject: m.Header.Get(jetstream.SubjectHeader), data: m.Data})
	}
}

// numPendingHeader is the header of a batched direct get's messages and
// end of batch saying how many messages on the filter follow.
const numPendingHeader = "Nats-Num-Pending"

// followTick is how often a Follow with q.To checks whether the stream has
// reached To while no event arrives.
const followTick = time.Second

// Follow delivers the events matching q from q.From on, then new ones as
// they are stored, until ctx ends (it returns ctx.Err()). With q.To set it
// delivers up to To and returns nil once the stream has reached To; over
// several partitions' streams, To is refused (ErrPartitions). It
// reads through an ordered consumer on the filter.
func (s *Store) Follow(ctx context.Context, q events.Query, fn func(events.Recorded) error) error {
	if err := q.Validate(); err != nil {
		return err
	}
	if ts := s.targets(q.Filter()); len(ts) == 1 {
		return s.follow(ctx, ts[0], q, fn)
	}
	if q.To != 0 {
		return msgerr.Errorf("jetstore: %w: a follow up to a sequence (To) of several partitions' streams, where To is one stream's sequence: follow one campaign, or read", ErrPartitions)
	}
	return s.fanIn(ctx, q, s.targets(q.Filter()), s.follow, fn)
}

// follow is Follow on one stream.
func (s *Store) follow(ctx context.Context, t target, q events.Query, fn func(events.Recorded) error) error {
	next := max(q.From, 1)
	if q.To != 0 {
		if done, err := s.readToIfReached(ctx, t, q, next, fn); done || err != nil {
			return err
		}
	}
	o := pipeOptions{upper: q.To}
	if q.To != 0 {
		o.wait, o.idle = followTick, true
	}
	p, stop, err := s.startOrdered(ctx, t, next, o)
	if err != nil {
		return msgerr.Errorf("follow %s: %w", q.Filter(), err)
	}
	defer stop()
	for {
		d, ok := p.deliver(ctx, q, fn)
		if !ok {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return msgerr.Errorf("follow %s: ended at sequence %d", q.Filter(), next)
		}
		if d.last != 0 {
			next = d.last + 1
		}
		if d.err != nil || (q.To != 0 && next > q.To) {
			return d.err
		}
		if d.readErr != nil {
			return msgerr.Errorf("follow %s: %w", q.Filter(), d.readErr)
		}
		if d.idle { // nothing on the filter for a while: the stream may be past To
			if done, err := s.readToIfReached(ctx, t, q, next, fn); done || err != nil {
				return err
			}
		}
	}
}

// dropConsumer deletes the server's side of an ordered consumer whose
// reading is over, which the server would otherwise keep for the five
// minutes of its inactivity threshold, three goroutines and its state
// each: a server answering many long reads would pile them up. Failing to
// delete it only leaves it to the threshold, so the wait is short.
func (s *Store) dropConsumer(stream string, cons jetstream.Consumer) {
	info := cons.CachedInfo()
	if info == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), dropConsumerTimeout)
	defer cancel()
	_ = s.js.DeleteConsumer(ctx, stream, info.Name)
}

// readToIfReached finishes a Follow with q.To from sequence next by a read
// if the stream holds To, and reports whether it did.
func (s *Store) readToIfReached(ctx context.Context, t target, q events.Query, next uint64, fn func(events.Recorded) error) (bool, error) {
	done, err := s.reached(ctx, t, q.To)
	if err != nil || !done {
		return false, err
	}
	_, err = s.read(ctx, t, q, next, fn)
	return true, err
}

// reached reports whether t's stream holds a message at sequence seq or later.
func (s *Store) reached(ctx context.Context, t target, seq uint64) (bool, error) {
	last, err := s.lastOn(ctx, t.stream, t.all)
	return last >= seq, err
}

// PutSecret stores value under key once: a second put of the key, even
// after a delete, fails with events.ErrExists (and the bucket's stream
// refuses any second message under the key, whoever sends it: see
// secrets.go). The value is read back and compared before PutSecret
// returns nil.
func (s *Store) PutSecret(ctx context.Context, key string, value []byte) error {
	if err := events.ValidSecretKey(key); err != nil {
		return err
	}
	// Update at revision 0 expects no message at all under the key, where
	// Create would overwrite a deleted key.
	if _, err := s.kv.Update(ctx, key, value, 0); err != nil {
		if errors.Is(err, jetstream.ErrKeyRevisionMismatch) || errors.Is(err, jetstream.ErrKeyExists) {
			return msgerr.Errorf("secret %s: %w", key, events.ErrExists)
		}
		return msgerr.Errorf("secret %s: %w", key, err)
	}
	return s.readBack(ctx, key, value)
}

// GetSecret returns the value stored under key, or an error wrapping
// events.ErrNotFound.
func (s *Store) GetSecret(ctx context.Context, key string) ([]byte, error) {
	if err := events.ValidSecretKey(key); err != nil {
		return nil, err
	}
	var e jetstream.KeyValueEntry
	err := retryNoResponders(ctx, func() (err error) { e, err = s.kv.Get(ctx, key); return err })
	if err != nil {
		if errors.Is(err, jetstream.ErrKeyNotFound) || errors.Is(err, jetstream.ErrKeyDeleted) {
			return nil, msgerr.Errorf("secret %s: %w", key, events.ErrNotFound)
		}
		return nil, msgerr.Errorf("secret %s: %w", key, err)
	}
	return e.Value(), nil
}

// retryNoResponders runs get again while it fails with "no responders":
// on a cluster a bucket just made (or a stream whose replicas are
// electing a leader) has, for a moment, no server answering its direct
// gets. It tries for at most noRespondersWait, and never past ctx.
func retryNoResponders(ctx context.Context, get func() error) error {
	deadline := time.Now().Add(noRespondersWait)
	for delay := 10 * time.Millisecond; ; delay = min(2*delay, 250*time.Millisecond) {
		err := get()
		if !errors.Is(err, nats.ErrNoResponders) || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(delay):
		}
	}
}

// noRespondersWait bounds retryNoResponders.
const noRespondersWait = 5 * time.Second
