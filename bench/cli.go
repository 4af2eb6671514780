package bench

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"time"
)

// CLI is the cli stage: what a user waits for at the command line, the
// whole process timed from outside (start, package initialization, the
// work, exit): `journal version`, and a command (`journal day new`) on a
// data folder with no serve running (the CLI starts the embedded server),
// each run Runs times after two untimed runs. Latencies are wall times;
// CPUP50 the median of the child's user + system time.
type CLI struct {
	Runs    int     `json:"runs"`
	Version Latency `json:"version"`
	Command Latency `json:"command"`
}

// DefaultCLIRuns is how many timed runs the cli stage makes of each.
const DefaultCLIRuns = 15

// cli measures the cli stage with the journal binary o.Executable, or
// returns nil when there is none (the stage is then not measured).
func (e *env) cli(ctx context.Context) (*CLI, error) {
	exe := e.o.Executable
	if exe == "" {
		return nil, nil
	}
	data := filepath.Join(e.dir, "cli")
	run := func(args ...string) (time.Duration, time.Duration, error) {
		cmd := exec.CommandContext(ctx, exe, args...)
		cmd.Env = append(cmd.Environ(), "JOURNAL_ACTOR=gm") // the environment passed on, with the bench's user
		t := time.Now()
		out, err := cmd.CombinedOutput()
		d := time.Since(t)
		if err != nil {
			return 0, 0, fmt.Errorf("%s %v: %w: %s", exe, args, err, out)
		}
		return d, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), nil
	}
	if _, _, err := run("--data", data, "campaign", "create", "mordor", "--system", "ryf"); err != nil {
		return nil, err
	}
	c := &CLI{Runs: DefaultCLIRuns}
	measure := func(name string, args ...string) (Latency, error) {
		var wall, cpu []time.Duration
		for k := range DefaultCLIRuns + 2 {
			d, dc, err := run(args...)
			if err != nil {
				return Latency{}, err
			}
			if k >= 2 {
				wall, cpu = append(wall, d), append(cpu, dc)
			}
			e.o.progress(StageCLI, name, k+1, DefaultCLIRuns+2)
		}
		l := latency(0, wall)
		l.CPUP50 = latency(0, cpu).P50
		return l, nil
	}
	var err error
	if c.Version, err = measure("version", "version"); err != nil {
		return nil, err
	}
	if c.Command, err = measure("day new", "--data", data, "-c", "mordor", "day", "new"); err != nil {
		return nil, err
	}
	return c, nil
}
