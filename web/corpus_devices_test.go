package web

// The corpus's attacks on devices (docs/design.md §3.3, "Devices hold keys, not
// users"), as the GM who hosts would make them with the chain re-forged.

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/campaign-journal/journal/events"
)

// devices: a player's own registration re-signed (one character of its
// proof changed) or stripped of its proof (mismatches); the same
// registration turned into the GM's bare key for the player (the host's
// takeover: flagged key-by-other; where a player's device co-signed a
// later session end, that co-signature no longer holds); into a legacy
// participant.registered (flagged key-unproved, likewise); the player's
// first device revoked before what it signed; an approval re-signed.
func (g *corpusGen) devices() {
	own := g.where(func(l corpusLine) bool {
		return l.ev.Type == events.TypeDeviceRegistered && l.d["role"] == "player" && l.d["by"] == l.d["user"] && l.d["signed"] != ""
	})
	gm := ""
	for _, l := range g.lines {
		if l.ev.Type == events.TypeDeviceRegistered && l.d["role"] == "gm" && gm == "" {
			gm, _ = l.d["user"].(string)
		}
	}
	for _, i := range g.spread(own, 1) {
		g.add("device-resigned", "a player's device registration re-signed (one character of its proof changed; chain re-forged): "+g.pos(i), g.editAt(i, true, func(l *corpusLine) {
			s := []byte(l.d["signature"].(string))
			if s[10] == 'A' {
				s[10] = 'B'
			} else {
				s[10] = 'A'
			}
			l.d["signature"] = string(s)
		}))
		g.add("device-unproved", "a player's own device registration stripped of its proof (chain re-forged): "+g.pos(i), g.editAt(i, true, func(l *corpusLine) {
			l.d["signed"], l.d["signature"] = "", ""
		}))
		if gm != "" {
			g.add("device-by-gm", "a player's device registration made the GM's bare key for the player (the host's takeover; chain re-forged): flagged key-by-other, and a co-signed end after it no longer holds: "+g.pos(i), g.editAt(i, true, func(l *corpusLine) {
				l.d["signed"], l.d["signature"], l.d["by"] = "", "", gm
				l.ev.Actor = gm
			}))
		}
		g.add("device-legacy", "a player's device registration written as a journal.participant.registered.v1 (no proof; chain re-forged): flagged key-unproved, and a co-signed end after it no longer holds: "+g.pos(i), g.editAt(i, true, func(l *corpusLine) {
			l.ev.Type = events.TypeParticipantRegistered
			l.d = map[string]any{"user": l.d["user"], "role": l.d["role"], "public_key": l.d["public_key"], "fingerprint": l.d["fingerprint"]}
		}))
	}
	// The GM's revocation (the last) made a revocation of the player's
	// first device and moved after the last approval: what that device
	// signs from there on is no longer its user's (a mismatch).
	revs := g.where(func(l corpusLine) bool { return l.ev.Type == events.TypeDeviceRevoked && l.d["signed"] == "" })
	apps := g.where(ofType(events.TypeDeviceApproved))
	if len(revs) > 0 && len(own) > 0 && len(apps) > 0 && revs[len(revs)-1] > apps[len(apps)-1] {
		r, first, at := revs[len(revs)-1], own[0], apps[len(apps)-1]
		l := decodeLine(g.t, g.base.lines[r])
		reg := g.lines[first].d
		l.d["user"], l.d["public_key"], l.d["fingerprint"] = reg["user"], reg["public_key"], reg["fingerprint"]
		var out []string
		for k, line := range g.base.lines {
			if k == r {
				continue
			}
			out = append(out, line)
			if k == at {
				out = append(out, l.encode(g.t))
			}
		}
		g.add("revoked-signs", "the player's first device revoked (the GM's revocation, moved after "+g.pos(at)+"; chain re-forged): what it signed after is a mismatch", rechainLines(g.t, out))
	}
	// An approval re-signed.
	for _, i := range g.spread(g.where(ofType(events.TypeDeviceApproved)), 1) {
		g.add("approval-resigned", "a device's approval re-signed (one character changed; chain re-forged): "+g.pos(i), g.editAt(i, true, func(l *corpusLine) {
			s := []byte(l.d["signature"].(string))
			if s[10] == 'A' {
				s[10] = 'B'
			} else {
				s[10] = 'A'
			}
			l.d["signature"] = string(s)
		}))
	}
}

// downgrade: a journal-dice-v1 session appended after the campaign's
// device keys (chain re-forged), its seed revealed at once: the journal
// refuses such a session, a verifier flags it downgrade (and empty), not a
// mismatch, since records older than the rule may hold one.
func (g *corpusGen) downgrade() {
	if len(g.where(ofType(events.TypeDeviceRegistered))) == 0 || len(g.lines) == 0 {
		return
	}
	last := g.lines[len(g.lines)-1]
	seed := [32]byte{0x42, 0x17}
	commitment := sha256.Sum256(seed[:])
	at := func(typ string, d map[string]any, k time.Duration) string {
		l := corpusLine{ev: last.ev, d: d}
		// An id of its own, the same at every run: the last event's, its
		// last byte moved on (version and variant kept).
		u := uuid.MustParse(last.ev.ID)
		u[15] += byte(k / time.Minute)
		l.ev.ID = u.String()
		l.ev.Type, l.ev.Session, l.ev.Subject = typ, "downgraded", "sessions/downgraded"
		l.ev.Time = last.ev.Time.Add(k)
		l.ev.Actor, l.ev.CausationID, l.ev.RequestID, l.ev.Command = "gm", "", "", ""
		return l.encode(g.t)
	}
	out := slices.Clone(g.base.lines)
	out = append(out,
		at(events.TypeSessionStarted, map[string]any{"algorithm": "journal-dice-v1", "commitment": hex.EncodeToString(commitment[:])}, time.Minute),
		at(events.TypeSessionEnded, map[string]any{"seed": hex.EncodeToString(seed[:]), "rolls": 0}, 2*time.Minute))
	g.add("downgrade", "a journal-dice-v1 session after the campaign's device keys (chain re-forged): flagged downgrade, not failed", rechainLines(g.t, out))
}
