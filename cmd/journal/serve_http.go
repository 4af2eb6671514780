package main

import (
	"context"
	"net"
	"net/netip"
	"time"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/web"
)

// The HTTP side of `journal serve` secure by default (docs/design.md §6):
// without an access file the HTTP API acts with the server's own identity
// for whoever reaches it, so it is served on the loopback interface only;
// another address, or --public-host, needs --access FILE.

// errNotLoopback is the refusal of an --http address other machines reach
// without an access file.
var errNotLoopback = msgerr.New("not a loopback address")

// serveHTTPFlags registers the HTTP flags of serve other than --http.
func serveHTTPFlags(cmd *cobra.Command, o *serveOptions) {
	cmd.Flags().StringSliceVar(&o.publicHosts, "public-host", nil,
		"a host name (or IP), optionally with :port, that browsers reach the journal by through a proxy, a port mapping or DNS; accepted in Host besides localhost, the loopback and listening addresses (repeatable; needs --access)")
}

// lookupIP resolves a host name.
func lookupIP(ctx context.Context, host string) ([]netip.Addr, error) {
	return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
}

// checkHTTPBind refuses, before anything is opened, an --http address off
// the loopback interface (all interfaces, a LAN address, a name resolving to
// one) and --public-host when serve runs without an access file.
func (a *app) checkHTTPBind(ctx context.Context, o serveOptions) error {
	if err := a.loadAccess(); err != nil {
		return err
	}
	for _, h := range o.publicHosts {
		if err := web.ValidPublicHost(h); err != nil {
			return msgerr.Errorf("serve: --public-host %s: %w", h, err)
		}
	}
	if a.access != nil {
		return nil
	}
	if len(o.publicHosts) > 0 {
		return msgerr.Errorf("serve: --public-host %s lets other machines reach the journal: without an access file anyone reaching it would act as the game master; give --access FILE (or $JOURNAL_ACCESS) with the users and their tokens", o.publicHosts[0])
	}
	if err := loopbackOnly(ctx, o.httpAddr, lookupIP); err != nil {
		return msgerr.Errorf("serve: --http %s: %w: without an access file the journal serves only this machine (127.0.0.1, [::1] or localhost), since anyone reaching it would act as the game master; give --access FILE (or $JOURNAL_ACCESS) to serve other machines", o.httpAddr, err)
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
func (a *app) listenHTTP(o serveOptions) (net.Listener, error) {
	ln, err := net.Listen("tcp", o.httpAddr)
	if err != nil {
		return nil, msgerr.Errorf("serve: --http %s: %w", o.httpAddr, err)
	}
	if a.access == nil {
		ap, err := netip.ParseAddrPort(ln.Addr().String())
		if err != nil || !ap.Addr().Unmap().IsLoopback() {
			ln.Close()
			return nil, msgerr.Errorf("serve: --http %s: %w (bound %s): give --access FILE (or $JOURNAL_ACCESS) to serve other machines", o.httpAddr, errNotLoopback, ln.Addr())
		}
	}
	return ln, nil
}
