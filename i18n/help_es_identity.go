package i18n

// The Spanish help of 'journal login' and 'journal whoami'.
func init() {
	helpShortES["login"] = "Fija quién es este dispositivo (una vez): el usuario con el que se hacen sus comandos y firmas"
	helpShortES["whoami"] = "Quién es este dispositivo: su usuario, sus claves y, con -c, sus dispositivos y personajes en la campaña"
	helpLongES["login"] = `Fija el usuario de este dispositivo, una vez: cada comando que registra, y
todo lo que firma su clave de dispositivo, se hace como USUARIO. Se guarda en
la carpeta de configuración ($JOURNAL_CONFIG, si no la del usuario del
sistema) junto a las claves del dispositivo, como identity.json (modo 0600).
$JOURNAL_ACTOR manda sobre él para un comando. No hay usuario por defecto: un
dispositivo que no tiene ninguno es rechazado.`
}
