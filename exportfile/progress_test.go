package exportfile

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestProgressLine(t *testing.T) {
	var buf bytes.Buffer
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := NewProgress(&buf, func() time.Time { return now }, 1000, 2)
	p.NextPass()
	p.Bytes(100)
	if buf.Len() != 0 {
		t.Fatalf("drawn at once: %q", buf.String())
	}
	for range 640 {
		p.Event()
	}
	now = now.Add(time.Second)
	p.Bytes(400)
	if got := buf.String(); !strings.Contains(got, "pass 1/2") || !strings.Contains(got, "640 events") || !strings.Contains(got, "640 events/s") || !strings.Contains(got, "25%") {
		t.Fatalf("progress = %q", got)
	}
	n := buf.Len()
	now = now.Add(50 * time.Millisecond)
	p.Bytes(1)
	if buf.Len() != n {
		t.Fatal("drawn again within 100 ms")
	}
	p.NextPass()
	now = now.Add(time.Second)
	p.Bytes(1000)
	if got := buf.String()[n:]; !strings.Contains(got, "pass 2/2") || !strings.Contains(got, "100%") {
		t.Fatalf("second pass = %q", got)
	}
	p.Clear()
	if !strings.HasSuffix(buf.String(), "\r\033[K") {
		t.Fatalf("not cleared: %q", buf.String())
	}
}
