//go:build unix

package bench

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time (user and system) the process has used,
// its embedded server included.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
