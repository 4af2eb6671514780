//go:build !unix

package invite

// lockFile has no cross-process lock outside Unix: the Book's mutex alone
// orders one process's writers.
func lockFile(string) (func(), error) { return func() {}, nil }
