package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/invite"
	"github.com/campaign-journal/journal/invitetext"
	"github.com/campaign-journal/journal/web"
)

// book opens the table's book beside the access file, for command what.
func (a *app) book(what string) (*invite.Book, error) {
	if a.accessFile == "" {
		return nil, usagef("%s: give the access file with --access FILE (or $JOURNAL_ACCESS): the devices are kept beside it", what)
	}
	return invite.Open(invite.PathFor(a.accessFile), nil, nil), nil
}

// devices is the table's book for serve: beside the access file, when
// there is one (invites need access control).
func (a *app) devices() *invite.Book {
	if a.access == nil || a.accessFile == "" {
		return nil
	}
	return invite.Open(invite.PathFor(a.accessFile), nil, nil)
}

// inviteCommand is `journal invite PLAYER`: a one-time link that signs a
// browser in to the table.
func (a *app) inviteCommand() *cobra.Command {
	var characters []string
	var role, base string
	var expires time.Duration
	cmd := &cobra.Command{
		Use:   "invite PLAYER [--character ID]... [--role player|gm|viewer] [--expires 72h] [--url URL]",
		Short: "Print a one-time link that signs a player's browser in to the table",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return a.invite(c, args[0], role, characters, expires, base)
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&characters, "character", nil, "the player's character (repeat for more)")
	f.StringVar(&role, "role", invite.RolePlayer, "player, gm or viewer")
	f.DurationVar(&expires, "expires", invite.DefaultTTL, "how long the link stays usable")
	f.StringVar(&base, "url", envOr("JOURNAL_URL", "http://127.0.0.1:8080"), "the address players reach journal serve by ($JOURNAL_URL)")
	return cmd
}

func (a *app) invite(c *cobra.Command, user, role string, characters []string, ttl time.Duration, base string) error {
	if a.campaign == "" {
		return usagef("invite: give the campaign with -c ID (or $JOURNAL_CAMPAIGN)")
	}
	if ttl <= 0 {
		return usagef("invite: --expires %s: want a positive duration", ttl)
	}
	if !strings.HasPrefix(base, "http://") && !strings.HasPrefix(base, "https://") {
		return usagef("invite: --url %q: want http:// or https://", base)
	}
	by, err := a.actingUser() // identity.go
	if err != nil {
		return err
	}
	b, err := a.book("invite")
	if err != nil {
		return err
	}
	if cfg, err := access.Load(a.accessFile); err == nil {
		if p, taken := invite.Taken(cfg, user, a.campaign, role); taken {
			return usagef("invite: %q is a %s of campaign %q in %s: invite another name", user, p.Role, p.Campaign, a.accessFile)
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return msgerr.Errorf("invite: %w", err)
	}
	tok, inv, err := b.Create(c.Context(), invite.Spec{User: user, Role: role, Campaign: a.campaign, Characters: characters, By: by, TTL: ttl})
	if errors.Is(err, invite.ErrInvalid) {
		return usagef("invite: %v", err)
	}
	if err != nil {
		return err
	}
	out := invitetext.Invited{Link: invite.LinkFor(base, tok), Invite: inv.ID, User: user, Role: inv.Role, Campaign: inv.Campaign, Characters: inv.Characters, Expires: inv.Expires, Book: b.Path()}
	return a.emit(out, func(w io.Writer) { out.WriteText(w, a.language()) })
}

// devicesCommand is `journal devices list|revoke`.
func (a *app) devicesCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "devices",
		Short: "The table's invites and signed-in devices: list, revoke",
	}
	list := &cobra.Command{
		Use:   "list",
		Short: "List the invites and devices (of -c's campaign, else all): user, role, fingerprint, state",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			b, err := a.book("devices list")
			if err != nil {
				return err
			}
			f, err := b.Load(c.Context())
			if err != nil {
				return err
			}
			rows := web.Listing(f, a.campaign)
			if a.campaign != "" {
				if j, err := a.journal(c.Context()); err == nil {
					if camp, err := j.Load(c.Context(), a.campaign, 0); err == nil {
						web.KeyStates(rows, f, camp)
					}
				}
			}
			l := a.language()
			return a.emit(rows, func(w io.Writer) { invitetext.WriteDevices(w, l, rows, time.Now()) })
		},
	}
	revoke := &cobra.Command{
		Use:   "revoke ID",
		Short: "Revoke a device (its token stops working at once) or an unused invite",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			b, err := a.book("devices revoke")
			if err != nil {
				return err
			}
			if err := b.Revoke(c.Context(), args[0]); err != nil {
				if errors.Is(err, invite.ErrUnknown) {
					return usagef("devices revoke: %v (see journal devices list)", err)
				}
				return err
			}
			return a.emit(map[string]string{"revoked": args[0]}, func(w io.Writer) {
				fmt.Fprintln(w, a.language().T("dev.revoked", args[0]))
			})
		},
	}
	cmd.AddCommand(list, revoke)
	return cmd
}
