package web_test

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/beacon"
	"github.com/campaign-journal/journal/rules/dice"
)

// Real quicknet rounds as drand published them, the same as
// beacon/beacon_test.go's (sources cited there), with their randomness.
var browserRounds = []struct {
	round      uint64
	signature  string
	randomness string
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

// walkthrough is drand's "walkthrough" test chain (beacon_test.go's
// TestOtherChain) and its round 38.
const (
	walkthroughInfo = `{public_key: "81d320f220ee9c79e60e19dedc838c31e3ab919b15481e9feb52f643628c4f6a13fdc52129493875a818109d767272ca0541cbcdcea9335f2870d781b39b845ba8cbd44fdfe4967781cf72ca5917fc9398bcf97ca0548ed5a709016c4b1ff0f3",
		period: 3, genesis_time: 1687506816, hash: "af8b6fc95693b058a3a59efe586eb31c2c352fe00cf40c62a427d87c34f7a235",
		groupHash: "02d678e93908888871b70e3f015b396a8c082bc1493ae5479f8743cb5d972b54", schemeID: "bls-unchained-g1-rfc9380", metadata: {beaconID: "walkthrough"}}`
	walkthrough38 = "95c93585c513ebbcb4777ff15599b3140e5ec0295faa0e483f3deadd88fa6d43f0d3703e3a4ce106e8fd6c6987f32126"
)

// TestBeaconInBrowser: beacon.js (with the vendored @noble/curves) verifies
// in headless Chromium the real quicknet rounds that the Go beacon package
// verifies, giving the same randomness, and refuses every tampered round
// that Go refuses.
func TestBeaconInBrowser(t *testing.T) {
	t.Parallel() // waits on Chromium or node more than it computes (chrome_test.go)
	b := newBrowser(t)
	h := newHarness(t, memBackend())
	openV2(t, b, h)
	c := beacon.Quicknet()
	for _, r := range browserRounds {
		got := jsValue(t, b, fmt.Sprintf(`return JournalBeacon.verify(%d, %s);`, r.round, jsq(r.signature)))
		want, err := c.VerifyHex(r.round, r.signature)
		require.NoError(t, err)
		require.Equal(t, `"`+hex.EncodeToString(want[:])+`"`, got, "round %d", r.round)
		if r.randomness != "" {
			require.Equal(t, `"`+r.randomness+`"`, got, "round %d: the published randomness", r.round)
		}
	}
	ms := jsValue(t, b, `const t0 = performance.now(); for (let i = 0; i < 5; i++) await JournalBeacon.verify(3, "`+browserRounds[2].signature+`"); return +((performance.now() - t0) / 5).toFixed(1);`)
	t.Logf("figure: one quicknet round verified in the browser (noble BLS12-381 pairing) in %s ms", ms)
	// Round numbers as drand writes them in JSON (numbers), as strings and BigInts.
	require.Equal(t, `"`+browserRounds[5].randomness+`"`, jsValue(t, b, `return JournalBeacon.verify("30662982", "`+browserRounds[5].signature+`");`))
	require.Equal(t, `"`+browserRounds[5].randomness+`"`, jsValue(t, b, `return JournalBeacon.verify(30662982n, "`+browserRounds[5].signature+`");`))
	m := beacon.Message(30662982)
	require.Equal(t, `"`+hex.EncodeToString(m[:])+`"`, jsValue(t, b, `return JournalBeacon.message(30662982);`))
	// The round clock agrees with Go's.
	require.Equal(t, fmt.Sprint(c.RoundAt(c.TimeOf(30662982))), jsValue(t, b, `return JournalBeacon.roundAt(JournalBeacon.timeOf(30662982));`))
	require.Equal(t, fmt.Sprint(c.TimeOf(30662982).Unix()), jsValue(t, b, `return JournalBeacon.timeOf(30662982);`))

	sig3 := browserRounds[2].signature
	raw3, _ := hex.DecodeString(sig3)
	flip := func(i int, bit byte) string {
		b := append([]byte(nil), raw3...)
		b[i] ^= bit
		return hex.EncodeToString(b)
	}
	tampered := []struct {
		name  string
		round string
		sig   string
		code  string
	}{
		{"round 3's signature for round 2", "2", sig3, "bad-signature"},
		{"round 3's signature for round 4", "4", sig3, "bad-signature"},
		{"round 2's signature for round 3", "3", browserRounds[1].signature, "bad-signature"},
		{"last bit flipped", "3", flip(47, 1), "bad-signature"},
		{"middle byte flipped", "3", flip(20, 0x10), "bad-signature"},
		{"y sign flipped (the negated point)", "3", flip(0, 0x20), "bad-signature"},
		{"compression flag cleared", "3", flip(0, 0x80), "bad-signature"},
		{"truncated", "3", sig3[:94], "bad-signature"},
		{"extended", "3", sig3 + "00", "bad-signature"},
		{"empty", "3", "", "bad-signature"},
		{"not hex", "3", "zz", "bad-signature"},
		{"identity", "3", "c0" + strings.Repeat("00", 47), "bad-signature: bad beacon signature: the identity point"},
		{"identity with a stray bit", "3", "c0" + strings.Repeat("00", 46) + "01", "bad-signature"},
		{"identity, uncompressed flag", "3", "40" + strings.Repeat("00", 47), "bad-signature"},
		{"x = p (not reduced)", "3", "9a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab", "bad-signature"},
		{"round 0", "0", sig3, "invalid-round"},
		{"round 2^64", `"18446744073709551616"`, sig3, "invalid-round"},
		{"a fractional round", "3.5", sig3, "invalid-round"},
	}
	for _, tt := range tampered {
		got := jsError(t, b, fmt.Sprintf(`await JournalBeacon.verify(%s, %s);`, tt.round, jsq(tt.sig)))
		if !strings.HasPrefix(got, "BeaconError/"+tt.code) {
			t.Errorf("%s: %s, want BeaconError/%s", tt.name, got, tt.code)
		}
		// Go refuses it too.
		var round uint64
		if _, err := fmt.Sscan(strings.Trim(tt.round, `"`), &round); err == nil && tt.round != "3.5" {
			if _, err := c.VerifyHex(round, tt.sig); !errors.Is(err, beacon.ErrBadSignature) && !errors.Is(err, beacon.ErrInvalidRound) {
				t.Errorf("%s: Go says %v", tt.name, err)
			}
		}
	}

	// Another chain of the same scheme: its own round verifies, quicknet's does not.
	require.Equal(t, `"b2fc21325a24904a6a9e81a6c63f65f6cec3f0b2400df3f4a56b214770e9ccca"`, jsValue(t, b, `return JournalBeacon.verify(38, "`+walkthrough38+`", `+walkthroughInfo+`);`))
	require.Contains(t, jsError(t, b, `await JournalBeacon.verify(3, "`+sig3+`", `+walkthroughInfo+`);`), "BeaconError/bad-signature")
	require.Contains(t, jsError(t, b, `await JournalBeacon.verify(38, "`+walkthrough38+`");`), "BeaconError/bad-signature")
	// A chain whose hash does not match its parameters, or of another scheme, is refused.
	for name, edit := range map[string]string{
		"another hash":     `i.hash = JournalBeacon.QUICKNET.hash;`,
		"another period":   `i.period = 30;`,
		"another genesis":  `i.genesis_time += 1;`,
		"another key":      `i.public_key = JournalBeacon.QUICKNET.public_key;`,
		"another scheme":   `i.schemeID = "pedersen-bls-chained";`,
		"another beacon":   `i.metadata = {beaconID: "default"};`,
		"a key not on G2":  `i.public_key = "a0" + "00".repeat(95);`,
		"a short key":      `i.public_key = i.public_key.slice(2);`,
		"a bad group hash": `i.groupHash = "00";`,
	} {
		got := jsError(t, b, `const i = `+walkthroughInfo+`; `+edit+` await JournalBeacon.verify(38, "`+walkthrough38+`", i);`)
		if !strings.HasPrefix(got, "BeaconError/invalid-chain:") {
			t.Errorf("%s: %s", name, got)
		}
	}
	// A GM roll resolved by a beacon round: dice2.js checks that its r is
	// the verified randomness of the round its request named.
	round := browserRounds[5]
	rnd, err := dice.ParseHex32(round.randomness)
	require.NoError(t, err)
	k := dice.SessionKey(dice.Seed(run32(0)), "camp-1", "sess-1", [][32]byte{fill32(0xaa), fill32(0xbb)})
	st := dice.StreamV2(k, "camp-1", "sess-1", 5, rnd)
	var faces []int
	for range 3 {
		f, err := st.Roll(10)
		require.NoError(t, err)
		faces = append(faces, f)
	}
	facesJSON, _ := json.Marshal(faces)
	session := `{id: "sess-1", algorithm: "journal-dice-v2", commitment: "` + dice.Seed(run32(0)).Commitment() + `", seed: "` + v2Seed + `", contributions: ["` + contribA + `", "` + contribB + `"]}`
	beaconRoll := func(reveal, beaconRound, sig string) string {
		return `const v = await JournalDiceV2.verify({campaign: "camp-1", session: "sess-1", data: {nonce: 5, reveal: "` + reveal + `", witness: "beacon", draws: [10, 10, 10], faces: ` + string(facesJSON) + `}}, ` + session +
			`, {data: {request: "` + keyReq + `", beacon_round: 30662982}}, ` + `{beacon: {round: ` + beaconRound + `, signature: "` + sig + `"}}); return v.status + " " + v.beaconOK;`
	}
	require.Equal(t, `"verified true"`, jsValue(t, b, beaconRoll(round.randomness, "30662982", round.signature)))
	require.Contains(t, jsValue(t, b, strings.Replace(beaconRoll(round.randomness, "30662990", browserRounds[6].signature), `v.status + " " + v.beaconOK`, `v.status + ": " + v.reason`, 1)),
		`mismatch: the beacon round given is 30662990, the request names 30662982`, "another round than the request's")
	require.Equal(t, `"mismatch undefined"`, jsValue(t, b, beaconRoll(round.randomness, "30662982", browserRounds[6].signature)), "another round's signature")
	require.Equal(t, `"mismatch false"`, jsValue(t, b, beaconRoll(browserRounds[6].randomness, "30662982", round.signature)), "r is not the round's randomness")
	require.Equal(t, `"verified null"`, jsValue(t, b, `const v = await JournalDiceV2.verify({campaign: "camp-1", session: "sess-1", data: {nonce: 5, reveal: "`+round.randomness+`", draws: [10, 10, 10], faces: `+string(facesJSON)+`}}, `+session+`, {data: {beacon_round: 30662982}}); return v.status + " " + v.beaconOK;`), "no signature given: flagged, not checked")

	// The pinned quicknet parameters are drand's (their hash holds).
	require.Equal(t, `"`+beacon.QuicknetHash+`"`, jsValue(t, b, `return (await JournalBeacon.chain()).hash;`))
}
