package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// eventsDir is the directory of package events, from this one.
const eventsDir = "../../.."

// TestGeneratedFileIsUpToDate runs the generator into memory: events'
// fastfields.go must be what it writes (run `go generate ./events`).
func TestGeneratedFileIsUpToDate(t *testing.T) {
	want, err := generate(eventsDir)
	require.NoError(t, err)
	got, err := os.ReadFile(filepath.Join(eventsDir, Output))
	require.NoError(t, err)
	require.Equal(t, string(want), string(got), "events/%s is stale: run go generate ./events", Output)
}

// TestGenerateFollowsTheSource: the generator reads the registry and the
// structs as they are written, so that a field added to a struct, or a
// struct the fast path cannot decode, changes what it writes.
func TestGenerateFollowsTheSource(t *testing.T) {
	dir := t.TempDir()
	entries, err := os.ReadDir(eventsDir)
	require.NoError(t, err)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".go") {
			src, err := os.ReadFile(filepath.Join(eventsDir, e.Name()))
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(filepath.Join(dir, e.Name()), src, 0o644))
		}
	}
	base, err := generate(dir)
	require.NoError(t, err)
	require.Contains(t, string(base), "reflect.TypeFor[*DayStarted]()")
	require.NotContains(t, string(base), "reflect.TypeFor[*CharacterCreated]()", "a struct with maps is not fast")

	edit := func(file, from, to string) {
		t.Helper()
		p := filepath.Join(dir, file)
		src, err := os.ReadFile(p)
		require.NoError(t, err)
		require.Contains(t, string(src), from)
		require.NoError(t, os.WriteFile(p, []byte(strings.Replace(string(src), from, to, 1)), 0o644))
	}
	edit("types.go", "type DayStarted struct {\n", "type DayStarted struct {\n\tDawn bool `json:\"dawn\"`\n")
	grown, err := generate(dir)
	require.NoError(t, err)
	require.Contains(t, string(grown), "return &v.Dawn")

	edit("types.go", "\tDawn bool `json:\"dawn\"`\n", "\tDawn map[string]int `json:\"dawn\"`\n")
	notFast, err := generate(dir)
	require.NoError(t, err)
	require.NotContains(t, string(notFast), "reflect.TypeFor[*DayStarted]()")

	edit("registry.go", "dataOf[DayStarted]", "dataOf[NoSuchStruct]")
	_, err = generate(dir)
	require.ErrorContains(t, err, "NoSuchStruct")
}
