package bench

import (
	"context"
	"crypto/rand"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/jetstore"
	"github.com/campaign-journal/journal/live"
)

// Latency is the time of single operations at one size: its median (p50)
// and 90th percentile, in microseconds.
type Latency struct {
	// Size is what grows: characters in the campaign, campaigns in the
	// stream, or events in the stream (cold load).
	Size  int     `json:"size"`
	Count int     `json:"count"`
	P50   float64 `json:"p50_us"`
	P90   float64 `json:"p90_us"`
	// Events is the number of events loaded (cold load), 0 elsewhere.
	Events int `json:"events,omitempty"`
	// CPUP50 is the median CPU time of the process (the embedded server's
	// included) during one operation, in microseconds (cold load; 0
	// elsewhere, or where the system does not say): the work done, where
	// P50 also counts the waits of a shared machine.
	CPUP50 float64 `json:"cpu_p50_us,omitempty"`
	// Read is, for the cold load, the most messages one timed load had the
	// store read (each request for a campaign's last message counts as
	// one: the server loads the block that holds it). A load from a
	// checkpoint at the campaign's last message reads none.
	Read int `json:"read_max"`
}

// Growth is the growth stage: the p50 of one roll command (the journal's
// whole write path, one after another) at each size, measured in
// interleaved rounds so that the machine's drift falls on every size alike.
// Spread is the highest p50 over the lowest.
type Growth struct {
	// Characters: one campaign of each of GrowthCharacters characters, all
	// in one stream.
	Characters       []Latency `json:"characters"`
	CharactersSpread float64   `json:"characters_spread"`
	// Campaigns: one stream (its own server) for each of GrowthCampaigns
	// campaigns, the rolls in one campaign of 10 characters.
	Campaigns       []Latency `json:"campaigns"`
	CampaignsSpread float64   `json:"campaigns_spread"`
}

// ColdLoad is the cold-load stage: a campaign of about ColdCampaignEvents
// events loaded by a fresh journal on a freshly started server
// (command.Handler.Load), the stream at each of ColdEvents events. Spread is
// the p50 at the largest stream over the p50 at the smallest.
type ColdLoad struct {
	Loads  []Latency `json:"loads"`
	Spread float64   `json:"spread"`
}

// latency sorts d and returns its p50 and p90 at size.
func latency(size int, d []time.Duration) Latency {
	slices.Sort(d)
	us := func(q float64) float64 {
		if len(d) == 0 {
			return 0
		}
		return float64(d[min(len(d)-1, int(q*float64(len(d))))].Nanoseconds()) / 1e3
	}
	return Latency{Size: size, Count: len(d), P50: us(0.5), P90: us(0.9)}
}

// spread is the highest p50 of ls over the lowest (0 when one is 0).
func spread(ls []Latency) float64 {
	lo, hi := 0.0, 0.0
	for i, l := range ls {
		if i == 0 || l.P50 < lo {
			lo = l.P50
		}
		hi = max(hi, l.P50)
	}
	if lo <= 0 {
		return 0
	}
	return hi / lo
}

// startStore starts an embedded server on e.dir/name with the run's sync
// setting, and the journal's store on it.
func (e *env) startStore(ctx context.Context, name string) (*embedded.Server, *jetstore.Store, error) {
	srv, err := embedded.Start(ctx, embedded.Options{Dir: filepath.Join(e.dir, name), Sync: e.o.Sync})
	if err != nil {
		return nil, nil, fmt.Errorf("embedded server: %w", err)
	}
	st, err := jetstore.Open(ctx, srv.JetStream(), jetstore.Options{})
	if err != nil {
		srv.Shutdown()
		return nil, nil, fmt.Errorf("open the journal: %w", err)
	}
	return srv, st, nil
}

// growthTarget is one campaign the growth stage rolls in.
type growthTarget struct {
	j     *command.Handler
	camp  string
	chars []string
	next  int
	times []time.Duration
}

// roll makes one timed roll on the campaign's next character.
func (g *growthTarget) roll(ctx context.Context) error {
	ch := g.chars[g.next%len(g.chars)]
	g.next++
	t := time.Now()
	if err := roll(ctx, g.j, g.camp, ch); err != nil {
		return err
	}
	g.times = append(g.times, time.Since(t))
	return nil
}

// interleave rolls GrowthRolls times in each target, one roll in each
// target in turn, each round of rolls starting with the next target, so
// that the drift of a shared machine (another process taking a core for a
// few milliseconds, a collection of the garbage one target leaves for the
// next) falls on each alike: rounds of one roll last about as long as one
// such disturbance, where a turn of 25 rolls in one target (about a
// millisecond) could take it alone. The heap is settled every 25 rounds.
// Each target first rolls a few untimed rolls.
func (e *env) interleave(ctx context.Context, targets []*growthTarget) error {
	o := e.o
	for _, t := range targets {
		for range 5 {
			if err := t.roll(ctx); err != nil {
				return err
			}
		}
		t.times = t.times[:0]
	}
	const turn = 25
	done, round := 0, 0
	for _, n := range splits(o.GrowthRolls, max(1, o.GrowthRolls/turn)) {
		settle()
		for range n {
			for k := range targets { // each round starts with another target
				if err := targets[(round+k)%len(targets)].roll(ctx); err != nil {
					return err
				}
			}
			round++
		}
		done += n
		o.progress(StageGrowth, "journal", done, o.GrowthRolls)
	}
	return nil
}

// growth measures the append p50 as a campaign gains characters and as the
// stream gains campaigns.
func (e *env) growth(ctx context.Context) (*Growth, error) {
	o := e.o
	g := &Growth{}

	// One stream, one campaign of each size.
	srv, st, err := e.startStore(ctx, "growth-characters")
	if err != nil {
		return nil, err
	}
	defer srv.Shutdown()
	j := newJournal(st)
	var targets []*growthTarget
	total := 0
	for _, n := range o.GrowthCharacters {
		total += n
	}
	made := 0
	for i, n := range o.GrowthCharacters {
		c := campaigns(fmt.Sprintf("gc%d-", i), 1, n)[0]
		if err := setupCampaign(ctx, j, c.id, c.chars[:1]); err != nil {
			return nil, err
		}
		// The characters but the first join the open session's campaign
		// one after another, as a GM adds them.
		for _, ch := range c.chars[1:] {
			if _, err := j.CreateCharacter(ctx, c.id, command.CreateCharacter{
				ID: ch, Name: ch, Player: "p-" + ch, Attributes: benchAttrs, Skills: benchSkills, Specialization: benchSkill,
			}); err != nil {
				return nil, fmt.Errorf("character %s/%s: %w", c.id, ch, err)
			}
			if made++; made%256 == 0 {
				o.progress(StageGrowth, "setup", made, total)
			}
		}
		targets = append(targets, &growthTarget{j: j, camp: c.id, chars: c.chars})
	}
	if err := e.interleave(ctx, targets); err != nil {
		return nil, err
	}
	for i, t := range targets {
		g.Characters = append(g.Characters, latency(o.GrowthCharacters[i], t.times))
	}
	g.CharactersSpread = spread(g.Characters)
	srv.Shutdown()

	// A stream (a server) for each number of campaigns.
	targets = targets[:0]
	for i, n := range o.GrowthCampaigns {
		srv, st, err := e.startStore(ctx, fmt.Sprintf("growth-campaigns-%d", i))
		if err != nil {
			return nil, err
		}
		defer srv.Shutdown()
		j := newJournal(st)
		measured := campaigns("gm", 1, 10)[0]
		if err := setupCampaign(ctx, j, measured.id, measured.chars); err != nil {
			return nil, err
		}
		others := campaigns("go", max(n-1, 1), max(n-1, 1))[:n-1]
		err = parallel(ctx, len(others), 64, func(ctx context.Context, k int) error {
			if err := setupCampaign(ctx, j, others[k].id, others[k].chars); err != nil {
				return err
			}
			if k%256 == 0 {
				o.progress(StageGrowth, "setup", k, len(others))
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		targets = append(targets, &growthTarget{j: j, camp: measured.id, chars: measured.chars})
	}
	if err := e.interleave(ctx, targets); err != nil {
		return nil, err
	}
	for i, t := range targets {
		g.Campaigns = append(g.Campaigns, latency(o.GrowthCampaigns[i], t.times))
	}
	g.CampaignsSpread = spread(g.Campaigns)
	return g, nil
}

// coldLoad measures the load of a campaign of about ColdCampaignEvents
// events by a fresh journal on a freshly started server, the stream at
// each of ColdEvents events (its events interleaved round-robin across
// ColdEvents/ColdCampaignEvents campaigns, as fill writes them). The sizes
// alternate, one load each in turn, so that the machine's drift falls on
// every size alike. Before the timed loads, each measured campaign is loaded
// once untimed (so that whatever a load leaves for the next, a checkpoint,
// is there, as for a campaign a running journal has served).
func (e *env) coldLoad(ctx context.Context) (*ColdLoad, error) {
	o := e.o
	type stream struct {
		dir   string
		camps []benchCampaign
		times []time.Duration
		cpu   []time.Duration
		n     int
		read  int // the most messages a timed load read
	}
	streams := make([]*stream, len(o.ColdEvents))
	for i, n := range o.ColdEvents {
		fo := o
		fo.Events = n
		fo.Campaigns = max(1, n/o.ColdCampaignEvents)
		fo.Characters = min(fo.Campaigns*10, 1_000_000)
		s := &stream{dir: filepath.Join(e.dir, fmt.Sprintf("cold-%d", i)), camps: campaigns("r", fo.Campaigns, fo.Characters)}
		o.progress(StageColdLoad, "setup", 0, n)
		written, err := keptFill(ctx, o.ColdDir, &s.dir, fo)
		if err != nil {
			return nil, err
		}
		s.n = written
		streams[i] = s
	}
	// The fills wrote hundreds of megabytes in seconds, which the system
	// writes back to disk for a while after: a journal's stream was written
	// over weeks. So the timed loads start once the disks hold it all, for
	// every size alike.
	flushDisks()
	// load starts the server of s, loads campaign k with a fresh journal
	// and returns the time of the load alone, the process's CPU time during
	// it, and its events.
	load := func(s *stream, k int) (time.Duration, time.Duration, int, error) {
		srv, err := embedded.Start(ctx, embedded.Options{Dir: s.dir, Sync: o.Sync})
		if err != nil {
			return 0, 0, 0, err
		}
		defer srv.Shutdown()
		st, err := jetstore.Open(ctx, srv.JetStream(), jetstore.Options{})
		if err != nil {
			return 0, 0, 0, err
		}
		// jetstore.Open gave the stream the journal's deduplication window
		// (two minutes) without indexing its ids (see fill); the next
		// server to start on it would index every id of the last two
		// minutes, most of a stream filled a minute ago, which no journal
		// meets (its stream is older than the window), and whose expiry the
		// server then works through while later loads are timed. So the
		// fill's window is restored before the server stops, for every size
		// alike.
		defer func() {
			cfg := jetstore.StreamConfig(jetstore.Options{})
			cfg.Duplicates = fillWindow
			_, _ = srv.JetStream().UpdateStream(ctx, cfg)
		}()
		// The journal's checkpoints, as the CLI and serve open them: the
		// untimed first load writes the campaign's, the timed ones read it
		// and the events after it.
		kv, err := live.OpenBucket(ctx, srv.JetStream(), 1)
		if err != nil {
			return 0, 0, 0, err
		}
		counted := &readCounter{Store: st}
		j := command.New(counted, command.Options{
			Clock: time.Now, Rand: rand.Reader, IDs: events.NewV7(time.Now, rand.Reader), Actor: "bench",
			Checkpoints: kv,
		})
		settle()
		t, cpu := time.Now(), cpuTime()
		c, err := j.Load(ctx, s.camps[k%len(s.camps)].id, 0)
		d, dcpu := time.Since(t), cpuTime()-cpu
		if err != nil {
			return 0, 0, 0, err
		}
		s.read = max(s.read, int(counted.n.Load()))
		return d, dcpu, c.Events, nil
	}
	loaded := make([]int, len(streams))
	for k := range o.ColdLoads { // untimed first loads
		for i, s := range streams {
			_, _, n, err := load(s, k)
			if err != nil {
				return nil, err
			}
			loaded[i] = n
		}
		for _, s := range streams {
			s.read = 0 // the first loads fold from the start
		}
		o.progress(StageColdLoad, "first loads", k+1, o.ColdLoads)
	}
	for k := range o.ColdLoads {
		for _, s := range streams {
			d, cpu, _, err := load(s, k)
			if err != nil {
				return nil, err
			}
			s.times, s.cpu = append(s.times, d), append(s.cpu, cpu)
		}
		o.progress(StageColdLoad, "journal", k+1, o.ColdLoads)
	}
	c := &ColdLoad{}
	for i, s := range streams {
		l := latency(s.n, s.times)
		l.Events = loaded[i]
		l.CPUP50 = latency(s.n, s.cpu).P50
		l.Read = s.read
		c.Loads = append(c.Loads, l)
	}
	if first := c.Loads[0].P50; first > 0 {
		c.Spread = c.Loads[len(c.Loads)-1].P50 / first
	}
	return c, nil
}

// readCounter is the journal's store for the cold loads: it counts the
// messages its reads deliver, and each request for a campaign's last
// message as one (the server loads the block that holds it). The
// store's other methods (SubjectCount among them) pass through.
type readCounter struct {
	*jetstore.Store
	n atomic.Int64
}

func (s *readCounter) Read(ctx context.Context, q events.Query, fn func(events.Recorded) error) error {
	if on := q.OnForeign; on != nil {
		q.OnForeign = func(f events.Foreign) error { s.n.Add(1); return on(f) }
	}
	return s.Store.Read(ctx, q, func(r events.Recorded) error { s.n.Add(1); return fn(r) })
}

func (s *readCounter) ReadLast(ctx context.Context, q events.Query, fn func(events.Recorded) error) (uint64, error) {
	s.n.Add(1)
	return s.Store.ReadLast(ctx, q, fn)
}

// keptFill is fill into *dir, or, when kept is set, into a folder of kept
// named by the stream's sizes, filled once and reused by later runs
// (*dir is set to it): filling 1 000 000 events takes minutes on a loaded
// machine, and --repeat would fill again every run.
func keptFill(ctx context.Context, kept string, dir *string, o Options) (int, error) {
	if kept == "" {
		return fill(ctx, *dir, o)
	}
	*dir = filepath.Join(kept, fmt.Sprintf("cold-%d-events-%d-campaigns-%d-characters", o.Events, o.Campaigns, o.Characters))
	marker := filepath.Join(*dir, "filled")
	if b, err := os.ReadFile(marker); err == nil {
		if n, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
			return n, nil
		}
	}
	if err := os.RemoveAll(*dir); err != nil {
		return 0, err
	}
	n, err := fill(ctx, *dir, o)
	if err != nil {
		return 0, err
	}
	return n, os.WriteFile(marker, []byte(strconv.Itoa(n)+"\n"), 0o644)
}
