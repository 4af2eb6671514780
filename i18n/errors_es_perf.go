package i18n

// errorsESPerf are the messages of the store's count of a campaign's
// messages (events/jetstore/count.go).
var errorsESPerf = map[string]string{
	"count on %s: %w": "recuento en %s: %w",
	"count on %s: the stream's answer has no creation time": "recuento en %s: la respuesta del flujo no tiene fecha de creación",
	"journal serve exited before its banner: %v: %s":        "journal serve terminó antes de su anuncio: %v: %s",
	"journal serve printed no banner within 60 s: %s":       "journal serve no imprimió su anuncio en 60 s: %s",
	"observe the JetStream API: %w":                         "observar la API de JetStream: %w",
}
