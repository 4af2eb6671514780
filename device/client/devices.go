package client

// Devices hold keys, not users (docs/design.md §3.3): what the device
// shows its user of the campaign's devices and of itself, and the
// announcement, on every command that reads the campaign, of a device
// someone else added to the user's name.

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/replay"
	"github.com/campaign-journal/journal/signed"
)

// Announce warns the user of every device of its name flagged
// key-by-other and neither approved nor revoked ("the GM added a device
// to your name on …").
func (c *Client) Announce(camp *projections.Campaign) {
	for _, n := range device.Announcements(camp, c.actor()) {
		c.warnf("WARNING: %s added a device to your name on %s (fingerprint %s): if it was not you, revoke it with 'journal key revoke %s'; if it was, approve it from another of your devices with 'journal key approve %s'",
			n.By, n.Time.UTC().Format(time.DateOnly), n.Fingerprint, n.Fingerprint, n.Fingerprint)
	}
}

// DeviceLine is one device as 'journal key devices' lists it.
type DeviceLine struct {
	User string `json:"user"`
	Role string `json:"role"`
	projections.Device
}

// DeviceLines lists every device registered in camp, user by user in
// name order, each user's in registration order (never nil).
func DeviceLines(camp *projections.Campaign) []DeviceLine {
	out := []DeviceLine{}
	users := make([]string, 0, len(camp.Participants))
	for u := range camp.Participants {
		users = append(users, u)
	}
	slices.Sort(users)
	for _, u := range users {
		p := camp.Participants[u]
		for _, d := range p.Devices {
			out = append(out, DeviceLine{User: u, Role: p.Role, Device: d})
		}
	}
	return out
}

// WriteDeviceLine writes d as one line.
func WriteDeviceLine(w io.Writer, d DeviceLine) {
	var state []string
	switch {
	case d.Revoked:
		state = append(state, "revoked by "+d.RevokedBy)
	default:
		state = append(state, "active")
	}
	if d.Approved {
		state = append(state, "approved")
	}
	if d.ByOther(d.User) {
		state = append(state, "key-by-other")
	}
	if !d.Proved {
		state = append(state, "no proof of possession")
	}
	name := d.Name
	if name == "" {
		name = "-"
	}
	fmt.Fprintf(w, "%s (%s) %q  %s  registered by %s on %s, seq %d: %s\n", d.User, d.Role, name, d.Fingerprint, d.By,
		d.Time.UTC().Format(time.DateOnly), d.Seq, strings.Join(state, ", "))
}

// Whoami is who a device is: what 'journal whoami' reports.
type Whoami struct {
	User   string        `json:"user"`
	Source string        `json:"source"`
	Keys   []device.Info `json:"keys"`
	// Campaign, Devices and Characters: with a campaign (-c), the
	// campaign's devices of this user and the characters it plays.
	Campaign   string               `json:"campaign,omitempty"`
	Devices    []projections.Device `json:"devices,omitempty"`
	Characters []string             `json:"characters,omitempty"`
}

// WhoamiOf is who id is, with the device's keys as given and, with a
// campaign (camp not nil), its devices and characters in it.
func WhoamiOf(id device.Identity, keys []device.Info, camp *projections.Campaign) Whoami {
	out := Whoami{User: id.User, Source: id.Source, Keys: keys}
	if camp == nil {
		return out
	}
	out.Campaign = camp.ID
	if p := camp.Participants[id.User]; p != nil {
		out.Devices = p.Devices
	}
	for chID, ch := range camp.Characters {
		if strings.EqualFold(ch.Player, id.User) {
			out.Characters = append(out.Characters, chID)
		}
	}
	slices.Sort(out.Characters)
	return out
}

// Write writes who the device is, line by line.
func (out Whoami) Write(w io.Writer) {
	fmt.Fprintf(w, "You are %s (%s)\n", out.User, out.Source)
	if len(out.Keys) == 0 {
		fmt.Fprintln(w, "No device key here: make one with 'journal key new'")
	}
	for _, k := range out.Keys {
		fmt.Fprintf(w, "Device key %s: %s\n", k.Name, k.Fingerprint)
	}
	if out.Campaign == "" {
		return
	}
	if len(out.Devices) == 0 {
		fmt.Fprintf(w, "Campaign %s holds no device of yours: 'journal -c %s key register'\n", out.Campaign, out.Campaign)
	}
	for _, d := range out.Devices {
		state := "active"
		switch {
		case d.Revoked:
			state = "revoked"
		case d.NeedsApproval && !d.Approved:
			state = "not approved"
		}
		fmt.Fprintf(w, "Campaign %s: device %s %s (%s)\n", out.Campaign, d.Name, d.Fingerprint, state)
	}
	if len(out.Characters) > 0 {
		fmt.Fprintf(w, "You play %s in %s\n", strings.Join(out.Characters, ", "), out.Campaign)
	}
}

// ReadProofs reads the proof files a device wrote ('journal roll prove
// --out FILE', signed.ParseProof), for replay.
func ReadProofs(paths []string) ([]replay.ProofFile, error) {
	var out []replay.ProofFile
	for _, path := range paths {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, msgerr.Errorf("--proof %s: %w", path, err)
		}
		p, _, err := signed.ParseProof(b)
		if err != nil {
			return nil, msgerr.Errorf("--proof %s: %w", path, err)
		}
		out = append(out, replay.ProofFile{Name: path, Proof: p})
	}
	return out, nil
}

// RegisterOther is the GM's key-register of a bare public key pub for
// another user (a lost phone): me is who the device acts as. It warns that
// the audit flags it key-by-other; a key of me's own, or none, is a usage
// error (a device registers its own key signed by it: RegisterOwn).
func (c *Client) RegisterOther(me, user, role, name, pub string) (command.RegisterKey, error) {
	if pub == "" {
		return command.RegisterKey{}, usagef("key register %s: give that user's --public-key HEX (your own device key is yours)", user)
	}
	if user == me {
		return command.RegisterKey{}, usagef("key register: your own device registers its own key, signed by it: leave out --public-key")
	}
	c.warnf("journal: registering a key for %s that %s's device did not sign: the audit flags it key-by-other, and %s is told on every page and command until it approves or revokes it", user, user, user)
	return command.RegisterKey{User: user, Role: role, Name: name, PublicKey: pub}, nil
}

// RegisterOwn is key-register of the device's own key k for user in camp,
// with its device.register signed by k (proof of possession): role is
// player by default (gm for the GM's own key), character one of user's
// (by default the one it plays; the GM names none). A user that has
// devices already is told that this one is flagged until approved.
func (c *Client) RegisterOwn(ctx context.Context, camp *projections.Campaign, k *device.Key, user, role, name, character string) (command.RegisterKey, error) {
	if role == "" {
		role = command.RolePlayer
		if user == "gm" {
			role = command.RoleGM
		}
	}
	if n := len(camp.Participants[user].ActiveDevices()); n > 0 {
		c.warnf("journal: %s already has %d device(s) in campaign %s: this one (%s) is flagged key-by-other until you approve it from another of your devices with 'journal key approve %s'", user, n, camp.ID, k.Fingerprint(), k.Fingerprint())
	}
	m, err := c.sealed(ctx, camp.ID, camp.LastSeq, k, device.RegisterMessage(k, camp.ID, user, role, name))
	if err != nil {
		return command.RegisterKey{}, err
	}
	// A player names one of its characters, for the permissions of the
	// HTTP API and the NATS service (the GM names none).
	if character == "" {
		character = ActingCharacter(camp, user)
	}
	return command.RegisterKey{Character: character, SignedMessage: m}, nil
}

// Approve is key-approve of the device of camp whose fingerprint is fp,
// signed by this device's key k (another device of the same user).
func (c *Client) Approve(ctx context.Context, camp *projections.Campaign, k *device.Key, fp string) (command.ApproveDevice, error) {
	user, dev, ok := device.FindDevice(camp, fp)
	if !ok {
		return command.ApproveDevice{}, usagef("key approve %s: no device of campaign %s has that fingerprint (see 'journal key devices')", fp, camp.ID)
	}
	pub, err := signed.ParsePublicKey(dev.PublicKey)
	if err != nil {
		return command.ApproveDevice{}, err
	}
	am, err := device.ApproveMessage(k, camp.ID, user, pub)
	if err != nil {
		return command.ApproveDevice{}, err
	}
	m, err := c.sealed(ctx, camp.ID, camp.LastSeq, k, am)
	if err != nil {
		return command.ApproveDevice{}, err
	}
	return command.ApproveDevice{Character: ActingCharacter(camp, c.actor()), SignedMessage: m}, nil
}

// Revoke is key-revoke of the device of camp whose fingerprint is fp: a
// device of the user's own is revoked with a device.revoke signed by this
// device's key (key loads it); another's (the GM's) is asked for bare.
func (c *Client) Revoke(ctx context.Context, camp *projections.Campaign, key func() (*device.Key, error), fp, reason string) (command.RevokeDevice, error) {
	user, dev, ok := device.FindDevice(camp, fp)
	if !ok {
		return command.RevokeDevice{}, usagef("key revoke %s: no device of campaign %s has that fingerprint (see 'journal key devices')", fp, camp.ID)
	}
	req := command.RevokeDevice{User: user, PublicKey: dev.PublicKey, Reason: reason}
	me := c.actor()
	if user == me {
		k, err := key()
		if err != nil {
			return req, err
		}
		pub, err := signed.ParsePublicKey(dev.PublicKey)
		if err != nil {
			return req, err
		}
		m, err := c.sealed(ctx, camp.ID, camp.LastSeq, k, device.RevokeMessage(camp.ID, user, pub, reason))
		if err != nil {
			return req, err
		}
		req.SignedMessage = m
		req.User, req.PublicKey, req.Reason = "", "", ""
	}
	req.Character = ActingCharacter(camp, me)
	return req, nil
}
