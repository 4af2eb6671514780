package signed

// The messages of a user's devices about the devices themselves (docs/design.md
// §3.3, "Devices hold keys, not users"). They are campaign-scoped: their
// header's Session is "" (Header.In is called with session ""), and a
// session's message is never one of them.
//
// Invariants:
//   - device.register is signed by the key it registers (PublicKey): proof
//     that the registrant holds it. The journal and every verifier check the
//     signature under PublicKey itself, never under a key already registered.
//   - device.approve is signed by another device of User, already registered
//     and not revoked: a counter-signature of PublicKey.
//   - device.revoke is signed by a device of User (PublicKey's own or another).
//   - PublicKey is in its recorded form (ParsePublicKey's, lower-case hex),
//     so each key has one spelling in a signed string.

import (
	"strings"
	"unicode/utf8"

	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/internal/slug"
)

// The device message types.
const (
	TypeDeviceRegister Type = "device.register" // a new device's key, signed by itself
	TypeDeviceApprove  Type = "device.approve"  // another device of the same user vouches for it
	TypeDeviceRevoke   Type = "device.revoke"   // a device of the user withdraws one of its keys
)

// MaxDeviceNameLen bounds a device's name ("laptop", "phone"), in bytes.
const MaxDeviceNameLen = 100

// campaignScoped reports whether messages of type t name no session.
func campaignScoped(t Type) bool {
	switch t {
	case TypeDeviceRegister, TypeDeviceApprove, TypeDeviceRevoke:
		return true
	}
	return false
}

// DeviceRegister is a device.register: User's new device Name, with Role
// (player or gm), registers PublicKey; signed by PublicKey's private key.
type DeviceRegister struct {
	Header    `json:",inline"`
	User      string `json:"user"`
	Role      string `json:"role"`
	Name      string `json:"name"`
	PublicKey string `json:"public_key"`
}

// DeviceApprove is a device.approve: a registered device of User vouches
// for User's device PublicKey.
type DeviceApprove struct {
	Header    `json:",inline"`
	User      string `json:"user"`
	PublicKey string `json:"public_key"`
}

// DeviceRevoke is a device.revoke: a device of User withdraws User's
// device PublicKey for Reason (may be empty).
type DeviceRevoke struct {
	Header    `json:",inline"`
	User      string `json:"user"`
	PublicKey string `json:"public_key"`
	Reason    string `json:"reason"`
}

func (d *DeviceRegister) Kind() Type { return TypeDeviceRegister }
func (d *DeviceApprove) Kind() Type  { return TypeDeviceApprove }
func (d *DeviceRevoke) Kind() Type   { return TypeDeviceRevoke }

func (d *DeviceRegister) typed() Message { m := *d; m.Type = m.Kind(); return &m }
func (d *DeviceApprove) typed() Message  { m := *d; m.Type = m.Kind(); return &m }
func (d *DeviceRevoke) typed() Message   { m := *d; m.Type = m.Kind(); return &m }

// Key returns the message's public key, parsed (check has parsed it once).
func (d *DeviceRegister) Key() PublicKey { k, _ := ParsePublicKey(d.PublicKey); return k }

// Key returns the approved public key.
func (d *DeviceApprove) Key() PublicKey { k, _ := ParsePublicKey(d.PublicKey); return k }

// Key returns the revoked public key.
func (d *DeviceRevoke) Key() PublicKey { k, _ := ParsePublicKey(d.PublicKey); return k }

func checkDeviceUser(user string) error {
	if err := slug.Valid(user); err != nil {
		return msgerr.Errorf("%w: field user: %w", ErrMalformed, err)
	}
	return nil
}

func checkDeviceKey(text string) error {
	k, err := ParsePublicKey(text)
	if err != nil {
		return msgerr.Errorf("%w: field public_key: %w", ErrMalformed, err)
	}
	if k.String() != text {
		return msgerr.Errorf("%w: field public_key: not lower-case hex", ErrMalformed)
	}
	return nil
}

func (d *DeviceRegister) check() error {
	if err := checkDeviceUser(d.User); err != nil {
		return err
	}
	if d.Role != "player" && d.Role != "gm" {
		return msgerr.Errorf("%w: field role: %q, want player or gm", ErrMalformed, d.Role)
	}
	if len(d.Name) > MaxDeviceNameLen || strings.ContainsAny(d.Name, "\n\r\t") || !utf8.ValidString(d.Name) {
		return msgerr.Errorf("%w: field name: at most %d bytes on one line", ErrMalformed, MaxDeviceNameLen)
	}
	return checkDeviceKey(d.PublicKey)
}

func (d *DeviceApprove) check() error {
	if err := checkDeviceUser(d.User); err != nil {
		return err
	}
	return checkDeviceKey(d.PublicKey)
}

func (d *DeviceRevoke) check() error {
	if err := checkDeviceUser(d.User); err != nil {
		return err
	}
	if len(d.Reason) > MaxReasonLen {
		return msgerr.Errorf("%w: field reason: %d bytes, at most %d", ErrMalformed, len(d.Reason), MaxReasonLen)
	}
	return checkDeviceKey(d.PublicKey)
}

// Sealed is a device's message as sent: the signed string and its
// base64url Ed25519 signature (command.SignedMessage).
type Sealed struct {
	Signed    string `json:"signed" cli:"--signed S" help:"the signed string, as the device sent it"`
	Signature string `json:"signature" cli:"--signature SIG" help:"its base64url Ed25519 signature"`
}

// IsZero reports whether no message is given.
func (s Sealed) IsZero() bool { return s.Signed == "" && s.Signature == "" }

// OpenRegister verifies a device.register sent to campaign: its signature
// under the key it registers (proof of possession), its shape, its scope.
func OpenRegister(s Sealed, campaign string) (*DeviceRegister, error) {
	m, err := Parse(s.Signed)
	if err != nil {
		return nil, err
	}
	reg, ok := m.(*DeviceRegister)
	if !ok {
		return nil, msgerr.Errorf("%w: a %s, not a %s", ErrMalformed, m.Kind(), TypeDeviceRegister)
	}
	if err := Verify(reg.Key(), s.Signed, s.Signature); err != nil {
		return nil, err
	}
	if err := reg.Head().In(campaign, ""); err != nil {
		return nil, err
	}
	return reg, nil
}
