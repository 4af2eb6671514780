package command_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/rules/odds"
	"github.com/campaign-journal/journal/rules/ryf"
	"github.com/campaign-journal/journal/rules/tor"
)

// TestClassifyEverySentinel checks the class of every sentinel the doors
// meet, alone, wrapped, and wrapped with ErrInvalid as the command layer
// wraps rules errors (invalidOr): the more specific class wins.
func TestClassifyEverySentinel(t *testing.T) {
	want := map[error]command.Class{
		events.ErrNotFound:       command.ClassNotFound,
		command.ErrNotFound:      command.ClassNotFound,
		ryf.ErrUnknownSkill:      command.ClassNotFound,
		ryf.ErrUnknownAttribute:  command.ClassNotFound,
		ryf.ErrUnknownWeapon:     command.ClassNotFound,
		ryf.ErrUnknownSystem:     command.ClassUsage,
		tor.ErrUnknownSkill:      command.ClassNotFound,
		tor.ErrUnknownAttribute:  command.ClassNotFound,
		tor.ErrUnknownGroup:      command.ClassNotFound,
		tor.ErrUnknownTrait:      command.ClassNotFound,
		command.ErrUsage:         command.ClassUsage,
		ryf.ErrUnknownDifficulty: command.ClassUsage,
		ryf.ErrUnknownBand:       command.ClassUsage,
		ryf.ErrAmbiguous:         command.ClassUsage,
		ryf.ErrSyntax:            command.ClassUsage,
		tor.ErrAmbiguous:         command.ClassUsage,
		odds.ErrInvalid:          command.ClassUsage,
		events.ErrDenied:         command.ClassDenied,
		events.ErrRateLimited:    command.ClassRateLimited,
		events.ErrQuota:          command.ClassQuota,
		events.ErrConcurrency:    command.ClassConflict,
		events.ErrExists:         command.ClassExists,
		command.ErrInvalid:       command.ClassInvalid,
		events.ErrInvalidID:      command.ClassUsage,
		events.ErrInvalidEvent:   command.ClassInvalid,
		events.ErrUnknownType:    command.ClassInvalid,
		ryf.ErrOutOfRange:        command.ClassFailure, // alone: the command layer marks it invalid
		ryf.ErrDead:              command.ClassFailure,
		context.Canceled:         command.ClassCanceled,
		context.DeadlineExceeded: command.ClassTimeout,
		errors.New("disk full"):  command.ClassFailure,
	}
	for err, c := range want {
		if got := command.Classify(err); got != c {
			t.Errorf("Classify(%v) = %+v, want %+v", err, got, c)
		}
		if got := command.Classify(fmt.Errorf("roll lodin: %w", err)); got != c {
			t.Errorf("Classify(wrapped %v) = %+v, want %+v", err, got, c)
		}
		wrapped := fmt.Errorf("%w: %w", command.ErrInvalid, err)
		wantInvalid := c
		if c == command.ClassFailure || c == command.ClassCanceled || c == command.ClassTimeout {
			wantInvalid = command.ClassInvalid // a refusal by the rules
		}
		if c.Exit == 1 && c != command.ClassFailure && c != command.ClassCanceled && c != command.ClassTimeout && c != command.ClassInvalid {
			wantInvalid = c // denied, conflict... come before invalid
		}
		if got := command.Classify(wrapped); got != wantInvalid {
			t.Errorf("Classify(invalid: %v) = %+v, want %+v", err, got, wantInvalid)
		}
	}
	if got := command.Classify(nil); got != (command.Class{}) {
		t.Errorf("Classify(nil) = %+v, want the zero class", got)
	}
}

// TestClassSentinelRoundTrips: a code sent over NATS unwraps to a sentinel
// of the same class, for every class but the failure.
func TestClassSentinelRoundTrips(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range command.Classes() {
		if seen[c.Code] {
			t.Errorf("code %q twice", c.Code)
		}
		seen[c.Code] = true
		s := command.ClassSentinel(c.Code)
		if c == command.ClassFailure {
			if s != nil {
				t.Errorf("ClassSentinel(failure) = %v, want nil", s)
			}
			continue
		}
		if got := command.Classify(s); got != c {
			t.Errorf("Classify(ClassSentinel(%q)) = %+v, want %+v", c.Code, got, c)
		}
	}
	if command.ClassSentinel("no-such-code") != nil {
		t.Error("an unknown code has a sentinel")
	}
}
