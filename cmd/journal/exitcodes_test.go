package main

import "github.com/campaign-journal/journal/exitcode"

// The exit codes under the short names the tests compare with (package
// exitcode's: the program itself names them there).
const (
	exitOK       = exitcode.OK
	exitFailure  = exitcode.Failure
	exitUsage    = exitcode.Usage
	exitNotFound = exitcode.NotFound
	exitMismatch = exitcode.Mismatch
	exitFlagged  = exitcode.Flagged
)

var (
	exitCode    = exitcode.Of
	reportError = exitcode.Report
)
