package recorder

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/projections"
)

// Recorded is how a recorded event prints with --json.
type Recorded struct {
	Seq   uint64       `json:"seq"`
	Text  string       `json:"text"`
	Event events.Event `json:"event"`
}

// Describe renders the lines of freshly recorded events, folding them onto
// before (the state before them, StateBefore's): one line per event, its
// type when the transcript cannot describe it.
func Describe(l i18n.Lang, before *projections.Campaign, recs []events.Recorded) []string {
	tr := &projections.Transcript{Campaign: before, Lang: l}
	for _, r := range recs {
		if err := tr.Apply(r); err != nil {
			tr.Lines = append(tr.Lines, projections.Line{Text: r.Event.Type})
		}
	}
	out := make([]string, len(tr.Lines))
	for i, l := range tr.Lines {
		out[i] = l.Text
	}
	return out
}

// Document is what res recorded as the --json document: its events
// ("recorded", each with its line of lines, Describe's), the secret it
// returns ("secret") and whether the request had been recorded already
// ("repeated").
func Document(res command.Result, lines []string) map[string]any {
	out := make([]Recorded, len(res.Events))
	for i, r := range res.Events {
		out[i] = Recorded{Seq: r.Seq, Text: lines[i], Event: r.Event}
	}
	doc := map[string]any{"recorded": out}
	if len(res.Secret) > 0 {
		doc["secret"] = res.Secret
	}
	if res.Repeated {
		doc["repeated"] = true
	}
	return doc
}

// Text prints what res recorded to w: that its request had been recorded
// already (once), then one transcript line per event (lines, Describe's)
// with its event id and sequence.
func Text(w io.Writer, l i18n.Lang, res command.Result, lines []string) {
	if res.Repeated {
		fmt.Fprintln(w, l.T("rec.repeated", res.Events[0].Event.RequestID))
	}
	for i, r := range res.Events {
		fmt.Fprintf(w, "%s\n    %s\n", lines[i], l.T("rec.event", r.Event.ID, r.Seq))
	}
}

// Merge is the results of several steps of one command as one, to report
// together: their events in order, repeated if any step's was.
func Merge(results ...command.Result) command.Result {
	var all command.Result
	for _, r := range results {
		all.Events = append(all.Events, r.Events...)
		all.Repeated = all.Repeated || r.Repeated
	}
	return all
}

// BodyJSON is v as a catalogued command's JSON body: v itself when it is
// []byte already, else v marshalled.
func BodyJSON(v any) ([]byte, error) {
	if b, ok := v.([]byte); ok {
		return b, nil
	}
	return json.Marshal(v)
}
