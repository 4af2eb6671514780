package main

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/audit"
	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/demo"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/exitcode"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/recorder"
	"github.com/campaign-journal/journal/replay"
	"github.com/campaign-journal/journal/sheettext"
	"github.com/campaign-journal/journal/signed"
)

func (a *app) demoCommand() *cobra.Command {
	var system, diceFlag string
	cmd := &cobra.Command{
		Use:   "demo [--system ryf|galaxia|tor] [--dice v2|v1]",
		Short: "A sample session end to end, then its verification",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if !c.Flags().Changed("data") && os.Getenv("JOURNAL_DATA") == "" {
				dir, err := os.MkdirTemp("", "journal-demo-")
				if err != nil {
					return err
				}
				a.dataDir = dir
				a.closers = append(a.closers, func() { os.RemoveAll(dir) })
			}
			var v2 bool
			switch diceFlag {
			case command.DiceV1:
			case command.DiceV2:
				v2 = true
			default:
				return usagef("demo --dice %q: want v1 or v2", diceFlag)
			}
			switch system {
			case "ryf", "galaxia", command.SystemTOR:
				return a.demo(c.Context(), system, v2)
			}
			return msgerr.Errorf("demo --system %q: want ryf, galaxia or tor", system)
		},
	}
	cmd.Flags().StringVar(&system, "system", "ryf", "ryf, galaxia or tor")
	cmd.Flags().StringVar(&diceFlag, "dice", command.DiceV2, "v2 (journal-dice-v2, the default) or v1")
	return cmd
}

// demoSeeds, when set (by tests), is the source of the demo's session
// seeds, so that its dice, and so its story, are fixed. Nil in the program:
// the demo draws its seeds like every session, from crypto/rand.
var demoSeeds io.Reader

// demo plays the demo of system (package demo) on this app's store, with
// its device keys (v2) in a temporary configuration folder.
func (a *app) demo(ctx context.Context, system string, v2 bool) error {
	a.campaign = demo.Campaign(system)
	o := demo.Options{Host: demoHost{a}, System: system, V2: v2, Out: a.stdout, JSON: a.jsonOut,
		Lang: a.language(), DataDir: a.dataDir, Seeds: demoSeeds}
	if v2 {
		dir, err := os.MkdirTemp("", "journal-demo-keys-")
		if err != nil {
			return err
		}
		a.closers = append(a.closers, func() { os.RemoveAll(dir) })
		o.KeysDir = dir
	}
	err := demo.Play(ctx, o)
	if f, ok := errors.AsType[demo.Failed](err); ok {
		return exitcode.MismatchError{Message: f.Error()}
	}
	return err
}

// demoHost is what the demo needs of the app (demo.Host).
type demoHost struct{ a *app }

// Journal is a.journal's, with the seeds of demoSeeds when set.
func (h demoHost) Journal(ctx context.Context) (*command.Handler, error) {
	if demoSeeds == nil {
		return h.a.journal(ctx)
	}
	st, err := h.a.openStore(ctx, false, "")
	if err != nil {
		return nil, err
	}
	return command.New(st, command.Options{
		Clock: time.Now, Rand: demoSeeds, IDs: events.NewV7(time.Now, rand.Reader), Actor: os.Getenv("JOURNAL_ACTOR"),
	}), nil
}

func (h demoHost) Describe(before *projections.Campaign, recs []events.Recorded) []string {
	return recorder.Describe(h.a.language(), before, recs)
}

func (h demoHost) Seen(ctx context.Context, campaign string, seq uint64) (*signed.Seen, error) {
	return h.a.thisDevice().SeenAt(ctx, campaign, seq)
}

func (h demoHost) EndedHash(ctx context.Context, campaign, session string) (signed.Hex32, error) {
	return h.a.endedHash(ctx, campaign, session)
}

func (h demoHost) Verify(ctx context.Context, campaign string) (replay.Report, error) {
	filter, err := events.CampaignFilter(campaign)
	if err != nil {
		return replay.Report{}, err
	}
	src, _, err := audit.BoundSource(ctx, h.a.st, filter)
	if err != nil {
		return replay.Report{}, err
	}
	return replay.Verify(ctx, src, replay.Options{Campaign: campaign})
}

func (h demoHost) Sheets(w io.Writer, c *projections.Campaign) {
	l := h.a.language()
	if c.TOR != nil {
		for _, id := range c.TOR.Roster {
			sheettext.TORSheet(w, l, c, c.TOR.Characters[id])
			fmt.Fprintln(w)
		}
		return
	}
	for _, id := range c.Roster {
		sheettext.Sheet(w, l, c, c.Characters[id])
		fmt.Fprintln(w)
	}
}

func (h demoHost) Advancement(w io.Writer, c *projections.Campaign) {
	for _, id := range c.TOR.Roster {
		sheettext.Advancement(w, h.a.language(), c, sheettext.AdvancementOf(c.TOR, c.TOR.Characters[id]))
	}
}

func (h demoHost) Emit(v any) error { return h.a.emit(v, nil) }
