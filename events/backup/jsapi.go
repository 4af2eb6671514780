package backup

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/nats-io/nats.go"
)

// The JetStream API's snapshot and restore, which nats.go's jetstream
// package does not wrap (nats-server: server/jetstream_api.go,
// jsStreamSnapshotRequest and jsStreamRestoreRequest).
//
// Snapshot: a request to <prefix>STREAM.SNAPSHOT.<stream> names a deliver
// subject; the reply carries the stream's config and state; the server then
// sends the snapshot (an s2-compressed tar of the stream's store) to the
// deliver subject in chunks, each with a reply subject that acknowledges it
// (the server keeps a window of unacknowledged chunks), and ends with an
// empty message whose status header says 204 or what failed.
//
// Restore: a request to <prefix>STREAM.RESTORE.<stream> with the config and
// state gets a deliver subject back; each chunk is a request to it (an empty
// reply is an acknowledgement, a non-empty one an error), and an empty
// request ends the upload and is answered with the stream's info, or the
// error, once the server has rebuilt the stream.

const (
	chunkSize = 128 << 10
	// apiTimeout bounds one API request or one chunk's acknowledgement.
	apiTimeout = 30 * time.Second
	// finishTimeout bounds the server's rebuild of a restored stream after
	// the last chunk.
	finishTimeout = 10 * time.Minute
)

// apiError is a JetStream API error in a response.
type apiError struct {
	Code        int    `json:"code"`
	ErrCode     int    `json:"err_code"`
	Description string `json:"description"`
}

func (e *apiError) Error() string {
	return fmt.Sprintf("%s (JetStream API error %d)", e.Description, e.ErrCode)
}

// errCodeStreamNotFound is the JetStream API error of a missing stream.
const errCodeStreamNotFound = 10059

// streamState is the part of a stream's state a manifest records.
type streamState struct {
	Msgs     uint64 `json:"messages"`
	Bytes    uint64 `json:"bytes"`
	FirstSeq uint64 `json:"first_seq"`
	LastSeq  uint64 `json:"last_seq"`
	// Consumers are the stream's consumers: a journal serve follows the
	// events with one.
	Consumers int `json:"consumer_count"`
}

type snapshotResponse struct {
	Error  *apiError       `json:"error,omitempty"`
	Config json.RawMessage `json:"config"`
	State  json.RawMessage `json:"state"`
}

// request sends one API request and decodes its JSON reply into v; an API
// error in the reply is returned as *apiError.
func request(ctx context.Context, nc *nats.Conn, subject string, body []byte, v any) error {
	rctx, cancel := context.WithTimeout(ctx, apiTimeout)
	defer cancel()
	msg, err := nc.RequestWithContext(rctx, subject, body)
	if err != nil {
		return msgerr.Errorf("%s: %w", subject, err)
	}
	if len(msg.Data) == 0 {
		return errEmptyReply
	}
	var e struct {
		Error *apiError `json:"error,omitempty"`
	}
	if err := json.Unmarshal(msg.Data, &e); err != nil {
		return msgerr.Errorf("%s: reply is not JSON: %w", subject, err)
	}
	if e.Error != nil {
		return e.Error
	}
	if v == nil {
		return nil
	}
	return json.Unmarshal(msg.Data, v)
}

// snapshot writes the snapshot of stream to w and returns the stream's
// config and state as the server saw them when the snapshot began.
// Consumers are left out: the journal keeps none that outlive a process.
func snapshot(ctx context.Context, nc *nats.Conn, prefix, stream string, w io.Writer) (config, state json.RawMessage, err error) {
	inbox := nats.NewInbox()
	sub, err := nc.SubscribeSync(inbox)
	if err != nil {
		return nil, nil, err
	}
	defer func() { _ = sub.Unsubscribe() }()
	// The server sends a window of 8 MiB at most before waiting for acks.
	if err := sub.SetPendingLimits(-1, 64<<20); err != nil {
		return nil, nil, err
	}
	req, _ := json.Marshal(map[string]any{"deliver_subject": inbox, "no_consumers": true, "chunk_size": chunkSize})
	var resp snapshotResponse
	if err := request(ctx, nc, prefix+"STREAM.SNAPSHOT."+stream, req, &resp); err != nil {
		return nil, nil, msgerr.Errorf("snapshot of %s: %w", stream, err)
	}
	for {
		mctx, cancel := context.WithTimeout(ctx, apiTimeout)
		msg, err := sub.NextMsgWithContext(mctx)
		cancel()
		if err != nil {
			return nil, nil, msgerr.Errorf("snapshot of %s: waiting for the next chunk: %w", stream, err)
		}
		if len(msg.Data) == 0 {
			if st := msg.Header.Get("Status"); st != "" && st != "204" {
				return nil, nil, msgerr.Errorf("snapshot of %s: the server stopped: %s %s", stream, st, msg.Header.Get("Description"))
			}
			return resp.Config, resp.State, nil
		}
		if _, err := w.Write(msg.Data); err != nil {
			return nil, nil, msgerr.Errorf("snapshot of %s: %w", stream, err)
		}
		if msg.Reply != "" {
			if err := msg.Respond(nil); err != nil {
				return nil, nil, msgerr.Errorf("snapshot of %s: acknowledge a chunk: %w", stream, err)
			}
		}
	}
}

// restore uploads the snapshot read from r as stream, which must not
// exist, with config (its num_replicas replaced by replicas when > 0) and
// state, and returns the restored stream's state.
func restore(ctx context.Context, nc *nats.Conn, prefix, stream string, config, state json.RawMessage, replicas int, r io.Reader) (streamState, error) {
	fail := func(err error) (streamState, error) {
		return streamState{}, msgerr.Errorf("restore of %s: %w", stream, err)
	}
	var cfg map[string]json.RawMessage
	if err := json.Unmarshal(config, &cfg); err != nil {
		return fail(msgerr.Errorf("%w: the stream's config is not JSON", ErrCorrupt))
	}
	if replicas > 0 {
		cfg["num_replicas"], _ = json.Marshal(replicas)
	}
	req, err := json.Marshal(map[string]any{"config": cfg, "state": state})
	if err != nil {
		return fail(err)
	}
	var resp struct {
		DeliverSubject string `json:"deliver_subject"`
	}
	if err := request(ctx, nc, prefix+"STREAM.RESTORE."+stream, req, &resp); err != nil {
		return fail(err)
	}
	if resp.DeliverSubject == "" {
		return fail(msgerr.New("the server named no subject to upload to"))
	}
	buf := make([]byte, chunkSize)
	for {
		n, rerr := io.ReadFull(r, buf)
		if n > 0 {
			if err := request(ctx, nc, resp.DeliverSubject, buf[:n], nil); err != nil && !errors.Is(err, errEmptyReply) {
				return fail(err)
			}
		}
		if rerr == io.EOF || rerr == io.ErrUnexpectedEOF {
			break
		}
		if rerr != nil {
			return fail(rerr)
		}
	}
	fctx, cancel := context.WithTimeout(ctx, finishTimeout)
	defer cancel()
	msg, err := nc.RequestWithContext(fctx, resp.DeliverSubject, nil)
	if err != nil {
		return fail(err)
	}
	// A stream create response: the stream's info inline.
	var done struct {
		Error  *apiError       `json:"error,omitempty"`
		Config json.RawMessage `json:"config"`
		State  streamState     `json:"state"`
	}
	if err := json.Unmarshal(msg.Data, &done); err != nil {
		return fail(msgerr.Errorf("the server's last reply is not JSON: %w", err))
	}
	if done.Error != nil {
		return fail(done.Error)
	}
	if done.Config == nil {
		return fail(msgerr.Errorf("the server's last reply holds no stream: %q", msg.Data))
	}
	return done.State, nil
}

// errEmptyReply is what request returns for an empty reply: a restore
// chunk's acknowledgement.
var errEmptyReply = msgerr.New("empty reply")
