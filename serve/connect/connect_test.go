package connect

import (
	"context"
	"strings"
	"testing"
)

// TestOpen: the embedded server on a data folder (no NATS URL), and a
// refused URL whose error names the host, not the password.
func TestOpen(t *testing.T) {
	c, err := Open(context.Background(), Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if c.Server == nil || c.NC == nil || c.JetStream == nil {
		t.Fatalf("embedded: %+v", c)
	}
	c.Close()
	_, err = Open(context.Background(), Options{NATSURL: "nats://journal:s3cret@127.0.0.1:1", Name: "test"})
	if err == nil || strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), "127.0.0.1:1") {
		t.Fatalf("refused URL: %v", err)
	}
}
