package catalog

import (
	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
)

// The commands of voids, and the table's roll calls and void proposals (command/calls.go, command/void_proposals.go): one declaration each (see specs).

// voidCmd is the catalogue's "void".
var voidCmd = def[command.VoidRequest]{name: "void", cli: "void", doc: "correct a mistake: the event stays, the sheets leave it out", required: []string{"event_id", "reason"},
	run: func(ctx ctx, j *j, c string, req command.VoidRequest) (res, error) {
		return j.VoidWithConsent(ctx, c, req.EventID, req.Reason,
			command.SignedMessage{Signed: req.ConsentSigned, Signature: req.ConsentSignature})
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (command.VoidRequest, error) {
		d, _, err := find[events.EventVoided](r, events.TypeEventVoided)
		if err != nil {
			return command.VoidRequest{}, err
		}
		return command.VoidRequest{EventID: d.EventID, Reason: d.Reason, ConsentSigned: d.ConsentSigned, ConsentSignature: d.ConsentSignature}, nil
	}}

// callCmd is the catalogue's "call".
var callCmd = def[command.CallRequest]{name: "call", cli: "call", doc: "the GM's roll call: characters to roll a skill or attribute (named as the rules do), against a difficulty, with a note; each answers once with a roll naming the call",
	required: []string{"characters"},
	run: func(ctx ctx, j *j, c string, req command.CallRequest) (res, error) {
		return j.MakeCall(ctx, c, req)
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (command.CallRequest, error) {
		d, _, err := find[events.CallMade](r, events.TypeCallMade)
		if err != nil {
			return command.CallRequest{}, err
		}
		return command.CallRequest{Characters: d.Characters, Skill: d.Skill, Attribute: d.Attribute, Vs: d.Vs, Note: d.Note}, nil
	}}

// callCloseCmd is the catalogue's "call-close".
var callCloseCmd = def[command.CallClose]{name: "call-close", cli: "call close", doc: "close a roll call: it takes no more answers", required: []string{"call"},
	run: func(ctx ctx, j *j, c string, req command.CallClose) (res, error) {
		return j.CloseCall(ctx, c, req)
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (command.CallClose, error) {
		d, _, err := find[events.CallClosed](r, events.TypeCallClosed)
		if err != nil {
			return command.CallClose{}, err
		}
		return command.CallClose{Call: d.Call, Reason: d.Reason}, nil
	}}

// voidProposeCmd is the catalogue's "void-propose".
var voidProposeCmd = def[command.VoidPropose]{name: "void-propose", cli: "void propose", doc: "journal-dice-v2: propose to void a roll, asking its roller's signed consent", required: []string{"event_id", "reason"},
	run: func(ctx ctx, j *j, c string, req command.VoidPropose) (res, error) {
		return j.ProposeVoid(ctx, c, req)
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (command.VoidPropose, error) {
		d, _, err := find[events.VoidProposed](r, events.TypeVoidProposed)
		if err != nil {
			return command.VoidPropose{}, err
		}
		return command.VoidPropose{EventID: d.EventID, Reason: d.Reason}, nil
	}}

// voidConsentCmd is the catalogue's "void-consent".
var voidConsentCmd = def[command.VoidConsent]{name: "void-consent", cli: "void consent", doc: "journal-dice-v2: a roller's device's signed void.consent for a void proposal",
	required: []string{"character", "proposal", "signed", "signature"}, acting: "character",
	run: func(ctx ctx, j *j, c string, req command.VoidConsent) (res, error) {
		return j.ConsentVoid(ctx, c, req)
	},
	inputs: func(cx ctx, j *j, campaign string, r evs) (command.VoidConsent, error) {
		d, _, err := find[events.VoidConsented](r, events.TypeVoidConsented)
		if err != nil {
			return command.VoidConsent{}, err
		}
		character := ""
		if c, err := j.Load(cx, campaign, 0); err == nil {
			if p := c.OpenVoidProposal(d.Proposal); p != nil {
				character = p.Character
			}
		}
		return command.VoidConsent{Character: character, Proposal: d.Proposal,
			SignedMessage: command.SignedMessage{Signed: d.Signed, Signature: d.Signature}}, nil
	}}
