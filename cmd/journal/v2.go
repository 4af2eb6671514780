package main

import (
	"context"
	"os"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/device/client"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/recorder"
)

// The CLI as a journal-dice-v2 device: in a v2 session it signs what it
// asks for with the user's device key (key.go). The flows are package
// device/client's (client.Client.RequestReveal and the others); here they
// are wired to cobra, the invocation's fold and its request id.

// openSession returns the campaign's state afresh (caught up with the
// stream: a follow that waits for others' events asks again) and its open
// session (nil: none).
func (a *app) openSession(ctx context.Context, j *command.Handler, campaign string) (*projections.Campaign, *projections.Session, error) {
	a.fold.Drop()
	return a.session(ctx, j, campaign)
}

// session returns the campaign's state and its open session (nil: none):
// the invocation's one fold (recorder.Fold.Current), as a command that
// is about to run looks at it.
func (a *app) session(ctx context.Context, j *command.Handler, campaign string) (*projections.Campaign, *projections.Session, error) {
	camp, err := a.fold.Current(ctx, j, campaign, a.readOnly)
	if err != nil {
		return nil, nil, err
	}
	a.checkReceipts(ctx, camp)
	return camp, camp.OpenSession(), nil
}

// v2Device is what a command from this device in an open session needs:
// the campaign, the device's key, the campaign's state with its open
// session (client.Session), and the journal.
type v2Device struct {
	client.Session
	j *command.Handler
}

// openV2 loads the device key keyName and the campaign's open session; no
// session in progress is a usage error.
func (a *app) openV2(ctx context.Context, keyName string) (v2Device, error) {
	var t v2Device
	var err error
	if t.Campaign, err = a.campaignID(); err != nil {
		return t, err
	}
	if t.Key, err = device.LoadUserKey(os.Getenv, keyName); err != nil {
		return t, err
	}
	if t.j, err = a.journal(ctx); err != nil {
		return t, err
	}
	if t.Camp, t.Session.Session, err = a.session(ctx, t.j, t.Campaign); err != nil {
		return t, err
	}
	if t.Session.Session == nil {
		return t, usagef("no session in progress: start one with 'journal session start --dice v2'")
	}
	return t, nil
}

// v2Client is this device for a v2 command c on the journal j: its
// steps are catalogued commands of c (stepNamed), reported together
// (recorder.Merge, recorder.Fold.StateBefore).
func (a *app) v2Client(c *cobra.Command, j *command.Handler) *client.Client {
	d := a.thisDevice()
	d.Send = func(ctx context.Context, id, campaign, name string, body any) (command.Result, error) {
		return a.stepNamed(ctx, c, j, id, campaign, name, body)
	}
	d.Report = func(ctx context.Context, campaign string, results ...command.Result) error {
		// Described on the state before the first step (the state it was
		// decided on: recorder.Fold.StateBefore).
		all := recorder.Merge(results...)
		return a.report(all, a.fold.StateBefore(ctx, j, a.st, campaign, all.Events))
	}
	return d
}

// contribute sends the user's signed contribution to the open v2 session
// (client.Contribute).
func (a *app) contribute(c *cobra.Command, keyName, character string) error {
	t, err := a.openV2(c.Context(), keyName)
	if err != nil {
		return err
	}
	return a.v2Client(c, t.j).Contribute(c.Context(), t.Session, character)
}

// afterV2Start contributes for the CLI's user right after a v2 session
// starts, if it has a device key registered in the campaign; else it says
// how to.
func (a *app) afterV2Start(c *cobra.Command) error {
	campaign, err := a.campaignID()
	if err != nil {
		return err
	}
	ok, err := a.thisDevice().ShouldContribute(campaign, func() (*projections.Campaign, error) {
		camp, _, err := a.campaignNow(c.Context(), false)
		return camp, err
	})
	if err != nil || !ok {
		return err
	}
	a.requestID = "" // the contribution is a command of its own
	return a.contribute(c, device.DefaultName, "")
}

// rollV2 runs a v2 skill or attribute roll in one command: the signed
// request, recorded with its nonce, then the signed reveal of r.
func (a *app) rollV2(c *cobra.Command, keyName string, req command.RollRequest) error {
	if tor, err := a.isTOR(c); err != nil || tor {
		if err != nil {
			return err
		}
		return a.torRollV2(c, keyName, req) // v2_tor.go
	}
	if req.Entropy != "" || req.TN != nil || req.Trait != "" {
		return usagef("roll: --entropy, --tn and --trait are not for a journal-dice-v2 session (your device's secret replaces entropy)")
	}
	return a.requestRevealV2(c, keyName, req.Character, func(j *command.Handler, campaign string, _ *projections.Session) (any, error) {
		return j.RollActionFor(c.Context(), campaign, req) // names as the rules spell them
	})
}

// attackV2 runs a v2 attack in one command: the signed request, recorded
// with its two nonces (the attack's and the damage's), then the signed
// reveal of r: the attack roll and, on a hit, the damage and its
// consequences. The action names every input: the weapon as the rules
// name it (the attacker's first by default) and the range band.
func (a *app) attackV2(c *cobra.Command, keyName string, req command.AttackRequest) error {
	if req.Entropy != "" {
		return usagef("attack: --entropy is not for a journal-dice-v2 session (your device's secret replaces entropy)")
	}
	return a.requestRevealV2(c, keyName, req.Attacker, func(j *command.Handler, campaign string, _ *projections.Session) (any, error) {
		return j.AttackActionFor(c.Context(), campaign, req)
	})
}

// requestRevealV2 runs a v2 request and its reveal in one command for
// character (client.RequestReveal); action builds the signed request's
// action. A GM's request reads its --wait and --beacon (cobraspec's
// addGMRollFlags).
func (a *app) requestRevealV2(c *cobra.Command, keyName, character string, action func(*command.Handler, string, *projections.Session) (any, error)) error {
	t, err := a.openV2(c.Context(), keyName)
	if err != nil {
		return err
	}
	gm := client.GMRoll{Wait: command.DefaultWitnessWait}
	if wait, err := c.Flags().GetDuration("wait"); err == nil {
		gm.Wait = wait
	}
	gm.Beacon, _ = c.Flags().GetDuration("beacon")
	return a.v2Client(c, t.j).RequestReveal(c.Context(), t.Session, character, gm, func() (any, error) {
		return action(t.j, t.Campaign, t.Session.Session)
	})
}

// stepNamed runs the catalogued command name with its body (RunSpec's
// specRun) as one step of a v2 CLI command, under request id id (the v2
// roll's request and reveal are two catalogued commands).
func (a *app) stepNamed(ctx context.Context, c *cobra.Command, j *command.Handler, id, campaign, name string, body any) (command.Result, error) {
	path, args := cliCommand(c)
	call := command.Call{Actor: j.Actor(), RequestID: id, What: path + " " + name, Args: args} // the view's user, fixed when it was made
	if err := call.Valid(); err != nil {
		return command.Result{}, msgerr.Errorf("--request-id: %w", err)
	}
	data, err := recorder.BodyJSON(body)
	if err != nil {
		return command.Result{}, err
	}
	// A retry after an unknown outcome records it at most once.
	res, _, err := recorder.Retry(ctx, recorder.Attempts, id, a.warnf, func() (command.Result, error) {
		return a.specRun(ctx, j, call, campaign, name, data)
	})
	return res, err
}

// rollV2Commands are roll's subcommands of journal-dice-v2.
func (a *app) rollV2Commands() []*cobra.Command {
	return []*cobra.Command{a.specCommand("roll-cancel"), a.specCommand("roll-request"), a.specCommand("roll-reveal"), a.specCommand("roll-prove"),
		a.specCommand("roll-witness"), a.specCommand("roll-resolve"), a.specCommand("roll-receipt")}
}

// InV2Session reports whether the campaign's open session uses
// journal-dice-v2 (cobraspec.Runner).
func (a *app) InV2Session(c *cobra.Command) (bool, error) {
	camp, _, err := a.campaignNow(c.Context(), false)
	if err != nil {
		return false, err
	}
	a.checkReceipts(c.Context(), camp) // as session does
	return camp.OpenSession().V2(), nil
}

// campaignNow is the campaign of -c and the journal: the invocation's one
// fold (recorder.Fold.Current), or a fresh one (fresh: Load).
func (a *app) campaignNow(ctx context.Context, fresh bool) (*projections.Campaign, *command.Handler, error) {
	campaign, err := a.campaignID()
	if err != nil {
		return nil, nil, err
	}
	j, err := a.journal(ctx)
	if err != nil {
		return nil, nil, err
	}
	var camp *projections.Campaign
	if fresh {
		camp, err = j.Load(ctx, campaign, 0)
	} else {
		camp, err = a.fold.Current(ctx, j, campaign, a.readOnly)
	}
	return camp, j, err
}
