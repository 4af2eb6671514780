package bench

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/google/uuid"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/memstore"
	"github.com/campaign-journal/journal/replay"
	"github.com/campaign-journal/journal/signed"
)

// v2SessionRolls is how many rolls each journal-dice-v2 session of the
// verification export holds.
const v2SessionRolls = 500

// verificationV2 measures replay.Verify on an exported campaign of
// journal-dice-v2 sessions against decoding the export and running the
// same Ed25519 checks on it (decodeAndVerify): every core on both sides.
func (e *env) verificationV2(ctx context.Context) (Pair, error) {
	var p Pair
	o := e.o
	path := filepath.Join(e.dir, "export-v2.jsonl")
	o.progress(StageVerifyV2, "setup", 0, o.VerifyRolls)
	x, err := writeV2Export(ctx, path, o.VerifyRolls, func(done int) { o.progress(StageVerifyV2, "setup", done, o.VerifyRolls) })
	if err != nil {
		return p, err
	}
	open := func() (io.ReadCloser, error) { return os.Open(path) }
	p.Journal.What = fmt.Sprintf("rolls verified from an export of %d events in %d journal-dice-v2 sessions (replay.Verify: chain, signatures, requests, reveals, session keys, faces, rules, projections)", x.events, x.sessions)
	p.Raw.What = fmt.Sprintf("the same export decoded (events.Decode of every line) and its %d Ed25519 signatures checked (signed.Verify), on %d goroutines", x.signatures, runtime.GOMAXPROCS(0))
	p.Journal.MessageBytes, p.Raw.MessageBytes = x.size, x.size
	for range o.Rounds {
		var rep replay.Report
		err := e.measureJournal(&p, o.VerifyRolls, func() error {
			var err error
			rep, err = replay.Verify(ctx, replay.JSONLSource(open), replay.Options{})
			return err
		})
		if err != nil {
			return p, err
		}
		if !rep.OK() || rep.Totals.Verified != o.VerifyRolls {
			return p, fmt.Errorf("v2 verification found %d mismatches and verified %d rolls of %d", rep.Totals.Mismatches, rep.Totals.Verified, o.VerifyRolls)
		}
		o.progress(StageVerifyV2, "journal", o.VerifyRolls, o.VerifyRolls)
		err = e.measureRaw(&p, o.VerifyRolls, func() error {
			n, sigs, err := decodeAndVerify(open, x.keys)
			if err == nil && (n != x.events || sigs != x.signatures) {
				err = fmt.Errorf("decoded %d events of %d, checked %d signatures of %d", n, x.events, sigs, x.signatures)
			}
			return err
		})
		if err != nil {
			return p, err
		}
		o.progress(StageVerifyV2, "raw", o.VerifyRolls, o.VerifyRolls)
	}
	p.Notes = append(p.Notes, fmt.Sprintf("%d sessions of up to %d rolls, 4 players with Ed25519 keys of their own, each contributing to every session", x.sessions, v2SessionRolls))
	return p, nil
}

// v2Export is what writeV2Export wrote.
type v2Export struct {
	events, sessions, signatures, size int
	// keys are the players' public keys, by user.
	keys map[string]signed.PublicKey
}

// writeV2Export records a campaign of journal-dice-v2 sessions holding
// rolls rolls in all (v2SessionRolls each), in an in-memory journal,
// through the journal's own commands: four players register keys of
// their own (real Ed25519), contribute to each session's key, and make
// each roll as the CLI does, a signed roll.request then a signed
// roll.reveal of its secret r. It exports the campaign as `journal export`
// does (each event's stored bytes, one a line).
func writeV2Export(ctx context.Context, path string, rolls int, progress func(int)) (v2Export, error) {
	x := v2Export{keys: map[string]signed.PublicKey{}}
	st := memstore.New(memstore.Options{})
	j := newJournal(st)
	const camp = "verify2"
	if _, err := j.CreateCampaign(ctx, command.CreateCampaign{ID: camp, Name: "Bench v2", System: command.SystemRyF}); err != nil {
		return x, err
	}
	type player struct {
		user, char string
		priv       ed25519.PrivateKey
		j          *command.Handler
	}
	var players []player
	for i, c := range []string{"lodin", "ruisenor", "aldric", "mira"} {
		user := "p-" + c
		if _, err := j.CreateCharacter(ctx, camp, command.CreateCharacter{
			ID: c, Name: c, Player: user, Attributes: benchAttrs, Skills: benchSkills, Specialization: benchSkill,
		}); err != nil {
			return x, err
		}
		var seed [32]byte
		seed[0], seed[1] = 0xbe, byte(i)
		pl := player{user: user, char: c, priv: ed25519.NewKeyFromSeed(seed[:]), j: j.MustFor(command.Call{Actor: user})}
		pub := signed.PublicKeyOf(pl.priv)
		reg, err := device.Register(device.PrivateKey(pl.priv), camp, user, command.RolePlayer, "bench")
		if err != nil {
			return x, err
		}
		if _, err := pl.j.RegisterKey(ctx, camp, command.RegisterKey{SignedMessage: reg}); err != nil {
			return x, err
		}
		x.keys[user] = pub
		players = append(players, pl)
	}
	seal := func(priv ed25519.PrivateKey, m signed.Message) (command.SignedMessage, error) {
		s, err := signed.Encode(m)
		if err != nil {
			return command.SignedMessage{}, err
		}
		x.signatures++
		return command.SignedMessage{Signed: s, Signature: signed.Sign(priv, s)}, nil
	}
	done := 0
	for done < rolls {
		x.sessions++
		sid := fmt.Sprintf("s%04d", x.sessions)
		res, err := j.StartSessionWith(ctx, camp, command.SessionStart{ID: sid, Dice: command.DiceV2})
		if err != nil {
			return x, err
		}
		var started events.SessionStarted
		if err := res.Events[0].Event.DecodeData(&started); err != nil {
			return x, err
		}
		hdr := signed.Header{Campaign: camp, Session: sid}
		for _, pl := range players {
			var v signed.Hex32
			if _, err := rand.Read(v[:]); err != nil {
				return x, err
			}
			var commitment signed.Hex32
			if err := commitment.UnmarshalText([]byte(started.Commitment)); err != nil {
				return x, err
			}
			m, err := seal(pl.priv, &signed.Contribute{Header: hdr, Value: v, Commitment: commitment})
			if err != nil {
				return x, err
			}
			if _, err := pl.j.Contribute(ctx, camp, command.ContributeSigned{Character: pl.char, SignedMessage: m}); err != nil {
				return x, err
			}
		}
		for k := range min(v2SessionRolls, rolls-done) {
			pl := players[k%len(players)]
			a := command.RollAction{Command: command.CommandRoll, SeedCommitment: started.Commitment, Character: pl.char, Skill: benchSkill, Vs: benchVs}
			if k%3 == 1 {
				a = command.RollAction{Command: command.CommandRoll, SeedCommitment: started.Commitment, Character: pl.char, Attribute: "P", Vs: "20"}
			}
			err := deviceRoll(ctx, hdr, a, func(m signed.Message) (command.SignedMessage, error) { return seal(pl.priv, m) },
				func(ctx context.Context, _ string, m command.RollRequestSigned) error {
					_, err := pl.j.RequestRoll(ctx, camp, m)
					return err
				},
				func(ctx context.Context, _ string, m command.RollRevealSigned) error {
					_, err := pl.j.RevealRoll(ctx, camp, m)
					return err
				})
			if err != nil {
				return x, err
			}
			done++
			if done%256 == 0 && progress != nil {
				progress(done)
			}
		}
		if _, err := j.EndSession(ctx, camp); err != nil {
			return x, err
		}
	}
	n, size, err := exportStore(ctx, st, path)
	x.events, x.size = n, size
	return x, err
}

// deviceRoll makes one journal-dice-v2 roll of action a as a device
// does: it draws r, sends a signed roll.request committing to it
// (request), then a signed roll.reveal of r (reveal).
func deviceRoll(ctx context.Context, hdr signed.Header, a command.RollAction, seal func(signed.Message) (command.SignedMessage, error),
	request func(context.Context, string, command.RollRequestSigned) error, reveal func(context.Context, string, command.RollRevealSigned) error) error {
	var r [32]byte
	if _, err := rand.Read(r[:]); err != nil {
		return err
	}
	action, err := json.Marshal(a)
	if err != nil {
		return err
	}
	id := uuid.NewString()
	req, err := seal(&signed.Request{Header: hdr, Request: id, Commitment: sha256.Sum256(r[:]), Action: action})
	if err != nil {
		return err
	}
	if err := request(ctx, id, command.RollRequestSigned{Character: a.Character, SignedMessage: req}); err != nil {
		return fmt.Errorf("roll request: %w", err)
	}
	rev, err := seal(&signed.Reveal{Header: hdr, Request: id, R: r})
	if err != nil {
		return err
	}
	if err := reveal(ctx, id, command.RollRevealSigned{Character: a.Character, SignedMessage: rev}); err != nil {
		return fmt.Errorf("roll reveal: %w", err)
	}
	return nil
}

// exportStore writes every event of st to path as `journal export` does,
// and returns the number of events and their average size. The journal
// stores what events.Encode writes, so these are the stored bytes the
// v2 chain hashes.
func exportStore(ctx context.Context, st *memstore.Store, path string) (nEvents, size int, err error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, 0, err
	}
	w := bufio.NewWriter(f)
	total := 0
	err = st.Read(ctx, events.Query{}, func(r events.Recorded) error {
		doc, err := events.Encode(r.Event)
		if err != nil {
			return err
		}
		nEvents++
		total += len(doc)
		if _, err := w.Write(doc); err != nil {
			return err
		}
		return w.WriteByte('\n')
	})
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, 0, fmt.Errorf("export: %w", err)
	}
	return nEvents, total / max(nEvents, 1), nil
}

// decodeBatch is how many lines decodeEvery hands a worker at once.
const decodeBatch = 256

// decodeEvery reads the export from open and decodes every line
// (events.Decode) on GOMAXPROCS goroutines, calling fn with each event on
// the goroutine that decoded it (in no particular order). It returns the
// number of events.
func decodeEvery(open func() (io.ReadCloser, error), fn func(events.Event) error) (int, error) {
	f, err := open()
	if err != nil {
		return 0, err
	}
	defer f.Close()
	batches := make(chan [][]byte, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	var mu sync.Mutex
	var first error
	var count int
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n := 0
			var werr error
			for b := range batches {
				for _, line := range b {
					if werr != nil {
						break
					}
					ev, err := events.Decode(line)
					if err == nil {
						err = fn(ev)
					}
					werr = err
					n++
				}
			}
			mu.Lock()
			defer mu.Unlock()
			count += n
			if first == nil {
				first = werr
			}
		}()
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), events.MaxSize+1)
	batch := make([][]byte, 0, decodeBatch)
	for sc.Scan() {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		batch = append(batch, bytes.Clone(b))
		if len(batch) == decodeBatch {
			batches <- batch
			batch = make([][]byte, 0, decodeBatch)
		}
	}
	if len(batch) > 0 {
		batches <- batch
	}
	close(batches)
	wg.Wait()
	if err := sc.Err(); err != nil {
		return count, err
	}
	return count, first
}

// decodeAndVerify is the v2 verification's raw side: decodeEvery, and the
// Ed25519 check (signed.Verify: the checks replay runs on each device's
// message) of every event that records a device's signed message, with
// its user's key. It returns the events decoded and the signatures
// checked.
func decodeAndVerify(open func() (io.ReadCloser, error), keys map[string]signed.PublicKey) (n, sigs int, err error) {
	var checked atomic.Int64
	n, err = decodeEvery(open, func(ev events.Event) error {
		data, err := ev.Payload()
		if err != nil {
			return err
		}
		var user, s, sig string
		switch d := data.(type) {
		case *events.SessionContributed:
			user, s, sig = d.User, d.Signed, d.Signature
		case *events.RollRequested:
			user, s, sig = d.User, d.Signed, d.Signature
		case *events.RollMade:
			user, s, sig = d.User, d.Signed, d.Signature
		}
		if s == "" {
			return nil
		}
		if err := signed.Verify(keys[user], s, sig); err != nil {
			return fmt.Errorf("event %s: %w", ev.ID, err)
		}
		checked.Add(1)
		return nil
	})
	return n, int(checked.Load()), err
}
