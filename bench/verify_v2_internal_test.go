package bench

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/replay"
	"github.com/campaign-journal/journal/signed"
)

// BenchmarkVerification compares replay.Verify with its raw sides on
// exports of 5 000 rolls: a v1 session against decoding it, and a campaign
// of journal-dice-v2 sessions against decoding it plus the same Ed25519
// checks, every side on every core:
//
//	go test ./bench/ -run '^$' -bench Verification -benchtime 5x -cpuprofile verify.prof
func BenchmarkVerification(b *testing.B) {
	ctx := context.Background()
	const rolls = 5000
	dir := b.TempDir()
	v1, v2 := filepath.Join(dir, "v1.jsonl"), filepath.Join(dir, "v2.jsonl")
	o, err := Options{VerifyRolls: rolls}.withDefaults()
	require.NoError(b, err)
	n1, _, err := writeExport(ctx, v1, o)
	require.NoError(b, err)
	x, err := writeV2Export(ctx, v2, rolls, nil)
	require.NoError(b, err)
	opener := func(path string) func() (io.ReadCloser, error) {
		return func() (io.ReadCloser, error) { return os.Open(path) }
	}
	verify := func(path string) func(b *testing.B) {
		return func(b *testing.B) {
			for b.Loop() {
				rep, err := replay.Verify(ctx, replay.JSONLSource(opener(path)), replay.Options{})
				require.NoError(b, err)
				require.True(b, rep.OK())
				require.Equal(b, rolls, rep.Totals.Verified)
			}
			b.ReportMetric(float64(rolls*b.N)/b.Elapsed().Seconds(), "rolls/s")
		}
	}
	b.Run("v1/verify", verify(v1))
	b.Run("v1/decode", func(b *testing.B) {
		for b.Loop() {
			n, err := decodeEvery(opener(v1), func(events.Event) error { return nil })
			require.NoError(b, err)
			require.Equal(b, n1, n)
		}
		b.ReportMetric(float64(rolls*b.N)/b.Elapsed().Seconds(), "rolls/s")
	})
	b.Run("v2/verify", verify(v2))
	b.Run("v2/decode-ed25519", func(b *testing.B) {
		for b.Loop() {
			n, sigs, err := decodeAndVerify(opener(v2), x.keys)
			require.NoError(b, err)
			require.Equal(b, x.events, n)
			require.Equal(b, x.signatures, sigs)
		}
		b.ReportMetric(float64(rolls*b.N)/b.Elapsed().Seconds(), "rolls/s")
	})
}

// TestVerifyParallelSameReport checks that replay.Verify gives the same
// Report on one core (the sequential pass) and on four (lines decoded and
// signatures checked ahead on a pool, parallel.go), on an honest campaign
// of v2 sessions and on tampered copies of it: a forged signature, a key
// registered anew for a player whose later messages are still signed with
// the old one (checked ahead under the old key, which Add must not take),
// and an export with blank and malformed lines.
func TestVerifyParallelSameReport(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v2.jsonl")
	x, err := writeV2Export(ctx, path, 40, nil)
	require.NoError(t, err)
	var recs []events.Recorded
	f, err := os.Open(path)
	require.NoError(t, err)
	require.NoError(t, replay.ReadJSONL(f, func(ev events.Event) error {
		recs = append(recs, events.Recorded{Seq: uint64(len(recs) + 1), Event: ev})
		return nil
	}))
	require.NoError(t, f.Close())
	renumber := func(rs []events.Recorded) []events.Recorded {
		for i := range rs {
			rs[i].Seq = uint64(i + 1)
		}
		return rs
	}
	// stored gives each record the bytes a store would hold for it (what
	// Encode writes: the export's lines), which the chain is checked on.
	stored := func(rs []events.Recorded) []events.Recorded {
		out := slices.Clone(rs)
		for i := range out {
			doc, err := events.Encode(out[i].Event)
			require.NoError(t, err)
			out[i].Raw = doc
		}
		return out
	}

	forged := slices.Clone(recs)
	for i, r := range forged {
		if r.Event.Type != events.TypeRollMade {
			continue
		}
		var d events.RollMade
		require.NoError(t, r.Event.DecodeData(&d))
		sig := []byte(d.Signature)
		sig[3] ^= 1 // still base64url, no longer the signature
		d.Signature = string(sig)
		ev, err := events.New(events.Spec{Campaign: r.Event.Campaign, Kind: events.KindCharacter, AggregateID: d.Character, Name: "roll",
			Type: events.TypeRollMade, Session: r.Event.Session, Actor: r.Event.Actor, Data: d}, events.NewV7(time.Now, rand.Reader), time.Now())
		require.NoError(t, err)
		ev.PrevHash = r.Event.PrevHash
		forged[i].Event = ev
		break
	}

	// lodin's player registers a new key after the first registrations;
	// what it signed stays signed with the old one.
	var seed [32]byte
	seed[0] = 0x77
	pub := signed.PublicKeyOf(ed25519.NewKeyFromSeed(seed[:]))
	require.NotEqual(t, x.keys["p-lodin"], pub)
	reg, err := events.New(events.Spec{Campaign: "verify2", Kind: events.KindCampaign, AggregateID: "verify2", Name: "key",
		Type: events.TypeParticipantRegistered, Actor: "p-lodin",
		Data: events.ParticipantRegistered{User: "p-lodin", Role: "player", PublicKey: pub.String(), Fingerprint: pub.Fingerprint()}},
		events.NewV7(time.Now, rand.Reader), time.Now())
	require.NoError(t, err)
	last := 0
	for i, r := range recs {
		if r.Event.Type == events.TypeParticipantRegistered {
			last = i
		}
	}
	rotated := renumber(slices.Insert(slices.Clone(recs), last+1, events.Recorded{Event: reg}))

	var clean, lines bytes.Buffer
	for i, r := range recs {
		doc, err := events.Encode(r.Event)
		require.NoError(t, err)
		clean.Write(doc)
		clean.WriteString("\n")
		lines.Write(doc)
		lines.WriteString("\n")
		if i == 7 {
			lines.WriteString("\n   \n{\"not\": \"an event\"}\n")
		}
	}

	for _, tc := range []struct {
		name string
		src  replay.Source
		ok   bool
	}{
		{"honest", replay.Records(stored(recs)), true},
		{"honest export", replay.JSONLBytes(clean.Bytes()), true},
		{"forged signature", replay.Records(stored(forged)), false},
		{"key registered anew", replay.Records(stored(rotated)), false},
		{"export with blank and malformed lines", replay.JSONLBytes(lines.Bytes()), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var reports []replay.Report
			for _, procs := range []int{1, 4} {
				prev := runtime.GOMAXPROCS(procs)
				rep, err := replay.Verify(ctx, tc.src, replay.Options{})
				runtime.GOMAXPROCS(prev)
				require.NoError(t, err)
				reports = append(reports, rep)
			}
			require.Equal(t, tc.ok, reports[0].OK(), "%+v", reports[0].Totals)
			require.Equal(t, reports[0], reports[1], "one core and four disagree")
		})
	}
}
