package replay

// Verification of the journal-dice-v2 paths of contests, initiative and
// healing after a combat (command/v2_contest.go, v2_initiative.go,
// v2_heal.go), by default:
//   - the request's fields are the signed action's (command, both sides of
//     a contest and its rematch, a combat's participants and tokens, the
//     character healed), and it takes one consecutive nonce per roll (2 for
//     a contest, one per participant, 1 for a healing);
//   - each roll answers its request in order, from its own nonce, with the
//     side's or participant's inputs (faces, draws and rules are checked by
//     rollV2 as for every v2 roll);
//   - the consequences re-derived from the recorded rolls: the contest's
//     rolls, sides, verdict and rematch (only of a tie, once); the combat's
//     order, initiative rolls and totals (highest first; ties by Destreza,
//     then Percepción, then roll order); the HP healed (the d6, at most the
//     damage taken in the combat and the room to max HP). A consequence
//     missing before the next v2 request or the end of the input is a
//     mismatch, and so is one recorded without its rolls.

import (
	"encoding/json"
	"fmt"
	"github.com/campaign-journal/journal/signed"
	"maps"
	"slices"
	"strings"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rolls"
	"github.com/campaign-journal/journal/rules/ryf"
)

// The kinds of the requests of these paths, and their actions' commands.
const (
	kindContest    = "contest"
	kindInitiative = "initiative"
)

var pathCommands = map[string]string{kindContest: "contest", kindInitiative: "combat-start", rolls.KindHeal: "heal-after-combat"}

// isPathRequest reports whether a recorded request is one of these paths'.
func isPathRequest(d events.RollRequested) bool {
	_, ok := pathCommands[d.Kind]
	return ok
}

// v2PathSide is command.ContestSideAction.
type v2PathSide struct {
	Character      string `json:"character"`
	Skill          string `json:"skill"`
	Attribute      string `json:"attribute"`
	Modifier       int    `json:"modifier"`
	Token          bool   `json:"token"`
	Specialization bool   `json:"specialization"`
}

// v2PathAction is the action of a contest, a combat start or a healing
// (command.ContestAction, InitiativeAction, HealAction); unknown members
// are refused by parseStrictAction per command.
type v2PathAction struct {
	Command        string     `json:"command"`
	SeedCommitment string     `json:"seed_commitment"`
	A              v2PathSide `json:"a"`
	B              v2PathSide `json:"b"`
	Rematch        string     `json:"rematch"`
	Participants   []string   `json:"participants"`
	Token          []string   `json:"token"`
	Character      string     `json:"character"`
}

// pathMembers are the members each command's action has.
var pathMembers = map[string][]string{
	"contest":           {"a", "b", "command", "rematch", "seed_commitment"},
	"combat-start":      {"command", "participants", "seed_commitment", "token"},
	"heal-after-combat": {"character", "command", "seed_commitment"},
}

// sideMembers are the members of a contest's side.
var sideMembers = []string{"attribute", "character", "modifier", "skill", "specialization", "token"}

// pathRequestDiff compares a recorded request of these paths with its
// signed action.
func pathRequestDiff(s *session, d *events.RollRequested, action []byte, eq func(string, any, any)) []string {
	var diff []string
	a, err := parseAction2(action)
	if err != nil {
		return []string{"the signed action: " + err.Error()}
	}
	eq("command", pathCommands[d.Kind], a.Command)
	if members, ok := pathMembers[a.Command]; ok {
		if got := actionMembers(action); !slices.Equal(got, members) {
			diff = append(diff, fmt.Sprintf("the signed %s action has members %v, want %v", a.Command, got, members))
		}
	}
	if a.Command == "contest" {
		var sides map[string]json.RawMessage
		if json.Unmarshal(action, &sides) == nil {
			for _, k := range []string{"a", "b"} {
				if got := actionMembers(sides[k]); !slices.Equal(got, sideMembers) {
					diff = append(diff, fmt.Sprintf("the signed contest's side %s has members %v, want %v", k, got, sideMembers))
				}
			}
		}
	}
	eq("seed commitment (the session's)", s.commitment, a.SeedCommitment)
	switch d.Kind {
	case kindContest:
		eq("character", d.Character, a.A.Character)
		eq("skill", d.Skill, a.A.Skill)
		eq("attribute", d.Attribute, a.A.Attribute)
		eq("modifier", d.Modifier, a.A.Modifier)
		eq("token", d.Token, a.A.Token)
		eq("specialization", d.Specialization, a.A.Specialization)
		eq("b", d.B, a.B.Character)
		eq("skill_b", d.SkillB, a.B.Skill)
		eq("attribute_b", d.AttributeB, a.B.Attribute)
		eq("modifier_b", d.ModifierB, a.B.Modifier)
		eq("token_b", d.TokenB, a.B.Token)
		eq("specialization_b", d.SpecializationB, a.B.Specialization)
		eq("rematch", d.Rematch, a.Rematch)
	case kindInitiative:
		eq("participants", fmt.Sprint(d.Participants), fmt.Sprint(a.Participants))
		eq("tokens", fmt.Sprint(d.Tokens), fmt.Sprint(a.Token))
		if len(a.Participants) > 0 {
			eq("character", d.Character, a.Participants[0])
		}
	default:
		eq("character", d.Character, a.Character)
	}
	return diff
}

// parseAction2 reads a path's action strictly (its top-level members are
// checked against its command's by actionMembers).
func parseAction2(b []byte) (v2PathAction, error) {
	var a v2PathAction
	return a, signed.DecodeAction(b, &a)
}

// actionMembers lists an action object's top-level members, sorted.
func actionMembers(b []byte) []string {
	var obj map[string]json.RawMessage
	if json.Unmarshal(b, &obj) != nil {
		return nil
	}
	return slices.Sorted(maps.Keys(obj))
}

// pathNonces is how many nonces a request of these paths takes (0: not one).
func pathNonces(d events.RollRequested) int {
	switch d.Kind {
	case kindContest:
		return 2
	case kindInitiative:
		return len(d.Participants)
	case rolls.KindHeal:
		return 1
	}
	return 0
}

// v2Due is what the rolls of a request of these paths say its
// consequence must be, due once its last roll is recorded.
type v2Due struct {
	m       Mismatch // the first roll's, for a consequence missing at the end
	request string
	d       events.RollRequested
	ids     []string
	rolls   []events.RollMade
	heal    int // the HP the healing's roll heals
}

// pathRoll compares the i-th roll (r.rolled-1) of a request of these paths
// with the request, and keeps what its consequence must be.
func (v *Verifier) pathRoll(s *session, c *campaign, m Mismatch, ev events.Event, d *events.RollMade, r *v2Request, eq func(string, any, any), add func(string)) {
	i := r.rolled - 1
	nonces := r.d.Taken()
	if i >= len(nonces) {
		add(fmt.Sprintf("roll %d of a request of %d rolls", i+1, len(nonces)))
		return
	}
	eq("nonce", d.Nonce, nonces[i])
	if i == 0 {
		if due := s.v2.path; due != nil {
			mm := due.m
			mm.Kind, mm.What = MismatchRules, fmt.Sprintf("the %s of request %s has no consequence before the next one's rolls", due.d.Kind, due.request)
			v.record(s, mm)
		}
		s.v2.path = &v2Due{m: m, request: r.d.Request, d: *r.d}
	}
	due := s.v2.path
	if due == nil || due.request != r.d.Request {
		add("a roll of a request whose consequence is already recorded")
		return
	}
	side := func(char, skill, attr string, mod int, token, spec bool) {
		eq("character", d.Character, char)
		eq("skill", d.Skill, skill)
		kind := "skill"
		if skill == "" {
			kind = "attribute"
		}
		eq("kind", d.Kind, kind)
		if attr != "" {
			eq("attribute", d.Attribute, attr)
		}
		eq("modifier", d.Modifier, mod)
		eq("token", d.Token, token)
		eq("specialization", d.Specialization, spec)
		eq("opposed", d.Opposed, true)
	}
	switch r.d.Kind {
	case kindContest:
		if i == 0 {
			side(r.d.Character, r.d.Skill, r.d.Attribute, r.d.Modifier, r.d.Token, r.d.Specialization)
		} else {
			side(r.d.B, r.d.SkillB, r.d.AttributeB, r.d.ModifierB, r.d.TokenB, r.d.SpecializationB)
		}
	case kindInitiative:
		if i < len(r.d.Participants) {
			eq("character", d.Character, r.d.Participants[i])
			eq("token", d.Token, slices.Contains(r.d.Tokens, d.Character))
		}
		eq("kind", d.Kind, kindInitiative)
		eq("modifier", d.Modifier, 0)
		eq("specialization", d.Specialization, false)
	case rolls.KindHeal:
		eq("character", d.Character, r.d.Character)
		eq("kind", d.Kind, rolls.KindHeal)
		if ch := c.fold.Characters[d.Character]; ch != nil {
			taken := 0
			if cb := c.fold.HealingCombat(); cb != nil {
				taken = cb.DamageTaken[d.Character]
			}
			due.heal = min(d.Total, taken, max(ch.MaxHP-ch.HP, 0))
		}
	}
	due.ids = append(due.ids, ev.ID)
	due.rolls = append(due.rolls, *d)
}

// pathConsequence checks a contest resolved, a combat started or a
// healing after a combat in a v2 session against what the rolls of its
// request say.
func (v *Verifier) pathConsequence(s *session, c *campaign, m Mismatch, ev events.Event, data any) {
	bad := func(format string, args ...any) {
		m.Kind, m.What = MismatchRules, fmt.Sprintf(format, args...)
		v.record(s, m)
	}
	var diff []string
	eq := func(what string, got, want any) {
		if got != want {
			diff = append(diff, fmt.Sprintf("%s: recorded %v, the rolls say %v", what, got, want))
		}
	}
	due := s.v2.path
	want := func(kind string) bool {
		if due == nil || due.d.Kind != kind || len(due.rolls) != len(due.d.Taken()) {
			bad("%s without the rolls of a %s request just before it", ev.Type, kind)
			return false
		}
		s.v2.path = nil
		return true
	}
	switch d := data.(type) {
	case *events.ContestResolved:
		if !want(kindContest) {
			return
		}
		eq("roll_a", d.RollA, due.ids[0])
		eq("roll_b", d.RollB, due.ids[1])
		eq("a", d.A, due.d.Character)
		eq("b", d.B, due.d.B)
		eq("rematch", d.Rematch, due.d.Rematch)
		a, b := due.rolls[0], due.rolls[1]
		verdict := ryf.Contest(ryf.Result{Total: a.Total, Natural1: a.Natural1, Fumble: a.Fumble},
			ryf.Result{Total: b.Total, Natural1: b.Natural1, Fumble: b.Fumble})
		winner := map[int]string{1: due.d.Character, 2: due.d.B}[verdict.Winner]
		eq("winner", d.Winner, winner)
		eq("tie", d.Tie, verdict.Winner == 0)
		eq("reason", d.Reason, verdict.Reason)
		if d.Critical && !verdict.Critical { // only a critical recorded is judged: older contests have none
			eq("critical", d.Critical, verdict.Critical)
		}
		c.paths.init()
		sides := map[string]string{}
		for _, r := range due.rolls {
			sides[r.Character] = rolledSide(r)
		}
		if d.Rematch != "" {
			diff = append(diff, c.rematchDiff(d.Rematch, ev.ID, sides)...)
		}
		c.paths.sides[ev.ID] = sides
		if len(diff) > 0 {
			bad("the contest's consequences are not the rules': %s", strings.Join(diff, "; "))
		}
	case *events.CombatStarted:
		if !want(kindInitiative) {
			return
		}
		var inits []ryf.Initiative
		ids, totals := map[string]string{}, map[string]int{}
		for i, r := range due.rolls {
			ids[r.Character] = due.ids[i]
			totals[r.Character] = r.Total
			inits = append(inits, ryf.Initiative{ID: r.Character, Total: r.Total, Destreza: r.AttributeValue, Percepcion: r.Attribute2Value})
		}
		var order []string
		for _, in := range ryf.OrderInitiative(inits) {
			order = append(order, in.ID)
		}
		eq("order", fmt.Sprint(d.Order), fmt.Sprint(order))
		if !maps.Equal(d.Totals, totals) {
			diff = append(diff, fmt.Sprintf("totals: recorded %v, the rolls say %v", d.Totals, totals))
		}
		if !maps.Equal(d.Initiative, ids) {
			diff = append(diff, fmt.Sprintf("initiative rolls: recorded %v, the rolls are %v", d.Initiative, ids))
		}
		if len(diff) > 0 {
			bad("the combat's initiative is not the rules': %s", strings.Join(diff, "; "))
		}
	case *events.Healed:
		if d.Reason != projections.HealAfterCombat {
			return // the GM's healing by hand, a night's rest: no roll's
		}
		if !want(rolls.KindHeal) {
			return
		}
		eq("character", d.Character, due.d.Character)
		eq("amount", d.Amount, due.heal)
		if len(diff) > 0 {
			bad("the healing is not the rules': %s (the d6 %d, at most the damage taken in the combat and the room to max HP)",
				strings.Join(diff, "; "), due.rolls[0].Total)
		}
	}
}

// pathContests is what a campaign's verifier keeps of its contests, for
// re-rolls: each contest's tie, and the ties re-rolled (by which contest).
type pathContests struct {
	tie      map[string]bool
	rerolled map[string]string
	sides    map[string]map[string]string // a v2 contest's: what each character rolled
}

// rolledSide names what a contest's roll rolled: its skill and attribute.
func rolledSide(r events.RollMade) string {
	if r.Skill == "" {
		return "the attribute " + r.Attribute
	}
	return r.Skill + " (" + r.Attribute + ")"
}

// noteContest keeps a contest resolved (every one, v1's too).
func (c *campaign) noteContest(id string, d *events.ContestResolved) {
	c.paths.init()
	c.paths.tie[id] = d.Tie
}

func (p *pathContests) init() {
	if p.tie == nil {
		p.tie, p.rerolled, p.sides = map[string]bool{}, map[string]string{}, map[string]map[string]string{}
	}
}

// rematchDiff says what is wrong with contest id re-rolling target: it
// must be a tie recorded before, not re-rolled before, and each character
// rolls what it rolled in it (when the verifier knows: a v2 contest's).
func (c *campaign) rematchDiff(target, id string, sides map[string]string) []string {
	tie, known := c.paths.tie[target]
	defer func() {
		if _, done := c.paths.rerolled[target]; !done {
			c.paths.rerolled[target] = id
		}
	}()
	switch {
	case !known:
		return []string{fmt.Sprintf("it re-rolls contest %s, which is not recorded before it", clip(target, 40))}
	case !tie:
		return []string{fmt.Sprintf("it re-rolls contest %s, which was not a tie: only a tie may be re-rolled", target)}
	}
	if by, done := c.paths.rerolled[target]; done && by != id {
		return []string{fmt.Sprintf("it re-rolls the tie %s, already re-rolled by contest %s", target, by)}
	}
	var diff []string
	if was, ok := c.paths.sides[target]; ok {
		for _, ch := range slices.Sorted(maps.Keys(sides)) {
			if w, in := was[ch]; !in {
				diff = append(diff, fmt.Sprintf("it re-rolls the tie %s, which %s was not in", target, ch))
			} else if w != sides[ch] {
				diff = append(diff, fmt.Sprintf("a re-roll uses the same skills or attributes: %s rolled %s in the tie %s, not %s", ch, w, target, sides[ch]))
			}
		}
	}
	return diff
}

// unresolvedPath is the mismatch of a request of these paths whose rolls
// are recorded and whose consequence is not, at the end of the input.
func (s *session) unresolvedPath() *Mismatch {
	if s.v2 == nil || s.v2.path == nil {
		return nil
	}
	due := s.v2.path
	m := due.m
	m.Kind, m.What = MismatchRules, fmt.Sprintf("the %s of request %s has no consequence after its rolls", due.d.Kind, due.request)
	return &m
}

// pathSteps notes, for explain, the nonces of a request that takes
// several and which of them the roll (nonce) takes.
func pathSteps(v *V2Steps, d events.RollRequested, nonce uint64) {
	n := d.Taken()
	if len(n) < 2 {
		return
	}
	v.Nonces, v.Path, v.Nth = n, d.Kind, slices.Index(n, nonce)+1
	if isAttackRequest(d) {
		v.Path = "attack"
	}
}

// writePathSteps writes which of its request's rolls a roll is.
func writePathSteps(l i18n.Lang, v *V2Steps, p func(string)) {
	if len(v.Nonces) < 2 || v.Nth < 1 {
		return
	}
	p(l.T("x2.nonces", v.Nonces, v.Nth, len(v.Nonces), v.Path, v.Nonces[v.Nth-1]))
}
