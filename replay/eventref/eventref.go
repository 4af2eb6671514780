// Package eventref finds the event a user names on the command line — by
// its stream sequence, its whole id, or a unique start or end of it (the
// short id 'journal log' prints) — in a replay.Source, and the roll
// request a user names among a campaign's roll requests.
//
// Invariants:
//   - A whole id wins over a sequence, a sequence over a part of an id; a
//     part of an id has at least minFragment characters.
//   - Matching ignores case and the spaces around the argument.
//   - A part that matches several events is an error listing at most
//     maxCandidates of them, wrapping ErrAmbiguous; nothing matching is an
//     error wrapping events.ErrNotFound. An error's message is its whole
//     text.
//   - It only reads the Source: it never writes, and stops reading at a
//     whole id.
package eventref

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/replay"
)

// ErrAmbiguous is the error of a part of an id that matches several
// events; an argument that matches none is an error wrapping
// events.ErrNotFound.
var ErrAmbiguous = msgerr.New("ambiguous event")

// eventError is an error of Resolve: its message is the whole text, and
// it wraps kind.
type eventError struct {
	msg  string
	kind error
}

func (e eventError) Error() string { return e.msg }
func (e eventError) Unwrap() error { return e.kind }

// minFragment is the shortest part of an event id Resolve matches.
const minFragment = 4

// maxCandidates is how many candidates an ambiguous fragment lists.
const maxCandidates = 8

// Resolve finds the event arg names in src, in this order: a whole event
// id; a stream sequence (all digits, as 'journal log' prints it); a unique
// part of an id, its start or its end (log's short id is the last 8 hex
// digits), at least minFragment characters. A fragment that matches
// several events is an error listing them; nothing matching is an error
// wrapping events.ErrNotFound. where names src in messages.
func Resolve(ctx context.Context, src replay.Source, arg, where string) (events.Recorded, error) {
	arg = strings.ToLower(strings.TrimSpace(arg))
	if arg == "" {
		return events.Recorded{}, msgerr.Errorf("no event given: pass a sequence number or an event id (see 'journal log')")
	}
	seq, seqErr := strconv.ParseUint(arg, 10, 64)
	isSeq := seqErr == nil && seq > 0
	fragment := len(arg) >= minFragment
	var (
		exact, bySeq *events.Recorded
		matches      []events.Recorded
		n            int
		sawSeq       bool
	)
	stop := msgerr.New("found")
	err := src(ctx, replay.EventsOnly(func(r events.Recorded) error {
		id := strings.ToLower(r.Event.ID)
		switch {
		case id == arg:
			exact = &r
			return stop
		case isSeq && r.Seq == seq:
			bySeq = &r
		case fragment && (strings.HasPrefix(id, arg) || strings.HasSuffix(id, arg)):
			if len(matches) < maxCandidates {
				matches = append(matches, r)
			}
			n++
		}
		sawSeq = sawSeq || r.Seq != 0
		return nil
	}))
	if err != nil && !errors.Is(err, stop) {
		return events.Recorded{}, err
	}
	switch {
	case exact != nil:
		return *exact, nil
	case bySeq != nil:
		return *bySeq, nil
	case n == 1:
		return matches[0], nil
	case n > 1:
		list := make([]string, len(matches))
		for i, m := range matches {
			list[i] = candidate(m)
		}
		more := ""
		if n > len(matches) {
			more = fmt.Sprintf(" and %d more", n-len(matches))
		}
		return events.Recorded{}, eventError{kind: ErrAmbiguous, msg: fmt.Sprintf("%q matches %d events in %s: %s%s; give more of the id, or the sequence number",
			arg, n, where, strings.Join(list, ", "), more)}
	}
	hint := ""
	switch {
	case isSeq && !sawSeq:
		hint = " (an export has no sequence numbers: give the event's id or its short id)"
	case !isSeq && !fragment:
		hint = fmt.Sprintf(" (a part of an id needs at least %d characters)", minFragment)
	}
	return events.Recorded{}, eventError{kind: events.ErrNotFound, msg: fmt.Sprintf("no event %s in %s%s; give a sequence number or an id as 'journal log' prints them", clip.Text(arg), where, hint)}
}

// candidate names an event in an ambiguity error.
func candidate(r events.Recorded) string {
	s := r.Event.ID + " (" + r.Event.Type
	if r.Seq != 0 {
		s = fmt.Sprintf("#%d %s", r.Seq, s)
	}
	return s + ")"
}

// ResolveRequest resolves arg to the request id of one of the
// journal-dice-v2 roll requests in src, campaign's events: the stream
// sequence, the event id or a unique part of it (see Resolve), or a
// unique start or end of the request id (at least minFragment
// characters, as 'journal log' shortens them), among the
// journal.roll.requested.v1 events. Several matches are an error listing
// them; none an error wrapping events.ErrNotFound. A whole request id is
// the caller's to pass on without reading src.
func ResolveRequest(ctx context.Context, src replay.Source, arg, campaign string) (string, error) {
	arg = strings.ToLower(strings.TrimSpace(arg))
	requestOf := func(r events.Recorded) string {
		var d struct {
			Request string `json:"request"`
		}
		if r.Event.Type != events.TypeRollRequested || json.Unmarshal(r.Event.Data, &d) != nil {
			return ""
		}
		return strings.ToLower(d.Request)
	}
	// The requests' events, with their request ids matched as ids too.
	var byRequest []events.Recorded
	requests := func(ctx context.Context, fn func(replay.Input) error) error {
		return src(ctx, func(in replay.Input) error {
			req := requestOf(in.Recorded)
			if in.Foreign != nil || req == "" {
				return nil
			}
			if len(arg) >= minFragment && (strings.HasPrefix(req, arg) || strings.HasSuffix(req, arg)) {
				byRequest = append(byRequest, in.Recorded)
			}
			return fn(in)
		})
	}
	r, err := Resolve(ctx, requests, arg, "the roll requests of campaign "+campaign)
	switch {
	case err == nil:
		return requestOf(r), nil
	case errors.Is(err, events.ErrNotFound) && len(byRequest) == 1:
		return requestOf(byRequest[0]), nil
	case errors.Is(err, events.ErrNotFound) && len(byRequest) > 1:
		list := make([]string, 0, min(len(byRequest), maxCandidates))
		for _, m := range byRequest[:min(len(byRequest), maxCandidates)] {
			list = append(list, requestOf(m)+" "+candidate(m))
		}
		return "", eventError{kind: ErrAmbiguous, msg: fmt.Sprintf("%q matches %d roll requests in campaign %s: %s; give more of the request id",
			arg, len(byRequest), campaign, strings.Join(list, ", "))}
	}
	return "", err
}
