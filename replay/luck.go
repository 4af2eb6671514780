package replay

import (
	"bufio"
	"cmp"
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/rolls"
	"github.com/campaign-journal/journal/rules/odds"
	"github.com/campaign-journal/journal/rules/ryf"
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
}

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
	scan := withPassTypes(ctx, events.TypeCharacterCreated, events.TypeTORCharacterCreated, events.TypeEventVoided)
	if err := src(scan, func(r events.Recorded) error { l.Scan(r); return nil }); err != nil {
		return LuckReport{}, err
	}
	if err := pipe(ctx, src, l.Add); err != nil {
		return LuckReport{}, err
	}
	return l.Report(), nil
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
	return l.f.Player == "" || l.players[sessionKey(campaign, character)] == l.f.Player
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
	if ryfRoll {
		var lv ryf.Level
		if lv.UnmarshalText([]byte(d.Level)) == nil {
			for _, k := range d.Kept {
				if k >= 1 && k <= 10 {
					l.kept[lv][k-1]++
				}
			}
		}
	}
	if voided {
		l.nvoided++
		return
	}
	c := l.char(ev.Campaign, d.Character)
	c.Rolls++
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
		r.Characters = append(r.Characters, *c)
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

// WriteText writes the statistics compactly: per distribution a line with
// the fit and a histogram, one row per face with a bar of '#' for the
// observed count and a '|' where the expected count falls; then a table of
// the characters.
func (r LuckReport) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "luck: %d rolls (%d voided, %d unreadable)%s\n", r.Rolls, r.Voided, r.Skipped, r.Filter.describe())
	for _, d := range r.Distributions {
		if d.N == 0 {
			continue
		}
		fmt.Fprintf(bw, "%s: n=%d", d.Name, d.N)
		if d.Fit != nil {
			fmt.Fprintf(bw, "  chi²=%.2f df=%d p=%.3f", d.Fit.Stat, d.Fit.DF, d.Fit.PValue)
			if d.Fit.MinExpected < 5 {
				fmt.Fprint(bw, " (few observations: the test is rough)")
			}
		}
		fmt.Fprintln(bw)
		top := 0.0
		for i := range d.Observed {
			top = max(top, float64(d.Observed[i]), d.Expected[i])
		}
		for i := range d.Observed {
			fmt.Fprintf(bw, "  %3d %s %6d  exp %8.1f\n", i+1, bar(float64(d.Observed[i]), d.Expected[i], top), d.Observed[i], d.Expected[i])
		}
	}
	if len(r.Characters) > 0 {
		fmt.Fprintf(bw, "%-16s %-12s %6s %6s %6s %5s %6s %5s %6s %6s\n",
			"character", "player", "rolls", "succ", "fail", "crit", "fumble", "nat1", "dealt", "taken")
		for _, c := range r.Characters {
			fmt.Fprintf(bw, "%-16s %-12s %6d %6d %6d %5d %6d %5d %6d %6d\n",
				c.Character, c.Player, c.Rolls, c.Successes, c.Failures, c.Criticals, c.Fumbles, c.Natural1s, c.DamageDealt, c.DamageTaken)
		}
	}
	return bw.Flush()
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

func (f LuckFilter) describe() string {
	var parts []string
	for _, p := range []struct{ name, v string }{
		{"campaign", f.Campaign}, {"session", f.Session}, {"character", f.Character}, {"player", f.Player},
	} {
		if p.v != "" {
			parts = append(parts, p.name+" "+p.v)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " — " + strings.Join(parts, ", ")
}
