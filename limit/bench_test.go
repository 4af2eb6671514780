package limit_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/campaign-journal/journal/limit"
)

// BenchmarkAdmit is the limiter's cost per command: one Admit of an actor
// within its limits (the rate high enough that none is refused), with the
// production clock. Run: go test ./limit -run '^$' -bench Admit -benchmem
func BenchmarkAdmit(b *testing.B) {
	for _, actors := range []int{1, 1000} {
		b.Run(fmt.Sprintf("actors=%d", actors), func(b *testing.B) {
			l := limit.New(limit.Config{Rate: limit.Rate{PerMinute: 600_000_000, Burst: 1 << 20}, CampaignMaxEvents: 1 << 30,
				Exempt: []string{"journal"}, Clock: time.Now})
			names := make([]string, actors)
			for i := range names {
				names[i] = fmt.Sprintf("player%d", i)
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if err := l.Admit(names[i%actors], "gondor", 1000, 1); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
	b.Run("refused", func(b *testing.B) {
		l := limit.New(limit.Config{Rate: limit.Rate{PerMinute: 1, Burst: 1}, Clock: time.Now})
		_ = l.Admit("bea", "gondor", 0, 1)
		b.ReportAllocs()
		for b.Loop() {
			if l.Admit("bea", "gondor", 0, 1) == nil {
				b.Fatal("admitted")
			}
		}
	})
}
