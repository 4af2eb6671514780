package main

import (
	"io"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command/catalog"
	"github.com/campaign-journal/journal/rules/tor"
)

// handFilled are the body fields of catalogued commands that their CLI
// command fills itself, not from a flag or an argument of the same name,
// by command: why is the comment.
var handFilled = map[string][]string{
	"weapon-define":      {"ranged", "short_m", "medium_m", "long_m"},                               // --ranges SHORT/MEDIUM/LONG (its form's flag)
	"key-register":       {"public_key", "approval", "name", "user", "role", "signed", "signature"}, // signed on this device (key.go)
	"key-approve":        {"signed", "signature", "character"},                                      // signed on this device, for your character
	"key-revoke":         {"signed", "signature", "public_key", "user", "reason", "character"},      // signed on this device, or the GM's flags
	"session-cosign":     {"signed", "signature"},                                                   // signed on this device
	"session-contribute": {"signed", "signature"},                                                   // signed on this device
	"roll-request":       {"wait"},                                                                  // the GM's --wait (addGMRollFlags)
	"roll-witness":       {"signed", "signature"},                                                   // signed on this device
	"roll-receipt":       {"signed", "signature", "character"},                                      // signed on this device, for your character
	"void-consent":       {"signed", "signature", "character"},                                      // signed on this device, for the proposal it names
	"character-create":   {},                                                                        // its tags are its hand-written flags
	"roll-prove":         {"signed", "signature", "character"},                                      // signed on this device, for your character
}

// fieldsOf is t's cliFields, those of its embedded structs (a signed
// message) included.
func fieldsOf(t reflect.Type) []cliField {
	out := cliFields(t)
	for i := range t.NumField() {
		if f := t.Field(i); f.Anonymous && f.Type.Kind() == reflect.Struct {
			out = append(out, fieldsOf(f.Type)...)
		}
	}
	return out
}

// TestEveryBodyFieldIsOnTheCLI: every field of every catalogued command's
// body is on its CLI command, as its request type's tags say (a flag of
// that name, or a positional argument in its usage line), or is one the
// command fills itself (handFilled); and the commands built from the
// catalogue (specForms) read the catalogue's body type.
func TestEveryBodyFieldIsOnTheCLI(t *testing.T) {
	root := newApp(io.Discard, io.Discard).rootCommand()
	generated := 0
	for _, s := range catalog.All() {
		c, _, err := root.Find(strings.Fields(s.CLI))
		require.NoError(t, err, s.Name)
		require.Equal(t, s.Name, catalogName(c), "journal %s", s.CLI)
		if _, gen := c.Annotations[annComplete]; gen {
			generated++
		}
		skip := map[string]bool{}
		for _, n := range handFilled[s.Name] {
			skip[n] = true
		}
		for _, f := range fieldsOf(reflect.TypeOf(s.Body)) {
			switch {
			case f.flag == "" && f.meta == "":
				continue // an embedded struct: its fields are listed
			case f.flag != "":
				if c.Flags().Lookup(f.flag) == nil && !skip[f.json] {
					t.Errorf("journal %s: no flag --%s for the body's %q", s.CLI, f.flag, f.json)
				}
			default:
				if !strings.Contains(c.Use, f.meta) && !skip[f.json] {
					t.Errorf("journal %s: no argument %s for the body's %q (usage %q)", s.CLI, f.meta, f.json, c.Use)
				}
			}
		}
	}
	require.Equal(t, len(specForms), generated, "every form builds its command on the tree")
	for _, b := range specForms {
		s, ok := catalog.Lookup(b.name)
		require.True(t, ok, b.name)
		require.Equal(t, reflect.TypeOf(s.Body), b.body, "the form of %s reads the catalogue's body", b.name)
	}
}

// TestGeneratedCommandReadsItsTags: a command built from the catalogue
// takes its arguments in field order, its flags by their tags, its
// required flags from the Spec, its completion from the complete tags.
func TestGeneratedCommandReadsItsTags(t *testing.T) {
	root := newApp(io.Discard, io.Discard).rootCommand()
	find := func(words ...string) *cobra.Command {
		c, _, err := root.Find(words)
		require.NoError(t, err)
		return c
	}
	damage := find("damage")
	require.Equal(t, "damage CHAR N [--source CHAR]", damage.Use)
	require.Equal(t, "damage", damage.Annotations[annPositive])
	require.Equal(t, "character,", damage.Annotations[annComplete])
	require.Equal(t, []string{"character"}, damage.Flags().Lookup("source").Annotations[annComplete])
	madness := find("madness", "end")
	require.Equal(t, "end CHAR --flaw F", madness.Use)
	require.Equal(t, []string{"true"}, madness.Flags().Lookup("flaw").Annotations[cobra.BashCompOneRequiredFlag])
	contest := find("contest")
	require.Equal(t, "character,skill,character,skill", contest.Annotations[annComplete])
	require.NotNil(t, contest.Flags().Lookup("attr-a"), "the deprecated alias")
	require.NotNil(t, contest.Flags().Lookup("name"), "the form's own flag")
	require.Error(t, contest.Args(contest, []string{"a", "b", "c"}))
	reload := find("reload")
	require.NoError(t, reload.Args(reload, []string{"lodin"}))
	require.NoError(t, reload.Args(reload, []string{"lodin", "Revólver"}))
	require.Error(t, reload.Args(reload, []string{"lodin", "Revólver", "x"}))
	start := find("combat", "start") // CHAR... min:"2"
	require.Equal(t, "start CHAR... [--entropy S] [--token CHAR,...]", start.Use)
	require.Error(t, start.Args(start, []string{"lodin"}))
	require.NoError(t, start.Args(start, []string{"lodin", "orco", "troll"}))
	require.Equal(t, "character", start.Annotations[annComplete])
	create := find("campaign", "create") // required:"cli"
	require.Equal(t, []string{"true"}, create.Flags().Lookup("system").Annotations[cobra.BashCompOneRequiredFlag])
	require.Equal(t, strconv.Itoa(tor.DefaultTN), find("roll").Flags().Lookup("tn").DefValue, "default:\"14\"")
	require.Equal(t, "yes", find("void").Annotations[annOwnArgs], "void EVENT has subcommands")
	define := find("skill", "define") // a required flag by its old spelling
	require.NoError(t, define.ParseFlags([]string{"--attr", "P"}))
	require.NoError(t, define.PreRunE(define, nil))
	require.NoError(t, define.ValidateRequiredFlags())
}
