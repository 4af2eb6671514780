// Package client is the journal's CLI as a client of the NATS command
// service (package access/natscmd), from another machine, with a user's
// NATS credentials only: `journal --nats nats://bea:PW@host:4222 -c mordor
// roll lodin sigilo`. It decides service mode (Creds), sends catalogued
// commands and reads (Service), reads and follows one campaign as a store
// (Store), and maps the service's refusals back to the CLI's errors
// (Error).
//
// Invariants:
//   - Service mode is decided once, from --nats alone: its (first) URL
//     names a user and a password, and that user is not the journal's own
//     (the journal role in the access file when one is given, else the
//     user named "journal", as `journal access init` names it). Every
//     other --nats is the journal's own connection to JetStream.
//   - A client never touches the JetStream API: it reads a campaign with
//     the service's "events" command (Store.Read), follows it on the
//     core-NATS feed journalfeed.<campaign> (Store.Follow), and records
//     only through catalogued commands sent to
//     journalcmd.<user>.<campaign>.<command> (Service.Run). Anything else
//     that would record is refused (Store.Append), recording nothing.
//   - Replies come to the user's inbox prefix, access.InboxPrefix(user).
//   - A refusal of the service keeps its class (natscmd.ReplyError), hence
//     the same exit code as the same refusal on the service's machine; a
//     publish the NATS permissions refuse ends its request at once with
//     access.ErrDenied instead of a timeout.
package client

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/access/natscmd"
	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/command/catalog"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// JournalUser is the name of the journal's own user in an access file
// made by `journal access init`.
const JournalUser = "journal"

// Creds returns the user and password of the NATS URLs natsURL when the
// CLI is a client of the command service (see the invariants above); cfg
// is the access file (nil: none, or unreadable).
func Creds(natsURL string, cfg *access.Config) (user, password string, ok bool) {
	if natsURL == "" {
		return "", "", false
	}
	first, _, _ := strings.Cut(natsURL, ",")
	u, err := url.Parse(strings.TrimSpace(first))
	if err != nil || u.User == nil {
		return "", "", false
	}
	user = u.User.Username()
	password, hasPW := u.User.Password()
	if user == "" || !hasPW {
		return "", "", false
	}
	if cfg != nil {
		if p, found := cfg.ByName(user); found {
			return user, password, p.Role != access.RoleJournal
		}
	}
	return user, password, user != JournalUser
}

// Service is the connection of a service client.
type Service struct {
	nc   *nats.Conn
	user string
	lang i18n.Lang

	// refused holds, by subject, the requests waiting that a refusal of
	// the NATS permissions ends (asyncError).
	mu      sync.Mutex
	refused map[string]chan struct{}
}

// Dial connects to natsURL as user, with the inbox prefix
// access.InboxPrefix(user); lang is the language its requests ask replies
// in.
func Dial(natsURL, user string, lang i18n.Lang) (*Service, error) {
	s := &Service{user: user, lang: lang, refused: map[string]chan struct{}{}}
	nc, err := nats.Connect(natsURL, nats.Name("journal (service client)"), nats.Timeout(5*time.Second), nats.CustomInboxPrefix(access.InboxPrefix(user)),
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) { s.asyncError(err) }))
	if err != nil {
		return nil, msgerr.Errorf("connect to NATS at %s: %w", access.RedactURLs(natsURL), err)
	}
	s.nc = nc
	return s, nil
}

// Close closes the connection.
func (s *Service) Close() { s.nc.Close() }

// User is the NATS user the client acts as.
func (s *Service) User() string { return s.user }

// publishRefused is how the NATS server words a publish its permissions
// refuse (the async error of the connection).
var publishRefused = regexp.MustCompile(`(?i)permissions violation for publish to "([^"]+)"`)

// asyncError takes the connection's asynchronous errors: a publish the
// NATS permissions refuse ends the request waiting on that subject (the
// server drops it, and its requester would only time out).
func (s *Service) asyncError(err error) {
	m := publishRefused.FindStringSubmatch(err.Error())
	if m == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if ch, ok := s.refused[m[1]]; ok {
		close(ch)
		delete(s.refused, m[1])
	}
}

// watchRefusal returns a context that ends when the NATS server refuses
// the publish to subject, and whether it did.
func (s *Service) watchRefusal(ctx context.Context, subject string) (context.Context, func() bool, context.CancelFunc) {
	ch := make(chan struct{})
	s.mu.Lock()
	s.refused[subject] = ch
	s.mu.Unlock()
	ctx, cancel := context.WithCancel(ctx)
	go func() {
		select {
		case <-ch:
			cancel()
		case <-ctx.Done():
		}
	}()
	refused := func() bool {
		select {
		case <-ch:
			return true
		default:
			return false
		}
	}
	return ctx, refused, func() {
		cancel()
		s.mu.Lock()
		if s.refused[subject] == ch {
			delete(s.refused, subject)
		}
		s.mu.Unlock()
	}
}

// Request sends one command (or read) to the service for campaign.
func (s *Service) Request(ctx context.Context, campaign, name string, body []byte) (*natscmd.Reply, error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, natscmd.DefaultTimeout)
		defer cancel()
	}
	subject := access.CommandSubject(s.user, campaign, name)
	ctx, refused, stop := s.watchRefusal(ctx, subject)
	defer stop()
	reply, err := natscmd.RequestIn(ctx, s.nc, s.user, campaign, name, body, string(s.lang.Or()))
	if err != nil && refused() {
		return nil, msgerr.Errorf("%w: NATS refuses %s to publish %s: the access file's role of %s may not issue %q (a command for the game master, or outside its campaign)",
			access.ErrDenied, s.user, subject, s.user, name)
	}
	var re *natscmd.ReplyError
	if errors.As(err, &re) {
		return reply, &Error{re: re, lang: string(s.lang.Or())}
	}
	if errors.Is(err, nats.ErrNoResponders) {
		return nil, msgerr.Errorf("%w: no journal answers on %s (is `journal serve --access FILE --nats-listen ADDR` running there?)", err, access.CommandSubject(s.user, campaign, name))
	}
	return reply, err
}

// Error is a refusal of the service, in the CLI's language; its
// class is the one the service gave it (natscmd.ReplyError), hence the
// same exit code as the same refusal on this machine. Its words are the
// service's: English (Error; message_en) and, in lang, the words it was
// asked for (Words).
type Error struct {
	re   *natscmd.ReplyError
	lang string // the language the request asked for
}

func (e *Error) Error() string { return e.re.Message }

// Words returns the refusal in lang: the service's local words for the
// language asked, its English for "en".
func (e *Error) Words(lang string) (string, bool) {
	switch {
	case lang == e.lang && e.re.Local != "":
		return e.re.Local, true
	case lang == "en":
		return e.re.Message, true
	}
	return "", false
}
func (e *Error) Unwrap() error { return e.re }

// Store is the store of a service client: one campaign, read through
// the service, followed on its feed; it records nothing (commands go
// through Service.Run).
type Store struct {
	s        *Service
	campaign string
}

// NewStore is the store of campaign read through s.
func NewStore(s *Service, campaign string) *Store { return &Store{s: s, campaign: campaign} }

// ErrRecord refuses to record in service mode outside a catalogued
// command.
var ErrRecord = msgerr.Errorf("%w: over the journal's NATS command service this command cannot record (only the commands of the catalogue can, as the HTTP API's GET /api/commands lists them)", access.ErrDenied)

func (r *Store) Append(context.Context, events.Expect, ...events.Event) ([]uint64, error) {
	return nil, ErrRecord
}

func (r *Store) PutSecret(context.Context, string, []byte) error { return ErrRecord }

func (r *Store) GetSecret(context.Context, string) ([]byte, error) {
	return nil, events.ErrNotFound
}

// reads reports whether q reads the store's campaign: the only one a
// service client reads (another campaign's query reads nothing).
func (r *Store) reads(q events.Query) bool {
	subject, err := events.CampaignSubject(r.campaign)
	return err == nil && (q.Subject == subject || q.Subject == subject+".>")
}

// Read pages through the campaign's events with the service's read,
// keeping those q asks for.
func (r *Store) Read(ctx context.Context, q events.Query, fn func(events.Recorded) error) error {
	_, err := r.read(ctx, q, fn)
	return err
}

// read is Read returning the last sequence delivered or skipped (0: none).
func (r *Store) read(ctx context.Context, q events.Query, fn func(events.Recorded) error) (uint64, error) {
	if !r.reads(q) {
		return 0, nil
	}
	subject, _ := events.CampaignSubject(r.campaign)
	from, last := max(q.From, 1), uint64(0)
	for {
		body := []byte(`{"from":` + strconv.FormatUint(from, 10) + `,"limit":` + strconv.Itoa(natscmd.MaxReadEvents) + `}`)
		reply, err := r.s.Request(ctx, r.campaign, access.ReadCommand, body)
		if err != nil {
			return last, err
		}
		for _, e := range reply.Events {
			if q.To != 0 && e.Seq > q.To {
				return last, nil
			}
			last = e.Seq
			if len(q.Types) > 0 && !slices.Contains(q.Types, e.Event.Type) {
				continue
			}
			ev := e.Event
			ev.StreamSubject = subject
			if err := fn(events.Recorded{Seq: e.Seq, Subject: subject, Event: ev}); err != nil {
				return last, err
			}
		}
		if reply.Next == 0 {
			return last, nil
		}
		from = reply.Next
	}
}

// Follow reads the campaign's history, then what its feed carries: a
// subscription to journalfeed.<campaign> made before the history is read,
// so that nothing recorded meanwhile is missed; an event the feed skipped
// (a gap in its sequences) is read again from the history.
func (r *Store) Follow(ctx context.Context, q events.Query, fn func(events.Recorded) error) error {
	if !r.reads(q) {
		<-ctx.Done()
		return ctx.Err()
	}
	msgs := make(chan *nats.Msg, 256)
	sub, err := r.s.nc.ChanSubscribe(access.FeedSubject(r.campaign), msgs)
	if err != nil {
		return msgerr.Errorf("follow %s: %w", access.FeedSubject(r.campaign), err)
	}
	defer func() { _ = sub.Unsubscribe() }()
	if err := r.s.nc.FlushTimeout(10 * time.Second); err != nil {
		return msgerr.Errorf("follow %s: %w", access.FeedSubject(r.campaign), err)
	}
	last, err := r.read(ctx, q, fn)
	if err != nil {
		return err
	}
	last = max(last, q.From-min(q.From, 1))
	subject, _ := events.CampaignSubject(r.campaign)
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case m := <-msgs:
			seq, err := strconv.ParseUint(m.Header.Get(access.FeedSeqHeader), 10, 64)
			if err != nil || seq <= last {
				continue
			}
			if q.To != 0 && seq > q.To {
				return nil
			}
			if seq > last+1 { // the feed skipped some: the history has them
				next := q
				next.From = last + 1
				got, err := r.read(ctx, next, fn)
				if err != nil {
					return err
				}
				last = max(last, got)
				continue
			}
			last = seq
			ev, err := events.Decode(m.Data)
			if err != nil || len(q.Types) > 0 && !slices.Contains(q.Types, ev.Type) {
				continue
			}
			ev.StreamSubject = subject
			if err := fn(events.Recorded{Seq: seq, Subject: subject, Event: ev}); err != nil {
				return err
			}
		}
	}
}

// Run sends the catalogued command name with its body under request id
// request (the body's request_id member, catalog.RequestIDField) and
// returns what the service recorded.
func (s *Service) Run(ctx context.Context, campaign, name, request string, body []byte) (command.Result, error) {
	body, err := WithRequestID(body, request)
	if err != nil {
		return command.Result{}, err
	}
	reply, err := s.Request(ctx, campaign, name, body)
	if err != nil {
		return command.Result{}, err
	}
	subject, _ := events.CampaignSubject(campaign)
	res := command.Result{Repeated: reply.Repeated, Secret: reply.Secret}
	for _, r := range reply.Recorded {
		ev := r.Event
		ev.StreamSubject = subject
		res.Events = append(res.Events, events.Recorded{Seq: r.Seq, Subject: subject, Event: ev})
	}
	return res, nil
}

// WithRequestID adds the member request_id to the JSON object body (""
// leaves it as it is).
func WithRequestID(body []byte, request string) ([]byte, error) {
	if request == "" {
		return body, nil
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(body, &members); err != nil {
		return nil, msgerr.Errorf("%w: request body: %w", command.ErrInvalid, err)
	}
	if members == nil {
		members = map[string]json.RawMessage{}
	}
	id, _ := json.Marshal(request)
	members[catalog.RequestIDField] = id
	return json.Marshal(members)
}
