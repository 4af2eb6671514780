package clihelp

import (
	"bytes"
	"errors"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/exitcode"
	"github.com/campaign-journal/journal/i18n"
)

// lang is a --lang value: the language given, if any.
type lang struct {
	l   i18n.Lang
	set bool
}

func (f *lang) String() string          { return string(f.l) }
func (f *lang) Type() string            { return "es|en" }
func (f *lang) Set(s string) error      { f.l, f.set = i18n.Lang(s), true; return nil }
func (f *lang) Lang() (i18n.Lang, bool) { return f.l, f.set }

// tree is a small organized tree: journal character show|list, roll.
func tree() (*cobra.Command, *bytes.Buffer) {
	var out bytes.Buffer
	root := &cobra.Command{Use: "journal", SilenceUsage: true, SilenceErrors: true}
	root.SetOut(&out)
	root.SetErr(&out)
	root.PersistentFlags().Var(&lang{}, "lang", "language of the output, `es|en`")
	character := &cobra.Command{Use: "character", Short: "Create and show characters"}
	for _, name := range []string{"show", "list"} {
		character.AddCommand(&cobra.Command{Use: name, Short: name, Args: cobra.NoArgs, RunE: func(*cobra.Command, []string) error { return nil }})
	}
	root.AddCommand(character, &cobra.Command{Use: "roll", Short: "Roll", RunE: func(*cobra.Command, []string) error { return nil }})
	Organize(root)
	return root, &out
}

func run(root *cobra.Command, args ...string) error {
	root.SetArgs(args)
	return root.Execute()
}

// TestUnknownSubcommand: a mistyped subcommand, or help about one, is a
// usage error with suggestions or the list of subcommands.
func TestUnknownSubcommand(t *testing.T) {
	root, out := tree()
	err := run(root, "character", "shwo")
	require.True(t, errors.Is(err, exitcode.ErrUsage), "%v", err)
	require.EqualError(t, err, `journal character: unknown command "shwo": did you mean "show"? (see 'journal character --help')`)
	root, _ = tree()
	require.EqualError(t, run(root, "character", "zzz"),
		`journal character: unknown command "zzz": want one of list, show (see 'journal character --help')`)
	root, _ = tree()
	require.EqualError(t, run(root, "help", "character", "shwo"), `journal help: unknown command "shwo": did you mean "show"? (see 'journal character --help')`)
	root, _ = tree()
	err = run(root, "character", "show", "x")
	require.True(t, errors.Is(err, exitcode.ErrUsage), "%v", err)
	require.Contains(t, err.Error(), "journal character show: ")
	require.Contains(t, err.Error(), "(usage: journal character show [flags])")
	require.Empty(t, out.String(), "no help printed")
	require.Equal(t, `"a"`, orList(quoteAll([]string{"a"})).Error())
	require.Equal(t, `"a", "b" or "c"`, orList(quoteAll([]string{"a", "b", "c"})).Error())
}

// TestHelpLanguage: --lang wins over the locale; the help's headings and
// Shorts follow it, the tree stays English.
func TestHelpLanguage(t *testing.T) {
	t.Setenv("LC_ALL", "")
	t.Setenv("LC_MESSAGES", "")
	t.Setenv("LANG", "es_ES.UTF-8")
	root, out := tree()
	require.Equal(t, i18n.ES, helpLanguage(root))
	require.NoError(t, run(root, "--lang", "en", "character", "--help"))
	require.Equal(t, i18n.EN, helpLanguage(root))
	require.Contains(t, out.String(), "Usage:")
	require.Contains(t, out.String(), "[flags]")

	root, out = tree()
	require.NoError(t, run(root, "character", "--help"))
	require.Contains(t, out.String(), "Uso:")
	require.NotContains(t, out.String(), "Usage:")
	require.Equal(t, "Create and show characters", root.Commands()[0].Short, "the tree is not translated")
}

// TestCompactFlags: the global flags fit on lines of at most 80 columns.
func TestCompactFlags(t *testing.T) {
	fs := (&cobra.Command{}).Flags()
	for _, name := range []string{"json", "sync", "verbose", "quiet", "dry-run", "no-color", "force", "all", "watch", "follow", "raw"} {
		fs.Bool(name, false, "")
	}
	fs.StringP("campaign", "c", "", "campaign `ID`")
	got := compactFlags(fs)
	require.Contains(t, got, "-c/--campaign ID")
	for _, line := range bytes.Split([]byte(got), []byte("\n")) {
		require.LessOrEqual(t, len(line), 80)
	}
	require.Greater(t, bytes.Count([]byte(got), []byte("\n")), 0, "more than one line")
}
