// Package web is the journal's HTTP face (`journal serve`): a JSON API over
// the same command handlers as the CLI, live projections and an event feed
// (Server-Sent Events), the dashboard (plain HTML, CSS and JavaScript
// embedded in the binary), and Prometheus metrics.
//
// Invariants:
//   - Every write goes through command.Handler: the API records exactly what
//     the CLI records, with the same validation, and nothing else.
//   - A read reflects at least every event stored when the request arrived:
//     live reads wait (briefly) for the live projection to reach the
//     campaign's last sequence, and fall back to a refold from the stream.
//     A command's response is sent once its events are in the live
//     projection, so a client reads its own writes.
//   - Every error is a JSON document {"error": "...", "status": N}: 400 bad
//     input (unknown JSON fields, malformed numbers, a request the rules
//     refuse), 404 unknown campaign, character or route, 405 wrong method,
//     409 conflict, 413 body over MaxBody, 403 cross-origin request, 421 a
//     Host this server does not serve, 429 a rate limit (with Retry-After),
//     a campaign's quota, or an event stream over the server's or the
//     user's limit (Options.MaxStreams, MaxStreamsPerUser).
//   - Event streams (sse.go) follow the live projection's feed: however
//     many are open, the NATS server serves the projection's consumer
//     alone (a stream's history read is bounded and at most
//     historyReadsAtOnce run at once). Each sends every event of its
//     campaign from where it starts, once, in order; one that falls behind
//     the feed is closed and resumes with Last-Event-ID. A device's
//     streams end when it is revoked: at once through the API, at the next
//     Options.RevokeCheck when another process revokes it.
//   - Where a request comes from is checked before anything else (origin.go):
//     its Host must be localhost, a loopback address, the address it arrived
//     on or one of Options.PublicHosts (else 421: DNS rebinding); on /api/
//     and for every write, a browser's Origin must be the request's own and
//     Sec-Fetch-Site not cross-site or same-site (else 403). A refused
//     request reaches no handler and records nothing.
//   - The recorded actor is never taken from the request: without
//     Options.Access it is Options.Actor, the server's own identity (so
//     serve without an access file on loopback only: whoever reaches the
//     API acts as its host); with it, the token's user.
//   - With Options.Access, every /api/ request is authenticated by its
//     bearer token (401 without a known one) and authorized by package access
//     (403): reads of a campaign, each command with its body, the campaign
//     list filtered; the events record the user's name as their actor. The
//     dashboard's files, /metrics and /healthz stay public.
//   - The dashboard needs nothing from outside the binary: no CDN, no build
//     step. It verifies rolls in the browser from the revealed seed.
package web

import (
	"context"
	"crypto/rand"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/invite"
	"github.com/campaign-journal/journal/live"
)

// MaxBody is the largest request body accepted, in bytes.
const MaxBody = 64 << 10

// ActorHeader is a header older versions took the recorded actor from.
// It is ignored: the actor is never taken from a request. Without
// Options.Access it is Options.Actor, the server's own identity; with it,
// the authenticated user's name. Kept so that tests can prove it ignored.
const ActorHeader = "X-Journal-Actor"

//go:embed static
var staticFiles embed.FS

// Store is what the service needs of an event store.
type Store interface {
	command.Store
	events.Follower
	Last(ctx context.Context, filter string) (uint64, error)
}

// Options configures a Server.
type Options struct {
	Store Store
	// Projector is the live projection of a journal of one partition;
	// Projectors, when set instead, that of a journal of any number of
	// partitions (one projector per partition): each campaign is read
	// from its partition's projector. One of them is required.
	Projector  *live.Projector
	Projectors *live.Group
	Metrics    *Metrics // nil: NewMetrics()
	// Commands is the journal that runs the commands (shared with the
	// other surfaces of the same process, so that one cache of folded
	// campaigns serves them all); nil: one of the server's own, over
	// Store, with Clock, Rand and IDs.
	Commands *command.Handler
	// Clock, Rand and IDs are the command handlers' when Commands is nil
	// (defaults: time.Now, crypto/rand, UUID v7 from both); Clock also
	// times the server's uptime.
	Clock func() time.Time
	Rand  io.Reader
	IDs   events.IDs
	// Actor is the server's own identity, recorded as the actor of every
	// command without Options.Access (default "api"; `journal serve` uses
	// $JOURNAL_ACTOR, else "api"). No request can change it.
	Actor string
	// Access, when set, authenticates every /api/ request by its
	// "Authorization: Bearer" token (or, on the event stream only,
	// ?access_token=, AccessTokenParam) and authorizes it (package access):
	// 401 without a known token, 403 for what the user's role may not do.
	// The user's name is then the recorded actor.
	// The dashboard's files, /metrics and /healthz stay public. Nil: no
	// access control (then serve it on loopback only).
	Access *access.Config
	// Devices, with Access, is the table's book of invites and the devices
	// they signed in (package invite): a device's session token
	// authenticates like an access-file token, until it is revoked, and
	// POST /api/invites/{token} redeems an invite. Nil: no invites.
	Devices *invite.Book
	// PublicHosts are the host names (or IPs), each optionally with
	// ":port", that other machines reach the server by (through a proxy, a
	// port mapping, DNS): accepted in Host besides localhost, the loopback
	// addresses and the address the connection arrived on. Any other Host
	// is refused with 421 (DNS rebinding).
	PublicHosts []string
	Logger      *slog.Logger
	// FreshWait bounds how long a read waits for the live projection to
	// catch up before refolding from the stream (default 2 s).
	FreshWait time.Duration
	// Keepalive is the interval of comments on an idle event stream
	// (default 15 s).
	Keepalive time.Duration
	// MaxStreams is the most event streams open at once on the server
	// (default DefaultMaxStreams), and MaxStreamsPerUser the most for one
	// user (default DefaultMaxStreamsPerUser; one address without Access):
	// a stream over either is refused with 429 and Retry-After. Every
	// stream follows the live projection's feed, not a consumer of the
	// NATS server of its own.
	MaxStreams        int
	MaxStreamsPerUser int
	// RevokeCheck is how often the device book is looked at, while a
	// device's event stream is open, for revocations made by another
	// process (`journal devices revoke`), whose streams it then ends
	// (default DefaultRevokeCheck). A revocation through the API ends
	// them at once.
	RevokeCheck time.Duration
	// Lang, when set, is the language of every page (journal serve
	// --lang); else each page speaks the browser's language
	// (Accept-Language) if the catalogue has it, else DefaultLang.
	Lang i18n.Lang
	// DefaultLang is the pages' language when neither Lang nor the browser
	// names one the catalogue has (journal serve: from $LANG); default English.
	DefaultLang i18n.Lang
	// PermalinkKey is the share key of the rolls' permalinks' capabilities
	// (permalink.go; journal serve: LoadOrCreatePermalinkKey beside the
	// access file). Nil: a random key made in memory, so links last until
	// the server restarts.
	PermalinkKey []byte
}

// Server serves the API, the dashboard and the metrics. Use New.
type Server struct {
	opts    Options
	metrics *Metrics
	mux     *http.ServeMux
	handler http.Handler
	routes  []Route

	// streams ends the event streams when the server shuts down.
	streamsCtx   context.Context
	closeStreams context.CancelFunc
	// streams counts the open event streams (streams.go), and
	// historyReads holds a slot for each history read running (sse.go).
	streams      *streams
	historyReads chan struct{}
	// pages are the projections of the pages' reports (pagecache.go).
	pages     *pageCache
	startedAt time.Time
	// commands is the journal every request's actor shares (through As),
	// so that its cache of folded campaigns serves every command.
	commands *command.Handler
	// proj is the live projection (Options.Projectors, or a group of
	// Options.Projector alone).
	proj *live.Group
	// publicHosts are Options.PublicHosts, parsed.
	publicHosts []hostRule
	// permalinkKey is Options.PermalinkKey or a random one (permalink.go).
	permalinkKey []byte
}

// Route is one route of the API, for documentation and contract tests.
type Route struct {
	Method  string
	Pattern string // a net/http pattern without the method
	Doc     string
	handle  func(w http.ResponseWriter, r *http.Request) error
}

// New returns a server over the options' store and projector.
func New(opts Options) (*Server, error) {
	if opts.Store == nil || opts.Projector == nil && opts.Projectors == nil {
		return nil, msgerr.New("web: a store and a projector are required")
	}
	if opts.Projectors == nil {
		opts.Projectors = live.NewGroup(opts.Projector)
	}
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	if opts.Rand == nil {
		opts.Rand = rand.Reader
	}
	if opts.IDs == nil {
		opts.IDs = events.NewV7(opts.Clock, opts.Rand)
	}
	if opts.Actor == "" {
		opts.Actor = "api"
	}
	if a := opts.Actor; len(a) > events.MaxActorLen || !utf8.ValidString(a) || strings.IndexFunc(a, unicode.IsControl) >= 0 {
		return nil, msgerr.Errorf("web: actor %q: at most %d bytes of printable UTF-8", a, events.MaxActorLen)
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.FreshWait <= 0 {
		opts.FreshWait = 2 * time.Second
	}
	if opts.Keepalive <= 0 {
		opts.Keepalive = 15 * time.Second
	}
	if opts.MaxStreams <= 0 {
		opts.MaxStreams = DefaultMaxStreams
	}
	if opts.MaxStreamsPerUser <= 0 {
		opts.MaxStreamsPerUser = DefaultMaxStreamsPerUser
	}
	if opts.RevokeCheck <= 0 {
		opts.RevokeCheck = DefaultRevokeCheck
	}
	public, err := parsePublicHosts(opts.PublicHosts)
	if err != nil {
		return nil, err
	}
	m := opts.Metrics
	if m == nil {
		m = NewMetrics()
	}
	commands := opts.Commands
	if commands == nil {
		commands = command.New(opts.Store, command.Options{Clock: opts.Clock, Rand: opts.Rand, IDs: opts.IDs})
	}
	s := &Server{opts: opts, metrics: m, mux: http.NewServeMux(), pages: newPageCache(), startedAt: opts.Clock(), publicHosts: public,
		commands: commands, proj: opts.Projectors,
		streams: newStreams(opts.MaxStreams, opts.MaxStreamsPerUser), historyReads: make(chan struct{}, historyReadsAtOnce)}
	s.streamsCtx, s.closeStreams = context.WithCancel(context.Background())
	if s.permalinkKey = opts.PermalinkKey; len(s.permalinkKey) == 0 {
		s.permalinkKey = make([]byte, PermalinkKeySize)
		if _, err := io.ReadFull(rand.Reader, s.permalinkKey); err != nil {
			return nil, msgerr.Errorf("web: permalink key: %w", err)
		}
	} else if len(s.permalinkKey) < 16 {
		return nil, msgerr.Errorf("%w: at least 16 bytes", ErrPermalinkKey)
	}
	m.watch(opts.Projectors, opts.Clock)
	if err := s.register(); err != nil {
		return nil, err
	}
	s.handler = s.checkOrigin(s.mux)
	return s, nil
}

// ServeHTTP serves a request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// Routes returns the API's routes.
func (s *Server) Routes() []Route { return slices.Clone(s.routes) }

// Metrics returns the server's metrics.
func (s *Server) Metrics() *Metrics { return s.metrics }

// CloseStreams ends every open event stream (their clients reconnect
// elsewhere). Register it with http.Server.RegisterOnShutdown: Shutdown
// does not wait for long-lived responses by itself.
func (s *Server) CloseStreams() { s.closeStreams() }

// register builds the routes and the mux: for each path, its methods and
// a fallback answering 405 with Allow; unknown paths under /api/ answer a
// JSON 404.
func (s *Server) register() error {
	s.routes = slices.Concat(s.apiRoutes(), s.permalinkRoutes(), s.openAPIRoutes())
	methods := map[string][]string{}
	var order []string
	for _, rt := range s.routes {
		if _, ok := methods[rt.Pattern]; !ok {
			order = append(order, rt.Pattern)
		}
		methods[rt.Pattern] = append(methods[rt.Pattern], rt.Method)
		s.mux.Handle(rt.Method+" "+rt.Pattern, s.instrument(rt.Method+" "+rt.Pattern, s.guard(rt.Pattern, rt.handle)))
	}
	for _, p := range order {
		allow := methods[p]
		if slices.Contains(allow, http.MethodGet) {
			allow = append(allow, http.MethodHead)
		}
		allowed := strings.Join(allow, ", ")
		s.mux.Handle(p, s.instrument("other "+p, s.guard(p, func(w http.ResponseWriter, r *http.Request) error {
			w.Header().Set("Allow", allowed)
			return &httpError{status: http.StatusMethodNotAllowed, msg: msgerr.Errorf("method %s not allowed on %s (allowed: %s)", r.Method, clip.Text(r.URL.Path), allowed)}
		})))
	}
	s.mux.Handle("/api/", s.instrument("/api/", s.guard("/api/", func(w http.ResponseWriter, r *http.Request) error {
		return &httpError{status: http.StatusNotFound, msg: msgerr.Errorf("no such resource: %s", clip.Text(r.URL.Path))}
	})))
	s.registerPermalinks()
	s.mux.Handle("GET /metrics", s.metrics.Handler())
	s.mux.Handle("GET /healthz", s.instrument("GET /healthz", s.health))

	static, err := fs.Sub(staticFiles, "static")
	if err != nil {
		return err
	}
	s.registerTable(static)
	files := http.FileServerFS(static)
	s.mux.Handle("GET /static/", http.StripPrefix("/static/", noCache(files)))
	s.mux.Handle("GET /{$}", noCache(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.ServePage(w, r, "index.html")
	})))
	// A roll's permalink: its page verifies it in the visitor's browser.
	s.mux.Handle("GET /r/{c}/{id}", noCache(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if events.ValidID(r.PathValue("c")) != nil || !validEventID(r.PathValue("id")) {
			s.writeError(w, r, notFound("no such roll: %s", clip.Text(r.URL.Path)))
			return
		}
		s.ServePage(w, r, "roll.html")
	})))
	return nil
}

// validEventID reports whether id looks like an event id (a UUID's
// characters, at most 64): the permalink page fetches the rest.
func validEventID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, c := range id {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' || c == '-') {
			return false
		}
	}
	return true
}

// PageLang is the language of a page served for r: Options.Lang when set,
// else the first language of the request's Accept-Language that the
// catalogue has, else Options.DefaultLang, else English.
func (s *Server) PageLang(r *http.Request) i18n.Lang {
	if s.opts.Lang != "" {
		return known(s.opts.Lang)
	}
	if l, ok := acceptLang(r.Header.Get("Accept-Language")); ok {
		return l
	}
	if s.opts.DefaultLang != "" {
		return known(s.opts.DefaultLang)
	}
	return i18n.EN
}

// known is l if the pages have it, else English.
func known(l i18n.Lang) i18n.Lang {
	if l == i18n.ES {
		return i18n.ES
	}
	return i18n.EN
}

// acceptLang picks the catalogue's language the browser prefers most
// (RFC 9110 §12.5.4: the highest q, the first of equals; q=0 refuses).
func acceptLang(header string) (i18n.Lang, bool) {
	best, bestQ := i18n.Lang(""), 0.0
	for _, part := range strings.Split(header, ",") {
		tag, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		q := 1.0
		if v, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			if _, err := fmt.Sscanf(v, "%g", &q); err != nil {
				continue
			}
		}
		primary, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(tag)), "-")
		var l i18n.Lang
		switch primary {
		case "es":
			l = i18n.ES
		case "en":
			l = i18n.EN
		default:
			continue
		}
		if q > bestQ {
			best, bestQ = l, q
		}
	}
	return best, best != ""
}

// ServePage writes one of the dashboard's HTML pages (a file of static/)
// with its <html lang> set to PageLang(r): the page's scripts take their
// words from it (static/i18n.js).
func (s *Server) ServePage(w http.ResponseWriter, r *http.Request, name string) {
	page, err := staticFiles.ReadFile("static/" + name)
	if err != nil {
		s.writeError(w, r, notFound("no page %s", name))
		return
	}
	lang := s.PageLang(r)
	page = []byte(strings.Replace(string(page), `<html lang="en">`, `<html lang="`+string(lang)+`">`, 1))
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Language", string(lang))
	w.Header().Add("Vary", "Accept-Language")
	_, _ = w.Write(page)
}

// noCache makes browsers revalidate the dashboard's files, so that a new
// binary's dashboard is seen at once.
func noCache(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		h.ServeHTTP(w, r)
	})
}

// instrument turns an error-returning handler into an http.Handler that
// writes errors as JSON and counts requests by route and status.
func (s *Server) instrument(route string, h func(w http.ResponseWriter, r *http.Request) error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sw := &statusWriter{ResponseWriter: w}
		err := h(sw, r)
		if err != nil {
			if r.Context().Err() != nil && !sw.wrote {
				sw.status = 499 // the client went away
			} else if !sw.wrote {
				status := s.writeError(sw, r, err)
				if status >= 500 {
					s.opts.Logger.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
				}
			}
		}
		if sw.status == 0 {
			sw.status = http.StatusOK
		}
		s.metrics.request(route, sw.status)
	})
}

// statusWriter remembers the status written.
type statusWriter struct {
	http.ResponseWriter
	status int
	wrote  bool
}

func (w *statusWriter) WriteHeader(code int) {
	if !w.wrote {
		w.status, w.wrote = code, true
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if !w.wrote {
		w.status, w.wrote = http.StatusOK, true
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the flusher and deadlines.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// httpError is an error with its HTTP status.
// Its message is a keyed error (msgerr), so that it renders by key.
type httpError struct {
	status int
	msg    error
}

func (e *httpError) Error() string { return e.msg.Error() }
func (e *httpError) Key() string   { return "%v" }
func (e *httpError) Args() []any   { return []any{e.msg} }

func badRequest(format string, args ...any) error {
	return &httpError{status: http.StatusBadRequest, msg: msgerr.Errorf(format, args...)}
}

func notFound(format string, args ...any) error {
	return &httpError{status: http.StatusNotFound, msg: msgerr.Errorf(format, args...)}
}

// Status returns the HTTP status an error maps to.
func Status(err error) int {
	var he *httpError
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &he):
		return he.status
	case errors.As(err, &mbe):
		return http.StatusRequestEntityTooLarge
	case errors.Is(err, access.ErrUnauthenticated):
		return http.StatusUnauthorized
	}
	return command.Classify(err).HTTP // the one classification of every door
}

// errorBody is the JSON of every error response: the CLI's --json error
// (command.ErrorBody: code, message in the request's language, message_en,
// exit) and the HTTP status.
type errorBody struct {
	Error  command.ErrorBody `json:"error"`
	Status int               `json:"status"`
}

// retryAfter is a refusal that says when to try again (a rate limit's,
// see command.Limiter).
type retryAfter interface{ RetryAfter() time.Duration }

// statusClasses are the classes of the statuses only the HTTP door
// decides (its own errors: a missing route, a token, a body too large).
var statusClasses = map[int]command.Class{
	http.StatusBadRequest:            command.ClassInvalid,
	http.StatusUnauthorized:          {Code: "unauthenticated", Exit: 1, HTTP: http.StatusUnauthorized},
	http.StatusForbidden:             command.ClassDenied,
	http.StatusNotFound:              command.ClassNotFound,
	http.StatusGone:                  {Code: "gone", Exit: 1, HTTP: http.StatusGone},
	http.StatusConflict:              command.ClassConflict,
	http.StatusMisdirectedRequest:    {Code: "misdirected", Exit: 1, HTTP: http.StatusMisdirectedRequest},
	http.StatusRequestEntityTooLarge: {Code: "too_large", Exit: 1, HTTP: http.StatusRequestEntityTooLarge},
	http.StatusUnsupportedMediaType:  {Code: "unsupported_media_type", Exit: 1, HTTP: http.StatusUnsupportedMediaType},
	http.StatusTooManyRequests:       command.ClassRateLimited,
}

// classOf is err's class at this door: command.Classify's, unless the
// status is one only HTTP decides.
func classOf(err error, status int) command.Class {
	c := command.Classify(err)
	if c.HTTP != status {
		if sc, ok := statusClasses[status]; ok {
			return sc
		}
	}
	return c
}

// writeError writes err as JSON, its message in the language of r
// (Accept-Language, see PageLang; r nil: English), and returns the status;
// a refusal that says when to try again also sets Retry-After, in whole
// seconds.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) int {
	status := Status(err)
	var ra retryAfter
	if errors.As(err, &ra) {
		w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(ra.RetryAfter().Seconds()))))
	}
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		err = msgerr.Errorf("request body larger than %d bytes", mbe.Limit)
	}
	lang := i18n.EN
	if r != nil {
		lang = s.PageLang(r)
		w.Header().Add("Vary", "Accept-Language")
	}
	body := command.NewErrorBody(err, classOf(err, status), lang, command.Message)
	writeJSON(w, status, errorBody{Error: body, Status: status})
	return status
}

// writeJSON writes v as an indented JSON document.
func writeJSON(w http.ResponseWriter, status int, v any) error {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// actor returns who issues a request: with access control, the
// authenticated user's name; else the server's own identity. Nothing the
// request says (no header, no field) changes it.
func (s *Server) actor(r *http.Request) (string, error) {
	if s.opts.Access != nil {
		p, ok := principal(r)
		if !ok {
			return "", msgerr.New("web: a command reached without being authenticated")
		}
		return p.Name, nil
	}
	return s.opts.Actor, nil
}

// journal returns the command handlers for one actor (a call naming its
// actor alone is always valid: command.Call.Valid).
func (s *Server) journal(actor string) *command.Handler {
	return s.commands.MustFor(command.Call{Actor: actor})
}
