package reproduce

import (
	"encoding/json"
	"fmt"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/rolls"
)

// Rules versions (docs/rules.md part 4): a recorded roll is
// re-run under the rules version it records, never under another. A group
// holding a roll of a version this journal has no judge for is not re-run
// (MismatchUnknownRules); a roll recorded before rolls recorded their
// version reads as rolls.Version says, and its reproduction agrees when it
// is recorded under that same version.

// unknownRules returns the first roll of g (a roll event or a secret
// roll's hidden event) whose rules version this journal does not judge,
// and that version; ok false when every roll's is known.
func unknownRules(g []rec) (rec, string, bool) {
	for _, x := range g {
		var in events.RollMade
		switch x.Event.Type {
		case events.TypeRollMade:
			if x.Event.DecodeData(&in) != nil {
				continue
			}
		case events.TypeRollHidden:
			var h events.RollHidden
			if x.Event.DecodeData(&h) != nil {
				continue
			}
			in = h.Inputs()
		default:
			continue
		}
		if v := rolls.Version(in); !rolls.Known(v) {
			return x, v, true
		}
	}
	return rec{}, "", false
}

// unknownRulesWhat says why a group is not re-run.
func unknownRulesWhat(g []rec, version string) string {
	return fmt.Sprintf("%s: recorded under rules %q, which this journal does not judge (it judges %v); not re-run, the recorded events are copied",
		describeGroup(g), clip(version, 40), rolls.Versions())
}

// withRecordedRules is got's data without its "rules" member when the
// recorded roll want has none (it was recorded before rolls named their
// version) and the version that absence reads as (rolls.Version) judges
// the reproduced roll as the reproduction's own version does
// (rolls.Alike): the roll is then what the journal recorded, under the
// rules it was recorded under. Otherwise the diff names the rules member.
func withRecordedRules(want events.Event, got json.RawMessage) json.RawMessage {
	if want.Type != events.TypeRollMade && want.Type != events.TypeRollHidden {
		return got
	}
	var w, g map[string]json.RawMessage
	if json.Unmarshal(want.Data, &w) != nil || json.Unmarshal(got, &g) != nil {
		return got
	}
	if _, ok := w["rules"]; ok {
		return got
	}
	if _, ok := g["rules"]; !ok {
		return got
	}
	recorded, ok := rollData(want.Type, want.Data)
	if !ok {
		return got
	}
	again, ok := rollData(want.Type, got)
	if !ok || !rolls.Alike(rolls.Version(recorded), rolls.Version(again), again) {
		return got
	}
	delete(g, "rules")
	b, err := json.Marshal(g)
	if err != nil {
		return got
	}
	return b
}

// rollData decodes a roll event's data, or a secret roll's hidden event's
// inputs.
func rollData(typ string, data json.RawMessage) (events.RollMade, bool) {
	var in events.RollMade
	if typ == events.TypeRollHidden {
		var h events.RollHidden
		if json.Unmarshal(data, &h) != nil {
			return in, false
		}
		return h.Inputs(), true
	}
	return in, json.Unmarshal(data, &in) == nil
}
