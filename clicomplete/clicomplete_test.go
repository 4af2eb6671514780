package clicomplete

import (
	"context"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/projections"
)

func TestKindsOfPanicsOnAnUnknownName(t *testing.T) {
	require.Equal(t, []Kind{Character, None, Skill}, kindsOf([]string{"character", "", "skill"}))
	require.Panics(t, func() { kindsOf([]string{"dragon"}) })
}

func TestBashScriptWithoutItsFiltersIsKept(t *testing.T) {
	require.Equal(t, "echo hi\n", bashKeepsJournalMatches("echo hi\n"))
}

func TestCampaignNames(t *testing.T) {
	camp := &projections.Campaign{Roster: []string{"lodin", "orco"}, Sessions: []*projections.Session{{ID: "s1"}}}
	require.Equal(t, []string{"lodin", "orco"}, CampaignNames(camp, Character, nil))
	require.Equal(t, []string{"s1"}, CampaignNames(camp, Session, nil))
	require.Nil(t, CampaignNames(camp, Difficulty, nil))
}

// TestInstall completes a made-up tree: by annotation, by path, a flag,
// whatever the case typed, and nothing past the last argument.
func TestInstall(t *testing.T) {
	root := &cobra.Command{Use: "journal"}
	root.PersistentFlags().String("campaign", "", "")
	roll := &cobra.Command{Use: "roll", Args: cobra.ExactArgs(2), Annotations: map[string]string{Annotation: "character,skill"}, Run: func(*cobra.Command, []string) {}}
	show := &cobra.Command{Use: "show", Args: cobra.ExactArgs(1), Run: func(*cobra.Command, []string) {}}
	show.Flags().String("vs", "", "")
	root.AddCommand(roll, show)
	src := func(_ context.Context, k Kind, args []string) []string {
		switch k {
		case Character:
			return []string{"Lodin", "Orco"}
		case Skill:
			return []string{"Sigilo", args[0]}
		}
		return nil
	}
	Install(root, map[string][]Kind{"show": {Character}, "show --vs": {Difficulty}}, src)
	complete := func(c *cobra.Command, args []string, prefix string) []string {
		got, dir := c.ValidArgsFunction(c, args, prefix)
		require.Equal(t, cobra.ShellCompDirectiveNoFileComp, dir)
		return got
	}
	require.Equal(t, []string{"Lodin"}, complete(roll, nil, "lo"))
	require.Equal(t, []string{"Sigilo"}, complete(roll, []string{"Lodin"}, "SI"))
	require.Nil(t, complete(roll, []string{"Lodin", "Sigilo"}, ""))
	require.Equal(t, []string{"Orco"}, complete(show, nil, "o"))
	vs, ok := show.GetFlagCompletionFunc("vs")
	require.True(t, ok)
	got, _ := vs(show, nil, "DIF")
	require.Equal(t, []string{"difícil"}, got)
}
