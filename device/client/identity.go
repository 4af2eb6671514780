package client

import (
	"fmt"
	"io"
	"strings"

	"github.com/campaign-journal/journal/device"
)

// Who a device is: its user, set once ('journal login USER',
// device.SetIdentity) or, for one process, $JOURNAL_ACTOR. There is no
// default: a command that acts without a user is refused with
// device.ErrNoIdentity.

// Login is what setting the device's user did: who it is now, and who it
// was (Was "" when it had no user, or had it from elsewhere).
type Login struct {
	device.Identity
	Was string
}

// SetLogin sets the device's user to user (lower-cased) in the
// configuration folder getenv names, and warns when $JOURNAL_ACTOR still
// overrides it.
func (c *Client) SetLogin(getenv func(string) string, user string) (Login, error) {
	user = strings.ToLower(user)
	prev, perr := device.CurrentIdentity(getenv)
	id, err := device.SetIdentity(getenv, user)
	if err != nil {
		return Login{}, usagef("login: %v", err)
	}
	if env := getenv(device.EnvActor); env != "" && env != user {
		c.warnf("journal: $JOURNAL_ACTOR=%s still overrides it in this shell", env)
	}
	l := Login{Identity: id}
	if perr == nil && prev.User != user && prev.Source == id.Source {
		l.Was = prev.User
	}
	return l, nil
}

// Write says who the device is now (and was).
func (l Login) Write(w io.Writer) {
	if l.Was != "" {
		fmt.Fprintf(w, "This device was %s; it is now %s (%s)\n", l.Was, l.User, l.Source)
		return
	}
	fmt.Fprintf(w, "This device is %s (%s)\n", l.User, l.Source)
}
