package healthcheck

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"

	"github.com/campaign-journal/journal/internal/msgerr"
)

// InfoFile is the file `journal serve` keeps in the data folder it owns
// while it runs (mode 0600, beside the NATS side's server.json, removed at
// shutdown): where its HTTP side listens, so that `journal healthcheck`
// asks the serve of its --data folder.
const InfoFile = "http.json"

// Info is the content of InfoFile.
type Info struct {
	PID int    `json:"pid"`
	URL string `json:"url"` // http://host:port, a dialable address
}

// WriteInfo writes InfoFile in dir for the HTTP listener at addr (through
// a temporary file renamed, so that a reader never sees half of it), and
// returns what removes it.
func WriteInfo(dir string, addr net.Addr) (remove func(), err error) {
	b, err := json.Marshal(Info{PID: os.Getpid(), URL: "http://" + Dialable(addr)})
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, InfoFile)
	tmp, err := os.CreateTemp(dir, InfoFile+".*") // mode 0600
	if err != nil {
		return nil, msgerr.Errorf("serve: write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return nil, msgerr.Errorf("serve: write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return nil, msgerr.Errorf("serve: write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return nil, msgerr.Errorf("serve: write %s: %w", path, err)
	}
	return func() { _ = os.Remove(path) }, nil
}

// Dialable is the address a client on the same machine reaches a
// listener at: an unspecified IP (0.0.0.0, ::) becomes the loopback one.
func Dialable(addr net.Addr) string {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok {
		return addr.String()
	}
	ip := tcp.IP
	switch {
	case ip == nil || ip.Equal(net.IPv4zero):
		ip = net.IPv4(127, 0, 0, 1)
	case ip.Equal(net.IPv6unspecified):
		ip = net.IPv6loopback
	}
	return net.JoinHostPort(ip.String(), fmt.Sprint(tcp.Port))
}

// ServedURL is the /healthz of the serve running on the data folder dir,
// from its InfoFile.
func ServedURL(dir string) (string, error) {
	path := filepath.Join(dir, InfoFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", msgerr.Errorf("healthcheck: no journal serve runs on %s (while it runs it keeps %s there): start it, or give --url", dir, InfoFile)
	}
	if err != nil {
		return "", msgerr.Errorf("healthcheck: %w (run as the data folder's owner, or give --url)", err)
	}
	var info Info
	if err := json.Unmarshal(b, &info); err != nil || info.URL == "" {
		return "", msgerr.Errorf("healthcheck: %s is unreadable: give --url", path)
	}
	return info.URL + "/healthz", nil
}
