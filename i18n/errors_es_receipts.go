package i18n

// errorsESReceipts: the errors of the devices' receipts (docs/design.md §3.3,
// "Receipts"): the journal's refusal of a message whose device saw another
// history, the receipts a device keeps, and replay --receipts.
var errorsESReceipts = map[string]string{
	"your device saw a different history": "tu dispositivo vio otra historia",
	"your device saw a different history at #%d: the journal holds another event there (nothing was recorded)": "tu dispositivo vio otra historia en #%d: el diario tiene otro suceso ahí (no se registró nada)",
	"%w: field seen.seq: want a stream sequence of at least 1":                                                 "%w: campo seen.seq: se espera una secuencia del flujo de al menos 1",
	"signed having seen #%d, which is not in this history: the history was rewritten before it":                "firmado tras ver #%d, que no está en esta historia: la historia se reescribió antes",
	"RECEIPTS MISMATCH: %s": "RECIBOS NO COINCIDEN: %s",
	"WARNING: %s":           "AVISO: %s",
	"WARNING: %v":           "AVISO: %v",
	"WARNING: cannot check this device's receipts: %v":                      "AVISO: no se pueden comprobar los recibos de este dispositivo: %v",
	"read the campaign's latest event (#%d): %w":                            "leer el último suceso de la campaña (#%d): %w",
	"receipts: %d kept messages, the record extends every head they signed": "recibos: %d mensajes guardados, el registro extiende cada cabeza que firmaron",
	"receipts: %s has mode %04o, writable by others; run `chmod 600 %s`":    "recibos: %s tiene modo %04o, otros pueden escribirlo; ejecuta `chmod 600 %s`",
	"receipts: %s holds no receipt file (*.jsonl)":                          "recibos: %s no tiene ningún archivo de recibos (*.jsonl)",
	"receipts: %s line %d: %w":                                              "recibos: %s línea %d: %w",
	"receipts: %s: %w":                                                      "recibos: %s: %w",
	"receipts: %w":                                                          "recibos: %w",
	"receipts: campaign %q: %w":                                             "recibos: campaña %q: %w",
	"receipts: no configuration folder (set $%s): %w":                       "recibos: no hay carpeta de configuración (define $%s): %w",
	"receipts: sync %s: %w":                                                 "recibos: sincronizar %s: %w",
	"receipts: write %s: %w":                                                "recibos: escribir %s: %w",
	"the record does not hold what this device signed: %s":                  "el registro no contiene lo que firmó este dispositivo: %s",
	// device.CheckRecord and device.CheckKey (their words, rendered at the CLI's edge).
	"the journal's history differs from what this device signed at #%d":                          "la historia del diario difiere de lo que firmó este dispositivo en #%d",
	"the journal's history stops at #%d, before #%d which this device signed after seeing":       "la historia del diario termina en #%d, antes de #%d, que este dispositivo firmó tras verlo",
	"the file stops at #%d, before #%d which this device signed after seeing: the export is cut": "el archivo termina en #%d, antes de #%d, que este dispositivo firmó tras verlo: la exportación está cortada",
	"the record holds a %s of %s at #%d that is not the one this device signed":                  "el registro tiene un %s de %s en #%d que no es el que firmó este dispositivo",
	"the journal holds a key for %s that is not this device's":                                   "el diario tiene una clave para %s que no es la de este dispositivo",
	"%w: campaign %s has no event at sequence %d":                                                "%w: la campaña %s no tiene ningún suceso en la secuencia %d",
	"sequence %q: want a stream sequence of at least 1":                                          "secuencia %q: se espera una secuencia del flujo de al menos 1",
	"read the event a device saw (#%d): %w":                                                      "leer el suceso que vio un dispositivo (#%d): %w",
}
