package main

import (
	"fmt"
	"time"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/limit"
)

// limiter returns the limits on appends of the access file (its limits
// object, or the defaults) for the one journal `serve` runs every HTTP and
// NATS command through: every user's rate, a user's own where it has one,
// and the campaigns' quota; the journal role's users are exempt. Nil
// without an access file: serve then answers its own host alone, on
// loopback. The CLI's own journal (a.journal) has no limits: it acts as
// the journal on its data folder.
func (a *app) limiter(clock func() time.Time) command.Limiter {
	if a.access == nil {
		return nil
	}
	perMinute, burst := a.access.AppendRate("")
	users := map[string]limit.Rate{}
	for _, u := range a.access.Users {
		if u.Limits != nil {
			pm, b := a.access.AppendRate(u.Name)
			users[u.Name] = limit.Rate{PerMinute: pm, Burst: b}
		}
	}
	return limit.New(limit.Config{Rate: limit.Rate{PerMinute: perMinute, Burst: burst}, Users: users,
		Exempt: a.access.Exempt(), CampaignMaxEvents: a.access.CampaignMaxEvents(), Clock: clock})
}

// limitsBanner describes the limits on appends for serve's banner ("" without
// an access file).
func (a *app) limitsBanner() string {
	if a.access == nil {
		return ""
	}
	perMinute, burst := a.access.AppendRate("")
	return fmt.Sprintf(" · limits: %d commands a minute a user and campaign (%d at once), %d events a campaign", perMinute, burst, a.access.CampaignMaxEvents())
}
