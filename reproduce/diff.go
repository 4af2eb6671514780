package reproduce

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/replay"
)

// compareGroup compares the events a re-run command stored (got) with the
// recorded ones: rolls in order (nonce by nonce), other events by type in
// order, then what is left on either side.
func (r *reproducer) compareGroup(sess *Session, what string, g []rec, got []events.Recorded) {
	used := make([]bool, len(got))
	next := func(want events.Event) int {
		for k, x := range got {
			if !used[k] && x.Event.Type == want.Type {
				return k
			}
		}
		return -1
	}
	for _, x := range g {
		want := x.Event
		k := next(want)
		wantRoll := rollOf(want)
		var m replay.Mismatch
		if k < 0 {
			m = r.locate(MismatchNotReproduced, x, fmt.Sprintf("%s did not produce this %s event", what, shortType(want.Type)))
		} else {
			used[k] = true
			diffs := diffEvents(want, got[k].Event)
			if wantRoll != nil && sess != nil {
				sess.Rolls++
				if len(diffs) == 0 {
					sess.Identical++
				}
			}
			if len(diffs) == 0 {
				continue
			}
			m = r.locate(MismatchReproduced, x, fmt.Sprintf("%s: %s", what, strings.Join(diffs, "; ")))
		}
		if wantRoll != nil {
			n := wantRoll.Nonce
			m.Nonce = &n
			if k < 0 && sess != nil {
				sess.Rolls++
			}
		}
		r.mismatch(sess, m)
	}
	for k, x := range got {
		if used[k] {
			continue
		}
		m := replay.Mismatch{Kind: MismatchExtra, EventID: x.Event.ID, Campaign: x.Event.Campaign, Session: x.Event.Session,
			What: fmt.Sprintf("%s also produced a %s event that is not recorded: %s", what, shortType(x.Event.Type), clip(string(x.Event.Data), 300))}
		if d := rollOf(x.Event); d != nil {
			n := d.Nonce
			m.Nonce = &n
		}
		r.mismatch(sess, m)
	}
}

func shortType(t string) string {
	return strings.TrimSuffix(strings.TrimPrefix(t, "journal."), ".v1")
}

// diffEvents lists what differs between a recorded event and its
// reproduction: the envelope, then the data field by field (faces, total
// and outcome first).
func diffEvents(want, got events.Event) []string {
	var out []string
	field := func(name, w, g string) {
		if w != g {
			out = append(out, fmt.Sprintf("%s recorded %q, reproduced %q", name, w, g))
		}
	}
	field("id", want.ID, got.ID)
	field("type", want.Type, got.Type)
	field("subject", want.Subject, got.Subject)
	field("session", want.Session, got.Session)
	field("actor", want.Actor, got.Actor)
	field("causation", want.CausationID, got.CausationID)
	if !want.Time.Equal(got.Time) {
		out = append(out, fmt.Sprintf("time recorded %s, reproduced %s", want.Time.Format(time.RFC3339Nano), got.Time.Format(time.RFC3339Nano)))
	}
	return append(out, diffJSON(want.Data, withRecordedRules(want, withoutLaterFields(want, got.Data)))...)
}

// laterFields are data members an event type gained after events of it
// were recorded: a recorded event without one was recorded before it, and
// its reproduction's is not compared (the verifier judges it when recorded).
var laterFields = map[string][]string{
	events.TypeContestResolved: {"critical"},
}

// withoutLaterFields is got's data without the later fields that the
// recorded event want lacks.
func withoutLaterFields(want events.Event, got json.RawMessage) json.RawMessage {
	names := laterFields[want.Type]
	if len(names) == 0 {
		return got
	}
	var w, g map[string]json.RawMessage
	if json.Unmarshal(want.Data, &w) != nil || json.Unmarshal(got, &g) != nil {
		return got
	}
	dropped := false
	for _, n := range names {
		if _, ok := w[n]; !ok {
			if _, ok := g[n]; ok {
				delete(g, n)
				dropped = true
			}
		}
	}
	if !dropped {
		return got
	}
	b, err := json.Marshal(g)
	if err != nil {
		return got
	}
	return b
}

// diffJSON compares two JSON objects key by key.
func diffJSON(want, got json.RawMessage) []string {
	if bytes.Equal(want, got) {
		return nil
	}
	var w, g map[string]any
	if json.Unmarshal(want, &w) != nil || json.Unmarshal(got, &g) != nil {
		if string(want) != string(got) {
			return []string{fmt.Sprintf("data recorded %s, reproduced %s", clip(string(want), 200), clip(string(got), 200))}
		}
		return nil
	}
	order := keysOfBoth(w, g)
	rank := map[string]int{"nonce": 1, "faces": 2, "total": 3, "outcome": 4}
	sort.Slice(order, func(a, b int) bool {
		ra, rb := rank[order[a]], rank[order[b]]
		if ra == 0 {
			ra = 99
		}
		if rb == 0 {
			rb = 99
		}
		if ra != rb {
			return ra < rb
		}
		return order[a] < order[b]
	})
	var out []string
	for _, k := range order {
		wv, wok := w[k]
		gv, gok := g[k]
		if wok == gok && reflect.DeepEqual(wv, gv) {
			continue
		}
		out = append(out, fmt.Sprintf("%s recorded %s, reproduced %s", k, jsonText(wv, wok), jsonText(gv, gok)))
	}
	return out
}

func jsonText(v any, ok bool) string {
	if !ok {
		return "(none)"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return clip(string(b), 200)
}

// compareSheets compares the character sheets folded from the recorded
// events (up to where the reproduction stopped) with the reproduction's.
func (r *reproducer) compareSheets(ctx context.Context, rc *Campaign, recorded []rec) {
	want := projections.NewCampaign(rc.Campaign)
	voids := map[string]string{}
	for _, x := range recorded {
		if x.Event.Type == events.TypeEventVoided {
			var v events.EventVoided
			if x.Event.DecodeData(&v) == nil {
				voids[v.EventID] = v.Reason
			}
		}
	}
	want.KnowVoids(voids)
	for _, x := range recorded {
		_ = want.Apply(x.Recorded) // Verify reports what does not fold
	}
	got, err := r.j.Load(ctx, rc.Campaign, 0)
	if err != nil {
		got = projections.NewCampaign(rc.Campaign)
	}
	ws, gs := sheetsOf(want), sheetsOf(got)
	sorted := keysOfBoth(ws, gs)
	rc.Characters = len(sorted)
	rc.SheetsIdentical = true
	for _, id := range sorted {
		w, wok := ws[id]
		g, gok := gs[id]
		var what string
		switch {
		case !gok:
			what = "the reproduction has no such character"
		case !wok:
			what = "the record has no such character"
		default:
			d := diffJSON(w, g)
			if len(d) == 0 {
				continue
			}
			what = strings.Join(d, "; ")
		}
		rc.SheetsIdentical = false
		r.mismatch(nil, replay.Mismatch{Kind: MismatchSheet, Campaign: rc.Campaign, What: fmt.Sprintf("final sheet of %s: %s", id, what)})
	}
}

// sheetsOf returns each character's sheet as JSON, without the stream
// sequences (an export has none; the reproduction numbers its own).
func sheetsOf(c *projections.Campaign) map[string]json.RawMessage {
	out := map[string]json.RawMessage{}
	add := func(id string, v any) {
		b, err := json.Marshal(v)
		if err != nil {
			return
		}
		var m any
		if json.Unmarshal(b, &m) != nil {
			return
		}
		b, _ = json.Marshal(withoutSeqs(m))
		out[id] = b
	}
	for id, s := range c.Characters {
		add(id, s)
	}
	if c.TOR != nil {
		for id, s := range c.TOR.Characters {
			add(id, s)
		}
	}
	return out
}

func withoutSeqs(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if k == "seq" || strings.HasSuffix(k, "_seq") {
				delete(x, k)
				continue
			}
			x[k] = withoutSeqs(e)
		}
	case []any:
		for i, e := range x {
			x[i] = withoutSeqs(e)
		}
	}
	return v
}

// keysOfBoth returns the keys of a and b, each once, in lexical order.
func keysOfBoth[V any](a, b map[string]V) []string {
	keys := make([]string, 0, len(a)+len(b))
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, dup := a[k]; !dup {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}
