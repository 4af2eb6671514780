package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/device/client"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/exportfile"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/replay"
	repro "github.com/campaign-journal/journal/reproduce"
	"github.com/campaign-journal/journal/textout"
)

// replayCommands are the audit commands: replay (verify or reproduce),
// explain and stats.
func (a *app) replayCommands() []*cobra.Command {
	return []*cobra.Command{a.replayCommand(), a.explainCommand(), a.statsCommand()}
}

func (a *app) replayCommand() *cobra.Command {
	var (
		session, file string
		receiptsDir   string
		seeds, proofs []string
		reproduce     bool
		maxMismatches int
	)
	cmd := &cobra.Command{
		Use:   "replay [--session S] [--file F] [--seed HEX | --seed SESSION=HEX ...] [--proof FILE ...] [--reproduce]",
		Short: "Verify every roll from the seeds (or reproduce a session); exit 4 on any mismatch, 5 on flags",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			ctx := c.Context()
			passes := 2
			if reproduce {
				passes = 1
			}
			var kept []device.Receipt
			if receiptsDir != "" {
				var err error
				if kept, err = device.ReadReceiptDir(receiptsDir); err != nil {
					return usagef("--receipts %s: %v", receiptsDir, err)
				}
				passes++ // one more read: the record against the receipts
			}
			// From the stream, what a read cannot see: messages the
			// stream lost (missing.go), asked before the read is bound.
			var lost *losses
			if file == "" {
				var err error
				if lost, err = a.streamLosses(ctx); err != nil {
					return err
				}
			}
			src, done, err := a.auditSource(ctx, file, passes)
			if err != nil {
				return err
			}
			defer done()
			src = lost.source(src)
			given, err := a.seedOptions(ctx, warned(src, a.warnForeign()), seeds, session)
			if err != nil {
				return err
			}
			opts := replay.Options{Seeds: given, Campaign: a.campaign, Session: session, MaxMismatches: maxMismatches, Lang: a.language()}
			if opts.Proofs, err = client.ReadProofs(proofs); err != nil {
				return err
			}
			if reproduce {
				rep, err := repro.Run(ctx, warned(src, a.warnForeign()), opts)
				done()
				if errors.Is(err, replay.ErrNotFound) && session != "" {
					return msgerr.Errorf("no session %s in %s", clip.Text(session), a.where(file))
				}
				if err != nil {
					return a.sourceError(err, file)
				}
				if rep.Totals.Events == 0 {
					return a.noEvents(c.Context(), file)
				}
				if err := a.emit(rep, func(w io.Writer) { _ = rep.WriteTextIn(w, a.language()) }); err != nil {
					return err
				}
				if !rep.OK() {
					// Errors are written in English; reportError renders them in
					// the output's language (the err.… keys are in its catalogue).
					return exitError{code: 1, msg: i18n.EN.N("err.reproduction_differs", rep.Totals.Mismatches)}
				}
				return nil
			}
			rep, err := replay.Verify(ctx, src, opts)
			done()
			if err != nil {
				return a.sourceError(err, file)
			}
			if rep.Totals.Events == 0 {
				return a.noEvents(c.Context(), file)
			}
			if session != "" && len(rep.Sessions) == 0 {
				return msgerr.Errorf("no session %s in %s", clip.Text(session), a.where(file))
			}
			var rc *receiptsReport
			if receiptsDir != "" {
				if rc, err = a.receiptsAgainst(ctx, src, kept, file != ""); err != nil {
					return a.sourceError(err, file)
				}
			} else if file == "" && a.campaign != "" {
				// The device's own receipts: warned about on stderr, and
				// in --json when they alarm.
				if al := a.checkCampaignReceipts(ctx, a.campaign); len(al) > 0 {
					rc = newReceiptsReport(0, al)
				}
			}
			if err := a.emit(replayWithReceipts{&rep, rc}, func(w io.Writer) {
				_ = rep.WriteTextIn(w, a.language())
				rc.writeText(w, a)
			}); err != nil {
				return err
			}
			if err := a.proofResults(rep); err != nil { // v2_prove.go
				return err
			}
			if n := lost.report(a, true); n > 0 {
				// The events read may all verify: the record is still not whole.
				return exitError{code: 1, msg: fmt.Sprintf("messages lost from the stream: %d; the journal's record is not whole (restore it from a backup)", n)}
			}
			if receiptsDir != "" && len(rc.Alarms) > 0 && rep.OK() {
				return exitError{code: 1, msg: fmt.Sprintf("the record does not hold what this device signed: %s", rc.Alarms[0].Text)}
			}
			if !rep.OK() {
				// Errors are written in English; reportError renders them in
				// the output's language (the err.… keys are in its catalogue).
				return exitError{code: 1, msg: rep.Failure()}
			}
			if n := rep.Flagged(); n > 0 {
				// Errors are English, as every error of the journal.
				return msgerr.Errorf("%w: %s, no mismatch", ErrFlagged, strings.TrimPrefix(i18n.EN.N("rp2.ok_flagged", n), "OK with "))
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&session, "session", "", "only this session (the rest of its campaign is still folded)")
	f.StringVar(&file, "file", "", "read an export (JSON Lines) instead of the journal: needs no server")
	f.StringVar(&receiptsDir, "receipts", "", "a folder of a device's receipts (*.jsonl, as the CLI keeps them or the table page downloads them): the record must extend every head they signed and hold their messages verbatim")
	f.StringArrayVar(&seeds, "seed", nil, "a seed not yet revealed, 64 hex digits: HEX (for --session, or the one session not yet revealed) or SESSION=HEX; repeatable")
	f.StringArrayVar(&proofs, "proof", nil, "a proof file of a suppressed roll ('journal roll prove --out') to check against the record; repeatable")
	f.BoolVar(&reproduce, "reproduce", false, "re-run the recorded commands with the seeds into a fresh in-memory journal and compare")
	f.IntVar(&maxMismatches, "max-mismatches", 0, fmt.Sprintf("list at most this many mismatches per session (default %d); the rest are counted", replay.DefaultMaxMismatches))
	return cmd
}

// auditSource is where an audit reads its events: the export file, or the
// journal (the campaign given, or every campaign), bound to the stream's
// last sequence so that every pass reads the same events. done clears any
// progress line; it may be called more than once.
func (a *app) auditSource(ctx context.Context, file string, passes int) (replay.Source, func(), error) {
	if file != "" {
		return a.fileSource(file, passes)
	}
	st, err := a.openStore(ctx, false, "")
	if err != nil {
		return nil, nil, err
	}
	filter := events.AllFilter
	if a.campaign != "" {
		if filter, err = events.CampaignFilter(a.campaign); err != nil {
			return nil, nil, err
		}
	}
	src, empty, err := boundSource(ctx, st, filter)
	if err != nil {
		return nil, nil, err
	}
	if empty {
		return nil, nil, a.noEvents(ctx, "")
	}
	return src, func() {}, nil
}

// streamLosses is what the streams of the audit's filter (the campaign
// given, or the whole journal) say they lost.
func (a *app) streamLosses(ctx context.Context) (*losses, error) {
	st, err := a.openStore(ctx, false, "")
	if err != nil {
		return nil, err
	}
	filter := events.AllFilter
	if a.campaign != "" {
		if filter, err = events.CampaignFilter(a.campaign); err != nil {
			return nil, err
		}
	}
	return a.losses(ctx, st, filter)
}

// boundSource reads the store's events on filter up to the last sequence
// there now, so that every pass of an audit reads the same events while
// others go on writing. empty says that there are none. Each event comes
// with its stored bytes, and a message that is not an event in its place
// (replay.StoreSource): a pass of Verify lists it; give the source to any
// other reader through warned.
func boundSource(ctx context.Context, st store, filter string) (src replay.Source, empty bool, err error) {
	to := uint64(0)
	if l, ok := st.(interface {
		Last(ctx context.Context, filter string) (uint64, error)
	}); ok {
		if to, err = l.Last(ctx, filter); err != nil {
			return nil, false, err
		}
		empty = to == 0
	}
	return replay.StoreSource(st.Read, events.Query{Subject: filter, To: to}), empty, nil
}

// warned is src for a reader other than Verify, which skips a message of
// the stream that is not an event: warn is told of each.
func warned(src replay.Source, warn func(events.Foreign) error) replay.Source {
	return func(ctx context.Context, fn func(replay.Input) error) error {
		return src(ctx, func(in replay.Input) error {
			if f := in.Foreign; f != nil && f.Line == 0 {
				if err := warn(events.Foreign{Seq: f.Seq, Subject: f.Subject, Err: msgerr.New(f.Reason)}); err != nil {
					return err
				}
			}
			return fn(in)
		})
	}
}

// fileSource reads an export (package exportfile), with a progress line
// on a terminal; a copy of a FIFO or a pipe is removed when the command ends.
func (a *app) fileSource(path string, passes int) (replay.Source, func(), error) {
	o := exportfile.Options{Passes: passes, Spooled: func(name string) {
		a.closers = append(a.closers, func() { _ = os.Remove(name) })
	}}
	if isTerminal(a.stderr) {
		o.Progress = a.stderr
	}
	return exportfile.Source(path, o)
}

// where names the input for messages.
func (a *app) where(file string) string {
	switch {
	case file != "":
		return file
	case a.campaign != "":
		return "campaign " + a.campaign
	}
	return "the journal"
}

func (a *app) noEvents(ctx context.Context, file string) error {
	if file == "" && a.campaign != "" {
		return a.noCampaign(ctx, a.campaign, 0)
	}
	if file != "" && a.campaign != "" {
		return msgerr.Errorf("%s has no events of campaign %s", file, a.campaign)
	}
	return msgerr.Errorf("%s has no events", a.where(file))
}

// sourceError names the export in a read error.
func (a *app) sourceError(err error, file string) error {
	if file != "" && errors.Is(err, replay.ErrMalformed) {
		return msgerr.Errorf("%s: %w", file, err)
	}
	return err
}

// seedOptions reads --seed values for a verification; a bare HEX without
// --session goes to the one session of the input not yet revealed.
func (a *app) seedOptions(ctx context.Context, src replay.Source, vals []string, session string) (map[string]string, error) {
	seeds, bare, err := replay.ParseSeeds(vals, session)
	if err != nil || bare == "" {
		return seeds, err
	}
	open, err := replay.Unrevealed(ctx, src, a.campaign)
	if err != nil {
		return nil, err
	}
	if len(open) != 1 {
		return nil, msgerr.Errorf("--seed HEX: %d sessions are not yet revealed (%s): name one with --session S or --seed SESSION=HEX",
			len(open), strings.Join(open, ", "))
	}
	seeds[open[0]] = bare
	return seeds, nil
}

// resolveAt reads an --at value: a stream sequence, or a time — RFC 3339,
// or "YYYY-MM-DD HH:MM[:SS]" in local time — resolved to the campaign's last
// sequence at or before it (the events in stream order up to the first one
// recorded after that time). "" is now (0).
func (a *app) resolveAt(ctx context.Context, text string) (uint64, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return 0, nil
	}
	if n, err := strconv.ParseUint(text, 10, 64); err == nil {
		return n, nil
	}
	at, until, err := parseTime(text)
	if err != nil {
		return 0, err
	}
	st, campaign, filter, err := a.campaignStore(ctx)
	if err != nil {
		return 0, err
	}
	var seq uint64
	errAfter := msgerr.New("after")
	err = st.Read(ctx, events.Query{Subject: filter}, func(r events.Recorded) error {
		if !r.Event.Time.Before(until) {
			return errAfter
		}
		seq = r.Seq
		return nil
	})
	if err != nil && !errors.Is(err, errAfter) {
		return 0, err
	}
	if seq == 0 {
		return 0, msgerr.Errorf("--at %s: campaign %s has no events at or before %s", text, campaign, at.Format(time.RFC3339))
	}
	return seq, nil
}

// parseTime reads the time forms --at takes: the time written, and the end
// of what it names, exclusive. Events have sub-second times: a time given
// to the second names the whole second (18:56:50 takes every event up to
// 18:56:50.999…), to the minute the whole minute; a time with a fraction
// is exact, to the nanosecond (a program's RFC3339Nano, which drops
// trailing zeros, so its digits say nothing of a precision).
func parseTime(text string) (at, until time.Time, err error) {
	if t, err := time.Parse(time.RFC3339Nano, text); err == nil {
		step := time.Second
		if strings.IndexByte(text, '.') >= 0 {
			step = time.Nanosecond
		}
		return t, t.Add(step), nil
	}
	for _, f := range []struct {
		layout string
		step   time.Duration
	}{
		{"2006-01-02 15:04", time.Minute}, {"2006-01-02 15:04:05", time.Second},
		{"2006-01-02T15:04", time.Minute}, {"2006-01-02T15:04:05", time.Second},
	} {
		if t, err := time.ParseInLocation(f.layout, text, time.Local); err == nil {
			return t, t.Add(f.step), nil
		}
	}
	return time.Time{}, time.Time{}, msgerr.Errorf("--at %q: want a stream sequence or a time: RFC 3339 (2026-11-30T20:15:00Z) or \"YYYY-MM-DD HH:MM\"", clip.Text(text))
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool { return textout.IsTerminal(w) }
