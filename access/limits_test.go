package access_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/access"
)

// limitsUsers are a journal user, a GM and a player, for the limits'
// cases to add a limits object to.
const limitsUsers = `{"name":"journal","role":"journal","password":"x"},
	{"name":"ana","role":"gm","campaign":"mordor","password":"y"},
	{"name":"bea","role":"player","campaign":"mordor","characters":["ruisenor"],"password":"z"`

// TestParseLimits: the limits object is validated as strictly as the
// rest of the file: unknown fields and negative values refused, 0 or
// nothing the default; a user's own limits are for its rate only, and
// not for the journal role.
func TestParseLimits(t *testing.T) {
	tests := []struct {
		name  string
		json  string
		want  string // substring of the error; "" accepted
		rate  [2]int // bea's rate
		quota int
	}{
		{"none", `{"users":[` + limitsUsers + `}]}`, "", [2]int{120, 30}, 200000},
		{"empty", `{"users":[` + limitsUsers + `}],"limits":{}}`, "", [2]int{120, 30}, 200000},
		{"zeros are the defaults", `{"users":[` + limitsUsers + `}],"limits":{"appends_per_minute":0,"burst":0,"campaign_max_events":0}}`, "", [2]int{120, 30}, 200000},
		{"all", `{"users":[` + limitsUsers + `}],"limits":{"appends_per_minute":60,"burst":10,"campaign_max_events":5000}}`, "", [2]int{60, 10}, 5000},
		{"some", `{"users":[` + limitsUsers + `}],"limits":{"burst":5}}`, "", [2]int{120, 5}, 200000},
		{"user's own", `{"users":[` + limitsUsers + `,"limits":{"appends_per_minute":600}}],"limits":{"burst":5}}`, "", [2]int{600, 5}, 200000},
		{"unknown field", `{"users":[` + limitsUsers + `}],"limits":{"campaign_max_bytes":268435456}}`, "unknown field", [2]int{}, 0},
		{"not an object", `{"users":[` + limitsUsers + `}],"limits":120}`, "cannot unmarshal", [2]int{}, 0},
		{"fraction", `{"users":[` + limitsUsers + `}],"limits":{"appends_per_minute":0.5}}`, "cannot unmarshal", [2]int{}, 0},
		{"negative rate", `{"users":[` + limitsUsers + `}],"limits":{"appends_per_minute":-1}}`,
			"limits: appends_per_minute is -1: want a positive number (0 or none: the default)", [2]int{}, 0},
		{"negative burst", `{"users":[` + limitsUsers + `}],"limits":{"burst":-30}}`, "limits: burst is -30", [2]int{}, 0},
		{"negative quota", `{"users":[` + limitsUsers + `}],"limits":{"campaign_max_events":-1}}`, "limits: campaign_max_events is -1", [2]int{}, 0},
		{"user's negative", `{"users":[` + limitsUsers + `,"limits":{"burst":-1}}]}`, `user "bea": limits: burst is -1`, [2]int{}, 0},
		{"user's quota", `{"users":[` + limitsUsers + `,"limits":{"campaign_max_events":10}}]}`, "unknown field", [2]int{}, 0},
		{"journal's own", `{"users":[{"name":"journal","role":"journal","password":"x","limits":{"burst":1}}]}`, "the journal role is never limited", [2]int{}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := access.Parse([]byte(tt.json))
			if tt.want != "" {
				if err == nil || !errors.Is(err, access.ErrConfig) || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("Parse error = %v, want one wrapping ErrConfig and saying %q", err, tt.want)
				}
				return
			}
			require.NoError(t, err)
			if pm, b := c.AppendRate("bea"); [2]int{pm, b} != tt.rate {
				t.Errorf("bea's rate: got %d a minute, %d at once; want %v", pm, b, tt.rate)
			}
			if got := c.CampaignMaxEvents(); got != tt.quota {
				t.Errorf("quota: got %d, want %d", got, tt.quota)
			}
			require.Equal(t, []string{"journal"}, c.Exempt())
		})
	}
}

// TestLimitsKept: the limits survive the changes of `journal access`
// (With, Without, Replace) and a save and load; a user's own limits are
// its own.
func TestLimitsKept(t *testing.T) {
	c, err := access.Parse([]byte(`{"users":[` + limitsUsers + `,"limits":{"burst":3}}],"limits":{"appends_per_minute":60,"campaign_max_events":99}}`))
	require.NoError(t, err)
	check := func(t *testing.T, c *access.Config, what string) {
		t.Helper()
		if pm, b := c.AppendRate("ana"); pm != 60 || b != access.DefaultBurst {
			t.Errorf("%s: ana's rate %d, %d; want 60, %d", what, pm, b, access.DefaultBurst)
		}
		if c.CampaignMaxEvents() != 99 {
			t.Errorf("%s: quota %d, want 99", what, c.CampaignMaxEvents())
		}
	}
	with, err := c.With(access.User{Name: "cai", Role: access.RolePlayer, Campaign: "mordor", Characters: []string{"lodin"}, Password: "w"})
	require.NoError(t, err)
	check(t, with, "With")
	without, err := with.Without("cai")
	require.NoError(t, err)
	check(t, without, "Without")
	bea, err := without.User("bea")
	require.NoError(t, err)
	bea.Password = "v"
	replaced, err := without.Replace(bea)
	require.NoError(t, err)
	check(t, replaced, "Replace")
	if pm, b := replaced.AppendRate("bea"); pm != 60 || b != 3 {
		t.Errorf("bea's own burst lost: %d, %d", pm, b)
	}
	path := filepath.Join(t.TempDir(), "access.json")
	require.NoError(t, replaced.Save(path))
	loaded, err := access.Load(path)
	require.NoError(t, err)
	check(t, loaded, "Save and Load")

	_, err = c.WithLimits(&access.Limits{Burst: -1})
	require.ErrorIs(t, err, access.ErrConfig)
	lifted, err := c.WithLimits(nil)
	require.NoError(t, err)
	if pm, _ := lifted.AppendRate("ana"); pm != access.DefaultAppendsPerMinute {
		t.Errorf("WithLimits(nil): %d a minute, want the default", pm)
	}
}

// TestExampleLimits: deploy/access.example.json shows the limits block
// with the defaults.
func TestExampleLimits(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "deploy", "access.example.json"))
	require.NoError(t, err)
	c, err := access.Parse(b)
	require.NoError(t, err)
	require.Equal(t, &access.Limits{AppendsPerMinute: access.DefaultAppendsPerMinute, Burst: access.DefaultBurst,
		CampaignMaxEvents: access.DefaultCampaignMaxEvents}, c.Limits)
}
