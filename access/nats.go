package access

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/jetstore"
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

// Names the permissions protect, as jetstore creates them.
const (
	streamName    = jetstore.StreamName
	secretsBucket = jetstore.SecretsBucket
)

// FollowSubjects are the JetStream API subjects a user of campaign needs,
// and all it gets, to follow the campaign's events with an ordered
// consumer (nats.go jetstream.OrderedConsumer with the one filter subject
// journal.<campaign>, as nats.go v1.55 makes it): creating an ephemeral
// consumer on the stream with that very filter (the server refuses a
// filter in the request other than the one in the subject), and pulling
// its messages, which come back, with the heartbeats, to the requester's
// inbox. Not granted: consumer info and delete (an ordered consumer deletes
// its previous consumer on a reset only as a courtesy, and the server drops
// it after its inactive threshold), the stream's and the secrets bucket's
// API, other filters, the legacy create subjects, whose filter is not in
// the subject. A consumer name is a random NUID chosen by its creator: who
// pulls from a consumer must know its name.
//
// In a journal of k > 1 partitions the stream is the campaign's
// partition's, JOURNAL-<p>, and the filter its subject there,
// journal.<p>.<campaign> (events.PartitionSubject, jetstore.CampaignStream:
// the one mapping the store routes by): no other stream's. A campaign "*"
// (every campaign) gets every partition's stream.
func FollowSubjects(campaign string, k int) []string {
	if campaign == "*" && k > 1 {
		var out []string
		for p, stream := range jetstore.StreamNames(k) {
			out = append(out,
				"$JS.API.CONSUMER.CREATE."+stream+".*."+events.PartitionStreamSubjects(p, k),
				"$JS.API.CONSUMER.MSG.NEXT."+stream+".*")
		}
		return out
	}
	filter := events.Prefix + "." + campaign
	if k > 1 {
		filter, _ = events.PartitionSubject(campaign, k) // a user's campaign is a slug (Config checks it)
	}
	stream := jetstore.CampaignStream(campaign, k)
	return []string{
		"$JS.API.CONSUMER.CREATE." + stream + ".*." + filter,
		"$JS.API.CONSUMER.MSG.NEXT." + stream + ".*",
	}
}

// deniedPublish are the subjects no user but the journal may publish to,
// denied explicitly (deny wins over allow) so that a broad allow added by
// hand cannot open them: events themselves, the JetStream API but for the
// FollowSubjects (the streams' info, delete, purge and message delete and
// direct gets, the secrets bucket's, consumers' info, delete and legacy
// creation with any filter, durable consumers by the legacy subject,
// acknowledgements and flow control, the domain-prefixed API), key-value
// and object stores, the system account and services, and others' inboxes
// (a forged reply).
func deniedPublish() []string {
	return []string{
		"journal.>",
		"$JS.API.STREAM.>",
		"$JS.API.DIRECT.>",
		"$JS.API.INFO",
		"$JS.API.ACCOUNT.>",
		"$JS.API.META.>",
		"$JS.API.SERVER.>",
		"$JS.API.CONSUMER.CREATE.*",
		"$JS.API.CONSUMER.CREATE.*.*",
		"$JS.API.CONSUMER.CREATE.KV_" + secretsBucket + ".>",
		"$JS.API.CONSUMER.MSG.NEXT.KV_" + secretsBucket + ".>",
		"$JS.API.CONSUMER.DURABLE.>",
		"$JS.API.CONSUMER.DELETE.>",
		"$JS.API.CONSUMER.INFO.>",
		"$JS.API.CONSUMER.LIST.>",
		"$JS.API.CONSUMER.NAMES.>",
		"$JS.API.CONSUMER.PAUSE.>",
		"$JS.API.CONSUMER.UNPIN.>",
		"$JS.API.CONSUMER.LEADER.>",
		"$JS.*.API.>",
		"$JS.ACK.>",
		"$JS.FC.>",
		"$JS.EVENT.>",
		"$JS.API.STREAM.DELETE." + streamName,
		"$JS.API.STREAM.PURGE." + streamName,
		"$JS.API.STREAM.MSG.DELETE." + streamName,
		"$JS.API.DIRECT.GET.KV_" + secretsBucket,
		"$JS.API.DIRECT.GET.KV_" + secretsBucket + ".>",
		"$KV.>",
		"$KV." + secretsBucket + ".>",
		"$O.>",
		"$SYS.>",
		"$SRV.>",
		"_INBOX.>",
	}
}

// deniedSubscribe are the subjects no user but the journal may subscribe
// to: the events' own subjects (a core subscriber would also see appends
// the stream refused, and every campaign's), JetStream, key-value (the
// secrets) and the system.
func deniedSubscribe() []string {
	return []string{"journal.>", "$JS.>", "$KV.>", "$KV." + secretsBucket + ".>", "$O.>", "$SYS.>", "$SRV.>"}
}

// Permissions returns the NATS permissions of a user: nil (everything) for
// the journal role; for the others, publish only its own command requests
// (a gm every command of its campaign, a player the player commands and
// reads, a dashboard reads) and the FollowSubjects of its campaign,
// subscribe only to its own inboxes, and the explicit denials above; in a
// journal of one partition (see PartitionPermissions).
func Permissions(u User) *server.Permissions { return PartitionPermissions(u, 1) }

// PartitionPermissions is Permissions in a journal of k partitions: the
// FollowSubjects of the user's campaign's partition.
func PartitionPermissions(u User, k int) *server.Permissions {
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
	pub = append(pub, FollowSubjects(campaign, k)...)
	return &server.Permissions{
		Publish: &server.SubjectPermission{Allow: pub, Deny: deniedPublish()},
		Subscribe: &server.SubjectPermission{
			Allow: []string{InboxPrefix(u.Name) + ".>"},
			Deny:  deniedSubscribe(),
		},
	}
}

// ServerUsers returns the NATS users of the configuration with their
// permissions, for server.Options (or embedded.Options): a user with a
// password as a server.User, one with an nkey as a server.NkeyUser; users
// with neither (HTTP only) have none. All are in the global account.
// The permissions are those of a journal of c's partitions (SetPartitions;
// one unless set).
func (c *Config) ServerUsers() ([]*server.User, []*server.NkeyUser) {
	var users []*server.User
	var nkeys []*server.NkeyUser
	for _, u := range c.Users {
		switch {
		case u.Password != "":
			users = append(users, &server.User{Username: u.Name, Password: u.Password, Permissions: PartitionPermissions(u, c.partitions)})
		case u.NKey != "":
			nkeys = append(nkeys, &server.NkeyUser{Nkey: u.NKey, Permissions: PartitionPermissions(u, c.partitions)})
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
		if p := PartitionPermissions(u, c.partitions); p != nil {
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

// SetPartitions sets the number of partitions of the journal the
// configuration's NATS users are given permissions on (ServerUsers):
// each user's follow subjects name its campaign's partition's stream.
func (c *Config) SetPartitions(k int) { c.partitions = k }

// Partitions returns what SetPartitions set (0: one partition).
func (c *Config) Partitions() int { return c.partitions }
