package i18n

// errorsESLimits: the errors of the limits on appends (package limit, the
// access file's limits object).
var errorsESLimits = map[string]string{
	"rate limit": "límite de frecuencia",
	"quota":      "cuota",
	"%w: %s may record %d commands a minute in campaign %s (%d at once); try again in %d s": "%w: %s puede registrar %d órdenes por minuto en la campaña %s (%d seguidas); vuelve a intentarlo en %d s",
	"%w: campaign %s holds %d events, at most %d: %d more cannot be recorded":               "%w: la campaña %s tiene %d eventos, como mucho %d: no se pueden registrar %d más",
	"%w: %s: %s is %d: want a positive number (0 or none: the default)":                     "%w: %s: %s es %d: se espera un número positivo (0 o nada: el valor por defecto)",
	"limits: the journal role is never limited":                                             "limits: el rol journal nunca tiene límites",
}
