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
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/projections"
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

	// steps, rule and verdict are Steps, Rule and Verdict as catalogue
	// messages, to write them in any language (nil when read from JSON).
	steps   []text
	rule    text
	verdict text
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
		return Explanation{}, msgerr.Errorf("%w: event %s is %s", ErrNotRoll, roll.ID, roll.Type)
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
	x.verdict, x.Verified = verdict(x, sidesErr, started != nil)
	x.Verdict = x.verdict.inL(i18n.EN)
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
	case rolls.KindHeal, rolls.KindTOR, rolls.KindFree:
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

// text is words made of catalogue messages, written in any language.
type text []message

func msg(key i18n.Key, args ...any) message { return message{key, args} }

// levelReasons are ryf's level reasons in l; one the catalogue lacks stays.
func levelReasons(l i18n.Lang, rs []string) string {
	return strings.Join(projections.LevelReasons(l, rs), ", ")
}

// termList is the terms of a roll's base as an argument that prints in
// the language of the message it is in: the rules name them in Spanish
// ("precisión Espada", "modificador"), attributes and skills stay so
// (rule names), the other words are the catalogue's.
type termList []ryf.Term

// inL writes the terms in l: "Fuerza 7 + Pelea 4 + precision Espada 0".
func (ts termList) inL(l i18n.Lang) string {
	out := make([]string, len(ts))
	for i, t := range ts {
		name := t.Name
		if rest, ok := strings.CutPrefix(name, "precisión"); ok {
			name = l.T("xt.term_precision") + rest
		} else if name == "modificador" {
			name = l.T("xt.term_modifier")
		}
		out[i] = fmt.Sprintf("%s %d", name, t.Value)
	}
	return strings.Join(out, " + ")
}

// reasonList is a list of level reasons as an argument that prints in the
// language of the message it is in (see in).
type reasonList []string

// explainRules fills Rounds, Chains, Feat, Steps and Rule from the rules
// applied to the recorded faces (Steps and Rule in English; the text
// writer writes them in any language).
func explainRules(x *Explanation, e events.RollMade) {
	defer func() {
		x.Rule = x.rule.inL(i18n.EN)
		x.Steps = make([]string, len(x.steps))
		for i, s := range x.steps {
			x.Steps[i] = s.inL(i18n.EN)
		}
	}()
	step := func(t ...message) { x.steps = append(x.steps, t) }
	rule := func(key i18n.Key, args ...any) { x.rule = append(x.rule, msg(key, args...)) }
	faces := dice.NewFaces(e.Faces...)
	if e.Hidden != "" {
		step(msg("xr.revealed", e.Hidden))
	}
	switch e.Kind {
	case rolls.KindFree:
		rule("xr.free", e.Dice, e.Faces, e.Total)
	case rolls.KindDamage:
		d, err := ryf.ParseDamage(e.Dice)
		if err != nil {
			rule("xr.damage_unreadable", err.Error())
			return
		}
		dr, err := ryf.RollDamage(d, e.Critical, faces)
		if err != nil {
			rule("xr.cannot_judge_faces", err.Error())
			return
		}
		for i, c := range dr.Chains {
			x.Chains = append(x.Chains, Chain{Faces: c, Explosions: len(c) - 1})
			if len(c) > 1 {
				step(msg(i18n.Key(pick(len(c)-1, "xr.explodes.one", "xr.explodes.many")), i+1, d.Sides, len(c)-1, c))
			}
		}
		step(msg("xr.dice_sum", dr.DiceSum, d.Modifier, dr.Raw))
		rule("xr.damage", dr.DiceSum, d.Modifier)
		if dr.Critical {
			rule("xr.doubled")
		}
		rule("xr.equals", dr.Total)
	case rolls.KindHeal:
		if len(e.Faces) == 1 {
			rule("xr.heal", e.Faces[0])
		} else {
			rule("xr.heal_faces", len(e.Faces))
		}
	case rolls.KindTOR:
		if len(e.Faces) == 0 {
			rule("xr.no_feat")
			return
		}
		res, err := tor.Judge(e.TN, e.Faces[0], e.Faces[1:])
		if err != nil {
			rule("xr.cannot_judge_faces", err.Error())
			return
		}
		x.Feat = &FeatStep{Feat: res.Feat, Eye: res.Eye, Rune: res.Rune, Success: res.SuccessDice, Sixes: res.Sixes}
		switch {
		case res.Eye:
			step(msg("xr.feat_eye"))
		case res.Rune:
			step(msg("xr.feat_rune"))
		default:
			step(msg("xr.feat", res.Feat))
		}
		step(msg("xr.success_dice", res.SuccessDice, res.Total))
		switch {
		case res.Rune:
			rule("xr.rune")
		case res.Success:
			rule("xr.tor_success", res.Total, res.TN)
		case res.Eye:
			rule("xr.tor_eye", res.Total, res.TN)
		default:
			rule("xr.tor_failure", res.Total, res.TN)
		}
		if res.Success {
			q := "tor.success"
			switch res.Quality {
			case tor.QualityGreat:
				q = "tor.great"
			case tor.QualityExtraordinary:
				q = "tor.extraordinary"
			}
			rule("xr.comma")
			rule(i18n.Key(q))
			rule(i18n.Key(pick(res.Sixes, "xr.sixes.one", "xr.sixes.many")), res.Sixes)
		}
	default:
		res, err := ryf.Roll(rolls.CheckOf(e), faces)
		if err != nil {
			rule("xr.cannot_judge", err.Error())
			return
		}
		step(msg("xr.base", res.Base, termList(res.Check.Terms())))
		step(msg("xr.level", levelName(res.Level.String())), message{key: "xr.reasons", args: []any{reasonList(res.LevelReasons)}})
		for i, rd := range res.Rounds {
			explodes := i < len(res.Rounds)-1
			x.Rounds = append(x.Rounds, RoundStep{Dice: rd.Dice, Kept: rd.Kept, Explodes: explodes})
			line := text{msg("xr.round", i+1, rd.Dice[0], rd.Dice[1], rd.Dice[2]), msg("xr.keeps", levelName(res.Level.String()), rd.Kept)}
			if explodes {
				line = append(line, msg("xr.explodes_round"))
			}
			step(line...)
		}
		step(msg("xr.total", res.Total, res.Base, res.DiePart))
		x.rule = ryfRule(res)
	}
}

// pick is one when n is 1, many otherwise.
func pick(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// levelName is a kept die's level as an argument that prints in the
// language of its message.
type levelName string

func ryfRule(res ryf.Result) text {
	switch {
	case res.Fumble:
		return text{msg("xr.fumble")}
	case res.Natural1:
		return text{msg("xr.natural1")}
	case res.Check.Difficulty == nil:
		return text{msg("xr.no_difficulty", res.Total)}
	case res.Critical:
		return text{msg("xr.critical", res.Total, *res.Check.Difficulty, ryf.CriticalTotal)}
	case res.Success:
		return text{msg("xr.success", res.Total, *res.Check.Difficulty)}
	}
	return text{msg("xr.failure", res.Total, *res.Check.Difficulty)}
}

func verdict(x Explanation, sidesErr error, haveStart bool) (text, bool) {
	rules := msg("xv.rules_agree")
	if !x.RulesAgree {
		rules = msg("xv.rules_disagree", strings.Join(x.Diff, "; "))
	}
	switch {
	case sidesErr != nil:
		return text{msg("xv.which_dice", sidesErr.Error()), rules}, false
	case x.Seed == "":
		return text{msg("xv.unrevealed"), rules}, false
	case x.SeedMatches != nil && !*x.SeedMatches:
		return text{msg("xv.seed_mismatch"), rules}, false
	case x.FacesMatch == nil:
		return text{msg("xv.cannot_draw"), rules}, false
	case !*x.FacesMatch:
		return text{msg("xv.faces_mismatch", x.Derived, x.Recorded), rules}, false
	case !x.RulesAgree:
		return text{msg("xv.faces_but"), rules}, false
	case !haveStart:
		return text{msg("xv.faces_and"), rules, msg("xv.no_commitment")}, false
	}
	return text{msg("xv.verified"), rules}, true
}

// WriteText writes the explanation in English (WriteTextIn).
func (x Explanation) WriteText(w io.Writer) error { return x.WriteTextIn(w, i18n.EN) }

// WriteTextIn writes the explanation for people, in l: the inputs, the
// commitment and seed, the bytes drawn, the faces, the rules applied and
// the verdict. An explanation read back from JSON writes its steps, rule
// and verdict as they were recorded.
func (x Explanation) WriteTextIn(w io.Writer, l i18n.Lang) error {
	bw := bufio.NewWriter(w)
	p := func(s string) { fmt.Fprintln(bw, s) }
	in := x.Inputs
	p(l.T("xt.roll", x.EventID, x.Campaign, x.Session, in.Nonce, in.Entropy))
	what := orCode(l, "xkind.", x.Kind)
	if in.Skill != "" {
		what += " " + in.Skill
	} else if in.Attribute != "" {
		what += " " + in.Attribute
	}
	p("  " + l.T("xt.who", x.Character, x.System, what, in.Dice))
	if len(in.Terms) > 0 {
		p("  " + l.T("xt.inputs", termList(in.Terms).inL(l), in.Base))
	}
	if in.Level != "" && len(x.Rounds) == 0 {
		p("  " + l.T("xt.level", orCode(l, "level.", in.Level), levelReasons(l, in.LevelReasons)))
	}
	switch {
	case in.Difficulty != nil && in.DifficultyName != "":
		p("  " + l.T("xt.difficulty_named", in.DifficultyName, *in.Difficulty))
	case in.Difficulty != nil:
		p("  " + l.T("xt.difficulty", *in.Difficulty))
	case in.TN != 0:
		p("  " + l.T("xt.tn", in.TN))
	}
	var flags []string
	for _, f := range []struct {
		on  bool
		key i18n.Key
	}{{in.Token, "xt.token_spent"}, {in.TokenReturned, "xt.token_returned"}, {in.Specialization, "reason.specialization"},
		{in.Incapacitated, "status.incapacitated"}, {in.Critical, "odds.critical"}} {
		if f.on {
			flags = append(flags, l.T(f.key))
		}
	}
	if in.Weapon != "" {
		flags = append(flags, l.T("xt.weapon", in.Weapon))
	}
	if in.Target != "" {
		flags = append(flags, l.T("xt.target", in.Target))
	}
	if len(flags) > 0 {
		p("  " + strings.Join(flags, ", "))
	}

	if x.Commitment != "" {
		p(l.T("xt.commitment", x.Commitment, x.Algorithm))
	} else {
		p(l.T("xt.no_commitment"))
	}
	switch {
	case x.Seed == "":
		p(l.T("xt.seed_unrevealed"))
	case x.SeedMatches == nil:
		p(l.T("xt.seed_nothing", x.Seed))
	case *x.SeedMatches:
		p(l.T("xt.seed_matches", x.Seed))
	default:
		p(l.T("xt.seed_differs", x.Seed))
	}
	if x.V2 != nil {
		x.writeV2(l, p)
	} else {
		p(l.T("xt.stream", x.Message))
	}
	for _, b := range x.Blocks {
		p("  " + l.T("xt.block", b.Index, b.Hex))
	}
	if len(x.Draws) > 0 {
		p(l.T("xt.bytes"))
		for _, d := range x.Draws {
			head := "  " + l.T("xt.byte", d.Offset, d.Block, d.InBlock, d.Byte, d.Byte, d.Die, d.Sides)
			if d.Rejected {
				p(head + l.T("xt.rejected", d.Byte, d.Limit))
			} else {
				p(head + fmt.Sprintf(": %d mod %d + 1 = %d", d.Byte, d.Sides, d.Face))
			}
		}
	}
	p(l.T("xt.faces_recorded", x.Recorded))
	if x.Derived != nil {
		eq := l.T("xt.equal")
		if x.FacesMatch != nil && !*x.FacesMatch {
			eq = l.T("xt.different")
		}
		p(l.T("xt.faces_derived", x.Derived, eq))
	}
	if x.steps != nil {
		for _, s := range x.steps {
			p("  " + s.inL(l))
		}
	} else {
		for _, s := range x.Steps {
			p("  " + s)
		}
	}
	rule, verdict := x.Rule, x.Verdict
	if x.rule != nil {
		rule = x.rule.inL(l)
	}
	if x.verdict != nil {
		verdict = x.verdict.inL(l)
	}
	p(l.T("xt.rule", rule))
	p(l.T("xt.recorded", x.Total, orCode(l, "xo.", x.Outcome)))
	p(l.T("xt.verdict", verdict))
	return bw.Flush()
}

// inL writes t in l, its level names and reason lists in l too.
func (t text) inL(l i18n.Lang) string {
	var b strings.Builder
	for _, m := range t {
		args := make([]any, len(m.args))
		for i, a := range m.args {
			switch a := a.(type) {
			case levelName:
				args[i] = orCode(l, "level.", string(a))
			case reasonList:
				args[i] = levelReasons(l, a)
			case termList:
				args[i] = a.inL(l)
			default:
				args[i] = a
			}
		}
		b.WriteString(l.T(m.key, args...))
	}
	return b.String()
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
	err := src(ctx, EventsOnly(func(r events.Recorded) error {
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
	}))
	if err != nil {
		return Explanation{}, err
	}
	if roll == nil {
		return Explanation{}, msgerr.Errorf("%w: %s", ErrNotFound, eventID)
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
				return Explanation{}, msgerr.Errorf("%w: seed of session %s: %w", ErrInvalidOptions, strconv.Quote(roll.Session), err)
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
		x.verdict = append(text{msg("xv.seed_hex", clip(bad, 80), 2*dice.SeedSize)}, x.verdict...)
		x.Verdict = x.verdict.inL(i18n.EN)
	}
	return x, nil
}
