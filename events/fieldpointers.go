package events

import "reflect"

// rollMadeStruct is what the fast path knows of RollMade.
var rollMadeStruct = fastStructFor(reflect.TypeFor[*RollMade]())

func (*RollMade) fastStruct() *fastStruct { return rollMadeStruct }

// fieldPointer returns a pointer to field j of v, in declaration order, or
// nil past the last: the fast path's way to the fields of the commonest
// event without reflection. TestFastStructs checks it against the
// struct.
func (v *RollMade) fieldPointer(j int) any {
	switch j {
	case 0:
		return &v.System
	case 1:
		return &v.Kind
	case 2:
		return &v.Character
	case 3:
		return &v.Skill
	case 4:
		return &v.Attribute
	case 5:
		return &v.AttributeValue
	case 6:
		return &v.Attribute2
	case 7:
		return &v.Attribute2Value
	case 8:
		return &v.Rank
	case 9:
		return &v.Modifier
	case 10:
		return &v.Precision
	case 11:
		return &v.Base
	case 12:
		return &v.Level
	case 13:
		return &v.LevelReasons
	case 14:
		return &v.Difficulty
	case 15:
		return &v.DifficultyName
	case 16:
		return &v.Cover
	case 17:
		return &v.Token
	case 18:
		return &v.TokenReturned
	case 19:
		return &v.Specialization
	case 20:
		return &v.Incapacitated
	case 21:
		return &v.Weapon
	case 22:
		return &v.Target
	case 23:
		return &v.Range
	case 24:
		return &v.Dice
	case 25:
		return &v.Nonce
	case 26:
		return &v.Entropy
	case 27:
		return &v.Faces
	case 28:
		return &v.Kept
	case 29:
		return &v.DiePart
	case 30:
		return &v.Total
	case 31:
		return &v.Outcome
	case 32:
		return &v.Critical
	case 33:
		return &v.Fumble
	case 34:
		return &v.Natural1
	case 35:
		return &v.Exploded
	case 36:
		return &v.TN
	case 37:
		return &v.Feat
	case 38:
		return &v.Eye
	case 39:
		return &v.Rune
	case 40:
		return &v.Quality
	case 41:
		return &v.Favoured
	case 42:
		return &v.Trait
	case 43:
		return &v.Opposed
	}
	return nil
}
