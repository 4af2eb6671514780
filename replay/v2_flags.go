package replay

// The flags of journal-dice-v2 (docs/design.md §3.2): what the audit reports
// about a session without failing it. Each has a machine-readable code, the
// event it is about, and its words in English (What; WhatIn in any
// language). A report with flags and no mismatch is "verified with flags"
// (the CLI's exit status 5).

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/internal/own"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rules/dice"
)

// FlagCode names what a flag is about.
type FlagCode string

// The codes of the flags.
const (
	// FlagNoContribution: a v2 session whose key has no contribution from
	// anyone but the GM (the host's seed alone, or with the GM's own
	// contributions: countsAsPlayers).
	FlagNoContribution FlagCode = "no-contribution"
	// FlagCancelled: a request the GM cancelled (its nonce consumed, no roll).
	FlagCancelled FlagCode = "cancelled"
	// FlagUnrevealed: a request never revealed by the end of its session.
	FlagUnrevealed FlagCode = "unrevealed"
	// FlagKeyByOther: a user's device registered by someone else (the
	// GM), or registered next to another active device of its user and
	// never approved by one (v2_devices.go).
	FlagKeyByOther FlagCode = "key-by-other"
	// FlagRevokedByOther: a user's device revoked by someone else (the GM).
	FlagRevokedByOther FlagCode = "revoked-by-other"
	// FlagKeyUnproved: a legacy journal.participant.registered.v1: a key
	// registered with no proof that its user holds it.
	FlagKeyUnproved FlagCode = "key-unproved"
	// FlagNotCosigned: an ended v2 session whose end no player's device co-signed.
	FlagNotCosigned FlagCode = "not-cosigned"
	// FlagVoided: a voided v2 roll, with or without its roller's consent.
	FlagVoided FlagCode = "voided"
	// FlagStale: a v2 session not ended (its seed not revealed) long after its last event.
	FlagStale FlagCode = "stale"
	// FlagOpen: a v2 session not ended (yet): its seed is not revealed, so
	// its rolls cannot be checked, and an export cut before a session's
	// end looks like this (docs/design.md §3.3). Past StaleAfter it is stale.
	FlagOpen FlagCode = "open"
	// FlagRepeated: a roll asked for again for the same action by the same
	// roller in the same session, after the first was revealed.
	FlagRepeated FlagCode = "repeated"
	// FlagUnwitnessed: a GM roll resolved with the server's r after its wait.
	FlagUnwitnessed FlagCode = "unwitnessed"
	// FlagWitnessKeyByOther: a GM roll witnessed under a key someone else registered.
	FlagWitnessKeyByOther FlagCode = "witness-key-by-other"
	// FlagBeaconNotUsed: a request that named a beacon round, resolved by a witness instead.
	FlagBeaconNotUsed FlagCode = "beacon-not-used"
	// FlagPartialWitness: a GM roll of witness chains the GM resolved
	// after its wait without every contributing device's value (who is
	// missing is named).
	FlagPartialWitness FlagCode = "partial-witness"
	// FlagBeaconUnseen: a beacon roll whose request no player's device
	// receipted before its round: only the host knew of it while the
	// round's randomness was unknown.
	FlagBeaconUnseen FlagCode = "beacon-unseen"
	// FlagEmpty: a session (v1 or v2) ended with no roll event: a host
	// can shop for a seed by starting and ending sessions until one
	// suits it (docs/design.md §3.3, "No downgrade, no shopping").
	FlagEmpty FlagCode = "empty"
	// FlagDowngrade: a journal-dice-v1 session started while a device key
	// was registered in its campaign: its seed was the host's to read. The
	// journal refuses one since 2026-12-01 (docs/design.md §3.3, "No
	// downgrade"); an older record may hold one.
	FlagDowngrade FlagCode = "downgrade"
)

// DefaultStaleAfter is how long after its last event an unended v2
// session is flagged as not revealed (Options.StaleAfter 0).
const DefaultStaleAfter = 30 * 24 * time.Hour

// Flag is one thing the audit flags without failing.
type Flag struct {
	Code FlagCode `json:"code"`
	// EventID is the event the flag is about.
	EventID string `json:"event_id,omitempty"`
	// What says it in words (English; WhatIn in any language).
	What string `json:"what"`
	msg  text
}

// newFlag returns the flag of code about event, in the catalogue's words.
// Its strings are copies (detach): a report's flags do not keep the text
// of the events they name.
func newFlag(code FlagCode, event string, key i18n.Key, args ...any) Flag {
	strs := make([]string, len(args)+1)
	ss := []*string{&strs[0]}
	strs[0] = event
	for i, a := range args {
		if s, ok := a.(string); ok {
			strs[i+1] = s
			ss = append(ss, &strs[i+1])
		}
	}
	own.Strings(ss...)
	event = strs[0]
	for i, a := range args {
		if _, ok := a.(string); ok {
			args[i] = strs[i+1]
		}
	}
	t := text{msg(key, args...)}
	return Flag{Code: code, EventID: event, What: t.inL(i18n.EN), msg: t}
}

// WhatIn is What in l (What as it is for a flag read back from JSON).
func (f Flag) WhatIn(l i18n.Lang) string {
	if f.msg == nil {
		return f.What
	}
	return f.msg.inL(l)
}

// writeFlags writes one line per flag, in l.
func writeFlags(w io.Writer, l i18n.Lang, flags []Flag) {
	for _, f := range flags {
		fmt.Fprintf(w, "  %s  %s\n", l.T("rp2.flag"), f.WhatIn(l))
	}
}

// Flagged counts the flags of the report, in sessions and campaigns.
func (r Report) Flagged() int {
	n := 0
	for _, s := range r.Sessions {
		n += len(s.Flags)
	}
	for _, c := range r.Campaigns {
		n += len(c.Flags)
	}
	return n
}

// v2Flags adds a v2 session's flags to its report: those of the session
// (v2Report's), the voided rolls and whether their roller consented, who
// co-signed its end, and a session not ended: open, or stale long after
// its last event.
func (v *Verifier) v2Flags(s *session, sr *SessionReport) {
	if s.v2 == nil {
		return
	}
	x := &s.v2.x
	sr.Flags = append(sr.Flags, x.flags...)
	for i, vr := range sr.Voided {
		if by := v.x.consents[keyOf(vr.EventID)]; by != "" {
			sr.Voided[i].ConsentBy = by
			sr.Flags = append(sr.Flags, newFlag(FlagVoided, vr.EventID, "rp2.f.voided_consented", vr.EventID, vr.Nonce, vr.VoidedBy, vr.Reason, by))
		} else {
			sr.Flags = append(sr.Flags, newFlag(FlagVoided, vr.EventID, "rp2.f.voided", vr.EventID, vr.Nonce, vr.VoidedBy, vr.Reason))
		}
	}
	sr.Cosigned = append(sr.Cosigned, x.cosigs...)
	if s.ended {
		player := false
		for _, c := range x.cosigs {
			player = player || c.Role == "player"
		}
		if !player {
			sr.Flags = append(sr.Flags, newFlag(FlagNotCosigned, s.endID, "rp2.f.not_cosigned", s.endID))
		}
		return
	}
	now, after := v.opts.Now, v.opts.StaleAfter
	if now.IsZero() {
		now = time.Now()
	}
	if after <= 0 {
		after = DefaultStaleAfter
	}
	days := int(now.Sub(x.last) / (24 * time.Hour))
	switch {
	case !x.last.IsZero() && now.Sub(x.last) > after:
		sr.Flags = append(sr.Flags, newFlag(FlagStale, x.lastID, "rp2.f.stale", x.last.UTC().Format(time.RFC3339), days))
	default:
		sr.Flags = append(sr.Flags, newFlag(FlagOpen, x.lastID, "rp2.f.open", x.last.UTC().Format(time.RFC3339), max(days, 0)))
	}
}

// downgradeFlag flags a journal-dice-v1 session started in a campaign
// that had a device key then (any user's, revoked or not).
func (v *Verifier) downgradeFlag(c *campaign, ev events.Event, d *events.SessionStarted) {
	if d.Algorithm != dice.Algorithm || c == nil || c.fold == nil {
		return
	}
	s := v.sessions[sessionKey(ev.Campaign, ev.Session)]
	if s == nil || s.downgrade != nil {
		return
	}
	for _, u := range slices.Sorted(maps.Keys(c.fold.Participants)) {
		if p := c.fold.Participants[u]; p != nil && len(p.Devices) > 0 {
			f := newFlag(FlagDowngrade, ev.ID, "rp2.f.downgrade", ev.Session, ev.ID, u)
			s.downgrade = &f
			return
		}
	}
}

// emptyFlag is the flag of a session, v1 or v2, ended with no roll event
// recorded in it (a cancelled or unrevealed request is no roll).
func (s *session) emptyFlag() (Flag, bool) {
	if !s.ended || s.rolls > 0 {
		return Flag{}, false
	}
	return newFlag(FlagEmpty, s.endID, "rp2.f.empty", s.id, s.endID), true
}

// sessionFlags are the flags v2Report gives every v2 session: no
// contribution, cancelled and unrevealed requests.
func (s *session) sessionFlags() []Flag {
	var out []Flag
	switch {
	case len(s.v2.contributions) == 0:
		out = append(out, newFlag(FlagNoContribution, s.startID, "rp2.f.no_contribution"))
	case s.v2.independent == 0:
		out = append(out, newFlag(FlagNoContribution, s.startID, "rp2.f.gm_contribution_only", len(s.v2.contributions)))
	}
	for _, c := range s.v2.cancelled {
		out = append(out, newFlag(FlagCancelled, c.EventID, "rp2.f.cancelled", c.Request, c.Nonce, c.EventID, c.Reason))
	}
	for _, id := range s.v2.order {
		if r := s.v2.requests[id]; r.state == projections.RequestPending {
			out = append(out, newFlag(FlagUnrevealed, r.event, "rp2.f.unrevealed", id, r.d.Nonce, r.event))
		}
	}
	return out
}

// writeCosigned writes who co-signed a v2 session's end, in l.
func writeCosigned(w io.Writer, l i18n.Lang, s SessionReport) {
	if !s.Ended {
		return
	}
	if len(s.Cosigned) == 0 {
		fmt.Fprintln(w, "  "+l.T("rp2.cosigned_none"))
		return
	}
	names := make([]string, len(s.Cosigned))
	for i, c := range s.Cosigned {
		role := c.Role
		if k := i18n.Key("tr.role." + role); l.T(k) != string(k) { // i18n/v2_default.go
			role = l.T(k)
		}
		names[i] = c.User + " (" + role + ")"
	}
	fmt.Fprintln(w, "  "+l.N("rp2.cosigned", len(names), strings.Join(names, ", ")))
}
