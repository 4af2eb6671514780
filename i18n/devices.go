package i18n

// The texts of devices (docs/design.md §3.3, "Devices hold keys, not users"):
// registrations, approvals and revocations of device keys, their flags,
// the audit's list of devices and the announcement of a device someone
// else added to a user's name (merged at init; every key is in both).
var (
	enDevices = map[Key]string{
		"tr.device_registered":    "%s registers a %s device%s, fingerprint %s, signed by the device's own key.",
		"tr.device_registered_by": "%s registers a %s device%s for %s, fingerprint %s.",
		"tr.device_approved":      "%s approves %s's device with fingerprint %s from another of its devices.",
		"tr.device_revoked":       "%s revokes %s's device with fingerprint %s (%s).",
		"rp2.f.device_unapproved": "event %s: a second device of %s (%s) registered while another was active, never approved from one of them: whoever registered it may not be %s",
		"rp2.f.key_unproved":      "event %s: %s's key %s registered without proof that %s holds it (a journal.participant.registered.v1, before devices signed their registration)",
		"rp2.f.revoked_by_other":  "%s's device %s revoked by %s, not by a device of %s",
		"rp2.devices.one":         "devices: %d",
		"rp2.devices.many":        "devices: %d",
		"rp2.device":              "%s: device %q, fingerprint %s, registered by %s: %s",
		"rp2.device.active":       "active",
		"rp2.device.unproved":     "without proof of possession",
		"rp2.device.approved":     "approved by another of its devices",
		"rp2.device.revoked":      "revoked by %s",
	}
	esDevices = map[Key]string{
		"tr.device_registered":    "%s registra un dispositivo de %s%s, huella %s, firmado con la propia clave del dispositivo.",
		"tr.device_registered_by": "%s registra un dispositivo de %s%s para %s, huella %s.",
		"tr.device_approved":      "%s aprueba el dispositivo de %s con huella %s desde otro de sus dispositivos.",
		"tr.device_revoked":       "%s revoca el dispositivo de %s con huella %s (%s).",
		"rp2.f.device_unapproved": "evento %s: un segundo dispositivo de %s (%s) registrado con otro activo, nunca aprobado desde uno de ellos: quien lo registró puede no ser %s",
		"rp2.f.key_unproved":      "evento %s: clave de %s %s registrada sin prueba de que %s la tiene (un journal.participant.registered.v1, de antes de que los dispositivos firmaran su registro)",
		"rp2.f.revoked_by_other":  "dispositivo de %s %s revocado por %s, no por un dispositivo de %s",
		"rp2.devices.one":         "dispositivos: %d",
		"rp2.devices.many":        "dispositivos: %d",
		"rp2.device":              "%s: dispositivo %q, huella %s, registrado por %s: %s",
		"rp2.device.active":       "activo",
		"rp2.device.unproved":     "sin prueba de posesión",
		"rp2.device.approved":     "aprobado por otro de sus dispositivos",
		"rp2.device.revoked":      "revocado por %s",
	}
)

// errorsESDevices are the Spanish of the devices' errors.
var errorsESDevices = map[string]string{
	"send the device.register of the new key, signed by it (signed, signature): the proof that this device holds it":                                                                                              "envía el device.register de la clave nueva, firmado con ella (signed, signature): la prueba de que este dispositivo la tiene",
	"WARNING: %s added a device to your name on %s (fingerprint %s): if it was not you, revoke it with 'journal key revoke %s'; if it was, approve it from another of your devices with 'journal key approve %s'": "AVISO: %s añadió un dispositivo a tu nombre el %s (huella %s): si no fuiste tú, revócalo con 'journal key revoke %s'; si fuiste tú, apruébalo desde otro de tus dispositivos con 'journal key approve %s'",
	"journal: %s already has %d device(s) in campaign %s: this one (%s) is flagged key-by-other until you approve it from another of your devices with 'journal key approve %s'":                                  "journal: %s ya tiene %d dispositivo(s) en la campaña %s: este (%s) queda señalado key-by-other hasta que lo apruebes desde otro de tus dispositivos con 'journal key approve %s'",
	"journal: registering a key for %s that %s's device did not sign: the audit flags it key-by-other, and %s is told on every page and command until it approves or revokes it":                                  "journal: registrando para %s una clave que su dispositivo no firmó (%s): la auditoría la señala key-by-other, y %s lo verá en cada página y orden hasta que la apruebe o la revoque",
	"key approve %s: no device of campaign %s has that fingerprint (see 'journal key devices')":                                                                                                                   "key approve %s: ningún dispositivo de la campaña %s tiene esa huella (ver 'journal key devices')",
	"key register: your own device registers its own key, signed by it: leave out --public-key":                                                                                                                   "key register: tu propio dispositivo registra su propia clave, firmada con ella: quita --public-key",
	"key revoke %s: no device of campaign %s has that fingerprint (see 'journal key devices')":                                                                                                                    "key revoke %s: ningún dispositivo de la campaña %s tiene esa huella (ver 'journal key devices')",
	"%s has no device %s":                                                                        "%s no tiene el dispositivo %s",
	"%s has no device with public key %s":                                                        "%s no tiene ningún dispositivo con la clave pública %s",
	"%s has no other active device to approve device %s":                                         "%s no tiene otro dispositivo activo que apruebe el dispositivo %s",
	"%s may approve only its own devices, not %s's":                                              "%s solo puede aprobar sus propios dispositivos, no los de %s",
	"%s may revoke with a signed message only its own devices, not %s's":                         "%s solo puede revocar con un mensaje firmado sus propios dispositivos, no los de %s",
	"%s revokes its own device %s without signing it":                                            "%s revoca su propio dispositivo %s sin firmarlo",
	"%s's own device %s registered without its device.register (no proof that %s holds the key)": "el propio dispositivo de %s, %s, registrado sin su device.register (sin prueba de que %s tenga la clave)",
	"%w: a %s, not a %s":                                                                         "%w: un %s, no un %s",
	"%w: field name: at most %d bytes on one line":                                               "%w: campo «name»: como mucho %d bytes en una línea",
	"%w: field public_key: %w":                                                                   "%w: campo «public_key»: %w",
	"%w: field public_key: not lower-case hex":                                                   "%w: campo «public_key»: no es hexadecimal en minúsculas",
	"%w: field role: %q, want player or gm":                                                      "%w: campo «role»: %q, se espera «player» o «gm»",
	"%w: field session: a %s names no session":                                                   "%w: campo «session»: un %s no nombra ninguna sesión",
	"%w: field user: %w":                                                                         "%w: campo «user»: %w",
	"--name: at most %d bytes":                                                                   "--name: como mucho %d bytes",
	"--reason: at most %d bytes":                                                                 "--reason: como mucho %d bytes",
	"a device of your own is registered with a device.register signed by its key (proof that you hold it): run 'journal key register' on that device": "un dispositivo propio se registra con un device.register firmado con su clave (prueba de que la tienes): ejecuta 'journal key register' en ese dispositivo",
	"approves %s's device %s, which is no active device of %s at this point":                                                                          "aprueba el dispositivo %[2]s de %[1]s, que no es ningún dispositivo activo de %[3]s en este punto",
	"device %s cannot approve itself: approve it from another of your devices":                                                                        "el dispositivo %s no puede aprobarse a sí mismo: apruébalo desde otro de tus dispositivos",
	"device %s of %s is already approved":                                                                                                             "el dispositivo %s de %s ya está aprobado",
	"device %s of %s is already revoked":                                                                                                              "el dispositivo %s de %s ya está revocado",
	"device %s of %s is revoked":                                                                                                                      "el dispositivo %s de %s está revocado",
	"fingerprint %s is not the key's (%s)":                                                                                                            "la huella %s no es la de la clave (%s)",
	"key %s is already registered to %s: a key is registered once (register a new key; revoke a lost one with 'journal key revoke')":                  "la clave %s ya está registrada a nombre de %s: una clave se registra una sola vez (registra una clave nueva; revoca una perdida con 'journal key revoke')",
	"key %s is registered a second time (it is %s's already): a key is registered once":                                                               "la clave %s se registra por segunda vez (ya es de %s): una clave se registra una sola vez",
	"no active device": "ningún dispositivo activo",
	"only the GM revokes a device without signing it: sign it with one of your devices ('journal key revoke')": "solo el máster revoca un dispositivo sin firmarlo: fírmalo con uno de tus dispositivos ('journal key revoke')",
	"registers an unusable key for %s: %v":                                               "registra una clave inservible para %s: %v",
	"revokes %s's device %s, which is no active device of %s at this point":              "revoca el dispositivo %[2]s de %[1]s, que no es ningún dispositivo activo de %[3]s en este punto",
	"role %q: want player or gm":                                                         "rol %q: se espera «player» o «gm»",
	"the approval is for %s's device, not %s's":                                          "la aprobación es para el dispositivo de %s, no para el de %s",
	"the approval is not signed by another active device of %s: %v":                      "la aprobación no está firmada por otro dispositivo activo de %s: %v",
	"the approval names device %s, not %s":                                               "la aprobación nombra el dispositivo %s, no %s",
	"the approval of %s's device %s is not signed by another active device of %s: %v":    "la aprobación del dispositivo %[2]s de %[1]s no está firmada por otro dispositivo activo de %[3]s: %[4]v",
	"the approval's user or key are not its signed device.approve's":                     "el usuario o la clave de la aprobación no son los de su device.approve firmado",
	"the device.register does not hold (it must be signed by the key it registers): %v":  "el device.register no se sostiene (debe estar firmado con la clave que registra): %v",
	"the device.register of %s's device %s does not hold under the key it registers: %v": "el device.register del dispositivo %[2]s de %[1]s no se sostiene con la clave que registra: %[3]v",
	"the registration is as %s, its signed device.register as %s":                        "el registro es como %s, su device.register firmado como %s",
	"the registration is for %s, its signed device.register for %s":                      "el registro es para %s, su device.register firmado para %s",
	"the registration says it was asked for by %q, the event's actor is %q":              "según el registro lo pidió %q, el actor del evento es %q",
	"the registration's name is not its signed device.register's":                        "el nombre del registro no es el de su device.register firmado",
	"the registration's public key is not its signed device.register's":                  "la clave pública del registro no es la de su device.register firmado",
	"the registration's user, role, name or key are not its signed device.register's":    "el usuario, el rol, el nombre o la clave del registro no son los de su device.register firmado",
	"the revocation is not signed by an active device of %s: %v":                         "la revocación no está firmada por ningún dispositivo activo de %s: %v",
	"the revocation of %s's device %s is not signed by an active device of %s: %v":       "la revocación del dispositivo %[2]s de %[1]s no está firmada por ningún dispositivo activo de %[3]s: %[4]v",
	"the revocation's user, key or reason are not its signed device.revoke's":            "el usuario, la clave o el motivo de la revocación no son los de su device.revoke firmado",
}

func init() {
	for k, v := range enDevices {
		en[k] = v
	}
	for k, v := range esDevices {
		es[k] = v
	}
}
