package i18n

// errorsESRemote are the messages of the CLI as a client of the journal's
// NATS command service (cmd/journal/remote.go).
var errorsESRemote = map[string]string{
	"--inbox-prefix %s: the journal's command service answers %s only on %s (its NATS permissions let it subscribe to nothing else)":                                             "--inbox-prefix %s: el servicio de comandos del diario responde a %s solo en %s (sus permisos NATS no le dejan suscribirse a nada más)",
	"%w: no journal answers on %s (is `journal serve --access FILE --nats-listen ADDR` running there?)":                                                                          "%w: ningún diario responde en %s (¿corre allí `journal serve --access FICHERO --nats-listen DIRECCIÓN`?)",
	"%w: over the journal's NATS command service this command cannot record (only the commands of the catalogue can, as the HTTP API's GET /api/commands lists them)":            "%w: por el servicio de comandos NATS del diario este comando no puede registrar (solo pueden los comandos del catálogo, los que lista GET /api/commands de la API HTTP)",
	"no campaign: pass -c/--campaign ID or set $JOURNAL_CAMPAIGN (over the NATS command service the CLI reads one campaign)":                                                     "sin campaña: pasa -c/--campaign ID o define $JOURNAL_CAMPAIGN (por el servicio de comandos NATS la CLI lee una campaña)",
	"--nats signs in to NATS as %s but you are %s (%s): over the journal's command service you act as your NATS user; log in as %s ('journal login %s') or use %s's credentials": "--nats entra en NATS como %s pero tú eres %s (%s): por el servicio de comandos del diario actúas como tu usuario NATS; entra como %s ('journal login %s') o usa las credenciales de %s",
	"%w: NATS refuses %s to publish %s: the access file's role of %s may not issue %q (a command for the game master, or outside its campaign)":                                  "%w: NATS no deja a %s publicar %s: el papel de %s en el fichero de acceso no puede dar %q (un comando del director de juego, o fuera de su campaña)",
	"no catalogued command %q": "ningún comando del catálogo %q",
}
