package access

import (
	"github.com/campaign-journal/journal/internal/msgerr"
	"net/http"
	"strings"
)

// ErrUnauthenticated is returned (wrapped) for an HTTP request without a
// known token: answer 401 with a WWW-Authenticate: Bearer header.
var ErrUnauthenticated = msgerr.New("unauthenticated")

// FromRequest returns the principal of an HTTP request from its
// "Authorization: Bearer <token>" header. A missing, malformed or unknown
// token is an error wrapping ErrUnauthenticated.
func (c *Config) FromRequest(r *http.Request) (Principal, error) {
	h := r.Header.Get("Authorization")
	if h == "" {
		return Principal{}, msgerr.Errorf("%w: no Authorization header (want: Bearer <token>)", ErrUnauthenticated)
	}
	scheme, token, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
		return Principal{}, msgerr.Errorf("%w: Authorization is not Bearer <token>", ErrUnauthenticated)
	}
	p, ok := c.ByToken(strings.TrimSpace(token))
	if !ok {
		return Principal{}, msgerr.Errorf("%w: unknown token", ErrUnauthenticated)
	}
	return p, nil
}
