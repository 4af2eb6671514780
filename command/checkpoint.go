package command

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"slices"
	"sync"

	"github.com/google/uuid"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/projections"
)

// Checkpoints of folded campaigns: a cold load (a fresh process: the CLI,
// a restarted serve) reads the campaign's checkpoint and only the events
// recorded after it, so that loading a campaign costs what the campaign
// holds since its checkpoint, not what the stream or the campaign holds.
//
// Invariants:
//   - A checkpoint is the state of a full refold of the campaign up to its
//     sequence (projections.Campaign and the index of request ids), written
//     only from a state folded from the stream, never from a state that
//     needs a refold. A load from a checkpoint equals a full refold: a void
//     after the checkpoint that names an event before it (or folded before
//     the void) makes the load refold from the start, its voids known.
//   - A checkpoint is never trusted blindly: one that does not decode, whose
//     digest does not match its state, of another format or written by
//     another fold (projections.Fingerprint), of another campaign, or whose last
//     message is not in the stream where it says (ahead of the stream, or a
//     stream recreated with other events) is ignored: the load folds from
//     the start, and the checkpoint is written again. The events are the
//     record; a checkpoint is only a shortcut to them.
//   - Writing a checkpoint is best effort: a failure changes nothing but the
//     cost of the next cold load.
//   - Only the journal's own identity may write the bucket (access: every
//     role is denied $KV.>), so no player or GM client can plant a state.

// Checkpoints is where the checkpoints are kept: a key-value store
// (live.BucketKV, live.MemKV). Get returns an error wrapping
// events.ErrNotFound for a missing key.
type Checkpoints interface {
	Get(ctx context.Context, key string) ([]byte, error)
	Put(ctx context.Context, key string, value []byte) error
}

// CheckpointFormat is the version of the checkpoint documents: a load
// ignores checkpoints of any other.
const CheckpointFormat = 1

// DefaultCheckpointEvery is how many events folded since a campaign's last
// checkpoint make the journal write a new one, by default.
const DefaultCheckpointEvery = 500

// CheckpointKey returns the key of campaign's checkpoint in the bucket:
// "fold.<campaign>" (the live projector's own keys are "position" and
// "campaign.<id>").
func CheckpointKey(campaign string) string { return "fold." + campaign }

// checkpointDoc is a checkpoint: the state of campaign folded up to Seq.
type checkpointDoc struct {
	Format int `json:"format"`
	// Fingerprint names the fold that wrote it (projections.Fingerprint).
	Fingerprint string `json:"fingerprint"`
	Campaign    string `json:"campaign"`
	// Seq is the campaign's last sequence in the state; LastID is the id of
	// the event at Seq ("": a message that is not an event).
	Seq    uint64 `json:"seq"`
	LastID string `json:"last_id,omitempty"`
	// Digest is the SHA-256 of State, lower-case hex.
	Digest string          `json:"digest"`
	State  json.RawMessage `json:"state"`
}

// checkpointState is what a checkpoint holds.
type checkpointState struct {
	Campaign *projections.Campaign `json:"campaign"`
	Requests []checkpointRequest   `json:"requests,omitempty"`
	// Msgs is how many messages the campaign's subject held up to the
	// checkpoint's sequence, in the stream of Epoch (jetstore's
	// SubjectCount); LastEvent and LastHash are the id and chain hash of
	// the campaign's last event (chain.go). All four are empty in a
	// checkpoint of an older journal, or of a store that cannot count:
	// its load then asks for the campaign's last message.
	Msgs      uint64 `json:"msgs,omitempty"`
	Epoch     string `json:"epoch,omitempty"`
	LastEvent string `json:"last_event,omitempty"`
	LastHash  string `json:"last_hash,omitempty"`
}

// checkpointRequest is one entry of the index of request ids.
type checkpointRequest struct {
	Key   string    `json:"key"` // hex of the requestKey
	First uint64    `json:"first"`
	Last  uint64    `json:"last"`
	ID    uuid.UUID `json:"id"`
}

// checkpoint is a decoded, checked checkpoint.
type checkpoint struct {
	c        *projections.Campaign
	requests map[requestKey]requested
	seq      uint64
	lastID   string
	// msgs, epoch, lastEvent and lastHash are checkpointState's.
	msgs                       uint64
	epoch, lastEvent, lastHash string
}

// into makes s the state of cp: its fold, index of request ids, last
// message and count.
func (cp *checkpoint) into(s *campaignState) {
	s.requests, s.lastSeq, s.lastID, s.savedEvents = cp.requests, cp.seq, cp.lastID, cp.c.Events
	s.msgs, s.uncounted = cp.msgs, cp.msgs == 0
}

// holdsAll says, from the count of the campaign's messages the store gave
// before the load (known: it could), whether cp holds them all: same
// epoch, same count. The journal's stream denies deletes and purges, so
// the stream then holds nothing after the checkpoint: done, s is cp's
// state and knows the chain's last event, and the load reads no message
// at all. Fewer messages than cp counted in the same stream is a
// checkpoint ahead of it (errBadCheckpoint); more say that messages
// follow it (follows). Else (another epoch, a checkpoint without a count,
// or whose last message is not its last event) it cannot say: the load
// asks for the campaign's last message (foldFrom).
func (cp *checkpoint) holdsAll(count uint64, known bool, s *campaignState) (done, follows bool, err error) {
	if !known || cp.msgs == 0 || cp.epoch != s.epoch || cp.lastHash == "" || cp.lastEvent == "" || cp.lastEvent != cp.lastID {
		return false, false, nil
	}
	switch {
	case count < cp.msgs:
		return false, false, errBadCheckpoint
	case count > cp.msgs:
		return false, true, nil
	}
	cp.into(s)
	s.hasLast, s.lastRaw, s.lastHash, s.lastEventID = true, nil, cp.lastHash, cp.lastEvent
	return true, false, nil
}

// subjectCounter is a store that counts the messages on a campaign's
// subject in one request, reading none, and names the stream's epoch
// (jetstore.Store.SubjectCount). An error wrapping errors.ErrUnsupported
// means it cannot on that subject.
type subjectCounter interface {
	SubjectCount(ctx context.Context, subject string) (n uint64, epoch string, err error)
}

// countSubject asks the store, when it can, how many messages the
// campaign's subject holds, and notes the stream's epoch in s (what a
// checkpoint of this fold will record: asked before the fold reads, so
// that a stream made again meanwhile gives the checkpoint an epoch that
// no longer matches). known is false when the store cannot count, or
// could not answer: the load then asks for the last message as without a
// count (a server that cannot answer fails the read that follows).
func (j *Handler) countSubject(ctx context.Context, filter string, s *campaignState) (n uint64, known bool) {
	s.epoch = ""
	sc, ok := j.store.(subjectCounter)
	if !ok || j.checkpoints == nil {
		return 0, false
	}
	n, epoch, err := sc.SubjectCount(ctx, filter)
	if err != nil {
		return 0, false
	}
	s.epoch = epoch
	return n, true
}

var (
	fingerprintOnce sync.Once
	fingerprint     string
)

// foldFingerprint is projections.Fingerprint, computed once.
func foldFingerprint() string {
	fingerprintOnce.Do(func() { fingerprint = projections.Fingerprint() })
	return fingerprint
}

// errBadCheckpoint marks a checkpoint that is not to be used.
var errBadCheckpoint = msgerr.New("unusable checkpoint")

// readCheckpoint returns campaign's checkpoint when there is a usable one
// at or below upTo (0: any), or nil: a missing, unreadable or unusable
// checkpoint means a fold from the start.
func (j *Handler) readCheckpoint(ctx context.Context, campaign string, upTo uint64) *checkpoint {
	if j.checkpoints == nil {
		return nil
	}
	b, err := j.checkpoints.Get(ctx, CheckpointKey(campaign))
	if err != nil {
		return nil
	}
	cp, err := decodeCheckpoint(b, campaign)
	if err != nil || (upTo != 0 && cp.seq > upTo) {
		return nil
	}
	return cp
}

// decodeCheckpoint decodes and checks a checkpoint of campaign.
func decodeCheckpoint(b []byte, campaign string) (*checkpoint, error) {
	var doc checkpointDoc
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, errors.Join(errBadCheckpoint, err)
	}
	if doc.Format != CheckpointFormat || doc.Fingerprint != foldFingerprint() || doc.Campaign != campaign || doc.Seq == 0 {
		return nil, errBadCheckpoint
	}
	sum := sha256.Sum256(doc.State)
	if hex.EncodeToString(sum[:]) != doc.Digest {
		return nil, errBadCheckpoint
	}
	var st checkpointState
	if err := json.Unmarshal(doc.State, &st); err != nil {
		return nil, errors.Join(errBadCheckpoint, err)
	}
	c := st.Campaign
	if c == nil || c.ID != campaign || c.LastSeq != doc.Seq || c.RefoldNeeded || c.Characters == nil {
		return nil, errBadCheckpoint
	}
	c = lazyMaps(projections.Normalize(c))
	if (st.LastHash == "") != (st.LastEvent == "") || (st.Msgs == 0) != (st.Epoch == "") || st.Msgs > doc.Seq {
		return nil, errBadCheckpoint
	}
	cp := &checkpoint{c: c, seq: doc.Seq, lastID: doc.LastID, msgs: st.Msgs, epoch: st.Epoch, lastEvent: st.LastEvent, lastHash: st.LastHash}
	for _, r := range st.Requests {
		k, err := hex.DecodeString(r.Key)
		if err != nil || len(k) != len(requestKey{}) || r.First == 0 || r.First > r.Last || r.Last > doc.Seq {
			return nil, errBadCheckpoint
		}
		if cp.requests == nil {
			cp.requests = make(map[requestKey]requested, len(st.Requests))
		}
		cp.requests[requestKey(k)] = requested{first: r.First, last: r.Last, id: r.ID}
	}
	return cp, nil
}

// encodeCheckpoint encodes the state c of s, folded up to s.lastID at
// c.LastSeq, with its index of request ids, its count of messages and
// epoch when known, and the chain's last event when s knows its hash.
func encodeCheckpoint(c *projections.Campaign, s *campaignState) ([]byte, error) {
	lastID, requests := s.lastID, s.requests
	st := checkpointState{Campaign: c}
	if !s.uncounted && s.epoch != "" && s.msgs != 0 && s.hasLast {
		if h, err := s.prevHash(); err == nil && h != "" {
			st.Msgs, st.Epoch, st.LastEvent, st.LastHash = s.msgs, s.epoch, s.lastEventID, h
		}
	}
	for k, q := range requests {
		st.Requests = append(st.Requests, checkpointRequest{Key: hex.EncodeToString(k[:]), First: q.first, Last: q.last, ID: q.id})
	}
	slices.SortFunc(st.Requests, func(a, b checkpointRequest) int {
		switch {
		case a.Key < b.Key:
			return -1
		case a.Key > b.Key:
			return 1
		}
		return 0
	})
	state, err := json.Marshal(st)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(state)
	return json.Marshal(checkpointDoc{Format: CheckpointFormat, Fingerprint: foldFingerprint(), Campaign: c.ID,
		Seq: c.LastSeq, LastID: lastID, Digest: hex.EncodeToString(sum[:]), State: state})
}

// maybeCheckpoint writes the checkpoint of s when more than the journal's
// CheckpointEvery events were folded into it since its last one, or the
// one it read lacks its count (s.rewrite), and the id of its last message
// is known. s must be locked and caught up.
func (j *Handler) maybeCheckpoint(ctx context.Context, s *campaignState) {
	c := s.c
	if j.checkpoints == nil || j.checkpointEvery <= 0 || c == nil || c.RefoldNeeded || c.LastSeq == 0 ||
		s.lastSeq != c.LastSeq || (c.Events-s.savedEvents <= j.checkpointEvery && !s.rewrite) {
		return
	}
	b, err := encodeCheckpoint(c, s)
	if err != nil {
		return
	}
	if err := j.checkpoints.Put(ctx, CheckpointKey(c.ID), b); err != nil {
		return // best effort: the next cold load reads more
	}
	s.savedEvents, s.rewrite = c.Events, false
}

// WriteCheckpoint folds campaign from its first event up to sequence at
// (0: all), ignoring any checkpoint, and writes that state as the
// campaign's checkpoint, replacing the one there. It returns the
// checkpoint's sequence (the campaign's last at or below at). A journal
// without Checkpoints writes nothing.
func (j *Handler) WriteCheckpoint(ctx context.Context, campaign string, at uint64) (uint64, error) {
	filter, err := events.CampaignFilter(campaign)
	if err != nil {
		return 0, invalid("campaign %q: %v", clip.Text(campaign), err)
	}
	if j.checkpoints == nil {
		return 0, nil
	}
	s := &campaignState{}
	j.countSubject(ctx, filter, s)
	c, err := j.loadFromStart(ctx, filter, campaign, at, s)
	if err != nil {
		return 0, err
	}
	if c.LastSeq == 0 {
		return 0, notFound("campaign %q has no event at or below %d", clip.Text(campaign), at)
	}
	b, err := encodeCheckpoint(c, s)
	if err != nil {
		return 0, err
	}
	if err := j.checkpoints.Put(ctx, CheckpointKey(campaign), b); err != nil {
		return 0, err
	}
	return c.LastSeq, nil
}

// lazyMaps undoes, in c just normalized (projections.Normalize: every nil map
// tagged omitempty made empty, as the fold makes most of them), what
// Normalize did to the maps the fold makes only with their first entry,
// so that the decoded state is the very state encoded (require.Equal in
// TestCheckpointEqualsRefold, which fails when a map is missing here):
// the campaign's voids and the TOR characters' advancement points.
func lazyMaps(c *projections.Campaign) *projections.Campaign {
	if len(c.Voided) == 0 {
		c.Voided = nil
	}
	if len(c.Participants) == 0 {
		c.Participants = nil
	}
	for _, s := range c.Sessions {
		if s != nil && len(s.Requests) == 0 {
			s.Requests = nil
		}
		if s != nil && len(s.Contributions) == 0 {
			s.Contributions = nil
		}
		if s != nil && len(s.Cosigned) == 0 {
			s.Cosigned = nil
		}
	}
	if c.TOR != nil {
		for _, ch := range c.TOR.Characters {
			if ch != nil && len(ch.Advancement) == 0 {
				ch.Advancement = nil
			}
		}
	}
	return c
}

// lastReader is a store that reads the last message on a subject in one
// request (jetstore.Store.ReadLast): it delivers it as Read would (fn for
// an event of a type q keeps, q.OnForeign for a message that is not an
// event) and returns its sequence, 0 when there is none. An error wrapping
// errors.ErrUnsupported means it cannot on that filter (Read can).
type lastReader interface {
	ReadLast(ctx context.Context, q events.Query, fn func(events.Recorded) error) (uint64, error)
}

// lastIsCheckpoint asks the store, when it can, for the last message on
// the campaign's subject filter. When it is the checkpoint's own last
// message (same sequence, same event id, or both not an event), nothing
// follows the checkpoint: done, s knows the chain's previous event, and
// the load reads nothing more. A last sequence below the checkpoint's is
// a checkpoint ahead of the stream (errBadCheckpoint). Otherwise (events
// follow, or the store cannot say) the load reads from the checkpoint's
// sequence as without it: a cold load of a campaign with nothing after
// its checkpoint costs one request to the stream, not a read.
func (j *Handler) lastIsCheckpoint(ctx context.Context, filter string, cp *checkpoint, s *campaignState) (done bool, err error) {
	lr, ok := j.store.(lastReader)
	if !ok {
		return false, nil
	}
	var (
		last    events.Recorded
		isEvent bool
	)
	seq, err := lr.ReadLast(ctx, events.Query{Subject: filter, OnForeign: func(events.Foreign) error { return nil }},
		func(r events.Recorded) error { last, isEvent = r, true; return nil })
	switch {
	case errors.Is(err, errors.ErrUnsupported):
		return false, nil
	case err != nil:
		return false, err
	case seq < cp.seq:
		return false, errBadCheckpoint // ahead of the stream
	case seq > cp.seq:
		return false, nil
	}
	id := ""
	if isEvent {
		id = last.Event.ID
	}
	if id != cp.lastID {
		return false, errBadCheckpoint // another message where the checkpoint's was
	}
	if isEvent { // the checkpoint's own last event: the chain's previous one (chain.go)
		s.noteLast(last)
	}
	return true, nil
}
