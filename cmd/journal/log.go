package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/projections"
)

func (a *app) logCommand() *cobra.Command {
	var session string
	var follow bool
	var atText string
	cmd := &cobra.Command{
		Use:   "log [--session S] [--follow] [--at SEQ|TIME]",
		Short: "The transcript: one line per event, in order (with --follow, live)",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			st, campaign, filter, err := a.campaignStore(c.Context())
			if err != nil {
				return err
			}
			upTo, err := a.resolveAt(c.Context(), atText)
			if err != nil {
				return err
			}
			tr := projections.NewTranscript(campaign, session)
			printed := 0
			out := bufio.NewWriter(a.stdout)
			defer out.Flush()
			fn := func(r events.Recorded) error {
				if err := tr.Apply(r); err != nil {
					return err
				}
				for ; printed < len(tr.Lines); printed++ {
					l := tr.Lines[printed]
					if a.jsonOut {
						b, _ := json.Marshal(l)
						fmt.Fprintln(out, string(b))
					} else {
						fmt.Fprintf(out, "%6d  %s  %s\n", l.Seq, l.Time.Format("2006-01-02 15:04:05"), l.Text)
					}
				}
				if follow {
					return out.Flush()
				}
				return nil
			}
			q := events.Query{Subject: filter, To: upTo, OnForeign: a.warnForeign()}
			if !follow {
				return st.Read(c.Context(), q, fn)
			}
			err = st.Follow(c.Context(), q, fn)
			if errors.Is(err, context.Canceled) {
				return nil
			}
			return err
		},
	}
	cmd.Flags().StringVar(&session, "session", "", "only this session's lines")
	cmd.Flags().BoolVar(&follow, "follow", false, "keep printing new events as they are recorded (Ctrl-C to stop)")
	cmd.Flags().StringVar(&atText, "at", "", "stop at this stream sequence, or at this time (RFC 3339 or \"YYYY-MM-DD HH:MM\"): the transcript up to that point")
	return cmd
}

func (a *app) exportCommand() *cobra.Command {
	var session string
	cmd := &cobra.Command{
		Use:   "export [--session S]",
		Short: "Export the campaign's events as JSON Lines, one CloudEvent per line",
		Long: `Export the campaign's events as JSON Lines, one CloudEvent per line, in
stream order: the input of 'journal replay --file'.

With --session S the export is the campaign as of the end of S: every event
up to S's session-ended event (or up to now while S is open), earlier
sessions included, nothing after. A session's sheets depend on everything
before it — the campaign, its weapons and skills, the characters, earlier
XP, skill raises, damage, healing, voids, and earlier rolls (a token spent,
a specialization used, shots fired) — so a session export is
self-sufficient: replay --file verifies it, every session in it, and
replay --file --session S checks S alone.`,
		Args: cobra.NoArgs,
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
			out := bufio.NewWriter(a.stdout)
			defer out.Flush()
			n := 0
			ended := false
			err = st.Read(c.Context(), events.Query{Subject: filter, OnForeign: a.warnForeign()}, func(r events.Recorded) error {
				if ended {
					return errExported
				}
				b, err := events.Encode(r.Event)
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
				return fmt.Errorf("campaign %s has no events", campaign)
			}
			return err
		},
	}
	cmd.Flags().StringVar(&session, "session", "", "the campaign up to this session's end (everything its sheets depend on)")
	return cmd
}

// errExported stops reading once a session export has its last event.
var errExported = errors.New("export complete")

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
		return fmt.Errorf("campaign %s has no session %s", campaign, session)
	}
	return nil
}
