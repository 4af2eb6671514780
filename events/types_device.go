package events

// Devices hold keys, not users (docs/design.md §3.3): the events of a user's
// devices. A user may have several devices, each with its own key; a key is
// registered to one device of one user only. Every event made from a
// device's message records it verbatim in Signed with its Signature; they
// are "" only where the GM acts for someone else without that user's
// device (a lost phone): a bare key registered, a device revoked.
const (
	TypeDeviceRegistered = "journal.device.registered.v1"
	TypeDeviceApproved   = "journal.device.approved.v1"
	TypeDeviceRevoked    = "journal.device.revoked.v1"
)

// DeviceRegistered registers User's device Name with key PublicKey (64
// lower-case hex; Fingerprint is signed.Fingerprint of it). By is the user
// who asked (the event's actor); Signed is the device.register signed by
// PublicKey itself (proof of possession), "" when the GM registered a bare
// key for someone else (flagged key-by-other).
type DeviceRegistered struct {
	User        string `json:"user"`
	Role        string `json:"role"`
	Name        string `json:"name"`
	PublicKey   string `json:"public_key"`
	Fingerprint string `json:"fingerprint"`
	By          string `json:"by"`
	Signed      string `json:"signed"`
	Signature   string `json:"signature"`
}

// DeviceApproved records that another device of User, active at this
// point, counter-signed User's device PublicKey (a device.approve in
// Signed, signed by that other device).
type DeviceApproved struct {
	User        string `json:"user"`
	PublicKey   string `json:"public_key"`
	Fingerprint string `json:"fingerprint"`
	By          string `json:"by"`
	Signed      string `json:"signed"`
	Signature   string `json:"signature"`
}

// DeviceRevoked withdraws User's device PublicKey from this event on: what
// it signs afterwards is no longer User's. Signed is a device.revoke signed
// by a device of User, "" when the GM revoked it (flagged revoked-by-other).
type DeviceRevoked struct {
	User        string `json:"user"`
	PublicKey   string `json:"public_key"`
	Fingerprint string `json:"fingerprint"`
	By          string `json:"by"`
	Reason      string `json:"reason"`
	Signed      string `json:"signed"`
	Signature   string `json:"signature"`
}
