package ryf_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/rules/ryf"
)

// Fred: Fuerza 5, Destreza 8, Armas cuerpo a cuerpo 6, Armas a distancia 4.
func fred() ryf.Character {
	return ryf.Character{
		Attributes:     attrs(5, 8, 8, 8, 8),
		Skills:         map[string]int{"Armas cuerpo a cuerpo": 6, "Armas a distancia": 4, "Pelea": 2},
		Specialization: "Armas cuerpo a cuerpo",
	}
}

func TestFredsAxe(t *testing.T) {
	r := ryfRules(t)
	axe, err := r.LookupWeapon("hacha")
	require.NoError(t, err)
	chk, err := r.MeleeCheck(fred(), axe, 15)
	require.NoError(t, err)
	// "la tirada sería de 10 + 1o3d10"
	if got := chk.Base(); got != 10 {
		t.Errorf("base = %d, want 10 (Armas cuerpo a cuerpo 6 + Fuerza 5 + hacha -1)", got)
	}
	if chk.Kind != ryf.KindMelee || chk.Skill != "Armas cuerpo a cuerpo" || chk.Precision != -1 || chk.Weapon != "Hacha" {
		t.Errorf("check = %+v", chk)
	}
	res, err := ryf.Roll(chk, dice.NewFaces(2, 5, 9))
	require.NoError(t, err)
	if res.Total != 15 || !res.Success {
		t.Errorf("total %d, success %v; want 15, true", res.Total, res.Success)
	}
}

func TestFredsRevolver(t *testing.T) {
	r := ryfRules(t)
	rev, err := r.LookupWeapon("revolver")
	require.NoError(t, err)
	band, err := rev.Band(50)
	require.NoError(t, err)
	if band != ryf.BandMedium {
		t.Fatalf("50 m is %q, want media", band)
	}
	chk, err := r.RangedCheck(fred(), rev, band, false)
	require.NoError(t, err)
	// "necesitaría sacar 20 o más en 12 + 1o3d10"
	if got := chk.Base(); got != 12 {
		t.Errorf("base = %d, want 12 (Destreza 8 + Armas a distancia 4 + 0)", got)
	}
	if chk.Difficulty == nil || *chk.Difficulty != 20 {
		t.Fatalf("difficulty = %v, want 20", chk.Difficulty)
	}
	tests := []struct {
		faces []int
		hit   bool
	}{
		{[]int{8, 8, 2}, true},
		{[]int{7, 7, 9}, false},
		{[]int{10, 10, 1, 1, 2, 3}, true},
		{[]int{1, 1, 10}, false},
	}
	for _, tt := range tests {
		res, err := ryf.Roll(chk, dice.NewFaces(tt.faces...))
		require.NoError(t, err)
		if res.Success != tt.hit {
			t.Errorf("faces %v: total %d (%s), hit %v; want %v", tt.faces, res.Total, res.Outcome, res.Success, tt.hit)
		}
	}
}

func TestCritical35SwordDamage(t *testing.T) {
	r := ryfRules(t)
	sword, err := r.LookupWeapon("espada")
	require.NoError(t, err)
	attacker := ryf.Character{NPC: true, Attributes: attrs(10, 8, 8, 8, 8), Skills: map[string]int{"Armas cuerpo a cuerpo": 9}}
	chk, err := r.MeleeCheck(attacker, sword, 24)
	require.NoError(t, err)
	src := dice.NewFaces(7, 10, 10, 6, 6, 8, 6)
	res, err := ryf.Roll(chk, src)
	require.NoError(t, err)
	if res.Base != 19 || res.Total != 35 || res.Outcome != ryf.OutcomeCritical {
		t.Fatalf("base %d total %d outcome %s; want 19, 35, critical", res.Base, res.Total, res.Outcome)
	}
	dmg, err := ryf.RollDamage(sword.Damage, res.Critical, src)
	require.NoError(t, err)
	if dmg.Total != 12 {
		t.Errorf("damage = %d, want 12 (6 × 2)", dmg.Total)
	}
}

func TestDefense(t *testing.T) {
	c := ryf.Character{Attributes: attrs(5, 5, 9, 5, 5), Skills: map[string]int{"Armas cuerpo a cuerpo": 6, "Pelea": 2}}
	tests := []struct {
		name  string
		hard  bool
		melee bool
		want  int
	}{
		{"melee weapon", false, true, 20},
		{"unarmed uses Pelea", false, false, 16},
		{"hard defense", true, true, 21},
		{"hard defense unarmed", true, false, 17},
	}
	for _, tt := range tests {
		r := newRules(t, ryf.Options{System: ryf.RyF, HardDefense: tt.hard})
		if got := r.Defense(c, tt.melee); got != tt.want {
			t.Errorf("%s: Defense = %d, want %d", tt.name, got, tt.want)
		}
	}
}

func TestRangeBands(t *testing.T) {
	rev := ryfRules(t).Weapons()[4]
	tests := []struct {
		metres int
		want   ryf.Band
		err    error
	}{
		{0, ryf.BandShort, nil}, {35, ryf.BandShort, nil}, {36, ryf.BandMedium, nil}, {60, ryf.BandMedium, nil},
		{61, ryf.BandLong, nil}, {120, ryf.BandLong, nil}, {121, "", ryf.ErrBeyondRange}, {150, "", ryf.ErrBeyondRange},
		{-1, "", ryf.ErrOutOfRange},
	}
	for _, tt := range tests {
		got, err := rev.Band(tt.metres)
		if got != tt.want || !errors.Is(err, tt.err) {
			t.Errorf("Band(%d) = %q, %v; want %q, %v", tt.metres, got, err, tt.want, tt.err)
		}
	}
	if _, err := ryf.Unarmed().Band(1); !errors.Is(err, ryf.ErrInvalidWeapon) {
		t.Errorf("melee Band err = %v, want ErrInvalidWeapon", err)
	}
	diffs := []struct {
		band  ryf.Band
		cover bool
		want  int
	}{
		{ryf.BandShort, false, 15}, {ryf.BandMedium, false, 20}, {ryf.BandLong, false, 25},
		{ryf.BandShort, true, 20}, {ryf.BandLong, true, 30},
	}
	for _, tt := range diffs {
		if got, err := ryf.RangeDifficulty(tt.band, tt.cover); got != tt.want || err != nil {
			t.Errorf("RangeDifficulty(%s, %v) = %d, %v; want %d", tt.band, tt.cover, got, err, tt.want)
		}
	}
	if _, err := ryf.RangeDifficulty("lejos", false); !errors.Is(err, ryf.ErrUnknownBand) {
		t.Errorf("err = %v, want ErrUnknownBand", err)
	}
}

func TestParseBand(t *testing.T) {
	tests := []struct {
		in   string
		want ryf.Band
		err  error
	}{
		{"corta", ryf.BandShort, nil}, {"CORTA", ryf.BandShort, nil}, {"short", ryf.BandShort, nil}, {"c", ryf.BandShort, nil},
		{"media", ryf.BandMedium, nil}, {"medium", ryf.BandMedium, nil}, {"me", ryf.BandMedium, nil}, {"m", ryf.BandMedium, nil},
		{"larga", ryf.BandLong, nil}, {"long", ryf.BandLong, nil}, {"l", ryf.BandLong, nil},
		{"", "", ryf.ErrUnknownBand}, {"lejos", "", ryf.ErrUnknownBand},
	}
	for _, tt := range tests {
		got, err := ryf.ParseBand(tt.in)
		if got != tt.want || !errors.Is(err, tt.err) {
			t.Errorf("ParseBand(%q) = %q, %v; want %q, %v", tt.in, got, err, tt.want, tt.err)
		}
	}
}

func TestAttackChecks(t *testing.T) {
	r := ryfRules(t)
	rev, err := r.LookupWeapon("rev")
	require.NoError(t, err)
	sword, err := r.LookupWeapon("espada")
	require.NoError(t, err)
	if _, err := r.MeleeCheck(fred(), rev, 15); !errors.Is(err, ryf.ErrInvalidWeapon) {
		t.Errorf("melee with a revolver: err = %v, want ErrInvalidWeapon", err)
	}
	if _, err := r.RangedCheck(fred(), sword, ryf.BandShort, false); !errors.Is(err, ryf.ErrInvalidWeapon) {
		t.Errorf("ranged with a sword: err = %v, want ErrInvalidWeapon", err)
	}
	// Unarmed with Pelea 0 keeps the lowest die.
	noPelea := ryf.Character{Attributes: attrs(8, 8, 8, 8, 8)}
	chk, err := r.MeleeCheck(noPelea, ryf.Unarmed(), 10)
	require.NoError(t, err)
	if chk.Skill != "Pelea" || chk.Rank != 0 {
		t.Errorf("unarmed check = %+v", chk)
	}
	if lvl, _ := ryf.ComputeLevel(chk.LevelInput()); lvl != ryf.Low {
		t.Errorf("unarmed with Pelea 0: level %v, want low", lvl)
	}
	// Galaxia's revolver uses Armas a fuego livianas.
	g := galaxiaRules(t)
	grev, err := g.LookupWeapon("revólver")
	require.NoError(t, err)
	gchk, err := g.RangedCheck(ryf.Character{Attributes: attrs(5, 5, 7, 5, 5), Skills: map[string]int{"Armas a fuego livianas": 3}},
		grev, ryf.BandLong, true)
	require.NoError(t, err)
	if gchk.Skill != "Armas a fuego livianas" || gchk.Base() != 10 || *gchk.Difficulty != 30 {
		t.Errorf("galaxia revolver check = %+v", gchk)
	}
	if _, err := r.InitiativeCheck(ryf.Character{}); !errors.Is(err, ryf.ErrUnknownAttribute) {
		t.Errorf("initiative without attributes: err = %v", err)
	}
	if _, err := r.SkillCheck(fred(), "pelea", ryf.Carisma); !errors.Is(err, ryf.ErrUnknownAttribute) {
		t.Errorf("C without carisma: err = %v", err)
	}
}

func TestSkillAndAttributeChecks(t *testing.T) {
	r := ryfRules(t)
	c := fred()
	chk, err := r.SkillCheck(c, "armas cuerpo", "")
	require.NoError(t, err)
	if chk.Attribute != ryf.Fuerza || chk.AttributeValue != 5 || chk.Rank != 6 || chk.Base() != 11 {
		t.Errorf("default attribute: %+v", chk)
	}
	chk, err = r.SkillCheck(c, "armas cuerpo", ryf.Destreza)
	require.NoError(t, err)
	if chk.Attribute != ryf.Destreza || chk.Base() != 14 {
		t.Errorf("GM's attribute: %+v", chk)
	}
	chk, err = r.AttributeCheck(c, ryf.Fuerza)
	require.NoError(t, err)
	if chk.Kind != ryf.KindAttribute || chk.Base() != 10 {
		t.Errorf("attribute check: %+v", chk)
	}
	chk, err = r.InitiativeCheck(c)
	require.NoError(t, err)
	if chk.Base() != 16 || chk.Difficulty != nil {
		t.Errorf("initiative check: %+v", chk)
	}
	if _, err := r.SkillCheck(c, "cocina", ""); !errors.Is(err, ryf.ErrUnknownSkill) {
		t.Errorf("unknown skill: err = %v", err)
	}
}

func TestOrderInitiative(t *testing.T) {
	in := []ryf.Initiative{
		{ID: "a", Total: 20, Destreza: 7, Percepcion: 8},
		{ID: "b", Total: 25, Destreza: 5, Percepcion: 5},
		{ID: "c", Total: 20, Destreza: 8, Percepcion: 2},
		{ID: "d", Total: 20, Destreza: 7, Percepcion: 9},
		{ID: "e", Total: 20, Destreza: 7, Percepcion: 8},
		{ID: "f", Total: 12, Destreza: 10, Percepcion: 10},
	}
	var got []string
	for _, x := range ryf.OrderInitiative(in) {
		got = append(got, x.ID)
	}
	want := []string{"b", "c", "d", "a", "e", "f"}
	if !slices.Equal(got, want) {
		t.Errorf("order = %v, want %v", got, want)
	}
	if in[0].ID != "a" {
		t.Error("OrderInitiative changed its input")
	}
}

func TestValidateWeapon(t *testing.T) {
	r := ryfRules(t)
	d := ryf.DamageDice{Count: 1, Sides: 6}
	tests := []struct {
		name string
		w    ryf.Weapon
		err  error
	}{
		{"dagger", ryf.Weapon{Name: "Daga", Skill: "Armas cuerpo a cuerpo", Damage: d}, nil},
		{"bow", ryf.Weapon{Name: "Arco", Skill: "Armas a distancia", Damage: d, Short: 20, Medium: 50, Long: 100}, nil},
		{"pistol", ryf.Weapon{Name: "Pistola", Skill: "Armas a distancia", Damage: d, Short: 10, Medium: 20, Long: 40, Magazine: 12}, nil},
		{"no name", ryf.Weapon{Skill: "Pelea", Damage: d}, ryf.ErrSyntax},
		{"unknown skill", ryf.Weapon{Name: "X", Skill: "Cocina", Damage: d}, ryf.ErrUnknownSkill},
		{"melee with a ranged skill", ryf.Weapon{Name: "X", Skill: "Armas a distancia", Damage: d}, ryf.ErrInvalidWeapon},
		{"bad damage", ryf.Weapon{Name: "X", Skill: "Pelea"}, ryf.ErrOutOfRange},
		{"precision", ryf.Weapon{Name: "X", Skill: "Pelea", Damage: d, Precision: 11}, ryf.ErrInvalidWeapon},
		{"melee magazine", ryf.Weapon{Name: "X", Skill: "Pelea", Damage: d, Magazine: 3}, ryf.ErrInvalidWeapon},
		{"ranges out of order", ryf.Weapon{Name: "X", Skill: "Armas a distancia", Damage: d, Short: 30, Medium: 20, Long: 40}, ryf.ErrInvalidWeapon},
		{"only long range", ryf.Weapon{Name: "X", Skill: "Armas a distancia", Damage: d, Long: 40}, ryf.ErrInvalidWeapon},
		{"negative magazine", ryf.Weapon{Name: "X", Skill: "Armas a distancia", Damage: d, Short: 1, Medium: 2, Long: 3, Magazine: -1}, ryf.ErrInvalidWeapon},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := r.ValidateWeapon(tt.w)
			if !errors.Is(err, tt.err) {
				t.Errorf("err = %v, want %v", err, tt.err)
			}
			if err != nil && !errors.Is(err, ryf.ErrInvalidWeapon) {
				t.Errorf("err = %v, want it to wrap ErrInvalidWeapon", err)
			}
		})
	}
}

func TestWeaponCatalog(t *testing.T) {
	r := newRules(t, ryf.Options{System: ryf.RyF, Weapons: []ryf.Weapon{
		{Name: "espada", Skill: "Armas cuerpo a cuerpo", Damage: ryf.DamageDice{Count: 1, Sides: 10, Modifier: 1}},
		{Name: "Arco", Skill: "Armas a distancia", Damage: ryf.DamageDice{Count: 1, Sides: 8}, Short: 20, Medium: 50, Long: 100},
	}})
	want := map[string]struct {
		damage    string
		precision int
		ranges    [3]int
		magazine  int
	}{
		"Puños":    {"1d6-2", 0, [3]int{}, 0},
		"espada":   {"1d10+1", 0, [3]int{}, 0},
		"Mandoble": {"2d6", 0, [3]int{}, 0},
		"Hacha":    {"1d8", -1, [3]int{}, 0},
		"Revólver": {"1d8", 0, [3]int{35, 60, 120}, 6},
		"Arco":     {"1d8", 0, [3]int{20, 50, 100}, 0},
	}
	ws := r.Weapons()
	if len(ws) != len(want) {
		t.Errorf("%d weapons, want %d", len(ws), len(want))
	}
	for _, w := range ws {
		tt, ok := want[w.Name]
		if !ok {
			t.Errorf("unexpected weapon %q", w.Name)
			continue
		}
		if w.Damage.String() != tt.damage || w.Precision != tt.precision || [3]int{w.Short, w.Medium, w.Long} != tt.ranges || w.Magazine != tt.magazine {
			t.Errorf("%s = %+v, want %+v", w.Name, w, tt)
		}
	}
	for in, want := range map[string]string{"ESPADA": "espada", "revolver": "Revólver", "punos": "Puños", "arc": "Arco"} {
		if got, err := r.LookupWeapon(in); got.Name != want || err != nil {
			t.Errorf("LookupWeapon(%q) = %q, %v; want %q", in, got.Name, err, want)
		}
	}
	if _, err := r.LookupWeapon("ballesta"); !errors.Is(err, ryf.ErrUnknownWeapon) {
		t.Errorf("err = %v, want ErrUnknownWeapon", err)
	}
}

func TestMagazine(t *testing.T) {
	rev := ryfRules(t).Weapons()[4]
	shots := rev.Reload()
	if shots != 6 {
		t.Fatalf("Reload = %d, want 6", shots)
	}
	for i := range 6 {
		if !rev.CanFire(shots) {
			t.Fatalf("cannot fire shot %d", i+1)
		}
		var err error
		shots, err = rev.Fire(shots)
		require.NoError(t, err)
	}
	if shots != 0 || rev.CanFire(shots) {
		t.Errorf("after 6 shots: %d left, can fire %v", shots, rev.CanFire(shots))
	}
	if _, err := rev.Fire(0); !errors.Is(err, ryf.ErrEmptyMagazine) {
		t.Errorf("empty: err = %v, want ErrEmptyMagazine", err)
	}
	if _, err := rev.Fire(7); !errors.Is(err, ryf.ErrOutOfRange) {
		t.Errorf("7 of 6: err = %v, want ErrOutOfRange", err)
	}
	sword := ryf.Unarmed()
	if left, err := sword.Fire(0); left != 0 || err != nil || !sword.CanFire(0) {
		t.Errorf("no magazine: Fire = %d, %v", left, err)
	}
}
