package bench_test

import (
	"context"
	"crypto/rand"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/bench"
	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/embedded"
	"github.com/campaign-journal/journal/events/jetstore"
	"github.com/campaign-journal/journal/events/memstore"
	"github.com/campaign-journal/journal/projections"
)

// tiny are sizes that run every stage in a few seconds.
func tiny(sync bool) bench.Options {
	return bench.Options{
		Sync: sync, Rolls: 40, Campaigns: 3, Characters: 7, Window: 3, Events: 300, VerifyRolls: 60, Rounds: 2,
		ManyCampaigns: 5, GrowthCharacters: []int{1, 3}, GrowthCampaigns: []int{1, 3}, GrowthRolls: 10,
		ColdEvents: []int{300, 600}, ColdCampaignEvents: 100, ColdLoads: 2, V2Rolls: 6,
		PagesEvents: []int{100, 300}, PagesRepeats: 2, PagesRolls: 3,
	}
}

// TestRunTiny runs every stage on tiny sizes and checks that the figures
// are sane: every count is what was asked, every rate positive and finite,
// every ratio the quotient of its rates. Speed itself is never asserted.
func TestRunTiny(t *testing.T) {
	for _, always := range []bool{false, true} {
		t.Run(map[bool]string{false: "default", true: "always"}[always], func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			o := tiny(always)
			o.Dir = t.TempDir()
			var mu sync.Mutex
			var seen []bench.Progress
			o.Progress = func(p bench.Progress) { // called from several goroutines
				mu.Lock()
				defer mu.Unlock()
				seen = append(seen, p)
			}
			res, err := bench.Run(ctx, o)
			require.NoError(t, err)
			require.Equal(t, map[bool]string{false: "default", true: "always"}[always], res.Sync)
			pairStages := []string{bench.StageSequential, bench.StageConcurrent, bench.StageConcurrentMany, bench.StageRebuild, bench.StageVerify, bench.StageVerifyV2}
			require.Len(t, res.Pairs, len(pairStages))
			wantCount := map[string]int{
				bench.StageSequential: o.Rolls, bench.StageConcurrent: o.Rolls, bench.StageConcurrentMany: o.Rolls,
				bench.StageRebuild: o.Events, bench.StageVerify: o.VerifyRolls, bench.StageVerifyV2: o.VerifyRolls,
			}
			for i, p := range res.Pairs {
				require.Equal(t, pairStages[i], p.Stage)
				want := wantCount[p.Stage]
				if p.Stage == bench.StageRebuild || p.Stage == bench.StageVerify || p.Stage == bench.StageVerifyV2 {
					want *= o.Rounds // each round reads everything
				}
				if got := p.Journal.Count; got != want {
					t.Errorf("%s: journal counted %d, want %d", p.Stage, got, want)
				}
				require.Equal(t, p.Journal.Count, p.Raw.Count, p.Stage)
				for _, r := range []bench.Rate{p.Journal, p.Raw} {
					if !(r.PerSecond > 0 && r.PerSecond < 1e9 && r.Seconds > 0) {
						t.Errorf("%s: rate %v per second over %v s", p.Stage, r.PerSecond, r.Seconds)
					}
					require.Len(t, r.Rounds, o.Rounds, p.Stage)
					require.Positive(t, r.MessageBytes, p.Stage)
					require.NotEmpty(t, r.What)
				}
				if p.Stage == bench.StageSequential || p.Stage == bench.StageConcurrent || p.Stage == bench.StageConcurrentMany {
					g := p.Guarded
					require.NotNil(t, g, "%s: the guarded raw side is measured", p.Stage)
					require.Equal(t, p.Journal.Count, g.Count, p.Stage)
					require.Len(t, g.Rounds, o.Rounds, p.Stage)
					require.Positive(t, g.PerSecond, p.Stage)
					require.InDelta(t, g.PerSecond/p.Raw.PerSecond, p.GuardedRatio, 1e-9, p.Stage)
					require.InDelta(t, p.Journal.PerSecond/g.PerSecond, p.CodeRatio, 1e-9, p.Stage)
				} else {
					require.Nil(t, p.Guarded, p.Stage)
				}
				require.InDelta(t, p.Journal.PerSecond/p.Raw.PerSecond, p.Ratio, 1e-9, p.Stage)
				require.LessOrEqual(t, p.RatioLow, p.RatioHigh, p.Stage)
				if always && p.Guarded != nil {
					require.Equal(t, bench.TargetSyncedAppends, p.Target, p.Stage)
				} else {
					require.Equal(t, bench.Target(p.Stage), p.Target, p.Stage)
				}
				require.Equal(t, p.Target > 0 && p.Ratio >= p.Target, p.Met, p.Stage)
			}
			g := res.Growth
			require.NotNil(t, g, "growth measured")
			require.Len(t, g.Characters, len(o.GrowthCharacters))
			require.Len(t, g.Campaigns, len(o.GrowthCampaigns))
			for i, l := range append(append([]bench.Latency{}, g.Characters...), g.Campaigns...) {
				require.Equal(t, o.GrowthRolls, l.Count, i)
				require.Positive(t, l.P50, i)
				require.LessOrEqual(t, l.P50, l.P90, i)
			}
			require.Equal(t, o.GrowthCharacters[1], g.Characters[1].Size)
			require.GreaterOrEqual(t, g.CharactersSpread, 1.0)
			require.GreaterOrEqual(t, g.CampaignsSpread, 1.0)
			c := res.ColdLoad
			require.NotNil(t, c, "cold load measured")
			require.Len(t, c.Loads, len(o.ColdEvents))
			for i, l := range c.Loads {
				require.Equal(t, o.ColdEvents[i], l.Size, "the stream holds the events asked")
				require.Equal(t, o.ColdLoads, l.Count)
				require.InDelta(t, o.ColdCampaignEvents, l.Events, float64(o.ColdCampaignEvents)/5, "a campaign of about the events asked")
				require.Positive(t, l.P50)
			}
			require.InDelta(t, c.Loads[1].P50/c.Loads[0].P50, c.Spread, 1e-9)
			pg := res.Pages
			require.NotNil(t, pg, "pages measured")
			require.Equal(t, o.PagesRepeats, pg.Repeats)
			require.Len(t, pg.Sizes, len(o.PagesEvents))
			for i, s := range pg.Sizes {
				require.Equal(t, o.PagesEvents[i], s.Events)
				require.Positive(t, s.StateBytes, s.Events)
				for _, pt := range []bench.PageTimes{s.Dashboard, s.Table} {
					require.True(t, pt.FirstCardP50 > 0 && pt.FirstCardP50 <= pt.FirstCardP90, "%d events: %+v", s.Events, pt)
					require.True(t, pt.InteractiveP50 > 0 && pt.InteractiveP50 <= pt.InteractiveP90, "%d events: %+v", s.Events, pt)
					require.Positive(t, pt.FirstCardCold, s.Events)
					require.Positive(t, pt.FirstCardRestart, s.Events)
					require.NotEmpty(t, pt.Slowest, s.Events)
				}
			}
			require.Equal(t, o.PagesRolls, pg.RollToCard.Count, "roll to card timed at the largest size")
			names := map[string]int{}
			for _, v := range bench.Targets([]bench.Result{res}) {
				names[v.Name]++
			}
			require.Len(t, names, len(bench.TargetNames()), "every target listed")
			require.Positive(t, res.Seconds)
			require.NotEmpty(t, seen, "progress reported")
		})
	}
}

func TestOptions(t *testing.T) {
	for name, o := range map[string]bench.Options{
		"negative":                 {Rolls: -1},
		"fewer characters":         {Campaigns: 10, Characters: 5},
		"unknown stage":            {Stages: []string{"everything"}},
		"too many campaigns":       {Campaigns: 200_000, Characters: 200_000},
		"too many characters":      {Characters: 2_000_000},
		"negative window":          {Window: -3},
		"negative verify rolls":    {VerifyRolls: -3},
		"rounds below one (given)": {Rounds: -1},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := bench.Run(context.Background(), o)
			require.ErrorIs(t, err, bench.ErrOptions)
		})
	}
}

// TestV2Stages runs the two journal-dice-v2 stages on tiny sizes: the
// verification of a campaign of v2 sessions (every roll verified, against
// decoding plus the same signature checks) and the v2 roll on each path,
// every latency positive and ordered.
func TestV2Stages(t *testing.T) {
	o := tiny(false)
	o.Dir = t.TempDir()
	o.VerifyRolls = 1100 // three sessions
	o.Stages = []string{bench.StageVerifyV2, bench.StageV2Roll}
	res, err := bench.Run(context.Background(), o)
	require.NoError(t, err)
	require.Len(t, res.Pairs, 1)
	p := res.Pairs[0]
	require.Equal(t, bench.StageVerifyV2, p.Stage)
	require.Equal(t, o.VerifyRolls*o.Rounds, p.Journal.Count)
	require.Equal(t, bench.TargetVerifyV2, p.Target)
	require.NotNil(t, res.V2Roll)
	require.Len(t, res.V2Roll.Paths, 3)
	for i, path := range res.V2Roll.Paths {
		require.Equal(t, []string{bench.PathInProcess, bench.PathCLI, bench.PathHTTP}[i], path.Path)
		for _, l := range []bench.RollLatency{path.V1, path.V2} {
			require.Equal(t, o.V2Rolls, l.Count, path.Path)
			require.True(t, l.P50 > 0 && l.P50 <= l.P90 && l.P90 <= l.P99, "%s: %+v", path.Path, l)
		}
		require.Positive(t, path.V2.RequestP50, path.Path)
		require.Positive(t, path.V2.RevealP50, path.Path)
	}
	var v2 *bench.Verdict
	for _, v := range bench.Targets([]bench.Result{res}) {
		if v.Name == bench.TVerifyV2 {
			v2 = &v
		}
	}
	require.NotNil(t, v2)
	require.True(t, v2.Measured)
	require.Equal(t, p.Ratio, v2.Value)
}

func TestRunOneStage(t *testing.T) {
	o := tiny(false)
	o.Dir = t.TempDir()
	o.Stages = []string{bench.StageVerify}
	res, err := bench.Run(context.Background(), o)
	require.NoError(t, err)
	require.Len(t, res.Pairs, 1)
	require.Equal(t, bench.StageVerify, res.Pairs[0].Stage)
}

// TestRebuildEqualsFold checks that Rebuild gives every campaign the state
// a fold of its own events gives, voids included.
func TestRebuildEqualsFold(t *testing.T) {
	ctx := context.Background()
	st := memstore.New(memstore.Options{})
	j := newJournal(st)
	for _, c := range []string{"north", "south"} {
		require.NoError(t, setupCampaign(ctx, j, c, []string{"ana", "bea"}))
	}
	var rollID string
	for i := range 20 {
		c := []string{"north", "south"}[i%2]
		res, err := rollOne(ctx, j, c, []string{"ana", "bea"}[i/2%2])
		require.NoError(t, err)
		if i == 4 {
			rollID = res
		}
	}
	_, err := voidEvent(ctx, j, "north", rollID)
	require.NoError(t, err)
	_, err = rollOne(ctx, j, "north", "ana")
	require.NoError(t, err)

	folds, err := bench.Rebuild(ctx, st, nil)
	require.NoError(t, err)
	requireFolds(t, st, folds)
}

// TestRebuildJetStreamEqualsFold is TestRebuildEqualsFold on JetStream,
// with more events than the store's ordered pipeline holds in one chunk
// and progress reported.
func TestRebuildJetStreamEqualsFold(t *testing.T) {
	ctx := context.Background()
	srv, err := embedded.Start(ctx, embedded.Options{Dir: t.TempDir()})
	require.NoError(t, err)
	t.Cleanup(srv.Shutdown)
	st, err := jetstore.Open(ctx, srv.JetStream(), jetstore.Options{})
	require.NoError(t, err)
	empty, err := bench.Rebuild(ctx, st, nil)
	require.NoError(t, err)
	require.Empty(t, empty.Campaigns)

	j := newJournal(st)
	for _, c := range []string{"north", "south", "east"} {
		require.NoError(t, setupCampaign(ctx, j, c, []string{"ana", "bea"}))
	}
	var voided string
	for i := range 5000 { // several chunks, past the store's direct-get reads
		id, err := rollOne(ctx, j, []string{"north", "south", "east"}[i%3], []string{"ana", "bea"}[i/3%2])
		require.NoError(t, err)
		if i == 8 { // a roll of east
			voided = id
		}
	}
	_, err = voidEvent(ctx, j, "east", voided)
	require.NoError(t, err)
	var reported []int
	folds, err := bench.Rebuild(ctx, st, func(n int) { reported = append(reported, n) })
	require.NoError(t, err)
	require.Equal(t, 5000+3*4+1, folds.Events)
	require.Equal(t, []int{4096}, reported)
	requireFolds(t, st, folds)
}

// requireFolds checks that every campaign of folds is the fold of its own
// events, voids known from the start, and that each refold was needed.
func requireFolds(t *testing.T, st bench.Source, folds *bench.Folds) {
	t.Helper()
	ctx := context.Background()
	refolds := 0
	for id, got := range folds.Campaigns {
		var recs []events.Recorded
		filter, _ := events.CampaignFilter(id)
		require.NoError(t, st.Read(ctx, events.Query{Subject: filter}, func(r events.Recorded) error {
			recs = append(recs, r)
			return nil
		}))
		want, err := projections.Fold(id, recs, 0)
		require.NoError(t, err)
		require.Equal(t, want, got, id)
		if len(want.Voided) > 0 {
			refolds++
		}
	}
	require.Equal(t, refolds, folds.Refolded)
}

func newJournal(st command.Store) *command.Handler {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { at = at.Add(time.Second); return at }
	return command.New(st, command.Options{Clock: clock, Rand: rand.Reader, IDs: events.NewV7(clock, rand.Reader)})
}

func setupCampaign(ctx context.Context, j *command.Handler, id string, chars []string) error {
	if _, err := j.CreateCampaign(ctx, command.CreateCampaign{ID: id, System: "ryf"}); err != nil {
		return err
	}
	for _, c := range chars {
		if _, err := j.CreateCharacter(ctx, id, command.CreateCharacter{ID: c, Player: c,
			Attributes: "F=8,R=7,D=9,I=8,P=8", Skills: "Pelea=5,Sigilo=3", Specialization: "Sigilo"}); err != nil {
			return err
		}
	}
	_, err := j.StartSession(ctx, id, "", "")
	return err
}

func rollOne(ctx context.Context, j *command.Handler, campaign, char string) (string, error) {
	res, err := j.Roll(ctx, campaign, command.RollRequest{Character: char, Skill: "Sigilo"})
	if err != nil {
		return "", err
	}
	return res.Events[0].Event.ID, nil
}

func voidEvent(ctx context.Context, j *command.Handler, campaign, id string) (command.Result, error) {
	return j.Void(ctx, campaign, id, "wrong roll")
}

// TestMoreWritersThanCampaigns runs the concurrent appends with several
// writers sharing each campaign: the journal serializes a campaign's
// commands, and so must the guarded side, or its appends race on the
// campaign's expected last sequence.
func TestMoreWritersThanCampaigns(t *testing.T) {
	o := tiny(false)
	o.Dir = t.TempDir()
	o.Stages = []string{bench.StageConcurrent}
	o.Campaigns, o.Characters, o.Window, o.Rolls, o.Rounds = 2, 4, 8, 200, 2
	res, err := bench.Run(context.Background(), o)
	require.NoError(t, err)
	require.Len(t, res.Pairs, 1)
	p := res.Pairs[0]
	require.NotNil(t, p.Guarded)
	require.Equal(t, o.Rolls, p.Guarded.Count)
	require.Equal(t, o.Rolls, p.Journal.Count)
}
