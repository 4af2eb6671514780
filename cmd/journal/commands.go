package main

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/command/catalog"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rules/names"
	"github.com/campaign-journal/journal/sheettext"
)

// recordedJSON is how a recorded event prints with --json.
type recordedJSON struct {
	Seq   uint64       `json:"seq"`
	Text  string       `json:"text"`
	Event events.Event `json:"event"`
}

// report prints what a command recorded: one transcript line per event,
// with its event id; or the events as JSON.
func (a *app) report(res command.Result, before *projections.Campaign) error {
	lines := describe(a.language(), before, res.Events)
	if a.jsonOut {
		out := make([]recordedJSON, len(res.Events))
		for i, r := range res.Events {
			out[i] = recordedJSON{Seq: r.Seq, Text: lines[i], Event: r.Event}
		}
		doc := map[string]any{"recorded": out}
		if len(res.Secret) > 0 {
			doc["secret"] = res.Secret
		}
		if res.Repeated {
			doc["repeated"] = true
		}
		return a.emit(doc, nil)
	}
	l := a.language()
	if res.Repeated {
		fmt.Fprintln(a.stdout, l.T("rec.repeated", res.Events[0].Event.RequestID))
	}
	for i, r := range res.Events {
		fmt.Fprintf(a.stdout, "%s\n    %s\n", lines[i], l.T("rec.event", r.Event.ID, r.Seq))
	}
	a.reportSecrets(res, before) // free.go
	return nil
}

// describe renders the lines of freshly recorded events, folding them onto
// a copy of the state before them.
func describe(l i18n.Lang, before *projections.Campaign, recs []events.Recorded) []string {
	tr := &projections.Transcript{Campaign: before, Lang: l}
	for _, r := range recs {
		if err := tr.Apply(r); err != nil {
			tr.Lines = append(tr.Lines, projections.Line{Text: r.Event.Type})
		}
	}
	out := make([]string, len(tr.Lines))
	for i, l := range tr.Lines {
		out[i] = l.Text
	}
	return out
}

// record wraps a command handler that is not a catalogued command (see
// runSpec for those): open the journal, fold the state before the
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

// runSpec runs the catalogued command name (command/catalog) in the
// campaign of -c with its JSON body (marshalled unless it is already
// []byte): the one path of every command the catalogue has, so that the
// CLI, HTTP and NATS decode the same body strictly and check the same
// required fields. Locally it runs catalog.Spec.Run on the journal;
// over the journal's NATS command service (remote.go) it sends the body
// to journalcmd.<user>.<campaign>.<name> with the same request id. Either
// way a retry after an unknown outcome sends the same request id, and
// the report is the same.
func (a *app) runSpec(c *cobra.Command, name string, body any) error {
	return a.runSpecWith(c, name, func(*command.Handler, string) (any, error) { return body, nil })
}

// runSpecWith is runSpec with a body that needs the journal and the
// campaign to be built (a short id resolved, for one).
func (a *app) runSpecWith(c *cobra.Command, name string, body func(j *command.Handler, campaign string) (any, error)) error {
	var data []byte
	return a.recordWith(c, func(ctx context.Context, j *command.Handler, call command.Call, campaign string) (command.Result, error) {
		if data == nil { // built once: each attempt sends the same body
			v, err := body(j, campaign)
			if err != nil {
				return command.Result{}, err
			}
			if data, err = bodyJSON(v); err != nil {
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
			a.moved()
		}
		return res, err
	}
	spec, ok := catalog.Lookup(name)
	if !ok {
		return command.Result{}, msgerr.Errorf("no catalogued command %q", name) // a bug of the CLI
	}
	res, err := spec.Run(ctx, j, call, campaign, body)
	if err == nil {
		a.moved()
	}
	return res, err
}

// body is a catalogued command's JSON body, member by member (the
// catalogue decodes it strictly: a misspelt member is refused).
type body map[string]any

// bodyJSON is v as a command's JSON body.
func bodyJSON(v any) ([]byte, error) {
	if b, ok := v.([]byte); ok {
		return b, nil
	}
	return json.Marshal(v)
}

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
	// journal's cache), and its report describes on it (stateBefore). A
	// campaign the fold refuses (an id it cannot name) is the command's to
	// refuse, in its own words.
	if _, err := a.current(ctx, j, campaign); err != nil && ctx.Err() != nil {
		return err
	}
	request := a.requestID
	if request == "" {
		if request, err = events.NewV7(time.Now, rand.Reader).NewID(); err != nil {
			return err
		}
	}
	call := command.Call{Actor: j.Actor(), RequestID: request}
	if err := call.Valid(); err != nil {
		return msgerr.Errorf("--request-id: %w", err)
	}
	var res command.Result
	attempt := 1
	for ; ; attempt++ {
		res, err = do(ctx, j, call, campaign)
		if err == nil || !unknownOutcome(err) || attempt == cliAttempts || ctx.Err() != nil {
			break
		}
		// The append may have been stored: the same request id records
		// it at most once, and returns it if it was.
		a.warnf("journal: %v: trying request %s again (%d of %d)", err, request, attempt+1, cliAttempts)
	}
	if err != nil {
		return err
	}
	res.Repeated = res.Repeated && attempt == 1 // else its own first attempt's, recorded by this command
	a.recorded = res
	a.moved()
	return a.reportOn(ctx, j, campaign, res)
}

// reportOn reports res, described on the state before its first event
// (stateBefore), then tells the user of the devices added to its name
// (key_devices.go) from the state so described: the state after the
// command, with no load of the campaign for either.
func (a *app) reportOn(ctx context.Context, j *command.Handler, campaign string, res command.Result) error {
	before := a.stateBefore(ctx, j, campaign, res.Events)
	err := a.report(res, before) // describe folds res's events into before
	if !a.announced && before.System != "" {
		a.announceDevices(before)
	}
	return err
}

// current returns the campaign's state now: this invocation's one fold
// of it (command.Handler.Current), made the first time a command asks and
// kept until a command records. The command that runs next decides on the
// journal's own cached fold, the same state, without reading the campaign
// again; what it records is described on this state (stateBefore). The
// state is shared: read it, never change it.
func (a *app) current(ctx context.Context, j *command.Handler, campaign string) (*projections.Campaign, error) {
	if a.camp != nil && a.camp.ID == campaign {
		return a.camp, nil
	}
	var c *projections.Campaign
	var err error
	if a.readOnly {
		c, err = j.Load(ctx, campaign, 0) // no command follows: no cache to fill, nothing to copy
	} else {
		c, err = j.Current(ctx, campaign)
	}
	if err != nil {
		return nil, err
	}
	a.camp = c
	return c, nil
}

// moved notes that a command recorded: the state current returned is now
// the state before it (kept, to describe what it recorded, unless a state
// before an earlier command of this report is kept already), and the next
// look at the campaign catches up with the stream.
func (a *app) moved() {
	if a.before == nil {
		a.before = a.camp
	}
	a.camp = nil
}

// stateBefore returns the campaign's state before the first of recs (all
// of one campaign, in stream order), to describe them on: the state the
// command was decided on (this invocation's fold, kept by moved) caught up
// with what another writer recorded between it and them, the tail read
// from the stream; else (nothing kept, a state past them: a request run
// again returns what it recorded earlier, a void among the tail) a fold up
// to them. The state is the caller's: the report folds recs into it.
func (a *app) stateBefore(ctx context.Context, j *command.Handler, campaign string, recs []events.Recorded) *projections.Campaign {
	pre := a.before
	a.before = nil
	if len(recs) == 0 {
		if pre != nil {
			return pre
		}
		return projections.NewCampaign(campaign)
	}
	first := recs[0].Seq
	if pre != nil && pre.ID == campaign && pre.LastSeq < first && a.catchUpTo(ctx, pre, first-1) == nil {
		return pre
	}
	if first > 1 {
		if b, err := j.Load(ctx, campaign, first-1); err == nil {
			return b
		}
	}
	return projections.NewCampaign(campaign)
}

// catchUpTo folds into c the campaign's messages after c.LastSeq up to
// sequence to; nothing is read when there is none (c.LastSeq == to). A
// void of an event c had folded (a refold needed) is an error: c is then
// not the state, and is left to the caller to drop.
func (a *app) catchUpTo(ctx context.Context, c *projections.Campaign, to uint64) error {
	if c.LastSeq >= to {
		return nil
	}
	if a.st == nil {
		return errNoStore
	}
	filter, err := events.CampaignFilter(c.ID)
	if err != nil {
		return err
	}
	q := events.Query{Subject: filter, From: c.LastSeq + 1, To: to, OnForeign: func(f events.Foreign) error {
		c.LastSeq = max(c.LastSeq, f.Seq)
		return nil
	}}
	if err := a.st.Read(ctx, q, c.Apply); err != nil {
		return err
	}
	if c.RefoldNeeded {
		return errNoStore
	}
	return nil
}

// errNoStore: catchUpTo could not bring a state up to date (stateBefore
// folds instead).
var errNoStore = errors.New("journal: the state cannot be caught up")

// cliAttempts bounds the attempts of one command whose outcome a timeout
// left unknown.
const cliAttempts = 3

// unknownOutcome reports whether err leaves unknown whether the command
// was recorded: a timeout waiting for the server's answer (not a
// cancellation by the user).
func unknownOutcome(err error) bool {
	return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, nats.ErrTimeout) ||
		errors.Is(err, jetstream.ErrAsyncPublishTimeout) || errors.Is(err, nats.ErrNoResponders)
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
		camp, err = a.current(c.Context(), j, campaign) // the invocation's one fold
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
		return "NATS " + redactURLs(a.natsURL)
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
