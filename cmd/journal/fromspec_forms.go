package main

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/command/catalog"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/signed"
)

// specForms are the forms of the catalogued commands the CLI builds from
// the catalogue (fromspec.go): all of them (catalog_test.go lists any
// written by hand, and why).
var specForms = []built{
	specForm("campaign-create", form[command.CreateCampaign]{short: "Create a campaign",
		prepare: func(a *app, _ *cobra.Command, req *command.CreateCampaign) error {
			a.campaign = req.ID // the campaign the command runs in
			return nil
		}}),
	specForm("weapon-define", form[events.WeaponDefined]{short: "Define (or redefine) a weapon",
		flags: func(c *cobra.Command) {
			c.Flags().String("ranges", "", "range bands in metres SHORT/MEDIUM/LONG (ranged weapons)")
			c.Use += " [--ranges 35/60/120]"
		},
		prepare: func(_ *app, c *cobra.Command, w *events.WeaponDefined) error {
			ranges, _ := c.Flags().GetString("ranges")
			return weaponRanges(ranges, w)
		}}),
	specForm("skill-define", form[command.SkillDefineRequest]{short: "Define a campaign skill with its default attribute"}),
	specForm("raise", form[command.RaiseRequest]{short: "Spend XP to raise a skill one rank (costs the new rank)"}),
	specForm("roll", form[command.RollRequest]{short: "Roll 1o3d10 for a skill or an attribute from the session's committed dice",
		key: "journal-dice-v2: the device key that signs the roll", gmRoll: true,
		flags: func(c *cobra.Command) {
			c.Flags().String("attribute", "", "an attribute roll (2 × attribute) instead of a skill roll")
			_ = c.Flags().SetAnnotation("attribute", annComplete, []string{"attribute"})
			c.Use = strings.Replace(c.Use, "[--with-attr X]", "[--with-attr X | --attribute X]", 1)
		},
		prepare: func(_ *app, c *cobra.Command, req *command.RollRequest) error {
			attribute, _ := c.Flags().GetString("attribute")
			switch {
			case req.Skill != "" && attribute != "":
				return usagef("roll: give a SKILL (a skill roll) or --attribute X (an attribute roll), not both; --with-attr X names another attribute for a skill roll")
			case req.Skill != "":
			case attribute != "":
				req.Attribute = attribute
			default:
				return usagef("roll: name a SKILL, or an attribute with --attribute X")
			}
			return nil
		},
		v2: func(a *app, c *cobra.Command, req command.RollRequest) error {
			if req.Secret {
				return usagef("roll --secret: in a journal-dice-v2 session a secret roll is a free roll ('journal roll free 1d20 --secret')")
			}
			return a.rollV2(c, keyNameOf(c), req)
		}}),
	specForm("free-roll", form[command.FreeRollRequest]{short: "A free roll of a dice expression (1d6, 2d10+3, 2d6+1d4-1) from the session's committed dice",
		key: "journal-dice-v2: the device key that signs the roll", gmRoll: true,
		v2: func(a *app, c *cobra.Command, req command.FreeRollRequest) error {
			if req.Entropy != "" {
				return usagef("roll free: --entropy is not for a journal-dice-v2 session (your device's secret replaces entropy)")
			}
			return a.requestRevealV2(c, keyNameOf(c), req.Character, func(j *command.Handler, campaign string, _ *projections.Session) (any, error) {
				return j.FreeRollActionFor(c.Context(), campaign, req)
			})
		}}),
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
	specForm("reveal", form[command.RevealRequest]{short: "GM: reveal a secret roll (its id, or its start or end): its outcome is recorded"}),
	specForm("contest", form[command.ContestRequest]{short: "An opposed roll: the higher total wins (a SKILL may be an attribute)",
		key: "journal-dice-v2: the device key that signs the contest",
		v2: func(a *app, c *cobra.Command, req command.ContestRequest) error {
			return a.contestV2(c, keyNameOf(c), req)
		}}),
	specForm("combat-start", form[command.CombatStart]{short: "Roll initiative for every participant and start the combat",
		key: "journal-dice-v2: the device key that signs the initiative",
		v2: func(a *app, c *cobra.Command, req command.CombatStart) error {
			return a.combatStartV2(c, keyNameOf(c), req)
		}}),
	specForm("combat-round", form[catalog.NoBody]{short: "Start the next round"}),
	specForm("attack", form[command.AttackRequest]{short: "Attack in turn order; a hit rolls damage (doubled on a critical) and applies it",
		key: "journal-dice-v2: the device key that signs the attack", gmRoll: true,
		v2: func(a *app, c *cobra.Command, req command.AttackRequest) error {
			return a.attackV2(c, keyNameOf(c), req)
		}}),
	specForm("combat-end", form[catalog.NoBody]{short: "End the combat"}),
	specForm("damage", form[command.DamageRequest]{short: "Apply damage by hand", positive: "damage"}), // negative damage never is: 'journal heal' heals
	specForm("heal", form[command.HealRequest]{short: "Heal by hand (never past max HP; the dead do not heal)", positive: "healing"}),
	specForm("rest", form[command.RestRequest]{short: "A night's sleep: everyone heals 1 HP (2 in comfort); a new day"}),
	specForm("heal-after-combat", form[command.HealAfterCombatRequest]{short: "Roll 1d6 healing after the last combat (at most the damage taken in it, once)",
		key: "journal-dice-v2: the device key that signs the healing",
		v2: func(a *app, c *cobra.Command, req command.HealAfterCombatRequest) error {
			return a.healV2(c, keyNameOf(c), req.Character, req.Entropy)
		}}),
	specForm("xp", form[command.XPRequest]{short: "Grant 1..10 XP (once per character per session)", positive: "XP"}),
	specForm("token-return", form[command.CharacterRequest]{short: "The GM gives the token back: the character's next roll is one level lower"}),
	specForm("day-new", form[catalog.NoBody]{short: "Start a new in-game day: specializations may be used again"}),
	specForm("reload", form[command.ReloadRequest]{short: "Reload a magazine weapon"}),
	specForm("adventure-start", form[command.AdventureRequest]{short: "Start an adventure: the fellowship pool is set to the player characters plus the hobbits"}),
	specForm("hope-spend", form[command.HopeRequest]{short: "Spend 1 Hope on the character's latest roll, a failure: add the skill's attribute (favoured if the skill is) and judge it again",
		key: "journal-dice-v2: the device key that signs the Hope spent",
		v2: func(a *app, c *cobra.Command, req command.HopeRequest) error {
			return a.hopeV2(c, keyNameOf(c), req.Character, req.Roll) // v2_tor.go
		}}),
	specForm("fellowship-ask", form[command.CharacterRequest]{short: "Ask the fellowship for 1 point of the pool to regain 1 Hope; every other player character votes"}),
	specForm("fellowship-vote", form[command.VoteRequest]{short: "VOTER's vote on CHAR's request (at least half yes: granted at the last vote)"}),
	specForm("fellowship-take", form[command.CharacterRequest]{short: "Take a refused fellowship point anyway: Hope +1, pool −1, Shadow +1"}),
	specForm("fellowship-withdraw", form[command.CharacterRequest]{short: "Withdraw the character's request for a fellowship point: nothing changes"}),
	specForm("fellowship-phase", form[catalog.NoBody]{short: "The fellowship phase ends the adventure: advancement points banked, groups cleared, temporary Shadow cleared, pool reset"}),
	specForm("shadow-gain", form[command.ShadowRequest]{short: "The character gains N (temporary) Shadow", positive: "shadow"}),
	specForm("madness-end", form[command.MadnessRequest]{short: "The GM ends the bout: 1 permanent Shadow and a flaw"}),
	specForm("advancement-grant", form[command.AdvancementRequest]{short: "The GM grants a point in a skill group for the roll that earned it ('advancement show' lists the rolls that qualify)"}),
	specForm("trait-invoke", form[command.TraitRequest]{short: "Invoke a trait before a roll, with the GM's ruling: an automatic success (--auto) or roll with it invoked (--roll)",
		flags: func(c *cobra.Command) {
			c.Flags().Bool("roll", false, "the GM asks for a roll: the character's next roll counts the trait as invoked")
			c.Use = strings.Replace(c.Use, "[--auto]", "--auto", 1) + " | --roll"
		},
		prepare: func(_ *app, c *cobra.Command, req *command.TraitRequest) error {
			if roll, _ := c.Flags().GetBool("roll"); req.Automatic == roll {
				return usagef("trait invoke: the GM rules --auto (automatic success) or --roll (the next roll counts the trait)")
			}
			return nil
		}}),
	specForm("session-contribute", form[command.ContributeSigned]{short: "Contribute 32 random bytes, signed with your device key, to the v2 session's dice key",
		use: "contribute [--name KEY] [--character C]", decodeRequired: true, key: "the device key's name",
		run: func(a *app, c *cobra.Command, req command.ContributeSigned) error {
			return a.contribute(c, keyNameOf(c), req.Character)
		}}),
	specForm("session-cosign", form[command.CosignSigned]{short: "Co-sign the end of a v2 session with your device key (the hash of its session-ended event)",
		use: "cosign [SESSION] [--name KEY] [--character C]", decodeRequired: true, args: []string{"[SESSION]"}, key: "the device key's name",
		run: func(a *app, c *cobra.Command, req command.CosignSigned) error {
			return a.cosign(c, keyNameOf(c), c.Flags().Arg(0), req.Character)
		}}),
	specForm("key-register", form[command.RegisterKey]{short: "Register a device key in the campaign: your own (no USER), or, as the GM, another user's",
		use: "register [USER --public-key HEX] [--role player|gm] [--device-name NAME]",
		key: "the device key's name",
		run: func(a *app, c *cobra.Command, req command.RegisterKey) error {
			me, err := a.actingUser() // identity.go: no default user
			if err != nil {
				return err
			}
			user, d := cmp.Or(req.User, me), a.thisDevice()
			if user != me || req.PublicKey != "" {
				if req, err = d.RegisterOther(me, user, req.Role, req.Name, req.PublicKey); err != nil {
					return err
				}
				return a.runSpec(c, "key-register", req)
			}
			k, camp, err := a.keyAndFold(c, keyNameOf(c))
			if err != nil {
				return err
			}
			if req, err = d.RegisterOwn(c.Context(), camp, k, user, req.Role, req.Name, req.Character); err != nil {
				return err
			}
			return a.runSpec(c, "key-register", req)
		}}),
	specForm("key-approve", form[command.ApproveDevice]{short: "Approve another device of yours, signing with this one (--name): it is no longer flagged key-by-other",
		use: "approve FINGERPRINT [--name N]", args: []string{"FINGERPRINT"}, key: "the device key's name",
		run: func(a *app, c *cobra.Command, _ command.ApproveDevice) error {
			k, camp, err := a.keyAndFold(c, keyNameOf(c))
			if err != nil {
				return err
			}
			req, err := a.thisDevice().Approve(c.Context(), camp, k, c.Flags().Arg(0))
			if err != nil {
				return err
			}
			if req.Character == "" { // no character yet: for the permissions, the catalogue needs one
				return a.record(c, func(j *command.Handler, campaign string) (command.Result, error) {
					return j.ApproveDevice(c.Context(), campaign, req)
				})
			}
			return a.runSpec(c, "key-approve", req)
		}}),
	specForm("key-revoke", form[command.RevokeDevice]{short: "Revoke a device: one of yours, signed with this device (--name); or, as the GM, anyone's (flagged revoked-by-other)",
		use: "revoke FINGERPRINT [--reason R] [--name N]", args: []string{"FINGERPRINT"}, key: "the device key's name",
		run: func(a *app, c *cobra.Command, in command.RevokeDevice) error {
			camp, err := a.load(c, 0)
			if err != nil {
				return err
			}
			req, err := a.thisDevice().Revoke(c.Context(), camp, func() (*device.Key, error) { return loadKey(keyNameOf(c)) }, c.Flags().Arg(0), in.Reason)
			if err != nil {
				return err
			}
			if req.Character == "" { // as key approve
				return a.record(c, func(j *command.Handler, campaign string) (command.Result, error) {
					return j.RevokeDevice(c.Context(), campaign, req)
				})
			}
			return a.runSpec(c, "key-revoke", req)
		}}),
	specForm("roll-request", form[command.RollRequestSigned]{short: "Record a roll.request signed by another device (as its user, $JOURNAL_ACTOR)",
		use: "request --character C --signed S --signature SIG", decodeRequired: true}),
	specForm("roll-reveal", form[command.RollRevealSigned]{short: "Record a roll.reveal signed by another device: the roll is drawn",
		use: "reveal --character C --signed S --signature SIG", decodeRequired: true}),
	specForm("roll-prove", form[command.RollRevealSigned]{short: "Prove your v2 roll whose reveal was not recorded: send it again (a cancelled request records the roll it would have been), or --out FILE",
		use: "prove REQUEST [--out FILE]", args: []string{"REQUEST"}, noBody: true, key: "journal-dice-v2: the device key that made the request",
		flags: func(c *cobra.Command) {
			c.Flags().String("out", "", "write the proof to this file instead of sending it (for 'journal replay --proof')")
		},
		run: func(a *app, c *cobra.Command, _ command.RollRevealSigned) error {
			out, _ := c.Flags().GetString("out")
			return a.proveV2(c, keyNameOf(c), c.Flags().Arg(0), out)
		}}),
	specForm("roll-witness", form[command.RollWitnessSigned]{short: "Player: witness a GM's v2 roll with your device's witness chain value (its r combines every contributing device's)",
		use: "witness REQUEST [--name KEY] [--character C]", decodeRequired: true, args: []string{"REQUEST"}, key: "the device key's name",
		run: func(a *app, c *cobra.Command, req command.RollWitnessSigned) error {
			return a.witnessV2(c, keyNameOf(c), req.Character, c.Flags().Arg(0))
		}}),
	specForm("roll-receipt", form[command.RollReceiptSigned]{short: "Player: sign that your device saw a GM's beacon roll request before its round ('log --follow' does it by itself)",
		use: "receipt REQUEST [--name KEY]", args: []string{"REQUEST"}, key: "the device key's name",
		run: func(a *app, c *cobra.Command, _ command.RollReceiptSigned) error {
			return a.receiptV2(c, keyNameOf(c), c.Flags().Arg(0))
		}}),
	specForm("roll-resolve", form[command.RollResolveRequest]{short: "GM: resolve your v2 roll after its wait with the witnesses in (partial-witness), or none (unwitnessed), or by its drand round",
		use: "resolve REQUEST (--unwitnessed | --beacon [--signature HEX] [--relay URL])",
		flags: func(c *cobra.Command) {
			c.Flags().String("relay", defaultRelay, "the drand HTTP relay to fetch the round from")
		},
		run: func(a *app, c *cobra.Command, req command.RollResolveRequest) error {
			relay, _ := c.Flags().GetString("relay")
			return a.resolveV2(c, req, relay)
		}}),
	specForm("roll-cancel", form[command.RollCancelRequest]{short: "GM: cancel a v2 roll request left unrevealed (its nonce stays consumed, the audit lists it)"}),
	specForm("void", form[command.VoidRequest]{short: "Correct a mistake: the event stays in the journal, sheets leave it out"}),
	specForm("call", form[command.CallRequest]{short: "Call characters to roll a skill or attribute (each answers once: 'journal roll ... --call ID')"}),
	specForm("call-close", form[command.CallClose]{short: "Close a roll call: it takes no more answers"}),
	specForm("void-propose", form[command.VoidPropose]{short: "journal-dice-v2: propose to void a roll, asking its roller's signed consent"}),
	specForm("void-consent", form[command.VoidConsent]{short: "journal-dice-v2: consent, signed on this device, to a void proposal of your roll",
		key: "the device key's name",
		run: func(a *app, c *cobra.Command, req command.VoidConsent) error {
			k, camp, err := a.keyAndFold(c, keyNameOf(c))
			if err != nil {
				return err
			}
			p := camp.OpenVoidProposal(req.Proposal)
			if p == nil {
				return usagef("void consent: no open void proposal %q in campaign %s", req.Proposal, camp.ID)
			}
			msg, sig, err := a.seal(c.Context(), camp.ID, camp.LastSeq, k, &signed.VoidConsent{
				Header: signed.Header{Campaign: camp.ID, Session: p.Session}, Event: p.EventID, Reason: p.Reason})
			if err != nil {
				return usagef("void consent: %v", err)
			}
			return a.runSpec(c, "void-consent", command.VoidConsent{Character: p.Character, Proposal: p.ID,
				SignedMessage: command.SignedMessage{Signed: msg, Signature: sig}})
		}}),
}

// weaponRanges sets w's range bands from --ranges SHORT/MEDIUM/LONG
// (metres); "" sets none.
func weaponRanges(ranges string, w *events.WeaponDefined) error {
	if ranges == "" {
		return nil
	}
	parts := strings.Split(ranges, "/")
	if len(parts) != 3 {
		return usagef("--ranges %q: want SHORT/MEDIUM/LONG in metres, e.g. 35/60/120", ranges)
	}
	var ns [3]int
	for i, p := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil {
			return usagef("--ranges %q: %q is not a number of metres", ranges, p)
		}
		ns[i] = n
	}
	w.Short, w.Medium, w.Long = ns[0], ns[1], ns[2]
	return nil
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

// keyAndFold is what a command that signs on this device needs first: the
// device key named keyName, and the invocation's one fold of the campaign.
func (a *app) keyAndFold(c *cobra.Command, keyName string) (*device.Key, *projections.Campaign, error) {
	k, err := loadKey(keyName)
	if err != nil {
		return nil, nil, err
	}
	camp, err := a.load(c, 0)
	if err != nil {
		return nil, nil, err
	}
	return k, camp, nil
}
