package i18n

// errorsESPages: the bench's pages stage and the CLI's one fold per command.
var errorsESPages = map[string]string{
	"%w: the pages' campaigns hold from 100 to 10 000 000 events, and repeats and rolls are positive": "%w: las campañas de las páginas tienen de 100 a 10 000 000 eventos, y las repeticiones y las tiradas son positivas",
	"transcript state: not the state of a transcript":                                                 "estado de la transcripción: no es el estado de una transcripción",
	"checkpoint value over the bucket's limit":                                                        "valor de punto de control por encima del límite del cubo",
	"checkpoint %s: %d bytes, limit %d: %w":                                                           "punto de control %s: %d bytes, límite %d: %w",
	"luck state: not the state of a luck counter":                                                     "estado de la suerte: no es el estado de un contador de la suerte",
	"GET %s: %d %s":                          "GET %s: %d %s",
	"GET %s: %w":                             "GET %s: %w",
	"POST roll: %d %s":                       "POST roll: %d %s",
	"event stream: %d":                       "flujo de eventos: %d",
	"journal: the state cannot be caught up": "journal: no se puede poner al día el estado",
	"pages fill: %w":                         "llenado de las páginas: %w",
	"pages fill: publish: %w":                "llenado de las páginas: publicación: %w",
	"roll to card: no card within 30 s":      "de la tirada a la tarjeta: ninguna tarjeta en 30 s",
	"roll to card: the event stream ended":   "de la tirada a la tarjeta: el flujo de eventos terminó",
}
