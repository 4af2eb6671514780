package i18n

// The texts of devices (DESIGN.md §3.3, "Devices hold keys, not users"):
// registrations, approvals and revocations of device keys, their flags,
// the audit's list of devices and the announcement of a device someone
// else added to a user's name (merged at init; every key is in both).
var (
	enDevices = map[Key]string{
		"tr.device_registered":    "%s registers a %s device %q, fingerprint %s, signed by the device's own key.",
		"tr.device_registered_by": "%s registers a %s device %q for %s, fingerprint %s.",
		"tr.device_approved":      "%s approves %s's device with fingerprint %s from another of its devices.",
		"tr.device_revoked":       "%s revokes %s's device with fingerprint %s (%s).",
	}
	esDevices = map[Key]string{
		"tr.device_registered":    "%s registra un dispositivo de %s %q, huella %s, firmado con la propia clave del dispositivo.",
		"tr.device_registered_by": "%s registra un dispositivo de %s %q para %s, huella %s.",
		"tr.device_approved":      "%s aprueba el dispositivo de %s con huella %s desde otro de sus dispositivos.",
		"tr.device_revoked":       "%s revoca el dispositivo de %s con huella %s (%s).",
	}
)

// errorsESDevices are the Spanish of the devices' errors.
var errorsESDevices = map[string]string{}

func init() {
	for en, es := range errorsESDevices {
		if _, ok := errorsES[en]; !ok {
			errorsES[en] = es
		}
	}
	for k, v := range enDevices {
		en[k] = v
	}
	for k, v := range esDevices {
		es[k] = v
	}
}
