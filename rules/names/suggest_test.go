package names_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/rules/names"
)

func TestSuggest(t *testing.T) {
	skills := []string{"Advertir/Notar", "Pelea", "Percepción", "Sigilo", "Supervivencia", "Medicina", "Mecánica"}
	tests := []struct {
		query string
		want  []string
	}{
		{"Sigli", []string{"Sigilo"}},        // transposition
		{"SIGILIO", []string{"Sigilo"}},      // case, one insertion
		{"notr", []string{"Advertir/Notar"}}, // a '/' part
		{"mecanca", []string{"Mecánica"}},    // accent-insensitive
		{"peleaa", []string{"Pelea"}},        // one extra letter
		{"Cocina", nil},                      // nothing close
		{"x", nil},                           // too short to guess
		{"", nil},
		{"supervivenci", []string{"Supervivencia"}},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			require.Equal(t, tt.want, names.Suggest(tt.query, skills))
		})
	}
	require.EqualError(t, names.Hint("sigli", skills), "did you mean Sigilo?")
	require.EqualError(t, names.Hint("Q", []string{"F", "R", "D"}), "want one of F, R, D")
}
