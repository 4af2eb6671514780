package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/audit"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/device/client"
	"github.com/campaign-journal/journal/replay"
	repro "github.com/campaign-journal/journal/reproduce"
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
			// stream lost (package audit), asked before the read is bound.
			var lost *audit.Losses
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
			src = lost.Source(src)
			given, err := audit.Seeds(ctx, audit.Warned(src, a.warnForeign()), seeds, session, a.campaign)
			if err != nil {
				return err
			}
			opts := replay.Options{Seeds: given, Campaign: a.campaign, Session: session, MaxMismatches: maxMismatches, Lang: a.language()}
			if opts.Proofs, err = client.ReadProofs(proofs); err != nil {
				return err
			}
			if reproduce {
				rep, err := repro.Run(ctx, audit.Warned(src, a.warnForeign()), opts)
				done()
				if errors.Is(err, replay.ErrNotFound) && session != "" {
					return audit.NoSession(session, audit.Where(file, a.campaign))
				}
				if err != nil {
					return audit.SourceError(err, file)
				}
				if rep.Totals.Events == 0 {
					return a.noEvents(c.Context(), file)
				}
				if err := a.emit(rep, func(w io.Writer) { _ = rep.WriteTextIn(w, a.language()) }); err != nil {
					return err
				}
				return audit.Reproduced(rep)
			}
			rep, err := replay.Verify(ctx, src, opts)
			done()
			if err != nil {
				return audit.SourceError(err, file)
			}
			if rep.Totals.Events == 0 {
				return a.noEvents(c.Context(), file)
			}
			if session != "" && len(rep.Sessions) == 0 {
				return audit.NoSession(session, audit.Where(file, a.campaign))
			}
			var rc *client.ReceiptsReport
			var unheld []device.Alarm // the alarms of --receipts: the verdict's
			if receiptsDir != "" {
				if rc, err = client.ReceiptsAgainst(ctx, src, kept, a.campaign, file != ""); err != nil {
					return audit.SourceError(err, file)
				}
				unheld = rc.Alarms
			} else if file == "" && a.campaign != "" {
				// The device's own receipts: warned about on stderr, and
				// in --json when they alarm.
				if al := a.checkCampaignReceipts(ctx, a.campaign); len(al) > 0 {
					rc = client.NewReceiptsReport(0, al)
				}
			}
			if err := a.emit(replayWithReceipts{&rep, rc}, func(w io.Writer) {
				_ = rep.WriteTextIn(w, a.language())
				rc.WriteText(w, a.language())
			}); err != nil {
				return err
			}
			if err := a.proofResults(rep); err != nil { // v2_prove.go
				return err
			}
			return audit.Verdict(rep, lost.Report(a.stderr, a.language(), true), unheld)
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
		// A copy of a FIFO or a pipe is removed when the command ends.
		return audit.FileSource(file, passes, a.stderr, func(f func()) { a.closers = append(a.closers, f) })
	}
	st, err := a.openStore(ctx, false, "")
	if err != nil {
		return nil, nil, err
	}
	filter, err := audit.Filter(a.campaign)
	if err != nil {
		return nil, nil, err
	}
	src, empty, err := audit.BoundSource(ctx, st, filter)
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
func (a *app) streamLosses(ctx context.Context) (*audit.Losses, error) {
	st, err := a.openStore(ctx, false, "")
	if err != nil {
		return nil, err
	}
	filter, err := audit.Filter(a.campaign)
	if err != nil {
		return nil, err
	}
	return audit.Lost(ctx, st, filter)
}

// noEvents is the error of an audit that read no events: a campaign of
// the journal with none may not exist (noCampaign).
func (a *app) noEvents(ctx context.Context, file string) error {
	if file == "" && a.campaign != "" {
		return a.noCampaign(ctx, a.campaign, 0)
	}
	return audit.NoEvents(file, a.campaign)
}

// resolveAt reads an --at value against the campaign (audit.ResolveAt).
func (a *app) resolveAt(ctx context.Context, text string) (uint64, error) {
	return audit.ResolveAt(ctx, text, func(ctx context.Context) (audit.Store, string, string, error) {
		return a.campaignStore(ctx)
	})
}
