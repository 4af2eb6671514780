package exitcode

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
)

// TestOf: the command line's own errors, however wrapped, and the command
// layer's classes, each to its exit code and --json code.
func TestOf(t *testing.T) {
	for _, tt := range []struct {
		err  error
		exit int
		code string
	}{
		{nil, OK, ""},
		{fmt.Errorf("replay: %w", ErrMismatch), Mismatch, "mismatch"},
		{fmt.Errorf("%w: 2 flags, no mismatch", ErrFlagged), Flagged, "flagged"},
		{Usagef("bad %s", "flag"), Usage, "usage"},
		{fmt.Errorf("who: %w", device.ErrNoIdentity), Usage, "usage"},
		{fmt.Errorf("%w in /x", ErrNoJournal), NotFound, "not_found"},
		{fmt.Errorf("export: %w", fs.ErrNotExist), NotFound, "not_found"},
		{fmt.Errorf("%w: publish", events.ErrDenied), Failure, "denied"},
		{errors.New("disk full"), Failure, "failure"},
	} {
		exit, code := Of(tt.err)
		if exit != tt.exit || code != tt.code {
			t.Errorf("%v: exit %d %q, want %d %q", tt.err, exit, code, tt.exit, tt.code)
		}
	}
}

// TestReport: one line prefixed "journal: ", or the --json object with
// message in the language and message_en in English; the exit code either way.
func TestReport(t *testing.T) {
	err := fmt.Errorf("%w: no character %q", command.ErrNotFound, "x")
	var w bytes.Buffer
	if code := Report(&w, err, false, i18n.EN); code != NotFound || !strings.HasPrefix(w.String(), "journal: ") || strings.Count(w.String(), "\n") != 1 {
		t.Fatalf("exit %d, %q", code, w.String())
	}
	w.Reset()
	if code := Report(&w, Usagef("journal roll: accepts %d arg(s), received %d", 1, 0), true, i18n.EN); code != Usage {
		t.Fatalf("exit %d", code)
	}
	var got struct {
		Error struct {
			Code      string `json:"code"`
			Message   string `json:"message"`
			MessageEN string `json:"message_en"`
			Exit      int    `json:"exit"`
		} `json:"error"`
	}
	if err := json.Unmarshal(w.Bytes(), &got); err != nil {
		t.Fatalf("%v: %s", err, w.String())
	}
	if got.Error.Code != "usage" || got.Error.Exit != Usage || got.Error.MessageEN == "" || strings.Contains(got.Error.Message, "arg(s)") {
		t.Fatalf("%s", w.String())
	}
}

// TestMessagePlurals: cobra's "N arg(s)" reads as a plural in each language.
func TestMessagePlurals(t *testing.T) {
	if got := Message(Foreign("accepts 1 arg(s), received 2 arg(s)"), i18n.EN); got != "accepts 1 argument, received 2 arguments" {
		t.Fatalf("%q", got)
	}
}
