package projections

// Devices hold keys, not users (docs/design.md §3.3): a user's registered
// devices, each with its own key, folded from journal.device.*.v1 and the
// legacy journal.participant.registered.v1.
//
// Invariants:
//   - A user's Devices are in registration order; one is active from its
//     registration until its revocation (Revoked), and a revoked device
//     stays listed.
//   - Participant.PublicKey, Fingerprint and Seq are the newest active
//     device's ("" and 0 when none is active), so that code reading one key
//     per user reads the newest.
//   - A legacy participant.registered replaced its user's key: folded, it
//     revokes the user's earlier devices and adds one without proof
//     (Proved false), so old campaigns verify as they did.

import (
	"time"

	"github.com/campaign-journal/journal/events"
)

// Device is one registered device key of a user.
type Device struct {
	Name        string    `json:"name,omitempty"`
	PublicKey   string    `json:"public_key"`
	Fingerprint string    `json:"fingerprint"`
	By          string    `json:"by"`
	Seq         uint64    `json:"seq"`
	Time        time.Time `json:"time,omitzero"`
	Event       string    `json:"event,omitempty"`
	// Proved: registered with a device.register signed by the key itself.
	Proved bool `json:"proved,omitempty"`
	// Legacy: registered by a journal.participant.registered.v1.
	Legacy bool `json:"legacy,omitempty"`
	// NeedsApproval: registered while its user had another active device,
	// so one of those must approve it (DeviceApproved).
	NeedsApproval bool   `json:"needs_approval,omitempty"`
	Approved      bool   `json:"approved,omitempty"`
	ApprovedSeq   uint64 `json:"approved_seq,omitempty"`
	Revoked       bool   `json:"revoked,omitempty"`
	RevokedBy     string `json:"revoked_by,omitempty"`
	RevokedSeq    uint64 `json:"revoked_seq,omitempty"`
	Reason        string `json:"reason,omitempty"`
	// Replaced: revoked by a later legacy registration of its user (the
	// old rule: a registration replaced the user's key).
	Replaced bool `json:"replaced,omitempty"`
}

// Active reports whether the device's key holds its user's messages now.
func (d Device) Active() bool { return !d.Revoked }

// ByOther reports whether the device is flagged key-by-other for user:
// registered by someone else, or registered next to another active
// device of user and never approved by one.
func (d Device) ByOther(user string) bool {
	return d.By != user || (d.NeedsApproval && !d.Approved)
}

// Unconfirmed reports whether user should be told of the device: flagged
// key-by-other, neither approved nor revoked (the announcement).
func (d Device) Unconfirmed(user string) bool {
	return d.ByOther(user) && !d.Approved && !d.Revoked
}

// ActiveDevices returns the user's active devices, newest first: the
// order in which a message of the user is tried against them.
func (p *Participant) ActiveDevices() []Device {
	if p == nil {
		return nil
	}
	var out []Device
	for i := len(p.Devices) - 1; i >= 0; i-- {
		if p.Devices[i].Active() {
			out = append(out, p.Devices[i])
		}
	}
	return out
}

// Device returns the user's device with public key pub (active or not).
func (p *Participant) Device(pub string) (Device, bool) {
	if p != nil {
		for _, d := range p.Devices {
			if d.PublicKey == pub {
				return d, true
			}
		}
	}
	return Device{}, false
}

// KeyOwner returns the user a public key is registered to, "" for none.
func (c *Campaign) KeyOwner(pub string) string {
	for u, p := range c.Participants {
		if _, ok := p.Device(pub); ok {
			return u
		}
	}
	return ""
}

// newest sets the participant's PublicKey, Fingerprint and Seq from its
// newest active device.
func (p *Participant) newest() {
	p.PublicKey, p.Fingerprint, p.Seq = "", "", 0
	if a := p.ActiveDevices(); len(a) > 0 {
		p.PublicKey, p.Fingerprint, p.Seq = a[0].PublicKey, a[0].Fingerprint, a[0].Seq
	}
}

func (c *Campaign) participant(user, role string) *Participant {
	if c.Participants == nil {
		c.Participants = map[string]*Participant{}
	}
	p := c.Participants[user]
	if p == nil {
		p = &Participant{User: user}
		c.Participants[user] = p
	}
	if role != "" {
		p.Role = role
	}
	return p
}

// applyDevice folds the device events and the legacy registration; false
// for any other.
func (c *Campaign) applyDevice(rec events.Recorded, data any) bool {
	ev := rec.Event
	switch d := data.(type) {
	case *events.ParticipantRegistered:
		p := c.participant(d.User, d.Role)
		for i := range p.Devices {
			if !p.Devices[i].Revoked {
				p.Devices[i].Revoked, p.Devices[i].RevokedBy, p.Devices[i].RevokedSeq = true, ev.Actor, rec.Seq
				p.Devices[i].Replaced = true
			}
		}
		p.Devices = append(p.Devices, Device{PublicKey: d.PublicKey, Fingerprint: d.Fingerprint, By: ev.Actor,
			Seq: rec.Seq, Time: ev.Time, Event: ev.ID, Legacy: true})
		p.newest()
	case *events.DeviceRegistered:
		p := c.participant(d.User, d.Role)
		p.Devices = append(p.Devices, Device{Name: d.Name, PublicKey: d.PublicKey, Fingerprint: d.Fingerprint, By: d.By,
			Seq: rec.Seq, Time: ev.Time, Event: ev.ID, Proved: d.Signed != "", NeedsApproval: len(p.ActiveDevices()) > 0})
		p.newest()
	case *events.DeviceApproved:
		if p := c.Participants[d.User]; p != nil {
			for i := range p.Devices {
				if p.Devices[i].PublicKey == d.PublicKey && !p.Devices[i].Approved {
					p.Devices[i].Approved, p.Devices[i].ApprovedSeq = true, rec.Seq
				}
			}
		}
	case *events.DeviceRevoked:
		if p := c.Participants[d.User]; p != nil {
			for i := range p.Devices {
				if p.Devices[i].PublicKey == d.PublicKey && !p.Devices[i].Revoked {
					p.Devices[i].Revoked, p.Devices[i].RevokedBy, p.Devices[i].RevokedSeq = true, d.By, rec.Seq
					p.Devices[i].Reason = d.Reason
				}
			}
			p.newest()
		}
	default:
		return false
	}
	return true
}
