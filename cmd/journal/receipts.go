package main

import (
	"context"
	"os"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/device/client"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/recorder"
	"github.com/campaign-journal/journal/replay"
)

// The CLI as a device that keeps what it signs (docs/design.md §3.3,
// "Receipts"): the flows, the seals and the checks are package
// device/client's; here they are wired to this invocation.

// thisDevice is this invocation as a device (device/client): who it acts as,
// the store as it reads it, its receipts and keys, and its notices. Send
// and Report are a v2 command's (v2Client).
func (a *app) thisDevice() *client.Client {
	w := a.stdout
	if a.jsonOut {
		w = a.stderr
	}
	return &client.Client{
		User:      a.actingUser,
		Store:     func(ctx context.Context) (client.Reader, error) { return a.deviceStore(ctx) },
		Receipts:  func() (device.ReceiptStore, error) { return device.UserReceipts(os.Getenv) },
		Keys:      func() (device.Store, error) { return device.UserStore(os.Getenv) },
		RequestID: func() (string, error) { return recorder.RequestID(a.requestID) },
		Warn:      a.warnf,
		Signed:    a.signedAs,
		Lang:      a.language(),
		Err:       a.stderr,
		Text:      w,
	}
}

// deviceStore is the store as this device reads it (through the test's
// wrapper, if any: what a proxy shows the device).
func (a *app) deviceStore(ctx context.Context) (command.Store, error) {
	st, err := a.openStore(ctx, false, "")
	if err != nil {
		return nil, err
	}
	var cs command.Store = st
	if a.wrapStore != nil {
		cs = a.wrapStore(cs)
	}
	return cs, nil
}

// checkReceipts checks camp against this device's receipts and key
// (client.Alarms) once per invocation, prints each alarm on stderr in
// words, and returns them. A campaign not yet created has nothing to check.
func (a *app) checkReceipts(ctx context.Context, camp *projections.Campaign) []device.Alarm {
	if camp == nil || camp.System == "" {
		return nil
	}
	if alarms, done := a.receipts[camp.ID]; done {
		return alarms
	}
	d := a.thisDevice()
	alarms, err := d.Alarms(ctx, camp)
	d.WarnAlarms(alarms, err)
	if a.receipts == nil {
		a.receipts = map[string][]device.Alarm{}
	}
	a.receipts[camp.ID] = alarms
	return alarms
}

// checkCampaignReceipts is checkReceipts for a command that has not
// loaded the campaign (log, replay).
func (a *app) checkCampaignReceipts(ctx context.Context, campaign string) []device.Alarm {
	j, err := a.journal(ctx)
	if err != nil {
		return nil
	}
	camp, err := j.Load(ctx, campaign, 0)
	if err != nil {
		return nil
	}
	return a.checkReceipts(ctx, camp)
}

// replayWithReceipts is replay's --json: the report, and its receipts member.
type replayWithReceipts struct {
	*replay.Report
	Receipts *client.ReceiptsReport `json:"receipts,omitempty"`
}
