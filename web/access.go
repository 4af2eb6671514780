package web

import (
	"context"
	"net/http"
	"strings"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// AccessTokenParam is the query parameter that carries a bearer token on
// the event stream (GET /api/campaigns/{c}/events with Accept:
// text/event-stream) only: a browser's EventSource cannot send an
// Authorization header. Every other request must use the header.
const AccessTokenParam = "access_token"

// eventsPattern is the route whose event stream accepts AccessTokenParam.
const eventsPattern = "/api/campaigns/{c}/events"

// principalKey is the context key of the request's access.Principal.
type principalKey struct{}

// deviceKey is the context key of the id of the device (package invite)
// whose session token authenticated the request, when one did.
type deviceKey struct{}

// principal returns the principal the request was authenticated as; ok is
// false when the server runs without access control.
func principal(r *http.Request) (access.Principal, bool) {
	p, ok := r.Context().Value(principalKey{}).(access.Principal)
	return p, ok
}

// deviceOf returns the id of the device whose token authenticated the
// request, "" for any other token or none.
func deviceOf(r *http.Request) string {
	d, _ := r.Context().Value(deviceKey{}).(string)
	return d
}

// guard authenticates every request of an API route when Options.Access is
// set (401 with WWW-Authenticate: Bearer without a known token) and, for the
// routes of one campaign ({c}), authorizes the read of that campaign (403).
// Commands are authorized again, with their bodies, by runCommand and
// createCampaign. Without Options.Access, h is returned as is.
func (s *Server) guard(pattern string, h func(w http.ResponseWriter, r *http.Request) error) func(w http.ResponseWriter, r *http.Request) error {
	if s.opts.Access == nil {
		return h
	}
	return func(w http.ResponseWriter, r *http.Request) error {
		p, device, err := s.authenticate(r, pattern)
		if err != nil {
			w.Header().Set("WWW-Authenticate", `Bearer realm="journal"`)
			return err
		}
		if strings.Contains(pattern, "{c}") {
			if err := access.AuthorizeRead(p, r.PathValue("c")); err != nil {
				return err
			}
		}
		ctx := context.WithValue(r.Context(), principalKey{}, p)
		if device != "" {
			ctx = context.WithValue(ctx, deviceKey{}, device)
		}
		return h(w, r.WithContext(ctx))
	}
}

// authenticate finds the request's principal from its Authorization header
// or, on the event stream only, from ?access_token=, and the id of the
// device whose token it is ("" for a user of the access file).
func (s *Server) authenticate(r *http.Request, pattern string) (access.Principal, string, error) {
	if r.Header.Get("Authorization") == "" && pattern == eventsPattern && r.Method == http.MethodGet && wantsStream(r) {
		if tok := r.URL.Query().Get(AccessTokenParam); tok != "" {
			if p, device, ok := s.byToken(tok); ok {
				return p, device, nil
			}
			return access.Principal{}, "", msgerr.Errorf("%w: unknown token", access.ErrUnauthenticated)
		}
	}
	p, err := s.opts.Access.FromRequest(r)
	if err == nil || s.opts.Devices == nil {
		return p, "", err
	}
	if scheme, tok, ok := strings.Cut(r.Header.Get("Authorization"), " "); ok && strings.EqualFold(scheme, "Bearer") {
		if p, device, ok := s.byToken(strings.TrimSpace(tok)); ok {
			return p, device, nil
		}
	}
	return p, "", err
}

// byToken finds a token's principal: a user of the access file, else a
// device the table's invites signed in (not revoked), with its id.
func (s *Server) byToken(tok string) (access.Principal, string, bool) {
	if p, ok := s.opts.Access.ByToken(tok); ok {
		return p, "", true
	}
	if s.opts.Devices != nil {
		if p, d, ok := s.opts.Devices.ByToken(tok); ok {
			return p, d.ID, true
		}
	}
	return access.Principal{}, "", false
}

// authorizeCommand decides whether the request's principal may issue
// command in campaign with body (access.AuthorizeRequest). Without access
// control everything is allowed.
func (s *Server) authorizeCommand(r *http.Request, campaign, command string, body []byte) error {
	if s.opts.Access == nil {
		return nil
	}
	p, ok := principal(r)
	if !ok {
		return msgerr.New("web: a request reached a command without being authenticated")
	}
	return access.AuthorizeCommand(p, campaign, command, body)
}

// mayRead reports whether the request may read campaign.
func (s *Server) mayRead(r *http.Request, campaign string) bool {
	if s.opts.Access == nil {
		return true
	}
	p, ok := principal(r)
	return ok && access.AuthorizeRead(p, campaign) == nil
}
