package exitcode

// MismatchError reports a verification that found a mismatch, after the
// command printed its own report: Message is the one-line summary, in
// English (Report renders it in the output's language). It wraps
// ErrMismatch, so it exits with Mismatch.
type MismatchError struct {
	Message string
}

func (e MismatchError) Error() string { return e.Message }

// Unwrap returns ErrMismatch, which decides the exit code (Of).
func (e MismatchError) Unwrap() error { return ErrMismatch }
