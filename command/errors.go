package command

import (
	"errors"

	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/rules/names"
)

// invalidOr wraps a rules error as ErrInvalid unless it already is one of
// the errors callers tell apart.
func invalidOr(err error) error {
	if err == nil || errors.Is(err, ErrInvalid) || errors.Is(err, ErrNotFound) {
		return err
	}
	return msgerr.Errorf("%w: %w", ErrInvalid, err)
}

// didYouMean is ": did you mean X?" when a candidate is close to name,
// else "", as a keyed error (rendered in the reader's language).
func didYouMean(name string, candidates []string) error {
	if s := names.Suggest(name, candidates); len(s) > 0 {
		return msgerr.Errorf(": did you mean %v?", names.OrList(s))
	}
	return msgerr.New("")
}
