package ryf_test

import (
	"errors"
	"testing"

	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/rules/ryf"
)

// sentinels are the errors a parser may return; every error must wrap one.
var sentinels = []error{
	ryf.ErrSyntax, ryf.ErrOutOfRange, ryf.ErrAmbiguous, ryf.ErrUnknownSkill, ryf.ErrUnknownAttribute,
	ryf.ErrUnknownDifficulty, ryf.ErrUnknownBand, ryf.ErrUnknownSystem, ryf.ErrUnknownWeapon,
}

func checkSentinel(t *testing.T, in string, err error) {
	t.Helper()
	if err == nil {
		return
	}
	for _, s := range sentinels {
		if errors.Is(err, s) {
			return
		}
	}
	t.Fatalf("%q: error %v wraps no sentinel", in, err)
}

func FuzzParseAttributes(f *testing.F) {
	for _, s := range []string{"F=8,R=7,D=9,I=8,P=8", "fuerza:8;c=5", "F=", "=,=", "F=8,F=8", "percepción=9"} {
		f.Add(s)
	}
	r := newRules(f, ryf.Options{System: ryf.RyF, Carisma: true})
	f.Fuzz(func(t *testing.T, s string) {
		got, err := r.ParseAttributes(s)
		checkSentinel(t, s, err)
		if err == nil {
			if len(got) == 0 || len(got) > 6 {
				t.Fatalf("%q: %d attributes", s, len(got))
			}
			for a := range got {
				if a.Name() == "" {
					t.Fatalf("%q: unknown attribute %q parsed", s, a)
				}
			}
			// A parsed character is validated without panicking.
			_ = r.ValidateCharacter(ryf.Character{Attributes: got})
		}
	})
}

func FuzzParseSkills(f *testing.F) {
	for _, s := range []string{"Pelea=5,Sigilo=3", "advertir=2;armas a:1", "", "armas=3", "Pelea=5,pelea=1", "mús=-3"} {
		f.Add(s)
	}
	r := galaxiaRules(f)
	f.Fuzz(func(t *testing.T, s string) {
		got, err := r.ParseSkills(s)
		checkSentinel(t, s, err)
		for name := range got {
			if sk, err := r.LookupSkill(name); err != nil || sk.Name != name {
				t.Fatalf("%q: parsed non-canonical skill %q", s, name)
			}
		}
		if err == nil {
			_ = r.ValidateCharacter(ryf.Character{Skills: got})
		}
	})
}

func FuzzParseDifficulty(f *testing.F) {
	for _, s := range []string{"media", "15", "dificil", "i", "-3", "+100", "IMPOSIBLE", "1e3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ryf.ParseDifficulty(s)
		checkSentinel(t, s, err)
		if err == nil && (got < ryf.MinDifficulty || got > ryf.MaxDifficulty) {
			t.Fatalf("%q: difficulty %d out of range", s, got)
		}
	})
}

func FuzzParseDamage(f *testing.F) {
	for _, s := range []string{"2d6", "1d6-2", "d10", "1d10+1", "20d100+50", "1d", "d", "0d0", "1d6+-2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ryf.ParseDamage(s)
		checkSentinel(t, s, err)
		if err != nil {
			return
		}
		if err := d.Validate(); err != nil {
			t.Fatalf("%q parsed to invalid %+v: %v", s, d, err)
		}
		back, err := ryf.ParseDamage(d.String())
		if err != nil || back != d {
			t.Fatalf("%q: %q round trips to %+v, %v", s, d.String(), back, err)
		}
		// Rolling with dice that never explode stays within the bounds.
		roll, err := ryf.RollDamage(d, true, ones{})
		if err != nil || roll.Total < 0 || roll.Total != 2*max(d.Count+d.Modifier, 0) {
			t.Fatalf("%q: roll of ones = %+v, %v", s, roll, err)
		}
	})
}

// ones is a roller that always shows 1.
type ones struct{}

func (ones) Roll(int) (int, error) { return 1, nil }

func FuzzParseBand(f *testing.F) {
	for _, s := range []string{"corta", "media", "larga", "short", "m", "", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := ryf.ParseBand(s)
		checkSentinel(t, s, err)
		if err == nil {
			if _, err := ryf.RangeDifficulty(b, false); err != nil {
				t.Fatalf("%q: parsed band %q has no difficulty", s, b)
			}
		}
	})
}

func FuzzParseSystem(f *testing.F) {
	for _, s := range []string{"ryf", "GALAXIA", "tor", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sys, err := ryf.ParseSystem(s)
		checkSentinel(t, s, err)
		if err == nil {
			if _, err := ryf.New(ryf.Options{System: sys}); err != nil {
				t.Fatalf("%q: %v", s, err)
			}
		}
	})
}

func FuzzLookup(f *testing.F) {
	for _, s := range []string{"advertir", "armas a", "F", "percepcion", "espada", "ñ", "\u0301", " "} {
		f.Add(s)
	}
	r := newRules(f, ryf.Options{System: ryf.Galaxia, Carisma: true})
	f.Fuzz(func(t *testing.T, s string) {
		_, err := r.LookupSkill(s)
		checkSentinel(t, s, err)
		_, err = r.LookupAttribute(s)
		checkSentinel(t, s, err)
		_, err = r.LookupWeapon(s)
		checkSentinel(t, s, err)
	})
}

// FuzzRoll feeds arbitrary faces and flags to Roll: it never panics and the
// result keeps its invariants.
func FuzzRoll(f *testing.F) {
	f.Add([]byte{3, 10, 10, 3, 4, 7}, uint8(0), int8(0), uint8(15))
	f.Add([]byte{1, 1, 1}, uint8(1), int8(3), uint8(10))
	f.Add([]byte{10, 10, 10, 10, 10, 10, 2, 2, 2}, uint8(0xff), int8(-5), uint8(30))
	f.Fuzz(func(t *testing.T, raw []byte, flags uint8, mod int8, diff uint8) {
		faces := make([]int, len(raw))
		for i, b := range raw {
			faces[i] = int(b%10) + 1
		}
		kinds := []ryf.Kind{ryf.KindSkill, ryf.KindAttribute, ryf.KindMelee, ryf.KindRanged}
		c := ryf.Check{Kind: kinds[flags%4], Attribute: ryf.Fuerza, AttributeValue: 2 + int(flags)%9,
			Modifier: int(mod) % 101, Specialization: flags&4 != 0, TokenSpent: flags&8 != 0,
			TokenReturned: flags&16 != 0, Incapacitated: flags&32 != 0}
		if c.Kind != ryf.KindAttribute {
			c.Skill, c.Rank = "Pelea", int(flags>>6)
		} else {
			c.Specialization = false
		}
		if flags&128 != 0 {
			c = c.WithDifficulty(int(diff) % 101)
		}
		res, err := ryf.Roll(c, dice.NewFaces(faces...))
		if err != nil {
			if !errors.Is(err, dice.ErrExhausted) && !errors.Is(err, ryf.ErrRunaway) {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		sum := 0
		for i, rd := range res.Rounds {
			if rd.Kept != res.Level.Keep(rd.Dice) {
				t.Fatalf("round %d keeps %d of %v at %v", i, rd.Kept, rd.Dice, res.Level)
			}
			if exploding := c.Kind != ryf.KindAttribute && rd.Kept == 10; exploding != (i < len(res.Rounds)-1) {
				t.Fatalf("round %d of %d: kept %d", i, len(res.Rounds), rd.Kept)
			}
			sum += rd.Kept
		}
		terms := 0
		for _, term := range c.Terms() {
			terms += term.Value
		}
		if terms != res.Base {
			t.Fatalf("terms %v sum to %d, base %d", c.Terms(), terms, res.Base)
		}
		if res.DiePart != sum || res.Total != res.Base+sum {
			t.Fatalf("die part %d total %d for kept sum %d base %d", res.DiePart, res.Total, sum, res.Base)
		}
		if !intsEqual(res.Faces(), faces[:3*len(res.Rounds)]) {
			t.Fatalf("faces %v, fed %v", res.Faces(), faces)
		}
		if res.Critical && (!res.Success || res.Total < ryf.CriticalTotal) {
			t.Fatalf("critical without success or 30: %+v", res)
		}
		if (res.Fumble || res.Natural1) && res.Success {
			t.Fatalf("fumble or natural 1 succeeded: %+v", res)
		}
	})
}
