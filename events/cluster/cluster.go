// Package cluster runs a NATS JetStream cluster of several servers inside
// one process, on loopback ports, so that tests can see the journal's
// replicated stream keep every acknowledged event while servers stop and
// restart. It is a test harness: production clusters are separate
// nats-server processes (docker-compose.yml, deploy/).
//
// Invariants: each server keeps its name, client port, cluster port and
// store folder across restarts, so a restarted server rejoins as the same
// peer with its own data; every server routes to every other; a Cluster's
// servers are all stopped by Shutdown.
package cluster

import (
	"context"
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
)

// Options configure Start.
type Options struct {
	// Dir holds each server's store, in Dir/n1, Dir/n2, ... Required.
	Dir string
	// Size is the number of servers; 0 means 3.
	Size int
	// Name is the cluster's name; empty means "journal".
	Name string
	// Sync makes every server sync each write to disk before acknowledging
	// it (SyncAlways).
	Sync bool
	// Ready bounds the wait for each server and for the JetStream meta
	// leader; 0 means 30 seconds.
	Ready time.Duration
	// Users and Nkeys, when set, are the client users every server
	// accepts, with their permissions (access.Config.ServerUsers, the
	// same users `journal access nats-config` writes for a real
	// cluster); unset, clients connect anonymously. The routes between
	// the servers are not affected.
	Users []*server.User
	Nkeys []*server.NkeyUser
}

// Cluster is a running in-process cluster. Use Start.
type Cluster struct {
	opts  Options
	mu    sync.Mutex
	nodes []*node
}

type node struct {
	name        string
	clientPort  int
	clusterPort int
	srv         *server.Server // nil while stopped
}

// Start starts the servers and waits until JetStream has a meta leader
// that every server follows.
func Start(ctx context.Context, opts Options) (*Cluster, error) {
	if opts.Dir == "" {
		return nil, msgerr.New("cluster: no folder")
	}
	if opts.Size <= 0 {
		opts.Size = 3
	}
	if opts.Name == "" {
		opts.Name = "journal"
	}
	if opts.Ready <= 0 {
		opts.Ready = 30 * time.Second
	}
	// Ports are free when asked for, but another process may take one
	// before the server listens on it: start again on fresh ports, waiting
	// less for each try than for a restart, but the whole of opts.Ready for
	// the last (an election on a machine at load 30 took more than 10 s
	// three times in a row: 1 run in 28 under stress).
	var lastErr error
	for attempt := range startAttempts {
		try := opts
		if attempt < startAttempts-1 {
			try.Ready = min(opts.Ready, 10*time.Second)
		}
		if attempt > 0 { // a clean folder: no state of the failed try
			try.Dir = filepath.Join(opts.Dir, "try"+strconv.Itoa(attempt))
		}
		c, err := startOnce(ctx, try)
		if err == nil {
			c.opts.Ready = opts.Ready
			return c, nil
		}
		if ctx.Err() != nil {
			return nil, err
		}
		lastErr = err
	}
	return nil, lastErr
}

// startAttempts bounds the tries of Start on fresh ports.
const startAttempts = 3

// startOnce starts every server on freshly chosen ports.
func startOnce(ctx context.Context, opts Options) (*Cluster, error) {
	ports, err := freePorts(2 * opts.Size)
	if err != nil {
		return nil, err
	}
	c := &Cluster{opts: opts}
	for i := range opts.Size {
		c.nodes = append(c.nodes, &node{name: "n" + strconv.Itoa(i+1), clientPort: ports[2*i], clusterPort: ports[2*i+1]})
	}
	for i := range c.nodes {
		if err := c.start(i); err != nil {
			c.Shutdown()
			return nil, err
		}
	}
	if err := c.WaitReady(ctx); err != nil {
		c.Shutdown()
		return nil, err
	}
	return c, nil
}

// freePorts returns n loopback ports free at the time of asking.
func freePorts(n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	var ports []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, msgerr.Errorf("cluster: free port: %w", err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// serverOptions returns the options of server i.
func (c *Cluster) serverOptions(i int) *server.Options {
	n := c.nodes[i]
	var routes []string
	for _, o := range c.nodes {
		routes = append(routes, "nats://127.0.0.1:"+strconv.Itoa(o.clusterPort))
	}
	return &server.Options{
		ServerName: n.name,
		Host:       "127.0.0.1",
		Port:       n.clientPort,
		JetStream:  true,
		StoreDir:   filepath.Join(c.opts.Dir, n.name),
		SyncAlways: c.opts.Sync,
		NoLog:      true,
		NoSigs:     true,
		Cluster: server.ClusterOpts{
			Name: c.opts.Name,
			Host: "127.0.0.1",
			Port: n.clusterPort,
		},
		Routes: server.RoutesFromStr(strings.Join(routes, ",")),
		Users:  copyUsers(c.opts.Users),
		Nkeys:  copyNkeys(c.opts.Nkeys),
	}
}

// copyUsers and copyNkeys give each server users of its own: a server
// binds them to its accounts.
func copyUsers(in []*server.User) []*server.User {
	var out []*server.User
	for _, u := range in {
		c := *u
		out = append(out, &c)
	}
	return out
}

func copyNkeys(in []*server.NkeyUser) []*server.NkeyUser {
	var out []*server.NkeyUser
	for _, u := range in {
		c := *u
		out = append(out, &c)
	}
	return out
}

func (c *Cluster) start(i int) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.nodes[i]
	if n.srv != nil {
		return nil
	}
	if err := os.MkdirAll(filepath.Join(c.opts.Dir, n.name), 0o700); err != nil {
		return msgerr.Errorf("cluster: %w", err)
	}
	s, err := server.NewServer(c.serverOptions(i))
	if err != nil {
		return msgerr.Errorf("cluster: %s: %w", n.name, err)
	}
	s.Start()
	if !s.ReadyForConnections(c.opts.Ready) {
		s.Shutdown()
		s.WaitForShutdown()
		return msgerr.Errorf("cluster: %s not ready in %v", n.name, c.opts.Ready)
	}
	n.srv = s
	return nil
}

// Size returns the number of servers, running or not.
func (c *Cluster) Size() int { return len(c.nodes) }

// Name returns the name of server i ("n1", "n2", ...).
func (c *Cluster) Name(i int) string { return c.nodes[i].name }

// Server returns server i, or nil while it is stopped.
func (c *Cluster) Server(i int) *server.Server {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.nodes[i].srv
}

// URL returns the client URL of server i (the same across restarts).
func (c *Cluster) URL(i int) string {
	return "nats://127.0.0.1:" + strconv.Itoa(c.nodes[i].clientPort)
}

// URLs returns every server's client URL, starting with server first, joined
// with commas as nats.Connect takes them.
func (c *Cluster) URLs(first int) string {
	urls := []string{c.URL(first)}
	for i := range c.nodes {
		if i != first {
			urls = append(urls, c.URL(i))
		}
	}
	return strings.Join(urls, ",")
}

// Connect connects to the cluster, trying server first first, and
// reconnecting forever (a test ends it by closing the connection).
func (c *Cluster) Connect(first int, opts ...nats.Option) (*nats.Conn, error) {
	opts = append([]nats.Option{
		nats.MaxReconnects(-1),
		nats.ReconnectWait(50 * time.Millisecond),
		nats.Timeout(2 * time.Second),
		nats.DontRandomize(),
	}, opts...)
	nc, err := nats.Connect(c.URLs(first), opts...)
	if err != nil {
		return nil, msgerr.Errorf("cluster: connect: %w", err)
	}
	return nc, nil
}

// Stop shuts server i down and waits until it has stopped.
func (c *Cluster) Stop(i int) {
	c.mu.Lock()
	s := c.nodes[i].srv
	c.nodes[i].srv = nil
	c.mu.Unlock()
	if s != nil {
		s.Shutdown()
		s.WaitForShutdown()
	}
}

// Restart starts server i again (stopping it first if it runs) with its
// store, and waits until JetStream is ready on every running server.
func (c *Cluster) Restart(ctx context.Context, i int) error {
	c.Stop(i)
	if err := c.start(i); err != nil {
		return err
	}
	return c.WaitReady(ctx)
}

// WaitReady waits until JetStream has a meta leader, every running server
// is current with it, and the leader counts every running server as an
// online JetStream peer with its stats received (without that, a stream
// of three replicas made at once is refused: "no suitable peers for
// placement", seen on a loaded machine).
func (c *Cluster) WaitReady(ctx context.Context) error {
	return c.wait(ctx, func() bool {
		var leader *server.Server
		running := 0
		for i := range c.nodes {
			s := c.Server(i)
			if s == nil {
				continue
			}
			running++
			if !s.JetStreamIsCurrent() {
				return false
			}
			if s.JetStreamIsLeader() {
				leader = s
			}
		}
		return leader != nil && running > 0 && len(leader.JetStreamClusterPeers()) >= running
	}, "the JetStream meta leader and its peers")
}

// StreamLeader returns the index of the server leading stream (in the
// global account), waiting for one.
func (c *Cluster) StreamLeader(ctx context.Context, stream string) (int, error) {
	found := -1
	err := c.wait(ctx, func() bool {
		for i := range c.nodes {
			if s := c.Server(i); s != nil && s.JetStreamIsStreamLeader(server.DEFAULT_GLOBAL_ACCOUNT, stream) {
				found = i
				return true
			}
		}
		return false
	}, "a leader of stream "+stream)
	return found, err
}

// StreamState is what one server holds of a stream.
type StreamState struct {
	Msgs     uint64
	FirstSeq uint64
	LastSeq  uint64
}

// LocalState returns server i's own replica of stream (in the global
// account): its message count and sequences, read from the server itself.
func (c *Cluster) LocalState(i int, stream string) (StreamState, error) {
	s := c.Server(i)
	if s == nil {
		return StreamState{}, msgerr.Errorf("cluster: %s is stopped", c.nodes[i].name)
	}
	jsz, err := s.Jsz(&server.JSzOptions{Accounts: true, Streams: true})
	if err != nil {
		return StreamState{}, msgerr.Errorf("cluster: %s: %w", c.nodes[i].name, err)
	}
	for _, acc := range jsz.AccountDetails {
		for _, st := range acc.Streams {
			if st.Name == stream {
				return StreamState{Msgs: st.State.Msgs, FirstSeq: st.State.FirstSeq, LastSeq: st.State.LastSeq}, nil
			}
		}
	}
	return StreamState{}, msgerr.Errorf("cluster: %s holds no stream %s", c.nodes[i].name, stream)
}

// WaitReplicas waits until every running server's replica of stream holds
// the same messages as the leader's.
func (c *Cluster) WaitReplicas(ctx context.Context, stream string) error {
	return c.wait(ctx, func() bool {
		var want *StreamState
		for i := range c.nodes {
			if c.Server(i) == nil {
				continue
			}
			st, err := c.LocalState(i, stream)
			if err != nil {
				return false
			}
			if want == nil {
				want = &st
			} else if st != *want {
				return false
			}
		}
		return want != nil
	}, "every replica of "+stream)
}

// wait polls cond until it holds, ctx ends or Options.Ready passes.
func (c *Cluster) wait(ctx context.Context, cond func() bool, what string) error {
	deadline := time.Now().Add(c.opts.Ready)
	for !cond() {
		if time.Now().After(deadline) {
			return msgerr.Errorf("cluster: no %s after %v", what, c.opts.Ready)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(25 * time.Millisecond):
		}
	}
	return nil
}

// Shutdown stops every server. It is safe to call more than once.
func (c *Cluster) Shutdown() {
	for i := range c.nodes {
		c.Stop(i)
	}
}
