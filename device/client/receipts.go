package client

// The device that keeps what it signs (docs/design.md §3.3, "Receipts"):
// every message it seals is kept in its receipts before it is sent (Seal);
// every command that reads a campaign checks the record against those
// receipts and the user's registered keys (device.CheckRecord,
// device.CheckKey). The reads are here; the checks are package device's.

import (
	"context"
	"fmt"
	"io"

	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/replay"
)

// Alarms checks campaign camp, as this device reads it, against the
// receipts it keeps and its user's keys (default, or any other name). A
// campaign for which this device keeps nothing and holds no key of its
// user has nothing to check.
func (c *Client) Alarms(ctx context.Context, camp *projections.Campaign) ([]device.Alarm, error) {
	var alarms []device.Alarm
	user := c.actor()
	if ks, err := c.Keys(); err == nil {
		var own []string // this device's keys (default, and any other name)
		if infos, err := ks.List(); err == nil || len(infos) > 0 {
			for _, in := range infos {
				own = append(own, in.PublicKey)
			}
		}
		if al := device.CheckKey(user, own, RegisteredKeys(camp, user)); al != nil {
			alarms = append(alarms, *al)
		}
	}
	rs, err := c.Receipts()
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
	recs, err := c.ReadCampaign(ctx, camp.ID, 0, 0)
	if err != nil {
		return alarms, err
	}
	return append(alarms, device.CheckRecord(kept, device.Record{Events: recs})...), nil
}

// WarnAlarms tells the user each alarm on stderr, in words, and that the
// receipts could not be checked when err (a cancellation says nothing).
func (c *Client) WarnAlarms(alarms []device.Alarm, err error) {
	if err != nil && ctxErr(err) {
		err = nil
	}
	if err != nil {
		c.warnf("WARNING: cannot check this device's receipts: %v", err)
	}
	for _, al := range alarms {
		if al.Err != nil {
			c.warnf("WARNING: %v", al.Err) // rendered by key in the output's language
			continue
		}
		c.warnf("WARNING: %s", al.Text)
	}
}

// ReceiptsReport is what a check of the record against a device's
// receipts found: the "receipts" member of replay's (and log's) --json.
type ReceiptsReport struct {
	// Kept counts the receipts given with --receipts (0: the device's own).
	Kept   int            `json:"kept"`
	OK     bool           `json:"ok"`
	Alarms []device.Alarm `json:"alarms"`
}

// NewReceiptsReport is the report of kept receipts checked, with alarms.
func NewReceiptsReport(kept int, alarms []device.Alarm) *ReceiptsReport {
	if alarms == nil {
		alarms = []device.Alarm{}
	}
	return &ReceiptsReport{Kept: kept, OK: len(alarms) == 0, Alarms: alarms}
}

// WriteText writes the report's lines in l (nothing for none or a
// device's own receipts without alarm, which the command warned about
// already).
func (r *ReceiptsReport) WriteText(w io.Writer, l i18n.Lang) {
	if r == nil || r.Kept == 0 {
		return
	}
	if r.OK {
		fmt.Fprintln(w, l.Error(fmt.Sprintf("receipts: %d kept messages, the record extends every head they signed", r.Kept)))
		return
	}
	for _, al := range r.Alarms {
		fmt.Fprintln(w, l.Error(fmt.Sprintf("RECEIPTS MISMATCH: %s", al.Text)))
	}
}

// ReceiptsAgainst checks the record src holds (an export when file)
// against kept, campaign by campaign (only campaign's when not "").
func ReceiptsAgainst(ctx context.Context, src replay.Source, kept []device.Receipt, campaign string, file bool) (*ReceiptsReport, error) {
	byCampaign := map[string][]device.Receipt{}
	var order []string
	for _, k := range kept {
		if campaign != "" && k.Campaign != campaign {
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
	return NewReceiptsReport(n, alarms), nil
}
