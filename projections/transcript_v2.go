package projections

import (
	"fmt"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
)

// describeV2 returns the transcript line of a journal-dice-v2 event.
func describeV2(l i18n.Lang, c *Campaign, ev events.Event, data any) (string, bool) {
	switch d := data.(type) {
	case *events.ParticipantRegistered:
		role := d.Role
		if k := i18n.Key("tr.role." + role); l.T(k) != string(k) { // i18n/v2_default.go
			role = l.T(k)
		}
		return l.T("tr.participant_registered", d.User, role, d.Fingerprint), true
	case *events.DeviceRegistered:
		role := d.Role
		if k := i18n.Key("tr.role." + role); l.T(k) != string(k) {
			role = l.T(k)
		}
		name := ""
		if d.Name != "" {
			name = fmt.Sprintf(" %q", d.Name)
		}
		if d.By != d.User {
			return l.T("tr.device_registered_by", d.By, role, name, d.User, d.Fingerprint), true
		}
		return l.T("tr.device_registered", d.User, role, name, d.Fingerprint), true
	case *events.DeviceApproved:
		return l.T("tr.device_approved", d.By, d.User, d.Fingerprint), true
	case *events.DeviceRevoked:
		return l.T("tr.device_revoked", d.By, d.User, d.Fingerprint, d.Reason), true
	case *events.SessionContributed:
		return l.T("tr.session_contributed", d.User, ev.Session, short(d.Value)), true
	case *events.RollRequested:
		if line, ok := describePathRequest(l, c, d); ok { // transcript_v2_paths.go
			return line, true
		}
		what := d.Skill
		if what == "" {
			what = d.Attribute
		}
		if d.Target != "" { // an attack: its nonce and the next, for the damage
			what = d.Weapon + " → " + c.name(d.Target)
		}
		if d.Kind == "free" {
			what = d.Dice
			if d.Secret {
				what = l.T("tr.secret", d.Dice)
			}
		}
		if d.Commitment == "" { // a GM's: it waits for a witness or its beacon round
			return l.T("tr.roll_requested_gm", d.User, short(d.Request), c.name(d.Character)+" "+what, d.Nonce, d.Wait), true
		}
		return l.T("tr.roll_requested", d.User, short(d.Request), c.name(d.Character)+" "+what, d.Nonce, short(d.Commitment)), true
	case *events.SessionCosigned:
		return l.T("tr.session_cosigned", d.User, ev.Session, short(d.Ended)), true
	case *events.RollCancelled:
		return l.T("tr.roll_cancelled", short(d.Request), d.Nonce, d.Reason), true
	case *events.RollWitnessed:
		return l.T("tr.roll_witnessed", d.User, short(d.Request), d.Index), true
	case *events.RollReceipted:
		return l.T("tr.roll_receipted", d.User, short(d.Request)), true
	case *events.RollProved:
		return describeProved(l, c, d), true // transcript_proved.go
	}
	return describeTable(l, c, data) // transcript_table.go
}

// short cuts a long hex value or id to its first 12 characters.
func short(s string) string {
	if len(s) > 12 {
		return s[:12] + "…"
	}
	return s
}
