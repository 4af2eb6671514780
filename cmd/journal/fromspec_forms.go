package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/command/catalog"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/rules/dice"
)

// specForms are the forms of the catalogued commands the CLI builds from
// the catalogue (fromspec.go), in the catalogue's order; the others are
// written by hand (catalog_test.go lists them).
var specForms = []built{
	specForm("character-create", form[command.CreateCharacter]{short: "Create a character (every rule it breaks is reported at once)"}),
	specForm("session-start", form[command.SessionStart]{short: "Start a session: draw its secret seed and record its commitment",
		run: func(a *app, c *cobra.Command, req command.SessionStart) error {
			if err := a.runSpec(c, "session-start", req); err != nil {
				return err
			}
			algorithm := startedAlgorithm(a.recorded)
			if algorithm != dice.AlgorithmV2 {
				if req.Dice == "" && algorithm != "" {
					// The default chose v1: say which and why, in one line.
					fmt.Fprintln(a.stderr, a.language().T("v2d.default_v1", algorithm, dice.AlgorithmV2))
				}
				return nil
			}
			return a.afterV2Start(c)
		}}),
	specForm("session-end", form[catalog.NoBody]{short: "End the session in progress and reveal its seed",
		long: `End the session in progress and reveal its seed. In a journal-dice-v2
session the CLI then co-signs the end with your device key (when the
campaign holds it), and says so; the other participants co-sign it from
their devices with 'journal session cosign'.`,
		run: func(a *app, c *cobra.Command, req catalog.NoBody) error {
			v2, err := a.inV2Session(c)
			if err != nil {
				return err
			}
			if err := a.runSpec(c, "session-end", req); err != nil || !v2 {
				return err
			}
			return a.afterV2End(c)
		}}),
	specForm("reveal", form[command.RevealRequest]{short: "GM: reveal a secret roll (its id, or its start or end): its outcome is recorded",
		example: "  journal -c mordor roll reveal-secret 3f2a9c1e"}),
	specForm("contest", form[command.ContestRequest]{short: "An opposed roll: the higher total wins (a SKILL may be an attribute)",
		long: `An opposed roll between characters A and B. SKILL_A and SKILL_B are each a
skill or an attribute: an attribute's letter or name always means the
attribute (D is Destreza, not Diagnosis), a skill may be a unique prefix.
Both sides explode and have a natural 1, skill or attribute (docs/rules.md 1.5).

Each side may use what any roll may: the flags ending in -a are the first
side's, those ending in -b the second's. A tie may be re-rolled with
--rematch naming the tied contest, by the same characters with the same
skills or attributes.`,
		example: `  journal -c mordor contest lodin Sigilo orco Advertir --mod-b 2
  journal -c mordor contest lodin F orco F
  journal -c mordor contest lodin Pelea orco Pelea --rematch 01a230d8-6f16-71f1-a668-c1a24eff7dad`,
		prepare: func(a *app, c *cobra.Command, req *command.ContestRequest) error {
			if req.Rematch == "" {
				return nil
			}
			return a.resolveShortEvent(c, &req.Rematch)
		},
		run: func(a *app, c *cobra.Command, req command.ContestRequest) error {
			return a.v2Path(c, func() error { return a.contestV2(c, keyNameOf(c), req) }, "contest", req)
		},
		flags: keyNameFlag("journal-dice-v2: the device key that signs the contest")}),
	specForm("combat-round", form[catalog.NoBody]{short: "Start the next round"}),
	specForm("combat-end", form[catalog.NoBody]{short: "End the combat"}),
	specForm("damage", form[command.DamageRequest]{short: "Apply damage by hand", positive: "damage"}), // negative damage never is: 'journal heal' heals
	specForm("heal", form[command.HealRequest]{short: "Heal by hand (never past max HP; the dead do not heal)", positive: "healing"}),
	specForm("rest", form[command.RestRequest]{short: "A night's sleep: everyone heals 1 HP (2 in comfort); a new day"}),
	specForm("heal-after-combat", form[command.HealAfterCombatRequest]{short: "Roll 1d6 healing after the last combat (at most the damage taken in it, once)",
		run: func(a *app, c *cobra.Command, req command.HealAfterCombatRequest) error {
			return a.v2Path(c, func() error { return a.healV2(c, keyNameOf(c), req.Character, req.Entropy) }, "heal-after-combat", req)
		},
		flags: keyNameFlag("journal-dice-v2: the device key that signs the healing")}),
	specForm("xp", form[command.XPRequest]{short: "Grant 1..10 XP (once per character per session)", positive: "XP"}),
	specForm("token-return", form[command.CharacterRequest]{short: "The GM gives the token back: the character's next roll is one level lower"}),
	specForm("day-new", form[catalog.NoBody]{short: "Start a new in-game day: specializations may be used again"}),
	specForm("reload", form[command.ReloadRequest]{short: "Reload a magazine weapon"}),
	specForm("adventure-start", form[command.AdventureRequest]{short: "Start an adventure: the fellowship pool is set to the player characters plus the hobbits"}),
	specForm("hope-spend", form[command.HopeRequest]{short: "Spend 1 Hope on the character's latest roll, a failure: add the skill's attribute (favoured if the skill is) and judge it again",
		run: func(a *app, c *cobra.Command, req command.HopeRequest) error {
			return a.v2Path(c, func() error { return a.hopeV2(c, keyNameOf(c), req.Character, req.Roll) }, "hope-spend", req) // v2_tor.go
		},
		flags: keyNameFlag("journal-dice-v2: the device key that signs the Hope spent")}),
	specForm("fellowship-ask", form[command.CharacterRequest]{short: "Ask the fellowship for 1 point of the pool to regain 1 Hope; every other player character votes"}),
	specForm("fellowship-vote", form[command.VoteRequest]{short: "VOTER's vote on CHAR's request (at least half yes: granted at the last vote)"}),
	specForm("fellowship-take", form[command.CharacterRequest]{short: "Take a refused fellowship point anyway: Hope +1, pool −1, Shadow +1"}),
	specForm("fellowship-withdraw", form[command.CharacterRequest]{short: "Withdraw the character's request for a fellowship point: nothing changes"}),
	specForm("fellowship-phase", form[catalog.NoBody]{short: "The fellowship phase ends the adventure: advancement points banked, groups cleared, temporary Shadow cleared, pool reset"}),
	specForm("shadow-gain", form[command.ShadowRequest]{short: "The character gains N (temporary) Shadow", positive: "shadow"}),
	specForm("madness-end", form[command.MadnessRequest]{short: "The GM ends the bout: 1 permanent Shadow and a flaw"}),
	specForm("advancement-grant", form[command.AdvancementRequest]{short: "The GM grants a point in a skill group for the roll that earned it ('advancement show' lists the rolls that qualify)",
		prepare: func(a *app, c *cobra.Command, req *command.AdvancementRequest) error {
			if req.Roll == "" {
				return nil
			}
			return a.resolveShortEvent(c, &req.Roll)
		}}),
}

// keyNameFlag adds the --name flag of the device key that signs a
// journal-dice-v2 command (keyNameOf reads it).
func keyNameFlag(usage string) func(c *cobra.Command) {
	return func(c *cobra.Command) { c.Flags().String("name", device.DefaultName, usage) }
}

// keyNameOf is c's --name (keyNameFlag).
func keyNameOf(c *cobra.Command) string {
	name, _ := c.Flags().GetString("name")
	return name
}
