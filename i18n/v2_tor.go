package i18n

// The texts of The One Ring's journal-dice-v2 steps (replay/v2_tor.go),
// merged into en.go and es.go at init; every key is in both.
var (
	enV2TOR = map[Key]string{
		"x2t.request":  "the signed request names: skill %s, TN %d, trait %s",
		"x2t.no_trait": "none",
		"x2t.hope":     "Hope: event %s (seq %d), %s's signed request %s spends 1 Hope on this roll, drawing nothing: +%d, total %d against TN %d: %s; Hope left %d",
	}
	esV2TOR = map[Key]string{
		"x2t.request":  "la petición firmada nombra: habilidad %s, NO %d, rasgo %s",
		"x2t.no_trait": "ninguno",
		"x2t.hope":     "Esperanza: evento %s (sec. %d), %s firma la petición %s, que gasta 1 de Esperanza en esta tirada sin sacar dados: +%d, total %d contra NO %d: %s; le queda %d de Esperanza",
	}
)

func init() {
	for k, v := range enV2TOR {
		en[k] = v
	}
	for k, v := range esV2TOR {
		es[k] = v
	}
}
