package i18n

// errorsESTableGM: the errors of the GM's table routes (web/table_gm.go:
// the rules' names, invites made from the page).
var errorsESTableGM = map[string]string{
	"this server keeps no invites: serve it with --access FILE": "este servidor no guarda invitaciones: sírvelo con --access FICHERO",
	"expires_hours %d: want 0 (the default, %s) up to %d":       "expires_hours %d: se espera de 0 (por defecto, %s) a %d",
	"user %q is a %s of campaign %q: invite another name":       "el usuario %q es %s de la campaña %q: invita con otro nombre",
	"character %q: campaign %s has no such character":           "el personaje %q: la campaña %s no tiene ese personaje",
}
