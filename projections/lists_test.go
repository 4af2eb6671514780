package projections

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/rules/ryf"
)

// TestWeaponListReplacesBySystemName: a campaign weapon named as a
// system one (case aside) takes its place, another comes after; The One
// Ring has no system weapons.
func TestWeaponListReplacesBySystemName(t *testing.T) {
	sys := ryf.KnownWeapons(ryf.System(events.SystemRyF))
	require.NotEmpty(t, sys)
	c := &Campaign{System: events.SystemRyF, Weapons: []events.WeaponDefined{
		{Name: strings.ToUpper(sys[0].Name), Damage: "9d10", Skill: "Pelea"},
		{Name: "Sartén", Damage: "1d6", Skill: "Pelea"},
	}}
	rows := WeaponList(c)
	require.Len(t, rows, len(sys)+1)
	require.Equal(t, "9d10", rows[0].Damage)
	require.Equal(t, "campaign", rows[0].Origin)
	require.Equal(t, "Sartén", rows[len(rows)-1].Name)
	c.System = events.SystemTOR
	require.Len(t, WeaponList(c), 2)
	require.NotNil(t, SessionList(&Campaign{}), "an empty list is [], not null")
}
