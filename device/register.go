package device

// What a user's device signs about its own keys (docs/design.md §3.3, "Devices
// hold keys, not users"): its registration, signed by the new key itself
// (proof of possession), the approval of another of its user's devices, and
// the revocation of one. Pure: the private keys are given; nothing is read
// or written.

import (
	"crypto/ed25519"
	"fmt"

	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/signed"
)

// Signer is what signs a device's message: an ed25519.PrivateKey or a *Key.
type Signer interface {
	Sign(signedString string) string
	Public() signed.PublicKey
}

// PrivateKey makes an ed25519.PrivateKey a Signer.
type PrivateKey ed25519.PrivateKey

// Sign is signed.Sign with the key.
func (p PrivateKey) Sign(s string) string { return signed.Sign(ed25519.PrivateKey(p), s) }

// Public returns the key's public key.
func (p PrivateKey) Public() signed.PublicKey { return signed.PublicKeyOf(ed25519.PrivateKey(p)) }

func seal(k Signer, m signed.Message) (signed.Sealed, error) {
	s, err := signed.Encode(m)
	if err != nil {
		return signed.Sealed{}, err
	}
	return signed.Sealed{Signed: s, Signature: k.Sign(s)}, nil
}

// RegisterMessage is the device.register of key k for user's device name
// in campaign, with role (player or gm), to be signed by k itself.
func RegisterMessage(k Signer, campaign, user, role, name string) signed.Message {
	return &signed.DeviceRegister{Header: signed.Header{Campaign: campaign}, User: user, Role: role, Name: name, PublicKey: k.Public().String()}
}

// Register is RegisterMessage signed by k.
func Register(k Signer, campaign, user, role, name string) (signed.Sealed, error) {
	return seal(k, RegisterMessage(k, campaign, user, role, name))
}

// ApproveMessage is the device.approve, by user's device k, of user's
// device pub; a device does not approve itself.
func ApproveMessage(k Signer, campaign, user string, pub signed.PublicKey) (signed.Message, error) {
	if k.Public() == pub {
		return nil, msgerr.Errorf("device %s cannot approve itself: approve it from another of your devices", pub.Fingerprint())
	}
	return &signed.DeviceApprove{Header: signed.Header{Campaign: campaign}, User: user, PublicKey: pub.String()}, nil
}

// Approve is ApproveMessage signed by k.
func Approve(k Signer, campaign, user string, pub signed.PublicKey) (signed.Sealed, error) {
	m, err := ApproveMessage(k, campaign, user, pub)
	if err != nil {
		return signed.Sealed{}, err
	}
	return seal(k, m)
}

// RevokeMessage is the device.revoke, by user's device, of user's device
// pub (its own or another's) for reason.
func RevokeMessage(campaign, user string, pub signed.PublicKey, reason string) signed.Message {
	return &signed.DeviceRevoke{Header: signed.Header{Campaign: campaign}, User: user, PublicKey: pub.String(), Reason: reason}
}

// Revoke is RevokeMessage signed by k.
func Revoke(k Signer, campaign, user string, pub signed.PublicKey, reason string) (signed.Sealed, error) {
	return seal(k, RevokeMessage(campaign, user, pub, reason))
}

// MustRegister is Register with a raw private key, for the tests, the demo
// and the benchmarks, whose ids are valid: it panics on an error.
func MustRegister(priv ed25519.PrivateKey, campaign, user, role, name string) signed.Sealed {
	s, err := Register(PrivateKey(priv), campaign, user, role, name)
	if err != nil {
		panic(fmt.Sprintf("device.MustRegister: %v", err))
	}
	return s
}

// MustApprove is Approve with a raw private key; it panics on an error.
func MustApprove(priv ed25519.PrivateKey, campaign, user string, pub signed.PublicKey) signed.Sealed {
	s, err := Approve(PrivateKey(priv), campaign, user, pub)
	if err != nil {
		panic(fmt.Sprintf("device.MustApprove: %v", err))
	}
	return s
}
