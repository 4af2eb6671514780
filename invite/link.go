package invite

import (
	"strings"

	"github.com/campaign-journal/journal/access"
)

// LinkFor is the link that signs a browser in to the table at base (the
// address players reach journal serve by) with the invite token tok.
func LinkFor(base, tok string) string { return strings.TrimRight(base, "/") + "/table#invite=" + tok }

// Taken reports that the access file cfg gives user another role than
// role in campaign, and the principal it gives: an invite both doors
// (journal invite, the GM's page) refuse. A device signs in to its own
// campaign: the same name may play in another (the journal's
// participants are per campaign), but not take another role in a
// campaign the access file gives it.
func Taken(cfg *access.Config, user, campaign, role string) (access.Principal, bool) {
	if p, ok := cfg.ByName(user); ok && (p.Campaign == campaign || p.Campaign == access.AllCampaigns) {
		if p.Role != AccessRole(role) {
			return p, true
		}
	}
	return access.Principal{}, false
}

// AccessRole is the access file's role an invite's role acts as: a gm a
// gm, a viewer a dashboard, a player (or any other) a player.
func AccessRole(role string) access.Role {
	switch role {
	case RoleGM:
		return access.RoleGM
	case RoleViewer:
		return access.RoleDashboard
	}
	return access.RolePlayer
}
