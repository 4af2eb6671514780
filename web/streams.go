package web

import (
	"context"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/invite"
)

// Defaults of the event streams' limits (Options.MaxStreams,
// Options.MaxStreamsPerUser, Options.RevokeCheck).
const (
	DefaultMaxStreams        = 16384
	DefaultMaxStreamsPerUser = 16
	DefaultRevokeCheck       = time.Second
)

// Why an open event stream was ended (the cause of its context).
var (
	errStreamRevoked  = msgerr.New("the device was revoked")
	errStreamShutdown = msgerr.New("the server is shutting down")
)

// streams counts the open event streams by owner, refuses one over the
// limits, and ends those of a device at once when it is revoked.
//
// Invariants: total and perOwner count exactly the streams opened and
// not yet closed; a stream is refused (429) rather than opened past
// MaxStreams in all or MaxStreamsPerUser for one owner; every open
// stream of a device is in byDevice under its id, and revoke ends each
// of them (their context's cause is errStreamRevoked).
type streams struct {
	max, perOwner int

	mu       sync.Mutex
	total    int
	perUser  map[string]int
	byDevice map[string]map[*openStream]struct{}
	watching bool // a watch of the device book runs (watchRevoked)
}

// openStream is one open event stream.
type openStream struct {
	owner, device string
	end           context.CancelCauseFunc
}

func newStreams(max, perOwner int) *streams {
	return &streams{max: max, perOwner: perOwner, perUser: map[string]int{}, byDevice: map[string]map[*openStream]struct{}{}}
}

// tooMany is the refusal of a stream over a limit.
func tooMany(format string, args ...any) error {
	return &httpError{status: http.StatusTooManyRequests, msg: msgerr.Errorf(format, args...)}
}

// open counts a new stream of owner (and of device, when not ""), which
// end ends, or refuses it with a 429; startWatch reports whether the
// caller must start the watch of revoked devices.
func (ss *streams) open(owner, device string, end context.CancelCauseFunc) (st *openStream, startWatch bool, err error) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	switch {
	case ss.total >= ss.max:
		return nil, false, tooMany("too many event streams open on this server (%d): try again later", ss.max)
	case ss.perUser[owner] >= ss.perOwner:
		return nil, false, tooMany("too many event streams open for %s (%d): close one first", owner, ss.perOwner)
	}
	st = &openStream{owner: owner, device: device, end: end}
	ss.total++
	ss.perUser[owner]++
	if device != "" {
		set := ss.byDevice[device]
		if set == nil {
			set = map[*openStream]struct{}{}
			ss.byDevice[device] = set
		}
		set[st] = struct{}{}
		if !ss.watching {
			ss.watching, startWatch = true, true
		}
	}
	return st, startWatch, nil
}

// close uncounts st.
func (ss *streams) close(st *openStream) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.total--
	if ss.perUser[st.owner]--; ss.perUser[st.owner] <= 0 {
		delete(ss.perUser, st.owner)
	}
	if st.device != "" {
		set := ss.byDevice[st.device]
		delete(set, st)
		if len(set) == 0 {
			delete(ss.byDevice, st.device)
		}
	}
}

// revoke ends every open stream of device at once and returns how many.
func (ss *streams) revoke(device string) int {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	for st := range ss.byDevice[device] {
		st.end(errStreamRevoked)
	}
	return len(ss.byDevice[device])
}

// devices returns the devices with open streams; none stops the watch.
func (ss *streams) devices() []string {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	out := make([]string, 0, len(ss.byDevice))
	for d := range ss.byDevice {
		out = append(out, d)
	}
	if len(out) == 0 {
		ss.watching = false
	}
	return out
}

// open returns the number of open streams.
func (ss *streams) count() int {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.total
}

// watchRevoked ends the streams of the devices revoked in book by another
// process (`journal devices revoke` writes the book's file; the Book
// re-reads it when it changes) every interval, until ctx ends or no
// device stream is open. A revocation through this server's API ends
// them at once (revokeDevice).
func (ss *streams) watchRevoked(ctx context.Context, book *invite.Book, interval time.Duration) {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			ss.mu.Lock()
			ss.watching = false
			ss.mu.Unlock()
			return
		case <-tick.C:
		}
		open := ss.devices()
		if len(open) == 0 {
			return
		}
		f, err := book.Load(ctx)
		valid := map[string]bool{}
		if err == nil { // an unreadable book authenticates nobody (Book.ByToken)
			for _, d := range f.Devices {
				valid[d.ID] = d.Revoked.IsZero()
			}
		}
		for _, d := range open {
			if !valid[d] {
				ss.revoke(d)
			}
		}
	}
}

// streamOwner names whom a stream counts against: the authenticated user,
// else (no access control: loopback only) the client's address.
func streamOwner(r *http.Request) string {
	if p, ok := principal(r); ok {
		return "user " + p.Name
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	return "address " + host
}
