package i18n

// errorsESChain: the errors and warnings of the campaign's chain (its
// anchor, the stored bytes every verifier hashes) and of the messages a
// stream lost (journal log, journal replay).
var errorsESChain = map[string]string{
	"%d of the campaign's events before the anchor have no stored bytes in the input to check it against": "%d de los eventos de la campaña anteriores al ancla no tienen bytes guardados en la entrada con que comprobarla",
	"%w: line %d: %s": "%w: línea %d: %s",
	"a second chain anchor: the campaign's chain was anchored before":                                                "una segunda ancla de la cadena: la cadena de la campaña ya se había anclado",
	"anchor the campaign's chain: %w":                                                                                "anclar la cadena de la campaña: %w",
	"anchor the campaign's chain: the stream holds %d events up to sequence %d, the campaign's fold %d":              "anclar la cadena de la campaña: el flujo tiene %d eventos hasta la secuencia %d, el pliegue de la campaña %d",
	"anchor: %w of event %s":                                                                                         "ancla: %w del evento %s",
	"chain: %w of the campaign's last event %s":                                                                      "cadena: %w del último evento de la campaña, %s",
	"chain: event %s: %w":                                                                                            "cadena: evento %s: %w",
	"export: the store gave no stored bytes for event %s (seq %d)":                                                   "export: el almacén no dio los bytes guardados del evento %s (secuencia %d)",
	"messages lost from the stream: %d; the journal's record is not whole (restore it from a backup)":                "mensajes perdidos del flujo: %d; el registro del diario no está entero (restáuralo de una copia de seguridad)",
	"no prevhash in a chained campaign: the previous event %s hashes to %s (a chain stripped, or an event inserted)": "sin prevhash en una campaña encadenada: el hash del evento anterior %s es %s (una cadena quitada, o un evento añadido)",
	"prevhash %s is not the hash %s of the stored bytes of the previous event %s: the chain is broken (an event dropped, inserted, reordered, changed or re-spaced)": "prevhash %s no es el hash %s de los bytes guardados del evento anterior %s: la cadena está rota (un evento quitado, añadido, reordenado, cambiado o con otros espacios)",
	"prevhash %s, but the event is the campaign's first in the input: events before it are missing":                                                                  "prevhash %s, pero el evento es el primero de la campaña en la entrada: faltan eventos antes",
	"session %s's session-ended event %s has no stored bytes in the input to check the co-signature against":                                                         "el evento de fin de la sesión %s, %s, no tiene bytes guardados en la entrada con que comprobar la cofirma",
	"session-ended event %s: %w": "evento de fin de sesión %s: %w",
	"the anchor covers %d earlier events, the input holds %d of the campaign before it: events are missing or added":              "el ancla cubre %d eventos anteriores, la entrada tiene %d de la campaña antes de ella: faltan o sobran eventos",
	"the anchor's hash %s is not %s, the hash of the stored bytes of the campaign's %d events before it: one of them was changed": "el hash del ancla %s no es %s, el hash de los bytes guardados de los %d eventos de la campaña anteriores: se cambió alguno",
	"the previous event %s has no stored bytes in the input to check this event's prevhash against":                               "el evento anterior %s no tiene bytes guardados en la entrada con que comprobar el prevhash de este",
	"the store gave no stored bytes": "el almacén no dio los bytes guardados",
	"warning: stream %s has no message at %d of its sequences (%s): it denies deletes, so its files were edited or damaged and the messages there are lost; if one was an event of this campaign, its chain breaks after it": "aviso: el flujo %s no tiene mensaje en %d de sus secuencias (%s): no permite borrar, así que sus ficheros se editaron o dañaron y esos mensajes se han perdido; si alguno era un evento de esta campaña, su cadena se rompe tras él",
	"warning: the campaign's chain breaks at sequence %d (event %s): %s":                                                                                       "aviso: la cadena de la campaña se rompe en la secuencia %d (evento %s): %s",
	"warning: the server counts %d messages on %s up to sequence %d of stream %s, and gives only %d: %d are in its files but cannot be read (damaged on disk)": "aviso: el servidor cuenta %d mensajes en %s hasta la secuencia %d del flujo %s, y solo da %d: %d están en sus ficheros pero no se pueden leer (dañados en el disco)",
	"warning: the server found %d messages of stream %s damaged in its files and dropped them (%s): they are lost":                                             "aviso: el servidor encontró %d mensajes del flujo %s dañados en sus ficheros y los descartó (%s): se han perdido",
}
