//go:build !(linux || darwin || freebsd || openbsd || netbsd || dragonfly)

package embedded

import "os"

// tryLock always succeeds where flock is not available: the data folder is
// not protected against a second process there.
func tryLock(*os.File) (bool, error) { return true, nil }

func unlock(*os.File) {}
