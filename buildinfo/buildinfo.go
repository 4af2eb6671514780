// Package buildinfo tells what a journal binary was built from: its
// module version, VCS commit and time, the Go toolchain, the platform, and
// the nats-server and nats.go versions it embeds.
//
// Invariants:
//   - A link-time stamp (the version, the revision) wins over the build
//     information; a stamped revision is never "modified".
//   - Without build information the version is "(devel)".
package buildinfo

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	natsserver "github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// Info is what 'journal version' prints: the build of this binary.
type Info struct {
	Version    string `json:"version"`            // the module version ("(devel)" for a local build)
	Revision   string `json:"revision,omitempty"` // the VCS commit the binary was built from
	Time       string `json:"time,omitempty"`     // the commit's time
	Modified   bool   `json:"modified,omitempty"` // built from a work tree with uncommitted changes
	Go         string `json:"go"`                 // the Go toolchain
	Platform   string `json:"platform"`           // GOOS/GOARCH
	NATSServer string `json:"nats_server"`        // the embedded nats-server
	NATSClient string `json:"nats_go"`            // the nats.go client
}

// From reads bi (nil: none), then the link-time stamps.
func From(bi *debug.BuildInfo, stampVersion, stampRevision string) (v Info) {
	v = Info{Version: "(devel)", Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH,
		NATSServer: natsserver.VERSION, NATSClient: nats.Version}
	defer func() {
		if stampVersion != "" {
			v.Version = stampVersion
		}
		if stampRevision != "" {
			v.Revision, v.Modified = stampRevision, false
		}
	}()
	if bi == nil {
		return v
	}
	if bi.Main.Version != "" {
		v.Version = bi.Main.Version
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Revision = s.Value
		case "vcs.time":
			v.Time = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	return v
}

// Short is the one line of --version: "v1.2.3 (abc1234, go1.26, nats-server 2.15.2)".
func (v Info) Short() string {
	rev := ""
	if v.Revision != "" {
		rev = v.Revision
		if len(rev) > 12 {
			rev = rev[:12]
		}
		if v.Modified {
			rev += "+modified"
		}
		rev += ", "
	}
	return fmt.Sprintf("%s (%s%s, nats-server %s)", v.Version, rev, v.Go, v.NATSServer)
}

// WriteText is the text of 'journal version', one line a field.
func (v Info) WriteText(w io.Writer) {
	fmt.Fprintf(w, "journal      %s\n", v.Version)
	if v.Revision != "" {
		mod := ""
		if v.Modified {
			mod = " (modified)"
		}
		fmt.Fprintf(w, "revision     %s%s\n", v.Revision, mod)
	}
	if v.Time != "" {
		fmt.Fprintf(w, "commit time  %s\n", v.Time)
	}
	fmt.Fprintf(w, "go           %s %s\n", v.Go, v.Platform)
	fmt.Fprintf(w, "nats-server  %s (embedded)\n", v.NATSServer)
	fmt.Fprintf(w, "nats.go      %s\n", v.NATSClient)
}

// ModuleVersion is the module version the binary was built from, as the
// build information has it ("" without build information; no link-time
// stamp): what a backup's manifest records.
func ModuleVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		return bi.Main.Version
	}
	return ""
}
