package bench

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/jetstore"
	"github.com/campaign-journal/journal/live"
	"github.com/campaign-journal/journal/signed"
	"github.com/campaign-journal/journal/web"
)

// RollLatency is the latency of one kind of roll on one path, in µs.
type RollLatency struct {
	Count     int     `json:"count"`
	P50       float64 `json:"p50_us"`
	P90       float64 `json:"p90_us"`
	P99       float64 `json:"p99_us"`
	PerSecond float64 `json:"per_second"`
	// RequestP50 and RevealP50 are the p50 of a v2 roll's two round trips
	// (0 for a v1 roll).
	RequestP50 float64 `json:"request_p50_us,omitempty"`
	RevealP50  float64 `json:"reveal_p50_us,omitempty"`
}

// V2RollPath is a v1 roll and a v2 roll measured on one path, one after
// another, in alternating rounds.
type V2RollPath struct {
	Path string      `json:"path"`
	What string      `json:"what"`
	V1   RollLatency `json:"v1"`
	V2   RollLatency `json:"v2"`
	// P50Ratio and P99Ratio are V2's over V1's.
	P50Ratio float64 `json:"p50_ratio"`
	P99Ratio float64 `json:"p99_ratio"`
}

// V2Roll is the v2-roll stage; its target is the p99 ratio (TargetV2RollP99).
type V2Roll struct {
	Rolls int          `json:"rolls"`
	Paths []V2RollPath `json:"paths"`
}

// The paths of the v2-roll stage.
const (
	PathInProcess = "in-process"
	PathCLI       = "cli"
	PathHTTP      = "http"
)

// rollPath is a path's two roll makers: a v1 roll command, and a v2 roll
// (its request's and its reveal's round trips).
type rollPath struct {
	name, what string
	v1         func(ctx context.Context) error
	v2         func(ctx context.Context) (request, reveal time.Duration, err error)
}

// v2Roll measures a v1 roll and a journal-dice-v2 roll (the device signs
// a roll.request committing to its secret r, the journal records it, the
// device signs the roll.reveal, the journal draws and records the roll)
// on three paths to the same embedded server, with the run's sync
// setting: the journal's commands in this process; the CLI's path (a
// journal of its own on a NATS connection over loopback TCP to the data
// folder's server, as `journal roll` reaches a running `journal serve`,
// each command under a request id); and HTTP (the web server's real
// handlers, each response once the live projection shows the event).
// Every signature is real Ed25519, made and checked.
func (e *env) v2Roll(ctx context.Context) (*V2Roll, error) {
	o := e.o
	dir := filepath.Join(e.dir, "v2roll")
	srv, err := embedded.Start(ctx, embedded.Options{Dir: dir, Sync: o.Sync, Share: true})
	if err != nil {
		return nil, fmt.Errorf("embedded server: %w", err)
	}
	defer srv.Shutdown()
	st, err := jetstore.Open(ctx, srv.JetStream(), jetstore.Options{})
	if err != nil {
		return nil, err
	}
	o.progress(StageV2Roll, "setup", 0, 3*o.V2Rolls)
	var paths []rollPath
	p, err := journalPath(ctx, PathInProcess, "the journal's commands in this process (command.Handler over the embedded server's in-process connection)", newJournal(st), newJournal(st))
	if err != nil {
		return nil, err
	}
	paths = append(paths, p)

	// The CLI's path: a second Start on the same folder connects to the
	// owner through its loopback share, as a CLI does.
	cli, err := embedded.Start(ctx, embedded.Options{Dir: dir})
	if err != nil {
		return nil, fmt.Errorf("connect as the CLI: %w", err)
	}
	defer cli.Shutdown()
	if !cli.Remote() {
		return nil, errors.New("connect as the CLI: got a server of its own, not the shared one")
	}
	cst, err := jetstore.Open(ctx, cli.JetStream(), jetstore.Options{})
	if err != nil {
		return nil, err
	}
	p, err = journalPath(ctx, PathCLI, "the CLI's path: a journal of its own on a NATS connection over loopback TCP to the data folder's server, each command under a request id (warm: one journal for every roll, where each `journal roll` process refolds its campaign first)", newJournal(cst), newJournal(cst))
	if err != nil {
		return nil, err
	}
	paths = append(paths, p)

	hp, stop, err := httpPath(ctx, srv, st)
	if err != nil {
		return nil, err
	}
	defer stop()
	paths = append(paths, hp)

	out := &V2Roll{Rolls: o.V2Rolls}
	for i, p := range paths {
		var v1, v2, req, rev []time.Duration
		var v1s, v2s time.Duration
		for k := range 5 { // warm up both
			if err := p.v1(ctx); err != nil {
				return nil, fmt.Errorf("%s v1 roll %d: %w", p.name, k, err)
			}
			if _, _, err := p.v2(ctx); err != nil {
				return nil, fmt.Errorf("%s v2 roll %d: %w", p.name, k, err)
			}
		}
		done := 0
		for _, n := range splits(o.V2Rolls, o.Rounds) {
			t0 := time.Now()
			for range n {
				t := time.Now()
				if err := p.v1(ctx); err != nil {
					return nil, fmt.Errorf("%s v1 roll: %w", p.name, err)
				}
				v1 = append(v1, time.Since(t))
			}
			v1s += time.Since(t0)
			t0 = time.Now()
			for range n {
				t := time.Now()
				a, b, err := p.v2(ctx)
				if err != nil {
					return nil, fmt.Errorf("%s v2 roll: %w", p.name, err)
				}
				v2, req, rev = append(v2, time.Since(t)), append(req, a), append(rev, b)
			}
			v2s += time.Since(t0)
			done += n
			o.progress(StageV2Roll, p.name, i*o.V2Rolls+done, 3*o.V2Rolls)
		}
		rp := V2RollPath{Path: p.name, What: p.what, V1: latencyOf(v1, v1s), V2: latencyOf(v2, v2s)}
		rp.V2.RequestP50, rp.V2.RevealP50 = latencyOf(req, 0).P50, latencyOf(rev, 0).P50
		if rp.V1.P50 > 0 {
			rp.P50Ratio = rp.V2.P50 / rp.V1.P50
		}
		if rp.V1.P99 > 0 {
			rp.P99Ratio = rp.V2.P99 / rp.V1.P99
		}
		out.Paths = append(out.Paths, rp)
	}
	return out, nil
}

// latencyOf sums up latencies measured in total wall time.
func latencyOf(lat []time.Duration, total time.Duration) RollLatency {
	l := RollLatency{Count: len(lat)}
	if len(lat) == 0 {
		return l
	}
	s := slices.Clone(lat)
	slices.Sort(s)
	at := func(p float64) float64 { return float64(s[int(float64(len(s)-1)*p)]) / float64(time.Microsecond) }
	l.P50, l.P90, l.P99 = at(0.50), at(0.90), at(0.99)
	if total > 0 {
		l.PerSecond = float64(len(lat)) / total.Seconds()
	}
	return l
}

// v2Player is the player whose device signs the v2 rolls.
const v2Player = "ana"

// v2Device is a device's key.
func v2Device() ed25519.PrivateKey {
	var seed [32]byte
	seed[0] = 0xb2
	return ed25519.NewKeyFromSeed(seed[:])
}

// setupV2Campaigns creates campaign prefix-1 with a v1 session and prefix-2
// with a v2 session, each with the character lodin, the player's key
// registered in the second (as user), and returns the v2 session's id and
// seed commitment.
func setupV2Campaigns(ctx context.Context, j *command.Handler, prefix, user string, priv ed25519.PrivateKey) (session, commitment string, err error) {
	if err := setupCampaign(ctx, j, prefix+"-1", []string{"lodin"}); err != nil {
		return "", "", err
	}
	camp := prefix + "-2"
	if _, err := j.CreateCampaign(ctx, command.CreateCampaign{ID: camp, Name: "Bench " + camp, System: command.SystemRyF}); err != nil {
		return "", "", err
	}
	if _, err := j.CreateCharacter(ctx, camp, command.CreateCharacter{
		ID: "lodin", Name: "lodin", Player: user, Attributes: benchAttrs, Skills: benchSkills, Specialization: benchSkill,
	}); err != nil {
		return "", "", err
	}
	reg, err := device.Register(device.PrivateKey(priv), camp, user, command.RolePlayer, "bench")
	if err != nil {
		return "", "", err
	}
	if _, err := j.MustFor(command.Call{Actor: user}).RegisterKey(ctx, camp, command.RegisterKey{SignedMessage: reg}); err != nil {
		return "", "", err
	}
	res, err := j.StartSessionWith(ctx, camp, command.SessionStart{ID: "s1", Dice: command.DiceV2})
	if err != nil {
		return "", "", err
	}
	var started events.SessionStarted
	if err := res.Events[0].Event.DecodeData(&started); err != nil {
		return "", "", err
	}
	return "s1", started.Commitment, nil
}

// sealWith signs messages with priv.
func sealWith(priv ed25519.PrivateKey) func(signed.Message) (command.SignedMessage, error) {
	return func(m signed.Message) (command.SignedMessage, error) {
		s, err := signed.Encode(m)
		if err != nil {
			return command.SignedMessage{}, err
		}
		return command.SignedMessage{Signed: s, Signature: signed.Sign(priv, s)}, nil
	}
}

// journalPath is the in-process and the CLI's path: setup makes the
// campaigns, j runs the measured commands as the CLI does (each under a
// request id of its own).
func journalPath(ctx context.Context, name, what string, setup, j *command.Handler) (rollPath, error) {
	priv := v2Device()
	prefix := "v2" + name
	session, commitment, err := setupV2Campaigns(ctx, setup, prefix, v2Player, priv)
	if err != nil {
		return rollPath{}, err
	}
	seal := sealWith(priv)
	hdr := signed.Header{Campaign: prefix + "-2", Session: session}
	n := 0
	next := func() string { n++; return name + "-" + strconv.Itoa(n) }
	return rollPath{name: name, what: what,
		v1: func(ctx context.Context) error {
			req := command.RollRequest{Character: "lodin", Skill: benchSkill, Vs: benchVs}
			rj, err := j.For(command.Call{RequestID: next(), What: "roll", Args: req})
			if err != nil {
				return err
			}
			_, err = rj.Roll(ctx, prefix+"-1", req)
			return err
		},
		v2: func(ctx context.Context) (time.Duration, time.Duration, error) {
			t0 := time.Now()
			var mid time.Time
			err := v2RollWith(ctx, hdr, commitment, seal,
				func(ctx context.Context, id string, m command.RollRequestSigned) error {
					rj, err := j.For(command.Call{Actor: v2Player, RequestID: next() + ".request", What: "roll-request", Args: id})
					if err != nil {
						return err
					}
					_, err = rj.RequestRoll(ctx, hdr.Campaign, m)
					mid = time.Now()
					return err
				},
				func(ctx context.Context, id string, m command.RollRevealSigned) error {
					rj, err := j.For(command.Call{Actor: v2Player, RequestID: next() + ".reveal", What: "roll-reveal", Args: id})
					if err != nil {
						return err
					}
					_, err = rj.RevealRoll(ctx, hdr.Campaign, m)
					return err
				})
			return mid.Sub(t0), time.Since(mid), err
		},
	}, nil
}

// v2RollWith makes one v2 roll as a device does (v2Roll), sending its two
// messages with request and reveal.
func v2RollWith(ctx context.Context, hdr signed.Header, commitment string, seal func(signed.Message) (command.SignedMessage, error),
	request func(context.Context, string, command.RollRequestSigned) error, reveal func(context.Context, string, command.RollRevealSigned) error) error {
	a := command.RollAction{Command: command.CommandRoll, SeedCommitment: commitment, Character: "lodin", Skill: benchSkill, Vs: benchVs}
	return deviceRoll(ctx, hdr, a, seal, request, reveal)
}

// httpPath serves the journal's web server (its real handlers, without
// access control: the recorded actor is the server's, "api", whose key is
// registered) on a loopback port over st, with a live projection, and
// returns the path of a client making rolls through it.
func httpPath(ctx context.Context, srv *embedded.Server, st *jetstore.Store) (rollPath, func(), error) {
	kv, err := live.OpenBucket(ctx, srv.JetStream(), 1)
	if err != nil {
		return rollPath{}, nil, err
	}
	proj := live.New(st, kv, live.Options{})
	if _, err := proj.Restore(ctx); err != nil {
		return rollPath{}, nil, err
	}
	const actor = "api"
	ws, err := web.New(web.Options{Store: st, Projector: proj, Actor: actor})
	if err != nil {
		return rollPath{}, nil, err
	}
	pctx, cancel := context.WithCancel(ctx)
	projDone := make(chan struct{})
	go func() { defer close(projDone); _ = proj.Run(pctx) }()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		cancel()
		<-projDone
		return rollPath{}, nil, err
	}
	hs := &http.Server{Handler: ws, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = hs.Serve(ln) }()
	stop := func() {
		ws.CloseStreams()
		_ = hs.Close()
		cancel()
		<-projDone
	}
	priv := v2Device()
	const prefix = "v2http"
	session, commitment, err := setupV2Campaigns(ctx, newJournal(st), prefix, actor, priv)
	if err != nil {
		stop()
		return rollPath{}, nil, err
	}
	base := "http://" + ln.Addr().String() + "/api/campaigns/"
	hc := &http.Client{Timeout: 30 * time.Second}
	post := func(ctx context.Context, campaign, cmd string, body any) error {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+campaign+"/commands/"+cmd, bytes.NewReader(b))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		res, err := hc.Do(req)
		if err != nil {
			return err
		}
		defer res.Body.Close()
		rb, err := io.ReadAll(res.Body)
		if err != nil {
			return err
		}
		if res.StatusCode != http.StatusOK {
			return fmt.Errorf("POST %s: %d %s", cmd, res.StatusCode, bytes.TrimSpace(rb))
		}
		return nil
	}
	seal := sealWith(priv)
	hdr := signed.Header{Campaign: prefix + "-2", Session: session}
	return rollPath{name: PathHTTP,
		what: "HTTP on loopback: POST /api/campaigns/{c}/commands/roll, roll-request then roll-reveal, to the web server's real handlers, each response once the live projection shows the event",
		v1: func(ctx context.Context) error {
			return post(ctx, prefix+"-1", "roll", command.RollRequest{Character: "lodin", Skill: benchSkill, Vs: benchVs})
		},
		v2: func(ctx context.Context) (time.Duration, time.Duration, error) {
			t0 := time.Now()
			var mid time.Time
			err := v2RollWith(ctx, hdr, commitment, seal,
				func(ctx context.Context, _ string, m command.RollRequestSigned) error {
					err := post(ctx, hdr.Campaign, "roll-request", m)
					mid = time.Now()
					return err
				},
				func(ctx context.Context, _ string, m command.RollRevealSigned) error {
					return post(ctx, hdr.Campaign, "roll-reveal", m)
				})
			return mid.Sub(t0), time.Since(mid), err
		},
	}, stop, nil
}
