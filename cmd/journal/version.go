package main

import (
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/buildinfo"
)

// versionInfo is what 'journal version' prints: the build of this binary
// (package buildinfo).
type versionInfo = buildinfo.Info

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
func versionFrom(bi *debug.BuildInfo, stampVersion, stampRevision string) versionInfo {
	return buildinfo.From(bi, stampVersion, stampRevision)
}

func (a *app) versionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the journal's version, commit, Go and nats-server versions",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			v := buildVersion()
			return a.emit(v, v.WriteText)
		},
	}
}
