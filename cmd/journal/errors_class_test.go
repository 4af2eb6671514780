package main

import (
	"context"
	"fmt"
	"testing"

	"github.com/campaign-journal/journal/access/natscmd"
	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/rules/ryf"
	"github.com/campaign-journal/journal/web"
)

// TestOneErrorOneAnswer: the same error gets the same class at the three
// doors: the CLI's exit status and --json code, the HTTP status, and the
// NATS reply's code, which a NATS client (the CLI over --nats) reads back
// into the same exit status.
func TestOneErrorOneAnswer(t *testing.T) {
	errs := []error{
		fmt.Errorf("%w: campaign %q", events.ErrNotFound, "nope"),
		fmt.Errorf("%w: %w: Bailar", command.ErrInvalid, ryf.ErrUnknownSkill), // an unknown skill, as the command layer says it
		fmt.Errorf("%w: %w", command.ErrInvalid, ryf.ErrUnknownDifficulty),
		fmt.Errorf("%w: lodin is dead", command.ErrInvalid),
		events.ErrDenied, events.ErrRateLimited, events.ErrQuota, events.ErrConcurrency, events.ErrExists,
		fmt.Errorf("x: %w", events.ErrInvalidID),
		fmt.Errorf("store: %w", fmt.Errorf("read: %w", contextDeadline())),
		fmt.Errorf("disk on fire"),
	}
	for _, err := range errs {
		c := command.Classify(err)
		exit, code := exitCode(err)
		if exit != c.Exit || code != c.Code {
			t.Errorf("%v: the CLI says exit %d %q, the classification %d %q", err, exit, code, c.Exit, c.Code)
		}
		if got := web.Status(err); got != c.HTTP {
			t.Errorf("%v: HTTP %d, the classification %d", err, got, c.HTTP)
		}
		if c == command.ClassFailure {
			continue
		}
		// Over NATS the reply carries the code; the client's error is the
		// service's class again.
		back := &natscmd.ReplyError{Code: c.Code, Message: err.Error()}
		if exit, code := exitCode(back); exit != c.Exit || code != c.Code {
			t.Errorf("%v over NATS: exit %d %q, want %d %q", err, exit, code, c.Exit, c.Code)
		}
	}
}

func contextDeadline() error { return context.DeadlineExceeded }
