package replay_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestTrustedImports proves that package replay — what an auditor must
// trust to verify, explain and weigh the rolls — depends neither on the
// command layer nor on an in-memory store, directly or through another
// package: re-running commands lives in package reproduce.
func TestTrustedImports(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	require.NoError(t, err, string(out))
	deps := strings.Fields(string(out))
	require.Contains(t, deps, "github.com/campaign-journal/journal/replay")
	for _, banned := range []string{
		"github.com/campaign-journal/journal/command",
		"github.com/campaign-journal/journal/events/memstore",
		"github.com/campaign-journal/journal/reproduce",
	} {
		require.NotContains(t, deps, banned, "package replay must not import %s", banned)
	}
}
