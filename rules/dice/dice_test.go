package dice_test

import (
	"encoding/hex"
	"errors"
	"fmt"
	"testing"

	"github.com/campaign-journal/journal/rules/dice"
)

func vectorSeed() dice.Seed {
	var s dice.Seed
	for i := range s {
		s[i] = byte(i)
	}
	return s
}

func TestCommitmentVector(t *testing.T) {
	got := vectorSeed().Commitment()
	want := "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
	if got != want {
		t.Fatalf("commitment = %s, want %s", got, want)
	}
	if !vectorSeed().Matches(want) {
		t.Fatal("seed does not match its own commitment")
	}
	if vectorSeed().Matches("00" + want[2:]) {
		t.Fatal("seed matches a wrong commitment")
	}
}

func TestBlockVector(t *testing.T) {
	s := dice.NewStream(vectorSeed(), "camp-1", "sess-1", 0, "")
	b := s.Block(0)
	got := hex.EncodeToString(b[:])
	want := "ccc640960e2f31e9b8a2c5342d22671e1c58239fe15b8b3075028094e01464f5"
	if got != want {
		t.Fatalf("block(0) = %s, want %s", got, want)
	}
}

func TestFaceVectors(t *testing.T) {
	tests := []struct {
		nonce   uint64
		entropy string
		sides   []int
		want    []int
	}{
		{0, "", []int{10, 10, 10}, []int{5, 9, 5}},
		{1, "", []int{10, 10, 10}, []int{4, 6, 4}},
		{2, "", []int{12, 6, 6, 6}, []int{3, 6, 3, 4}},
		{0, "lodin", []int{10, 10, 10}, []int{4, 8, 9}},
		{3, "", []int{6, 6}, []int{1, 4}},
		{4, "", []int{20, 100}, []int{18, 28}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("nonce%d_%s", tt.nonce, tt.entropy), func(t *testing.T) {
			s := dice.NewStream(vectorSeed(), "camp-1", "sess-1", tt.nonce, tt.entropy)
			var got []int
			for _, n := range tt.sides {
				f, err := s.Roll(n)
				if err != nil {
					t.Fatalf("roll d%d: %v", n, err)
				}
				got = append(got, f)
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Fatalf("faces = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestStreamCrossesBlocks(t *testing.T) {
	s := dice.NewStream(vectorSeed(), "camp-1", "sess-1", 0, "")
	b0, b1 := s.Block(0), s.Block(1)
	want := append(b0[:], b1[:]...)
	for i, w := range want {
		got, _ := s.NextByte()
		if got != w {
			t.Fatalf("byte %d = %02x, want %02x", i, got, w)
		}
	}
	if s.BytesUsed() != 64 {
		t.Fatalf("bytes used = %d, want 64", s.BytesUsed())
	}
}

func TestRejectionSampling(t *testing.T) {
	// For d10 the limit is 250: 250..255 are discarded.
	r := dice.FromBytes{Src: dice.NewBytes(255, 250, 249, 9, 10)}
	for _, want := range []int{10, 10, 1} {
		got, err := r.Roll(10)
		if err != nil || got != want {
			t.Fatalf("roll = %d, %v; want %d", got, err, want)
		}
	}
	if _, err := r.Roll(10); !errors.Is(err, dice.ErrExhausted) {
		t.Fatalf("err = %v, want ErrExhausted", err)
	}
	// d256 never rejects; d2 never rejects.
	for _, n := range []int{2, 256} {
		if got := dice.Limit(n); got != 256 {
			t.Fatalf("Limit(%d) = %d, want 256", n, got)
		}
	}
	if got := dice.Limit(6); got != 252 {
		t.Fatalf("Limit(6) = %d, want 252", got)
	}
}

func TestTraceRecordsRejected(t *testing.T) {
	// Search a stream for a rejected byte on a d100 (limit 200) and check the trace.
	for nonce := uint64(0); nonce < 50; nonce++ {
		s := dice.NewStream(vectorSeed(), "camp-1", "sess-1", nonce, "")
		s.Trace()
		face, err := s.Roll(100)
		if err != nil {
			t.Fatal(err)
		}
		draws := s.Draws()
		if len(draws) != s.BytesUsed() {
			t.Fatalf("trace has %d draws for %d bytes", len(draws), s.BytesUsed())
		}
		last := draws[len(draws)-1]
		if last.Face != face || last.Rejected() {
			t.Fatalf("last draw %+v, face %d", last, face)
		}
		for _, d := range draws[:len(draws)-1] {
			if !d.Rejected() || int(d.Byte) < 200 {
				t.Fatalf("draw %+v should be a rejected byte >= 200", d)
			}
		}
		if len(draws) > 1 {
			return
		}
	}
	t.Fatal("no rejection found in 50 streams; the test cannot check rejected draws")
}

func TestInvalidSides(t *testing.T) {
	s := dice.NewStream(vectorSeed(), "c", "s", 0, "")
	for _, n := range []int{-1, 0, 1, 257} {
		if _, err := s.Roll(n); !errors.Is(err, dice.ErrInvalidSides) {
			t.Errorf("Roll(%d) err = %v, want ErrInvalidSides", n, err)
		}
		if _, err := dice.NewFaces(1).Roll(n); !errors.Is(err, dice.ErrInvalidSides) {
			t.Errorf("Faces.Roll(%d) err = %v, want ErrInvalidSides", n, err)
		}
	}
}

func TestFaces(t *testing.T) {
	f := dice.NewFaces(3, 10, 11)
	rec := &dice.Recorder{R: f}
	if got, err := rec.Roll(10); got != 3 || err != nil {
		t.Fatalf("got %d, %v", got, err)
	}
	if got, err := rec.Roll(10); got != 10 || err != nil {
		t.Fatalf("got %d, %v", got, err)
	}
	if _, err := rec.Roll(10); !errors.Is(err, dice.ErrInvalidFace) {
		t.Fatalf("err = %v, want ErrInvalidFace", err)
	}
	if fmt.Sprint(rec.Faces) != "[3 10]" {
		t.Fatalf("recorded %v", rec.Faces)
	}
	if _, err := dice.NewFaces().Roll(6); !errors.Is(err, dice.ErrExhausted) {
		t.Fatalf("err = %v, want ErrExhausted", err)
	}
}

func TestParseSeed(t *testing.T) {
	s := vectorSeed()
	got, err := dice.ParseSeed(s.String())
	if err != nil || got != s {
		t.Fatalf("round trip: %v %v", got, err)
	}
	for _, bad := range []string{"", "zz", s.String()[:62], s.String() + "00"} {
		if _, err := dice.ParseSeed(bad); !errors.Is(err, dice.ErrInvalidSeed) {
			t.Errorf("ParseSeed(%q) err = %v", bad, err)
		}
	}
}

func FuzzParseSeed(f *testing.F) {
	f.Add(vectorSeed().String())
	f.Add("xyz")
	f.Fuzz(func(t *testing.T, text string) {
		s, err := dice.ParseSeed(text)
		if err == nil && !s.Matches(s.Commitment()) {
			t.Fatal("parsed seed does not match its commitment")
		}
	})
}

func BenchmarkStream3d10(b *testing.B) {
	key := dice.NewKey(vectorSeed())
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		s := key.Stream("camp-1", "sess-1", uint64(i), "")
		for range 3 {
			if _, err := s.Roll(10); err != nil {
				b.Fatal(err)
			}
		}
	}
}
