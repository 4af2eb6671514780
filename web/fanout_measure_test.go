package web_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/web"
)

// The environment of TestFanoutMeasured and of its readers' process.
const (
	fanoutEnv      = "JOURNAL_FANOUT"       // number of readers; unset: skip
	fanoutChildEnv = "JOURNAL_FANOUT_CHILD" // in the readers' process: the plan, JSON
)

// fanoutPlan is what the readers' process is told.
type fanoutPlan struct {
	URL       string   `json:"url"`
	Campaigns []string `json:"campaigns"`
	Readers   int      `json:"readers"`
	// History is how many events each campaign holds at the start, and
	// Events how many each reader waits for (the history and the live
	// rolls) before reporting.
	History int `json:"history"`
	Events  int `json:"events"`
	// Deadline bounds the whole run of the readers' process.
	Deadline time.Duration `json:"deadline"`
}

// fanoutReader is one reader's account.
type fanoutReader struct {
	Campaign string `json:"c"`
	Count    int    `json:"n"`
	Last     uint64 `json:"last"`
	Ordered  bool   `json:"ok"`
	Err      string `json:"err,omitempty"`
}

// fanoutReport is what the readers' process reports.
type fanoutReport struct {
	Readers []fanoutReader `json:"readers"`
	// Arrivals are the arrival times (Unix ns) of each sequence, one at
	// each reader that got it.
	Arrivals map[uint64][]int64 `json:"arrivals"`
}

// TestFanoutMeasured measures, when JOURNAL_FANOUT=N (10000 for the
// figures in BENCHMARKS.md; a measurement, not a check of speed): N
// readers of the event stream over 100 campaigns, held by another process
// (so that each process stays under the limit of open files, 20 000 here);
// the server's memory and the NATS server's consumers without and with
// them; the time from a roll's POST to its arrival at every reader of its
// campaign; and that with the N readers open every campaign's feed is
// still live: a new reader of each campaign gets the next roll. It stops
// by itself (the readers' process has a deadline).
func TestFanoutMeasured(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv(fanoutEnv))
	if n <= 0 {
		t.Skip("a measurement: run with " + fanoutEnv + "=10000")
	}
	raiseNoFile(t)
	const campaigns, rounds = 100, 5
	var js jetstream.JetStream
	h := newHarnessWith(t, jetBackendJS(&js), func(o *web.Options) {
		o.MaxStreams, o.MaxStreamsPerUser, o.Keepalive = n+2*campaigns, n+2*campaigns, 15*time.Second
	})
	ids := make([]string, campaigns)
	for i := range ids {
		ids[i] = fmt.Sprintf("c%03d", i)
		r := h.do(http.MethodPost, "/api/campaigns", fmt.Sprintf(`{"id":%q,"system":"ryf"}`, ids[i]))
		require.Equal(t, http.StatusCreated, r.status, "%s", r.body)
		h.command(ids[i], "character-create", lodinBody, http.StatusCreated)
		h.command(ids[i], "session-start", `{}`, http.StatusOK)
	}
	history := len(h.seqsOf(ids[0], 1))
	before := memNow(t, h, js)
	t.Logf("before the readers: %s", before)

	plan, err := json.Marshal(fanoutPlan{URL: h.url, Campaigns: ids, Readers: n, History: history, Events: history + rounds, Deadline: 5 * time.Minute})
	require.NoError(t, err)
	child := exec.Command(os.Args[0], "-test.run=^TestFanoutReaders$", "-test.count=1", "-test.timeout=10m")
	child.Env = append(os.Environ(), fanoutChildEnv+"="+string(plan))
	child.Stderr = os.Stderr
	stdin, err := child.StdinPipe()
	require.NoError(t, err)
	stdout, err := child.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, child.Start())
	t.Cleanup(func() { _ = stdin.Close(); _ = child.Wait() })
	lines := bufio.NewScanner(stdout)
	lines.Buffer(make([]byte, 1<<20), 256<<20)
	expect := func(prefix string) string {
		t.Helper()
		for lines.Scan() {
			if rest, ok := strings.CutPrefix(lines.Text(), prefix); ok {
				return rest
			}
		}
		t.Fatalf("the readers' process ended before %q: %v", prefix, lines.Err())
		return ""
	}
	connectedIn := expect("ready ")
	with := memNow(t, h, js)
	t.Logf("with %d readers (connected and through their history in %s): %s", n, connectedIn, with)

	posted := map[uint64]time.Time{}
	for range rounds {
		for _, id := range ids {
			t0 := time.Now()
			res := h.command(id, "roll", `{"character":"lodin","skill":"sigilo","vs":"media"}`, http.StatusOK)
			posted[res.Recorded[0].Seq] = t0
		}
		time.Sleep(200 * time.Millisecond)
	}
	var rep fanoutReport
	require.NoError(t, json.Unmarshal([]byte(expect("report ")), &rep))
	peak := memNow(t, h, js)

	// Every reader got its campaign's events, in order, to the last.
	bad := 0
	for i, r := range rep.Readers {
		want := h.seqsOf(r.Campaign, 1)
		if r.Count != len(want) || r.Last != want[len(want)-1] || !r.Ordered {
			if bad++; bad <= 5 {
				t.Errorf("reader %d of %s: %d events, last %d, in order %v (%s); want %d, last %d", i, r.Campaign, r.Count, r.Last, r.Ordered, r.Err, len(want), want[len(want)-1])
			}
		}
	}
	var lat []time.Duration
	for seq, t0 := range posted {
		for _, at := range rep.Arrivals[seq] {
			lat = append(lat, time.Unix(0, at).Sub(t0))
		}
	}
	slices.Sort(lat)
	if len(lat) > 0 {
		t.Logf("POST roll → arrival at each reader: %d arrivals, p50 %v, p90 %v, p99 %v, max %v", len(lat),
			pct(lat, 50), pct(lat, 90), pct(lat, 99), lat[len(lat)-1])
	}
	t.Logf("after the rolls, readers still open: %s", peak)
	if with.consumers != before.consumers {
		t.Errorf("consumers of the stream: %d with the readers, %d without", with.consumers, before.consumers)
	}

	// With the N readers open, a new reader of every campaign gets the next roll.
	fresh := make([]*sse, len(ids))
	for i, id := range ids {
		fresh[i] = h.stream("/api/campaigns/" + id + "/events?from=" + strconv.FormatUint(h.count(t)+1, 10))
	}
	for i, id := range ids {
		res := h.command(id, "roll", `{"character":"lodin","skill":"sigilo","vs":"media"}`, http.StatusOK)
		if ev := fresh[i].next(t, 10*time.Second); ev.ID != res.Recorded[0].Seq {
			t.Fatalf("new reader of %s after %d: got %d, want %d", id, n, ev.ID, res.Recorded[0].Seq)
		}
	}
	t.Logf("with %d readers open, a new reader of each of the %d campaigns got its next roll", n, len(ids))
}

func pct(sorted []time.Duration, p int) time.Duration {
	return sorted[min(len(sorted)-1, len(sorted)*p/100)]
}

// memFigures are the server process's figures at one moment.
type memFigures struct {
	heapMiB, stackMiB, rssMiB float64
	goroutines                int
	consumers                 int
	streams                   string
}

func (m memFigures) String() string {
	return fmt.Sprintf("heap in use %.1f MiB, stacks %.1f MiB, RSS %.1f MiB, %d goroutines, %d consumers of the stream, journal_sse_clients %s",
		m.heapMiB, m.stackMiB, m.rssMiB, m.goroutines, m.consumers, m.streams)
}

// memNow collects garbage, returns what is free to the system, and takes
// the figures.
func memNow(t *testing.T, h *harness, js jetstream.JetStream) memFigures {
	t.Helper()
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return memFigures{heapMiB: float64(ms.HeapInuse) / (1 << 20), stackMiB: float64(ms.StackInuse) / (1 << 20),
		rssMiB: rssMiB(t), goroutines: runtime.NumGoroutine(),
		consumers: consumers(t, js), streams: h.metric("journal_sse_clients")}
}

// rssMiB is the process's resident set size.
func rssMiB(t *testing.T) float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}

// raiseNoFile raises the soft limit of open files to the hard one.
func raiseNoFile(t *testing.T) {
	var lim syscall.Rlimit
	require.NoError(t, syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim))
	lim.Cur = lim.Max
	require.NoError(t, syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim))
}

// TestFanoutReaders is the readers' process of TestFanoutMeasured (it
// runs only there): it opens the plan's readers, says "ready" once each
// has its campaign's history, then "report" with what each got once each
// has the plan's events (or at the deadline), and holds the streams open
// until its input closes.
func TestFanoutReaders(t *testing.T) {
	raw := os.Getenv(fanoutChildEnv)
	if raw == "" {
		t.Skip("the readers' process of TestFanoutMeasured")
	}
	var plan fanoutPlan
	require.NoError(t, json.Unmarshal([]byte(raw), &plan))
	raiseNoFile(t)
	ctx, cancel := context.WithTimeout(context.Background(), plan.Deadline)
	defer cancel()
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: -1, DisableCompression: true}}

	readers := make([]fanoutReader, plan.Readers)
	arrivals := make([][]struct {
		seq uint64
		at  int64
	}, plan.Readers)
	var historyDone, allDone sync.WaitGroup
	historyDone.Add(plan.Readers)
	allDone.Add(plan.Readers)
	dials := make(chan struct{}, 64) // connections being opened at once
	start := time.Now()
	var failed atomic.Int64
	for i := range readers {
		c := plan.Campaigns[i%len(plan.Campaigns)]
		readers[i] = fanoutReader{Campaign: c, Ordered: true}
		go func() {
			r := &readers[i]
			gotHistory, done := false, false
			finish := func(err error) {
				if err != nil {
					r.Err = err.Error()
					failed.Add(1)
				}
				if !gotHistory {
					historyDone.Done()
				}
				if !done {
					allDone.Done()
				}
			}
			dials <- struct{}{}
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, plan.URL+"/api/campaigns/"+c+"/events", nil)
			req.Header.Set("Accept", "text/event-stream")
			res, err := hc.Do(req)
			<-dials
			if err != nil {
				finish(err)
				return
			}
			defer res.Body.Close()
			if res.StatusCode != http.StatusOK {
				finish(fmt.Errorf("status %d", res.StatusCode))
				return
			}
			in := bufio.NewReader(res.Body)
			for {
				line, err := in.ReadSlice('\n')
				if err != nil {
					finish(err)
					return
				}
				v, ok := strings.CutPrefix(string(line), "id: ")
				if !ok {
					continue
				}
				seq, _ := strconv.ParseUint(strings.TrimSpace(v), 10, 64)
				arrivals[i] = append(arrivals[i], struct {
					seq uint64
					at  int64
				}{seq, time.Now().UnixNano()})
				r.Ordered = r.Ordered && seq > r.Last
				r.Last = seq
				r.Count++
				if !gotHistory && r.Count >= plan.History {
					gotHistory = true
					historyDone.Done()
				}
				if !done && r.Count >= plan.Events {
					done = true
					allDone.Done()
				}
			}
		}()
	}
	wait := func(wg *sync.WaitGroup) {
		ch := make(chan struct{})
		go func() { wg.Wait(); close(ch) }()
		select {
		case <-ch:
		case <-ctx.Done():
		}
	}
	wait(&historyDone)
	fmt.Printf("ready %v (%d failed)\n", time.Since(start).Round(time.Millisecond), failed.Load())
	wait(&allDone)
	rep := fanoutReport{Readers: readers, Arrivals: map[uint64][]int64{}}
	for _, as := range arrivals {
		for _, a := range as {
			rep.Arrivals[a.seq] = append(rep.Arrivals[a.seq], a.at)
		}
	}
	b, err := json.Marshal(rep)
	require.NoError(t, err)
	fmt.Printf("report %s\n", b)
	// Hold the streams until the measuring process is done.
	_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
}
