package exitcode

import (
	"errors"
	"testing"
)

func TestMismatchError(t *testing.T) {
	err := error(MismatchError{Message: "verification failed: 2 mismatches"})
	if err.Error() != "verification failed: 2 mismatches" || !errors.Is(err, ErrMismatch) {
		t.Fatalf("%v", err)
	}
	if exit, code := Of(err); exit != Mismatch || code != "mismatch" {
		t.Fatalf("Of = %d, %q", exit, code)
	}
}
