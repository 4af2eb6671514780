package serve

import (
	"fmt"
	"time"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/limit"
)

// Limiter returns the limits on appends of the access file cfg (its
// limits object, or the defaults) for the one journal the server runs
// every HTTP and NATS command through: every user's rate, a user's own
// where it has one, and the campaigns' quota; the journal role's users
// are exempt. Nil without an access file: the server then answers its own
// host alone, on loopback. The CLI's own journal has no limits: it acts
// as the journal on its data folder.
func Limiter(cfg *access.Config, clock func() time.Time) command.Limiter {
	if cfg == nil {
		return nil
	}
	perMinute, burst := cfg.AppendRate("")
	users := map[string]limit.Rate{}
	for _, u := range cfg.Users {
		if u.Limits != nil {
			pm, b := cfg.AppendRate(u.Name)
			users[u.Name] = limit.Rate{PerMinute: pm, Burst: b}
		}
	}
	return limit.New(limit.Config{Rate: limit.Rate{PerMinute: perMinute, Burst: burst}, Users: users,
		Exempt: cfg.Exempt(), CampaignMaxEvents: cfg.CampaignMaxEvents(), Clock: clock})
}

// LimitsBanner describes the limits on appends for the server's banner
// ("" without an access file).
func LimitsBanner(cfg *access.Config) string {
	if cfg == nil {
		return ""
	}
	perMinute, burst := cfg.AppendRate("")
	return fmt.Sprintf(" · limits: %d commands a minute a user and campaign (%d at once), %d events a campaign", perMinute, burst, cfg.CampaignMaxEvents())
}
