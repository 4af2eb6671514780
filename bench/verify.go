package bench

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/memstore"
	"github.com/campaign-journal/journal/replay"
)

// verification measures replay.Verify on an exported session against
// merely decoding the export (decodeEvery: events.Decode of every line on
// GOMAXPROCS goroutines, as Verify decodes it).
func (e *env) verification(ctx context.Context) (Pair, error) {
	var p Pair
	o := e.o
	path := filepath.Join(e.dir, "export.jsonl")
	o.progress(StageVerify, "setup", 0, o.VerifyRolls)
	nEvents, size, err := writeExport(ctx, path, o)
	if err != nil {
		return p, err
	}
	open := func() (io.ReadCloser, error) { return os.Open(path) }
	p.Journal.What = fmt.Sprintf("rolls verified from an export of %d events (replay.Verify: seeds, faces re-derived, rules, nonces, projections)", nEvents)
	p.Raw.What = fmt.Sprintf("rolls of the same export merely decoded (events.Decode of every line, on %d goroutines)", runtime.GOMAXPROCS(0))
	p.Journal.MessageBytes, p.Raw.MessageBytes = size, size
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
			return p, fmt.Errorf("verification found %d mismatches and verified %d rolls of %d", rep.Totals.Mismatches, rep.Totals.Verified, o.VerifyRolls)
		}
		o.progress(StageVerify, "journal", o.VerifyRolls, o.VerifyRolls)

		err = e.measureRaw(&p, o.VerifyRolls, func() error {
			n, err := decodeEvery(open, func(events.Event) error { return nil })
			if err != nil {
				return err
			}
			if n != nEvents {
				return fmt.Errorf("decoded %d events of %d", n, nEvents)
			}
			return nil
		})
		if err != nil {
			return p, err
		}
		o.progress(StageVerify, "raw", o.VerifyRolls, o.VerifyRolls)
	}
	return p, nil
}

// writeExport records a session of o.VerifyRolls roll commands (skill and
// attribute rolls of four characters) in an in-memory journal, ends it,
// and exports it as `journal export` does. It returns the number of events
// and their average size.
func writeExport(ctx context.Context, path string, o Options) (nEvents, size int, err error) {
	st := memstore.New(memstore.Options{})
	j := newJournal(st)
	const camp = "verify"
	chars := []string{"lodin", "ruisenor", "aldric", "mira"}
	if err := setupCampaign(ctx, j, camp, chars); err != nil {
		return 0, 0, err
	}
	for i := range o.VerifyRolls {
		req := command.RollRequest{Character: chars[i%len(chars)], Skill: benchSkill, Vs: benchVs}
		if i%3 == 1 {
			req = command.RollRequest{Character: chars[i%len(chars)], Attribute: "P", Vs: "20"}
		}
		if i%5 == 2 {
			req.Entropy = fmt.Sprintf("player words %d", i)
		}
		if _, err := j.Roll(ctx, camp, req); err != nil {
			return 0, 0, err
		}
		if i%512 == 0 {
			o.progress(StageVerify, "setup", i, o.VerifyRolls)
		}
	}
	if _, err := j.EndSession(ctx, camp); err != nil {
		return 0, 0, err
	}
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
		return replay.WriteJSONL(w, r.Event)
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
