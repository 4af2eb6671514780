package bench

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
)

// CLI is the cli stage: what a user waits for at the command line, the
// whole process timed from outside (start, package initialization, the
// work, exit): `journal version`, and a command (`journal day new`) in
// three ways: on a data folder with no serve running (the CLI starts the
// embedded server: Command), and through a running `journal serve
// --access FILE --nats-listen ADDR`, as a remote client with the GM's NATS
// user (`journal --nats URL`: Remote) and on the serve's data folder
// (the CLI joins the serve's server over loopback: Local). Each is run
// Runs times after two untimed runs. Latencies are wall times; CPUP50 the
// median of the child's user + system time.
type CLI struct {
	Runs    int     `json:"runs"`
	Version Latency `json:"version"`
	Command Latency `json:"command"`
	Remote  Served  `json:"remote"`
	Local   Served  `json:"local"`
}

// Served is a command's latency through a running serve, with what it
// asked JetStream, seen on the wire by a subscriber to the JetStream API
// ($JS.API.>) on the serve's NATS port: whoever made the request (the CLI
// itself on the data folder, the serve's command service for a remote
// client).
type Served struct {
	Latency
	// FoldsMax is the most folds of the campaign one timed command made:
	// per command, the larger of the requests for the campaign's count
	// (every load of a campaign asks for it first) and the reads of the
	// campaign from its first message (a fold with no checkpoint, which
	// asks for no count).
	FoldsMax int `json:"folds_max"`
	// RequestsP50 is the median number of JetStream API requests made
	// during one command.
	RequestsP50 int `json:"jetstream_requests_p50"`
}

// DefaultCLIRuns is how many timed runs the cli stage makes of each.
const DefaultCLIRuns = 15

// The NATS users of the cli stage's access file.
const (
	cliJournalPassword = "bench-journal-pw"
	cliGMUser          = "ana"
	cliGMPassword      = "bench-ana-pw"
	cliCampaign        = "mordor"
)

// cli measures the cli stage with the journal binary o.Executable, or
// returns nil when there is none (the stage is then not measured).
func (e *env) cli(ctx context.Context) (*CLI, error) {
	exe := e.o.Executable
	if exe == "" {
		return nil, nil
	}
	dir := filepath.Join(e.dir, "cli")
	data := filepath.Join(dir, "data")
	config := filepath.Join(dir, "config")
	if err := os.MkdirAll(config, 0o700); err != nil {
		return nil, err
	}
	access := filepath.Join(dir, "access.json")
	if err := os.WriteFile(access, []byte(`{"users": [
  {"name": "journal", "role": "journal", "password": "`+cliJournalPassword+`"},
  {"name": "`+cliGMUser+`", "role": "gm", "campaign": "`+cliCampaign+`", "password": "`+cliGMPassword+`"}
]}`), 0o600); err != nil {
		return nil, err
	}
	actor := "gm" // the user the commands run as (over --nats: the NATS user)
	command := func(args ...string) *exec.Cmd {
		cmd := exec.CommandContext(ctx, exe, args...)
		// The environment passed on, with the bench's user and a
		// configuration folder of the stage's own (the device's key).
		cmd.Env = append(cmd.Environ(), "JOURNAL_ACTOR="+actor, "JOURNAL_CONFIG="+config)
		return cmd
	}
	run := func(args ...string) (time.Duration, time.Duration, error) {
		cmd := command(args...)
		t := time.Now()
		out, err := cmd.CombinedOutput()
		d := time.Since(t)
		if err != nil {
			return 0, 0, fmt.Errorf("%s %v: %w: %s", exe, args, err, out)
		}
		return d, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), nil
	}
	if _, _, err := run("--data", data, "campaign", "create", cliCampaign, "--system", "ryf"); err != nil {
		return nil, err
	}
	c := &CLI{Runs: DefaultCLIRuns}
	// measure runs args DefaultCLIRuns+2 times; each is wrapped in
	// around (when not nil), which is told whether the run is timed.
	measure := func(name string, around func(timed bool, run func() error) error, args ...string) (Latency, error) {
		var wall, cpu []time.Duration
		for k := range DefaultCLIRuns + 2 {
			var d, dc time.Duration
			one := func() (err error) { d, dc, err = run(args...); return err }
			var err error
			if around != nil {
				err = around(k >= 2, one)
			} else {
				err = one()
			}
			if err != nil {
				return Latency{}, err
			}
			if k >= 2 {
				wall, cpu = append(wall, d), append(cpu, dc)
			}
			e.o.progress(StageCLI, name, k+1, DefaultCLIRuns+2)
		}
		l := latency(0, wall)
		l.CPUP50 = latency(0, cpu).P50
		return l, nil
	}
	var err error
	if c.Version, err = measure("version", nil, "version"); err != nil {
		return nil, err
	}
	if c.Command, err = measure("day new", nil, "--data", data, "-c", cliCampaign, "day", "new"); err != nil {
		return nil, err
	}

	// Through a running serve.
	srv, err := startServe(ctx, command("--data", data, "--access", access, "serve", "--http", "127.0.0.1:0", "--nats-listen", "127.0.0.1:0"))
	if err != nil {
		return nil, err
	}
	defer srv.stop()
	obs, err := observe(withUser(srv.url, "journal", cliJournalPassword), "journal."+cliCampaign)
	if err != nil {
		return nil, err
	}
	defer obs.close()
	served := func(name string, args ...string) (Served, error) {
		var s Served
		var requests []int
		l, err := measure(name, func(timed bool, run func() error) error {
			obs.reset()
			if err := run(); err != nil {
				return err
			}
			folds, n, err := obs.count()
			if err != nil {
				return err
			}
			if timed {
				s.FoldsMax = max(s.FoldsMax, folds)
				requests = append(requests, n)
			}
			return nil
		}, args...)
		if err != nil {
			return Served{}, err
		}
		s.Latency = l
		slices.Sort(requests)
		if len(requests) > 0 {
			s.RequestsP50 = requests[len(requests)/2]
		}
		return s, nil
	}
	actor = cliGMUser
	c.Remote, err = served("day new (serve, --nats)", "--nats", withUser(srv.url, cliGMUser, cliGMPassword), "-c", cliCampaign, "day", "new")
	actor = "gm"
	if err != nil {
		return nil, err
	}
	if c.Local, err = served("day new (serve, data folder)", "--data", data, "--access", access, "-c", cliCampaign, "day", "new"); err != nil {
		return nil, err
	}
	return c, nil
}

// withUser puts user:password into a nats:// URL.
func withUser(url, user, password string) string {
	return strings.Replace(url, "nats://", "nats://"+user+":"+password+"@", 1)
}

// served is a running `journal serve` child process.
type served struct {
	cmd  *exec.Cmd
	url  string // its NATS URL, without a user
	done chan error
}

// natsBanner finds the NATS URL in serve's banner.
var natsBanner = regexp.MustCompile(`NATS (nats://\S+)`)

// startServe starts cmd (a `journal serve --nats-listen`) and waits for
// its banner.
func startServe(ctx context.Context, cmd *exec.Cmd) (*served, error) {
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &served{cmd: cmd, done: make(chan error, 1)}
	found := make(chan string, 1)
	go func() {
		r := bufio.NewReader(out)
		for {
			line, err := r.ReadString('\n')
			if m := natsBanner.FindStringSubmatch(line); m != nil {
				found <- m[1]
				_, _ = io.Copy(io.Discard, r)
				break
			}
			if err != nil {
				break
			}
		}
		s.done <- cmd.Wait()
	}()
	select {
	case s.url = <-found:
		return s, nil
	case err := <-s.done:
		return nil, fmt.Errorf("journal serve exited before its banner: %v: %s", err, stderr.String())
	case <-time.After(60 * time.Second):
		s.stop()
		return nil, fmt.Errorf("journal serve printed no banner within 60 s: %s", stderr.String())
	case <-ctx.Done():
		s.stop()
		return nil, ctx.Err()
	}
}

// stop interrupts the serve, as Ctrl-C would, and kills it after 30 s.
func (s *served) stop() {
	if s.cmd.ProcessState != nil {
		return
	}
	_ = s.cmd.Process.Signal(os.Interrupt)
	select {
	case <-s.done:
	case <-time.After(30 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.done
	}
}

// apiObserver subscribes to the JetStream API of an account and counts
// what is asked of it.
type apiObserver struct {
	nc      *nats.Conn
	msgs    chan *nats.Msg
	subject string // the campaign's subject
}

func observe(url, subject string) (*apiObserver, error) {
	nc, err := nats.Connect(url, nats.Name("journal bench: JetStream API observer"))
	if err != nil {
		return nil, fmt.Errorf("observe the JetStream API: %w", err)
	}
	o := &apiObserver{nc: nc, msgs: make(chan *nats.Msg, 1<<14), subject: subject}
	if _, err := nc.ChanSubscribe("$JS.API.>", o.msgs); err != nil {
		nc.Close()
		return nil, fmt.Errorf("observe the JetStream API: %w", err)
	}
	if err := nc.Flush(); err != nil {
		nc.Close()
		return nil, err
	}
	return o, nil
}

func (o *apiObserver) close() { o.nc.Close() }

// reset forgets what was seen so far.
func (o *apiObserver) reset() {
	_ = o.nc.Flush()
	for {
		select {
		case <-o.msgs:
		default:
			return
		}
	}
}

// count returns the folds of the campaign and the requests seen since the
// last reset. The flush makes sure every request the server handled
// before it has been delivered: the server writes to this connection in
// order.
func (o *apiObserver) count() (folds, requests int, err error) {
	if err := o.nc.Flush(); err != nil {
		return 0, 0, err
	}
	counts, fromStart := 0, 0
	for {
		select {
		case m := <-o.msgs:
			requests++
			var body struct {
				Filter     string `json:"subjects_filter"`
				Seq        uint64 `json:"seq"`
				NextBySubj string `json:"next_by_subj"`
				Config     struct {
					Filter      string `json:"filter_subject"`
					OptStartSeq uint64 `json:"opt_start_seq"`
				} `json:"config"`
			}
			_ = json.Unmarshal(m.Data, &body) // most requests have a body of their own or none
			switch {
			case strings.HasPrefix(m.Subject, "$JS.API.STREAM.INFO.") && body.Filter == o.subject:
				counts++
			case strings.HasPrefix(m.Subject, "$JS.API.DIRECT.GET.") && body.NextBySubj == o.subject && body.Seq <= 1:
				fromStart++
			case strings.HasPrefix(m.Subject, "$JS.API.CONSUMER.CREATE.") && body.Config.Filter == o.subject && body.Config.OptStartSeq <= 1:
				fromStart++
			}
		default:
			return max(counts, fromStart), requests, nil
		}
	}
}
