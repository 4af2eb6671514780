package healthcheck

import (
	"net"
	"testing"
)

// TestDialable: the address written for a serve listening on every
// interface is the loopback one of the same family.
func TestDialable(t *testing.T) {
	for in, want := range map[string]string{
		"0.0.0.0:8080":   "127.0.0.1:8080",
		"[::]:8080":      "[::1]:8080",
		"127.0.0.1:9000": "127.0.0.1:9000",
		"10.0.0.5:80":    "10.0.0.5:80",
	} {
		addr, err := net.ResolveTCPAddr("tcp", in)
		if err != nil {
			t.Fatal(err)
		}
		if got := Dialable(addr); got != want {
			t.Errorf("Dialable(%s) = %s, want %s", in, got, want)
		}
	}
}
