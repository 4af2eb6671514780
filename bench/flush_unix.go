//go:build unix

package bench

import "syscall"

// flushDisks has the system write every dirty page to disk (sync(2), which
// waits for it on Linux).
func flushDisks() { syscall.Sync() }
