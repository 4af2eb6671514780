package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/command/catalog"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/recorder"
	"github.com/campaign-journal/journal/rules/names"
	"github.com/campaign-journal/journal/sheettext"
)

// report prints what a command recorded: one transcript line per event,
// with its event id; or the events as JSON (recorder.Document).
func (a *app) report(res command.Result, before *projections.Campaign) error {
	lines := recorder.Describe(a.language(), before, res.Events)
	if a.jsonOut {
		return a.emit(recorder.Document(res, lines), nil)
	}
	recorder.Text(a.stdout, a.language(), res, lines)
	a.reportSecrets(res, before) // free.go
	return nil
}

// record wraps a command handler that is not a catalogued command (see
// RunSpec for those): open the journal, fold the state before the
// command (to describe what it recorded), run it, report. Over the
// journal's NATS command service (remote.go) it records nothing: the
// store refuses.
func (a *app) record(c *cobra.Command, do func(j *command.Handler, campaign string) (command.Result, error)) error {
	return a.recordWith(c, func(ctx context.Context, j *command.Handler, call command.Call, campaign string) (command.Result, error) {
		call.What, call.Args = cliCommand(c)
		call.Command = catalogName(c)
		rj, err := j.For(call)
		if err != nil {
			return command.Result{}, err
		}
		return do(rj, campaign)
	})
}

// RunSpec runs the catalogued command name (command/catalog; for the
// generated commands, cobraspec.Runner) in the
// campaign of -c with its JSON body (marshalled unless it is already
// []byte): the one path of every command the catalogue has, so that the
// CLI, HTTP and NATS decode the same body strictly and check the same
// required fields. Locally it runs catalog.Spec.Run on the journal;
// over the journal's NATS command service (remote.go) it sends the body
// to journalcmd.<user>.<campaign>.<name> with the same request id. Either
// way a retry after an unknown outcome sends the same request id, and
// the report is the same.
func (a *app) RunSpec(c *cobra.Command, name string, body any) error {
	return a.runSpecWith(c, name, func(*command.Handler, string) (any, error) { return body, nil })
}

// runSpecWith is RunSpec with a body that needs the journal and the
// campaign to be built (a short id resolved, for one).
func (a *app) runSpecWith(c *cobra.Command, name string, body func(j *command.Handler, campaign string) (any, error)) error {
	var data []byte
	return a.recordWith(c, func(ctx context.Context, j *command.Handler, call command.Call, campaign string) (command.Result, error) {
		if data == nil { // built once: each attempt sends the same body
			v, err := body(j, campaign)
			if err != nil {
				return command.Result{}, err
			}
			if data, err = recorder.BodyJSON(v); err != nil {
				return command.Result{}, err
			}
		}
		call.What, call.Args = cliCommand(c)
		return a.specRun(ctx, j, call, campaign, name, data)
	})
}

// specRun runs the catalogued command name once for call (its actor and
// request id): locally on j's view for call, which names the command line
// a retry must be (catalog.Spec.Run), or over the command service (where
// a retry must be the same body).
func (a *app) specRun(ctx context.Context, j *command.Handler, call command.Call, campaign, name string, body []byte) (command.Result, error) {
	if a.service != nil {
		res, err := a.service.run(ctx, campaign, name, call.RequestID, body) // remote.go
		if err == nil {
			a.fold.Moved()
		}
		return res, err
	}
	spec, ok := catalog.Lookup(name)
	if !ok {
		return command.Result{}, msgerr.Errorf("no catalogued command %q", name) // a bug of the CLI
	}
	res, err := spec.Run(ctx, j, call, campaign, body)
	if err == nil {
		a.fold.Moved()
	}
	return res, err
}

// body is a catalogued command's JSON body, member by member (the
// catalogue decodes it strictly: a misspelt member is refused).
type body map[string]any

// recordWith opens the journal, runs do for the call of the CLI's actor
// under the invocation's request id (--request-id, else a fresh one),
// again with the same id while the outcome is unknown, and reports what
// it recorded described on the state before it.
func (a *app) recordWith(c *cobra.Command, do func(ctx context.Context, j *command.Handler, call command.Call, campaign string) (command.Result, error)) error {
	ctx := c.Context()
	campaign, err := a.campaignID()
	if err != nil {
		return err
	}
	if _, err := a.actingUser(); err != nil { // identity.go: no default user
		return err
	}
	j, err := a.journal(ctx)
	if err != nil {
		return err
	}
	// The one fold of the campaign: the command decides on it (the
	// journal's cache), and its report describes on it
	// (recorder.Fold.StateBefore). A campaign the fold refuses (an id it
	// cannot name) is the command's to refuse, in its own words.
	if _, err := a.fold.Current(ctx, j, campaign, a.readOnly); err != nil && ctx.Err() != nil {
		return err
	}
	request, err := recorder.RequestID(a.requestID)
	if err != nil {
		return err
	}
	call := command.Call{Actor: j.Actor(), RequestID: request}
	if err := call.Valid(); err != nil {
		return msgerr.Errorf("--request-id: %w", err)
	}
	res, attempt, err := recorder.Retry(ctx, recorder.Attempts, request, a.warnf, func() (command.Result, error) {
		return do(ctx, j, call, campaign)
	})
	if err != nil {
		return err
	}
	res.Repeated = res.Repeated && attempt == 1 // else its own first attempt's, recorded by this command
	a.recorded = res
	a.fold.Moved()
	return a.reportOn(ctx, j, campaign, res)
}

// reportOn reports res, described on the state before its first event
// (recorder.Fold.StateBefore), then tells the user of the devices added
// to its name (key_devices.go) from the state so described: the state
// after the command, with no load of the campaign for either.
func (a *app) reportOn(ctx context.Context, j *command.Handler, campaign string, res command.Result) error {
	before := a.fold.StateBefore(ctx, j, a.st, campaign, res.Events)
	err := a.report(res, before) // recorder.Describe folds res's events into before
	if !a.announced && before.System != "" {
		a.announceDevices(before)
	}
	return err
}

// cliCommand names the command c runs, for its request id: its words,
// its arguments and the flags of its own that were set (not the global
// ones, such as --json, that do not change what it records).
func cliCommand(c *cobra.Command) (string, any) {
	flags := map[string]string{}
	c.NonInheritedFlags().Visit(func(f *pflag.Flag) { flags[f.Name] = f.Value.String() })
	return c.CommandPath(), struct {
		Args  []string          `json:"args"`
		Flags map[string]string `json:"flags"`
	}{c.Flags().Args(), flags}
}

// campaignStore opens the store and returns the campaign of -c and the
// subject filter of its events.
func (a *app) campaignStore(ctx context.Context) (st store, campaign, filter string, err error) {
	if campaign, err = a.campaignID(); err != nil {
		return nil, "", "", err
	}
	if filter, err = events.CampaignFilter(campaign); err != nil {
		return nil, "", "", err
	}
	if st, err = a.openStore(ctx, false, ""); err != nil {
		return nil, "", "", err
	}
	return st, campaign, filter, nil
}

func (a *app) campaignID() (string, error) {
	if a.campaign == "" {
		return "", usagef("no campaign: pass -c/--campaign ID or set $JOURNAL_CAMPAIGN")
	}
	return a.campaign, nil
}

func (a *app) campaignCommand() *cobra.Command {
	cmd := &cobra.Command{Use: "campaign", Short: "Create and show campaigns"}
	show := &cobra.Command{
		Use:   "show",
		Short: "Show the campaign: rules, characters, sessions, combat",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			camp, err := a.load(c, 0)
			if err != nil {
				return err
			}
			return a.emit(camp, func(w io.Writer) { sheettext.Campaign(w, a.language(), camp) })
		},
	}
	cmd.AddCommand(a.specCommand("campaign-create"), show, a.campaignListCommand())
	return cmd
}

// load folds the campaign as of sequence at (0: now).
func (a *app) load(c *cobra.Command, at uint64) (*projections.Campaign, error) {
	campaign, err := a.campaignID()
	if err != nil {
		return nil, err
	}
	j, err := a.journal(c.Context())
	if err != nil {
		return nil, err
	}
	var camp *projections.Campaign
	if at == 0 {
		camp, err = a.fold.Current(c.Context(), j, campaign, a.readOnly) // the invocation's one fold
	} else {
		camp, err = j.Load(c.Context(), campaign, at)
	}
	if err != nil {
		return nil, err
	}
	if camp.System == "" {
		return nil, a.noCampaign(c.Context(), campaign, at)
	}
	a.announceDevices(camp) // key_devices.go
	a.checkReceipts(c.Context(), camp)
	return camp, nil
}

// noCampaign is the error for a campaign the journal does not have: it
// names the journal read and the campaigns it has.
func (a *app) noCampaign(ctx context.Context, campaign string, at uint64) error {
	ids, _ := a.campaignNames(ctx)
	hint := msgerr.New("it has no campaign yet: create one with 'journal campaign create ID --system ryf|galaxia|tor'")
	if len(ids) > 0 {
		hint = names.Hint(campaign, ids)
	}
	return msgerr.Errorf("%w: campaign %s does not exist%s in %s: %v", events.ErrNotFound, campaign, atSuffix(at), a.journalPlace(), hint)
}

// noCharacter is the error for a character camp does not have.
func noCharacter(camp *projections.Campaign, id string, at uint64) error {
	roster := camp.Roster
	if camp.TOR != nil {
		roster = camp.TOR.Roster
	}
	hint := msgerr.New("it has none yet")
	if len(roster) > 0 {
		hint = names.Hint(id, roster)
	}
	return msgerr.Errorf("%w: no character %q in campaign %s%s: %v", events.ErrNotFound, id, camp.ID, atSuffix(at), hint)
}

// journalPlace names the journal commands read: the data folder, or the
// NATS servers of --nats.
func (a *app) journalPlace() string {
	if a.natsURL != "" {
		return "NATS " + access.RedactURLs(a.natsURL)
	}
	return a.dataDir
}

func atSuffix(at uint64) string {
	if at == 0 {
		return ""
	}
	return fmt.Sprintf(" at sequence %d", at)
}

func (a *app) weaponCommand() *cobra.Command {
	return a.specGroup("weapon", "Define the campaign's weapons", []string{"weapon-define"}, a.weaponListCommand())
}

func (a *app) skillCommand() *cobra.Command {
	return a.specGroup("skill", "Campaign skills and raising skills with XP", []string{"skill-define", "raise"}, a.skillListCommand())
}

// voidCommand is 'journal void EVENT', with void propose and void consent.
func (a *app) voidCommand() *cobra.Command {
	cmd := a.specCommand("void")
	cmd.AddCommand(a.specCommand("void-propose"), a.specCommand("void-consent"))
	return cmd
}
