package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/command/catalog"
)

// catalogName returns the command catalogue's name of the CLI command c
// (catalog.ByCLI: its words after the root's), recorded on every event it
// records; "" for a command the catalogue does not hold.
func catalogName(c *cobra.Command) string {
	words := c.CommandPath()
	if c.Root() != nil {
		words = strings.TrimPrefix(strings.TrimPrefix(words, c.Root().Name()), " ")
	}
	if s, ok := catalog.ByCLI(words); ok {
		return s.Name
	}
	return ""
}
