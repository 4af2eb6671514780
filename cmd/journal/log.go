package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/audit"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/device/client"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/logtext"
	"github.com/campaign-journal/journal/projections"
)

func (a *app) logCommand() *cobra.Command {
	var session string
	var follow bool
	var atText, keyName string
	var noWitness bool
	cmd := &cobra.Command{
		Use:   "log [--session S] [--follow] [--at SEQ|TIME]",
		Short: "The transcript: one line per event, in order (with --follow, live)",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			st, campaign, filter, err := a.campaignStore(c.Context())
			if err != nil {
				return err
			}
			// An unknown campaign is not found (exit 3), followed or not:
			// neither an empty transcript nor a silent wait.
			if _, empty, err := audit.BoundSource(c.Context(), st, filter); err != nil {
				return err
			} else if empty {
				return a.noCampaign(c.Context(), campaign, 0)
			}
			upTo, err := a.resolveAt(c.Context(), atText)
			if err != nil {
				return err
			}
			lang := a.language()
			voids, err := logtext.ReadVoids(c.Context(), st, filter, upTo)
			if err != nil {
				return err
			}
			tr := projections.NewTranscript(campaign, session)
			tr.Lang = lang
			printed := 0
			out := bufio.NewWriter(a.stdout)
			defer out.Flush()
			// A player's device that follows witnesses the GM's v2 rolls
			// (v2_witness.go), from the end of what it has read on.
			var fw *client.Follow
			if follow && !noWitness {
				fw = a.newFollowWitness(c, keyName)
			}
			fw.Pending()
			// What a read of the campaign cannot see by itself: messages
			// the stream lost, and where the chain breaks (package audit).
			lost, err := audit.Lost(c.Context(), st, filter)
			if err != nil {
				return err
			}
			chain := &audit.ChainWarnings{Warn: a.warnf}
			fn := func(r events.Recorded) error {
				defer fw.Event(r)
				lost.Saw(r.Seq)
				chain.Event(r)
				if r.Event.Type == events.TypeEventVoided {
					voids.Add(r)
				}
				if err := tr.Apply(r); err != nil {
					return err
				}
				for ; printed < len(tr.Lines); printed++ {
					logtext.WriteLine(out, tr.Lines[printed], voids, a.jsonOut, lang)
				}
				if follow {
					return out.Flush()
				}
				return nil
			}
			warn := a.warnForeign()
			q := events.Query{Subject: filter, To: upTo, OnForeign: func(f events.Foreign) error {
				lost.Saw(f.Seq)
				return warn(f)
			}}
			if !follow {
				if err := st.Read(c.Context(), q, fn); err != nil {
					return err
				}
				if al := a.checkCampaignReceipts(c.Context(), campaign); len(al) > 0 && a.jsonOut {
					b, _ := json.Marshal(map[string]any{"receipts": client.NewReceiptsReport(0, al)})
					fmt.Fprintln(out, string(b))
				}
				out.Flush()
				a.announceDevices(tr.Campaign) // key_devices.go
				lost.Report(a.stderr, a.language(), upTo == 0 || lost.Counts() && upTo >= lost.Last())
				return nil
			}
			lost.Report(a.stderr, a.language(), false)
			_, _ = a.load(c, 0) // announces the devices added to the user's name (key_devices.go)
			err = st.Follow(c.Context(), q, fn)
			if errors.Is(err, context.Canceled) {
				return nil
			}
			return err
		},
	}
	cmd.Flags().StringVar(&session, "session", "", "only this session's lines")
	cmd.Flags().BoolVar(&follow, "follow", false, "keep printing new events as they are recorded (Ctrl-C to stop)")
	cmd.Flags().BoolVar(&noWitness, "no-witness", false, "with --follow: do not witness the GM's journal-dice-v2 rolls with your device key")
	cmd.Flags().StringVar(&keyName, "name", device.DefaultName, "with --follow: the device key that witnesses the GM's rolls")
	cmd.Flags().StringVar(&atText, "at", "", "stop at this stream sequence, or at this time (RFC 3339 or \"YYYY-MM-DD HH:MM\"): the transcript up to that point")
	return cmd
}

func (a *app) exportCommand() *cobra.Command {
	var session string
	cmd := &cobra.Command{
		Use:   "export [--session S]",
		Short: "Export the campaign's events as JSON Lines, one CloudEvent per line",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			st, campaign, filter, err := a.campaignStore(c.Context())
			if err != nil {
				return err
			}
			if session != "" {
				if err := logtext.HasSession(c.Context(), st, filter, campaign, session); err != nil {
					return err
				}
			}
			out := bufio.NewWriter(a.stdout)
			defer out.Flush()
			n, err := logtext.Export(c.Context(), st, events.Query{Subject: filter, OnForeign: a.warnForeign()}, session, out)
			if err == nil && n == 0 {
				return a.noCampaign(c.Context(), campaign, 0)
			}
			return err
		},
	}
	cmd.Flags().StringVar(&session, "session", "", "the campaign up to this session's end (everything its sheets depend on)")
	return cmd
}

// storedBytes gives an event's stored bytes (logtext.Stored), for v2_cosign.go.
func (a *app) storedBytes(context.Context) (func(events.Recorded) ([]byte, error), error) {
	return logtext.Stored, nil
}
