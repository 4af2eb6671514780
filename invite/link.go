package invite

import (
	"strings"

	"github.com/campaign-journal/journal/access"
)

// LinkFor is the link that signs a browser in to the table at base (the
// address players reach journal serve by) with the invite token tok.
func LinkFor(base, tok string) string { return strings.TrimRight(base, "/") + "/table#invite=" + tok }

// Taken reports that the access file cfg gives user another role than
// role in campaign, and the principal it gives. A device signs in to its
// own campaign: the same name may play in another (the journal's
// participants are per campaign), but not take another role in a
// campaign the access file gives it.
func Taken(cfg *access.Config, user, campaign, role string) (access.Principal, bool) {
	if p, ok := cfg.ByName(user); ok && (p.Campaign == campaign || p.Campaign == access.AllCampaigns) {
		want := map[string]access.Role{RolePlayer: access.RolePlayer, RoleGM: access.RoleGM, RoleViewer: access.RoleDashboard}[role]
		if p.Role != want {
			return p, true
		}
	}
	return access.Principal{}, false
}
