package i18n

// The texts of rules versions (docs/rules.md part 4): the flag of
// a roll recorded under a version the verifier does not know, and the
// mismatches of a contest whose sides' versions do not fit (merged at
// init; every key is in both).
var (
	enRulesVersions = map[Key]string{
		"rp2.f.unknown_rules":  "roll %s (nonce %d) was recorded under rules %s, which this verifier does not know (it knows %s): its verdict is not judged; check it with a journal that knows them",
		"mm.contest_rules":     "the sides of the contest were judged under different rules, %s and %s",
		"mm.contest_unopposed": "a side of a contest under rules %s is not flagged opposed as those rules flag it",
	}
	esRulesVersions = map[Key]string{
		"rp2.f.unknown_rules":  "la tirada %s (nonce %d) se registró con las reglas %s, que este verificador no conoce (conoce %s): su resultado no se juzga; compruébala con un diario que las conozca",
		"mm.contest_rules":     "los lados de la tirada enfrentada se juzgaron con reglas distintas, %s y %s",
		"mm.contest_unopposed": "un lado de una tirada enfrentada con las reglas %s no está marcado como enfrentado como lo marcan esas reglas",
	}
)

func init() {
	for k, v := range enRulesVersions {
		en[k] = v
	}
	for k, v := range esRulesVersions {
		es[k] = v
	}
}
