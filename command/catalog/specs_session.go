package catalog

import (
	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/rules/dice"
)

// The commands of sessions: their start, end, co-signatures and contributions: one declaration each (see specs).

// sessionStartCmd is the catalogue's "session-start".
var sessionStartCmd = def[command.SessionStart]{name: "session-start", cli: "session start", doc: "start a session: commit to its secret seed",
	run: func(ctx ctx, j *j, c string, req command.SessionStart) (res, error) {
		return j.StartSessionWith(ctx, c, req)
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (command.SessionStart, error) {
		d, e, err := find[events.SessionStarted](r, events.TypeSessionStarted)
		if err != nil {
			return command.SessionStart{}, err
		}
		// The algorithm recorded, explicitly: the default depends on
		// the campaign's keys (command.DefaultDice).
		b := command.SessionStart{ID: e.Session, Title: d.Title, Dice: command.DiceV1}
		if d.Algorithm == dice.AlgorithmV2 {
			b.Dice = command.DiceV2
		}
		return b, nil
	}}

// sessionEndCmd is the catalogue's "session-end".
var sessionEndCmd = def[NoBody]{name: "session-end", cli: "session end", doc: "end the session in progress: reveal its seed",
	run: func(ctx ctx, j *j, c string, _ NoBody) (res, error) {
		return j.EndSession(ctx, c)
	},
	inputs: expect(events.TypeSessionEnded)}

// sessionCosignCmd is the catalogue's "session-cosign".
var sessionCosignCmd = def[command.CosignSigned]{name: "session-cosign", cli: "session cosign",
	doc:      "journal-dice-v2: a device's signed co-signature of an ended session's session-ended event (by its hash)",
	required: []string{"character", "signed", "signature"}, acting: "character",
	run: func(ctx ctx, j *j, c string, req command.CosignSigned) (res, error) {
		return j.Cosign(ctx, c, req)
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (command.CosignSigned, error) {
		d, _, err := find[events.SessionCosigned](r, events.TypeSessionCosigned)
		if err != nil {
			return command.CosignSigned{}, err
		}
		return command.CosignSigned{Character: d.Character,
			SignedMessage: command.SignedMessage{Signed: d.Signed, Signature: d.Signature}}, nil
	}}

// sessionContributeCmd is the catalogue's "session-contribute".
var sessionContributeCmd = def[command.ContributeSigned]{name: "session-contribute", cli: "session contribute",
	doc:      "journal-dice-v2: a device's signed contribution to the session key (before the first roll request)",
	required: []string{"character", "signed", "signature"}, acting: "character",
	run: func(ctx ctx, j *j, c string, req command.ContributeSigned) (res, error) {
		return j.Contribute(ctx, c, req)
	},
	inputs: func(_ ctx, _ *j, _ string, r evs) (command.ContributeSigned, error) {
		d, _, err := find[events.SessionContributed](r, events.TypeSessionContributed)
		if err != nil {
			return command.ContributeSigned{}, err
		}
		return command.ContributeSigned{Character: d.Character,
			SignedMessage: command.SignedMessage{Signed: d.Signed, Signature: d.Signature}}, nil
	}}
