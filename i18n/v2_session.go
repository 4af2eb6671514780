package i18n

// The texts of journal-dice-v2's co-signed session ends, void consents and
// the audit's flags (kept apart from v2.go; merged at init; every key is
// in both).
var (
	enV2Session = map[Key]string{
		"tr.session_cosigned": "%s co-signs the end of session %s (%s).",
	}
	esV2Session = map[Key]string{
		"tr.session_cosigned": "%s cofirma el final de la sesión %s (%s).",
	}
)

func init() {
	for k, v := range enV2Session {
		en[k] = v
	}
	for k, v := range esV2Session {
		es[k] = v
	}
}
