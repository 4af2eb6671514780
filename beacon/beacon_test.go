package beacon_test

import (
	"encoding/hex"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/beacon"
)

// Real quicknet rounds as drand published them, with their randomness
// (= SHA-256 of the signature). Sources:
//   - rounds 1, 2, 3, 30662982, 30662990, 30662992, 30663002: the fixture
//     src/beacon/tests/fixtures/drand_quicknet.json of github.com/ChainSafe/forest
//     (commit 80de5415d2f647bf926dd03f6309b50998a5389a), fetched from
//     https://api.drand.sh/52db9ba7…e971/public/{round}; rounds 2 and 3 are also
//     in its src/beacon/signatures/tests.rs;
//   - round 42: drand's docs, https://docs.drand.love/dev-guide/developer/http-api
//     ("curl -s api.drand.sh/v2/beacons/quicknet/rounds/42");
//   - round 657413: the README of github.com/very-lame-username/python-drand-verify
//     (verify_quicknet(657413, …) → 'fc1873a1…').
var quicknetRounds = []struct {
	round      uint64
	signature  string
	randomness string // "" where the source gave none
}{
	{1, "b55e7cb2d5c613ee0b2e28d6750aabbb78c39dcc96bd9d38c2c2e12198df95571de8e8e402a0cc48871c7089a2b3af4b", "1466a6cd24e327188770752f6134001c64d6efcc590ccc26b721611ad96f165a"},
	{2, "b6b6a585449b66eb12e875b64fcbab3799861a00e4dbf092d99e969a5eac57dd3f798acf61e705fe4f093db926626807", "5782d6987841c654515a0e72b2d1ebb4e741234042c37cb19608ae50d93fb60c"},
	{3, "b3fab6df720b68cc47175f2c777e86d84187caab5770906f515ff1099cb01e4deaa027075d860823e49477b93c72bd64", "7ef4621ace1c6da4eb2eee7cd901f81385bca5b189771ec0f08d0d2566dd1a21"},
	{42, "95a9f9f5b231b7714de1553105d8ffdf3dcda24cfdb1e689319bccf79a9c8ce430a91b811fbfaf763900bc998b5d686a", ""},
	{657413, "b713718a38ae728dfd477991af2822e08d2f305e47718cef9f7848ce4050e7be41076862b98fad56e91a6b85b89cd97b", "fc1873a13f3545aeade8401532ef5519920652eee6b0d2b19ca12643b87b3587"},
	{30662982, "8b3edd0d42a2fa36ac15641a2dea2e4f4895acec2ef72ef39e5b6138f0346fb6b046dde1b4b3d09ff5fe8a6a7acd674a", "ae76da5137c6d0a0d3b50d325948b26cc3ff1f804cd7bbca29b9250c2bfe8d67"},
	{30662990, "8b2ebe176d153849d5db7f358a3a21be96f8c5d1c26ed2b530fff4419face8909d77f4ee6a211623e2432c30841411b5", "aac361dad26f7e5f5c2460fa905ed6d4e2bf8d21ccb67bbe5100204475b56742"},
	{30662992, "b72a64269e84523a73a87db491505b6f1675dfc7f71c69026efdce3996f59ce2d1b446fc00c13beff7fcfd428053a534", "b21201bdbe54b1e3ca135bf319bbca22b90b8ae30944c4a6790f74267d074827"},
	{30663002, "b9e7e1e3d7d9cf17a9f4703abfae4c137acfbef1fdb45715a98422c244a499ea381c7fd759851ed8eeb8a03d778959b3", "2a231554933f6fd70314fa470152710fac3eba10d052cab996e8f30854fa7f55"},
}

func TestQuicknetRealRounds(t *testing.T) {
	c := beacon.Quicknet()
	for _, tt := range quicknetRounds {
		r, err := c.VerifyHex(tt.round, tt.signature)
		if err != nil {
			t.Fatalf("round %d: %v", tt.round, err)
		}
		if tt.randomness != "" && hex.EncodeToString(r[:]) != tt.randomness {
			t.Fatalf("round %d: randomness = %x, want %s", tt.round, r, tt.randomness)
		}
	}
}

func TestQuicknetRefusesTampered(t *testing.T) {
	c := beacon.Quicknet()
	sig3, _ := hex.DecodeString(quicknetRounds[2].signature)
	flip := func(i int, bit byte) []byte {
		b := append([]byte(nil), sig3...)
		b[i] ^= bit
		return b
	}
	// The uncompressed form of the same point: valid point, other spelling.
	tests := []struct {
		name  string
		round uint64
		sig   []byte
		want  error
	}{
		{"round 3's signature for round 2", 2, sig3, beacon.ErrBadSignature},
		{"round 3's signature for round 4", 4, sig3, beacon.ErrBadSignature},
		{"round 2's signature for round 3", 3, mustHex(t, quicknetRounds[1].signature), beacon.ErrBadSignature},
		{"last bit flipped", 3, flip(47, 1), beacon.ErrBadSignature},
		{"middle byte flipped", 3, flip(20, 0x10), beacon.ErrBadSignature},
		{"y sign flipped (the negated point)", 3, flip(0, 0x20), beacon.ErrBadSignature},
		{"compression flag cleared", 3, flip(0, 0x80), beacon.ErrBadSignature},
		{"truncated", 3, sig3[:47], beacon.ErrBadSignature},
		{"extended", 3, append(append([]byte(nil), sig3...), 0), beacon.ErrBadSignature},
		{"empty", 3, nil, beacon.ErrBadSignature},
		{"identity", 3, append([]byte{0xc0}, make([]byte, 47)...), beacon.ErrBadSignature},
		{"round 0", 0, sig3, beacon.ErrInvalidRound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := c.Verify(tt.round, tt.sig)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Verify err = %v, want %v", err, tt.want)
			}
			if r != ([32]byte{}) {
				t.Fatal("randomness returned with an error")
			}
		})
	}
	if _, err := c.VerifyHex(3, "zz"); !errors.Is(err, beacon.ErrBadSignature) {
		t.Fatalf("VerifyHex(zz) err = %v", err)
	}
}

// A round of quicknet does not verify under another chain of the same
// scheme, and that chain's own round does (drand's "walkthrough" test chain
// from github.com/drand/drand-client test/beacon-verification.test.ts,
// "signatures on G1 with DST").
func TestOtherChain(t *testing.T) {
	info := beacon.Info{
		PublicKey:   "81d320f220ee9c79e60e19dedc838c31e3ab919b15481e9feb52f643628c4f6a13fdc52129493875a818109d767272ca0541cbcdcea9335f2870d781b39b845ba8cbd44fdfe4967781cf72ca5917fc9398bcf97ca0548ed5a709016c4b1ff0f3",
		Period:      3,
		GenesisTime: 1687506816,
		Hash:        "af8b6fc95693b058a3a59efe586eb31c2c352fe00cf40c62a427d87c34f7a235",
		GroupHash:   "02d678e93908888871b70e3f015b396a8c082bc1493ae5479f8743cb5d972b54",
		SchemeID:    beacon.SchemeG1RFC9380,
	}
	info.Metadata.BeaconID = "walkthrough"
	c, err := beacon.NewChain(info)
	require.NoError(t, err)
	r, err := c.VerifyHex(38, "95c93585c513ebbcb4777ff15599b3140e5ec0295faa0e483f3deadd88fa6d43f0d3703e3a4ce106e8fd6c6987f32126")
	require.NoError(t, err)
	require.Equal(t, "b2fc21325a24904a6a9e81a6c63f65f6cec3f0b2400df3f4a56b214770e9ccca", hex.EncodeToString(r[:]))
	if _, err := c.VerifyHex(3, quicknetRounds[2].signature); !errors.Is(err, beacon.ErrBadSignature) {
		t.Fatalf("quicknet round under another chain: err = %v", err)
	}
	if _, err := beacon.Quicknet().VerifyHex(38, "95c93585c513ebbcb4777ff15599b3140e5ec0295faa0e483f3deadd88fa6d43f0d3703e3a4ce106e8fd6c6987f32126"); !errors.Is(err, beacon.ErrBadSignature) {
		t.Fatalf("another chain's round under quicknet: err = %v", err)
	}
}

func TestNewChainRefuses(t *testing.T) {
	mutate := func(f func(*beacon.Info)) beacon.Info {
		i := beacon.QuicknetInfo()
		f(&i)
		return i
	}
	tests := []struct {
		name string
		info beacon.Info
	}{
		{"other scheme", mutate(func(i *beacon.Info) { i.SchemeID = "pedersen-bls-chained" })},
		{"period changed", mutate(func(i *beacon.Info) { i.Period = 30 })},
		{"period zero", mutate(func(i *beacon.Info) { i.Period = 0 })},
		{"genesis changed", mutate(func(i *beacon.Info) { i.GenesisTime++ })},
		{"hash changed", mutate(func(i *beacon.Info) { i.Hash = "00" + i.Hash[2:] })},
		{"beacon id changed", mutate(func(i *beacon.Info) { i.Metadata.BeaconID = "default" })},
		{"group hash changed", mutate(func(i *beacon.Info) { i.GroupHash = "00" + i.GroupHash[2:] })},
		{"key not hex", mutate(func(i *beacon.Info) { i.PublicKey = "zz" + i.PublicKey[2:] })},
		{"key short", mutate(func(i *beacon.Info) { i.PublicKey = i.PublicKey[:190] })},
		{"key not on the curve", mutate(func(i *beacon.Info) { i.PublicKey = i.PublicKey[:190] + "00" })},
		{"key the identity", mutate(func(i *beacon.Info) { i.PublicKey = "c0" + zeros(95) })},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := beacon.NewChain(tt.info); !errors.Is(err, beacon.ErrInvalidChain) {
				t.Fatalf("NewChain err = %v, want ErrInvalidChain", err)
			}
		})
	}
}

func TestRoundTimes(t *testing.T) {
	c := beacon.Quicknet()
	genesis := time.Unix(beacon.QuicknetGenesis, 0)
	tests := []struct {
		at   time.Time
		want uint64
	}{
		{genesis.Add(-time.Second), 0},
		{genesis, 1},
		{genesis.Add(2999 * time.Millisecond), 1},
		{genesis.Add(3 * time.Second), 2},
		{time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC), uint64((time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC).Unix()-beacon.QuicknetGenesis)/3 + 1)},
	}
	for _, tt := range tests {
		if got := c.RoundAt(tt.at); got != tt.want {
			t.Errorf("RoundAt(%v) = %d, want %d", tt.at, got, tt.want)
		}
	}
	for _, round := range []uint64{1, 2, 42, 657413, 30663002} {
		at := c.TimeOf(round)
		if got := c.RoundAt(at); got != round {
			t.Errorf("RoundAt(TimeOf(%d)) = %d", round, got)
		}
		if got := c.RoundAt(at.Add(-time.Second)); got != round-1 {
			t.Errorf("a second before round %d: RoundAt = %d", round, got)
		}
		if got := c.NextRound(at); got != round+1 {
			t.Errorf("NextRound(TimeOf(%d)) = %d", round, got)
		}
	}
	if !c.TimeOf(0).IsZero() {
		t.Error("TimeOf(0) is not the zero time")
	}
	require.Equal(t, genesis.UTC(), c.Genesis())
	require.Equal(t, 3*time.Second, c.Period())
	require.Equal(t, beacon.QuicknetHash, c.Hash())
}

func TestMessage(t *testing.T) {
	// SHA-256 of 00 00 00 00 00 00 00 01.
	m := beacon.Message(1)
	require.Equal(t, "cd2662154e6d76b2b2b92e70c0cac3ccf534f9b74eb5b89819ec509083d00a50", hex.EncodeToString(m[:]))
}

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	require.NoError(t, err)
	return b
}

func zeros(n int) string {
	b := make([]byte, 2*n)
	for i := range b {
		b[i] = '0'
	}
	return string(b)
}

func BenchmarkVerify(b *testing.B) {
	c := beacon.Quicknet()
	sig, _ := hex.DecodeString(quicknetRounds[2].signature)
	for b.Loop() {
		if _, err := c.Verify(3, sig); err != nil {
			b.Fatal(err)
		}
	}
}

func TestIsFuture(t *testing.T) {
	c := beacon.Quicknet()
	at := c.TimeOf(100)
	require.False(t, c.IsFuture(100, at), "round 100 is out at its own time")
	require.False(t, c.IsFuture(99, at))
	require.True(t, c.IsFuture(101, at))
	require.True(t, c.IsFuture(101, at.Add(2*time.Second)))
	require.False(t, c.IsFuture(101, at.Add(3*time.Second)))
}

// No input crashes Verify, and only the real signature of a round verifies.
func FuzzVerify(f *testing.F) {
	for _, q := range quicknetRounds[:3] {
		f.Add(q.round, mustHexF(f, q.signature))
	}
	f.Add(uint64(1), make([]byte, 48))
	c := beacon.Quicknet()
	f.Fuzz(func(t *testing.T, round uint64, sig []byte) {
		r, err := c.Verify(round, sig)
		if err != nil {
			return
		}
		for _, q := range quicknetRounds {
			if q.round == round && q.signature == hex.EncodeToString(sig) {
				require.Equal(t, beacon.Randomness(sig), r)
				return
			}
		}
		t.Fatalf("round %d verified an unknown signature %x", round, sig)
	})
}

func mustHexF(f *testing.F, s string) []byte {
	b, err := hex.DecodeString(s)
	require.NoError(f, err)
	return b
}
