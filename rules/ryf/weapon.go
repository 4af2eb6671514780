package ryf

import (
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// Weapon is a weapon of the campaign. A weapon with ranges is a ranged
// weapon; one without is a melee weapon.
type Weapon struct {
	Name string `json:"name"`
	// Skill is the attack skill: Armas cuerpo a cuerpo or Pelea for melee
	// weapons; for ranged ones the system's (Armas a distancia in ryf; in
	// galaxia Armas a fuego livianas, Armas de fuego pesadas or Armas de
	// energía) or any campaign skill.
	Skill     string     `json:"skill"`
	Damage    DamageDice `json:"damage"`
	Precision int        `json:"precision"`
	// Short, Medium and Long are the ends of the range bands in metres
	// (0 for melee weapons).
	Short  int `json:"short_m,omitempty"`
	Medium int `json:"medium_m,omitempty"`
	Long   int `json:"long_m,omitempty"`
	// Magazine is the number of shots a full magazine holds; 0 means the
	// weapon has none to keep track of.
	Magazine int `json:"magazine,omitempty"`
}

// Weapon limits.
const (
	MinPrecision = -10
	MaxPrecision = 10
	MaxRangeM    = 1_000_000
	MaxMagazine  = 10_000
)

// Ranged reports whether the weapon is a ranged weapon (it has ranges).
func (w Weapon) Ranged() bool { return w.Long > 0 }

// Unarmed returns the unarmed "weapon": Puños, Pelea, 1d6-2.
func Unarmed() Weapon {
	return Weapon{Name: "Puños", Skill: skillBrawl, Damage: DamageDice{Count: 1, Sides: 6, Modifier: -2}}
}

// KnownWeapons returns the weapons the rule texts name, for a system:
// Puños (unarmed, 1d6-2), Espada 1d10, Mandoble 2d6, Hacha 1d8 precision -1,
// Revólver 1d8 precision 0, 35/60/120 m, 6 shots. The texts give no damage for
// the axe and the revolver, nor the revolver's cylinder: those are decisions
// (DECISIONS.md). In galaxia the revolver uses Armas a fuego livianas.
func KnownWeapons(sys System) []Weapon {
	pistol := skillRanged
	if sys == Galaxia {
		pistol = skillPistol
	}
	return []Weapon{
		Unarmed(),
		{Name: "Espada", Skill: skillMelee, Damage: DamageDice{Count: 1, Sides: 10}},
		{Name: "Mandoble", Skill: skillMelee, Damage: DamageDice{Count: 2, Sides: 6}},
		{Name: "Hacha", Skill: skillMelee, Damage: DamageDice{Count: 1, Sides: 8}, Precision: -1},
		{Name: "Revólver", Skill: pistol, Damage: DamageDice{Count: 1, Sides: 8}, Short: 35, Medium: 60, Long: 120, Magazine: 6},
	}
}

// DefaultWeaponSkill returns the attack skill of a weapon defined without
// one: Armas cuerpo a cuerpo for a melee weapon; for a ranged one the
// system's ranged skill, Armas a distancia in ryf and Armas a fuego
// livianas (the pistol skill, as the revolver's) in galaxia.
func (r *Rules) DefaultWeaponSkill(ranged bool) string {
	switch {
	case !ranged:
		return skillMelee
	case r.opts.System == Galaxia:
		return skillPistol
	}
	return skillRanged
}

// Weapons returns the campaign's weapons: the known ones, replaced or
// followed by the campaign's.
func (r *Rules) Weapons() []Weapon { return append([]Weapon(nil), r.weapons...) }

// LookupWeapon finds a weapon of the campaign by name (no accents needed,
// any case, unique prefix).
func (r *Rules) LookupWeapon(name string) (Weapon, error) {
	return find("weapon", name, r.weaponIndex, ErrUnknownWeapon)
}

// ValidateWeapon checks a weapon definition against the campaign: a name,
// a skill of the campaign (Armas cuerpo a cuerpo or Pelea for melee), valid
// damage dice, precision -10..10, ranges 0 < short ≤ medium ≤ long or none,
// and a magazine only on a ranged weapon. Errors wrap ErrInvalidWeapon.
func (r *Rules) ValidateWeapon(w Weapon) error {
	bad := func(format string, args ...any) error {
		return msgerr.Errorf("%w %q: %s", ErrInvalidWeapon, clip.Text(w.Name), msgerr.Errorf(format, args...))
	}
	if err := checkName(w.Name); err != nil {
		return msgerr.Errorf("%w %q: %w", ErrInvalidWeapon, clip.Text(w.Name), err)
	}
	if _, ok := r.skillByName[w.Skill]; !ok {
		return msgerr.Errorf("%w %q: %w %q", ErrInvalidWeapon, clip.Text(w.Name), ErrUnknownSkill, clip.Text(w.Skill))
	}
	if err := w.Damage.Validate(); err != nil {
		return msgerr.Errorf("%w %q: damage: %w", ErrInvalidWeapon, clip.Text(w.Name), err)
	}
	if w.Precision < MinPrecision || w.Precision > MaxPrecision {
		return bad("precision %d, want %d..%d", w.Precision, MinPrecision, MaxPrecision)
	}
	if w.Magazine < 0 || w.Magazine > MaxMagazine {
		return bad("magazine %d, want 0..%d", w.Magazine, MaxMagazine)
	}
	if w.Short == 0 && w.Medium == 0 && w.Long == 0 {
		if w.Skill != skillMelee && w.Skill != skillBrawl {
			return bad("a melee weapon uses %s or %s, not %s", skillMelee, skillBrawl, w.Skill)
		}
		if w.Magazine != 0 {
			return bad("a melee weapon has no magazine")
		}
		return nil
	}
	if w.Short <= 0 || w.Short > w.Medium || w.Medium > w.Long || w.Long > MaxRangeM {
		return bad("ranges %d/%d/%d m, want 0 < short ≤ medium ≤ long ≤ %d", w.Short, w.Medium, w.Long, MaxRangeM)
	}
	return nil
}

// CanFire reports whether the weapon can attack with shotsLeft in its
// magazine: always for weapons without a magazine.
func (w Weapon) CanFire(shotsLeft int) bool { return w.Magazine == 0 || shotsLeft > 0 }

// Fire spends one shot and returns the shots left. Weapons without a
// magazine return 0 and never run empty. An empty magazine gives
// ErrEmptyMagazine; shotsLeft outside 0..Magazine gives ErrOutOfRange.
func (w Weapon) Fire(shotsLeft int) (int, error) {
	if w.Magazine == 0 {
		return 0, nil
	}
	if shotsLeft < 0 || shotsLeft > w.Magazine {
		return 0, msgerr.Errorf("%w: %d shots left in a magazine of %d", ErrOutOfRange, shotsLeft, w.Magazine)
	}
	if shotsLeft == 0 {
		return 0, msgerr.Errorf("%w: %s must be reloaded", ErrEmptyMagazine, w.Name)
	}
	return shotsLeft - 1, nil
}

// Reload returns the shots of a full magazine.
func (w Weapon) Reload() int { return w.Magazine }

// Band is a range band of ranged attacks.
type Band string

// The range bands and their difficulties.
const (
	BandShort  Band = "corta"
	BandMedium Band = "media"
	BandLong   Band = "larga"
)

// Range-band difficulties and the cover step (docs/rules.md 1.8).
const (
	ShortDifficulty  = 15
	MediumDifficulty = 20
	LongDifficulty   = 25
	CoverStep        = 5
)

func bandIndex() []entry[Band] {
	return []entry[Band]{
		newEntry("corta", BandShort, "short"),
		newEntry("media", BandMedium, "medium"),
		newEntry("larga", BandLong, "long"),
	}
}

// ParseBand reads a range band: corta, media, larga, or short, medium, long
// (any case, unique prefix).
func ParseBand(s string) (Band, error) {
	return find("range band", s, bandIndex(), ErrUnknownBand)
}

// RangeDifficulty returns the difficulty of a ranged attack: corta 15,
// media 20, larga 25, +5 (one band) with cover.
func RangeDifficulty(b Band, cover bool) (int, error) {
	var d int
	switch b {
	case BandShort:
		d = ShortDifficulty
	case BandMedium:
		d = MediumDifficulty
	case BandLong:
		d = LongDifficulty
	default:
		return 0, msgerr.Errorf("%w %q", ErrUnknownBand, clip.Text(b))
	}
	if cover {
		d += CoverStep
	}
	return d, nil
}

// Band returns the range band of a target metres away: up to Short corta,
// up to Medium media, up to Long larga. Farther gives ErrBeyondRange; a
// melee weapon gives ErrInvalidWeapon.
func (w Weapon) Band(metres int) (Band, error) {
	switch {
	case !w.Ranged():
		return "", msgerr.Errorf("%w %q: a melee weapon has no range bands", ErrInvalidWeapon, clip.Text(w.Name))
	case metres < 0:
		return "", msgerr.Errorf("%w: distance %d m", ErrOutOfRange, metres)
	case metres <= w.Short:
		return BandShort, nil
	case metres <= w.Medium:
		return BandMedium, nil
	case metres <= w.Long:
		return BandLong, nil
	}
	return "", msgerr.Errorf("%w: %d m with %s (long range %d m)", ErrBeyondRange, metres, w.Name, w.Long)
}
