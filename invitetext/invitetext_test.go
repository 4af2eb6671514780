package invitetext_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/invitetext"
	"github.com/campaign-journal/journal/web"
)

func TestInvitedText(t *testing.T) {
	time.Local = time.UTC
	var b strings.Builder
	invitetext.Invited{Link: "http://h/table#invite=tok", Invite: "i1", User: "bea", Role: "player", Campaign: "mordor",
		Characters: []string{"lodin", "orco"}, Expires: time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC)}.WriteText(&b, i18n.EN)
	require.Equal(t, "journal invite: bea (player of mordor, lodin, orco), invite i1, usable once until 2026-01-02 03:04:\nhttp://h/table#invite=tok\n", b.String())
}

func TestWriteDevices(t *testing.T) {
	var b strings.Builder
	invitetext.WriteDevices(&b, i18n.EN, nil, time.Now())
	require.Equal(t, "no invites or devices yet: journal invite PLAYER --character ID\n", b.String())

	b.Reset()
	now := time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)
	invitetext.WriteDevices(&b, i18n.EN, []web.DeviceRow{
		{ID: "d1", Kind: "device", User: "bea", Role: "player", Fingerprint: "ab12"},
		{ID: "i1", Kind: "invite", User: "cid", Role: "viewer", Expires: now.Add(-time.Hour)},
	}, now)
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	require.Len(t, lines, 3)
	require.Regexp(t, `^ID +KIND +USER`, lines[0])
	require.Regexp(t, `^d1 +device +bea +player +ab12 +active$`, lines[1])
	require.Regexp(t, `^i1 +invite +cid +viewer +- +expired$`, lines[2])
}
