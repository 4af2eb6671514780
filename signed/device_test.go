package signed_test

import (
	"crypto/ed25519"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/signed"
)

func chdr() signed.Header { return signed.Header{Campaign: "camp-1"} }

// One valid device message of every device type.
func deviceSamples() []signed.Message {
	pub := signed.PublicKeyOf(ed25519.NewKeyFromSeed(make([]byte, 32))).String()
	return []signed.Message{
		&signed.DeviceRegister{Header: chdr(), User: "ana", Role: "player", Name: "laptop", PublicKey: pub},
		&signed.DeviceApprove{Header: chdr(), User: "ana", PublicKey: pub},
		&signed.DeviceRevoke{Header: chdr(), User: "ana", PublicKey: pub, Reason: "lost"},
	}
}

func TestDeviceMessagesRoundTrip(t *testing.T) {
	priv := ed25519.NewKeyFromSeed(make([]byte, 32))
	for _, m := range deviceSamples() {
		s, err := signed.Encode(m)
		require.NoError(t, err)
		require.Contains(t, s, `"session":""`)
		got, err := signed.Open(signed.PublicKeyOf(priv), s, signed.Sign(priv, s), "camp-1", "")
		require.NoError(t, err)
		require.Equal(t, m.Kind(), got.Kind())
		_, err = signed.Open(signed.PublicKeyOf(priv), s, signed.Sign(priv, s), "camp-1", "sess-1")
		require.ErrorIs(t, err, signed.ErrWrongScope, "a device message is no session's")
	}
}

func TestDeviceMessagesRefused(t *testing.T) {
	pub := signed.PublicKeyOf(ed25519.NewKeyFromSeed(make([]byte, 32))).String()
	for name, s := range map[string]string{
		"a session":      `{"type":"device.register","campaign":"camp-1","session":"s","user":"ana","role":"player","name":"","public_key":"` + pub + `"}`,
		"a bad role":     `{"type":"device.register","campaign":"camp-1","session":"","user":"ana","role":"king","name":"","public_key":"` + pub + `"}`,
		"upper-case key": `{"type":"device.approve","campaign":"camp-1","session":"","user":"ana","public_key":"` + strings.ToUpper(pub) + `"}`,
		"no user":        `{"type":"device.revoke","campaign":"camp-1","session":"","user":"","public_key":"` + pub + `","reason":""}`,
	} {
		_, err := signed.Parse(s)
		require.ErrorIs(t, err, signed.ErrMalformed, name)
	}
}

// A device.register opens only under the key it registers.
func TestOpenRegisterProofOfPossession(t *testing.T) {
	own := ed25519.NewKeyFromSeed(make([]byte, 32))
	other := ed25519.NewKeyFromSeed([]byte(strings.Repeat("x", 32)))
	s, err := signed.Encode(&signed.DeviceRegister{Header: chdr(), User: "ana", Role: "player", PublicKey: signed.PublicKeyOf(own).String()})
	require.NoError(t, err)
	reg, err := signed.OpenRegister(signed.Sealed{Signed: s, Signature: signed.Sign(own, s)}, "camp-1")
	require.NoError(t, err)
	require.Equal(t, "ana", reg.User)
	_, err = signed.OpenRegister(signed.Sealed{Signed: s, Signature: signed.Sign(other, s)}, "camp-1")
	require.ErrorIs(t, err, signed.ErrBadSignature, "signed by another key than the one it registers")
	_, err = signed.OpenRegister(signed.Sealed{Signed: s, Signature: signed.Sign(own, s)}, "camp-2")
	require.ErrorIs(t, err, signed.ErrWrongScope)
}
