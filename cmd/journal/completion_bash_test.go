package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// bashCompletionLib is where Debian's bash-completion package keeps the
// functions cobra's bash script needs (_get_comp_words_by_ref).
const bashCompletionLib = "/usr/share/bash-completion/bash_completion"

// TestBashCompletionIgnoresCase runs the script of 'journal completion
// bash' in a real bash, as a Tab would, with this test binary as
// `journal`: names complete whatever the case and accents typed (cobra's
// script matched again, case-sensitively, and dropped them: "roll lodin
// si" gave nothing), and commands still complete by their start.
func TestBashCompletionIgnoresCase(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	if _, err := os.Stat(bashCompletionLib); err != nil {
		t.Skipf("bash-completion is not installed (Debian: apt-get install bash-completion): %v", err)
	}
	c := newCLI(t)
	c.setupCampaign()
	self, err := os.Executable()
	require.NoError(t, err)
	bin := t.TempDir()
	require.NoError(t, os.Symlink(self, filepath.Join(bin, "journal")))
	script := filepath.Join(t.TempDir(), "journal.bash")
	require.NoError(t, os.WriteFile(script, []byte(c.ok("completion", "bash")), 0o644))

	complete := func(compType int, line string) []string {
		t.Helper()
		words := strings.Fields(line)
		if strings.HasSuffix(line, " ") {
			words = append(words, "")
		}
		quoted := make([]string, len(words))
		for i, w := range words {
			quoted[i] = strconv.Quote(w)
		}
		prog := "source " + bashCompletionLib + "\nsource " + script + "\n" +
			"COMP_LINE=" + strconv.Quote(line) + "\nCOMP_POINT=${#COMP_LINE}\n" +
			"COMP_WORDS=(" + strings.Join(quoted, " ") + ")\nCOMP_CWORD=" + strconv.Itoa(len(words)-1) + "\n" +
			"COMP_TYPE=" + strconv.Itoa(compType) + "\n__start_journal\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n"
		cmd := exec.Command(bash, "--norc", "--noprofile", "-c", prog)
		cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
			"JOURNAL_TEST_IS_JOURNAL=1", "JOURNAL_DATA="+c.dir, "COLUMNS=200",
			"LC_ALL=C.UTF-8") // a UTF-8 locale every Debian has: bash's printf %q keeps "í" as it is
		out, err := cmd.Output()
		require.NoError(t, err, "%s", line)
		var got []string
		for _, l := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
			if l != "" {
				got = append(got, strings.TrimSpace(strings.SplitN(l, "  (", 2)[0])) // without a description
			}
		}
		return got
	}
	const tab, menu = 9, 37 // COMP_TYPE of Tab, and of menu-complete
	for _, tt := range []struct {
		line string
		want []string
	}{
		{"journal -c mordor roll lo", []string{"lodin"}},
		{"journal -c mordor roll LO", []string{"lodin"}},
		{"journal -c mordor roll lodin si", []string{"Sigilo"}},
		{"journal -c mordor roll lodin SIG", []string{"Sigilo"}},
		{"journal -c mordor roll lodin armas", []string{"Armas a distancia", "Armas cuerpo a cuerpo"}},
		{"journal -c mordor roll lodin Sigilo --vs dific", []string{"difícil"}},
		{"journal -c mordor attack lodin orco --weapon esp", []string{"Espada"}},
		{"journal ro", []string{"roll"}},
	} {
		require.Equal(t, tt.want, complete(tab, tt.line), "Tab after %q", tt.line)
	}
	require.Equal(t, []string{"Sigilo"}, complete(menu, "journal -c mordor roll lodin si"), "menu-complete")
	require.Subset(t, complete(tab, "journal -c mordor roll "), []string{"lodin", "orco"})
}
