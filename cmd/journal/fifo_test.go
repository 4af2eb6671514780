//go:build linux

package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// guard bounds a test's wait for a command that should end: a command
// still running then is hung, and the test fails (no timing is asserted).
const guard = 60 * time.Second

// runCancelled runs a command line with a context that is cancelled as
// soon as it starts, as SIGINT or SIGTERM cancel it, and returns its exit
// code and stderr, failing the test if the command does not end.
func (c *cli) runCancelled(t *testing.T, args ...string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var out, errb bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- run(ctx, append([]string{"--data", c.dir}, args...), &out, &errb) }()
	cancel()
	select {
	case code := <-done:
		return code, errb.String()
	case <-time.After(guard):
		t.Fatalf("journal %v ignores its cancellation", args)
		return 0, ""
	}
}

// unread returns the number of bytes in the FIFO that no one has read yet
// (ioctl FIONREAD).
func unread(t *testing.T, f *os.File) int {
	t.Helper()
	const fionread = 0x541B // Linux
	var n int32
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), fionread, uintptr(unsafe.Pointer(&n))); errno != 0 {
		t.Fatalf("FIONREAD: %v", errno)
	}
	return int(n)
}

func mkfifo(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "export.fifo")
	require.NoError(t, syscall.Mkfifo(path, 0o600))
	return path
}

// TestReplayFIFOHonoursCancellation: `journal replay --file FIFO` with no
// writer (blocked in open(2)) or with a writer that never writes (blocked
// in read(2)) ends when its context is cancelled (SIGINT, SIGTERM),
// exiting non-zero.
func TestReplayFIFOHonoursCancellation(t *testing.T) {
	c := newCLI(t)
	t.Run("no writer", func(t *testing.T) {
		fifo := mkfifo(t)
		code, errb := c.runCancelled(t, "--lang", "en", "replay", "--file", fifo)
		require.NotZero(t, code)
		require.Contains(t, errb, "context canceled")
	})
	t.Run("silent writer", func(t *testing.T) {
		// The writer writes the start of a line and then nothing: once the
		// reader has taken those bytes from the FIFO, it is waiting in
		// read(2) for more, and only then is the command cancelled.
		fifo := mkfifo(t)
		w, err := os.OpenFile(fifo, os.O_RDWR, 0)
		require.NoError(t, err)
		t.Cleanup(func() { w.Close() })
		_, err = w.WriteString(`{"specversion":"1.0",`)
		require.NoError(t, err)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var out, errb bytes.Buffer
		done := make(chan int, 1)
		go func() {
			done <- run(ctx, []string{"--data", c.dir, "--lang", "en", "replay", "--file", fifo}, &out, &errb)
		}()
		for unread(t, w) > 0 {
			select {
			case code := <-done:
				t.Fatalf("replay ended (exit %d) before reading: %s", code, errb.String())
			case <-time.After(time.Millisecond):
			}
		}
		cancel()
		select {
		case code := <-done:
			require.NotZero(t, code)
			require.Contains(t, errb.String(), "context canceled")
		case <-time.After(guard):
			t.Fatal("replay --file FIFO ignores its cancellation while it waits for the writer's bytes")
		}
	})
}

// TestReplayFromFIFO: an export written into a FIFO is verified (the
// audit's passes read one copy of it).
func TestReplayFromFIFO(t *testing.T) {
	c := newCLI(t)
	c.setupCampaign()
	c.ok("-c", "mordor", "session", "start")
	c.ok("-c", "mordor", "roll", "lodin", "Sigilo")
	c.ok("-c", "mordor", "session", "end")
	export := c.ok("-c", "mordor", "export")
	fifo := mkfifo(t)
	wrote := make(chan error, 1)
	go func() {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err == nil {
			_, err = w.WriteString(export)
			if cerr := w.Close(); err == nil {
				err = cerr
			}
		}
		wrote <- err
	}()
	out := c.ok("replay", "--file", fifo)
	require.NoError(t, <-wrote)
	require.Contains(t, out, "OK: 6 eventos, 1 sesión (1 verificada, 0 con discrepancias")
}
