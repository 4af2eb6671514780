package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/clihelp"
	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/jetstore"
	"github.com/campaign-journal/journal/exitcode"
	"github.com/campaign-journal/journal/helptopics"
	"github.com/campaign-journal/journal/live"
	"github.com/campaign-journal/journal/rules/ryf"
)

// commandTree is the journal's command tree, as run builds it.
func commandTree(t *testing.T) *cobra.Command {
	t.Helper()
	return newApp(&bytes.Buffer{}, &bytes.Buffer{}).rootCommand()
}

// visit calls fn on every command under root that is not a help topic
// ('journal help environment') nor cobra's hidden __complete.
func visit(root *cobra.Command, fn func(path string, c *cobra.Command)) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			if sub.IsAdditionalHelpTopicCommand() || strings.HasPrefix(sub.Name(), "__") {
				continue
			}
			fn(strings.TrimPrefix(sub.CommandPath(), "journal "), sub)
			walk(sub)
		}
	}
	walk(root)
}

func TestEveryCommandHasAnExampleAndAGroup(t *testing.T) {
	root := commandTree(t)
	n := 0
	visit(root, func(path string, c *cobra.Command) {
		n++
		if c.Example == "" {
			t.Errorf("journal %s has no Example", path)
		}
		if c.Parent() == root && c.GroupID == "" {
			t.Errorf("journal %s is in no help group", path)
		}
		for _, line := range strings.Split(c.Example, "\n") {
			if !strings.HasPrefix(line, "  ") || !strings.Contains(line, "journal ") && !strings.Contains(line, "source <(") {
				t.Errorf("journal %s: example line %q is not an indented journal command line", path, line)
			}
		}
		if strings.Contains(c.Use, "\n") {
			t.Errorf("journal %s: its usage line spans lines", path)
		}
	})
	require.Greater(t, n, 50, "the command tree")
}

// TestHelpIsGroupedAndCompact: the root help lists the commands by group,
// bench only under Development; a command's help has a short global flags
// section.
func TestHelpIsGroupedAndCompact(t *testing.T) {
	c := newCLI(t)
	out := c.ok("--lang", "en", "--help")
	for _, g := range helptopics.Groups {
		require.Contains(t, out, "\n"+g.Title+"\n", "group %s", g.ID)
	}
	dev := out[strings.Index(out, "Development:"):]
	require.Contains(t, dev, "bench")
	require.Equal(t, 1, strings.Count(out, "\n  bench "), "bench is listed once, under Development")
	require.NotContains(t, out, "Additional Commands")
	require.Contains(t, out, "journal help environment")

	out = c.ok("--lang", "en", "roll", "--help")
	global := out[strings.Index(out, "Global flags"):]
	global = global[:strings.Index(global, "\n\n")+1]
	lines := strings.Split(strings.TrimSpace(global), "\n")
	require.LessOrEqual(t, len(lines), 3, "global flags section:\n%s", global)
	for _, l := range lines {
		require.LessOrEqual(t, len(l), 80, "global flags line %q", l)
	}
	require.Contains(t, out, "Examples:")
	env := c.ok("--lang", "en", "help", "environment")
	require.Contains(t, env, "--sync=false lets JetStream flush")
	require.Contains(t, c.ok("--lang", "en", "help", "exit-codes"), "4  mismatch")
}

// TestExitCodes runs failing command lines and checks each one's exit code,
// its one-line message, and the same failure with --json: one JSON object
// on stderr with the code, the message and the exit status.
func TestExitCodes(t *testing.T) {
	c := newCLI(t)
	c.setupCampaign()
	c.ok("-c", "mordor", "session", "start")
	tests := []struct {
		args []string
		exit int
		code string
		want string // in the message
	}{
		{[]string{"roll", "lodin", "Sigilo", "--bogus"}, exitUsage, "usage", "unknown flag: --bogus"},
		{[]string{"rol", "lodin"}, exitUsage, "usage", `or "roll"?`},
		{[]string{"roll"}, exitUsage, "usage", "journal roll: accepts between 1 and 2 arguments"},
		{[]string{"roll", "lodin", "Sigilo", "--vs", "trivial"}, exitUsage, "usage", `unknown difficulty "trivial"`},
		{[]string{"xp", "grant", "lodin", "x"}, exitUsage, "usage", `XP "x" is not a whole number`},
		{[]string{"roll", "lodin", "Sigilo", "--mod", "x"}, exitUsage, "usage", `--mod "x": want a whole number`},
		{[]string{"damage", "orco", "-3"}, exitUsage, "usage", "damage must be positive, not -3"},
		{[]string{"damage", "orco", "0"}, exitUsage, "usage", "damage must be positive, not 0"},
		{[]string{"heal", "orco", "-2"}, exitUsage, "usage", "healing must be positive, not -2"},
		{[]string{"xp", "grant", "lodin", "-12"}, exitUsage, "usage", "XP must be positive, not -12"},
		{[]string{"roll", "lodin", "-3"}, exitUsage, "usage", "-3: a negative number is read as a flag, and journal roll takes no negative argument"},
		{[]string{"campaign", "create", "x"}, exitUsage, "usage", `required flag(s) "system" not set`},
		{[]string{"odds", "ryf"}, exitUsage, "usage", "--base is required"},
		{[]string{"roll", "gandalf", "Sigilo"}, exitNotFound, "not_found", `no character "gandalf"`},
		{[]string{"roll", "lodin", "Cocina"}, exitNotFound, "not_found", `unknown skill "Cocina": want one of`},
		{[]string{"roll", "lodin", "Sigli"}, exitNotFound, "not_found", `unknown skill "Sigli": did you mean Sigilo?`},
		{[]string{"roll", "lodin", "--attribute", "fuersa"}, exitNotFound, "not_found", `unknown attribute "fuersa": did you mean Fuerza?`},
		{[]string{"roll", "lodin", "Sigilo", "--with-attr", "Q"}, exitNotFound, "not_found", "want one of Fuerza, Resistencia"},
		{[]string{"roll", "lodin", "Sigilo", "--vs", "dificl"}, exitUsage, "usage", "did you mean difícil?"},
		{[]string{"character", "show", "lodni"}, exitNotFound, "not_found", `no character "lodni" in campaign mordor: did you mean lodin?`},
		{[]string{"attack", "lodin", "orco", "--weapon", "Hacha"}, exitFailure, "invalid", "no combat in progress"},
		{[]string{"skill", "raise", "lodin", "Sigilo"}, exitFailure, "invalid", "not enough xp"},
		{[]string{"character", "create", "bad", "--player", "p", "--attrs", "F=11", "--skills", "Pelea=3", "--spec", "Pelea"}, exitFailure, "invalid",
			"invalid character: F (Fuerza) = 11, want 2..10; R (Resistencia) is missing"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, "_"), func(t *testing.T) {
			args := append([]string{"-c", "mordor", "--lang", "en"}, tt.args...)
			out, errb, code := c.run(args...)
			require.Equal(t, tt.exit, code, "stdout %s\nstderr %s", out, errb)
			require.Contains(t, errb, tt.want)
			require.Equal(t, 1, strings.Count(errb, "\n"), "one line: %q", errb)
			require.False(t, strings.HasPrefix(errb, "journal: journal"), "a double prefix: %q", errb)
			for _, code := range []string{"attribute_", "skill_", "invalid request", "not found:"} {
				require.NotContains(t, errb, code, "an internal code in the message")
			}

			out, errb, code = c.run(append(args, "--json")...)
			require.Equal(t, tt.exit, code)
			require.Empty(t, out)
			var doc struct {
				Error struct {
					Code    string `json:"code"`
					Message string `json:"message"`
					Exit    int    `json:"exit"`
				} `json:"error"`
			}
			require.NoError(t, json.Unmarshal([]byte(errb), &doc), "stderr %q", errb)
			require.Equal(t, 1, strings.Count(errb, "\n"), "one JSON object: %q", errb)
			require.Equal(t, tt.code, doc.Error.Code)
			require.Equal(t, tt.exit, doc.Error.Exit)
			require.Contains(t, doc.Error.Message, tt.want)
		})
	}
}

// TestJSONErrorViolations: an invalid character's --json error carries
// the rule codes for programs, which the text leaves out.
func TestJSONErrorViolations(t *testing.T) {
	c := newCLI(t)
	c.setupCampaign()
	_, errb, code := c.run("-c", "mordor", "--json", "character", "create", "bad", "--player", "p", "--attrs", "F=11")
	require.Equal(t, exitFailure, code)
	var doc struct {
		Error struct {
			Message    string `json:"message"`
			Violations []struct {
				Rule string `json:"rule"`
			} `json:"violations"`
		} `json:"error"`
	}
	require.NoError(t, json.Unmarshal([]byte(errb), &doc), errb)
	require.NotContains(t, doc.Error.Message, "attribute_range")
	require.Equal(t, "attribute_range", doc.Error.Violations[0].Rule)
}

// TestMistypedSubcommands: a mistyped subcommand in a group is an error
// with a suggestion (or the list of subcommands), exit 2, never help.
func TestMistypedSubcommands(t *testing.T) {
	c := newCLI(t)
	root := commandTree(t)
	groups := 0
	visit(root, func(path string, cmd *cobra.Command) {
		if !cmd.HasAvailableSubCommands() || cmd.Annotations[clihelp.AnnOwnArgs] != "" {
			return // roll CHAR takes arguments of its own
		}
		groups++
		first := cmd.Commands()[0].Name()
		typo := first[:len(first)-1] + "x" // one letter off
		t.Run(path, func(t *testing.T) {
			out, errb, code := c.run(append([]string{"--lang", "en"}, append(strings.Fields(path), typo)...)...)
			require.Equal(t, exitUsage, code, "stdout %s\nstderr %s", out, errb)
			require.Empty(t, out, "no help on stdout")
			require.Contains(t, errb, `unknown command "`+typo+`"`)
			require.Contains(t, errb, "journal "+path+":")
		})
	})
	require.Greater(t, groups, 10)
	for _, tt := range []struct{ args, want string }{
		{"character shwo", `did you mean "show"?`},
		{"session strat", `did you mean "start"?`},
		{"skill rasie", `did you mean "raise"?`},
		{"skill lisst", `did you mean "list"?`},
		{"shwo", "unknown command"},
	} {
		_, errb, code := c.run(append([]string{"--lang", "en"}, strings.Fields(tt.args)...)...)
		require.Equal(t, exitUsage, code, tt.args)
		require.Contains(t, errb, tt.want, tt.args)
	}
	// So is help about a command that does not exist.
	for _, tt := range []struct{ args, want string }{
		{"help rol", `journal help: unknown command "rol": did you mean "log" or "roll"?`},
		{"help character shwo", `journal help: unknown command "shwo": did you mean "show"?`},
	} {
		out, errb, code := c.run(append([]string{"--lang", "en"}, strings.Fields(tt.args)...)...)
		require.Equal(t, exitUsage, code, tt.args)
		require.Empty(t, out, tt.args)
		require.Contains(t, errb, tt.want, tt.args)
	}
	require.Contains(t, c.ok("help", "roll", "lodin"), "journal roll CHAR")
	// A group alone still shows its help.
	out, _, code := c.run("--lang", "en", "character")
	require.Equal(t, exitOK, code)
	require.Contains(t, out, "Usage:")
}

// TestReadCommandsNeverCreateTheFolder: every read-only command on a data
// folder that does not exist fails with exit 3, names the absolute folder,
// and leaves no folder behind; a relative --data is made absolute.
func TestReadCommandsNeverCreateTheFolder(t *testing.T) {
	c := newCLI(t)
	missing := filepath.Join(t.TempDir(), "none", "journal")
	for _, args := range [][]string{
		{"character", "list"}, {"character", "show", "lodin"}, {"campaign", "show"}, {"combat", "show"},
		{"fellowship", "show"}, {"advancement", "show", "bilbo"}, {"log"}, {"export"}, {"replay"},
		{"stats"}, {"explain", "01a230d8-6ed5-700e-97e8-163cf2f8bbc7"},
	} {
		t.Run(strings.Join(args, "_"), func(t *testing.T) {
			out, errb, code := c.run(append([]string{"--data", missing, "-c", "mordor", "--lang", "en"}, args...)...)
			require.Equal(t, exitNotFound, code, "stdout %s\nstderr %s", out, errb)
			require.Contains(t, errb, "no journal in "+missing+": create a campaign first")
			_, err := os.Stat(filepath.Dir(missing))
			require.True(t, os.IsNotExist(err), "the read created %s", filepath.Dir(missing))
		})
	}
	// Completing never creates it either, and says nothing.
	out, errb, code := c.run("--data", missing, "__complete", "-c", "mordor", "roll", "")
	require.Equal(t, exitOK, code, errb)
	require.NotContains(t, out, "no journal")
	_, err := os.Stat(filepath.Dir(missing))
	require.True(t, os.IsNotExist(err))

	// A relative --data: errors name the absolute folder.
	dir := t.TempDir()
	t.Chdir(dir)
	_, errb, code = c.run("--data", "rel/journal", "-c", "mordor", "--lang", "en", "character", "list")
	require.Equal(t, exitNotFound, code)
	require.Contains(t, errb, "no journal in "+filepath.Join(dir, "rel/journal"))
	// A write creates it; a later read finds it; an unknown campaign names it.
	c.ok("--data", "rel/journal", "campaign", "create", "mordor", "--system", "ryf")
	_, errb, code = c.run("--data", "rel/journal", "-c", "mordr", "--lang", "en", "character", "list")
	require.Equal(t, exitNotFound, code)
	require.Contains(t, errb, "campaign mordr does not exist in "+filepath.Join(dir, "rel/journal")+": did you mean mordor?")
}

// TestReadCommandsExist keeps readCommands in step with the tree.
func TestReadCommandsExist(t *testing.T) {
	root := commandTree(t)
	var paths []string
	visit(root, func(path string, c *cobra.Command) { paths = append(paths, path) })
	for _, p := range readCommands {
		require.Contains(t, paths, p, "readCommands names a command that does not exist")
	}
	for p := range helptopics.Examples() {
		require.Contains(t, paths, p, "examples names a command that does not exist")
	}
	for p := range helptopics.GroupOf {
		require.True(t, slices.ContainsFunc(root.Commands(), func(c *cobra.Command) bool { return c.Name() == p }), "groupOf names %s", p)
	}
}

// TestCompletion: the shells' scripts, and the names a test journal has.
func TestCompletion(t *testing.T) {
	c := newCLI(t)
	c.setupCampaign()
	c.ok("-c", "mordor", "session", "start", "--title", "La torre")
	c.ok("-c", "mordor", "weapon", "define", "Ballesta de mano", "--skill", "Pelea", "--damage", "1d6")
	for _, sh := range []string{"bash", "zsh", "fish"} {
		require.Contains(t, c.ok("completion", sh), "journal", sh)
	}
	complete := func(args ...string) []string {
		t.Helper()
		out := c.ok(append([]string{"__complete"}, args...)...)
		var names []string
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			if !strings.HasPrefix(l, ":") {
				names = append(names, l)
			}
		}
		return names
	}
	tests := []struct {
		args []string
		want []string
		not  []string
	}{
		{[]string{"-c", ""}, []string{"mordor"}, nil},
		{[]string{"-c", "mordor", "roll", ""}, []string{"lodin", "orco"}, nil},
		{[]string{"-c", "mordor", "roll", "lo"}, []string{"lodin"}, []string{"orco"}},
		{[]string{"-c", "mordor", "roll", "lodin", "si"}, []string{"Sigilo"}, []string{"Pelea"}},
		{[]string{"-c", "mordor", "roll", "lodin", "Sigilo", ""}, nil, []string{"lodin", "Sigilo"}},
		{[]string{"-c", "mordor", "attack", "lodin", "--weapon", ""}, []string{"Espada", "Ballesta de mano"}, nil}, // the campaign's weapons too
		{[]string{"-c", "mordor", "log", "--session", ""}, []string{"s1"}, nil},
		{[]string{"-c", "mordor", "roll", "lodin", "--with-attr", ""}, []string{"F", "P"}, nil},
		{[]string{"-c", "mordor", "roll", "lodin", "Sigilo", "--vs", ""}, []string{"difícil"}, nil},
		{[]string{"-c", "mordor", "contest", "lodin", "Sigilo", ""}, []string{"orco"}, nil},
		{[]string{"roll", ""}, []string{"lodin"}, nil}, // the only campaign
	}
	for _, tt := range tests {
		got := complete(tt.args...)
		for _, w := range tt.want {
			require.Contains(t, got, w, "complete %q", tt.args)
		}
		for _, n := range tt.not {
			require.NotContains(t, got, n, "complete %q", tt.args)
		}
	}
}

func TestVersion(t *testing.T) {
	c := newCLI(t)
	var v versionInfo
	require.NoError(t, json.Unmarshal([]byte(c.ok("version", "--json")), &v))
	require.NotEmpty(t, v.Version)
	require.Equal(t, "2.15.2", v.NATSServer)
	require.True(t, strings.HasPrefix(v.Go, "go"), v.Go)
	v = versionFrom(&debug.BuildInfo{Main: debug.Module{Version: "v1.2.0"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "true"}}}, "", "")
	require.Equal(t, "v1.2.0", v.Version)
	require.Contains(t, v.Short(), "v1.2.0 (0123456789ab+modified, go")
	v = versionFrom(nil, "v9", "abc")
	require.Equal(t, "v9 (abc, "+v.Go+", nats-server 2.15.2)", v.Short())
	out := c.ok("--version")
	require.Contains(t, out, "nats-server 2.15.2")
	require.Contains(t, c.ok("version"), "nats-server  2.15.2")
}

// TestRollAttributeFlags: --with-attr names another attribute for a skill
// roll, --attribute makes an attribute roll, the old --attr still works
// with a notice.
func TestRollAttributeFlags(t *testing.T) {
	c := newCLI(t)
	c.setupCampaign()
	c.ok("-c", "mordor", "session", "start")
	kind := func(args ...string) (string, string, string) {
		t.Helper()
		out, errb, code := c.run(append([]string{"-c", "mordor", "--json", "roll", "lodin"}, args...)...)
		require.Equal(t, exitOK, code, errb)
		var doc struct {
			Recorded []struct {
				Event struct {
					Data struct {
						Kind  string `json:"kind"`
						Skill string `json:"skill"`
						Attr  string `json:"attribute"`
					} `json:"data"`
				} `json:"event"`
			} `json:"recorded"`
		}
		require.NoError(t, json.Unmarshal([]byte(out), &doc), out)
		d := doc.Recorded[0].Event.Data
		return d.Kind, d.Attr, errb
	}
	k, attr, errb := kind("Sigilo", "--with-attr", "P")
	require.Equal(t, "skill", k)
	require.Equal(t, "P", attr)
	require.Empty(t, errb)
	k, attr, errb = kind("Sigilo", "--attr", "P")
	require.Equal(t, "skill", k)
	require.Equal(t, "P", attr)
	require.Equal(t, "journal: nota: --attr está obsoleta, usa --with-attr\n", errb, "in the output's language")
	k, attr, _ = kind("--attribute", "F")
	require.Equal(t, "attribute", k)
	require.Equal(t, "F", attr)
	_, errb, code := c.run("-c", "mordor", "--lang", "en", "roll", "lodin", "Sigilo", "--attribute", "F")
	require.Equal(t, exitUsage, code)
	require.Contains(t, errb, "not both")
	out := c.ok("roll", "--help")
	require.NotContains(t, out, "--attr ")
}

// TestOddsBase: --base is required and within what a character can have.
func TestOddsBase(t *testing.T) {
	c := newCLI(t)
	tests := []struct {
		args []string
		exit int
		want string
	}{
		{[]string{"odds", "ryf", "--vs", "20"}, exitUsage, "--base is required"},
		{[]string{"odds", "ryf", "--base", "40"}, exitUsage, "--base 40: attribute + skill is 2..20"},
		{[]string{"odds", "ryf", "--base", "1"}, exitUsage, "2..20"},
		{[]string{"odds", "ryf", "--base", "3", "--kind", "attribute"}, exitUsage, "2 × attribute is 4..20"},
		{[]string{"odds", "ryf", "--base", "12", "--mod", "101"}, exitUsage, "--mod 101"},
		{[]string{"odds", "ryf", "--base", "12", "--vs", "20"}, exitOK, "base 12"},
		{[]string{"odds", "ryf", "--base", "12", "--mod", "3", "--vs", "20"}, exitOK, "base 15"},
	}
	for _, tt := range tests {
		out, errb, code := c.run(append([]string{"--lang", "en"}, tt.args...)...)
		require.Equal(t, tt.exit, code, "%q: %s %s", tt.args, out, errb)
		require.Contains(t, out+errb, tt.want, tt.args)
	}
	_, err := os.Stat(c.dir + "/jetstream")
	require.True(t, os.IsNotExist(err), "odds opened the journal")
}

// TestPlurals: counts of one read in the singular.
func TestPlurals(t *testing.T) {
	c := newCLI(t)
	out := c.ok("--lang", "en", "odds", "tor", "--dice", "1")
	require.Contains(t, out, "1 success die against")
	require.Contains(t, c.ok("--lang", "en", "odds", "tor", "--dice", "2"), "2 success dice against")
	require.Contains(t, c.ok("odds", "tor", "--dice", "1"), "1 dado de éxito contra")
	require.Contains(t, c.ok("odds", "tor", "--dice", "2"), "2 dados de éxito contra")
	require.Equal(t, "1 point", plural(1, "point", "points"))
	require.Equal(t, "0 points", plural(0, "point", "points"))
	_, errb, _ := c.run("roll")
	require.NotContains(t, errb, "arg(s)")
}

// TestExitCodeOfSentinels: the one mapping from the command layer's
// sentinel errors, however wrapped, to exit codes and --json codes.
func TestExitCodeOfSentinels(t *testing.T) {
	tests := []struct {
		err  error
		exit int
		code string
	}{
		{nil, exitOK, ""},
		{exitcode.MismatchError{Message: "verification failed: 2 mismatches"}, exitMismatch, "mismatch"},
		{fmt.Errorf("replay: %w", ErrMismatch), exitMismatch, "mismatch"},
		{fmt.Errorf("%w: 2 flags, no mismatch", ErrFlagged), exitFlagged, "flagged"},
		{usagef("bad"), exitUsage, "usage"},
		{fmt.Errorf("%w: no character %q", command.ErrNotFound, "x"), exitNotFound, "not_found"},
		{fmt.Errorf("%w in /x: create a campaign first", errNoJournal), exitNotFound, "not_found"},
		{fmt.Errorf("%w: nope", command.ErrInvalid), exitFailure, "invalid"},
		{fmt.Errorf("%w: publish", events.ErrDenied), exitFailure, "denied"},
		{fmt.Errorf("%w: seq 3", events.ErrConcurrency), exitFailure, "conflict"},
		{fmt.Errorf("%w %q", ryf.ErrUnknownSkill, "Cocina"), exitNotFound, "not_found"},
		{fmt.Errorf("%w %q", ryf.ErrUnknownDifficulty, "x"), exitUsage, "usage"},
		{errors.New("disk full"), exitFailure, "failure"},
		{fmt.Errorf("%w: %q", events.ErrInvalidID, "Bad_ID"), exitUsage, "usage"},
		{fmt.Errorf("export: %w", fs.ErrNotExist), exitNotFound, "not_found"},
		{fmt.Errorf("store: %w", context.DeadlineExceeded), exitFailure, "timeout"},
	}
	for _, tt := range tests {
		exit, code := exitCode(tt.err)
		require.Equal(t, tt.exit, exit, "%v", tt.err)
		require.Equal(t, tt.code, code, "%v", tt.err)
	}
}

// TestDescriptionsNameTheCodesValues: a command's description in
// helptopics (topics/commands.en.txt) that names a value of the code
// names the value the code has (a renamed bucket, file or default is
// renamed in the help too).
func TestDescriptionsNameTheCodesValues(t *testing.T) {
	longs := helptopics.Longs()
	for path, values := range map[string][]string{
		"serve":       {live.Bucket},
		"healthcheck": {"<data>/" + HTTPInfoFile + ",", "(such as " + DefaultHealthURL + ")"},
		"migrate":     {"the stream " + jetstore.BackupStream + "."},
	} {
		for _, v := range values {
			require.Containsf(t, longs[path], v, "journal %s --help", path)
		}
	}
}
