package live_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events/memstore"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/live"
	"github.com/campaign-journal/journal/live/livetest"
)

// TestTextInItsLanguage: the transcript lines a projector keeps (the
// table's log) are in Options.Lang, Spanish by default.
func TestTextInItsLanguage(t *testing.T) {
	ctx := context.Background()
	st := memstore.New(memstore.Options{})
	livetest.Setup(ctx, t, livetest.NewJournal(st), "mordor")
	for _, tc := range []struct {
		lang i18n.Lang
		want string
	}{{"", "Campaña"}, {i18n.ES, "Campaña"}, {i18n.EN, "Campaign"}} {
		r, _ := start(t, st, live.NewMemKV(), live.Options{Lang: tc.lang})
		caughtUp(t, st, r.p)
		text, ok := r.p.Text(1)
		require.True(t, ok)
		require.Contains(t, text, tc.want, "lang %q: %s", tc.lang, text)
		require.NoError(t, r.stop())
	}
}
