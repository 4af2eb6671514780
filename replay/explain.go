package replay

import (
	"bufio"
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/rolls"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/rules/ryf"
	"github.com/campaign-journal/journal/rules/tor"
)

// Explanation is one roll, step by step: what went in, which seed and bytes
// made its dice, what the rules made of them, and whether the record holds.
type Explanation struct {
	EventID   string `json:"event_id"`
	Campaign  string `json:"campaign"`
	Session   string `json:"session"`
	Character string `json:"character"`
	System    string `json:"system"`
	Kind      string `json:"kind"`
	Inputs    Inputs `json:"inputs"`

	// Commitment and Algorithm are the session-started event's, when known.
	Commitment string `json:"commitment,omitempty"`
	Algorithm  string `json:"algorithm,omitempty"`
	// Seed is the seed (lower-case hex) when it is revealed or given;
	// SeedMatches says whether it matches the commitment (nil when there is
	// no seed or no commitment to compare).
	Seed        string `json:"seed,omitempty"`
	SeedMatches *bool  `json:"seed_matches,omitempty"`

	// Message is the HMAC message of the roll's stream without its block
	// index: "journal-dice-v1|campaign|session|nonce|entropy|".
	Message string `json:"message"`
	// Blocks are the stream blocks the dice used, with their bytes when the
	// seed is known.
	Blocks []Block `json:"blocks,omitempty"`
	// Draws are every byte drawn for the dice, kept or rejected, in order
	// (only when the seed is known).
	Draws []DrawStep `json:"draws,omitempty"`
	// Sides are the dice drawn, in draw order.
	Sides []int `json:"sides"`

	Recorded []int `json:"recorded_faces"`
	// Derived are the faces the seed gives (nil without a seed);
	// FacesMatch says whether they equal Recorded.
	Derived    []int `json:"derived_faces,omitempty"`
	FacesMatch *bool `json:"faces_match,omitempty"`

	// Rounds (1o3d10), Chains (damage) and Feat (TOR) show how the rules
	// read the recorded faces.
	Rounds []RoundStep `json:"rounds,omitempty"`
	Chains []Chain     `json:"chains,omitempty"`
	Feat   *FeatStep   `json:"feat,omitempty"`
	// Steps are the rules applied, in order, in words; Rule is the one that
	// decided the outcome.
	Steps []string `json:"steps"`
	Rule  string   `json:"rule"`

	Total   int    `json:"total"`
	Outcome string `json:"outcome"`
	// RulesAgree says whether the rules, judging the recorded inputs and
	// faces, give the recorded total, outcome and flags; Diff lists what
	// differs.
	RulesAgree bool     `json:"rules_agree"`
	Diff       []string `json:"diff,omitempty"`
	// Verified is true when the seed matches the commitment, the faces
	// re-derive and the rules agree. Verdict says it in words.
	Verified bool   `json:"verified"`
	Verdict  string `json:"verdict"`
	// V2 are a journal-dice-v2 roll's own steps (explain_v2.go).
	V2 *V2Steps `json:"v2,omitempty"`
}

// Inputs are what a roll event records as its inputs.
type Inputs struct {
	Dice            string     `json:"dice"`
	Skill           string     `json:"skill,omitempty"`
	Attribute       string     `json:"attribute,omitempty"`
	AttributeValue  int        `json:"attribute_value,omitempty"`
	Attribute2      string     `json:"attribute2,omitempty"`
	Attribute2Value int        `json:"attribute2_value,omitempty"`
	Rank            int        `json:"rank,omitempty"`
	Weapon          string     `json:"weapon,omitempty"`
	Precision       int        `json:"precision,omitempty"`
	Modifier        int        `json:"modifier,omitempty"`
	Terms           []ryf.Term `json:"terms,omitempty"`
	Base            int        `json:"base,omitempty"`
	Level           string     `json:"level,omitempty"`
	LevelReasons    []string   `json:"level_reasons,omitempty"`
	Difficulty      *int       `json:"difficulty,omitempty"`
	DifficultyName  string     `json:"difficulty_name,omitempty"`
	TN              int        `json:"tn,omitempty"`
	Token           bool       `json:"token,omitempty"`
	TokenReturned   bool       `json:"token_returned,omitempty"`
	Specialization  bool       `json:"specialization,omitempty"`
	Incapacitated   bool       `json:"incapacitated,omitempty"`
	Critical        bool       `json:"critical,omitempty"`
	Target          string     `json:"target,omitempty"`
	Range           string     `json:"range,omitempty"`
	Nonce           uint64     `json:"nonce"`
	Entropy         string     `json:"entropy"`
}

// Block is one HMAC block of a roll's stream.
type Block struct {
	Index uint64 `json:"index"`
	Hex   string `json:"hex,omitempty"`
}

// DrawStep is one byte of the stream taken for a die.
type DrawStep struct {
	// Offset is the byte's place in the stream, from 0; Block and InBlock
	// locate it (Offset = 32·Block + InBlock).
	Offset  int `json:"offset"`
	Block   int `json:"block"`
	InBlock int `json:"in_block"`
	Byte    int `json:"byte"`
	// Die is the die (from 1, in draw order) the byte was drawn for.
	Die   int `json:"die"`
	Sides int `json:"sides"`
	// Limit is the first rejected byte value for the die: 256 − (256 mod sides).
	Limit    int  `json:"limit"`
	Rejected bool `json:"rejected"`
	// Face is (byte mod sides) + 1 for a kept byte, 0 for a rejected one.
	Face int `json:"face,omitempty"`
}

// RoundStep is one round of a 1o3d10 roll.
type RoundStep struct {
	Dice     [3]int `json:"dice"`
	Kept     int    `json:"kept"`
	Explodes bool   `json:"explodes,omitempty"`
}

// Chain is one damage die and its explosions.
type Chain struct {
	Faces      []int `json:"faces"`
	Explosions int   `json:"explosions"`
}

// FeatStep is a One Ring roll's feat die and success dice.
type FeatStep struct {
	Feat    int   `json:"feat"`
	Eye     bool  `json:"eye,omitempty"`
	Rune    bool  `json:"rune,omitempty"`
	Success []int `json:"success_dice"`
	Sixes   int   `json:"sixes"`
}

// Explain explains one roll event. started is its session's
// session-started event (nil when unknown); seed is the session's seed when
// it is revealed or given (nil otherwise). The error wraps ErrNotRoll for
// another type of event; anything wrong with the roll itself is in the
// Explanation's verdict.
func Explain(roll events.Event, started *events.SessionStarted, seed *dice.Seed) (Explanation, error) {
	if roll.Type != events.TypeRollMade {
		return Explanation{}, fmt.Errorf("%w: event %s is %s", ErrNotRoll, roll.ID, roll.Type)
	}
	var e events.RollMade
	if err := roll.DecodeData(&e); err != nil {
		return Explanation{}, err
	}
	x := Explanation{
		EventID: roll.ID, Campaign: roll.Campaign, Session: roll.Session, Character: e.Character,
		System: e.System, Kind: e.Kind, Inputs: inputsOf(e), Recorded: slices.Clone(e.Faces),
		Total: e.Total, Outcome: e.Outcome, Steps: []string{},
		Message: fmt.Sprintf("%s|%s|%s|%d|%s|", dice.Algorithm, roll.Campaign, roll.Session, e.Nonce, e.Entropy),
	}
	if started != nil {
		x.Commitment, x.Algorithm = started.Commitment, started.Algorithm
	}
	if x.Recorded == nil {
		x.Recorded = []int{}
	}

	// The dice.
	sides, sidesErr := rolls.Dice(e)
	x.Sides = sides
	if sidesErr == nil && seed != nil {
		x.Seed = seed.String()
		if started != nil {
			ok := seed.Matches(started.Commitment)
			x.SeedMatches = &ok
		}
		st := dice.NewStream(*seed, roll.Campaign, roll.Session, e.Nonce, e.Entropy)
		st.Trace()
		derived, err := derive(st, sides, nil)
		if err == nil {
			x.Derived = derived
			eq := slices.Equal(derived, e.Faces)
			x.FacesMatch = &eq
		}
		x.Draws, x.Blocks = drawSteps(st)
		for i := range x.Blocks {
			b := st.Block(x.Blocks[i].Index)
			x.Blocks[i].Hex = hex.EncodeToString(b[:])
		}
	} else if seed != nil {
		x.Seed = seed.String()
	}

	// The rules, on the recorded faces.
	explainRules(&x, e)
	if want, err := rolls.Rejudge(e); err != nil {
		x.Diff = []string{err.Error()}
	} else {
		x.Diff = rolls.Diff(e, want)
		x.RulesAgree = len(x.Diff) == 0
	}
	x.Verdict, x.Verified = verdict(x, sidesErr, started != nil)
	return x, nil
}

func inputsOf(e events.RollMade) Inputs {
	in := Inputs{
		Dice: e.Dice, Skill: e.Skill, Attribute: e.Attribute, AttributeValue: e.AttributeValue,
		Attribute2: e.Attribute2, Attribute2Value: e.Attribute2Value, Rank: e.Rank, Weapon: e.Weapon,
		Precision: e.Precision, Modifier: e.Modifier, Base: e.Base, Level: e.Level,
		LevelReasons: slices.Clone(e.LevelReasons), Difficulty: e.Difficulty, DifficultyName: e.DifficultyName,
		TN: e.TN, Token: e.Token, TokenReturned: e.TokenReturned, Specialization: e.Specialization,
		Incapacitated: e.Incapacitated, Target: e.Target, Range: e.Range, Nonce: e.Nonce, Entropy: e.Entropy,
	}
	switch e.Kind {
	case rolls.KindDamage:
		in.Critical = e.Critical
	case rolls.KindHeal, rolls.KindTOR:
	default:
		in.Terms = rolls.CheckOf(e).Terms()
	}
	return in
}

// drawSteps turns a traced stream's draws into steps, and lists the blocks
// they came from.
func drawSteps(st *dice.Stream) ([]DrawStep, []Block) {
	draws := st.Draws()
	steps := make([]DrawStep, 0, len(draws))
	var blocks []Block
	die := 1
	for i, d := range draws {
		s := DrawStep{
			Offset: i, Block: i / 32, InBlock: i % 32, Byte: int(d.Byte), Die: die,
			Sides: d.Sides, Limit: dice.Limit(d.Sides), Rejected: d.Rejected(), Face: d.Face,
		}
		steps = append(steps, s)
		if len(blocks) == 0 || blocks[len(blocks)-1].Index != uint64(s.Block) {
			blocks = append(blocks, Block{Index: uint64(s.Block)})
		}
		if !d.Rejected() {
			die++
		}
	}
	return steps, blocks
}

// explainRules fills Rounds, Chains, Feat, Steps and Rule from the rules
// applied to the recorded faces.
func explainRules(x *Explanation, e events.RollMade) {
	step := func(format string, args ...any) { x.Steps = append(x.Steps, fmt.Sprintf(format, args...)) }
	faces := dice.NewFaces(e.Faces...)
	switch e.Kind {
	case rolls.KindDamage:
		d, err := ryf.ParseDamage(e.Dice)
		if err != nil {
			x.Rule = "the rules cannot read the damage dice: " + err.Error()
			return
		}
		dr, err := ryf.RollDamage(d, e.Critical, faces)
		if err != nil {
			x.Rule = "the rules cannot judge these faces: " + err.Error()
			return
		}
		for i, c := range dr.Chains {
			x.Chains = append(x.Chains, Chain{Faces: c, Explosions: len(c) - 1})
			if len(c) > 1 {
				step("die %d shows %d, its maximum, and explodes %d time(s): %v", i+1, d.Sides, len(c)-1, c)
			}
		}
		step("dice sum %d %+d modifier = %d", dr.DiceSum, d.Modifier, dr.Raw)
		x.Rule = fmt.Sprintf("damage: dice %d, modifier %+d, floored at 0", dr.DiceSum, d.Modifier)
		if dr.Critical {
			x.Rule += ", doubled by the critical"
		}
		x.Rule += fmt.Sprintf(" = %d", dr.Total)
	case rolls.KindHeal:
		if len(e.Faces) == 1 {
			x.Rule = fmt.Sprintf("after-combat healing: 1d6 = %d", e.Faces[0])
		} else {
			x.Rule = fmt.Sprintf("after-combat healing is one d6, the event has %d faces", len(e.Faces))
		}
	case rolls.KindTOR:
		if len(e.Faces) == 0 {
			x.Rule = "no faces: no feat die to judge"
			return
		}
		res, err := tor.Judge(e.TN, e.Faces[0], e.Faces[1:])
		if err != nil {
			x.Rule = "the rules cannot judge these faces: " + err.Error()
			return
		}
		x.Feat = &FeatStep{Feat: res.Feat, Eye: res.Eye, Rune: res.Rune, Success: res.SuccessDice, Sixes: res.Sixes}
		switch {
		case res.Eye:
			step("feat die 11, the Eye: it counts 0")
		case res.Rune:
			step("feat die 12, the rune")
		default:
			step("feat die %d", res.Feat)
		}
		step("success dice %v: total %d", res.SuccessDice, res.Total)
		switch {
		case res.Rune:
			x.Rule = "rune on the feat die: automatic success"
		case res.Success:
			x.Rule = fmt.Sprintf("total %d reaches TN %d: success", res.Total, res.TN)
		case res.Eye:
			x.Rule = fmt.Sprintf("eye on the feat die counts 0: total %d is below TN %d: failure", res.Total, res.TN)
		default:
			x.Rule = fmt.Sprintf("total %d is below TN %d: failure", res.Total, res.TN)
		}
		if res.Success {
			x.Rule += fmt.Sprintf(", %s (%d six(es) on the success dice)", res.Describe(), res.Sixes)
		}
	default:
		res, err := ryf.Roll(rolls.CheckOf(e), faces)
		if err != nil {
			x.Rule = "the rules cannot judge this roll: " + err.Error()
			return
		}
		terms := make([]string, len(res.Check.Terms()))
		for i, t := range res.Check.Terms() {
			terms[i] = fmt.Sprintf("%s %d", t.Name, t.Value)
		}
		step("base %d = %s", res.Base, strings.Join(terms, " + "))
		step("level %s: %s", res.Level, strings.Join(res.LevelReasons, ", "))
		for i, rd := range res.Rounds {
			explodes := i < len(res.Rounds)-1
			x.Rounds = append(x.Rounds, RoundStep{Dice: rd.Dice, Kept: rd.Kept, Explodes: explodes})
			line := fmt.Sprintf("round %d: %d %d %d, level %s keeps %d", i+1, rd.Dice[0], rd.Dice[1], rd.Dice[2], res.Level, rd.Kept)
			if explodes {
				line += ": a kept 10 explodes, another round at the same level"
			}
			step("%s", line)
		}
		step("total %d = base %d + kept dice %d", res.Total, res.Base, res.DiePart)
		x.Rule = ryfRule(res)
	}
}

func ryfRule(res ryf.Result) string {
	switch {
	case res.Fumble:
		return "fumble: the first round shows three 1s, a failure whatever the total"
	case res.Natural1:
		return "natural 1: the first round keeps a 1, a failure whatever the total"
	case res.Check.Difficulty == nil:
		return fmt.Sprintf("no difficulty: the total %d is the result", res.Total)
	case res.Critical:
		return fmt.Sprintf("critical: total %d reaches difficulty %d and is %d or more", res.Total, *res.Check.Difficulty, ryf.CriticalTotal)
	case res.Success:
		return fmt.Sprintf("success: total %d reaches difficulty %d", res.Total, *res.Check.Difficulty)
	}
	return fmt.Sprintf("failure: total %d is below difficulty %d", res.Total, *res.Check.Difficulty)
}

func verdict(x Explanation, sidesErr error, haveStart bool) (string, bool) {
	rules := "the rules agree with the recorded total and outcome"
	if !x.RulesAgree {
		rules = "the rules disagree with the record: " + strings.Join(x.Diff, "; ")
	}
	switch {
	case sidesErr != nil:
		return "cannot tell which dice the roll drew (" + sidesErr.Error() + "); " + rules, false
	case x.Seed == "":
		return "seed not yet revealed: the faces cannot be re-derived yet; " + rules, false
	case x.SeedMatches != nil && !*x.SeedMatches:
		return "the seed does not match the session's commitment: nothing is proven; " + rules, false
	case x.FacesMatch == nil:
		return "the dice cannot be drawn; " + rules, false
	case !*x.FacesMatch:
		return fmt.Sprintf("MISMATCH: the seed gives faces %v, the event records %v; %s", x.Derived, x.Recorded, rules), false
	case !x.RulesAgree:
		return "the faces re-derive from the seed, but " + rules, false
	case !haveStart:
		return "the faces re-derive from the seed and " + rules + ", but the session's commitment is unknown", false
	}
	return "verified: the faces re-derive from the committed seed and " + rules, true
}

// WriteText writes the explanation for people, step by step.
func (x Explanation) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(bw, format+"\n", args...) }
	in := x.Inputs
	p("roll %s: campaign %s, session %s, nonce %d, entropy %q", x.EventID, x.Campaign, x.Session, in.Nonce, in.Entropy)
	what := x.Kind
	if in.Skill != "" {
		what += " " + in.Skill
	} else if in.Attribute != "" {
		what += " " + in.Attribute
	}
	p("  %s (%s): %s, dice %s", x.Character, x.System, what, in.Dice)
	if len(in.Terms) > 0 {
		terms := make([]string, len(in.Terms))
		for i, t := range in.Terms {
			terms[i] = fmt.Sprintf("%s %d", t.Name, t.Value)
		}
		p("  inputs: %s = base %d", strings.Join(terms, " + "), in.Base)
	}
	if in.Level != "" && len(x.Rounds) == 0 {
		p("  level %s: %s", in.Level, strings.Join(in.LevelReasons, ", "))
	}
	switch {
	case in.Difficulty != nil && in.DifficultyName != "":
		p("  difficulty %s (%d)", in.DifficultyName, *in.Difficulty)
	case in.Difficulty != nil:
		p("  difficulty %d", *in.Difficulty)
	case in.TN != 0:
		p("  target number %d", in.TN)
	}
	var flags []string
	for _, f := range []struct {
		on   bool
		name string
	}{{in.Token, "token spent"}, {in.TokenReturned, "token just returned"}, {in.Specialization, "specialization"},
		{in.Incapacitated, "incapacitated"}, {in.Critical, "critical"}} {
		if f.on {
			flags = append(flags, f.name)
		}
	}
	if in.Weapon != "" {
		flags = append(flags, "weapon "+in.Weapon)
	}
	if in.Target != "" {
		flags = append(flags, "target "+in.Target)
	}
	if len(flags) > 0 {
		p("  %s", strings.Join(flags, ", "))
	}

	if x.Commitment != "" {
		p("commitment %s (%s)", x.Commitment, x.Algorithm)
	} else {
		p("commitment unknown (no session-started event)")
	}
	switch {
	case x.Seed == "":
		p("seed not yet revealed")
	case x.SeedMatches == nil:
		p("seed %s (no commitment to compare)", x.Seed)
	case *x.SeedMatches:
		p("seed %s: SHA-256 matches the commitment", x.Seed)
	default:
		p("seed %s: does NOT match the commitment", x.Seed)
	}
	if x.V2 != nil {
		x.writeV2(p)
	} else {
		p("stream: HMAC-SHA256(seed, %q + k)", x.Message)
	}
	for _, b := range x.Blocks {
		p("  block %d = %s", b.Index, b.Hex)
	}
	if len(x.Draws) > 0 {
		p("bytes drawn:")
		for _, d := range x.Draws {
			head := fmt.Sprintf("  byte %3d (block %d, +%2d) 0x%02x = %3d  die %d d%d", d.Offset, d.Block, d.InBlock, d.Byte, d.Byte, d.Die, d.Sides)
			if d.Rejected {
				p("%s: rejected (%d ≥ %d)", head, d.Byte, d.Limit)
			} else {
				p("%s: %d mod %d + 1 = %d", head, d.Byte, d.Sides, d.Face)
			}
		}
	}
	p("faces recorded %v", x.Recorded)
	if x.Derived != nil {
		eq := "equal"
		if x.FacesMatch != nil && !*x.FacesMatch {
			eq = "DIFFERENT"
		}
		p("faces derived  %v: %s", x.Derived, eq)
	}
	for _, s := range x.Steps {
		p("  %s", s)
	}
	p("rule: %s", x.Rule)
	p("recorded: total %d, outcome %s", x.Total, x.Outcome)
	p("verdict: %s", x.Verdict)
	return bw.Flush()
}

// ExplainEvent finds roll eventID in src, with its session's started and
// ended events, and explains it with the revealed seed, or else the one
// seeds gives (keyed as Options.Seeds). The error wraps ErrNotFound when the
// event is not in src, and ErrNotRoll when it is not a roll.
func ExplainEvent(ctx context.Context, src Source, eventID string, seeds map[string]string) (Explanation, error) {
	var (
		roll     *events.Event
		started  = map[string]*events.SessionStarted{}
		revealed = map[string]string{}
		v2       = &v2Context{contributions: map[string][]V2Contribution{}, requests: map[string]events.Recorded{}}
	)
	err := src(ctx, func(r events.Recorded) error {
		ev := r.Event
		v2.note(r)
		switch {
		case ev.ID == eventID && roll == nil:
			roll = &ev
		case ev.Type == events.TypeSessionStarted:
			var d events.SessionStarted
			if k := sessionKey(ev.Campaign, ev.Session); ev.DecodeData(&d) == nil && started[k] == nil {
				started[k] = &d
			}
		case ev.Type == events.TypeSessionEnded:
			var d events.SessionEnded
			if k := sessionKey(ev.Campaign, ev.Session); ev.DecodeData(&d) == nil && revealed[k] == "" {
				revealed[k] = d.Seed
			}
		}
		return nil
	})
	if err != nil {
		return Explanation{}, err
	}
	if roll == nil {
		return Explanation{}, fmt.Errorf("%w: %s", ErrNotFound, eventID)
	}
	k := sessionKey(roll.Campaign, roll.Session)
	var seed *dice.Seed
	bad := ""
	if text, ok := revealed[k]; ok {
		if s, err := dice.ParseSeed(text); err == nil {
			seed = &s
		} else {
			bad = text
		}
	}
	if seed == nil {
		text, ok := seeds[k]
		if !ok {
			text, ok = seeds[roll.Session]
		}
		if ok {
			s, err := dice.ParseSeed(strings.TrimSpace(text))
			if err != nil {
				return Explanation{}, fmt.Errorf("%w: seed of session %s: %w", ErrInvalidOptions, strconv.Quote(roll.Session), err)
			}
			seed = &s
		}
	}
	x, err := Explain(*roll, started[k], seed)
	if err != nil {
		return x, err
	}
	if s := started[k]; s != nil && s.Algorithm == dice.AlgorithmV2 {
		explainV2(&x, *roll, s, seed, v2)
	}
	if bad != "" {
		x.Verified = false
		x.Verdict = fmt.Sprintf("the revealed seed %q is not %d hex digits; %s", clip(bad, 80), 2*dice.SeedSize, x.Verdict)
	}
	return x, nil
}
