package main

import (
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command/catalog"
)

// handFilled are the body fields of catalogued commands that their CLI
// command fills itself, not from a flag or an argument of the same name,
// by command: why is the comment.
var handFilled = map[string][]string{
	"campaign-create":    {"id"},                                                                    // the campaign is -c's
	"weapon-define":      {"name", "ranged", "short_m", "medium_m", "long_m"},                       // events.WeaponDefined: NAME, --ranges SHORT/MEDIUM/LONG
	"key-register":       {"public_key", "approval", "name", "user", "role", "signed", "signature"}, // signed on this device (key.go)
	"key-approve":        {"signed", "signature", "character"},                                      // signed on this device, for your character
	"key-revoke":         {"signed", "signature", "public_key", "user", "reason", "character"},      // signed on this device, or the GM's flags
	"session-cosign":     {"signed", "signature"},                                                   // signed on this device
	"session-contribute": {"signed", "signature"},                                                   // signed on this device
	"roll-request":       {"wait"},                                                                  // the GM's --wait (addGMRollFlags)
	"roll-witness":       {"signed", "signature"},                                                   // signed on this device
	"roll-receipt":       {"signed", "signature", "character"},                                      // signed on this device, for your character
	"void-consent":       {"signed", "signature", "proposal", "character"},                          // signed on this device, for the proposal it names
	"call":               {"characters"},                                                            // CHAR... arguments
	"combat-start":       {"participants"},                                                          // CHAR... arguments
	"free-roll":          {"dice"},                                                                  // its DICE argument
	"roll":               {"character", "skill", "tn"},                                              // CHAR [SKILL]; --tn
	"attack":             {"attacker", "target"},                                                    // CHAR TARGET
	"character-create":   {},                                                                        // its tags are its hand-written flags
	"roll-prove":         {"signed", "signature", "character"},                                      // signed on this device, for your character
	"trait-invoke":       {"character", "trait", "automatic"},                                       // CHAR TRAIT --auto
	"raise":              {"character", "skill"},                                                    // CHAR SKILL
	"skill-define":       {"name"},                                                                  // NAME
	"void":               {"event_id"},                                                              // EVENT
	"void-propose":       {"event_id"},                                                              // EVENT
	"roll-cancel":        {"request"},                                                               // REQUEST
	"roll-resolve":       {"request"},                                                               // REQUEST
	"call-close":         {"call"},                                                                  // CALL
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
}
