package i18n_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// TestRenderByKey: a keyed error is printed from its key's template with
// its own arguments, errors among them rendered by theirs; English is the
// error's text; numbers are not regrouped.
func TestRenderByKey(t *testing.T) {
	sentinel := msgerr.New("invalid request")
	err := msgerr.Errorf("%w: %s has %d HP, needs at least %d", sentinel, "Ana", 1000, 2)
	assert.Equal(t, err.Error(), i18n.Render(err, i18n.EN))
	es, ok := i18n.ErrorSpanish("%w: %s has %d HP, needs at least %d")
	if ok {
		t.Logf("template %q", es)
	}
	wrapped := msgerr.Errorf("%w: %v", sentinel, msgerr.Errorf("no character %s in campaign %s", "Ana", "c1"))
	assert.Equal(t, "invalid request: no character Ana in campaign c1", i18n.Render(wrapped, i18n.EN))
	assert.Equal(t, "petición no válida: no hay personaje Ana en la campaña c1", i18n.Render(wrapped, i18n.ES))
	assert.Equal(t, i18n.ES.Error("invalid request"), i18n.Render(sentinel, i18n.ES))
	assert.True(t, i18n.Renders(sentinel, i18n.ES))
	// Not the journal's: the fallback reader.
	lib := errors.New("invalid request")
	assert.False(t, i18n.Renders(lib, i18n.ES))
	assert.Equal(t, i18n.ES.Error("invalid request"), i18n.Render(lib, i18n.ES))
	assert.Equal(t, "", i18n.Render(nil, i18n.ES))
}
