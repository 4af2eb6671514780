package serve

import (
	"context"
	"net"
	"net/netip"
	"time"

	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/web"
)

// The HTTP side of the server secure by default (docs/design.md §6):
// without an access file the HTTP API acts with the server's own identity
// for whoever reaches it, so it is served on the loopback interface only;
// another address, or --public-host, needs --access FILE.

// errNotLoopback is the refusal of an --http address other machines reach
// without an access file.
var errNotLoopback = msgerr.New("not a loopback address")

// lookupIP resolves a host name.
func lookupIP(ctx context.Context, host string) ([]netip.Addr, error) {
	return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
}

// checkHTTPBind refuses, before anything is opened, an --http address off
// the loopback interface (all interfaces, a LAN address, a name resolving to
// one) and --public-host when the server runs without an access file.
func checkHTTPBind(ctx context.Context, o Options) error {
	for _, h := range o.PublicHosts {
		if err := web.ValidPublicHost(h); err != nil {
			return msgerr.Errorf("serve: --public-host %s: %w", h, err)
		}
	}
	if o.Access != nil {
		return nil
	}
	if len(o.PublicHosts) > 0 {
		return msgerr.Errorf("serve: --public-host %s lets other machines reach the journal: without an access file anyone reaching it would act as the game master; give --access FILE (or $JOURNAL_ACCESS) with the users and their tokens", o.PublicHosts[0])
	}
	if err := loopbackOnly(ctx, o.HTTPAddr, lookupIP); err != nil {
		return msgerr.Errorf("serve: --http %s: %w: without an access file the journal serves only this machine (127.0.0.1, [::1] or localhost), since anyone reaching it would act as the game master; give --access FILE (or $JOURNAL_ACCESS) to serve other machines", o.HTTPAddr, err)
	}
	return nil
}

// loopbackOnly checks that addr (host:port) listens on loopback addresses
// only: an IP literal in 127.0.0.0/8 or ::1, or a name all of whose
// addresses (by lookup) are.
func loopbackOnly(ctx context.Context, addr string, lookup func(context.Context, string) ([]netip.Addr, error)) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	if host == "" {
		return msgerr.Errorf("%w (no host: every interface)", errNotLoopback)
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		if !ip.Unmap().IsLoopback() {
			return msgerr.Errorf("%w (%s)", errNotLoopback, ip)
		}
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	ips, err := lookup(ctx, host)
	if err != nil {
		return msgerr.Errorf("%w (%s does not resolve: %v)", errNotLoopback, host, err)
	}
	if len(ips) == 0 {
		return msgerr.Errorf("%w (%s has no address)", errNotLoopback, host)
	}
	for _, ip := range ips {
		if !ip.Unmap().IsLoopback() {
			return msgerr.Errorf("%w (%s resolves to %s)", errNotLoopback, host, ip)
		}
	}
	return nil
}

// listenHTTP listens on --http and, without an access file, checks again
// that the address bound is a loopback one (a name may resolve differently
// the second time).
func listenHTTP(o Options) (net.Listener, error) {
	ln, err := net.Listen("tcp", o.HTTPAddr)
	if err != nil {
		return nil, msgerr.Errorf("serve: --http %s: %w", o.HTTPAddr, err)
	}
	if o.Access == nil {
		ap, err := netip.ParseAddrPort(ln.Addr().String())
		if err != nil || !ap.Addr().Unmap().IsLoopback() {
			ln.Close()
			return nil, msgerr.Errorf("serve: --http %s: %w (bound %s): give --access FILE (or $JOURNAL_ACCESS) to serve other machines", o.HTTPAddr, errNotLoopback, ln.Addr())
		}
	}
	return ln, nil
}
