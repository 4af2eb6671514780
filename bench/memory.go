package bench

import (
	"bufio"
	"bytes"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"time"
)

// sampleEvery is how often the peak tracker samples the Go heap and the
// resident memory.
const sampleEvery = 20 * time.Millisecond

// peakTracker follows the process's peak memory: the resident set (on
// Linux, the kernel's high-water mark, reset at the start of each
// measurement, and samples of it) and the Go heap (sampled).
type peakTracker struct {
	mu        sync.Mutex
	heap      uint64 // peak heap since begin
	rss       uint64 // peak sampled RSS since begin
	overall   uint64 // peak RSS over the tracker's life
	resetHWM  bool   // the kernel's high-water mark was reset at begin
	done      chan struct{}
	stoppedWG sync.WaitGroup
}

func newPeakTracker() *peakTracker {
	p := &peakTracker{done: make(chan struct{})}
	p.stoppedWG.Add(1)
	go p.loop()
	return p
}

func (p *peakTracker) loop() {
	defer p.stoppedWG.Done()
	t := time.NewTicker(sampleEvery)
	defer t.Stop()
	for {
		select {
		case <-p.done:
			return
		case <-t.C:
		}
		p.sample()
	}
}

// sample takes the Go heap and the resident memory into the peaks.
func (p *peakTracker) sample() {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	var heap uint64
	if s[0].Value.Kind() == metrics.KindUint64 {
		heap = s[0].Value.Uint64()
	}
	rss, _ := procStatus("VmRSS")
	p.mu.Lock()
	p.heap = max(p.heap, heap)
	p.rss = max(p.rss, rss)
	p.overall = max(p.overall, rss)
	p.mu.Unlock()
}

// begin starts a measurement: the peaks start again from now (a sample of
// now, so that a measurement shorter than sampleEvery has one at least).
func (p *peakTracker) begin() {
	reset := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
	p.mu.Lock()
	p.heap, p.rss, p.resetHWM = 0, 0, reset
	p.mu.Unlock()
	p.sample()
}

// end returns the peaks since begin: resident memory and Go heap, in bytes.
func (p *peakTracker) end() (rss, heap uint64) {
	p.sample()
	p.mu.Lock()
	defer p.mu.Unlock()
	rss = p.rss
	if p.resetHWM {
		if hwm, ok := procStatus("VmHWM"); ok {
			rss = max(rss, hwm)
		}
	}
	p.overall = max(p.overall, rss)
	return rss, p.heap
}

// total returns the peak resident memory seen over the tracker's life.
func (p *peakTracker) total() uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	if hwm, ok := procStatus("VmHWM"); ok {
		p.overall = max(p.overall, hwm)
	}
	return p.overall
}

func (p *peakTracker) stop() {
	select {
	case <-p.done:
	default:
		close(p.done)
	}
	p.stoppedWG.Wait()
}

// liveHeap returns the bytes of live heap objects after a collection.
func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// procStatus reads a memory figure of /proc/self/status ("VmRSS",
// "VmHWM"), in bytes; false where there is no such file (not Linux).
func procStatus(field string) (uint64, bool) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		name, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok || name != field {
			continue
		}
		f := strings.Fields(rest)
		if len(f) == 0 {
			return 0, false
		}
		kb, err := strconv.ParseUint(f[0], 10, 64)
		if err != nil {
			return 0, false
		}
		return kb << 10, true
	}
	return 0, false
}

// machineInfo reads the CPU model, the memory and the load average where
// the system says them (Linux /proc); empty otherwise.
func machineInfo() (cpu string, memMB uint64, load string) {
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for line := range strings.Lines(string(b)) {
			if name, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(name) == "model name" {
				cpu = strings.TrimSpace(v)
				break
			}
		}
	}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		for line := range strings.Lines(string(b)) {
			if name, v, ok := strings.Cut(line, ":"); ok && name == "MemTotal" {
				if f := strings.Fields(v); len(f) > 0 {
					kb, _ := strconv.ParseUint(f[0], 10, 64)
					memMB = kb >> 10
				}
				break
			}
		}
	}
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		if f := strings.Fields(string(b)); len(f) >= 3 {
			load = strings.Join(f[:3], " ")
		}
	}
	return cpu, memMB, load
}
