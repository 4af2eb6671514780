package replay

import (
	"bufio"
	"cmp"
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/rolls"
	"github.com/campaign-journal/journal/rules/odds"
	"github.com/campaign-journal/journal/rules/ryf"
	"github.com/campaign-journal/journal/rules/tor"
)

// LuckFilter selects the events luck statistics are computed over; empty
// fields select everything.
type LuckFilter struct {
	Campaign  string `json:"campaign,omitempty"`
	Session   string `json:"session,omitempty"`
	Character string `json:"character,omitempty"`
	// Player keeps the characters whose character-created event (RyF or
	// TOR) names this player.
	Player string `json:"player,omitempty"`
}

// Distribution compares the faces observed on one kind of die with the
// exact distribution a fair die gives.
type Distribution struct {
	// Name is "d10", "kept d10 low", "kept d10 mid", "kept d10 high",
	// "d12", "d6" or "dN" for other dice.
	Name  string `json:"name"`
	Sides int    `json:"sides"`
	// Level is the level of a kept-die distribution.
	Level string `json:"level,omitempty"`
	N     int    `json:"n"`
	// Observed[f-1], Expected[f-1] and Probs[f-1] are for face f: the count
	// seen, the count expected (N·p) and the exact probability p.
	Observed []int     `json:"observed"`
	Expected []float64 `json:"expected"`
	Probs    []float64 `json:"probs"`
	// Fit is Pearson's chi-square test of Observed against Probs (with its
	// statistic, degrees of freedom and p-value); nil with no observations.
	Fit *odds.ChiSquareResult `json:"fit,omitempty"`
	// Feat: every die of this d12 distribution is a One Ring feat die, whose
	// face 11 is the Eye of Sauron and 12 the rune (docs/rules.md).
	Feat bool `json:"feat,omitempty"`
}

// MinChartPerFace is how many dice per face, on average, a distribution
// needs before its chart is drawn: below it the bars are noise (and
// Pearson's test, which wants about 5 expected per face, is rough).
const MinChartPerFace = 5

// Charted reports whether the distribution has enough dice for a chart.
func (d Distribution) Charted() bool { return d.N >= MinChartPerFace*d.Sides }

// CharacterLuck sums up one character's rolls and damage.
type CharacterLuck struct {
	Campaign  string `json:"campaign"`
	Character string `json:"character"`
	Player    string `json:"player,omitempty"`
	// Rolls counts the character's roll events of every kind, voided ones left out.
	Rolls     int `json:"rolls"`
	Successes int `json:"successes"`
	Failures  int `json:"failures"`
	Criticals int `json:"criticals"`
	Fumbles   int `json:"fumbles"`
	Natural1s int `json:"natural1s"`
	// Eyes and Runes count One Ring feat dice.
	Eyes  int `json:"eyes,omitempty"`
	Runes int `json:"runes,omitempty"`
	// DamageDealt and DamageTaken sum journal.damage.taken.v1 amounts by
	// Source and by Character.
	DamageDealt int `json:"damage_dealt"`
	DamageTaken int `json:"damage_taken"`
	// System is the system of the character's rolls ("tor" for The One Ring).
	System string `json:"system,omitempty"`
	// Luck is the character's luck figure; nil without a roll that counts.
	Luck *LuckFigure `json:"luck,omitempty"`

	dice luckDice
}

// LuckReport is the luck statistics of a selection of events: data for
// dashboards.
type LuckReport struct {
	Filter LuckFilter `json:"filter"`
	// Rolls counts the roll events whose faces were counted; Voided those
	// among them that were voided (their dice were thrown, so their faces
	// count, but they count for nobody's successes).
	Rolls  int `json:"rolls"`
	Voided int `json:"voided"`
	// Skipped counts roll events whose dice could not be read.
	Skipped       int             `json:"skipped"`
	Distributions []Distribution  `json:"distributions"`
	Characters    []CharacterLuck `json:"characters"`
}

// Luck computes luck statistics over src with two passes: the first learns
// the characters' players and the voided events, the second counts.
func Luck(ctx context.Context, src Source, f LuckFilter) (LuckReport, error) {
	l := NewLuckCounter(f)
	// Scan reads character creations and voids only: a JSON Lines source
	// skips the other lines of the first pass without decoding them.
	// A message that is not an event is skipped, a line of an export that
	// is not one ends the passes (EventsOnly).
	src = onlyEvents(src)
	scan := withPassTypes(ctx, events.TypeCharacterCreated, events.TypeTORCharacterCreated, events.TypeEventVoided)
	if err := src(scan, func(in Input) error { l.Scan(in.Recorded); return nil }); err != nil {
		return LuckReport{}, err
	}
	if err := pipe(ctx, src, func(in Input) { l.Add(in.Recorded) }); err != nil {
		return LuckReport{}, err
	}
	return l.Report(), nil
}

// onlyEvents is src without the messages that are not events, a line of
// an export that is not one ending the read (EventsOnly).
func onlyEvents(src Source) Source {
	return func(ctx context.Context, fn func(Input) error) error {
		return src(ctx, EventsOnly(func(r events.Recorded) error { return fn(Input{Recorded: r}) }))
	}
}

// LuckCounter counts faces and results event by event, keeping counts
// only. Like Verifier it is used in two passes: Scan every event, then Add
// every event. Without Scan, players are known from the character-created
// events seen so far and voids only for events that come after them.
type LuckCounter struct {
	f       LuckFilter
	players map[string]string // campaign/character → player
	voided  map[idKey]bool
	faces   map[int][]int // sides → counts by face
	kept    [3][10]int    // low, mid, high → counts by face
	feat    int           // d12 faces that are One Ring feat dice
	chars   map[string]*CharacterLuck
	rolls   int
	nvoided int
	skipped int
}

// NewLuckCounter returns an empty counter for the filter.
func NewLuckCounter(f LuckFilter) *LuckCounter {
	return &LuckCounter{
		f: f, players: map[string]string{}, voided: map[idKey]bool{},
		faces: map[int][]int{}, chars: map[string]*CharacterLuck{},
	}
}

// Scan is the first pass: it learns players and voids.
func (l *LuckCounter) Scan(rec events.Recorded) {
	ev := rec.Event
	if l.f.Campaign != "" && ev.Campaign != l.f.Campaign {
		return
	}
	switch ev.Type {
	case events.TypeCharacterCreated:
		var d events.CharacterCreated
		if _, id, err := ev.Aggregate(); err == nil && ev.DecodeData(&d) == nil {
			l.players[sessionKey(ev.Campaign, id)] = d.Player
		}
	case events.TypeTORCharacterCreated:
		var d events.TORCharacterCreated
		if _, id, err := ev.Aggregate(); err == nil && ev.DecodeData(&d) == nil {
			l.players[sessionKey(ev.Campaign, id)] = d.Player
		}
	case events.TypeEventVoided:
		var d events.EventVoided
		if ev.DecodeData(&d) == nil {
			l.voided[keyOf(d.EventID)] = true
		}
	}
}

// wants reports whether the filter keeps a character's events.
func (l *LuckCounter) wants(campaign, character string) bool {
	if character == "" {
		return false
	}
	if l.f.Character != "" && character != l.f.Character {
		return false
	}
	return l.f.Player == "" || strings.EqualFold(l.players[sessionKey(campaign, character)], l.f.Player)
}

func (l *LuckCounter) char(campaign, id string) *CharacterLuck {
	k := sessionKey(campaign, id)
	c := l.chars[k]
	if c == nil {
		c = &CharacterLuck{Campaign: campaign, Character: id}
		l.chars[k] = c
	}
	c.Player = l.players[k]
	return c
}

// Add is the second pass: it counts one event.
func (l *LuckCounter) Add(rec events.Recorded) {
	ev := rec.Event
	if l.f.Campaign != "" && ev.Campaign != l.f.Campaign {
		return
	}
	switch ev.Type {
	case events.TypeCharacterCreated, events.TypeTORCharacterCreated, events.TypeEventVoided:
		l.Scan(rec)
		return
	case events.TypeRollMade, events.TypeDamageTaken:
	default:
		return
	}
	if l.f.Session != "" && ev.Session != l.f.Session {
		return
	}
	data, err := ev.Payload()
	if err != nil {
		if ev.Type == events.TypeRollMade {
			l.skipped++
		}
		return
	}
	voided := l.voided[keyOf(ev.ID)]
	switch d := data.(type) {
	case *events.DamageTaken:
		if voided {
			return
		}
		if l.wants(ev.Campaign, d.Character) {
			l.char(ev.Campaign, d.Character).DamageTaken += d.Amount
		}
		if l.wants(ev.Campaign, d.Source) {
			l.char(ev.Campaign, d.Source).DamageDealt += d.Amount
		}
	case *events.RollMade:
		if l.wants(ev.Campaign, d.Character) {
			l.roll(ev, d, voided)
		}
	}
}

func (l *LuckCounter) roll(ev events.Event, d *events.RollMade, voided bool) {
	sides, err := rolls.Dice(*d)
	if err != nil || len(sides) != len(d.Faces) {
		l.skipped++
		return
	}
	for i, n := range sides {
		if n < 2 || n > 256 || d.Faces[i] < 1 || d.Faces[i] > n {
			l.skipped++
			return
		}
	}
	l.rolls++
	for i, n := range sides {
		c := l.faces[n]
		if c == nil {
			c = make([]int, n)
			l.faces[n] = c
		}
		c[d.Faces[i]-1]++
	}
	ryfRoll := d.Kind != rolls.KindDamage && d.Kind != rolls.KindHeal && d.Kind != rolls.KindTOR
	var lv ryf.Level
	levelOK := ryfRoll && lv.UnmarshalText([]byte(d.Level)) == nil
	if levelOK {
		for _, k := range d.Kept {
			if k >= 1 && k <= 10 {
				l.kept[lv][k-1]++
			}
		}
	}
	if d.Kind == rolls.KindTOR && len(sides) > 0 && sides[0] == 12 {
		l.feat++
	}
	if voided {
		l.nvoided++
		return
	}
	c := l.char(ev.Campaign, d.Character)
	c.Rolls++
	if d.System != "" {
		c.System = d.System
	}
	switch {
	case d.Kind == rolls.KindTOR && len(sides) > 0 && sides[0] == 12:
		c.dice.addTOR(d.Faces)
	case levelOK && len(d.Kept) > 0 && d.Kept[0] >= 1 && d.Kept[0] <= 10:
		c.dice.addKept(int(lv), d.Kept[0])
	}
	switch d.Kind {
	case rolls.KindDamage, rolls.KindHeal:
		return
	}
	switch d.Outcome {
	case "success", "critical":
		c.Successes++
	case "failure", "fumble", "natural1":
		c.Failures++
	}
	if d.Critical {
		c.Criticals++
	}
	if d.Fumble {
		c.Fumbles++
	}
	if d.Natural1 {
		c.Natural1s++
	}
	if d.Eye {
		c.Eyes++
	}
	if d.Rune {
		c.Runes++
	}
}

// Report returns the statistics counted so far.
func (l *LuckCounter) Report() LuckReport {
	r := LuckReport{Filter: l.f, Rolls: l.rolls, Voided: l.nvoided, Skipped: l.skipped}
	dist := func(name string, sides int, level string, observed []int, probs []float64) {
		d := Distribution{Name: name, Sides: sides, Level: level, Observed: slices.Clone(observed), Probs: probs}
		if d.Observed == nil {
			d.Observed = make([]int, sides)
		}
		for _, o := range d.Observed {
			d.N += o
		}
		d.Expected = make([]float64, len(probs))
		for i, p := range probs {
			d.Expected[i] = float64(d.N) * p
		}
		if d.N > 0 {
			if fit, err := odds.ChiSquare(d.Observed, probs); err == nil && !math.IsInf(fit.Stat, 0) {
				d.Fit = &fit
			}
		}
		r.Distributions = append(r.Distributions, d)
	}
	uniform := func(name string, sides int) {
		p, err := odds.Uniform(sides)
		if err == nil {
			dist(name, sides, "", l.faces[sides], p)
		}
	}
	uniform("d10", 10)
	for lv, ol := range []odds.Level{odds.Low, odds.Mid, odds.High} {
		p, err := odds.KeptProbs(ol)
		if err == nil {
			dist("kept d10 "+ol.String(), 10, ol.String(), l.kept[lv][:], p)
		}
	}
	uniform("d12", 12)
	if d12 := &r.Distributions[len(r.Distributions)-1]; d12.Sides == 12 && d12.N > 0 && d12.N == l.feat {
		d12.Feat = true
	}
	uniform("d6", 6)
	others := make([]int, 0, len(l.faces))
	for n := range l.faces {
		if n != 6 && n != 10 && n != 12 {
			others = append(others, n)
		}
	}
	slices.Sort(others)
	for _, n := range others {
		uniform(fmt.Sprintf("d%d", n), n)
	}
	for _, c := range l.chars {
		cl := *c
		cl.Luck = c.dice.figure()
		r.Characters = append(r.Characters, cl)
	}
	slices.SortFunc(r.Characters, func(a, b CharacterLuck) int {
		return cmp.Or(cmp.Compare(a.Campaign, b.Campaign), cmp.Compare(a.Character, b.Character))
	})
	if r.Characters == nil {
		r.Characters = []CharacterLuck{}
	}
	return r
}

// histogramWidth is the width of a histogram bar at the largest count.
const histogramWidth = 40

// WriteText writes the statistics in English; see WriteTextIn.
func (r LuckReport) WriteText(w io.Writer) error { return r.WriteTextIn(w, i18n.EN) }

// WriteTextIn writes the statistics compactly in l: a legend; per
// distribution a line with the fit and, from MinChartPerFace dice per
// face, a histogram with one row per face, a bar of '#' for the observed
// count and a '|' where the expected count falls (One Ring feat dice name
// faces 11 and 12 the Eye and the rune); then a table of the characters
// with their luck figure, with The One Ring's columns for its characters.
func (r LuckReport) WriteTextIn(w io.Writer, l i18n.Lang) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, l.N("stats.head", r.Rolls, r.Voided, r.Skipped, r.Filter.describe(l)))
	charted := false
	for _, d := range r.Distributions {
		charted = charted || (d.N > 0 && d.Charted())
	}
	if charted {
		fmt.Fprintln(bw, l.T("stats.legend"))
	}
	for _, d := range r.Distributions {
		if d.N == 0 {
			continue
		}
		fmt.Fprintf(bw, "%s: n=%d", d.title(l), d.N)
		if d.Fit != nil {
			fmt.Fprintf(bw, "  chi²=%.2f df=%d p=%.3f", d.Fit.Stat, d.Fit.DF, d.Fit.PValue)
			if d.Fit.MinExpected < 5 {
				fmt.Fprint(bw, l.T("stats.rough"))
			}
		}
		fmt.Fprintln(bw)
		if !d.Charted() {
			fmt.Fprintln(bw, l.T("stats.too_few", MinChartPerFace*d.Sides, MinChartPerFace, d.N))
			continue
		}
		top := 0.0
		for i := range d.Observed {
			top = max(top, float64(d.Observed[i]), d.Expected[i])
		}
		labels := make([]string, len(d.Observed))
		width := 0
		for i := range labels {
			labels[i] = fmt.Sprint(i + 1)
			if d.Feat && i+1 == tor.EyeFace {
				labels[i] = l.T("stats.eye")
			} else if d.Feat && i+1 == tor.RuneFace {
				labels[i] = l.T("stats.rune")
			}
			width = max(width, i18n.Width(labels[i]))
		}
		for i := range d.Observed {
			pad := strings.Repeat(" ", width-i18n.Width(labels[i]))
			fmt.Fprintf(bw, "  %s%s %s %6d  %s %8.1f\n", pad, labels[i], bar(float64(d.Observed[i]), d.Expected[i], top), d.Observed[i], l.T("stats.expected"), d.Expected[i])
		}
	}
	if len(r.Characters) > 0 {
		writeCharacters(bw, l, r.Characters)
	}
	return bw.Flush()
}

// title names a distribution in l.
func (d Distribution) title(l i18n.Lang) string {
	switch {
	case d.Level != "":
		return l.T("stats.dist.kept", l.T(i18n.Key("level."+d.Level)))
	case d.Feat:
		return l.T("stats.dist.feat")
	}
	return d.Name
}

// writeCharacters writes the characters' table: the RyF columns, The One
// Ring's, or both when the report has characters of both.
func writeCharacters(w io.Writer, l i18n.Lang, cs []CharacterLuck) {
	hasTOR, hasRyF := false, false
	for _, c := range cs {
		if c.System == events.SystemTOR {
			hasTOR = true
		} else {
			hasRyF = true
		}
	}
	head := []string{l.T("col.character"), l.T("col.player"), l.T("col.rolls"), l.T("col.succ"), l.T("col.fail")}
	if hasRyF {
		head = append(head, l.T("col.crit"), l.T("col.fumble"), l.T("col.nat1"))
	}
	if hasTOR {
		head = append(head, l.T("col.eyes"), l.T("col.runes"))
	}
	head = append(head, l.T("col.dealt"), l.T("col.dmg_taken"), l.T("col.luck"))
	rows := [][]string{head}
	for _, c := range cs {
		row := []string{c.Character, c.Player, fmt.Sprint(c.Rolls), fmt.Sprint(c.Successes), fmt.Sprint(c.Failures)}
		if hasRyF {
			row = append(row, fmt.Sprint(c.Criticals), fmt.Sprint(c.Fumbles), fmt.Sprint(c.Natural1s))
		}
		if hasTOR {
			row = append(row, fmt.Sprint(c.Eyes), fmt.Sprint(c.Runes))
		}
		luck := l.T("stats.luck_none")
		if c.Luck != nil {
			luck = l.T("stats.luck_figure", c.Luck.Percentile)
		}
		rows = append(rows, append(row, fmt.Sprint(c.DamageDealt), fmt.Sprint(c.DamageTaken), luck))
	}
	widths := make([]int, len(head))
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], i18n.Width(c))
		}
	}
	for _, r := range rows {
		var b strings.Builder
		for i, c := range r {
			pad := strings.Repeat(" ", widths[i]-i18n.Width(c))
			switch {
			case i == 0:
				b.WriteString(c + pad)
			case i == 1 || i == len(r)-1:
				b.WriteString("  " + c + pad)
			default:
				b.WriteString("  " + pad + c)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
	fmt.Fprintln(w, l.T("stats.luck_note"))
}

// bar draws observed as '#' and marks expected with '|', scaled so that top
// fills histogramWidth.
func bar(observed, expected, top float64) string {
	row := []byte(strings.Repeat(" ", histogramWidth+1))
	if top <= 0 {
		return string(row)
	}
	n := int(math.Round(observed / top * histogramWidth))
	for i := 0; i < n && i < len(row); i++ {
		row[i] = '#'
	}
	if m := int(math.Round(expected / top * histogramWidth)); m >= 0 && m < len(row) {
		row[m] = '|'
	}
	return string(row)
}

func (f LuckFilter) describe(l i18n.Lang) string {
	var parts []string
	for _, p := range []struct {
		key i18n.Key
		v   string
	}{
		{"stats.f_campaign", f.Campaign}, {"stats.f_session", f.Session}, {"stats.f_character", f.Character}, {"stats.f_player", f.Player},
	} {
		if p.v != "" {
			parts = append(parts, l.T(p.key, p.v))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return l.T("stats.filter", strings.Join(parts, ", "))
}

// LuckState is what a LuckCounter has counted, to be saved and restored
// (RestoreLuckCounter): a counter restored from the state of another fed
// events e1…ek, then fed ek+1…en, counts what that one fed e1…en counts.
// It holds counts only: its size is about the characters and dice kinds
// seen, the players and the voids, not the events counted.
type LuckState struct {
	Filter LuckFilter `json:"filter"`
	// Players maps "campaign/character" to the player named at creation.
	Players map[string]string `json:"players,omitempty"`
	// Voided are the keys of the voided events known (hex).
	Voided []string `json:"voided,omitempty"`
	// Faces maps a die's sides to its counts by face (len = sides).
	Faces map[int][]int `json:"faces,omitempty"`
	Kept  [3][10]int    `json:"kept"`
	Feat  int           `json:"feat,omitempty"`
	// Characters are the characters counted, by campaign and id.
	Characters []CharacterState `json:"characters,omitempty"`
	Rolls      int              `json:"rolls"`
	Voids      int              `json:"voids"`
	Skipped    int              `json:"skipped"`
}

// CharacterState is one character of a LuckState: its counts and the dice
// its luck figure sums.
type CharacterState struct {
	CharacterLuck
	Kept    [3]int `json:"kept_dice"`
	FeatDie int    `json:"feat_dice,omitempty"`
	Success int    `json:"success_dice,omitempty"`
	Sum     int    `json:"dice_sum"`
}

// State returns what the counter has counted (a copy: the counter may
// go on).
func (l *LuckCounter) State() LuckState {
	s := LuckState{Filter: l.f, Players: maps.Clone(l.players), Faces: map[int][]int{}, Kept: l.kept, Feat: l.feat,
		Rolls: l.rolls, Voids: l.nvoided, Skipped: l.skipped}
	for k := range l.voided {
		s.Voided = append(s.Voided, hex.EncodeToString(k[:]))
	}
	slices.Sort(s.Voided)
	for n, c := range l.faces {
		s.Faces[n] = slices.Clone(c)
	}
	for _, c := range l.chars {
		cl := *c
		cl.Luck, cl.dice = nil, luckDice{}
		s.Characters = append(s.Characters, CharacterState{CharacterLuck: cl, Kept: c.dice.kept,
			FeatDie: c.dice.feat, Success: c.dice.success, Sum: c.dice.sum})
	}
	slices.SortFunc(s.Characters, func(a, b CharacterState) int {
		return cmp.Or(cmp.Compare(a.Campaign, b.Campaign), cmp.Compare(a.Character, b.Character))
	})
	return s
}

// errNotLuckState is RestoreLuckCounter's error.
var errNotLuckState = msgerr.New("luck state: not the state of a luck counter")

// RestoreLuckCounter returns a counter that has counted what s says. A
// state that no counter could have (a die of impossible sides, a count
// below zero, a void key that is not one, a character twice) is an error:
// a restored counter never panics on the events fed after it, but a state
// that is merely edited (other counts) is counted on from as it is.
func RestoreLuckCounter(s LuckState) (*LuckCounter, error) {
	l := NewLuckCounter(s.Filter)
	neg := func(ns ...int) bool { return slices.ContainsFunc(ns, func(n int) bool { return n < 0 }) }
	if neg(s.Feat, s.Rolls, s.Voids, s.Skipped) {
		return nil, errNotLuckState
	}
	maps.Copy(l.players, s.Players)
	for _, v := range s.Voided {
		var k idKey
		b, err := hex.DecodeString(v)
		if err != nil || len(b) != len(k) {
			return nil, errNotLuckState
		}
		copy(k[:], b)
		l.voided[k] = true
	}
	for n, c := range s.Faces {
		if n < 2 || n > 256 || len(c) != n || neg(c...) {
			return nil, errNotLuckState
		}
		l.faces[n] = slices.Clone(c)
	}
	for _, row := range s.Kept {
		if neg(row[:]...) {
			return nil, errNotLuckState
		}
	}
	l.kept, l.feat, l.rolls, l.nvoided, l.skipped = s.Kept, s.Feat, s.Rolls, s.Voids, s.Skipped
	for _, c := range s.Characters {
		k := sessionKey(c.Campaign, c.Character)
		if c.Character == "" || l.chars[k] != nil {
			return nil, errNotLuckState
		}
		if neg(c.Kept[0], c.Kept[1], c.Kept[2], c.FeatDie, c.Success) {
			return nil, errNotLuckState
		}
		cl := c.CharacterLuck
		cl.Luck = nil
		cl.dice = luckDice{kept: c.Kept, feat: c.FeatDie, success: c.Success, sum: c.Sum}
		l.chars[k] = &cl
	}
	return l, nil
}
