package catalog

import (
	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
)

// The commands of device keys (journal-dice-v2): one declaration each (see specs).

// keyRegisterCmd is the catalogue's "key-register".
var keyRegisterCmd = def[command.RegisterKey]{name: "key-register", cli: "key register",
	doc:    "journal-dice-v2: register a device's public key: its own device.register signed by the key (signed, signature; with approval, a device.approve from another device of its user; a player names one of its characters, character, and registers only its own key as a player), or the GM's bare key for someone else (user, public_key: flagged key-by-other)",
	acting: "character", actingOptional: true,
	run: func(ctx ctx, j *j, c string, req command.RegisterKey) (res, error) {
		return j.RegisterKey(ctx, c, req)
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (command.RegisterKey, error) {
		d, _, err := find[events.DeviceRegistered](r, events.TypeDeviceRegistered)
		if err != nil {
			old, _, oerr := find[events.ParticipantRegistered](r, events.TypeParticipantRegistered)
			if oerr != nil {
				return command.RegisterKey{}, err
			}
			// A legacy registration: a bare key (refused now for one's own).
			return command.RegisterKey{User: old.User, Role: old.Role, PublicKey: old.PublicKey}, nil
		}
		req := command.RegisterKey{SignedMessage: command.SignedMessage{Signed: d.Signed, Signature: d.Signature}}
		if d.Signed == "" {
			req = command.RegisterKey{User: d.User, Role: d.Role, Name: d.Name, PublicKey: d.PublicKey}
		}
		if a, _, err := find[events.DeviceApproved](r, events.TypeDeviceApproved); err == nil {
			req.Approval = &command.SignedMessage{Signed: a.Signed, Signature: a.Signature}
		}
		return req, nil
	}}

// keyApproveCmd is the catalogue's "key-approve".
var keyApproveCmd = def[command.ApproveDevice]{name: "key-approve", cli: "key approve",
	doc:      "journal-dice-v2: a device.approve of one of a user's devices, signed by another of its active devices",
	required: []string{"character", "signed", "signature"}, acting: "character",
	run: func(ctx ctx, j *j, c string, req command.ApproveDevice) (res, error) {
		return j.ApproveDevice(ctx, c, req)
	},
	inputs: func(cx ctx, jj *j, c string, r evs) (command.ApproveDevice, error) {
		d, _, err := find[events.DeviceApproved](r, events.TypeDeviceApproved)
		if err != nil {
			return command.ApproveDevice{}, err
		}
		return command.ApproveDevice{Character: characterOfPlayer(cx, jj, c, d.By),
			SignedMessage: command.SignedMessage{Signed: d.Signed, Signature: d.Signature}}, nil
	}}

// keyRevokeCmd is the catalogue's "key-revoke".
var keyRevokeCmd = def[command.RevokeDevice]{name: "key-revoke", cli: "key revoke",
	doc:      "journal-dice-v2: revoke a device: a device.revoke signed by a device of its user, or the GM's unsigned (user, public_key, reason: flagged revoked-by-other)",
	required: []string{"character"}, acting: "character",
	run: func(ctx ctx, j *j, c string, req command.RevokeDevice) (res, error) {
		return j.RevokeDevice(ctx, c, req)
	},
	inputs: func(cx ctx, jj *j, c string, r evs) (command.RevokeDevice, error) {
		d, _, err := find[events.DeviceRevoked](r, events.TypeDeviceRevoked)
		if err != nil {
			return command.RevokeDevice{}, err
		}
		ch := characterOfPlayer(cx, jj, c, d.By)
		if d.Signed == "" {
			return command.RevokeDevice{Character: ch, User: d.User, PublicKey: d.PublicKey, Reason: d.Reason}, nil
		}
		return command.RevokeDevice{Character: ch, SignedMessage: command.SignedMessage{Signed: d.Signed, Signature: d.Signature}}, nil
	}}
