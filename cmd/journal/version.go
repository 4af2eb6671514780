package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	natsserver "github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/spf13/cobra"
)

// versionInfo is what 'journal version' prints: the build of this binary.
type versionInfo struct {
	Version    string `json:"version"`            // the module version ("(devel)" for a local build)
	Revision   string `json:"revision,omitempty"` // the VCS commit the binary was built from
	Time       string `json:"time,omitempty"`     // the commit's time
	Modified   bool   `json:"modified,omitempty"` // built from a work tree with uncommitted changes
	Go         string `json:"go"`                 // the Go toolchain
	Platform   string `json:"platform"`           // GOOS/GOARCH
	NATSServer string `json:"nats_server"`        // the embedded nats-server
	NATSClient string `json:"nats_go"`            // the nats.go client
}

// stampedVersion and stampedRevision, when set at link time, win over the
// build information (a build without VCS stamping, such as one from a
// source tree without .git):
//
//	go build -ldflags "-X main.stampedVersion=v1.2.0 -X main.stampedRevision=$(git rev-parse HEAD)" ./cmd/journal
var stampedVersion, stampedRevision string

// buildVersion reads the binary's build information.
func buildVersion() versionInfo {
	bi, _ := debug.ReadBuildInfo()
	return versionFrom(bi, stampedVersion, stampedRevision)
}

// versionFrom reads bi (nil: none), then the link-time stamps.
func versionFrom(bi *debug.BuildInfo, stampVersion, stampRevision string) (v versionInfo) {
	v = versionInfo{Version: "(devel)", Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH,
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
func (v versionInfo) Short() string {
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

func (v versionInfo) write(w io.Writer) {
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

func (a *app) versionCommand() *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Print the journal's version, commit, Go and nats-server versions",
		Example: "  journal version\n  journal version --json\n  journal --version",
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			v := buildVersion()
			return a.emit(v, v.write)
		},
	}
}
