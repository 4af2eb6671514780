package i18n

// errorsESReceipts: the errors of the devices' receipts (DESIGN.md §3.3,
// "Receipts"): the journal's refusal of a message whose device saw another
// history, the receipts a device keeps, and replay --receipts.
var errorsESReceipts = map[string]string{
	"your device saw a different history": "tu dispositivo vio otra historia",
	"your device saw a different history at #%d: the journal holds another event there (nothing was recorded)": "tu dispositivo vio otra historia en #%d: el diario tiene otro suceso ahí (no se registró nada)",
	"%w: field seen.seq: want a stream sequence of at least 1":                                                 "%w: campo seen.seq: se espera una secuencia del flujo de al menos 1",
	"read the event a device saw (#%d): %w":                                                                    "leer el suceso que vio un dispositivo (#%d): %w",
}
