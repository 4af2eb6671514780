// Package embedded runs a NATS server with JetStream inside the journal's
// process, keeping its data in a folder, and lets several processes share
// one data folder.
//
// Sharing a data folder. Two servers must never open the same JetStream
// store, so a data folder has one owner at a time:
//
//   - Start takes an exclusive flock on <Dir>/journal.lock (released by the
//     kernel when the process ends, however it ends). The owner runs the
//     server with its store in <Dir>/jetstream.
//   - An owner started with Share (as `journal serve` is) also listens on a
//     loopback port (127.0.0.1, random, protected by a random token) unless
//     Listen names an address, and writes <Dir>/server.json (mode 0600,
//     written to a temporary file and renamed) with its pid, client URL and
//     token. Shutdown removes it before stopping the server.
//   - With Options.Users (the roles of package access), every connection
//     signs in as a user: the owner as a privileged user of its own with a
//     random password, which server.json carries instead of the token.
//   - A Start that finds the lock held reads server.json and connects to the
//     owner as an ordinary client: commands work while `journal serve` runs.
//     When the owner does not share (another short command), Start polls
//     until the lock is free or Options.Wait has passed.
//   - A server.json left by a crashed owner is ignored: its lock is free,
//     so the next Start takes it and removes the stale file.
//   - No port is ever open to anonymous clients: without users, a Listen
//     address takes the random token too (in server.json with Share).
//
// Invariants: at most one server per data folder; a Server's connection is
// the only thing callers use, whether it is in-process or to the owner.
package embedded

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// File names inside the data folder.
const (
	LockFile = "journal.lock"
	InfoFile = "server.json"
)

// Options configures Start.
type Options struct {
	// Dir is the data folder; it is created if missing.
	Dir string
	// Sync makes JetStream sync every write to disk before acknowledging it
	// (SyncAlways). Otherwise it flushes on its default interval and a power
	// loss can lose acknowledged events.
	Sync bool
	// Listen is the client address to open ("host:port", port 0 for a random
	// one). Empty opens no port: the server is reached in-process only
	// (unless Share is set). Without Users, the port takes only the owner's
	// random token: open it to other clients with Users.
	Listen string
	// Share lets other processes using Dir connect through this server (see
	// the package documentation). Without Listen, it opens a random loopback
	// port protected by a token.
	Share bool
	// Wait bounds how long Start waits for a data folder owned by a process
	// that does not share it. 0 means 30 seconds.
	Wait time.Duration
	// ServerName names the server; empty means "journal".
	ServerName string
	// Users and NkeyUsers are the NATS users the server accepts, with their
	// permissions (package access builds them from the journal's roles).
	// When either is set, every connection must sign in as one of them (or
	// as the owner's own user, below), and no token is used. They are
	// copied: the caller's values are not changed.
	//
	// The owner connects as a user of its own, with every permission, whose
	// name and random password only it knows; with Share they are written
	// to server.json (mode 0600), so that other journal processes on the
	// data folder connect as that privileged user, as they would with the
	// token. All users belong to the global account, which holds the
	// journal's stream, so a data folder keeps its events whether or not
	// users are configured.
	Users     []*server.User
	NkeyUsers []*server.NkeyUser
	// Responder, with Users or NkeyUsers, adds a second user of the
	// owner's, with these permissions and a random password, for the
	// connection of a service that answers requests (ResponderConn): its
	// publish permissions bound where the service's replies can go,
	// whatever subject a requester names for them.
	Responder *server.Permissions
}

// Server is a running embedded server, or a connection to the process that
// owns the data folder. Use Start; call Shutdown when done.
type Server struct {
	ns   *server.Server // nil when connected to another process
	nc   *nats.Conn
	js   jetstream.JetStream
	url  string
	lock *os.File // held while we own the folder
	info string   // path of server.json we wrote, or ""
	once sync.Once

	// responder is the user of Options.Responder ("" without one).
	responder, responderPassword string
}

// serverInfo is the content of server.json.
type serverInfo struct {
	PID      int    `json:"pid"`
	URL      string `json:"url"`
	Token    string `json:"token,omitempty"`
	User     string `json:"user,omitempty"`
	Password string `json:"password,omitempty"`
}

// ownerUserPrefix starts the name of the owner's own user when users are
// configured.
const ownerUserPrefix = "journal-owner-"

// randomHex returns n random bytes in hex.
func randomHex(n int) (string, error) {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// Start starts the embedded server on opts.Dir, or connects to the process
// that serves it.
func Start(ctx context.Context, opts Options) (*Server, error) {
	if opts.Dir == "" {
		return nil, msgerr.New("embedded: no data folder")
	}
	if opts.Wait <= 0 {
		opts.Wait = 30 * time.Second
	}
	dir, err := filepath.Abs(opts.Dir)
	if err != nil {
		return nil, msgerr.Errorf("embedded: data folder: %w", err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, msgerr.Errorf("embedded: data folder: %w", err)
	}
	deadline := time.Now().Add(opts.Wait)
	for {
		lock, err := os.OpenFile(filepath.Join(dir, LockFile), os.O_CREATE|os.O_RDWR, 0o600)
		if err != nil {
			return nil, msgerr.Errorf("embedded: %w", err)
		}
		ok, err := tryLock(lock)
		if err != nil {
			lock.Close()
			return nil, msgerr.Errorf("embedded: lock %s: %w", lock.Name(), err)
		}
		if ok {
			s, err := startOwner(ctx, dir, opts, lock)
			if err != nil {
				unlock(lock)
				lock.Close()
				return nil, err
			}
			return s, nil
		}
		lock.Close()
		if s, err := connectShared(ctx, dir); err == nil {
			return s, nil
		}
		if time.Now().After(deadline) {
			return nil, msgerr.Errorf("embedded: data folder %s is in use by another process (%s) that does not share it", dir, lockHolder(dir))
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// startOwner runs the server; the caller holds the lock.
func startOwner(ctx context.Context, dir string, opts Options, lock *os.File) (*Server, error) {
	infoPath := filepath.Join(dir, InfoFile)
	if err := os.Remove(infoPath); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, msgerr.Errorf("embedded: remove stale %s: %w", infoPath, err)
	}
	_ = lock.Truncate(0)
	_, _ = lock.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)

	name := opts.ServerName
	if name == "" {
		name = "journal"
	}
	sopts := &server.Options{
		ServerName: name,
		JetStream:  true,
		StoreDir:   dir,
		NoLog:      true,
		NoSigs:     true,
		SyncAlways: opts.Sync,
	}
	var token string
	var owner serverInfo // the owner's own user, when users are configured
	var responder, responderPassword string
	if opts.Responder != nil && len(opts.Users) == 0 && len(opts.NkeyUsers) == 0 {
		return nil, msgerr.New("embedded: a responder user needs Users or NkeyUsers")
	}
	if len(opts.Users) > 0 || len(opts.NkeyUsers) > 0 {
		suffix, err := randomHex(8)
		if err != nil {
			return nil, msgerr.Errorf("embedded: owner user: %w", err)
		}
		password, err := randomHex(24)
		if err != nil {
			return nil, msgerr.Errorf("embedded: owner user: %w", err)
		}
		owner.User, owner.Password = ownerUserPrefix+suffix, password
		sopts.Users = []*server.User{{Username: owner.User, Password: owner.Password}}
		if opts.Responder != nil {
			if responderPassword, err = randomHex(24); err != nil {
				return nil, msgerr.Errorf("embedded: responder user: %w", err)
			}
			responder = owner.User + "-responder"
			p := *opts.Responder
			sopts.Users = append(sopts.Users, &server.User{Username: responder, Password: responderPassword, Permissions: &p})
		}
		for _, u := range opts.Users {
			if u == nil {
				continue
			}
			if strings.HasPrefix(u.Username, ownerUserPrefix) {
				return nil, msgerr.Errorf("embedded: user name %q: the prefix %q is reserved", u.Username, ownerUserPrefix)
			}
			c := *u
			sopts.Users = append(sopts.Users, &c)
		}
		for _, u := range opts.NkeyUsers {
			if u == nil {
				continue
			}
			c := *u
			sopts.Nkeys = append(sopts.Nkeys, &c)
		}
	}
	switch {
	case opts.Listen != "":
		host, port, err := splitHostPort(opts.Listen)
		if err != nil {
			return nil, err
		}
		sopts.Host, sopts.Port = host, port
	case opts.Share:
		sopts.Host, sopts.Port = "127.0.0.1", server.RANDOM_PORT
	default:
		sopts.DontListen = true
	}
	// A port is never open to anonymous clients: without users, only the
	// holders of a random token (the owner, and through server.json, mode
	// 0600, the journal's processes on the folder) sign in.
	if !sopts.DontListen && owner.User == "" {
		var err error
		if token, err = randomHex(24); err != nil {
			return nil, msgerr.Errorf("embedded: token: %w", err)
		}
		sopts.Authorization = token
	}
	ns, err := server.NewServer(sopts)
	if err != nil {
		return nil, msgerr.Errorf("embedded: new server: %w", err)
	}
	ns.Start()
	if !ns.ReadyForConnections(30 * time.Second) {
		ns.Shutdown()
		ns.WaitForShutdown()
		return nil, msgerr.Errorf("embedded: server on %s not ready in 30s", dir)
	}
	copts := []nats.Option{nats.InProcessServer(ns), nats.Name("journal")}
	if token != "" {
		copts = append(copts, nats.Token(token))
	}
	if owner.User != "" {
		copts = append(copts, nats.UserInfo(owner.User, owner.Password))
	}
	nc, err := nats.Connect("", copts...)
	if err != nil {
		ns.Shutdown()
		ns.WaitForShutdown()
		return nil, msgerr.Errorf("embedded: connect in-process: %w", err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		ns.Shutdown()
		ns.WaitForShutdown()
		return nil, msgerr.Errorf("embedded: jetstream: %w", err)
	}
	s := &Server{ns: ns, nc: nc, js: js, lock: lock, responder: responder, responderPassword: responderPassword}
	if addr, ok := ns.Addr().(*net.TCPAddr); ok {
		host := addr.IP
		if host.IsUnspecified() {
			host = net.IPv4(127, 0, 0, 1)
		}
		s.url = "nats://" + net.JoinHostPort(host.String(), strconv.Itoa(addr.Port))
	}
	if opts.Share {
		if err := writeInfo(infoPath, serverInfo{PID: os.Getpid(), URL: s.url, Token: token, User: owner.User, Password: owner.Password}); err != nil {
			s.lock = nil // released by Start
			s.shutdown()
			return nil, err
		}
		s.info = infoPath
	}
	if err := ctx.Err(); err != nil {
		s.lock = nil // released by Start
		s.shutdown()
		return nil, err
	}
	return s, nil
}

// connectShared connects to the process that owns dir, if it shares it.
func connectShared(ctx context.Context, dir string) (*Server, error) {
	b, err := os.ReadFile(filepath.Join(dir, InfoFile))
	if err != nil {
		return nil, err
	}
	var info serverInfo
	if err := json.Unmarshal(b, &info); err != nil || info.URL == "" {
		return nil, msgerr.Errorf("embedded: unreadable %s", InfoFile)
	}
	copts := []nats.Option{nats.Name("journal"), nats.Timeout(5 * time.Second)}
	if info.Token != "" {
		copts = append(copts, nats.Token(info.Token))
	}
	if info.User != "" {
		copts = append(copts, nats.UserInfo(info.User, info.Password))
	}
	nc, err := nats.Connect(info.URL, copts...)
	if err != nil {
		return nil, err
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		nc.Close()
		return nil, err
	}
	return &Server{nc: nc, js: js, url: info.URL}, nil
}

// writeInfo writes server.json atomically.
func writeInfo(path string, info serverInfo) error {
	b, err := json.Marshal(info)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), InfoFile+".*")
	if err != nil {
		return msgerr.Errorf("embedded: write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return msgerr.Errorf("embedded: write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return msgerr.Errorf("embedded: write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return msgerr.Errorf("embedded: write %s: %w", path, err)
	}
	return nil
}

// lockHolder describes the process holding the lock, from the pid the
// owner wrote into the lock file.
func lockHolder(dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, LockFile))
	if err != nil || len(b) == 0 {
		return "pid unknown"
	}
	return "pid " + string(trimNewline(b))
}

func trimNewline(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

func splitHostPort(addr string) (string, int, error) {
	host, p, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, msgerr.Errorf("embedded: listen address %q: %w", addr, err)
	}
	port, err := strconv.Atoi(p)
	if err != nil || port < 0 || port > 65535 {
		return "", 0, msgerr.Errorf("embedded: listen address %q: bad port", addr)
	}
	if port == 0 {
		port = server.RANDOM_PORT
	}
	if host == "" {
		host = "0.0.0.0"
	}
	return host, port, nil
}

// ErrNoResponder is returned by ResponderConn when the Server has no
// responder user: it was started without Options.Responder, or it is a
// connection to another process.
var ErrNoResponder = msgerr.New("embedded: no responder user")

// ResponderConn opens a new in-process connection as the responder user
// (Options.Responder), with opts added; the caller closes it. Only an owner
// started with a responder has one (ErrNoResponder).
func (s *Server) ResponderConn(opts ...nats.Option) (*nats.Conn, error) {
	if s.ns == nil || s.responder == "" {
		return nil, ErrNoResponder
	}
	copts := append([]nats.Option{nats.InProcessServer(s.ns), nats.Name("journal responder"),
		nats.UserInfo(s.responder, s.responderPassword)}, opts...)
	nc, err := nats.Connect("", copts...)
	if err != nil {
		return nil, msgerr.Errorf("embedded: connect the responder: %w", err)
	}
	return nc, nil
}

// Conn returns the connection to the server.
func (s *Server) Conn() *nats.Conn { return s.nc }

// JetStream returns the JetStream context of the connection.
func (s *Server) JetStream() jetstream.JetStream { return s.js }

// ClientURL returns the URL other clients can use: the listening address of
// an owner that listens, the owner's URL when connected to another process,
// and "" for an in-process-only server.
func (s *Server) ClientURL() string { return s.url }

// Remote reports whether this Server is a connection to another process
// that owns the data folder.
func (s *Server) Remote() bool { return s.ns == nil }

// Shutdown closes the connection and, for an owner, removes server.json,
// stops the server, waits for it to finish and releases the data folder.
// It is safe to call more than once.
func (s *Server) Shutdown() { s.once.Do(s.shutdown) }

func (s *Server) shutdown() {
	if s.info != "" {
		_ = os.Remove(s.info)
	}
	if s.nc != nil {
		s.nc.Close()
	}
	if s.ns != nil {
		s.ns.Shutdown()
		s.ns.WaitForShutdown()
	}
	if s.lock != nil {
		unlock(s.lock)
		s.lock.Close()
	}
}
