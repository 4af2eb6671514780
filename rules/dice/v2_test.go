package dice_test

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/campaign-journal/journal/rules/dice"
)

// The v2 test vectors of docs/design.md §3.2, computed by an independent
// implementation: S = 0x00..0x1f, r0 = 0x20..0x3f, r1 = 0x40..0x5f,
// contributions aa…aa and bb…bb, campaign camp-1, session sess-1.

func run32(from byte) [32]byte {
	var b [32]byte
	for i := range b {
		b[i] = from + byte(i)
	}
	return b
}

func fill32(v byte) [32]byte {
	var b [32]byte
	for i := range b {
		b[i] = v
	}
	return b
}

var (
	vecR0      = run32(0x20)
	vecR1      = run32(0x40)
	vecContrib = [][32]byte{fill32(0xaa), fill32(0xbb)}
)

func TestSessionKeyVectors(t *testing.T) {
	tests := []struct {
		name    string
		contrib [][32]byte
		want    string
	}{
		{"no contributions", nil, "766900aaa4cc3aba30d10633457fc47625367284282501a1d3571d3e9bc3e847"},
		{"empty slice", [][32]byte{}, "766900aaa4cc3aba30d10633457fc47625367284282501a1d3571d3e9bc3e847"},
		{"aa, bb", vecContrib, "f6483963d6bb6e8a1ae485d6dc5e3b11d922cf64d3ccf778ce86c582d39bbe17"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := dice.SessionKey(vectorSeed(), "camp-1", "sess-1", tt.contrib).String()
			if got != tt.want {
				t.Fatalf("K = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestSessionKeyOrderMatters(t *testing.T) {
	ab := dice.SessionKey(vectorSeed(), "camp-1", "sess-1", vecContrib)
	ba := dice.SessionKey(vectorSeed(), "camp-1", "sess-1", [][32]byte{vecContrib[1], vecContrib[0]})
	if ab == ba {
		t.Fatal("contributions in another order give the same key")
	}
	other := dice.SessionKey(vectorSeed(), "camp-1", "sess-2", vecContrib)
	if ab == other {
		t.Fatal("another session gives the same key")
	}
}

func TestRevealCommitmentVector(t *testing.T) {
	const want = "72dbb7336c76780023f83da4c355f2eeea85733b13d3477697917790c1229084"
	if got := dice.RevealCommitment(vecR0); got != want {
		t.Fatalf("commitment(r0) = %s, want %s", got, want)
	}
	if !dice.RevealMatches(vecR0, want) {
		t.Fatal("r0 does not match its commitment")
	}
	for _, bad := range []string{strings.ToUpper(want), want[:63], "", dice.RevealCommitment(vecR1)} {
		if dice.RevealMatches(vecR0, bad) {
			t.Errorf("r0 matches %q", bad)
		}
	}
}

func TestFaceVectorsV2(t *testing.T) {
	withK := dice.SessionKey(vectorSeed(), "camp-1", "sess-1", vecContrib)
	noK := dice.SessionKey(vectorSeed(), "camp-1", "sess-1", nil)
	tests := []struct {
		name  string
		key   dice.KeyV2
		nonce uint64
		r     [32]byte
		sides []int
		want  []int
	}{
		{"nonce 0, r0, 3d10, with contributions", withK, 0, vecR0, []int{10, 10, 10}, []int{1, 7, 6}},
		{"nonce 1, r1, d12+3d6, with contributions", withK, 1, vecR1, []int{12, 6, 6, 6}, []int{7, 2, 5, 1}},
		{"nonce 0, r0, 3d10, without contributions", noK, 0, vecR0, []int{10, 10, 10}, []int{2, 10, 1}},
		{"nonce 2, r0, 2d6, with contributions", withK, 2, vecR0, []int{6, 6}, []int{3, 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := dice.StreamV2(tt.key, "camp-1", "sess-1", tt.nonce, tt.r)
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
			// The method form draws the same stream.
			b0 := tt.key.Stream("camp-1", "sess-1", tt.nonce, tt.r).Block(0)
			if b0 != s.Block(0) {
				t.Fatal("KeyV2.Stream and StreamV2 differ")
			}
		})
	}
}

// The v2 stream is not the v1 stream of the same seed: a v1 verifier cannot
// be fooled into accepting v2 faces or the reverse.
func TestStreamV2DiffersFromV1(t *testing.T) {
	k := dice.SessionKey(vectorSeed(), "camp-1", "sess-1", nil)
	v2 := dice.StreamV2(k, "camp-1", "sess-1", 0, vecR0).Block(0)
	v1 := dice.NewStream(vectorSeed(), "camp-1", "sess-1", 0, "").Block(0)
	if v1 == v2 {
		t.Fatal("v1 and v2 block(0) are equal")
	}
}

// Roller and ByteSource are satisfied, and the trace shows every byte so
// explain can print them.
func TestStreamV2TraceAndInterfaces(t *testing.T) {
	k := dice.SessionKey(vectorSeed(), "camp-1", "sess-1", vecContrib)
	var _ dice.Roller = dice.StreamV2(k, "c", "s", 0, vecR0)
	var _ dice.ByteSource = dice.StreamV2(k, "c", "s", 0, vecR0)
	for nonce := uint64(0); nonce < 200; nonce++ {
		s := dice.StreamV2(k, "camp-1", "sess-1", nonce, vecR0)
		s.Trace()
		face, err := s.Roll(100)
		if err != nil {
			t.Fatal(err)
		}
		draws := s.Draws()
		if len(draws) != s.BytesUsed() {
			t.Fatalf("trace has %d draws for %d bytes", len(draws), s.BytesUsed())
		}
		b0 := s.Block(0)
		for i, d := range draws {
			if d.Byte != b0[i] || d.Sides != 100 {
				t.Fatalf("draw %d = %+v, want byte %02x of block(0)", i, d, b0[i])
			}
		}
		if last := draws[len(draws)-1]; last.Face != face {
			t.Fatalf("last draw %+v, face %d", last, face)
		}
		if len(draws) > 1 {
			if !draws[0].Rejected() {
				t.Fatalf("first draw %+v should be rejected", draws[0])
			}
			return
		}
	}
	t.Fatal("no rejection in 200 streams; the test cannot check rejected draws")
}

func TestStreamV2InvalidSides(t *testing.T) {
	s := dice.StreamV2(dice.KeyV2{}, "c", "s", 0, vecR0)
	if _, err := s.Roll(257); !errors.Is(err, dice.ErrInvalidSides) {
		t.Fatalf("err = %v, want ErrInvalidSides", err)
	}
}

func TestParseHex32(t *testing.T) {
	good := strings.Repeat("0123456789abcdef", 4)
	got, err := dice.ParseHex32(good)
	if err != nil {
		t.Fatalf("ParseHex32(%q): %v", good, err)
	}
	if !bytes.Equal(got[:2], []byte{0x01, 0x23}) {
		t.Fatalf("decoded %x", got)
	}
	for _, bad := range []string{"", good[:62], good + "00", strings.ToUpper(good), "zz" + good[2:], " " + good[1:], "0x" + good[2:]} {
		if _, err := dice.ParseHex32(bad); !errors.Is(err, dice.ErrInvalidHex32) {
			t.Errorf("ParseHex32(%q) err = %v, want ErrInvalidHex32", bad, err)
		}
	}
}

func FuzzParseHex32(f *testing.F) {
	f.Add(strings.Repeat("ab", 32))
	f.Add("AB")
	f.Fuzz(func(t *testing.T, text string) {
		v, err := dice.ParseHex32(text)
		if err != nil {
			return
		}
		if got := fmt.Sprintf("%x", v[:]); got != text {
			t.Fatalf("ParseHex32(%q) re-encodes as %q", text, got)
		}
	})
}

func BenchmarkStreamV2_3d10(b *testing.B) {
	k := dice.SessionKey(vectorSeed(), "camp-1", "sess-1", vecContrib)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		s := k.Stream("camp-1", "sess-1", uint64(i), vecR0)
		for range 3 {
			if _, err := s.Roll(10); err != nil {
				b.Fatal(err)
			}
		}
	}
}
