package main

// The CLI's commands built from the catalogue (command/catalog) by
// cobraspec: a catalogued command's words are its Spec.CLI, its
// positional arguments and flags are its request type's fields, read from
// their tags (cobraspec's package doc lists them), and its required flags
// are the Spec's Required. What the CLI adds — the help's Short, and hooks
// for a command that resolves its input or does more after — is its form
// (fromspec_forms.go); its description and examples are helptopics'
// (topics/commands.en.txt, examples.txt).

import (
	"reflect"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/cobraspec"
	"github.com/campaign-journal/journal/command/catalog"
)

// form is what the CLI adds to the catalogued command of body T, its
// hooks run by the app.
type form[T any] = cobraspec.Form[*app, T]

// Resolve replaces *arg, an event (kind "event": resolveShortEvent) or a
// v2 roll request (kind "request": resolveShortRequest) as a user names
// it, by its whole id (cobraspec.Runner).
func (a *app) Resolve(c *cobra.Command, kind string, arg *string) error {
	if kind == "request" {
		return a.resolveShortRequest(c, arg)
	}
	return a.resolveShortEvent(c, arg)
}

// specCommand is the generated command of the catalogued command name
// (its form in specForms); it panics on a name without one (a test builds
// the whole tree).
func (a *app) specCommand(name string) *cobra.Command {
	s, ok := catalog.Lookup(name)
	if !ok {
		panic("fromspec: no catalogued command " + strconv.Quote(name))
	}
	for _, b := range specForms {
		if b.Name == name {
			if reflect.TypeOf(s.Body) != b.Body {
				panic("fromspec: " + name + ": the form reads " + b.Body.String() + ", the catalogue " + reflect.TypeOf(s.Body).String())
			}
			return b.Command(a, s)
		}
	}
	panic("fromspec: no form for " + strconv.Quote(name))
}

// specGroup is a group of commands (journal xp, journal shadow): its
// generated subcommands, by their catalogued names, then others.
func (a *app) specGroup(use, short string, names []string, others ...*cobra.Command) *cobra.Command {
	cmd := &cobra.Command{Use: use, Short: short}
	for _, n := range names {
		cmd.AddCommand(a.specCommand(n))
	}
	cmd.AddCommand(others...)
	return cmd
}
