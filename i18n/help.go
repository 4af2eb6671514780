package i18n

// The headings of the command line's help (cobra's usage template, the
// groups of 'journal --help'), merged into en and es at init. The Spanish
// of each command's texts is in help_es.go.
var (
	enHelp = map[Key]string{
		"help.usage":            "Usage:",
		"help.aliases":          "Aliases:",
		"help.examples":         "Examples:",
		"help.commands":         "Commands:",
		"help.additional":       "Additional Commands:",
		"help.flags":            "Flags:",
		"help.global":           "Global flags ('journal help environment'):",
		"help.topics":           "Help topics:",
		"help.command_arg":      "[command]",
		"help.flags_arg":        "[flags]",
		"help.more":             "Use \"%s [command] --help\" for more information about a command.",
		"help.flag_help":        "help for %s",
		"help.flag_version":     "version for %s",
		"help.group.play":       "Table (play):",
		"help.group.characters": "Campaign and characters:",
		"help.group.combat":     "Combat:",
		"help.group.tor":        "The One Ring:",
		"help.group.audit":      "Audit (read and verify):",
		"help.group.server":     "Server:",
		"help.group.setup":      "Setup:",
		"help.group.dev":        "Development:",
	}
	esHelp = map[Key]string{
		"help.usage":            "Uso:",
		"help.aliases":          "Alias:",
		"help.examples":         "Ejemplos:",
		"help.commands":         "Órdenes:",
		"help.additional":       "Otras órdenes:",
		"help.flags":            "Opciones:",
		"help.global":           "Opciones globales ('journal help environment'):",
		"help.topics":           "Temas de ayuda:",
		"help.command_arg":      "[orden]",
		"help.flags_arg":        "[opciones]",
		"help.more":             "Usa \"%s [orden] --help\" para más información sobre una orden.",
		"help.flag_help":        "ayuda de %s",
		"help.flag_version":     "versión de %s",
		"help.group.play":       "Mesa (juego):",
		"help.group.characters": "Campaña y personajes:",
		"help.group.combat":     "Combate:",
		"help.group.tor":        "El Anillo Único:",
		"help.group.audit":      "Auditoría (leer y verificar):",
		"help.group.server":     "Servidor:",
		"help.group.setup":      "Preparación:",
		"help.group.dev":        "Desarrollo:",
	}
)

func init() {
	for k, v := range enHelp {
		en[k] = v
	}
	for k, v := range esHelp {
		es[k] = v
	}
}
