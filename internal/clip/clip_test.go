package clip_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/campaign-journal/journal/internal/clip"
)

func TestText(t *testing.T) {
	long := strings.Repeat("é", 100)
	for _, tc := range []struct {
		format string
		in     string
		want   string
	}{
		{"%q", "lodin", `"lodin"`},
		{"%s", "lodin", "lodin"},
		{"%v", "", ""},
		{"%q", strings.Repeat("a", 64), `"` + strings.Repeat("a", 64) + `"`},
		{"%q", strings.Repeat("a", 65), `"` + strings.Repeat("a", 64) + `…(65 bytes)"`},
		{"%s", long, strings.Repeat("é", 64) + "…(200 bytes)"},
		{"%+q", long, `"` + strings.Repeat(`\u00e9`, 64) + `\u2026(200 bytes)"`},
		{"%q", "a\x00b", `"a\x00b"`},
		{"%q", strings.Repeat("\xff", 70), `"` + strings.Repeat(`\xff`, 64) + `…(70 bytes)"`},
		{"[%8s]", "ab", "[      ab]"},
	} {
		if got := fmt.Sprintf(tc.format, clip.Text(tc.in)); got != tc.want {
			t.Errorf("Sprintf(%q, %.20q…) = %q, want %q", tc.format, tc.in, got, tc.want)
		}
	}
	huge := strings.Repeat("<script>", 15<<10) // 120 KB
	if got := fmt.Sprintf("no character %q (%v)", clip.Text(huge), clip.Text(huge)); len(got) > 300 {
		t.Errorf("120 KB quoted twice gives %d bytes", len(got))
	}
}
