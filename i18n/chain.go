package i18n

// The texts of the campaign's chain (events/chain.go): its anchor's
// transcript line, and what journal log, journal replay and the health
// check say of a stream that lost messages (merged at init; every key is
// in both).
var (
	enChain = map[Key]string{
		"tr.chain_anchored": "The journal anchors the campaign's chain: its %d earlier events hash to %s.",
	}
	esChain = map[Key]string{
		"tr.chain_anchored": "El diario ancla la cadena de la campaña: sus %d eventos anteriores tienen el hash %s.",
	}
)

func init() {
	for k, v := range enChain {
		en[k] = v
	}
	for k, v := range esChain {
		es[k] = v
	}
}
