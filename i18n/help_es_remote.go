package i18n

// The Spanish help of the CLI as a client of the journal's NATS command
// service (--nats with a player's, GM's or dashboard's credentials).
func init() {
	helpFlagES["with --nats as a player, GM or dashboard: the inbox `PREFIX` of your NATS user (default _INBOX.<user>)"] = "con --nats como jugador, GM o panel: el `PREFIJO` de buzón de tu usuario NATS (por defecto _INBOX.<usuario>)"
}
