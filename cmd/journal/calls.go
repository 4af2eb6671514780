package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/textout"
)

// callCommand is `journal call CHAR... --skill S`: the GM's roll call (the
// table's, recorded as journal.call.made.v1), with `call close ID` and
// `call list`.
func (a *app) callCommand() *cobra.Command {
	cmd := a.specCommand("call")
	list := &cobra.Command{
		Use:   "list",
		Short: "List the open roll calls and who answered each",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			camp, err := a.load(c, 0)
			if err != nil {
				return err
			}
			calls := camp.Calls
			if calls == nil {
				calls = []*projections.Call{}
			}
			l := a.language()
			return a.emit(calls, func(w io.Writer) {
				if len(calls) == 0 {
					fmt.Fprintln(w, l.T("cli.call_none"))
					return
				}
				tw := textout.NewTable("", strings.Split(l.T("cli.call_head"), "\t")...)
				for _, call := range calls {
					what := call.Skill
					if what == "" {
						what = call.Attribute
					}
					answered := make([]string, 0, len(call.Answered))
					for ch := range call.Answered {
						answered = append(answered, ch)
					}
					sort.Strings(answered)
					tw.Add(call.ID, strings.Join(call.Characters, ","), what, textout.OrDash(call.Vs), textout.OrDash(strings.Join(answered, ",")), textout.OrDash(call.Note))
				}
				tw.Write(w)
			})
		},
	}
	cmd.AddCommand(a.specCommand("call-close"), list)
	return cmd
}
