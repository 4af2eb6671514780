package i18n

// The texts of journal-dice-v2 GM rolls from witness chains and beacon
// receipts (docs/design.md §3.3), merged into en and es at init; every key is
// in both.
var (
	enWitnessChain = map[Key]string{
		"tr.roll_witnessed":     "%s's device witnesses GM roll %s (witness %d).",
		"tr.roll_receipted":     "%s's device saw GM roll %s before its beacon round.",
		"rp2.f.partial_witness": "GM roll of request %s (event %s) resolved without the witness of %s: %d of %d devices' values, after the GM's wait",
		"rp2.f.beacon_unseen":   "GM roll of request %s (event %s) by beacon round %d, which no player's device receipted before the round: only the host knew of the request",
		"x2.chain":              "witness chains, GM request %d: r = SHA-256(\"journal-dice-v2|gm|\" + the values of %s) = %s",
		"x2v.chain":             "; r combines the witness values of %s, each checked against its device's anchor (journal replay)",
		"w2.witnessed_chain":    "journal: witnessed request %s of %s (witness %d of this device's chain)",
		"w2.receipted":          "journal: receipted request %s of %s before its beacon round %d",
		"w2.waiting_witnesses":  "journal: request %s has %d of %d witnesses; the roll is made when every contributing device's is in",
	}
	esWitnessChain = map[Key]string{
		"tr.roll_witnessed":     "El dispositivo de %s atestigua la tirada del máster %s (testigo %d).",
		"tr.roll_receipted":     "El dispositivo de %s vio la tirada del máster %s antes de su ronda del faro.",
		"rp2.f.partial_witness": "tirada del máster de la petición %s (evento %s) resuelta sin el testigo de %s: valores de %d de %d dispositivos, tras la espera del máster",
		"rp2.f.beacon_unseen":   "tirada del máster de la petición %s (evento %s) por la ronda %d del faro, que ningún dispositivo de jugador acusó antes de la ronda: solo el anfitrión conocía la petición",
		"x2.chain":              "cadenas de testigos, petición del máster n.º %d: r = SHA-256 de los valores de %s = %s",
		"x2v.chain":             "; r combina los valores de testigo de %s, cada uno comprobado con el ancla de su dispositivo (journal replay)",
		"w2.witnessed_chain":    "journal: atestiguada la petición %s de %s (testigo %d de la cadena de este dispositivo)",
		"w2.receipted":          "journal: acusada la petición %s de %s antes de su ronda %d del faro",
		"w2.waiting_witnesses":  "journal: la petición %s tiene %d de %d testigos; la tirada se hace cuando estén los de todos los dispositivos que contribuyeron",
	}
)

func init() {
	for k, v := range enWitnessChain {
		en[k] = v
	}
	for k, v := range esWitnessChain {
		es[k] = v
	}
}
