package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/device/client"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/replay/audit"
	"github.com/campaign-journal/journal/sheettext"
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
			voids, err := readVoids(c.Context(), st, filter, upTo)
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
			// the stream lost, and where the chain breaks (package replay/audit).
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
					l := logLine{Line: tr.Lines[printed]}
					l.ShortID = shortID(l.EventID)
					l.VoidedBy = voids[l.EventID]
					if a.jsonOut {
						b, _ := json.Marshal(l)
						fmt.Fprintln(out, string(b))
					} else {
						fmt.Fprintln(out, logText(l, lang))
					}
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
				if err := hasSession(c.Context(), st, filter, campaign, session); err != nil {
					return err
				}
			}
			stored, err := a.storedBytes(c.Context())
			if err != nil {
				return err
			}
			out := bufio.NewWriter(a.stdout)
			defer out.Flush()
			n := 0
			ended := false
			err = st.Read(c.Context(), events.Query{Subject: filter, OnForeign: a.warnForeign()}, func(r events.Recorded) error {
				if ended {
					return errExported
				}
				b, err := stored(r) // verbatim: the bytes the chain hashes
				if err != nil {
					return err
				}
				n++
				out.Write(b)
				ended = session != "" && r.Event.Session == session && r.Event.Type == events.TypeSessionEnded
				return out.WriteByte('\n')
			})
			if errors.Is(err, errExported) {
				err = nil
			}
			if err == nil && n == 0 {
				return a.noCampaign(c.Context(), campaign, 0)
			}
			return err
		},
	}
	cmd.Flags().StringVar(&session, "session", "", "the campaign up to this session's end (everything its sheets depend on)")
	return cmd
}

// errExported stops reading once a session export has its last event.
var errExported = msgerr.New("export complete")

// hasSession refuses a session the campaign never started.
func hasSession(ctx context.Context, st store, filter, campaign, session string) error {
	found := false
	err := st.Read(ctx, events.Query{Subject: filter, Types: []string{events.TypeSessionStarted}}, func(r events.Recorded) error {
		if r.Event.Session == session {
			found = true
			return errExported
		}
		return nil
	})
	if err != nil && !errors.Is(err, errExported) {
		return err
	}
	if !found {
		return msgerr.Errorf("campaign %s has no session %s", campaign, clip.Text(session))
	}
	return nil
}

// logLine is one line of journal log (projections.LogLine).
type logLine = projections.LogLine

// text is the line for people: sequence, short id, local time with its
// zone, the transcript text and, for a voided event, the mark.
func logText(l logLine, lang i18n.Lang) string {
	line := fmt.Sprintf("%6d  %s  %s  %s", l.Seq, l.ShortID, sheettext.LocalTime(l.Time), l.Text)
	if v := l.VoidedBy; v != nil {
		line += "  " + lang.T("log.voided_by", v.Seq, shortID(v.EventID), v.Reason)
	}
	return line
}

// shortID is the last 8 hex digits of an event id (projections.ShortID).
func shortID(id string) string { return projections.ShortID(id) }

// voids maps the id of every voided event to its void.
type voids = projections.Voids

// readVoids reads the voids recorded on filter up to upTo (0: now).
func readVoids(ctx context.Context, st store, filter string, upTo uint64) (voids, error) {
	v := voids{}
	err := st.Read(ctx, events.Query{Subject: filter, To: upTo, Types: []string{events.TypeEventVoided}}, func(r events.Recorded) error {
		v.Add(r)
		return nil
	})
	return v, err
}
