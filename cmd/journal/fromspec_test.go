package main

import (
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/clihelp"
	"github.com/campaign-journal/journal/cobraspec"
	"github.com/campaign-journal/journal/command/catalog"
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

// fieldsOf is t's cobraspec.Fields, those of its embedded structs (a
// signed message) included.
func fieldsOf(t reflect.Type) []cobraspec.Field {
	out := cobraspec.Fields(t)
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
			case f.Flag == "" && f.Meta == "":
				continue // an embedded struct: its fields are listed
			case f.Flag != "":
				if c.Flags().Lookup(f.Flag) == nil && !skip[f.JSON] {
					t.Errorf("journal %s: no flag --%s for the body's %q", s.CLI, f.Flag, f.JSON)
				}
			default:
				if !strings.Contains(c.Use, f.Meta) && !skip[f.JSON] {
					t.Errorf("journal %s: no argument %s for the body's %q (usage %q)", s.CLI, f.Meta, f.JSON, c.Use)
				}
			}
		}
	}
	require.Equal(t, len(specForms), generated, "every form builds its command on the tree")
	for _, b := range specForms {
		s, ok := catalog.Lookup(b.Name)
		require.True(t, ok, b.Name)
		require.Equal(t, reflect.TypeOf(s.Body), b.Body, "the form of %s reads the catalogue's body", b.Name)
	}
}

// TestGeneratedCommandsMarkTheirOwnArgs: the annotation cobraspec sets
// on a command with arguments of its own is the one the help reads
// (clihelp.AnnOwnArgs): void EVENT has subcommands.
func TestGeneratedCommandsMarkTheirOwnArgs(t *testing.T) {
	root := newApp(io.Discard, io.Discard).rootCommand()
	void, _, err := root.Find([]string{"void"})
	require.NoError(t, err)
	require.True(t, void.HasSubCommands())
	require.Equal(t, "yes", void.Annotations[clihelp.AnnOwnArgs], "void EVENT has subcommands")
}
