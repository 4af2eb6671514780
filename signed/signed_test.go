package signed_test

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/signed"
)

// RFC 8032 §7.1, TEST 1: an independent vector for the key, the signature
// and its base64url form.
const (
	rfcSeed = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"
	rfcPub  = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
	rfcSig  = "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
)

func rfcKey(t testing.TB) ed25519.PrivateKey {
	t.Helper()
	seed, err := hex.DecodeString(rfcSeed)
	require.NoError(t, err)
	return ed25519.NewKeyFromSeed(seed)
}

func otherKey() ed25519.PrivateKey {
	seed := make([]byte, ed25519.SeedSize)
	for i := range seed {
		seed[i] = byte(0x80 + i)
	}
	return ed25519.NewKeyFromSeed(seed)
}

func TestRFC8032Vector(t *testing.T) {
	priv := rfcKey(t)
	pub := signed.PublicKeyOf(priv)
	if pub.String() != rfcPub {
		t.Fatalf("public key = %s, want %s", pub, rfcPub)
	}
	parsed, err := signed.ParsePublicKey(rfcPub)
	require.NoError(t, err)
	require.Equal(t, pub, parsed)

	sig := signed.Sign(priv, "")
	raw, _ := hex.DecodeString(rfcSig)
	if want := base64.RawURLEncoding.EncodeToString(raw); sig != want {
		t.Fatalf("signature = %s, want %s", sig, want)
	}
	if sig != "5VZDAMNgrHKQhuLMgG6CioSHfx645dl02HPgZSJJAVVfuIIVkKM7rMYeOXAc-bRr0lv18FlbviRlUUFDjnoQCw" {
		t.Fatalf("base64url form = %s", sig)
	}
	require.NoError(t, signed.Verify(pub, "", sig))
}

func TestFingerprint(t *testing.T) {
	pub, err := signed.ParsePublicKey(rfcPub)
	require.NoError(t, err)
	// First 16 bytes of SHA-256 of the 32 key bytes, computed independently.
	const want = "21fe:31df:a154:a261:626b:f854:046f:d227"
	if got := pub.Fingerprint(); got != want {
		t.Fatalf("fingerprint = %s, want %s", got, want)
	}
	if got := signed.Fingerprint(signed.PublicKeyOf(otherKey())); got == want {
		t.Fatal("two keys share a fingerprint")
	}
}

func TestParsePublicKey(t *testing.T) {
	tests := []struct {
		name, text string
	}{
		{"empty", ""},
		{"upper case", strings.ToUpper(rfcPub)},
		{"short", rfcPub[:62]},
		{"long", rfcPub + "00"},
		{"not hex", "zz" + rfcPub[2:]},
		{"identity", "0100000000000000000000000000000000000000000000000000000000000000"},
		{"identity, x sign bit", "0100000000000000000000000000000000000000000000000000000000000080"},
		{"order 2", "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"},
		{"order 4", "0000000000000000000000000000000000000000000000000000000000000000"},
		{"order 8", "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"},
		{"order 8, other", "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa"},
		{"non-canonical identity", "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := signed.ParsePublicKey(tt.text); !errors.Is(err, signed.ErrBadKey) {
				t.Fatalf("ParsePublicKey(%q) err = %v, want ErrBadKey", tt.text, err)
			}
		})
	}
}

// The identity key verifies a signature anyone can make for any message:
// crypto/ed25519 accepts it, Verify must not.
func TestSmallOrderKeyForgeryRefused(t *testing.T) {
	var pub signed.PublicKey
	pub[0] = 1 // the identity point
	forged := make([]byte, 64)
	forged[0] = 1 // R = identity, S = 0
	msg := `{"type":"roll.reveal"}`
	require.True(t, ed25519.Verify(pub[:], []byte(msg), forged), "the attack this test guards against no longer works; keep the check anyway")
	err := signed.Verify(pub, msg, base64.RawURLEncoding.EncodeToString(forged))
	if !errors.Is(err, signed.ErrBadKey) {
		t.Fatalf("Verify with the identity key err = %v, want ErrBadKey", err)
	}
}
