package web

import (
	"errors"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"

	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// Where a request may come from: the defence against DNS rebinding and
// cross-site requests, applied before any authentication, body or handler.
//
// Invariants:
//   - Host must name an address this server serves (hostAllowed), or the
//     request is refused with 421 and reaches no handler. A page of another
//     site that rebinds its own name to the journal's address sends its own
//     name as Host, so it can neither read nor write.
//   - On /api/, and for every method other than GET, HEAD and OPTIONS, a
//     browser's Origin must be the request's own (same host and port),
//     "Origin: null" is refused, and Sec-Fetch-Site "cross-site" or
//     "same-site" is refused (403). Sec-Fetch-Site is a hint that can only
//     refuse: "same-origin" admits nothing by itself, Host and Origin are
//     still checked.
//   - /metrics and /healthz are exempt (monitoring reaches them by any
//     name); they hold no campaign data.

// errMisdirected is the refusal of a Host this server does not serve.
var errMisdirected = msgerr.New("misdirected request")

// errBadPublicHost is the refusal of an entry of Options.PublicHosts.
var errBadPublicHost = msgerr.New("want a host name or IP address, optionally with :port (no scheme, path or wildcard)")

// hostRule is one accepted name of Options.PublicHosts: a host name or IP,
// and a port ("" for any).
type hostRule struct{ name, port string }

// parsePublicHosts validates Options.PublicHosts: each a host name or IP
// literal, optionally with ":port"; no scheme, path or wildcard.
func parsePublicHosts(hosts []string) ([]hostRule, error) {
	var out []hostRule
	for _, h := range hosts {
		if strings.ContainsAny(h, "/*@ ") {
			return nil, msgerr.Errorf("web: public host %q: %w", h, errBadPublicHost)
		}
		name, port, err := splitHost(h)
		if err == nil && !validHostName(name) {
			err = errBadPublicHost
		}
		if err != nil {
			return nil, msgerr.Errorf("web: public host %q: %w", h, err)
		}
		out = append(out, hostRule{name: name, port: port})
	}
	return out, nil
}

// ValidPublicHost checks one entry of Options.PublicHosts: a host name or
// IP address, optionally with ":port"; no scheme, path or wildcard.
func ValidPublicHost(h string) error {
	if _, err := parsePublicHosts([]string{h}); err != nil {
		return errors.Unwrap(err)
	}
	return nil
}

// validHostName reports whether name is an IP literal or a DNS name of
// letters, digits, hyphens and dots.
func validHostName(name string) bool {
	if _, err := netip.ParseAddr(name); err == nil {
		return true
	}
	if name == "" || len(name) > 253 {
		return false
	}
	for _, label := range strings.Split(name, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, c := range label {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}

// splitHost splits a Host header (or an Origin's host) into its lower-case
// name, without brackets or a final dot, and its port ("" when absent).
func splitHost(hostport string) (name, port string, err error) {
	rest := ""
	switch {
	case hostport == "":
		return "", "", msgerr.New("empty")
	case hostport[0] == '[':
		end := strings.IndexByte(hostport, ']')
		if end < 0 {
			return "", "", msgerr.New("no closing ]")
		}
		name, rest = hostport[1:end], hostport[end+1:]
		if _, err := netip.ParseAddr(name); err != nil || !strings.Contains(name, ":") {
			return "", "", msgerr.New("not an IPv6 address in brackets")
		}
	case strings.Count(hostport, ":") > 1:
		return "", "", msgerr.New("an IPv6 address needs brackets")
	default:
		name = hostport
		if i := strings.IndexByte(hostport, ':'); i >= 0 {
			name, rest = hostport[:i], hostport[i:]
		}
	}
	if rest != "" {
		port = strings.TrimPrefix(rest, ":")
		if n, err := strconv.ParseUint(port, 10, 16); err != nil || n == 0 || rest[0] != ':' {
			return "", "", msgerr.Errorf("port %q", clip.Text(rest))
		}
	}
	name = strings.TrimSuffix(strings.ToLower(name), ".")
	if name == "" {
		return "", "", msgerr.New("empty name")
	}
	return name, port, nil
}

// localAddr is the address the request's connection arrived on, when the
// server knows it (not for a handler called directly).
func localAddr(r *http.Request) (netip.AddrPort, bool) {
	a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return netip.AddrPort{}, false
	}
	ap, err := netip.ParseAddrPort(a.String())
	if err != nil {
		return netip.AddrPort{}, false
	}
	return netip.AddrPortFrom(ap.Addr().Unmap().WithZone(""), ap.Port()), true
}

// defaultPort is the port a Host without one means.
func defaultPort(r *http.Request) string {
	if r.TLS != nil {
		return "443"
	}
	return "80"
}

// hostAllowed checks the request's Host: a loopback name or address
// ("localhost", 127.0.0.0/8, ::1), or the IP address the connection arrived
// on, with the port it arrived on; or one of Options.PublicHosts (with its
// port, when the entry has one). The error says what was refused.
func (s *Server) hostAllowed(r *http.Request) error {
	name, port, err := splitHost(r.Host)
	if err != nil {
		return msgerr.Errorf("%w: Host %q: %v", errMisdirected, clip.Text(r.Host), err)
	}
	for _, p := range s.publicHosts {
		if p.name == name && (p.port == "" || p.port == port || port == "" && p.port == defaultPort(r)) {
			return nil
		}
	}
	local, known := localAddr(r)
	ours := name == "localhost"
	if ip, err := netip.ParseAddr(name); err == nil {
		ip = ip.Unmap().WithZone("")
		ours = ip.IsLoopback() || known && ip == local.Addr()
	}
	if ours && known {
		want := strconv.Itoa(int(local.Port()))
		if got := port; got == "" && want != defaultPort(r) || got != "" && got != want {
			if got == "" {
				got = defaultPort(r)
			}
			return msgerr.Errorf("%w: Host %q: port %s, but this journal serves port %s", errMisdirected, clip.Text(r.Host), got, want)
		}
	}
	if !ours {
		return msgerr.Errorf("%w: Host %q is not an address of this journal (it answers to localhost, its loopback and listening addresses%s)",
			errMisdirected, clip.Text(r.Host), s.publicHint())
	}
	return nil
}

// publicHint lists the public hosts for an error message.
func (s *Server) publicHint() string {
	if len(s.opts.PublicHosts) == 0 {
		return "; serve --public-host NAME adds a name, with --access"
	}
	return ", and " + strings.Join(s.opts.PublicHosts, ", ")
}

// safeMethod reports whether a method changes nothing.
func safeMethod(m string) bool {
	return m == http.MethodGet || m == http.MethodHead || m == http.MethodOptions
}

// originAllowed checks what a browser says of where a request comes from:
// Sec-Fetch-Site (refusing cross-site and same-site; trusting nothing) and
// Origin, which must be the request's own scheme-less host and port.
// Requests without either header (command-line clients) pass: a browser
// sends Origin with every request but same-origin GETs and navigations.
func originAllowed(r *http.Request) error {
	switch site := r.Header.Get("Sec-Fetch-Site"); site {
	case "", "same-origin":
	case "none":
		if !safeMethod(r.Method) {
			return msgerr.Errorf("Sec-Fetch-Site %q on a %s: refused", clip.Text(site), r.Method)
		}
	default:
		return msgerr.Errorf("cross-origin request refused (Sec-Fetch-Site %q)", clip.Text(site))
	}
	origins := r.Header.Values("Origin")
	switch {
	case len(origins) == 0:
		return nil
	case len(origins) > 1:
		return msgerr.New("cross-origin request refused (more than one Origin)")
	case origins[0] == "null":
		return msgerr.New("cross-origin request refused (Origin null: a sandboxed page, a file or a redirect)")
	}
	o := origins[0]
	u, err := url.Parse(o)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
		return msgerr.Errorf("cross-origin request refused (Origin %q is not an http origin)", clip.Text(o))
	}
	oname, oport, err1 := splitHost(u.Host)
	hname, hport, err2 := splitHost(r.Host)
	if oport == "" {
		oport = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	if hport == "" {
		hport = oport // the Host of a request a proxy forwards may lack the port
	}
	if err1 != nil || err2 != nil || oname != hname || oport != hport {
		return msgerr.Errorf("cross-origin request refused (Origin %s, Host %s)", o, r.Host)
	}
	return nil
}

// checkOrigin wraps the mux with hostAllowed (all but /metrics and
// /healthz) and originAllowed (/api/ and unsafe methods): a refused request
// gets a JSON error, 421 or 403, and reaches nothing else.
func (s *Server) checkOrigin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/metrics" || r.URL.Path == "/healthz" {
			next.ServeHTTP(w, r)
			return
		}
		if err := s.hostAllowed(r); err != nil {
			s.refuse(w, r, http.StatusMisdirectedRequest, err)
			return
		}
		if strings.HasPrefix(r.URL.Path, "/api/") || !safeMethod(r.Method) {
			if err := originAllowed(r); err != nil {
				s.refuse(w, r, http.StatusForbidden, err)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// refuse answers a request checkOrigin refused, and counts it.
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, status int, err error) {
	s.opts.Logger.Warn("request refused", "method", r.Method, "path", r.URL.Path, "host", r.Host,
		"origin", r.Header.Get("Origin"), "sec_fetch_site", r.Header.Get("Sec-Fetch-Site"), "status", status, "err", err)
	s.writeError(w, r, &httpError{status: status, msg: err})
	s.metrics.request("refused", status)
}
