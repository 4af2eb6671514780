package web_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/live"
	"github.com/campaign-journal/journal/live/livetest"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/web"
)

// restartedPages is a second server over h's store and checkpoints, its
// reads counted: `journal serve` started again on the same data (kv, when
// set, stands for the checkpoints instead).
func restartedPages(t *testing.T, h *harness, kv live.KV) (*harness, *countingStore) {
	t.Helper()
	if kv == nil {
		kv = h.kv
	}
	var counted *countingStore
	same := backend{"same", func(testing.TB) (web.Store, live.KV) { return h.store, kv }}
	h2 := newHarnessWith(t, same, func(o *web.Options) {
		counted = &countingStore{Store: o.Store}
		o.Commands = livetest.NewJournal(o.Store)
		o.Store = counted
	})
	return h2, counted
}

// sameDashboard checks that the server answers the dashboard's first
// requests as a scan of the whole campaign does.
func sameDashboard(t *testing.T, h *harness, campaign, session string) {
	t.Helper()
	last, err := h.store.Last(context.Background(), "journal."+campaign)
	require.NoError(t, err)
	all := pageRequests(campaign, session, last)
	want := scanned(t, h.store, campaign, session, last)
	es := strings.Replace(all[2], "lang=en", "lang=es", 1)
	paths := []string{all[2], es, all[3], all[4]}
	wants := []any{want[2], last100(want[1].([]projections.Line)), want[3], want[4]}
	for i, path := range paths {
		r := h.do(http.MethodGet, path, "")
		require.Equal(t, http.StatusOK, r.status, "%s: %s", path, r.body)
		b, err := json.Marshal(wants[i])
		require.NoError(t, err)
		require.JSONEq(t, string(b), string(r.body), path)
	}
}

// play makes n rolls of lodin and ruisenor in the open session.
func play(t *testing.T, j *command.Handler, n int) {
	t.Helper()
	for i := range n {
		_, err := j.Roll(context.Background(), "mordor", command.RollRequest{Character: []string{"lodin", "ruisenor"}[i%2], Skill: "sigilo", Vs: "media"})
		require.NoError(t, err)
	}
}

// pageKeys are the page checkpoints in kv.
func pageKeys(t *testing.T, kv live.KV) []string {
	t.Helper()
	keys, err := kv.Keys(context.Background())
	require.NoError(t, err)
	var out []string
	for _, k := range keys {
		if strings.HasPrefix(k, "page.") {
			out = append(out, k)
		}
	}
	return out
}

// TestPagesRestoredEqualScans: after a restart of the server, the
// dashboard's first requests (the transcript's last lines in both
// languages, the statistics) load the checkpoints the first server wrote
// and read only the events after them, and still answer exactly what a
// scan of the whole campaign answers: right after the restart, after more
// rolls, after a void of an event folded long before the checkpoint and a
// character created (which rebuild the statistics), and then for the
// whole transcript (which folds the campaign from the stream).
func TestPagesRestoredEqualScans(t *testing.T) {
	ctx := context.Background()
	h, _, j := pagesHarness(t)
	livetest.Setup(ctx, t, j, "mordor")
	second := livetest.PartOne(ctx, t, j, "mordor")
	play(t, j, 300)
	sameDashboard(t, h, "mordor", "s1")
	require.Len(t, pageKeys(t, h.kv), 4, "the dashboard's entries checkpointed")
	play(t, j, 5)

	h2, counted := restartedPages(t, h, nil)
	sameDashboard(t, h2, "mordor", "s1")
	// Each of the four entries reads its checkpoint's last event and the
	// events after it (5 rolls), never the campaign.
	require.LessOrEqual(t, counted.read.Load(), int64(4*(1+5*2+4)), "the restored pages read %d events", counted.read.Load())
	play(t, j, 7)
	sameDashboard(t, h2, "mordor", "s1")
	livetest.PartTwo(ctx, t, j, "mordor", second) // a void, a character created, the session ended
	sameDashboard(t, h2, "mordor", "s1")
	samePages(t, h2, "mordor", "s1")
	samePages(t, h2, "mordor", "")
}

// TestPageCheckpointUntrustedIsIgnored: a page checkpoint that does not
// decode, of another format, or whose last event is not the stream's
// (its hash edited) is ignored: the server folds the campaign from the
// stream and answers what a scan answers. One whose event matches but
// whose counts are edited shows them (what a forged checkpoint can do)
// until a void rebuilds the statistics from the stream.
func TestPageCheckpointUntrustedIsIgnored(t *testing.T) {
	ctx := context.Background()
	h, _, j := pagesHarness(t)
	livetest.Setup(ctx, t, j, "mordor")
	second := livetest.PartOne(ctx, t, j, "mordor")
	play(t, j, 200)
	sameDashboard(t, h, "mordor", "s1")
	keys := pageKeys(t, h.kv)
	require.Len(t, keys, 4)
	edit := func(kv live.KV, key string, fn func(doc map[string]any)) {
		b, err := h.kv.Get(ctx, key)
		require.NoError(t, err)
		var doc map[string]any
		require.NoError(t, json.Unmarshal(b, &doc))
		fn(doc)
		b, err = json.Marshal(doc)
		require.NoError(t, err)
		require.NoError(t, kv.Put(ctx, key, b))
	}
	for name, forge := range map[string]func(kv live.KV, key string){
		"garbage":      func(kv live.KV, key string) { require.NoError(t, kv.Put(ctx, key, []byte("{not json"))) },
		"other format": func(kv live.KV, key string) { edit(kv, key, func(d map[string]any) { d["format"] = 99 }) },
		"other fold":   func(kv live.KV, key string) { edit(kv, key, func(d map[string]any) { d["fingerprint"] = "x" }) },
		"other hash": func(kv live.KV, key string) {
			edit(kv, key, func(d map[string]any) { d["hash"] = strings.Repeat("0", 64) })
		},
		"past the end": func(kv live.KV, key string) { edit(kv, key, func(d map[string]any) { d["seq"] = 1 << 40 }) },
		"impossible": func(kv live.KV, key string) {
			edit(kv, key, func(d map[string]any) {
				if l, ok := d["luck"].(map[string]any); ok {
					l["faces"] = map[string]any{"10": []int{1}}
				} else {
					d["transcript"].(map[string]any)["campaign"] = nil
				}
			})
		},
	} {
		t.Run(name, func(t *testing.T) {
			kv := live.NewMemKV()
			for _, k := range keys {
				b, err := h.kv.Get(ctx, k)
				require.NoError(t, err)
				require.NoError(t, kv.Put(ctx, k, b))
				forge(kv, k)
			}
			h2, counted := restartedPages(t, h, kv)
			sameDashboard(t, h2, "mordor", "s1")
			require.Greater(t, counted.read.Load(), int64(4*200), "the pages folded the campaign")
		})
	}

	t.Run("edited counts", func(t *testing.T) {
		kv := live.NewMemKV()
		for _, k := range keys {
			b, err := h.kv.Get(ctx, k)
			require.NoError(t, err)
			require.NoError(t, kv.Put(ctx, k, b))
		}
		stats := ""
		for _, k := range keys {
			if strings.HasPrefix(k, "page.stats.mordor.s-s1.c-") && !strings.HasSuffix(k, "lodin") {
				stats = k
			}
		}
		edit(kv, stats, func(d map[string]any) { d["luck"].(map[string]any)["rolls"] = 123456 })
		h2, _ := restartedPages(t, h, kv)
		r := h2.do(http.MethodGet, "/api/campaigns/mordor/stats?session=s1", "")
		require.Equal(t, http.StatusOK, r.status)
		require.Contains(t, string(r.body), `"rolls": 123456`, "the forged count is shown")
		livetest.PartTwo(ctx, t, j, "mordor", second) // a void: the statistics are rebuilt from the stream
		sameDashboard(t, h2, "mordor", "s1")
	})
}

// failingKV refuses every page checkpoint as too large.
type failingKV struct{ live.KV }

func (k failingKV) Put(ctx context.Context, key string, value []byte) error {
	if strings.HasPrefix(key, "page.") {
		return live.ErrTooLarge
	}
	return k.KV.Put(ctx, key, value)
}

// TestPageCheckpointFailureIsCounted: a page checkpoint the bucket refuses
// is counted in journal_page_checkpoint_errors_total, and the pages still
// answer what a scan answers.
func TestPageCheckpointFailureIsCounted(t *testing.T) {
	ctx := context.Background()
	h, _, j := pagesHarness(t)
	livetest.Setup(ctx, t, j, "mordor")
	play(t, j, 20)
	h2, _ := restartedPages(t, h, failingKV{h.kv})
	sameDashboard(t, h2, "mordor", "s1")
	require.Equal(t, "4", h2.metric("journal_page_checkpoint_errors_total"))
	require.Empty(t, pageKeys(t, h.kv))
}

// TestPageCheckpointOnlyOfWhatExists: a selection that names nothing (a
// character or a session without rolls or lines) writes no page
// checkpoint, so that requests cannot fill the bucket with keys.
func TestPageCheckpointOnlyOfWhatExists(t *testing.T) {
	ctx := context.Background()
	h, _, j := pagesHarness(t)
	livetest.Setup(ctx, t, j, "mordor")
	play(t, j, 3)
	for _, path := range []string{"/stats?character=nadie", "/stats?session=nada", "/transcript?session=nada&tail=100"} {
		r := h.do(http.MethodGet, "/api/campaigns/mordor"+path, "")
		require.Equal(t, http.StatusOK, r.status, "%s: %s", path, r.body)
	}
	require.Empty(t, pageKeys(t, h.kv))
	sameDashboard(t, h, "mordor", "s1")
	require.Len(t, pageKeys(t, h.kv), 4)
}
