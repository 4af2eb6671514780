package access_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nkeys"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/events"
)

// testConfig is the table of roles the tests use: a journal user, a gm of
// mordor, two players of mordor, a player of gondor, a dashboard of mordor
// and a gm of every campaign.
func testConfig(t testing.TB) *access.Config {
	t.Helper()
	c, err := access.New(
		access.User{Name: "journal", Role: access.RoleJournal, Password: "journal-secret"},
		access.User{Name: "ana", Role: access.RoleGM, Campaign: "mordor", Password: "ana-secret", Tokens: []string{"ana-token-0123456789"}},
		access.User{Name: "bea", Role: access.RolePlayer, Campaign: "mordor", Characters: []string{"ruisenor"}, Password: "bea-secret",
			Tokens: []string{access.HashToken("bea-token-0123456789")}},
		access.User{Name: "cai", Role: access.RolePlayer, Campaign: "mordor", Characters: []string{"lodin"}, Password: "cai-secret"},
		access.User{Name: "dov", Role: access.RolePlayer, Campaign: "gondor", Characters: []string{"lodin"}, Password: "dov-secret"},
		access.User{Name: "wall", Role: access.RoleDashboard, Campaign: "mordor", Password: "wall-secret", Tokens: []string{"wall-token-0123456789"}},
		access.User{Name: "boss", Role: access.RoleGM, Campaign: access.AllCampaigns, Password: "boss-secret"},
	)
	require.NoError(t, err)
	return c
}

func TestParse(t *testing.T) {
	kp, err := nkeys.CreateUser()
	require.NoError(t, err)
	pub, err := kp.PublicKey()
	require.NoError(t, err)
	tests := []struct {
		name string
		json string
		want string // substring of the error; "" accepted
	}{
		{"valid", `{"users":[{"name":"journal","role":"journal","password":"x"},
			{"name":"ana","role":"gm","campaign":"mordor","password":"$2a$11$abcdefghijklmnopqrstuv"},
			{"name":"bea","role":"player","campaign":"mordor","characters":["ruisenor"],"nkey":"` + pub + `"},
			{"name":"wall","role":"dashboard","campaign":"*","tokens":["sha256:` + strings.Repeat("ab", 32) + `"]}]}`, ""},
		{"empty", `{"users":[]}`, ""},
		{"unknown field", `{"users":[{"name":"a","role":"gm","campaign":"c","password":"x","admin":true}]}`, "unknown field"},
		{"trailing", `{"users":[]} {}`, "data after"},
		{"not json", `users: []`, "invalid character"},
		{"bad name", `{"users":[{"name":"Ana","role":"gm","campaign":"c","password":"x"}]}`, "name"},
		{"name with dot", `{"users":[{"name":"a.b","role":"gm","campaign":"c","password":"x"}]}`, "name"},
		{"name wildcard", `{"users":[{"name":"*","role":"gm","campaign":"c","password":"x"}]}`, "name"},
		{"reserved name", `{"users":[{"name":"journal-owner-1","role":"journal","password":"x"}]}`, "reserved"},
		{"repeated name", `{"users":[{"name":"a","role":"gm","campaign":"c","password":"x"},{"name":"a","role":"gm","campaign":"c","password":"y"}]}`, "repeated"},
		{"unknown role", `{"users":[{"name":"a","role":"admin","password":"x"}]}`, "role"},
		{"gm without campaign", `{"users":[{"name":"a","role":"gm","password":"x"}]}`, "campaign"},
		{"campaign injection", `{"users":[{"name":"a","role":"gm","campaign":"c.>","password":"x"}]}`, "campaign"},
		{"player of every campaign", `{"users":[{"name":"a","role":"player","campaign":"*","characters":["x"],"password":"x"}]}`, "one campaign"},
		{"player without characters", `{"users":[{"name":"a","role":"player","campaign":"c","password":"x"}]}`, "at least one character"},
		{"character injection", `{"users":[{"name":"a","role":"player","campaign":"c","characters":["x.>"],"password":"x"}]}`, "character"},
		{"gm with characters", `{"users":[{"name":"a","role":"gm","campaign":"c","characters":["x"],"password":"x"}]}`, "only players"},
		{"journal with campaign", `{"users":[{"name":"a","role":"journal","campaign":"c","password":"x"}]}`, "no campaign"},
		{"password and nkey", `{"users":[{"name":"a","role":"gm","campaign":"c","password":"x","nkey":"` + pub + `"}]}`, "not both"},
		{"bad nkey", `{"users":[{"name":"a","role":"gm","campaign":"c","nkey":"UABC"}]}`, "nkey"},
		{"seed as nkey", `{"users":[{"name":"a","role":"gm","campaign":"c","nkey":"SUAAF4CKVWDQ6DET3FURWS3YRIU2LOM4274YVNAQGOR7K3UMANC4EGNTNU"}]}`, "nkey"},
		{"no credentials", `{"users":[{"name":"a","role":"gm","campaign":"c"}]}`, "never sign in"},
		{"short token", `{"users":[{"name":"a","role":"gm","campaign":"c","tokens":["short"]}]}`, "at least 16"},
		{"bad token hash", `{"users":[{"name":"a","role":"gm","campaign":"c","tokens":["sha256:zz"]}]}`, "64 hex"},
		{"shared token", `{"users":[{"name":"a","role":"gm","campaign":"c","tokens":["0123456789abcdef"]},{"name":"b","role":"gm","campaign":"c","tokens":["0123456789abcdef"]}]}`, "two users"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := access.Parse([]byte(tt.json))
			if tt.want == "" {
				require.NoError(t, err)
				require.NotNil(t, c)
				return
			}
			if err == nil || !errors.Is(err, access.ErrConfig) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Parse error = %v, want one wrapping ErrConfig and saying %q", err, tt.want)
			}
		})
	}
}

func TestLoad(t *testing.T) {
	path := filepath.Join(t.TempDir(), "access.json")
	require.NoError(t, os.WriteFile(path, []byte(`{"users":[{"name":"ana","role":"gm","campaign":"mordor","password":"x"}]}`), 0o600))
	c, err := access.Load(path)
	require.NoError(t, err)
	p, ok := c.ByName("ana")
	require.True(t, ok)
	require.Equal(t, access.Principal{Name: "ana", Role: access.RoleGM, Campaign: "mordor"}, p)
	if _, err := access.Load(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Fatal("Load of a missing file: no error")
	}
}

func TestByToken(t *testing.T) {
	c := testConfig(t)
	tests := []struct {
		token string
		want  string // user name; "" none
	}{
		{"ana-token-0123456789", "ana"},
		{"bea-token-0123456789", "bea"}, // configured as its hash
		{access.HashToken("bea-token-0123456789"), ""},
		{"wall-token-0123456789", "wall"},
		{"ana-token-012345678", ""},
		{"", ""},
		{"ANA-TOKEN-0123456789", ""},
	}
	for _, tt := range tests {
		p, ok := c.ByToken(tt.token)
		if got := map[bool]string{true: p.Name}[ok]; got != tt.want {
			t.Errorf("ByToken(%q) = %q, want %q", tt.token, got, tt.want)
		}
	}
	var none *access.Config
	if _, ok := none.ByToken("ana-token-0123456789"); ok {
		t.Error("a nil config knows a token")
	}
}

func TestAuthorize(t *testing.T) {
	c := testConfig(t)
	who := func(name string) access.Principal {
		p, ok := c.ByName(name)
		require.True(t, ok, name)
		return p
	}
	tests := []struct {
		user, campaign, command, character string
		allowed                            bool
	}{
		{"journal", "anything", "session-start", "", true},
		{"ana", "mordor", "session-start", "", true},
		{"ana", "mordor", "damage", "ruisenor", true},
		{"ana", "mordor", "campaign-create", "", true},
		{"ana", "gondor", "roll", "lodin", false},
		{"boss", "gondor", "session-end", "", true},
		{"bea", "mordor", "roll", "ruisenor", true},
		{"bea", "mordor", "attack", "ruisenor", true},
		{"bea", "mordor", "raise", "ruisenor", true},
		{"bea", "mordor", "fellowship-vote", "ruisenor", true},
		{"bea", "mordor", "roll", "lodin", false},      // not hers
		{"bea", "mordor", "roll", "", false},           // no character
		{"bea", "mordor", "damage", "ruisenor", false}, // a GM command
		{"bea", "mordor", "xp", "ruisenor", false},
		{"bea", "mordor", "session-start", "", false},
		{"bea", "mordor", "void", "", false},
		{"bea", "mordor", "no-such-command", "ruisenor", false},
		{"bea", "gondor", "roll", "ruisenor", false},
		{"dov", "mordor", "roll", "lodin", false}, // lodin is his in gondor only
		{"dov", "gondor", "roll", "lodin", true},
		{"wall", "mordor", "roll", "ruisenor", false},
		{"wall", "mordor", "session-start", "", false},
		{"nobody", "mordor", "roll", "ruisenor", false},
	}
	for _, tt := range tests {
		p, _ := c.ByName(tt.user)
		if tt.user != "nobody" {
			p = who(tt.user)
		}
		err := access.Authorize(p, tt.campaign, tt.command, tt.character)
		if tt.allowed != (err == nil) || (err != nil && !errors.Is(err, access.ErrDenied)) {
			t.Errorf("Authorize(%s, %s, %s, %q) = %v, want allowed %v", tt.user, tt.campaign, tt.command, tt.character, err, tt.allowed)
		}
	}
	reads := []struct {
		user, campaign string
		allowed        bool
	}{
		{"ana", "mordor", true}, {"ana", "gondor", false}, {"bea", "mordor", true}, {"bea", "gondor", false},
		{"wall", "mordor", true}, {"wall", "gondor", false}, {"boss", "gondor", true}, {"journal", "gondor", true},
	}
	for _, tt := range reads {
		err := access.AuthorizeRead(who(tt.user), tt.campaign)
		if tt.allowed != (err == nil) {
			t.Errorf("AuthorizeRead(%s, %s) = %v, want allowed %v", tt.user, tt.campaign, err, tt.allowed)
		}
	}
	if err := access.AuthorizeRead(access.Principal{Name: "x", Role: "root"}, "mordor"); !errors.Is(err, access.ErrDenied) {
		t.Errorf("unknown role read: %v", err)
	}
}

// TestAuthorizeRequest: the acting character comes from the body as the
// command will decode it; bodies that could be read two ways are refused.
func TestAuthorizeRequest(t *testing.T) {
	c := testConfig(t)
	bea, _ := c.ByName("bea")
	ana, _ := c.ByName("ana")
	tests := []struct {
		name    string
		p       access.Principal
		command string
		body    string
		allowed bool
	}{
		{"own roll", bea, "roll", `{"character":"ruisenor","skill":"Advertir"}`, true},
		{"other's roll", bea, "roll", `{"character":"lodin","skill":"Advertir"}`, false},
		{"own attack on another", bea, "attack", `{"attacker":"ruisenor","target":"orco"}`, true},
		{"attack for another", bea, "attack", `{"attacker":"lodin","target":"ruisenor"}`, false},
		{"vote as own", bea, "fellowship-vote", `{"character":"lodin","voter":"ruisenor","agree":true}`, true},
		{"vote as another", bea, "fellowship-vote", `{"character":"ruisenor","voter":"lodin","agree":true}`, false},
		{"case-folded duplicate", bea, "roll", `{"character":"ruisenor","Character":"lodin"}`, false},
		{"unicode-folded duplicate", bea, "attack", `{"attacker":"ruisenor","attac\u212aer":"lodin"}`, false},
		{"escaped duplicate", bea, "roll", `{"character":"ruisenor","ch\u0061racter":"lodin"}`, false}, // the same key twice: the last wins, for both readers
		{"only a case variant", bea, "roll", `{"CHARACTER":"ruisenor"}`, true},
		{"character not a string", bea, "roll", `{"character":["ruisenor"]}`, false},
		{"body not an object", bea, "roll", `["ruisenor"]`, false},
		{"invalid json", bea, "roll", `{"character":"ruisenor"`, false},
		{"no character", bea, "roll", `{}`, false},
		{"empty body", bea, "roll", ``, false},
		{"gm, any body", ana, "damage", `{"character":"lodin","amount":3}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := access.AuthorizeRequest(tt.p, "mordor", tt.command, []byte(tt.body))
			if tt.allowed != (err == nil) || (err != nil && !errors.Is(err, access.ErrDenied)) {
				t.Fatalf("AuthorizeRequest = %v, want allowed %v", err, tt.allowed)
			}
		})
	}
	// Whatever the player's body says, the one character it authorized is
	// the one encoding/json decodes.
	ch, err := access.ActingCharacter("roll", []byte(`{"character":"lodin","ch\u0061racter":"ruisenor"}`))
	require.NoError(t, err)
	require.Equal(t, "ruisenor", ch)
}

func TestPlayerCommands(t *testing.T) {
	for _, c := range access.PlayerCommands() {
		if _, ok := access.PlayerCommand(c); !ok {
			t.Errorf("PlayerCommands lists %q, which PlayerCommand refuses", c)
		}
		if err := events.ValidID(c); err != nil {
			t.Errorf("command %q is not a subject token: %v", c, err)
		}
	}
}

// TestNATSConfig: the generated nats-server authorization block reads back,
// through nats-server's own parser, as exactly the users and permissions
// ServerUsers gives the embedded server.
func TestNATSConfig(t *testing.T) {
	kp, err := nkeys.CreateUser()
	require.NoError(t, err)
	pub, err := kp.PublicKey()
	require.NoError(t, err)
	c := testConfig(t)
	c2, err := access.New(append(c.Users,
		access.User{Name: "eve", Role: access.RolePlayer, Campaign: "mordor", Characters: []string{"orco"}, NKey: pub},
		access.User{Name: "http-only", Role: access.RoleDashboard, Campaign: "mordor", Tokens: []string{"http-only-token-0123"}},
		access.User{Name: "quoted", Role: access.RoleGM, Campaign: "mordor", Password: `$2a$11$a"b\c$x`},
	)...)
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "nats.conf")
	require.NoError(t, os.WriteFile(path, []byte("port: 4222\n"+c2.NATSConfig()), 0o600))
	opts, err := server.ProcessConfigFile(path)
	require.NoError(t, err, "%s", c2.NATSConfig())

	users, nks := c2.ServerUsers()
	require.Len(t, opts.Users, len(users))
	for i, u := range users {
		got := opts.Users[i]
		require.Equal(t, u.Username, got.Username)
		require.Equal(t, u.Password, got.Password)
		requirePermissions(t, u.Permissions, got.Permissions)
	}
	require.Len(t, opts.Nkeys, 1)
	require.Len(t, nks, 1)
	require.Equal(t, pub, opts.Nkeys[0].Nkey)
	requirePermissions(t, nks[0].Permissions, opts.Nkeys[0].Permissions)
	for _, u := range opts.Users {
		require.NotEqual(t, "http-only", u.Username, "an HTTP-only user has no NATS user")
	}
}

func requirePermissions(t *testing.T, want, got *server.Permissions) {
	t.Helper()
	if want == nil {
		require.Nil(t, got)
		return
	}
	require.NotNil(t, got)
	for _, p := range []struct{ w, g *server.SubjectPermission }{{want.Publish, got.Publish}, {want.Subscribe, got.Subscribe}} {
		require.ElementsMatch(t, p.w.Allow, p.g.Allow)
		require.ElementsMatch(t, p.w.Deny, p.g.Deny)
	}
}

// TestDeployConfig: the cluster's authorization file in deploy/ is what
// the generator makes of deploy/access.example.json. Regenerate it with
//
//	JOURNAL_UPDATE_DEPLOY=1 go test -run TestDeployConfig ./access/
func TestDeployConfig(t *testing.T) {
	c, err := access.Load(filepath.Join("..", "deploy", "access.example.json"))
	require.NoError(t, err)
	path := filepath.Join("..", "deploy", "auth.conf")
	if os.Getenv("JOURNAL_UPDATE_DEPLOY") != "" {
		require.NoError(t, os.WriteFile(path, []byte(c.NATSConfig()), 0o644))
	}
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	if string(b) != c.NATSConfig() {
		t.Fatalf("deploy/auth.conf is stale: regenerate it with JOURNAL_UPDATE_DEPLOY=1 go test -run TestDeployConfig ./access/")
	}
}

func TestFromRequest(t *testing.T) {
	c := testConfig(t)
	tests := []struct {
		header string
		want   string // user; "" unauthenticated
	}{
		{"Bearer ana-token-0123456789", "ana"},
		{"bearer  bea-token-0123456789 ", "bea"},
		{"Bearer wall-token-0123456789", "wall"},
		{"", ""},
		{"Bearer", ""},
		{"Bearer ", ""},
		{"Basic YW5hOmFuYS1zZWNyZXQ=", ""},
		{"Bearer nope-nope-nope-nope", ""},
		{"ana-token-0123456789", ""},
	}
	for _, tt := range tests {
		r := httptest.NewRequest(http.MethodGet, "/api/campaigns", nil)
		if tt.header != "" {
			r.Header.Set("Authorization", tt.header)
		}
		p, err := c.FromRequest(r)
		if tt.want == "" {
			if !errors.Is(err, access.ErrUnauthenticated) {
				t.Errorf("%q: error = %v, want unauthenticated", tt.header, err)
			}
			continue
		}
		if err != nil || p.Name != tt.want {
			t.Errorf("%q: %+v, %v; want %s", tt.header, p, err, tt.want)
		}
	}
}
