package buildinfo

import (
	"bytes"
	"runtime/debug"
	"strings"
	"testing"
)

// TestFrom: the build information, then the stamps over it; Short and
// WriteText say the revision and whether its tree was modified.
func TestFrom(t *testing.T) {
	v := From(&debug.BuildInfo{Main: debug.Module{Version: "v1.2.0"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "true"}, {Key: "vcs.time", Value: "2026-12-01T10:00:00Z"}}}, "", "")
	if v.Version != "v1.2.0" || !strings.HasPrefix(v.Short(), "v1.2.0 (0123456789ab+modified, go") {
		t.Errorf("from build info: %+v, %s", v, v.Short())
	}
	var b bytes.Buffer
	v.WriteText(&b)
	for _, want := range []string{"journal      v1.2.0\n", "revision     0123456789abcdef0123 (modified)\n", "commit time  2026-12-01T10:00:00Z\n", "nats-server  "} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("WriteText lacks %q:\n%s", want, b.String())
		}
	}
	v = From(&debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.modified", Value: "true"}}}, "v9", "abc")
	if want := "v9 (abc, " + v.Go + ", nats-server " + v.NATSServer + ")"; v.Short() != want {
		t.Errorf("stamped: %s, want %s", v.Short(), want)
	}
	if v = From(nil, "", ""); v.Version != "(devel)" {
		t.Errorf("no build info: %s", v.Version)
	}
}
