package web

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/live"
)

// Metrics are the service's Prometheus metrics, in a registry of their own
// (no global state). Names and labels are the contract of
// grafana/journal-dashboard.json:
//
//	journal_events_total{type}                       events folded by the live consumer
//	journal_events_appended_total{type}              events appended by this process's commands
//	journal_rolls_total{system,kind,outcome}         roll events folded
//	journal_command_duration_seconds{command,status} command execution (fold, dice, conditional append)
//	journal_projection_errors_total                  events the live fold refused
//	journal_foreign_messages_total                   messages of the stream that are not events, skipped by the live projection
//	journal_stream_last_sequence                     the stream's last sequence, as last seen
//	journal_projection_sequence                      the last sequence folded
//	journal_consumer_lag                             stream last − folded
//	journal_checkpoint_sequence                      the sequence of the last checkpoint
//	journal_checkpoint_age_seconds                   time since the last checkpoint (since start when none)
//	journal_page_checkpoint_errors_total             page checkpoints not written (pagecache.go; over live.MaxValue, or the bucket failing)
//	journal_partition_projection_sequence{partition} on a journal of several partitions: the last sequence folded of each partition's stream
//	journal_partition_consumer_lag{partition}        on a journal of several partitions: each partition's stream last − folded
//
// On a journal of several partitions the unlabelled projection figures sum
// the partitions' (sequences of different streams: a lag and a count of
// messages, no event's sequence).
//
//	journal_http_requests_total{route,code}          HTTP requests
//	journal_sse_clients                              open event streams
//	journal_sse_refused_total                        event streams refused over a limit (429)
//	journal_sse_slow_closed_total                    event streams closed for falling behind the live feed
type Metrics struct {
	reg            *prometheus.Registry
	eventsFolded   *prometheus.CounterVec
	eventsAppended *prometheus.CounterVec
	rolls          *prometheus.CounterVec
	commands       *prometheus.HistogramVec
	foldErrors     prometheus.Counter
	requests       *prometheus.CounterVec
	sseClients     prometheus.Gauge
	sseRefused     prometheus.Counter
	sseSlow        prometheus.Counter
	// pageCheckpointErrors counts the page checkpoints not written.
	pageCheckpointErrors prometheus.Counter
}

// NewMetrics returns the metrics in a fresh registry that also holds the Go
// runtime's and the process's collectors.
func NewMetrics() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		eventsFolded: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "journal_events_total", Help: "Events folded by the live projection, by type.",
		}, []string{"type"}),
		eventsAppended: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "journal_events_appended_total", Help: "Events appended by commands run through this process, by type.",
		}, []string{"type"}),
		rolls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "journal_rolls_total", Help: "Roll events folded, by system, kind and outcome.",
		}, []string{"system", "kind", "outcome"}),
		commands: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "journal_command_duration_seconds",
			Help:    "Time to run a command: fold the campaign, decide, roll, append conditionally (durably) and retry on conflict; by command and HTTP status.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5},
		}, []string{"command", "status"}),
		foldErrors: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "journal_projection_errors_total", Help: "Events the live projection could not fold (skipped).",
		}),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "journal_http_requests_total", Help: "HTTP requests by route and status code.",
		}, []string{"route", "code"}),
		sseClients: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "journal_sse_clients", Help: "Open Server-Sent Events streams.",
		}),
		sseRefused: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "journal_sse_refused_total", Help: "Server-Sent Events streams refused for being over the server's or the user's limit (429).",
		}),
		sseSlow: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "journal_sse_slow_closed_total", Help: "Server-Sent Events streams closed for falling behind the live feed (the client resumes with Last-Event-ID).",
		}),
		pageCheckpointErrors: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "journal_page_checkpoint_errors_total", Help: "Checkpoints of the pages' projections not written (over the bucket's value limit, or the bucket failing): the next start folds those pages' campaigns.",
		}),
	}
	m.reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		m.eventsFolded, m.eventsAppended, m.rolls, m.commands, m.foldErrors, m.requests, m.sseClients, m.sseRefused, m.sseSlow, m.pageCheckpointErrors)
	return m
}

// Registry returns the registry, to add collectors or gather in tests.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// Folded counts one event folded by the live projection (live.Options.OnEvent).
func (m *Metrics) Folded(rec events.Recorded) {
	m.eventsFolded.WithLabelValues(rec.Event.Type).Inc()
	if rec.Event.Type != events.TypeRollMade {
		return
	}
	var r events.RollMade
	if err := rec.Event.DecodeData(&r); err != nil {
		return
	}
	m.rolls.WithLabelValues(r.System, r.Kind, r.Outcome).Inc()
}

// FoldFailed counts one event the live projection refused (live.Options.OnError).
func (m *Metrics) FoldFailed(events.Recorded, error) { m.foldErrors.Inc() }

func (m *Metrics) appended(typ string) { m.eventsAppended.WithLabelValues(typ).Inc() }

func (m *Metrics) command(name string, status int, d time.Duration) {
	m.commands.WithLabelValues(name, strconv.Itoa(status)).Observe(d.Seconds())
}

func (m *Metrics) request(route string, code int) {
	m.requests.WithLabelValues(route, strconv.Itoa(code)).Inc()
}

// watch registers the projector's gauges (once per Metrics).
func (m *Metrics) watch(p *live.Group, clock func() time.Time) {
	start := clock()
	gauge := func(name, help string, f func(live.Stats) float64) prometheus.Collector {
		return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, func() float64 { return f(p.Stats()) })
	}
	cs := []prometheus.Collector{
		gauge("journal_stream_last_sequence", "The stream's last sequence, as last seen.", func(s live.Stats) float64 { return float64(s.StreamLast) }),
		gauge("journal_projection_sequence", "The last stream sequence folded by the live projection.", func(s live.Stats) float64 { return float64(s.Position) }),
		gauge("journal_consumer_lag", "Stream messages not folded yet (stream last − folded).", func(s live.Stats) float64 { return float64(s.Lag()) }),
		gauge("journal_checkpoint_sequence", "The stream sequence of the last projection checkpoint.", func(s live.Stats) float64 { return float64(s.CheckpointSeq) }),
		gauge("journal_checkpoint_age_seconds", "Seconds since the last projection checkpoint (since the start when none).", func(s live.Stats) float64 {
			at := s.CheckpointAt
			if at.IsZero() {
				at = start
			}
			return clock().Sub(at).Seconds()
		}),
	}
	cs = append(cs, prometheus.NewCounterFunc(prometheus.CounterOpts{
		Name: "journal_foreign_messages_total",
		Help: "Messages of the stream that are not journal events (published past the commands), skipped by the live projection.",
	}, func() float64 { return float64(p.Stats().Foreign) }))
	if p.Partitions() > 1 {
		for i := range p.Partitions() {
			part := p.Partition(i)
			labels := prometheus.Labels{"partition": strconv.Itoa(i)}
			cs = append(cs,
				prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "journal_partition_projection_sequence", ConstLabels: labels,
					Help: "The last sequence of the partition's stream folded by its live projector."},
					func() float64 { return float64(part.Stats().Position) }),
				prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "journal_partition_consumer_lag", ConstLabels: labels,
					Help: "Messages of the partition's stream not folded yet by its live projector."},
					func() float64 { return float64(part.Stats().Lag()) }))
		}
	}
	for _, c := range cs {
		if err := m.reg.Register(c); err != nil {
			return // already watching a projector
		}
	}
}
