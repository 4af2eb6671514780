package replay

// Devices hold keys, not users (docs/design.md §3.3): the verifier's checks of
// the device events, against the state before each, and the audit's list
// of every device with its flags. web/static/verify.js does the same.
//
// Mismatches (the event does not hold):
//   - a registration with a device.register that does not open under the
//     key it registers, or whose fields are not the event's; one without
//     proof by its own user (only the GM's bare key for someone else has
//     none); a key registered before (to anyone); a by that is not the
//     event's actor;
//   - an approval not signed by another device of its user active at that
//     point, or of no active device;
//   - a revocation signed by no active device of its user, or unsigned by
//     its user, or of no active device.
// Flags (campaignDeviceFlags): key-by-other, revoked-by-other, key-unproved.

import (
	"fmt"
	"sort"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/signed"
)

// DeviceReport is one device of the campaign as the audit lists it.
type DeviceReport struct {
	User        string `json:"user"`
	Role        string `json:"role"`
	Name        string `json:"name,omitempty"`
	Fingerprint string `json:"fingerprint"`
	PublicKey   string `json:"public_key"`
	By          string `json:"by"`
	EventID     string `json:"event_id,omitempty"`
	Proved      bool   `json:"proved"`
	Approved    bool   `json:"approved"`
	Revoked     bool   `json:"revoked"`
	RevokedBy   string `json:"revoked_by,omitempty"`
}

// isDeviceType reports whether typ is one of the device events.
func isDeviceType(typ string) bool {
	switch typ {
	case events.TypeDeviceRegistered, events.TypeDeviceApproved, events.TypeDeviceRevoked:
		return true
	}
	return false
}

// openUnder opens a device's campaign-scoped or session message under
// the first of devs (newest first) under which it holds; the device is
// returned with it. err is the first device's error.
func (v *Verifier) openUnder(devs []projections.Device, s, sig, campaign, session string) (signed.Message, projections.Device, error) {
	var first error
	for _, d := range devs {
		pub, err := signed.ParsePublicKey(d.PublicKey)
		if err == nil {
			var msg signed.Message
			if msg, err = v.openSigned(pub, s, sig, campaign, session); err == nil {
				return msg, d, nil
			}
		}
		if first == nil {
			first = err
		}
	}
	if first == nil {
		first = msgerr.Errorf("no active device")
	}
	return nil, projections.Device{}, first
}

// deviceEvent checks a device event against fold, the state before it.
func (v *Verifier) deviceEvent(c *campaign, m Mismatch, ev events.Event, data any) {
	bad := func(format string, args ...any) {
		m.Kind, m.What = MismatchSignature, fmt.Sprintf(format, args...)
		v.record(v.sessionOf(ev), m)
	}
	fold := c.fold
	switch d := data.(type) {
	case *events.DeviceRegistered:
		pub, err := signed.ParsePublicKey(d.PublicKey)
		switch {
		case err != nil:
			bad("registers an unusable key for %s: %v", d.User, err)
			return
		case pub.Fingerprint() != d.Fingerprint:
			bad("fingerprint %s is not the key's (%s)", d.Fingerprint, pub.Fingerprint())
			return
		case d.Role != "player" && d.Role != "gm":
			bad("role %q: want player or gm", d.Role)
			return
		case d.By != ev.Actor:
			bad("the registration says it was asked for by %q, the event's actor is %q", d.By, ev.Actor)
			return
		case fold.KeyOwner(d.PublicKey) != "":
			bad("key %s is registered a second time (it is %s's already): a key is registered once", d.Fingerprint, fold.KeyOwner(d.PublicKey))
			return
		}
		if d.Signed == "" && d.Signature == "" {
			if d.By == d.User {
				bad("%s's own device %s registered without its device.register (no proof that %s holds the key)", d.User, d.Fingerprint, d.User)
			}
			return
		}
		reg, err := signed.OpenRegister(signed.Sealed{Signed: d.Signed, Signature: d.Signature}, ev.Campaign)
		if err != nil {
			bad("the device.register of %s's device %s does not hold under the key it registers: %v", d.User, d.Fingerprint, err)
			return
		}
		if reg.User != d.User || reg.Role != d.Role || reg.Name != d.Name || reg.PublicKey != d.PublicKey {
			bad("the registration's user, role, name or key are not its signed device.register's")
		}
	case *events.DeviceApproved:
		p := fold.Participants[d.User]
		target, ok := p.Device(d.PublicKey)
		if !ok || target.Revoked || target.Fingerprint != d.Fingerprint {
			bad("approves %s's device %s, which is no active device of %s at this point", d.User, d.Fingerprint, d.User)
			return
		}
		var others []projections.Device
		for _, dev := range p.ActiveDevices() {
			if dev.PublicKey != d.PublicKey {
				others = append(others, dev)
			}
		}
		msg, _, err := v.openUnder(others, d.Signed, d.Signature, ev.Campaign, "")
		if err != nil {
			bad("the approval of %s's device %s is not signed by another active device of %s: %v", d.User, d.Fingerprint, d.User, err)
			return
		}
		if a, ok := msg.(*signed.DeviceApprove); !ok || a.User != d.User || a.PublicKey != d.PublicKey {
			bad("the approval's user or key are not its signed device.approve's")
		}
	case *events.DeviceRevoked:
		p := fold.Participants[d.User]
		target, ok := p.Device(d.PublicKey)
		if !ok || target.Revoked || target.Fingerprint != d.Fingerprint {
			bad("revokes %s's device %s, which is no active device of %s at this point", d.User, d.Fingerprint, d.User)
			return
		}
		if d.Signed == "" && d.Signature == "" {
			if d.By == d.User {
				bad("%s revokes its own device %s without signing it", d.User, d.Fingerprint)
			}
			return
		}
		msg, _, err := v.openUnder(p.ActiveDevices(), d.Signed, d.Signature, ev.Campaign, "")
		if err != nil {
			bad("the revocation of %s's device %s is not signed by an active device of %s: %v", d.User, d.Fingerprint, d.User, err)
			return
		}
		if r, ok := msg.(*signed.DeviceRevoke); !ok || r.User != d.User || r.PublicKey != d.PublicKey || r.Reason != d.Reason {
			bad("the revocation's user, key or reason are not its signed device.revoke's")
		}
	}
}

// campaignDevices lists every device of fold (users in name order, devices
// in registration order) and the flags they raise, in that order: each
// device's key-by-other, key-unproved, then revoked-by-other.
func campaignDevices(fold *projections.Campaign) ([]DeviceReport, []Flag) {
	users := make([]string, 0, len(fold.Participants))
	for u := range fold.Participants {
		users = append(users, u)
	}
	sort.Strings(users)
	var out []DeviceReport
	var flags []Flag
	for _, u := range users {
		p := fold.Participants[u]
		for _, d := range p.Devices {
			out = append(out, DeviceReport{User: u, Role: p.Role, Name: d.Name, Fingerprint: d.Fingerprint, PublicKey: d.PublicKey,
				By: d.By, EventID: d.Event, Proved: d.Proved, Approved: d.Approved, Revoked: d.Revoked, RevokedBy: d.RevokedBy})
			switch {
			case d.By != u:
				flags = append(flags, newFlag(FlagKeyByOther, d.Event, "rp2.f.key_by_other", d.Event, d.By, p.Role, d.Fingerprint, u, u))
			case d.NeedsApproval && !d.Approved:
				flags = append(flags, newFlag(FlagKeyByOther, d.Event, "rp2.f.device_unapproved", d.Event, u, d.Fingerprint, u))
			}
			if d.Legacy {
				flags = append(flags, newFlag(FlagKeyUnproved, d.Event, "rp2.f.key_unproved", d.Event, u, d.Fingerprint, u))
			}
			if d.Revoked && d.RevokedBy != u && !d.Replaced {
				flags = append(flags, newFlag(FlagRevokedByOther, d.Event, "rp2.f.revoked_by_other", u, d.Fingerprint, d.RevokedBy, u))
			}
		}
	}
	return out, flags
}
