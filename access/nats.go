package access

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/campaign-journal/journal/events"
)

// Subjects of the NATS side of the journal, outside the stream's journal.>
// so that nothing published on them is ever taken for an event.
const (
	// CommandPrefix starts command and read requests to the journal's
	// command service: journalcmd.<user>.<campaign>.<command>.
	CommandPrefix = "journalcmd"
	// ReadCommand is the request that reads a campaign's events
	// (natscmd): allowed to every role in its campaign.
	ReadCommand = "events"
)

// CommandSubject returns the subject user publishes command (or
// ReadCommand) requests on for campaign.
func CommandSubject(user, campaign, command string) string {
	return CommandPrefix + "." + user + "." + campaign + "." + command
}

// InboxPrefix is the inbox prefix a user's NATS client must use
// (nats.CustomInboxPrefix, or the nats tool's --inbox-prefix): a user may
// subscribe to its own inboxes only, so that nobody reads another's
// replies.
func InboxPrefix(user string) string { return "_INBOX." + user }

// ReplyAllowed reports whether a service may answer user's request on
// reply: a literal subject (no wildcard, no empty or blank token) under the
// user's own inbox prefix, InboxPrefix(user) and a dot. Anything else is
// somebody else's subject (the stream, the secrets bucket, the
// JetStream API, another user's inbox) and gets no answer: a reply is
// published with the service's authority, not the requester's.
func ReplyAllowed(user, reply string) bool {
	if user == "" || strings.ContainsAny(user, ".*> \t\r\n") {
		return false
	}
	rest, ok := strings.CutPrefix(reply, InboxPrefix(user)+".")
	if !ok || rest == "" {
		return false
	}
	for _, tok := range strings.Split(rest, ".") {
		if tok == "" || strings.ContainsAny(tok, "*> \t\r\n") {
			return false
		}
	}
	return true
}

// ResponderPermissions are the NATS permissions of the connection a service
// answers requests on (natscmd, as `journal serve` runs it on the embedded
// server): it subscribes to command requests and the micro discovery
// subjects, and publishes to inboxes only, so that no reply (whatever the
// requester named) can land on the stream, the secrets or the
// JetStream API. Which inbox is the service's own check (ReplyAllowed).
func ResponderPermissions() *server.Permissions {
	return &server.Permissions{
		Publish: &server.SubjectPermission{Allow: []string{"_INBOX.>"}, Deny: []string{"journal.>", "$JS.>", "$KV.>", "$O.>", "$SYS.>"}},
		Subscribe: &server.SubjectPermission{
			Allow: []string{CommandPrefix + ".>", "$SRV.>"},
			Deny:  []string{"journal.>", "$JS.>", "$KV.>", "$O.>", "$SYS.>", "_INBOX.>"},
		},
	}
}

// deniedPublish are the subjects no user but the journal may publish to,
// denied explicitly (deny wins over allow) so that a broad allow added by
// hand cannot open them: events themselves and the feed (a forged event),
// the whole JetStream API, key-value and object stores, the system account
// and services, and every inbox (a forged reply).
//
// The JetStream API is denied whole, with no exception: a request to it
// names its own reply subject, and JetStream publishes its answer there
// with the account's authority. A pull request
// ($JS.API.CONSUMER.MSG.NEXT…) whose reply is $JS.API.STREAM.DELETE.JOURNAL
// deletes the stream; a consumer whose deliver subject is a seed's key
// overwrites the seed. No subject permission can check a reply or deliver
// subject, so a user that may send one JetStream request may send them all
// (DESIGN §6, turn 3). Users follow a campaign on FeedSubject and read its
// history with the command service's ReadCommand instead.
func deniedPublish() []string {
	return []string{
		events.Prefix + ".>",
		FeedPrefix + ".>",
		"$JS.>",
		"$KV.>",
		"$O.>",
		"$SYS.>",
		"$SRV.>",
		"_INBOX.>",
	}
}

// deniedSubscribe are the subjects no user but the journal may subscribe
// to: the events' own subjects (a core subscriber would also see appends
// the stream refused, and every campaign's), JetStream (and the
// deliveries of any consumer), key-value (the secrets), object stores, the
// system and the services' discovery.
func deniedSubscribe() []string {
	return []string{events.Prefix + ".>", "$JS.>", "$KV.>", "$O.>", "$SYS.>", "$SRV.>"}
}

// Permissions returns the NATS permissions of a user: nil (everything) for
// the journal role, the operator's (the journal's own processes, and an
// operator the access file names with that role); for the others, publish
// only its own command requests (a gm every command of its campaign, a
// player the player commands and the read, a dashboard the read), and
// subscribe only to its own inboxes and its campaign's feed (every
// campaign's for a campaign "*"), with the explicit denials above. No user
// but the journal role reaches $JS.>, $KV.> or $SYS.>, on the embedded
// server, its loopback port and a cluster alike; the permissions do not
// depend on the journal's partitions, since no stream is named.
func Permissions(u User) *server.Permissions {
	if u.Role == RoleJournal {
		return nil
	}
	campaign := u.Campaign // "*" is the NATS wildcard for one token too
	var pub []string
	switch u.Role {
	case RoleGM:
		pub = []string{CommandPrefix + "." + u.Name + "." + campaign + ".>"}
	case RolePlayer:
		for _, c := range append(PlayerCommands(), ReadCommand) {
			pub = append(pub, CommandSubject(u.Name, campaign, c))
		}
	case RoleDashboard:
		pub = []string{CommandSubject(u.Name, campaign, ReadCommand)}
	}
	return &server.Permissions{
		Publish: &server.SubjectPermission{Allow: pub, Deny: deniedPublish()},
		Subscribe: &server.SubjectPermission{
			Allow: []string{InboxPrefix(u.Name) + ".>", FeedSubject(campaign)},
			Deny:  deniedSubscribe(),
		},
	}
}

// ServerUsers returns the NATS users of the configuration with their
// permissions, for server.Options (or embedded.Options): a user with a
// password as a server.User, one with an nkey as a server.NkeyUser; users
// with neither (HTTP only) have none. All are in the global account.
func (c *Config) ServerUsers() ([]*server.User, []*server.NkeyUser) {
	var users []*server.User
	var nkeys []*server.NkeyUser
	for _, u := range c.Users {
		switch {
		case u.Password != "":
			users = append(users, &server.User{Username: u.Name, Password: u.Password, Permissions: Permissions(u)})
		case u.NKey != "":
			nkeys = append(nkeys, &server.NkeyUser{Nkey: u.NKey, Permissions: Permissions(u)})
		}
	}
	return users, nkeys
}

// NATSConfig returns the authorization block of a nats-server
// configuration file with the users of c, for a cluster's servers (see
// deploy/): include it from each server's file. Passwords are written as
// given: put bcrypt hashes ("$2a$…") in the access file for a config that
// leaves the machine.
func (c *Config) NATSConfig() string {
	var b strings.Builder
	b.WriteString("# Generated from the journal's access configuration (access.Config.NATSConfig).\n")
	b.WriteString("# Roles: journal (everything), gm, player, dashboard; see package access.\n")
	b.WriteString("authorization {\n  users: [\n")
	for _, u := range c.Users {
		if u.Password == "" && u.NKey == "" {
			continue
		}
		fmt.Fprintf(&b, "    # %s", u.Role)
		if u.Campaign != "" {
			fmt.Fprintf(&b, " of campaign %s", u.Campaign)
		}
		if len(u.Characters) > 0 {
			fmt.Fprintf(&b, " playing %s", strings.Join(u.Characters, ", "))
		}
		b.WriteString("\n    {\n")
		if u.NKey != "" {
			fmt.Fprintf(&b, "      nkey: %s\n", quote(u.NKey))
		} else {
			fmt.Fprintf(&b, "      user: %s\n      password: %s\n", quote(u.Name), quote(u.Password))
		}
		if p := Permissions(u); p != nil {
			b.WriteString("      permissions: {\n")
			writeSubjects(&b, "publish", p.Publish)
			writeSubjects(&b, "subscribe", p.Subscribe)
			b.WriteString("      }\n")
		}
		b.WriteString("    }\n")
	}
	b.WriteString("  ]\n}\n")
	return b.String()
}

func writeSubjects(b *strings.Builder, name string, p *server.SubjectPermission) {
	fmt.Fprintf(b, "        %s: {\n", name)
	for _, l := range []struct {
		key  string
		subs []string
	}{{"allow", p.Allow}, {"deny", p.Deny}} {
		if len(l.subs) == 0 {
			continue
		}
		subs := append([]string(nil), l.subs...)
		sort.Strings(subs)
		q := make([]string, len(subs))
		for i, s := range subs {
			q[i] = quote(s)
		}
		fmt.Fprintf(b, "          %s: [%s]\n", l.key, strings.Join(q, ", "))
	}
	b.WriteString("        }\n")
}

// quote writes a string for the nats-server configuration format (which
// reads double-quoted strings with Go-like escapes).
func quote(s string) string { return strconv.Quote(s) }
