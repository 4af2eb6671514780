// Package invitetext writes the command line's text of the table's
// invites and devices (package invite): the link journal invite prints,
// and the book journal devices list prints.
//
// Invariants:
//   - It only formats what it is given: it reads no book and writes none.
//   - Every label is the catalogue's (i18n) in the language given; times
//     are the user's (time.Local), to the minute.
//   - The link is printed once, on a line of its own.
package invitetext

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/textout"
	"github.com/campaign-journal/journal/web"
)

// Invited is what `journal invite` prints: the link, once.
type Invited struct {
	Link       string    `json:"link"`
	Invite     string    `json:"invite"`
	User       string    `json:"user"`
	Role       string    `json:"role"`
	Campaign   string    `json:"campaign"`
	Characters []string  `json:"characters,omitempty"`
	Expires    time.Time `json:"expires"`
	Book       string    `json:"book"`
}

// WriteText prints who is invited where, until when, then the link.
func (i Invited) WriteText(w io.Writer, l i18n.Lang) {
	chars := ""
	if len(i.Characters) > 0 {
		chars = ", " + strings.Join(i.Characters, ", ")
	}
	fmt.Fprintln(w, l.T("inv.created", i.User, i.Role, i.Campaign, chars, i.Invite, i.Expires.Local().Format("2006-01-02 15:04")))
	fmt.Fprintln(w, i.Link)
}

// WriteDevices prints the book's rows as a table (user, role, fingerprint,
// state), or that there are none; now tells an open invite from an
// expired one.
func WriteDevices(w io.Writer, l i18n.Lang, rows []web.DeviceRow, now time.Time) {
	if len(rows) == 0 {
		fmt.Fprintln(w, l.T("dev.none", "journal invite PLAYER --character ID"))
		return
	}
	tw := textout.NewTable("", strings.Split(l.T("dev.head"), "\t")...)
	for _, r := range rows {
		state := l.T("dev.state.active")
		switch {
		case r.Revoked:
			state = l.T("dev.state.revoked")
		case r.KeyRevoked:
			state = l.T("dev.state.key_revoked")
		case r.Kind == "invite" && r.Used:
			state = l.T("dev.state.used")
		case r.Kind == "invite" && !now.Before(r.Expires):
			state = l.T("dev.state.expired")
		case r.Kind == "invite":
			state = l.T("dev.state.open", r.Expires.Local().Format("2006-01-02 15:04"))
		}
		kind := r.Kind
		if r.Kind == "invite" || r.Kind == "device" {
			kind = l.T(i18n.Key("dev.kind." + r.Kind))
		}
		tw.Add(r.ID, kind, r.User, r.Role, strings.Join(r.Characters, ","), textout.OrDash(r.Fingerprint), state)
	}
	tw.Write(w)
}
