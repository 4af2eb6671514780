package replay_test

import (
	"testing"

	"github.com/campaign-journal/journal/command/recordtest"
)

// recorder records sessions deterministically (package recordtest).
type recorder = recordtest.Recorder

func newRecorder(t *testing.T, campaign string) *recorder { return recordtest.New(t, campaign) }
