package main

// The GM's secret rolls (docs/design.md §3.4) as the CLI reports them;
// journal roll free and journal roll reveal-secret are built from the
// catalogue (fromspec_forms.go).

import (
	"fmt"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/projections"
)

// reportSecrets prints the outcome of the secret rolls a command recorded:
// the GM's eyes only (the events do not hold it).
func (a *app) reportSecrets(res command.Result, before *projections.Campaign) {
	l := a.language()
	for _, s := range res.Secret {
		line := projections.DescribeRoll(l, before, &s.Roll)
		fmt.Fprintln(a.stdout, l.T("rec.secret", line, s.Hidden))
	}
}
