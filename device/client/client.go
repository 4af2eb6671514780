// Package client is a journal-dice-v2 device's side of the journal
// (docs/design.md §3.2–3.3): what a user's device builds, seals, keeps and
// sends, and what it checks of what the journal recorded. It builds the
// signed messages of a v2 roll (its request, then its reveal of r), a GM
// roll's request, a witness, a beacon receipt, a contribution, a
// co-signature, a hope spend, a void consent and a proof; it keeps every
// message it seals in the device's receipts before it is sent; it checks
// the record against those receipts and the user's registered keys; and
// it witnesses the GM's rolls while its user follows the log.
//
// The program that runs it (the CLI) gives it everything explicitly in a
// Client: who the device acts as, the store as the device reads it, where
// it keeps its receipts and keys, how to send one catalogued command and
// how to tell the user what was recorded, and where its notices go. It
// parses no command line and opens nothing itself.
//
// Invariants:
//   - Every message a Client signs goes through Seal: it carries what the
//     device saw (its latest read event, signed.Seen) and is kept in the
//     device's receipts before it is sent; a message that could not be
//     kept is not sent.
//   - A device signs as its user, never a default's: with no user
//     (device.ErrNoIdentity) nothing is signed.
//   - The secret r of a request, and the request's id, derive from the
//     device key and the command's request id (device.Key.RevealSecret,
//     device.RequestID): the same command run again asks for the same
//     request and reveals the same r, and the journal records it once.
//   - A device that sent a reveal or a witness warns its user when the
//     journal's answer does not hold it.
//   - Nothing here decides a rule: the journal judges what is sent.
package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/signed"
)

// Reader reads a journal's events (command.Store's read).
type Reader interface {
	Read(ctx context.Context, q events.Query, fn func(events.Recorded) error) error
}

// Client is one device as the client of one journal, for one command of
// its user. Every field is the caller's; the zero value of a func field
// is not allowed unless its doc says so.
type Client struct {
	// User is who the device acts as; device.ErrNoIdentity when it has
	// none (a command that signs or acts is refused).
	User func() (string, error)
	// Store is the journal's store as this device reads it.
	Store func(context.Context) (Reader, error)
	// Receipts is where the device keeps what it signs (an error: it has
	// no configuration folder).
	Receipts func() (device.ReceiptStore, error)
	// Keys is the device's key store (an error: it has none).
	Keys func() (device.Store, error)
	// RequestID is the id of the user's command (the same when it is run
	// again with the same one), or a fresh one.
	RequestID func() (string, error)
	// Send runs the catalogued command name with body in campaign under
	// request id id, one step of the device's command (again with the
	// same id while its outcome is unknown).
	Send func(ctx context.Context, id, campaign, name string, body any) (command.Result, error)
	// Report tells the user what the steps of its command recorded.
	Report func(ctx context.Context, campaign string, results ...command.Result) error
	// Warn tells the user one line on standard error, keyed by its
	// English format (the catalogue of errors renders it).
	Warn func(format string, args ...any)
	// Signed is told who each seal signs as and with which key (nil:
	// nobody is told).
	Signed func(user string, k *device.Key)
	// Lang is the language of the device's words; Err is where its
	// notices go (standard error), Text where the text of a command's
	// answer goes (standard output, or standard error under --json).
	Lang      i18n.Lang
	Err, Text io.Writer
	// Now is the device's clock (nil: time.Now).
	Now func() time.Time
}

func (c *Client) now() time.Time {
	if c.Now == nil {
		return time.Now()
	}
	return c.Now()
}

// warnf tells the user one line on standard error (Warn).
func (c *Client) warnf(format string, args ...any) { c.Warn(format, args...) }

// say prints the device's words for key on Err.
func (c *Client) say(key i18n.Key, args ...any) { fmt.Fprintln(c.Err, c.Lang.T(key, args...)) }

// actor is who the device acts as, "" when it has no user.
func (c *Client) actor() string {
	u, err := c.User()
	if err != nil {
		return ""
	}
	return u
}

// Actor is who the device acts as, "" when it has no user (a command that
// only reads needs none).
func (c *Client) Actor() string { return c.actor() }

// usagef returns a usage error (command.ErrUsage) whose message is the
// format's alone, keyed by it, as the CLI's own usage errors are.
func usagef(format string, args ...any) error {
	return &usageError{msgerr.Errorf(format, args...).(msgerr.Keyed)}
}

type usageError struct{ k msgerr.Keyed }

func (e *usageError) Error() string { return e.k.Error() }
func (e *usageError) Unwrap() error { return command.ErrUsage }
func (e *usageError) Key() string   { return e.k.Key() }
func (e *usageError) Args() []any   { return e.k.Args() }

// ReadCampaign reads campaign's events from..to (0: open) as this device
// sees them.
func (c *Client) ReadCampaign(ctx context.Context, campaign string, from, to uint64) ([]events.Recorded, error) {
	st, err := c.Store(ctx)
	if err != nil {
		return nil, err
	}
	filter, err := events.CampaignFilter(campaign)
	if err != nil {
		return nil, err
	}
	var out []events.Recorded
	err = st.Read(ctx, events.Query{Subject: filter, From: from, To: to}, func(r events.Recorded) error {
		out = append(out, r)
		return nil
	})
	return out, err
}

// SeenAt is this device's receipt of campaign's event at seq (nil: none,
// seq 0 or no such event).
func (c *Client) SeenAt(ctx context.Context, campaign string, seq uint64) (*signed.Seen, error) {
	if seq == 0 {
		return nil, nil
	}
	recs, err := c.ReadCampaign(ctx, campaign, seq, seq)
	if err != nil {
		return nil, msgerr.Errorf("read the campaign's latest event (#%d): %w", seq, err)
	}
	for _, r := range recs {
		if r.Seq == seq && r.Raw != nil {
			return signed.SeenOf(r.Seq, r.Raw), nil
		}
	}
	return nil, nil
}

// Seal stamps m with what this device saw of campaign (its event at
// lastSeq, the latest it read), signs it with k and keeps it in the
// receipts before it is sent. Every signed message of a device goes
// through here.
func (c *Client) Seal(ctx context.Context, campaign string, lastSeq uint64, k *device.Key, m signed.Message) (string, string, error) {
	user, err := c.User() // a device signs as its user, never a default's
	if err != nil {
		return "", "", err
	}
	seen, err := c.SeenAt(ctx, campaign, lastSeq)
	if err != nil {
		return "", "", err
	}
	if seen != nil {
		m = signed.WithSeen(m, seen)
	}
	msg, sig, err := k.Seal(m)
	if err != nil {
		return "", "", err
	}
	rs, err := c.Receipts()
	if err != nil {
		return "", "", err
	}
	if c.Signed != nil {
		c.Signed(user, k)
	}
	if err := rs.Append(device.Receipt{Campaign: campaign, User: user, PublicKey: k.Public().String(),
		Signed: msg, Signature: sig, Time: c.now().UTC()}); err != nil {
		return "", "", err
	}
	return msg, sig, nil
}

// sealed seals m (Seal) as the SignedMessage of a command's body.
func (c *Client) sealed(ctx context.Context, campaign string, lastSeq uint64, k *device.Key, m signed.Message) (command.SignedMessage, error) {
	msg, sig, err := c.Seal(ctx, campaign, lastSeq, k, m)
	return command.SignedMessage{Signed: msg, Signature: sig}, err
}

// ctxErr reports whether err is the user's cancellation.
func ctxErr(err error) bool { return errors.Is(err, context.Canceled) }
