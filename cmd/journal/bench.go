package main

import (
	"io"
	"os"
	"runtime/pprof"
	"strings"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/bench"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/textout"
)

// benchCommand measures the journal against raw JetStream on its own
// embedded server (package bench).
func (a *app) benchCommand() *cobra.Command {
	o := bench.DefaultOptions()
	var syncMode, stages, dir, coldDir, cpuProfile string
	repeat := 1
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Measure the journal against the raw JetStream under it, side by side",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			syncs, ok := bench.SyncModes(syncMode)
			if !ok {
				return usagef("--sync %q: want always, default or both", syncMode)
			}
			for name, v := range map[string]int{"--rolls": o.Rolls, "--campaigns": o.Campaigns, "--characters": o.Characters,
				"--events": o.Events, "--verify-rolls": o.VerifyRolls, "--rounds": o.Rounds, "--window": o.Window + 1,
				"--many-campaigns": o.ManyCampaigns, "--repeat": repeat, "--growth-rolls": o.GrowthRolls, "--cold-campaign-events": o.ColdCampaignEvents, "--cold-loads": o.ColdLoads, "--v2-rolls": o.V2Rolls,
				"--pages-repeats": o.PagesRepeats, "--pages-rolls": o.PagesRolls} {
				if v <= 0 {
					return usagef("%s: want a positive number", name)
				}
			}
			if stages != "" {
				o.Stages = strings.Split(stages, ",")
			}
			o.Dir = dir
			o.ColdDir = coldDir
			if exe, err := os.Executable(); err == nil && !strings.HasSuffix(exe, ".test") {
				o.Executable = exe // the cli stage runs this very binary (not a test binary)
			}
			if cpuProfile != "" {
				f, err := os.Create(cpuProfile)
				if err != nil {
					return msgerr.Errorf("--cpuprofile: %w", err)
				}
				defer f.Close()
				if err := pprof.StartCPUProfile(f); err != nil {
					return msgerr.Errorf("--cpuprofile: %w", err)
				}
				defer pprof.StopCPUProfile()
			}
			var line *bench.Line
			if textout.IsTerminal(a.stderr) {
				line = &bench.Line{W: a.stderr}
			}
			series, err := bench.Repeat(c.Context(), o, syncs, repeat, line)
			if err != nil {
				return err
			}
			if repeat == 1 {
				report := series.Repeats[0]
				return a.emit(report, func(w io.Writer) { report.WriteText(w, bench.TextChart) })
			}
			return a.emit(series, func(w io.Writer) { series.WriteText(w, bench.TextChart) })
		},
	}
	d := bench.DefaultOptions()
	f := cmd.Flags()
	f.StringVar(&syncMode, "sync", "both", "always (sync every write), default (JetStream's interval) or both")
	f.IntVar(&o.Rolls, "rolls", d.Rolls, "roll commands (and raw publishes) per append measurement")
	f.IntVar(&o.Campaigns, "campaigns", d.Campaigns, "campaigns of the concurrent appends and of the rebuild")
	f.IntVar(&o.Characters, "characters", d.Characters, "characters, spread over the campaigns")
	f.IntVar(&o.Window, "window", 0, "concurrent appends in flight (0: one per campaign, at most 256)")
	f.IntVar(&o.Events, "events", d.Events, "events in the stream the rebuild reads")
	f.IntVar(&o.VerifyRolls, "verify-rolls", d.VerifyRolls, "rolls in the exported session that is verified")
	f.IntVar(&o.Rounds, "rounds", d.Rounds, "rounds in which the journal and raw sides alternate")
	f.IntVar(&o.ManyCampaigns, "many-campaigns", d.ManyCampaigns, "campaigns (one character each) of appends-concurrent-many")
	f.IntSliceVar(&o.GrowthCharacters, "growth-characters", d.GrowthCharacters, "characters of the campaigns the growth stage rolls in")
	f.IntSliceVar(&o.GrowthCampaigns, "growth-campaigns", d.GrowthCampaigns, "campaigns in the streams the growth stage rolls in")
	f.IntVar(&o.GrowthRolls, "growth-rolls", d.GrowthRolls, "timed rolls at each growth size")
	f.IntSliceVar(&o.ColdEvents, "cold-events", d.ColdEvents, "events in the streams of the cold loads")
	f.IntVar(&o.ColdCampaignEvents, "cold-campaign-events", d.ColdCampaignEvents, "events of the campaign a cold load reads")
	f.IntVar(&o.ColdLoads, "cold-loads", d.ColdLoads, "timed cold loads at each stream size")
	f.StringVar(&coldDir, "cold-dir", "", "folder where the cold loads' streams are filled once and kept for later runs (default: filled again in the temporary folder)")
	f.IntVar(&o.V2Rolls, "v2-rolls", d.V2Rolls, "v1 rolls, and v2 rolls, timed on each path of the v2-roll stage")
	f.IntSliceVar(&o.PagesEvents, "pages-events", d.PagesEvents, "events of the campaigns whose pages the pages stage loads")
	f.IntVar(&o.PagesRepeats, "pages-repeats", d.PagesRepeats, "timed loads of each page at each size of the pages stage")
	f.IntVar(&o.PagesRolls, "pages-rolls", d.PagesRolls, "rolls timed from their POST to their card on another client's live feed")
	f.StringVar(&stages, "stages", "", "comma-separated stages to run (default all): "+strings.Join(bench.AllStages(), ","))
	f.StringVar(&dir, "tmp", "", "folder for the temporary data (default the system's)")
	f.IntVar(&repeat, "repeat", 1, "whole runs to make one after another; the output ends with each target's value in every run and the runs that met it")
	f.StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile of the whole run (server included) to this file, for go tool pprof")
	return cmd
}
