package exitcode

import (
	"errors"
	"testing"

	"github.com/spf13/cobra"
)

// TestFlagError: a value of the wrong type says what the flag wants, a
// negative argument of a command that wants a positive one says so, and
// every one is a usage error naming the command's help.
func TestFlagError(t *testing.T) {
	run := func(annotate bool, args ...string) error {
		c := &cobra.Command{Use: "damage", RunE: func(*cobra.Command, []string) error { return nil }, SilenceErrors: true, SilenceUsage: true}
		if annotate {
			c.Annotations = map[string]string{AnnPositive: "damage"}
		}
		c.Flags().Int("mod", 0, "")
		c.SetFlagErrorFunc(FlagError)
		c.SetArgs(args)
		return c.Execute()
	}
	for _, tt := range []struct {
		annotate bool
		args     []string
		want     string
	}{
		{false, []string{"--mod", "x"}, `--mod "x": want a whole number (see 'damage --help')`},
		{true, []string{"-3"}, "damage must be positive, not -3 (see 'damage --help')"},
		{false, []string{"-3"}, "-3: a negative number is read as a flag, and damage takes no negative argument (see 'damage --help')"},
		{false, []string{"--nope"}, "unknown flag: --nope (see 'damage --help')"},
	} {
		err := run(tt.annotate, tt.args...)
		if err == nil || err.Error() != tt.want || !errors.Is(err, ErrUsage) {
			t.Errorf("%v: %v, want %q (a usage error)", tt.args, err, tt.want)
		}
	}
	if !WantsJSON([]string{"roll", "--json"}) || WantsJSON([]string{"--", "--json"}) {
		t.Error("WantsJSON")
	}
}

// TestCobraUsage: cobra's own flag checks become usage errors naming the
// command; other errors pass as they are.
func TestCobraUsage(t *testing.T) {
	c := &cobra.Command{Use: "roll"}
	err := CobraUsage(c, errors.New(`required flag(s) "skill" not set`))
	if !errors.Is(err, ErrUsage) || err.Error() != `roll: required flag(s) "skill" not set (see 'roll --help')` {
		t.Fatalf("%v", err)
	}
	other := errors.New("disk full")
	if CobraUsage(c, other) != other {
		t.Fatal("another error changed")
	}
}
