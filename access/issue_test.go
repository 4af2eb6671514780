package access

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/bcrypt"
)

// TestIssue: the credentials shown are the ones whose hashes the user
// keeps, and only what was asked for is made.
func TestIssue(t *testing.T) {
	u := User{Name: "ana", Role: RolePlayer, Campaign: "mordor", Characters: []string{"lodin"}}
	out, err := Issue(&u, "access.json", true, true)
	require.NoError(t, err)
	require.Equal(t, Issued{File: "access.json", Name: "ana", Role: "player", Campaign: "mordor", Characters: []string{"lodin"}, Password: out.Password, Token: out.Token}, out)
	require.NotEmpty(t, out.Password)
	require.NoError(t, bcrypt.CompareHashAndPassword([]byte(u.Password), []byte(out.Password)))
	require.Equal(t, []string{HashToken(out.Token)}, u.Tokens)

	v := User{Name: "bot", Role: RoleGM, Campaign: "*", Tokens: []string{"old", "older"}}
	out, err = Issue(&v, "f", false, true)
	require.NoError(t, err)
	require.Empty(t, out.Password)
	require.Empty(t, v.Password)
	require.Equal(t, []string{HashToken(out.Token)}, v.Tokens, "one new token in place of all")
}

func TestIssuedPasswordFile(t *testing.T) {
	out := Issued{Name: "journal", Password: "s3cret"}
	path := filepath.Join(t.TempDir(), "pw")
	require.NoError(t, out.WritePasswordFile(path))
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, "s3cret\n", string(b))
	require.Empty(t, out.Password, "written, not shown")
	var w bytes.Buffer
	out.WriteText(&w)
	require.Equal(t, "  NATS: user journal, password in "+path+" (inbox prefix _INBOX.journal)\nShown this once: the file keeps only their hashes.\n", w.String())
	require.ErrorContains(t, (&Issued{}).WritePasswordFile(path), "no NATS password")
	require.NoError(t, (&Issued{}).WritePasswordFile(""))
}

func TestListing(t *testing.T) {
	c, err := New(
		User{Name: "gm", Role: RoleGM, Campaign: "mordor", Password: "$2a$11$" + strings.Repeat("a", 53)},
		User{Name: "web", Role: RoleDashboard, Campaign: "*", Tokens: []string{HashToken("t1"), HashToken("t2")}},
	)
	require.NoError(t, err)
	l := c.Listing()
	require.Len(t, l, 2)
	require.Equal(t, Listed{Name: "gm", Role: "gm", Campaign: "mordor", NATS: "password"}, l[0])
	require.Equal(t, Listed{Name: "web", Role: "dashboard", Campaign: "*", Tokens: 2}, l[1])
}
