//go:build linux

package exportfile

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

func mkfifo(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "export.fifo")
	require.NoError(t, syscall.Mkfifo(path, 0o600))
	return path
}

// TestOpenContextReleasesTheOpen: a FIFO open given up on is released, and
// the file it opened closed; a FIFO with a writer opens.
func TestOpenContextReleasesTheOpen(t *testing.T) {
	fifo := mkfifo(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := OpenContext(ctx, fifo, os.ModeNamedPipe)
	require.ErrorIs(t, err, context.Canceled)
	w, err := os.OpenFile(fifo, os.O_RDWR, 0)
	require.NoError(t, err)
	defer w.Close()
	f, err := OpenContext(context.Background(), fifo, os.ModeNamedPipe)
	require.NoError(t, err)
	require.NoError(t, f.Close())
}

// TestSpoolCopiesOnce: a FIFO's export is copied to a temporary file that
// the caller is told of, and the copy holds the bytes written.
func TestSpoolCopiesOnce(t *testing.T) {
	fifo := mkfifo(t)
	go func() {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err == nil {
			_, _ = w.WriteString("line\n")
			w.Close()
		}
	}()
	var made string
	name, err := Spool(context.Background(), fifo, os.ModeNamedPipe, func(n string) { made = n })
	require.NoError(t, err)
	t.Cleanup(func() { os.Remove(name) })
	require.Equal(t, made, name)
	b, err := os.ReadFile(name)
	require.NoError(t, err)
	require.Equal(t, "line\n", string(b))
}
