package main

import (
	"cmp"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/campaign-journal/journal/cobraspec"
	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/command/catalog"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/signed"
)

// specForms are the forms of the catalogued commands the CLI builds from
// the catalogue (cobraspec, fromspec.go): all of them (catalog_test.go
// lists any written by hand, and why).
var specForms = []cobraspec.Bound[*app]{
	cobraspec.Bind("campaign-create", form[command.CreateCampaign]{Short: "Create a campaign",
		Prepare: func(a *app, _ *cobra.Command, req *command.CreateCampaign) error {
			a.campaign = req.ID // the campaign the command runs in
			return nil
		}}),
	cobraspec.Bind("weapon-define", form[events.WeaponDefined]{Short: "Define (or redefine) a weapon",
		Flags: func(c *cobra.Command) {
			c.Flags().String("ranges", "", "range bands in metres SHORT/MEDIUM/LONG (ranged weapons)")
			c.Use += " [--ranges 35/60/120]"
		},
		Prepare: func(_ *app, c *cobra.Command, w *events.WeaponDefined) error {
			ranges, _ := c.Flags().GetString("ranges")
			return weaponRanges(ranges, w)
		}}),
	cobraspec.Bind("skill-define", form[command.SkillDefineRequest]{Short: "Define a campaign skill with its default attribute"}),
	cobraspec.Bind("raise", form[command.RaiseRequest]{Short: "Spend XP to raise a skill one rank (costs the new rank)"}),
	cobraspec.Bind("roll", form[command.RollRequest]{Short: "Roll 1o3d10 for a skill or an attribute from the session's committed dice",
		Key: "journal-dice-v2: the device key that signs the roll", GMRoll: true,
		Flags: func(c *cobra.Command) {
			c.Flags().String("attribute", "", "an attribute roll (2 × attribute) instead of a skill roll")
			_ = c.Flags().SetAnnotation("attribute", annComplete, []string{"attribute"})
			c.Use = strings.Replace(c.Use, "[--with-attr X]", "[--with-attr X | --attribute X]", 1)
		},
		Prepare: func(_ *app, c *cobra.Command, req *command.RollRequest) error {
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
		V2: func(a *app, c *cobra.Command, req command.RollRequest) error {
			if req.Secret {
				return usagef("roll --secret: in a journal-dice-v2 session a secret roll is a free roll ('journal roll free 1d20 --secret')")
			}
			return a.rollV2(c, cobraspec.KeyNameOf(c), req)
		}}),
	cobraspec.Bind("free-roll", form[command.FreeRollRequest]{Short: "A free roll of a dice expression (1d6, 2d10+3, 2d6+1d4-1) from the session's committed dice",
		Key: "journal-dice-v2: the device key that signs the roll", GMRoll: true,
		V2: func(a *app, c *cobra.Command, req command.FreeRollRequest) error {
			if req.Entropy != "" {
				return usagef("roll free: --entropy is not for a journal-dice-v2 session (your device's secret replaces entropy)")
			}
			return a.requestRevealV2(c, cobraspec.KeyNameOf(c), req.Character, func(j *command.Handler, campaign string, _ *projections.Session) (any, error) {
				return j.FreeRollActionFor(c.Context(), campaign, req)
			})
		}}),
	cobraspec.Bind("character-create", form[command.CreateCharacter]{Short: "Create a character (every rule it breaks is reported at once)"}),
	cobraspec.Bind("session-start", form[command.SessionStart]{Short: "Start a session: draw its secret seed and record its commitment",
		Run: func(a *app, c *cobra.Command, req command.SessionStart) error {
			if err := a.RunSpec(c, "session-start", req); err != nil {
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
	cobraspec.Bind("session-end", form[catalog.NoBody]{Short: "End the session in progress and reveal its seed",
		Run: func(a *app, c *cobra.Command, req catalog.NoBody) error {
			v2, err := a.InV2Session(c)
			if err != nil {
				return err
			}
			if err := a.RunSpec(c, "session-end", req); err != nil || !v2 {
				return err
			}
			return a.afterV2End(c)
		}}),
	cobraspec.Bind("reveal", form[command.RevealRequest]{Short: "GM: reveal a secret roll (its id, or its start or end): its outcome is recorded"}),
	cobraspec.Bind("contest", form[command.ContestRequest]{Short: "An opposed roll: the higher total wins (a SKILL may be an attribute)",
		Key: "journal-dice-v2: the device key that signs the contest",
		V2: func(a *app, c *cobra.Command, req command.ContestRequest) error {
			return a.contestV2(c, cobraspec.KeyNameOf(c), req)
		}}),
	cobraspec.Bind("combat-start", form[command.CombatStart]{Short: "Roll initiative for every participant and start the combat",
		Key: "journal-dice-v2: the device key that signs the initiative",
		V2: func(a *app, c *cobra.Command, req command.CombatStart) error {
			return a.combatStartV2(c, cobraspec.KeyNameOf(c), req)
		}}),
	cobraspec.Bind("combat-round", form[catalog.NoBody]{Short: "Start the next round"}),
	cobraspec.Bind("attack", form[command.AttackRequest]{Short: "Attack in turn order; a hit rolls damage (doubled on a critical) and applies it",
		Key: "journal-dice-v2: the device key that signs the attack", GMRoll: true,
		V2: func(a *app, c *cobra.Command, req command.AttackRequest) error {
			return a.attackV2(c, cobraspec.KeyNameOf(c), req)
		}}),
	cobraspec.Bind("combat-end", form[catalog.NoBody]{Short: "End the combat"}),
	cobraspec.Bind("damage", form[command.DamageRequest]{Short: "Apply damage by hand", Positive: "damage"}), // negative damage never is: 'journal heal' heals
	cobraspec.Bind("heal", form[command.HealRequest]{Short: "Heal by hand (never past max HP; the dead do not heal)", Positive: "healing"}),
	cobraspec.Bind("rest", form[command.RestRequest]{Short: "A night's sleep: everyone heals 1 HP (2 in comfort); a new day"}),
	cobraspec.Bind("heal-after-combat", form[command.HealAfterCombatRequest]{Short: "Roll 1d6 healing after the last combat (at most the damage taken in it, once)",
		Key: "journal-dice-v2: the device key that signs the healing",
		V2: func(a *app, c *cobra.Command, req command.HealAfterCombatRequest) error {
			return a.healV2(c, cobraspec.KeyNameOf(c), req.Character, req.Entropy)
		}}),
	cobraspec.Bind("xp", form[command.XPRequest]{Short: "Grant 1..10 XP (once per character per session)", Positive: "XP"}),
	cobraspec.Bind("token-return", form[command.CharacterRequest]{Short: "The GM gives the token back: the character's next roll is one level lower"}),
	cobraspec.Bind("day-new", form[catalog.NoBody]{Short: "Start a new in-game day: specializations may be used again"}),
	cobraspec.Bind("reload", form[command.ReloadRequest]{Short: "Reload a magazine weapon"}),
	cobraspec.Bind("adventure-start", form[command.AdventureRequest]{Short: "Start an adventure: the fellowship pool is set to the player characters plus the hobbits"}),
	cobraspec.Bind("hope-spend", form[command.HopeRequest]{Short: "Spend 1 Hope on the character's latest roll, a failure: add the skill's attribute (favoured if the skill is) and judge it again",
		Key: "journal-dice-v2: the device key that signs the Hope spent",
		V2: func(a *app, c *cobra.Command, req command.HopeRequest) error {
			return a.hopeV2(c, cobraspec.KeyNameOf(c), req.Character, req.Roll) // v2_tor.go
		}}),
	cobraspec.Bind("fellowship-ask", form[command.CharacterRequest]{Short: "Ask the fellowship for 1 point of the pool to regain 1 Hope; every other player character votes"}),
	cobraspec.Bind("fellowship-vote", form[command.VoteRequest]{Short: "VOTER's vote on CHAR's request (at least half yes: granted at the last vote)"}),
	cobraspec.Bind("fellowship-take", form[command.CharacterRequest]{Short: "Take a refused fellowship point anyway: Hope +1, pool −1, Shadow +1"}),
	cobraspec.Bind("fellowship-withdraw", form[command.CharacterRequest]{Short: "Withdraw the character's request for a fellowship point: nothing changes"}),
	cobraspec.Bind("fellowship-phase", form[catalog.NoBody]{Short: "The fellowship phase ends the adventure: advancement points banked, groups cleared, temporary Shadow cleared, pool reset"}),
	cobraspec.Bind("shadow-gain", form[command.ShadowRequest]{Short: "The character gains N (temporary) Shadow", Positive: "shadow"}),
	cobraspec.Bind("madness-end", form[command.MadnessRequest]{Short: "The GM ends the bout: 1 permanent Shadow and a flaw"}),
	cobraspec.Bind("advancement-grant", form[command.AdvancementRequest]{Short: "The GM grants a point in a skill group for the roll that earned it ('advancement show' lists the rolls that qualify)"}),
	cobraspec.Bind("trait-invoke", form[command.TraitRequest]{Short: "Invoke a trait before a roll, with the GM's ruling: an automatic success (--auto) or roll with it invoked (--roll)",
		Flags: func(c *cobra.Command) {
			c.Flags().Bool("roll", false, "the GM asks for a roll: the character's next roll counts the trait as invoked")
			c.Use = strings.Replace(c.Use, "[--auto]", "--auto", 1) + " | --roll"
		},
		Prepare: func(_ *app, c *cobra.Command, req *command.TraitRequest) error {
			if roll, _ := c.Flags().GetBool("roll"); req.Automatic == roll {
				return usagef("trait invoke: the GM rules --auto (automatic success) or --roll (the next roll counts the trait)")
			}
			return nil
		}}),
	cobraspec.Bind("session-contribute", form[command.ContributeSigned]{Short: "Contribute 32 random bytes, signed with your device key, to the v2 session's dice key",
		Use: "contribute [--name KEY] [--character C]", DecodeRequired: true, Key: "the device key's name",
		Run: func(a *app, c *cobra.Command, req command.ContributeSigned) error {
			return a.contribute(c, cobraspec.KeyNameOf(c), req.Character)
		}}),
	cobraspec.Bind("session-cosign", form[command.CosignSigned]{Short: "Co-sign the end of a v2 session with your device key (the hash of its session-ended event)",
		Use: "cosign [SESSION] [--name KEY] [--character C]", DecodeRequired: true, Args: []string{"[SESSION]"}, Key: "the device key's name",
		Run: func(a *app, c *cobra.Command, req command.CosignSigned) error {
			return a.cosign(c, cobraspec.KeyNameOf(c), c.Flags().Arg(0), req.Character)
		}}),
	cobraspec.Bind("key-register", form[command.RegisterKey]{Short: "Register a device key in the campaign: your own (no USER), or, as the GM, another user's",
		Use: "register [USER --public-key HEX] [--role player|gm] [--device-name NAME]",
		Key: "the device key's name",
		Run: func(a *app, c *cobra.Command, req command.RegisterKey) error {
			me, err := a.actingUser() // identity.go: no default user
			if err != nil {
				return err
			}
			user, d := cmp.Or(req.User, me), a.thisDevice()
			if user != me || req.PublicKey != "" {
				if req, err = d.RegisterOther(me, user, req.Role, req.Name, req.PublicKey); err != nil {
					return err
				}
				return a.RunSpec(c, "key-register", req)
			}
			k, camp, err := a.keyAndFold(c, cobraspec.KeyNameOf(c))
			if err != nil {
				return err
			}
			if req, err = d.RegisterOwn(c.Context(), camp, k, user, req.Role, req.Name, req.Character); err != nil {
				return err
			}
			return a.RunSpec(c, "key-register", req)
		}}),
	cobraspec.Bind("key-approve", form[command.ApproveDevice]{Short: "Approve another device of yours, signing with this one (--name): it is no longer flagged key-by-other",
		Use: "approve FINGERPRINT [--name N]", Args: []string{"FINGERPRINT"}, Key: "the device key's name",
		Run: func(a *app, c *cobra.Command, _ command.ApproveDevice) error {
			k, camp, err := a.keyAndFold(c, cobraspec.KeyNameOf(c))
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
			return a.RunSpec(c, "key-approve", req)
		}}),
	cobraspec.Bind("key-revoke", form[command.RevokeDevice]{Short: "Revoke a device: one of yours, signed with this device (--name); or, as the GM, anyone's (flagged revoked-by-other)",
		Use: "revoke FINGERPRINT [--reason R] [--name N]", Args: []string{"FINGERPRINT"}, Key: "the device key's name",
		Run: func(a *app, c *cobra.Command, in command.RevokeDevice) error {
			camp, err := a.load(c, 0)
			if err != nil {
				return err
			}
			req, err := a.thisDevice().Revoke(c.Context(), camp, func() (*device.Key, error) { return device.LoadUserKey(os.Getenv, cobraspec.KeyNameOf(c)) }, c.Flags().Arg(0), in.Reason)
			if err != nil {
				return err
			}
			if req.Character == "" { // as key approve
				return a.record(c, func(j *command.Handler, campaign string) (command.Result, error) {
					return j.RevokeDevice(c.Context(), campaign, req)
				})
			}
			return a.RunSpec(c, "key-revoke", req)
		}}),
	cobraspec.Bind("roll-request", form[command.RollRequestSigned]{Short: "Record a roll.request signed by another device (as its user, $JOURNAL_ACTOR)",
		Use: "request --character C --signed S --signature SIG", DecodeRequired: true}),
	cobraspec.Bind("roll-reveal", form[command.RollRevealSigned]{Short: "Record a roll.reveal signed by another device: the roll is drawn",
		Use: "reveal --character C --signed S --signature SIG", DecodeRequired: true}),
	cobraspec.Bind("roll-prove", form[command.RollRevealSigned]{Short: "Prove your v2 roll whose reveal was not recorded: send it again (a cancelled request records the roll it would have been), or --out FILE",
		Use: "prove REQUEST [--out FILE]", Args: []string{"REQUEST"}, NoBody: true, Key: "journal-dice-v2: the device key that made the request",
		Flags: func(c *cobra.Command) {
			c.Flags().String("out", "", "write the proof to this file instead of sending it (for 'journal replay --proof')")
		},
		Run: func(a *app, c *cobra.Command, _ command.RollRevealSigned) error {
			out, _ := c.Flags().GetString("out")
			return a.proveV2(c, cobraspec.KeyNameOf(c), c.Flags().Arg(0), out)
		}}),
	cobraspec.Bind("roll-witness", form[command.RollWitnessSigned]{Short: "Player: witness a GM's v2 roll with your device's witness chain value (its r combines every contributing device's)",
		Use: "witness REQUEST [--name KEY] [--character C]", DecodeRequired: true, Args: []string{"REQUEST"}, Key: "the device key's name",
		Run: func(a *app, c *cobra.Command, req command.RollWitnessSigned) error {
			return a.witnessV2(c, cobraspec.KeyNameOf(c), req.Character, c.Flags().Arg(0))
		}}),
	cobraspec.Bind("roll-receipt", form[command.RollReceiptSigned]{Short: "Player: sign that your device saw a GM's beacon roll request before its round ('log --follow' does it by itself)",
		Use: "receipt REQUEST [--name KEY]", Args: []string{"REQUEST"}, Key: "the device key's name",
		Run: func(a *app, c *cobra.Command, _ command.RollReceiptSigned) error {
			return a.receiptV2(c, cobraspec.KeyNameOf(c), c.Flags().Arg(0))
		}}),
	cobraspec.Bind("roll-resolve", form[command.RollResolveRequest]{Short: "GM: resolve your v2 roll after its wait with the witnesses in (partial-witness), or none (unwitnessed), or by its drand round",
		Use: "resolve REQUEST (--unwitnessed | --beacon [--signature HEX] [--relay URL])",
		Flags: func(c *cobra.Command) {
			c.Flags().String("relay", defaultRelay, "the drand HTTP relay to fetch the round from")
		},
		Run: func(a *app, c *cobra.Command, req command.RollResolveRequest) error {
			relay, _ := c.Flags().GetString("relay")
			return a.resolveV2(c, req, relay)
		}}),
	cobraspec.Bind("roll-cancel", form[command.RollCancelRequest]{Short: "GM: cancel a v2 roll request left unrevealed (its nonce stays consumed, the audit lists it)"}),
	cobraspec.Bind("void", form[command.VoidRequest]{Short: "Correct a mistake: the event stays in the journal, sheets leave it out"}),
	cobraspec.Bind("call", form[command.CallRequest]{Short: "Call characters to roll a skill or attribute (each answers once: 'journal roll ... --call ID')"}),
	cobraspec.Bind("call-close", form[command.CallClose]{Short: "Close a roll call: it takes no more answers"}),
	cobraspec.Bind("void-propose", form[command.VoidPropose]{Short: "journal-dice-v2: propose to void a roll, asking its roller's signed consent"}),
	cobraspec.Bind("void-consent", form[command.VoidConsent]{Short: "journal-dice-v2: consent, signed on this device, to a void proposal of your roll",
		Key: "the device key's name",
		Run: func(a *app, c *cobra.Command, req command.VoidConsent) error {
			k, camp, err := a.keyAndFold(c, cobraspec.KeyNameOf(c))
			if err != nil {
				return err
			}
			p := camp.OpenVoidProposal(req.Proposal)
			if p == nil {
				return usagef("void consent: no open void proposal %q in campaign %s", req.Proposal, camp.ID)
			}
			msg, sig, err := a.thisDevice().Seal(c.Context(), camp.ID, camp.LastSeq, k, &signed.VoidConsent{
				Header: signed.Header{Campaign: camp.ID, Session: p.Session}, Event: p.EventID, Reason: p.Reason})
			if err != nil {
				return usagef("void consent: %v", err)
			}
			return a.RunSpec(c, "void-consent", command.VoidConsent{Character: p.Character, Proposal: p.ID,
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

// keyAndFold is what a command that signs on this device needs first: the
// device key named keyName, and the invocation's one fold of the campaign.
func (a *app) keyAndFold(c *cobra.Command, keyName string) (*device.Key, *projections.Campaign, error) {
	k, err := device.LoadUserKey(os.Getenv, keyName)
	if err != nil {
		return nil, nil, err
	}
	camp, err := a.load(c, 0)
	if err != nil {
		return nil, nil, err
	}
	return k, camp, nil
}
