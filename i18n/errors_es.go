package i18n

import "sync"

// errorsES is the catalogue of errors: the English format string of an
// error, exactly as the source writes it (fmt.Errorf, errors.New,
// invalid, notFound, usagef, cobra's and pflag's messages...), and its
// Spanish rendering, with the same verbs (%[2]s reorders them). Values in
// the holes (names, ids, numbers, rule names) are copied as they are.
// TestEveryErrorHasSpanish lists the format strings of the source missing
// here, one ready-to-fill line each: add it to any part (errors_es_*.go),
// usually the one of its package.
var errorsES = map[string]string{}

// errorsESParts are the parts of errorsES, merged on the first use of the
// catalogue of errors (loadErrorsES), not at the program's start: a
// command that prints no error (`journal version`) does not pay for the
// merge. A format string in two parts panics.
var errorsESParts = []map[string]string{errorsESExtra, errorsESCLI, errorsESCommand, errorsESRules, errorsESMore, errorsESStore, errorsESTable2, errorsESV2, errorsESLimits, errorsESChain, errorsESReceipts, errorsESWitnessChain, errorsESTableGM, errorsESFree, errorsESVersions, errorsESRemote, errorsESPerf, errorsESPages}

// errorsESDefaults are parts whose translations are added only where no
// part of errorsESParts (or an initialisation) has one, after them.
var errorsESDefaults = []map[string]string{errorsESDevices, errorsESV2Default, errorsESProve}

var errorsESOnce sync.Once

// loadErrorsES returns errorsES, with errorsESParts and errorsESDefaults
// merged into it on the first call. Every reader of errorsES calls it.
func loadErrorsES() map[string]string {
	errorsESOnce.Do(func() {
		for _, part := range errorsESParts {
			for en, es := range part {
				if _, dup := errorsES[en]; dup {
					panic("i18n: error " + en + " translated twice")
				}
				errorsES[en] = es
			}
		}
		for _, part := range errorsESDefaults {
			for en, es := range part {
				if _, ok := errorsES[en]; !ok {
					errorsES[en] = es
				}
			}
		}
	})
	return errorsES
}

// errorsESExtra are messages built outside the error constructors (a
// hint the rules join to an error, a word of a list) and the words the
// command line puts in its own messages.
var errorsESExtra = map[string]string{
	// The rules a character breaks whose names are words (ryf.Rule…),
	// shown before their violations.
	"specialization": "especialización",
	"skills":         "habilidades",
	"attributes":     "atributos",
	// Where a command looked (the command line's a.where), its hints.
	"campaign %s":                       "la campaña %s",
	"the journal":                       "el diario",
	"non-player characters do not vote": "los personajes no jugadores no votan",
	" (a part of an id needs at least %d characters)":                           " (una parte de un id necesita al menos %d caracteres)",
	" (an export has no sequence numbers: give the event's id or its short id)": " (una exportación no tiene números de secuencia: da el id del evento o su id corto)",
	"did you mean %s?":   "¿quisiste decir %s?",
	"did you mean %v?":   "¿quisiste decir %v?",
	": did you mean %v?": ": ¿quisiste decir %v?",
	"it has none yet":    "aún no tiene ninguno",
	"it has no campaign yet: create one with 'journal campaign create ID --system ryf|galaxia|tor'": "aún no tiene ninguna campaña: crea una con 'journal campaign create ID --system ryf|galaxia|tor'",
	": did you mean %s?":           ": ¿quisiste decir %s?",
	"want one of %s":               "elige entre %s",
	"%s or %s":                     "%s o %s",
	"1 argument":                   "1 argumento",
	"a whole number":               "un número entero",
	"a whole number ≥ 0":           "un número entero ≥ 0",
	"true or false":                "true o false",
	"a duration such as 30s or 5m": "una duración como 30s o 5m",
	"a number":                     "un número",
	"invalid character":            "personaje no válido",
	"specialization: %s":           "especialización: %s",
	"attributes: %s":               "atributos: %s",
	"skills: %s":                   "habilidades: %s",
	"weapon: %s":                   "arma: %s",
	// (The rule words of a violation, "specialization: ...", read with
	// what follows: alone they would read a command's name in a list.)
	// The system's messages inside others (os, syscall, strconv).
	"no such file or directory":      "no existe el archivo o la carpeta",
	"permission denied":              "permiso denegado",
	"file exists":                    "el archivo ya existe",
	"is a directory":                 "es una carpeta",
	"not a directory":                "no es una carpeta",
	"invalid syntax":                 "sintaxis no válida",
	"value out of range":             "valor fuera de rango",
	"open %s":                        "abrir %s",
	"read %s":                        "leer %s",
	"write %s":                       "escribir %s",
	"mkdir %s":                       "crear la carpeta %s",
	"stat %s":                        "consultar %s",
	"remove %s":                      "borrar %s",
	"context canceled":               "cancelado",
	"context deadline exceeded":      "plazo agotado",
	"strconv.Atoi: parsing %q":       "leer el número %q",
	"strconv.ParseInt: parsing %q":   "leer el número %q",
	"strconv.ParseUint: parsing %q":  "leer el número %q",
	"strconv.ParseFloat: parsing %q": "leer el número %q",
}
