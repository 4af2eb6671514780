package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/projections"
)

// torCommands are The One Ring's own commands.
func (a *app) torCommands() []*cobra.Command { return nil }

// showTOR prints a The One Ring character sheet as of sequence at.
func (a *app) showTOR(camp *projections.Campaign, id string, at uint64) error {
	return fmt.Errorf("no character %q in campaign %s%s", id, camp.ID, atSuffix(at))
}
