// Package natscmd is the journal's command service on NATS: game masters,
// players and dashboards that connect to NATS as users of the access
// configuration send their commands (and reads) as requests, and the
// journal, connected as its privileged user, validates, authorizes and
// records them.
//
// A request is published on journalcmd.<user>.<campaign>.<command>
// (access.CommandSubject) with a JSON body: the same body as the HTTP API's
// POST /api/campaigns/{campaign}/commands/{command}, decoded strictly
// (unknown fields and trailing data refused). The reply is a JSON Reply;
// a refusal also carries the NATS micro error headers (Nats-Service-Error,
// Nats-Service-Error-Code: 400, 403, 404, 409, 429 or 500; a rate
// limit's also Retry-After, in seconds). The command
// "events" (access.ReadCommand) reads the campaign's stored events, a page
// at a time (ReadRequest).
//
// Invariants:
//   - The user is the subject's second token, and NATS permissions
//     (access.Permissions) let each user publish only under its own name: the
//     service trusts the subject for identity and decides everything else
//     with access.AuthorizeRequest and access.AuthorizeRead. A user not in the
//     configuration is refused.
//   - A refused request records nothing: authorization comes before the
//     command runs, and the command layer records nothing on refusal.
//   - The service answers only on the requester's own inbox: a request
//     whose reply subject is not under access.InboxPrefix(user)
//     (access.ReplyAllowed) is dropped unanswered and unrun, before it is
//     handed to a worker, so that no requester can make the service publish
//     on the stream, the secrets bucket, the feed, the JetStream API or
//     another user's inbox. `journal serve` also runs the service on a
//     connection whose NATS permissions publish to inboxes only
//     (access.ResponderPermissions).
//   - The events a command records carry the user's name as their actor.
package natscmd

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"math"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/micro"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/command/catalog"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// Defaults of Options.
const (
	DefaultQueueGroup  = "journal"
	DefaultTimeout     = 30 * time.Second
	DefaultConcurrency = 64
	// MaxBody is the largest request body accepted.
	MaxBody = 64 << 10
	// MaxReadEvents is the most events one read returns; DefaultReadEvents
	// is what a read without a limit returns.
	MaxReadEvents     = 1000
	DefaultReadEvents = 100
	// maxReplyBytes keeps a read's reply under NATS's default 1 MiB payload.
	maxReplyBytes = 900 << 10
)

// Options configure the service.
type Options struct {
	// Access is who may do what. Required.
	Access *access.Config
	// Store is the journal's event store. Required.
	Store command.Store
	// Commands is the journal that runs the commands (shared with the
	// other surfaces of the same process, so that one cache of folded
	// campaigns serves them all); nil: one of the service's own, over
	// Store, with Clock, Rand and IDs.
	Commands *command.Handler
	// Clock, Rand and IDs are the command handlers' when Commands is nil
	// (command.Options: unset, the production ones).
	Clock func() time.Time
	Rand  io.Reader
	IDs   events.IDs
	// QueueGroup lets several `journal serve` share the requests; default
	// DefaultQueueGroup.
	QueueGroup string
	// Timeout bounds one request; default DefaultTimeout.
	Timeout time.Duration
	// Concurrency bounds the requests handled at once; default
	// DefaultConcurrency.
	Concurrency int
	// Logger reports requests that fail inside the journal; nil: none.
	Logger *slog.Logger
}

// Service is a running command service. Stop it with Stop.
type Service struct {
	svc  micro.Service
	opts Options
	sem  chan struct{}
	wg   sync.WaitGroup
	stop context.CancelFunc

	// commands is the journal every user's requests share (through As).
	commands *command.Handler

	answered, dropped atomic.Uint64
}

// Counts returns how many requests the service has answered (a reply or a
// refusal sent) and how many it dropped unanswered because their reply
// subject was not the requester's inbox.
func (s *Service) Counts() (answered, dropped uint64) {
	return s.answered.Load(), s.dropped.Load()
}

// Reply is the JSON reply to a request.
type Reply struct {
	Command  string `json:"command"`
	Campaign string `json:"campaign"`
	Actor    string `json:"actor"`
	// Recorded are the events a command recorded; Events those a read
	// returned.
	Recorded []Recorded `json:"recorded,omitempty"`
	Events   []Recorded `json:"events,omitempty"`
	// Secret is the outcome of the GM's secret rolls the command recorded,
	// in the GM's reply only (command.Result.Secret).
	Secret []command.SecretRoll `json:"secret,omitempty"`
	// LastSeq is the sequence of the last event recorded or read; Next is
	// the From of a read's next page (0 when the read reached the end).
	LastSeq uint64 `json:"last_seq,omitempty"`
	Next    uint64 `json:"next,omitempty"`
	// Error and Code describe a refusal: Code is the error's class
	// (command.Classify: "not_found", "usage", "invalid", "denied",
	// "conflict", "exists", "rate_limited", "quota", "timeout", "failure"…).
	Error string `json:"error,omitempty"`
	Code  string `json:"code,omitempty"`
	// Message is the refusal's words in the request's Accept-Language
	// header (English without one), rendered by key (command.Message);
	// Key and Args are its English format and arguments as text
	// (command.KeyOf), omitted for an error the journal did not make.
	Message string   `json:"message,omitempty"`
	Key     string   `json:"key,omitempty"`
	Args    []string `json:"args,omitempty"`
	// RetryAfter is, for a rate limit's refusal, how many seconds to wait
	// before trying again (also the reply's Retry-After header).
	RetryAfter int `json:"retry_after,omitempty"`
	// Repeated: the body's request_id had recorded these events already;
	// this request recorded nothing.
	Repeated bool `json:"repeated,omitempty"`
}

// Recorded is one stored event.
type Recorded struct {
	Seq   uint64       `json:"seq"`
	Event events.Event `json:"event"`
}

// ReadRequest is the body of the "events" request: events from sequence
// From (0: the first) on, at most Limit of them (0: DefaultReadEvents).
type ReadRequest struct {
	From  uint64 `json:"from,omitempty"`
	Limit int    `json:"limit,omitempty"`
}

// Start subscribes the service to every user's requests on nc, which must
// be allowed to subscribe to access.CommandPrefix.> and publish to inboxes
// (the journal role, or better access.ResponderPermissions: the service
// records through opts.Store, and nc only carries requests and replies). It
// stops when ctx ends or on Stop; requests in flight are then cancelled.
func Start(ctx context.Context, nc *nats.Conn, opts Options) (*Service, error) {
	if opts.Access == nil || opts.Store == nil {
		return nil, msgerr.New("natscmd: Access and Store are required")
	}
	if opts.QueueGroup == "" {
		opts.QueueGroup = DefaultQueueGroup
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.Concurrency <= 0 {
		opts.Concurrency = DefaultConcurrency
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	commands := opts.Commands
	if commands == nil {
		commands = command.New(opts.Store, command.Options{Clock: opts.Clock, Rand: opts.Rand, IDs: opts.IDs})
	}
	s := &Service{opts: opts, sem: make(chan struct{}, opts.Concurrency), stop: cancel, commands: commands}
	svc, err := micro.AddService(nc, micro.Config{
		Name:        "journal",
		Version:     "1.0.0",
		Description: "the campaign journal's commands and reads, per user (package access)",
		QueueGroup:  opts.QueueGroup,
		Endpoint: &micro.EndpointConfig{
			Subject: access.CommandPrefix + ".*.*.*",
			Handler: micro.HandlerFunc(func(r micro.Request) { s.dispatch(runCtx, r) }),
		},
	})
	if err != nil {
		cancel()
		return nil, msgerr.Errorf("natscmd: %w", err)
	}
	s.svc = svc
	fctx, fcancel := context.WithTimeout(ctx, 10*time.Second)
	defer fcancel()
	if err := nc.FlushWithContext(fctx); err != nil {
		s.Stop()
		return nil, msgerr.Errorf("natscmd: %w", err)
	}
	go func() {
		select {
		case <-ctx.Done():
			s.Stop()
		case <-runCtx.Done():
		}
	}()
	return s, nil
}

// Stop unsubscribes, cancels the requests in flight and waits for them.
// It is safe to call more than once.
func (s *Service) Stop() {
	_ = s.svc.Stop()
	s.stop()
	s.wg.Wait()
}

// dispatch hands a request to a goroutine (a subscription's callbacks run
// one at a time), at most Concurrency at once. A request whose reply
// subject is not its requester's inbox is dropped here, in the order
// requests arrive: none is run, none is answered.
func (s *Service) dispatch(ctx context.Context, r micro.Request) {
	if user, ok := requester(r.Subject()); !ok || !access.ReplyAllowed(user, r.Reply()) {
		s.dropped.Add(1)
		s.opts.Logger.Warn("natscmd: request dropped unanswered: its reply subject is not the requester's inbox",
			"subject", r.Subject(), "reply", r.Reply(), "want", access.InboxPrefix(user)+".>")
		return
	}
	select {
	case s.sem <- struct{}{}:
	case <-ctx.Done():
		return
	}
	s.wg.Add(1)
	go func() {
		defer func() { <-s.sem; s.wg.Done() }()
		ctx, cancel := context.WithTimeout(ctx, s.opts.Timeout)
		defer cancel()
		s.handle(ctx, r)
	}()
}

// requester returns the user a request subject names (its second token).
func requester(subject string) (string, bool) {
	parts := strings.Split(subject, ".")
	if len(parts) != 4 || parts[0] != access.CommandPrefix || parts[1] == "" {
		return "", false
	}
	return parts[1], true
}

// handle answers one request.
func (s *Service) handle(ctx context.Context, r micro.Request) {
	defer s.answered.Add(1)
	parts := strings.Split(r.Subject(), ".")
	var reply Reply
	if len(parts) == 4 {
		reply = Reply{Actor: parts[1], Campaign: parts[2], Command: parts[3]}
	}
	err := s.serve(ctx, parts, r.Data(), &reply)
	if err != nil {
		code, status := classify(err)
		if status == 500 {
			s.opts.Logger.Error("natscmd: request failed", "subject", r.Subject(), "err", err)
		}
		reply.Error, reply.Code, reply.Recorded, reply.Events = err.Error(), code, nil, nil
		reply.Message = command.Message(err, headerLang(r.Headers().Get("Accept-Language")))
		reply.Key, reply.Args = command.KeyOf(err)
		var opts []micro.RespondOpt
		var ra interface{ RetryAfter() time.Duration }
		if errors.As(err, &ra) {
			reply.RetryAfter = int(math.Ceil(ra.RetryAfter().Seconds()))
			opts = append(opts, micro.WithHeaders(micro.Headers{"Retry-After": {strconv.Itoa(reply.RetryAfter)}}))
		}
		body, _ := json.Marshal(reply)
		opts = append(opts, micro.WithHeaders(micro.Headers{"Content-Type": {ReplyContentType}}))
		_ = r.Error(strconv.Itoa(status), err.Error(), body, opts...)
		return
	}
	body, err := json.Marshal(reply)
	if err != nil {
		_ = r.Error("500", err.Error(), nil)
		return
	}
	_ = r.Respond(body, micro.WithHeaders(micro.Headers{"Content-Type": {ReplyContentType}}))
}

// ReplyContentType is the Content-Type header of every reply: a JSON
// Reply (whose events are CloudEvents in their JSON form; the feed's
// messages, one CloudEvent each, are application/cloudevents+json).
const ReplyContentType = "application/json"

func (s *Service) serve(ctx context.Context, parts []string, body []byte, reply *Reply) error {
	if len(parts) != 4 {
		return msgerr.Errorf("%w: subject %q", command.ErrInvalid, clip.Text(strings.Join(parts, ".")))
	}
	user, campaign, name := parts[1], parts[2], parts[3]
	p, ok := s.opts.Access.ByName(user)
	if !ok {
		return msgerr.Errorf("%w: no user %q in the access configuration", access.ErrDenied, clip.Text(user))
	}
	if err := events.ValidID(campaign); err != nil {
		return msgerr.Errorf("%w: campaign: %w", command.ErrInvalid, err)
	}
	if len(body) > MaxBody {
		return msgerr.Errorf("%w: body is %d bytes, more than %d", command.ErrInvalid, len(body), MaxBody)
	}
	if name == access.ReadCommand {
		if err := access.AuthorizeRead(p, campaign); err != nil {
			return err
		}
		return s.read(ctx, campaign, body, reply)
	}
	run, ok := commandFor(name)
	if !ok {
		return msgerr.Errorf("%w: no command %q", command.ErrInvalid, clip.Text(name))
	}
	request, body, err := catalog.RequestID("", body)
	if err != nil {
		return err
	}
	if err := access.AuthorizeCommand(p, campaign, name, body); err != nil { // a malformed body is invalid, not denied
		return err
	}
	call := command.Call{Actor: user, RequestID: request}
	if p.Role == access.RoleGM || p.Role == access.RoleJournal {
		call.GM = true // the campaign's GM by its access role: it may roll in secret
	} else {
		call.Player = true // never the GM, whatever it registers
	}
	res, err := run(ctx, s.commands, call, campaign, body)
	if err != nil {
		return err
	}
	reply.Repeated, reply.Secret = res.Repeated, res.Secret
	for _, rec := range res.Events {
		reply.Recorded = append(reply.Recorded, Recorded{Seq: rec.Seq, Event: rec.Event})
		reply.LastSeq = max(reply.LastSeq, rec.Seq)
	}
	return nil
}

// errPageFull ends a read whose page is full.
var errPageFull = msgerr.New("page full")

func (s *Service) read(ctx context.Context, campaign string, body []byte, reply *Reply) error {
	var req ReadRequest
	if err := catalog.DecodeStrict(body, &req); err != nil {
		return err
	}
	if req.Limit < 0 || req.Limit > MaxReadEvents {
		return msgerr.Errorf("%w: limit %d: 0..%d", command.ErrInvalid, req.Limit, MaxReadEvents)
	}
	if req.Limit == 0 {
		req.Limit = DefaultReadEvents
	}
	filter, err := events.CampaignFilter(campaign)
	if err != nil {
		return msgerr.Errorf("%w: %w", command.ErrInvalid, err)
	}
	size := 0
	reply.Events = []Recorded{}
	err = s.opts.Store.Read(ctx, events.Query{Subject: filter, From: req.From}, func(r events.Recorded) error {
		if len(reply.Events) == req.Limit || size+len(r.Event.Data)+512 > maxReplyBytes {
			reply.Next = r.Seq
			return errPageFull
		}
		size += len(r.Event.Data) + 512
		reply.Events = append(reply.Events, Recorded{Seq: r.Seq, Event: r.Event})
		reply.LastSeq = r.Seq
		return nil
	})
	if err != nil && !errors.Is(err, errPageFull) {
		return err
	}
	return nil
}

// classify maps an error to its reply code and HTTP status: the one
// classification of every door (command.Classify).
func classify(err error) (string, int) {
	c := command.Classify(err)
	return c.Code, c.HTTP
}

// InboxPrefix is the option a connection of user needs to send requests:
// nats.CustomInboxPrefix(access.InboxPrefix(user)). The service answers
// nothing else, and NATS permissions let user subscribe to nothing else.
func InboxPrefix(user string) nats.Option {
	return nats.CustomInboxPrefix(access.InboxPrefix(user))
}

// ErrInboxPrefix is returned by Request when the connection's inbox prefix
// is not the user's (InboxPrefix): the service would not answer.
var ErrInboxPrefix = msgerr.New("natscmd: the connection's inbox prefix is not the user's")

// Request sends one request as user (whose connection nc must use the
// inbox prefix access.InboxPrefix(user), see InboxPrefix; otherwise
// ErrInboxPrefix and nothing is sent) and returns the reply. body is
// marshalled to JSON unless it is already []byte. A refusal returns the
// reply and an error wrapping the sentinel of its class (ReplyError).
// Without a deadline in ctx, the request waits DefaultTimeout. NATS errors
// (no responders, a timeout: also what a permissions violation looks like
// to a requester) are returned as they are.
func Request(ctx context.Context, nc *nats.Conn, user, campaign, cmd string, body any) (*Reply, error) {
	return RequestIn(ctx, nc, user, campaign, cmd, body, "")
}

// RequestIn is Request with an Accept-Language header (none when lang is
// ""): the reply's Message is in that language (Reply.Message), and a
// refusal's error says it (ReplyError.Message stays the English words).
func RequestIn(ctx context.Context, nc *nats.Conn, user, campaign, cmd string, body any, lang string) (*Reply, error) {
	data, ok := body.([]byte)
	if !ok {
		var err error
		if data, err = json.Marshal(body); err != nil {
			return nil, err
		}
	}
	if inbox := nc.NewRespInbox(); !access.ReplyAllowed(user, inbox) {
		return nil, msgerr.Errorf("%w: replies would go to %s, want %s.> (natscmd.InboxPrefix(%q))", ErrInboxPrefix, inbox, access.InboxPrefix(user), user)
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultTimeout)
		defer cancel()
	}
	m := nats.NewMsg(access.CommandSubject(user, campaign, cmd))
	m.Data = data
	if lang != "" {
		m.Header.Set("Accept-Language", lang)
	}
	msg, err := nc.RequestMsgWithContext(ctx, m)
	if err != nil {
		return nil, msgerr.Errorf("natscmd: %s %s %s: %w", user, campaign, cmd, err)
	}
	var reply Reply
	if err := json.Unmarshal(msg.Data, &reply); err != nil {
		return nil, msgerr.Errorf("natscmd: reply: %w (%s)", err, msg.Header.Get(micro.ErrorHeader))
	}
	if reply.Error == "" {
		return &reply, nil
	}
	return &reply, &ReplyError{Code: reply.Code, Message: reply.Error, Local: reply.Message}
}

// ReplyError is a refusal the service replied with. errors.Is matches it to
// the sentinel of its code's class (command.ClassSentinel), so that
// command.Classify gives it the class the service gave it.
type ReplyError struct {
	Code    string
	Message string
	// Local is the refusal in the request's Accept-Language (Reply.Message;
	// "" when the service sent none).
	Local string
}

func (e *ReplyError) Error() string { return e.Message }

// Localized returns the refusal's words in the language the request asked
// for (Local), else its English words.
func (e *ReplyError) Localized() string {
	if e.Local != "" {
		return e.Local
	}
	return e.Message
}

// Unwrap returns the sentinel of the code.
func (e *ReplyError) Unwrap() error { return command.ClassSentinel(e.Code) }

// headerLang is the language an Accept-Language header asks for: Spanish
// when its first language is, else English.
func headerLang(h string) i18n.Lang {
	first, _, _ := strings.Cut(h, ",")
	first, _, _ = strings.Cut(first, ";")
	return i18n.FromLocale(strings.TrimSpace(first))
}
