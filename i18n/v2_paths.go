package i18n

// The texts of journal-dice-v2's contests, combat starts and healings
// (command/v2_contest.go, v2_initiative.go, v2_heal.go), merged into en
// and es at init; every key is in both.
var (
	enV2Paths = map[Key]string{
		"x2.nonces":               "  the request takes nonces %v, one per roll, all drawn with the same r: this roll is %d of %d (%s), nonce %d",
		"tr.contest_requested":    "%s asks for contest %s: %s (%s) against %s (%s) (nonces %v, commitment %s).",
		"tr.initiative_requested": "%s asks for the initiative of %s (request %s, nonces %v, commitment %s).",
		"tr.heal_requested":       "%s asks for %s's healing after the combat (request %s, nonce %d, commitment %s).",
		"tr.no_commitment":        "none (a GM's: a player's witness gives r)",
	}
	esV2Paths = map[Key]string{
		"x2.nonces":               "  la petición toma los nonces %v, uno por tirada, todas con el mismo r: esta tirada es la %d de %d (%s), nonce %d",
		"tr.contest_requested":    "%s pide la tirada enfrentada %s: %s (%s) contra %s (%s) (nonces %v, compromiso %s).",
		"tr.initiative_requested": "%s pide la iniciativa de %s (petición %s, nonces %v, compromiso %s).",
		"tr.heal_requested":       "%s pide la curación de %s tras el combate (petición %s, nonce %d, compromiso %s).",
		"tr.no_commitment":        "ninguno (del máster: el testigo de un jugador da r)",
	}
)

func init() {
	for k, v := range enV2Paths {
		en[k] = v
	}
	for k, v := range esV2Paths {
		es[k] = v
	}
}
