package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/replay"
	"github.com/campaign-journal/journal/signed"
)

// The CLI as a device that keeps what it signs (docs/design.md §3.3,
// "Receipts"): every message it seals says what it saw (seen: the
// campaign's latest event this device read, by sequence and the hash of
// its stored bytes) and is kept in the receipts of its configuration
// folder before it is sent (device.ReceiptStore); every command that
// reads a campaign checks the record against those receipts and the
// actor's registered key (device.CheckRecord, device.CheckKey) and warns
// on stderr. The I/O is here; the checks are the device package's.

// receiptStore is the CLI's receipts folder.
func receiptStore() (device.ReceiptStore, error) {
	dir, err := device.ReceiptsDir(os.Getenv)
	if err != nil {
		return device.ReceiptStore{}, err
	}
	return device.NewReceiptStore(dir), nil
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

// readCampaign reads campaign's events from..to (0: open) as this device sees them.
func (a *app) readCampaign(ctx context.Context, campaign string, from, to uint64) ([]events.Recorded, error) {
	st, err := a.deviceStore(ctx)
	if err != nil {
		return nil, err
	}
	filter, err := events.CampaignFilter(campaign)
	if err != nil {
		return nil, err
	}
	var out []events.Recorded
	err = st.Read(ctx, events.Query{Subject: filter, From: from, To: to}, func(r events.Recorded) error {
		out = append(out, r)
		return nil
	})
	return out, err
}

// seenAt is this device's receipt of campaign's event at seq (nil: none,
// seq 0 or no such event).
func (a *app) seenAt(ctx context.Context, campaign string, seq uint64) (*signed.Seen, error) {
	if seq == 0 {
		return nil, nil
	}
	recs, err := a.readCampaign(ctx, campaign, seq, seq)
	if err != nil {
		return nil, msgerr.Errorf("read the campaign's latest event (#%d): %w", seq, err)
	}
	for _, r := range recs {
		if r.Seq == seq && r.Raw != nil {
			return signed.SeenOf(r.Seq, r.Raw), nil
		}
	}
	return nil, nil
}

// seal stamps m with what this device saw of campaign (its event at
// lastSeq, the latest it read), signs it with k and keeps it in the
// receipts before it is sent. Every signed message of the CLI goes through here.
func (a *app) seal(ctx context.Context, campaign string, lastSeq uint64, k *device.Key, m signed.Message) (string, string, error) {
	user, err := a.actingUser() // identity.go: a device signs as its user, never a default's
	if err != nil {
		return "", "", err
	}
	seen, err := a.seenAt(ctx, campaign, lastSeq)
	if err != nil {
		return "", "", err
	}
	if seen != nil {
		m = signed.WithSeen(m, seen)
	}
	msg, sig, err := k.Seal(m)
	if err != nil {
		return "", "", err
	}
	rs, err := receiptStore()
	if err != nil {
		return "", "", err
	}
	a.signedAs(user, k)
	if err := rs.Append(device.Receipt{Campaign: campaign, User: user, PublicKey: k.Public().String(),
		Signed: msg, Signature: sig, Time: time.Now().UTC()}); err != nil {
		return "", "", err
	}
	return msg, sig, nil
}

// registeredKeys lists the public keys camp registers for user.
func registeredKeys(camp *projections.Campaign, user string) []string {
	if camp == nil {
		return nil
	}
	var keys []string
	for _, d := range camp.Participants[user].ActiveDevices() { // every device of the user (docs/design.md §3.3)
		keys = append(keys, d.PublicKey)
	}
	return keys
}

// receiptAlarms checks campaign camp, as this device reads it, against
// the receipts it keeps and the actor's keys (default, or any other name). A campaign
// for which this device keeps nothing and holds no key of its actor has
// nothing to check.
func (a *app) receiptAlarms(ctx context.Context, camp *projections.Campaign) ([]device.Alarm, error) {
	var alarms []device.Alarm
	user := a.cliActor()
	if ks, err := keyStore(); err == nil {
		var own []string // this device's keys (default, and any other name)
		if infos, err := ks.List(); err == nil || len(infos) > 0 {
			for _, in := range infos {
				own = append(own, in.PublicKey)
			}
		}
		if al := device.CheckKey(user, own, registeredKeys(camp, user)); al != nil {
			alarms = append(alarms, *al)
		}
	}
	rs, err := receiptStore()
	if err != nil {
		return alarms, nil // no configuration folder: no receipts
	}
	kept, err := rs.Load(camp.ID)
	if err != nil || len(kept) == 0 {
		return alarms, err
	}
	// The whole campaign: a head is found by its hash wherever it is (a
	// campaign restored into another folder has other sequences), and
	// the recorded messages are compared with the kept ones.
	recs, err := a.readCampaign(ctx, camp.ID, 0, 0)
	if err != nil {
		return alarms, err
	}
	return append(alarms, device.CheckRecord(kept, device.Record{Events: recs})...), nil
}

// checkReceipts checks camp against this device's receipts and key
// (receiptAlarms) once per invocation, prints each alarm on stderr in
// words, and returns them. A campaign not yet created has nothing to check.
func (a *app) checkReceipts(ctx context.Context, camp *projections.Campaign) []device.Alarm {
	if camp == nil || camp.System == "" {
		return nil
	}
	if alarms, done := a.receipts[camp.ID]; done {
		return alarms
	}
	alarms, err := a.receiptAlarms(ctx, camp)
	if err != nil && !errors.Is(err, context.Canceled) {
		a.warnf("WARNING: cannot check this device's receipts: %v", err)
	}
	for _, al := range alarms {
		if al.Err != nil {
			a.warnf("WARNING: %v", al.Err) // rendered by key in the output's language
			continue
		}
		a.warnf("WARNING: %s", al.Text)
	}
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

// receiptsReport is what replay (and log) found checking the record
// against a device's receipts: the "receipts" member of their --json.
type receiptsReport struct {
	// Kept counts the receipts given with --receipts (0: the device's own).
	Kept   int            `json:"kept"`
	OK     bool           `json:"ok"`
	Alarms []device.Alarm `json:"alarms"`
}

func newReceiptsReport(kept int, alarms []device.Alarm) *receiptsReport {
	if alarms == nil {
		alarms = []device.Alarm{}
	}
	return &receiptsReport{Kept: kept, OK: len(alarms) == 0, Alarms: alarms}
}

// writeText writes the report's lines (nothing for none or a device's own
// receipts without alarm, which checkReceipts warned about already).
func (r *receiptsReport) writeText(w io.Writer, a *app) {
	if r == nil || r.Kept == 0 {
		return
	}
	l := a.language()
	if r.OK {
		fmt.Fprintln(w, l.Error(fmt.Sprintf("receipts: %d kept messages, the record extends every head they signed", r.Kept)))
		return
	}
	for _, al := range r.Alarms {
		fmt.Fprintln(w, l.Error(fmt.Sprintf("RECEIPTS MISMATCH: %s", al.Text)))
	}
}

// replayWithReceipts is replay's --json: the report, and its receipts member.
type replayWithReceipts struct {
	*replay.Report
	Receipts *receiptsReport `json:"receipts,omitempty"`
}

// receiptsAgainst checks the record src holds (an export when file) against
// kept, campaign by campaign (only --campaign's when given).
func (a *app) receiptsAgainst(ctx context.Context, src replay.Source, kept []device.Receipt, file bool) (*receiptsReport, error) {
	byCampaign := map[string][]device.Receipt{}
	var order []string
	for _, k := range kept {
		if a.campaign != "" && k.Campaign != a.campaign {
			continue
		}
		if _, ok := byCampaign[k.Campaign]; !ok {
			order = append(order, k.Campaign)
		}
		byCampaign[k.Campaign] = append(byCampaign[k.Campaign], k)
	}
	recs := map[string][]events.Recorded{}
	err := src(ctx, func(in replay.Input) error {
		if in.Foreign != nil {
			return nil
		}
		if c := in.Recorded.Event.Campaign; byCampaign[c] != nil {
			recs[c] = append(recs[c], in.Recorded)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var alarms []device.Alarm
	n := 0
	for _, c := range order {
		n += len(byCampaign[c])
		alarms = append(alarms, device.CheckRecord(byCampaign[c], device.Record{Events: recs[c], File: file})...)
	}
	return newReceiptsReport(n, alarms), nil
}
