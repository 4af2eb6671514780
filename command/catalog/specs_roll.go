package catalog

import (
	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// The commands of rolls: journal-dice-v1 rolls, free and secret rolls, and the journal-dice-v2 request, reveal, witness and resolution: one declaration each (see specs).

// rollCmd is the catalogue's "roll".
var rollCmd = def[command.RollRequest]{name: "roll", cli: "roll", doc: "a skill or attribute roll", required: []string{"character"}, acting: "character",
	run: func(ctx ctx, j *j, c string, req command.RollRequest) (res, error) {
		return j.Roll(ctx, c, req)
	},
	inputs: rollInputs}

// freeRollCmd is the catalogue's "free-roll".
var freeRollCmd = def[command.FreeRollRequest]{name: "free-roll", cli: "roll free",
	doc:      "a free roll of a dice expression (1d6, 2d10+3, 2d6+1d4-1): a player's for its character, the GM's for any or none; secret (the GM's) records it hidden until revealed",
	required: []string{"dice"}, acting: "character", actingOptional: true,
	run: func(ctx ctx, j *j, c string, req command.FreeRollRequest) (res, error) {
		return j.FreeRoll(ctx, c, req)
	},
	inputs: freeRollInputs}

// revealCmd is the catalogue's "reveal".
var revealCmd = def[command.RevealRequest]{name: "reveal", cli: "roll reveal-secret",
	doc:      "the GM reveals its secret roll (its roll.hidden event's id, or a part of it): the roll is recorded with its faces, drawn from the inputs recorded",
	required: []string{"request"},
	run: func(ctx ctx, j *j, c string, req command.RevealRequest) (res, error) {
		return j.Reveal(ctx, c, req.Request)
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (command.RevealRequest, error) {
		d, _, err := find[events.RollMade](r, events.TypeRollMade)
		if err != nil {
			return command.RevealRequest{}, err
		}
		return command.RevealRequest{Request: d.Hidden}, nil
	}}

// rollRequestCmd is the catalogue's "roll-request".
var rollRequestCmd = def[command.RollRequestSigned]{name: "roll-request", cli: "roll request",
	doc:      "journal-dice-v2: a device's signed roll.request (recorded with its nonce; nothing drawn); the character is the action's (the GM's free roll may name none)",
	required: []string{"signed", "signature"}, acting: "character", actingOptional: true,
	run: func(ctx ctx, j *j, c string, req command.RollRequestSigned) (res, error) {
		return j.RequestRoll(ctx, c, req)
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (command.RollRequestSigned, error) {
		d, _, err := find[events.RollRequested](r, events.TypeRollRequested)
		if err != nil {
			// Hope re-judging a v2 roll records no request (v2_tor.go).
			if h, _, herr := find[events.TORHopeSpent](r, events.TypeTORHopeSpent); herr == nil && h.Signed != "" {
				return command.RollRequestSigned{Character: h.Character,
					SignedMessage: command.SignedMessage{Signed: h.Signed, Signature: h.Signature}}, nil
			}
			return command.RollRequestSigned{}, err
		}
		return command.RollRequestSigned{Character: d.Character,
			SignedMessage: command.SignedMessage{Signed: d.Signed, Signature: d.Signature}, Wait: d.Wait}, nil
	}}

// rollRevealCmd is the catalogue's "roll-reveal".
var rollRevealCmd = def[command.RollRevealSigned]{name: "roll-reveal", cli: "roll reveal",
	doc:      "journal-dice-v2: a device's signed roll.reveal of its request's r: the roll is drawn and recorded",
	required: []string{"character", "signed", "signature"}, acting: "character",
	run: func(ctx ctx, j *j, c string, req command.RollRevealSigned) (res, error) {
		return j.RevealRoll(ctx, c, req)
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (command.RollRevealSigned, error) {
		d, _, err := find[events.RollMade](r, events.TypeRollMade)
		if err != nil {
			return command.RollRevealSigned{}, err
		}
		return command.RollRevealSigned{Character: d.Character,
			SignedMessage: command.SignedMessage{Signed: d.Signed, Signature: d.Signature}}, nil
	}}

// rollProveCmd is the catalogue's "roll-prove".
var rollProveCmd = def[command.RollRevealSigned]{name: "roll-prove", cli: "roll prove",
	doc:      "journal-dice-v2: a device's signed roll.reveal sent again: a pending request's roll is drawn; a cancelled one records the roll it would have been (journal.roll.proved.v1, no consequence)",
	required: []string{"character", "signed", "signature"}, acting: "character",
	run: func(ctx ctx, j *j, c string, req command.RollRevealSigned) (res, error) {
		return j.ProveRoll(ctx, c, req)
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (command.RollRevealSigned, error) {
		if d, _, err := find[events.RollProved](r, events.TypeRollProved); err == nil {
			return command.RollRevealSigned{Character: d.Character,
				SignedMessage: command.SignedMessage{Signed: d.Signed, Signature: d.Signature}}, nil
		}
		d, _, err := find[events.RollMade](r, events.TypeRollMade)
		if err != nil {
			return command.RollRevealSigned{}, err
		}
		return command.RollRevealSigned{Character: d.Character,
			SignedMessage: command.SignedMessage{Signed: d.Signed, Signature: d.Signature}}, nil
	}}

// rollWitnessCmd is the catalogue's "roll-witness".
var rollWitnessCmd = def[command.RollWitnessSigned]{name: "roll-witness", cli: "roll witness",
	doc:      "journal-dice-v2: a player's device's signed roll.witness of a GM's request: in a session of witness chains its chain's value for the request's index, the roll drawn when every contributing device's is in; in an older session its value is r and the first draws the roll",
	required: []string{"character", "signed", "signature"}, acting: "character",
	run: func(ctx ctx, j *j, c string, req command.RollWitnessSigned) (res, error) {
		return j.Witness(ctx, c, req)
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (command.RollWitnessSigned, error) {
		if w, ev, err := find[events.RollWitnessed](r, events.TypeRollWitnessed); err == nil {
			// A witness of a session of witness chains, filed under
			// the request's character: the character is for the
			// permissions only, as below.
			_, character, err := ev.Aggregate()
			if err != nil {
				return command.RollWitnessSigned{}, err
			}
			return command.RollWitnessSigned{Character: character,
				SignedMessage: command.SignedMessage{Signed: w.Signed, Signature: w.Signature}}, nil
		}
		d, _, err := find[events.RollMade](r, events.TypeRollMade)
		if err != nil {
			return command.RollWitnessSigned{}, err
		}
		// The witness's own character is for the permissions only
		// (the roll does not record it): any character re-runs it.
		return command.RollWitnessSigned{Character: d.Character,
			SignedMessage: command.SignedMessage{Signed: d.Signed, Signature: d.Signature}}, nil
	}}

// rollReceiptCmd is the catalogue's "roll-receipt".
var rollReceiptCmd = def[command.RollReceiptSigned]{name: "roll-receipt", cli: "roll receipt",
	doc:      "journal-dice-v2: a player's device's signed beacon.receipt of a GM's beacon request, before its round",
	required: []string{"character", "signed", "signature"}, acting: "character",
	run: func(ctx ctx, j *j, c string, req command.RollReceiptSigned) (res, error) {
		return j.Receipt(ctx, c, req)
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (command.RollReceiptSigned, error) {
		d, ev, err := find[events.RollReceipted](r, events.TypeRollReceipted)
		if err != nil {
			return command.RollReceiptSigned{}, err
		}
		// Filed under the request's character: for the permissions
		// only, as a witness's.
		_, character, err := ev.Aggregate()
		if err != nil {
			return command.RollReceiptSigned{}, err
		}
		return command.RollReceiptSigned{Character: character, SignedMessage: command.SignedMessage{Signed: d.Signed, Signature: d.Signature}}, nil
	}}

// rollResolveCmd is the catalogue's "roll-resolve".
var rollResolveCmd = def[command.RollResolveRequest]{name: "roll-resolve", cli: "roll resolve",
	doc:      "journal-dice-v2: the GM resolves its request unwitnessed (after its wait; the audit lists it) or by its beacon round",
	required: []string{"request"},
	run: func(ctx ctx, j *j, c string, req command.RollResolveRequest) (res, error) {
		switch {
		case req.Unwitnessed == (req.Beacon || req.Signature != ""):
			return res{}, msgerr.Errorf("%w: resolve request %s either unwitnessed or by the beacon", command.ErrInvalid, req.Request)
		case req.Unwitnessed:
			return j.ResolveUnwitnessed(ctx, c, req.Request)
		}
		return j.ResolveBeacon(ctx, c, req.Request, req.Signature)
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (command.RollResolveRequest, error) {
		d, _, err := find[events.RollMade](r, events.TypeRollMade)
		if err != nil {
			return command.RollResolveRequest{}, err
		}
		if d.Witness == command.WitnessBeacon {
			return command.RollResolveRequest{Request: d.Request, Beacon: true, Signature: d.BeaconSignature}, nil
		}
		return command.RollResolveRequest{Request: d.Request, Unwitnessed: true}, nil
	}}

// rollCancelCmd is the catalogue's "roll-cancel".
var rollCancelCmd = def[command.RollCancelRequest]{name: "roll-cancel", cli: "roll cancel",
	doc:      "journal-dice-v2: cancel a roll request left unrevealed (its nonce stays consumed)",
	required: []string{"request", "reason"},
	run: func(ctx ctx, j *j, c string, req command.RollCancelRequest) (res, error) {
		return j.CancelRoll(ctx, c, req.Request, req.Reason)
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (command.RollCancelRequest, error) {
		d, _, err := find[events.RollCancelled](r, events.TypeRollCancelled)
		if err != nil {
			return command.RollCancelRequest{}, err
		}
		return command.RollCancelRequest{Request: d.Request, Reason: d.Reason}, nil
	}}
