package command

import (
	"errors"
	"fmt"
)

// invalidOr wraps a rules error as ErrInvalid unless it already is one of
// the errors callers tell apart.
func invalidOr(err error) error {
	if err == nil || errors.Is(err, ErrInvalid) || errors.Is(err, ErrNotFound) {
		return err
	}
	return fmt.Errorf("%w: %w", ErrInvalid, err)
}
