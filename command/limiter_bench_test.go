package command_test

import (
	"crypto/rand"
	"testing"
	"time"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/memstore"
	"github.com/campaign-journal/journal/limit"
)

// BenchmarkRollLimited is a player's roll command on a memory store
// without a limiter and with one (a rate no roll reaches, the default
// quota), so that the difference is the limiter's cost per command. Run:
// go test ./command -run '^$' -bench RollLimited -benchmem -count 3
func BenchmarkRollLimited(b *testing.B) {
	for _, tt := range []struct {
		name string
		lim  command.Limiter
	}{
		{"none", nil},
		{"limited", limit.New(limit.Config{Rate: limit.Rate{PerMinute: 600_000_000, Burst: 1 << 20},
			CampaignMaxEvents: 200000_000, Exempt: []string{"gm"}, Clock: time.Now})},
	} {
		b.Run(tt.name, func(b *testing.B) {
			j := command.New(memstore.New(memstore.Options{}), command.Options{Clock: time.Now, Rand: rand.Reader,
				IDs: events.NewV7(time.Now, rand.Reader), Limiter: tt.lim, CheckpointEvery: -1})
			setup(b, j)
			bea := j.MustFor(command.Call{Actor: "bea"})
			b.ReportAllocs()
			for b.Loop() {
				if _, err := bea.Roll(b.Context(), "mordor", command.RollRequest{Character: "ruisenor", Skill: "Advertir"}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
