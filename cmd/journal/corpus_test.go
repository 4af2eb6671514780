package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/signed"
)

// corpusGenuine is where the verifiers' shared corpus keeps the exports
// the journal itself made (web/testdata/corpus/README.md); its tampered
// variants are made from them by web's corpus test.
const corpusGenuine = "../../web/testdata/corpus/genuine"

// TestCorpusGenuineExports plays the sessions of the verifiers' corpus
// with the CLI on embedded stores and writes their exports, when
// JOURNAL_UPDATE_CORPUS is set (the sessions are random: every run makes
// other files, so they are written only on demand and committed).
func TestCorpusGenuineExports(t *testing.T) {
	if os.Getenv("JOURNAL_UPDATE_CORPUS") == "" {
		t.Skip("set JOURNAL_UPDATE_CORPUS=1 to rewrite " + corpusGenuine)
	}
	// Each session plays in a subtest: the device folders of a table
	// are its test's.
	write := func(name string, play func(t *testing.T) []string) {
		t.Run(name, func(t *testing.T) {
			lines := play(t)
			require.NoError(t, os.MkdirAll(corpusGenuine, 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(corpusGenuine, name+".jsonl"), []byte(strings.Join(lines, "\n")+"\n"), 0o644))
			t.Logf("%s: %d events", name, len(lines))
		})
	}
	exportOf := func(c *cli, camp string) []string {
		return strings.Split(strings.TrimSpace(c.ok("-c", camp, "export")), "\n")
	}

	// v1-ryf: a journal-dice-v1 session of Rol y Fuego: rolls, a contest,
	// a combat with attacks and their damage, a void, the end.
	write("v1-ryf", func(t *testing.T) []string {
		c := newCLI(t)
		c.setupCampaign()
		c.ok("-c", "mordor", "session", "start", "--dice", "v1")
		c.ok("-c", "mordor", "roll", "lodin", "Sigilo", "--vs", "media")
		c.ok("-c", "mordor", "roll", "lodin", "--attribute", "F", "--mod", "2")
		c.ok("-c", "mordor", "contest", "lodin", "Sigilo", "orco", "Pelea")
		c.ok("-c", "mordor", "combat", "start", "lodin", "orco")
		c.ok("-c", "mordor", "attack", "lodin", "orco", "--mod", "5") // a hit, mostly without a critical: orco stands to strike back
		c.ok("-c", "mordor", "attack", "orco", "lodin")
		c.ok("-c", "mordor", "combat", "end")
		c.ok("-c", "mordor", "roll", "lodin", "Pelea")
		evs := c.events("mordor")
		c.ok("-c", "mordor", "void", evs[len(evs)-1].ID, "--reason", "the wrong skill")
		c.ok("-c", "mordor", "session", "end")
		return exportOf(c, "mordor")
	})

	// v1-tor: a journal-dice-v1 session of The One Ring.
	write("v1-tor", func(t *testing.T) []string {
		c := newCLI(t)
		c.ok("campaign", "create", "arda", "--system", "tor")
		c.ok("-c", "arda", "character", "create", "bilbo", "--name", "Bilbo", "--player", "ana", "--attrs", "Cuerpo=3/5,Corazón=6/8,Mente=5/7",
			"--skills", "Atención=3*,Sigilo=3", "--hope", "6", "--culture", "Hobbits de la Comarca", "--traits", "Ladrón,Ojo avizor")
		c.ok("-c", "arda", "session", "start", "--dice", "v1")
		c.ok("-c", "arda", "roll", "bilbo", "Atención", "--tn", "14")
		c.ok("-c", "arda", "roll", "bilbo", "Sigilo", "--tn", "12")
		c.ok("-c", "arda", "session", "end")
		return exportOf(c, "arda")
	})

	// v2-ryf: contributions, two rolls of a player, a request left
	// unrevealed and cancelled by the GM, the end co-signed.
	write("v2-ryf", func(t *testing.T) []string { return newV2Table(t).v2Session() })

	// v2-gm: a v1 session's combat, then GM rolls: an NPC's attack and a
	// roll witnessed by a player, one resolved unwitnessed after its wait,
	// one pinned to a beacon round the machine cannot reach, witnessed.
	write("v2-gm", func(t *testing.T) []string { return newGMTable(t).gmSession() })

	// v2-beacon: GM rolls on the command layer with a clock before a real
	// quicknet round: witnessed, resolved by that round, unwitnessed.
	write("v2-beacon", func(t *testing.T) []string { return recordGMTamper(t, newCLI(t)).lines })

	// v2-chain: GM rolls from witness chains on the command layer with a
	// clock before real quicknet rounds: one every device witnessed, one
	// resolved without a device (partial-witness), beacon rolls one
	// receipted and one not (beacon-unseen); a sock puppet the GM
	// registered contributes too.
	write("v2-chain", func(t *testing.T) []string { return recordChainSession(t, newCLI(t)) })

	// v2-paths: contests (a tie and its re-roll), a combat's initiative,
	// damage and healing after it.
	write("v2-paths", func(t *testing.T) []string {
		lines, _ := newV2Table(t).v2PathsSession()
		return lines
	})

	// v2-tor: The One Ring: Hope spent, a trait, a bout of madness, co-signed.
	write("v2-tor", func(t *testing.T) []string { return newTORV2Table(t).torV2Session() })

	// v2-flags: a roll repeated for the same action, a player's attack
	// and its damage, a GM's attack witnessed, a void with the roller's
	// consent and one without; a second session with no contribution,
	// an unwitnessed GM roll and no player's co-signature; a key the GM
	// registered for a player.
	write("v2-flags", flagsSession)

	// v2-gm-contribution: a v2 session whose only contribution is the
	// GM's automatic one (session start), a player's roll, the end
	// co-signed by the player: flagged no-contribution.
	write("v2-gm-contribution", func(t *testing.T) []string {
		tb := newV2Table(t)
		tb.as("gm").ok("-c", "mordor", "session", "start", "--dice", "v2")
		tb.as("ana").ok("-c", "mordor", "roll", "lodin", "Sigilo", "--vs", "media")
		tb.as("gm").ok("-c", "mordor", "session", "end")
		tb.as("ana").ok("-c", "mordor", "session", "cosign")
		return exportOf(tb.cli, "mordor")
	})

	// v2-empty: a v1 session ended with no roll (before the keys), then
	// three v2 sessions in a row, contributed and co-signed, each ended
	// with no roll (seed shopping): each flagged empty.
	write("v2-empty", func(t *testing.T) []string {
		tb := newV2TableAfter(t, func(c *cli) {
			c.ok("-c", "mordor", "session", "start", "--dice", "v1")
			c.ok("-c", "mordor", "session", "end")
		})
		for range 3 {
			tb.as("gm").ok("-c", "mordor", "session", "start", "--dice", "v2")
			tb.as("ana").ok("-c", "mordor", "session", "contribute")
			tb.as("gm").ok("-c", "mordor", "session", "end")
			tb.as("ana").ok("-c", "mordor", "session", "cosign")
		}
		return exportOf(tb.cli, "mordor")
	})

	// v2-open: a session exported before its end (its seed not revealed).
	write("v2-open", func(t *testing.T) []string {
		tb := newV2Table(t)
		tb.as("gm").ok("-c", "mordor", "session", "start", "--dice", "v2")
		tb.as("ana").ok("-c", "mordor", "session", "contribute")
		tb.ok("-c", "mordor", "roll", "lodin", "Sigilo", "--vs", "media")
		tb.ok("-c", "mordor", "roll", "lodin", "--attribute", "P")
		return exportOf(tb.cli, "mordor")
	})

	// v2-devices: devices hold keys, not users (docs/design.md §3.3): the GM
	// adds a key of its own to ana's name (flagged key-by-other), ana
	// revokes it from her device, registers a laptop and approves it from
	// her first device, plays a session with both, and the GM revokes the
	// laptop (flagged revoked-by-other).
	write("v2-devices", func(t *testing.T) []string {
		tb := newV2Table(t)
		tb.as("gm").ok("key", "new", "--name", "host")
		var host struct {
			PublicKey   string `json:"public_key"`
			Fingerprint string `json:"fingerprint"`
		}
		require.NoError(t, json.Unmarshal([]byte(tb.ok("--json", "key", "show", "--name", "host")), &host))
		tb.ok("-c", "mordor", "key", "register", "ana", "--public-key", host.PublicKey)
		tb.as("ana").ok("-c", "mordor", "key", "revoke", host.Fingerprint, "--reason", "not mine")
		tb.ok("key", "new", "--name", "laptop")
		var laptop struct {
			Fingerprint string `json:"fingerprint"`
		}
		require.NoError(t, json.Unmarshal([]byte(tb.ok("--json", "key", "show", "--name", "laptop")), &laptop))
		tb.ok("-c", "mordor", "key", "register", "--name", "laptop", "--device-name", "laptop")
		tb.ok("-c", "mordor", "key", "approve", laptop.Fingerprint)
		tb.as("gm").ok("-c", "mordor", "session", "start", "--dice", "v2")
		tb.as("ana").ok("-c", "mordor", "session", "contribute")
		tb.ok("-c", "mordor", "roll", "lodin", "Sigilo", "--vs", "media")
		tb.as("gm").ok("-c", "mordor", "session", "end")
		tb.as("ana").ok("-c", "mordor", "session", "cosign")
		tb.as("gm").ok("-c", "mordor", "key", "revoke", laptop.Fingerprint, "--reason", "ana asked")
		return exportOf(tb.cli, "mordor")
	})

	// v2-proved: the host drops a player's reveal and cancels the request,
	// the player proves it (roll prove); another request left unrevealed
	// at the end is proved after it (v2_prove_test.go).
	write("v2-proved", provedSession)

	// free: free rolls and the GM's secret rolls, in a journal-dice-v1
	// session and in a journal-dice-v2 one (free_test.go).
	write("free", freeSession)
	// free-v1: its journal-dice-v1 session alone, in a campaign without
	// device keys.
	write("free-v1", func(t *testing.T) []string {
		c := newCLI(t)
		c.setupCampaign()
		freeV1(t, c)
		return exportOf(c, "mordor")
	})

	// demo-ryf, demo-tor: `journal demo`'s sessions.
	for _, system := range []string{"ryf", "tor"} {
		write("demo-"+system, func(t *testing.T) []string {
			c := newCLI(t)
			c.ok("--lang", "en", "demo", "--system", system)
			return exportOf(c, "demo-"+system)
		})
	}
}

// flagsSession plays the v2-flags sessions (TestCorpusGenuineExports).
func flagsSession(t *testing.T) []string {
	tb := newV2Table(t)
	tb.as("gm").ok("-c", "mordor", "session", "start", "--dice", "v2")
	tb.as("ana").ok("-c", "mordor", "session", "contribute")
	tb.ok("-c", "mordor", "roll", "lodin", "Sigilo", "--vs", "media")
	tb.ok("-c", "mordor", "roll", "lodin", "Sigilo", "--vs", "media") // the same action again: flagged
	tb.ok("-c", "mordor", "combat", "start", "lodin", "orco")
	hit := false
	for mod := 5; mod < 60 && !hit; mod++ { // another modifier is another action; +5 hits without a critical, mostly, so orco stands
		out := tb.as("ana").ok("--json", "-c", "mordor", "attack", "lodin", "orco", "--mod", fmt.Sprint(mod))
		hit = strings.Contains(out, events.TypeDamageTaken)
	}
	require.True(t, hit, "lodin never hit")
	attack := tb.gmRoll("attack", "orco", "lodin", "--wait", "60s")
	tb.as("ana").ok("-c", "mordor", "roll", "witness", attack)
	tb.as("gm").ok("-c", "mordor", "combat", "end")
	tb.as("ana").ok("-c", "mordor", "roll", "lodin", "--attribute", "F")
	tb.ok("-c", "mordor", "roll", "lodin", "Pelea")
	var rolls []string
	for _, e := range tb.events("mordor") {
		if e.Type == events.TypeRollMade {
			rolls = append(rolls, e.ID)
		}
	}
	consented, unconsented := rolls[len(rolls)-2], rolls[len(rolls)-1]
	const reason = "rolled the wrong attribute"
	var consent command.SignedMessage
	require.NoError(t, json.Unmarshal([]byte(tb.as("ana").ok("--json", "-c", "mordor", "key", "consent", consented, "--reason", reason)), &consent))
	tb.as("gm").ok("-c", "mordor", "void", consented, "--reason", reason, "--consent-signed", consent.Signed, "--consent-signature", consent.Signature)
	tb.as("gm").ok("-c", "mordor", "void", unconsented, "--reason", "rolled before the GM asked")
	tb.ok("-c", "mordor", "session", "end")
	tb.as("ana").ok("-c", "mordor", "session", "cosign")

	tb.as("gm").t.Setenv(device.EnvConfig, t.TempDir()) // a device without a key: no contribution
	tb.ok("-c", "mordor", "session", "start", "--dice", "v2")
	tb.untilResolved(tb.gmRoll("roll", "orco", "Pelea", "--wait", "1s"))
	tb.as("gm").ok("-c", "mordor", "session", "end")
	pub, err := signed.ParsePublicKey("3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c")
	require.NoError(t, err)
	tb.as("gm").ok("-c", "mordor", "key", "register", "ana", "--public-key", pub.String())
	return strings.Split(strings.TrimSpace(tb.ok("-c", "mordor", "export")), "\n")
}
