package i18n

// The texts of free rolls and the GM's secret rolls in the audit: its
// mismatches and its flag (merged at init; every key is in both).
var (
	enFree = map[Key]string{
		"rp2.f.hidden_unrevealed": "secret roll %s (nonce %d) was never revealed: session %s ended without recording its outcome (a host could hide the rolls it did not like)",
		"mm.hidden_after_end":     "secret roll recorded after the session ended (event %s)",
		"mm.hidden_unknown":       "the roll reveals secret roll %s, which is not recorded before it",
		"mm.hidden_twice":         "the roll reveals secret roll %s again (first revealed by event %s)",
		"mm.hidden_inputs":        "the roll is not the secret roll %s it reveals: %s",
		"mm.hidden_kind":          "secret roll of kind %q: a secret roll is a free roll or a skill or attribute roll",
		"mm.hidden_request":       "secret roll of request %s: %s",
		"mm.hidden_field":         "%s: revealed %s, hidden %s",
		"mm.hidden_not_secret":    "the request is not a secret one",
		"mm.hidden_not_pending":   "the request is already %s",
		"mm.hidden_unknown_req":   "the request is not recorded before it",
		"mm.hidden_missing":       "the roll answers secret request %s without revealing its secret roll %s",
		"xr.free":                 "free roll %s: the faces %v with their signs and the numbers = %d",
		"xr.revealed":             "the reveal of secret roll %s: its inputs are that event's",
	}
	esFree = map[Key]string{
		"rp2.f.hidden_unrevealed": "la tirada secreta %s (nonce %d) nunca se reveló: la sesión %s terminó sin registrar su resultado (un anfitrión podría ocultar las tiradas que no le gustaran)",
		"mm.hidden_after_end":     "tirada secreta registrada después de que la sesión terminara (evento %s)",
		"mm.hidden_unknown":       "la tirada revela la tirada secreta %s, que no está registrada antes",
		"mm.hidden_twice":         "la tirada revela otra vez la tirada secreta %s (la reveló antes el evento %s)",
		"mm.hidden_inputs":        "la tirada no es la tirada secreta %s que revela: %s",
		"mm.hidden_kind":          "tirada secreta de tipo %q: una tirada secreta es una tirada libre o de habilidad o de atributo",
		"mm.hidden_request":       "tirada secreta de la petición %s: %s",
		"mm.hidden_field":         "%s: revelado %s, oculto %s",
		"mm.hidden_not_secret":    "la petición no es secreta",
		"mm.hidden_not_pending":   "la petición ya está %s",
		"mm.hidden_unknown_req":   "la petición no está registrada antes",
		"mm.hidden_missing":       "la tirada responde a la petición secreta %s sin revelar su tirada secreta %s",
		"xr.free":                 "tirada libre %s: las caras %v con sus signos y los números = %d",
		"xr.revealed":             "la revelación de la tirada secreta %s: sus datos son los de ese evento",
	}
)

func init() {
	for k, v := range enFree {
		en[k] = v
	}
	for k, v := range esFree {
		es[k] = v
	}
}
