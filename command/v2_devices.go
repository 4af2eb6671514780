package command

// Devices hold keys, not users (docs/design.md §3.3): the journal's judgment of
// device registrations, approvals and revocations.
//
// Invariants:
//   - A user's own registration carries its device.register signed by the
//     key it registers (proof of possession); only the GM registers a bare
//     key, and only for someone else (a lost phone): recorded with an
//     empty signed/signature, flagged key-by-other by the audit.
//   - A public key is registered once, to one user: registering it again
//     (to anyone, even after its revocation) is refused, so nothing
//     silently replaces a key.
//   - A user may have several devices. A registration next to an active
//     device of the same user may carry its approval (a device.approve
//     signed by one of those devices), recorded as a second event of the
//     same append; without one it is flagged until approved later.
//   - An approval opens under an active device of its user other than the
//     approved one; a revocation under an active device of its user (itself
//     or another), or is the GM's, unsigned (flagged revoked-by-other).
//   - A message of user U opens under any of U's devices active at that
//     point, newest first (signedBy).
//   - Who may register which key: as before (the first gm key is the GM's
//     own bootstrap; registering others, or a gm key, is the GM's).

import (
	"context"
	"errors"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/signed"
)

// ApproveDevice is a signed device.approve of one of the actor's devices,
// sent from another of them. Character, over HTTP and NATS, is one of the
// actor's characters (the permissions' acting character); it may be empty.
type ApproveDevice struct {
	Character string `json:"character" cli:"-"`
	SignedMessage
}

// RevokeDevice revokes a device: the signed device.revoke of a device of
// the actor's user, or, from the GM, unsigned: User's device PublicKey for
// Reason. Character is as in ApproveDevice.
type RevokeDevice struct {
	Character string `json:"character" cli:"-"`
	SignedMessage
	User      string `json:"user,omitempty" cli:"-"`
	PublicKey string `json:"public_key,omitempty" cli:"-"`
	Reason    string `json:"reason,omitempty" cli:"--reason R" help:"why the device is revoked (lost, not mine)"`
}

// registration is a registration as judged: who, which key, with what proof.
type registration struct {
	user, role, name string
	pub              signed.PublicKey
	proof            SignedMessage
	msg              signed.Message // the device.register, nil for a bare key
}

// readRegistration reads req: its device.register when it carries one
// (whose fields req's, where given, must equal), else the bare key.
func (j *Handler) readRegistration(campaign string, req RegisterKey) (registration, error) {
	if !req.SignedMessage.IsZero() {
		reg, err := signed.OpenRegister(req.SignedMessage, campaign)
		if err != nil {
			return registration{}, invalid("the device.register does not hold (it must be signed by the key it registers): %v", err)
		}
		switch {
		case req.User != "" && req.User != reg.User:
			return registration{}, invalid("the registration is for %s, its signed device.register for %s", clip.Text(req.User), reg.User)
		case req.Role != "" && req.Role != reg.Role:
			return registration{}, invalid("the registration is as %s, its signed device.register as %s", clip.Text(req.Role), reg.Role)
		case req.PublicKey != "" && req.PublicKey != reg.PublicKey:
			return registration{}, invalid("the registration's public key is not its signed device.register's")
		case req.Name != "" && req.Name != reg.Name:
			return registration{}, invalid("the registration's name is not its signed device.register's")
		}
		return registration{user: reg.User, role: reg.Role, name: reg.Name, pub: reg.Key(), proof: req.SignedMessage, msg: reg}, nil
	}
	user := req.User
	if user == "" {
		user = j.actor
	}
	if err := events.ValidID(user); err != nil {
		return registration{}, invalid("user %q: %v", clip.Text(user), err)
	}
	role := req.Role
	if role == "" {
		role = RolePlayer
	}
	if role != RolePlayer && role != RoleGM {
		return registration{}, invalid("--role %q: want player or gm", clip.Text(role))
	}
	if len(req.Name) > signed.MaxDeviceNameLen {
		return registration{}, invalid("--name: at most %d bytes", signed.MaxDeviceNameLen)
	}
	pub, err := signed.ParsePublicKey(req.PublicKey)
	if err != nil {
		return registration{}, invalid("--public-key: %v", err)
	}
	if user == j.actor {
		return registration{}, invalid("a device of your own is registered with a device.register signed by its key (proof that you hold it): run 'journal key register' on that device")
	}
	return registration{user: user, role: role, name: req.Name, pub: pub}, nil
}

// RegisterKey records a device of a user (see the invariants above): one
// journal.device.registered.v1, and a journal.device.approved.v1 when
// req carries an approval.
func (j *Handler) RegisterKey(ctx context.Context, campaign string, req RegisterKey) (Result, error) {
	return j.execute(ctx, campaign, func(d *draft) error {
		if err := requireCampaign(d.campaign); err != nil {
			return err
		}
		reg, err := j.readRegistration(campaign, req)
		if err != nil {
			return err
		}
		if reg.msg != nil {
			if err := d.checkSeen(reg.msg); err != nil { // what the device saw (v2_seen.go)
				return err
			}
		}
		user, role := reg.user, reg.role
		// The first gm key is its user's own (the GM bootstraps the
		// campaign's keys); a player authenticated as one (Call.Player, over
		// HTTP and NATS) registers only its own key as a player.
		bootstrap := user == j.actor && role == RoleGM && !hasGMKey(d.campaign) && !j.player
		if (user != j.actor || role == RoleGM) && !bootstrap && !j.isGM(d.campaign) {
			return invalid("%s may register only its own key, as a player: registering %s as %s is the GM's", j.actor, user, role)
		}
		if owner := d.campaign.KeyOwner(reg.pub.String()); owner != "" {
			return invalid("key %s is already registered to %s: a key is registered once (register a new key; revoke a lost one with 'journal key revoke')", reg.pub.Fingerprint(), owner)
		}
		var approval *signed.DeviceApprove
		if req.Approval != nil && !req.Approval.IsZero() {
			if approval, err = openApproval(d, user, reg.pub, *req.Approval); err != nil {
				return err
			}
		}
		d.add(events.KindCampaign, campaign, events.TypeDeviceRegistered, events.DeviceRegistered{
			User: user, Role: role, Name: reg.name, PublicKey: reg.pub.String(), Fingerprint: reg.pub.Fingerprint(),
			By: j.actor, Signed: reg.proof.Signed, Signature: reg.proof.Signature,
		})
		if approval != nil {
			d.add(events.KindCampaign, campaign, events.TypeDeviceApproved, events.DeviceApproved{
				User: user, PublicKey: reg.pub.String(), Fingerprint: reg.pub.Fingerprint(),
				By: j.actor, Signed: req.Approval.Signed, Signature: req.Approval.Signature,
			})
		}
		return nil
	})
}

// openApproval opens a device.approve of user's device target: signed by
// another active device of user, naming target.
func openApproval(d *draft, user string, target signed.PublicKey, msg SignedMessage) (*signed.DeviceApprove, error) {
	p := d.campaign.Participants[user]
	var others []projections.Device
	for _, dev := range p.ActiveDevices() {
		if dev.PublicKey != target.String() {
			others = append(others, dev)
		}
	}
	if len(others) == 0 {
		return nil, invalid("%s has no other active device to approve device %s", user, target.Fingerprint())
	}
	m, err := openUnder(others, msg, d.campaign.ID, "")
	if err != nil {
		return nil, invalid("the approval is not signed by another active device of %s: %v", user, err)
	}
	a, ok := m.(*signed.DeviceApprove)
	switch {
	case !ok:
		return nil, invalid("signed message is a %s, not a %s", m.Kind(), signed.TypeDeviceApprove)
	case a.User != user:
		return nil, invalid("the approval is for %s's device, not %s's", a.User, user)
	case a.PublicKey != target.String():
		return nil, invalid("the approval names device %s, not %s", a.Key().Fingerprint(), target.Fingerprint())
	}
	return a, nil
}

// openUnder opens msg under the first of devs (newest first) under which
// its signature holds; the error is the first device's.
func openUnder(devs []projections.Device, msg SignedMessage, campaign, session string) (signed.Message, error) {
	var first error
	for _, dev := range devs {
		pub, err := signed.ParsePublicKey(dev.PublicKey)
		if err == nil {
			var m signed.Message
			if m, err = signed.Open(pub, msg.Signed, msg.Signature, campaign, session); err == nil {
				return m, nil
			}
			if !errors.Is(err, signed.ErrBadSignature) {
				return nil, err // the signature held: the message itself is wrong
			}
		}
		if first == nil {
			first = err
		}
	}
	return nil, first
}

// ApproveDevice records the actor's approval of one of its devices, signed
// by another of its active devices.
func (j *Handler) ApproveDevice(ctx context.Context, campaign string, req ApproveDevice) (Result, error) {
	return j.execute(ctx, campaign, func(d *draft) error {
		if err := requireCampaign(d.campaign); err != nil {
			return err
		}
		if req.Character != "" {
			if err := characterExists(d.campaign, req.Character); err != nil {
				return err
			}
		}
		m, err := signed.Parse(req.Signed)
		if err != nil {
			return invalid("signed message of %s: %v", j.actor, err)
		}
		a, ok := m.(*signed.DeviceApprove)
		if !ok {
			return invalid("signed message is a %s, not a %s", m.Kind(), signed.TypeDeviceApprove)
		}
		if a.User != j.actor {
			return invalid("%s may approve only its own devices, not %s's", j.actor, a.User)
		}
		dev, ok := d.campaign.Participants[a.User].Device(a.PublicKey)
		switch {
		case !ok:
			return notFound("%s has no device %s", a.User, a.Key().Fingerprint())
		case dev.Revoked:
			return invalid("device %s of %s is revoked", dev.Fingerprint, a.User)
		case dev.Approved:
			return invalid("device %s of %s is already approved", dev.Fingerprint, a.User)
		}
		if _, err := openApproval(d, a.User, a.Key(), req.SignedMessage); err != nil {
			return err
		}
		if err := d.checkSeen(a); err != nil {
			return err
		}
		d.add(events.KindCampaign, campaign, events.TypeDeviceApproved, events.DeviceApproved{
			User: a.User, PublicKey: a.PublicKey, Fingerprint: dev.Fingerprint, By: j.actor, Signed: req.Signed, Signature: req.Signature,
		})
		return nil
	})
}

// RevokeDevice records a device's revocation: signed by a device of the
// actor's user, or the GM's, unsigned.
func (j *Handler) RevokeDevice(ctx context.Context, campaign string, req RevokeDevice) (Result, error) {
	return j.execute(ctx, campaign, func(d *draft) error {
		if err := requireCampaign(d.campaign); err != nil {
			return err
		}
		if req.Character != "" {
			if err := characterExists(d.campaign, req.Character); err != nil {
				return err
			}
		}
		user, key, reason := req.User, req.PublicKey, req.Reason
		if !req.SignedMessage.IsZero() {
			m, err := signed.Parse(req.Signed)
			if err != nil {
				return invalid("signed message of %s: %v", j.actor, err)
			}
			rv, ok := m.(*signed.DeviceRevoke)
			if !ok {
				return invalid("signed message is a %s, not a %s", m.Kind(), signed.TypeDeviceRevoke)
			}
			if rv.User != j.actor {
				return invalid("%s may revoke with a signed message only its own devices, not %s's", j.actor, rv.User)
			}
			if _, err := openUnder(d.campaign.Participants[rv.User].ActiveDevices(), req.SignedMessage, d.campaign.ID, ""); err != nil {
				return invalid("the revocation is not signed by an active device of %s: %v", rv.User, err)
			}
			if err := d.checkSeen(rv); err != nil {
				return err
			}
			user, key, reason = rv.User, rv.PublicKey, rv.Reason
		} else {
			if !j.isGM(d.campaign) {
				return invalid("only the GM revokes a device without signing it: sign it with one of your devices ('journal key revoke')")
			}
			if err := events.ValidID(user); err != nil {
				return invalid("user %q: %v", clip.Text(user), err)
			}
			if len(reason) > signed.MaxReasonLen {
				return invalid("--reason: at most %d bytes", signed.MaxReasonLen)
			}
		}
		dev, ok := d.campaign.Participants[user].Device(key)
		switch {
		case !ok:
			return notFound("%s has no device with public key %s", user, clip.Text(key))
		case dev.Revoked:
			return invalid("device %s of %s is already revoked", dev.Fingerprint, user)
		}
		d.add(events.KindCampaign, campaign, events.TypeDeviceRevoked, events.DeviceRevoked{
			User: user, PublicKey: key, Fingerprint: dev.Fingerprint, By: j.actor, Reason: reason, Signed: req.Signed, Signature: req.Signature,
		})
		return nil
	})
}
