package i18n

// errorsESVersions: the errors of rules versions (rolls/version.go, a
// contest re-run under an older version).
var errorsESVersions = map[string]string{
	"unknown rules version":                                               "versión de reglas desconocida",
	"%w %q (this journal judges %s)":                                      "%w %q (este diario juzga %s)",
	"%w: rules %s do not judge a %s roll (%s rules do)":                   "%w: las reglas %s no juzgan una tirada %s (la juzgan las reglas %s)",
	"%w: rules %s have no opposed rolls (a side flagged opposed is %s's)": "%w: las reglas %s no tienen tiradas enfrentadas (un lado marcado como enfrentado es de %s)",
	"a contest is judged under rules %s or %s, not %q":                    "una tirada enfrentada se juzga con las reglas %s o %s, no %q",
}
