package device

// What a user's device checks of the record about its user's devices
// (docs/design.md §3.3): a device someone else added to the user's name, or a
// second device registered and never approved, is announced on every page
// and command of that user until it is approved or revoked.

import (
	"slices"
	"time"

	"github.com/campaign-journal/journal/projections"
)

// Announcement is one device of a user's that the user must be told of.
type Announcement struct {
	User        string    `json:"user"`
	By          string    `json:"by"`
	Name        string    `json:"name,omitempty"`
	Fingerprint string    `json:"fingerprint"`
	PublicKey   string    `json:"public_key"`
	Time        time.Time `json:"time,omitzero"`
	Seq         uint64    `json:"seq"`
}

// Announcements lists user's devices in c flagged key-by-other and neither
// approved nor revoked (projections.Device.Unconfirmed), in registration
// order. A user with no device in c has none.
func Announcements(c *projections.Campaign, user string) []Announcement {
	if c == nil {
		return nil
	}
	p := c.Participants[user]
	if p == nil {
		return nil
	}
	var out []Announcement
	for _, d := range p.Devices {
		if d.Unconfirmed(user) {
			out = append(out, Announcement{User: user, By: d.By, Name: d.Name, Fingerprint: d.Fingerprint, PublicKey: d.PublicKey, Time: d.Time, Seq: d.Seq})
		}
	}
	return slices.Clip(out)
}

// FindDevice returns the device of c whose fingerprint (or public key) is
// fp, with its user; ok false when there is none.
func FindDevice(c *projections.Campaign, fp string) (user string, d projections.Device, ok bool) {
	if c == nil {
		return "", projections.Device{}, false
	}
	users := make([]string, 0, len(c.Participants))
	for u := range c.Participants {
		users = append(users, u)
	}
	slices.Sort(users)
	for _, u := range users {
		for _, dev := range c.Participants[u].Devices {
			if dev.Fingerprint == fp || dev.PublicKey == fp {
				return u, dev, true
			}
		}
	}
	return "", projections.Device{}, false
}
