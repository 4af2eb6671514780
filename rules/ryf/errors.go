package ryf

import "errors"

// Errors callers check with errors.Is. Returned errors wrap them with %w and
// add the offending value.
var (
	// ErrUnknownSystem is returned for a system other than "ryf" and "galaxia".
	ErrUnknownSystem = errors.New("unknown system")
	// ErrUnknownSkill is returned when no skill matches a name.
	ErrUnknownSkill = errors.New("unknown skill")
	// ErrUnknownAttribute is returned when no attribute matches a name or letter.
	ErrUnknownAttribute = errors.New("unknown attribute")
	// ErrUnknownDifficulty is returned for a difficulty that is neither a name nor an integer.
	ErrUnknownDifficulty = errors.New("unknown difficulty")
	// ErrUnknownBand is returned for a range band other than corta, media, larga.
	ErrUnknownBand = errors.New("unknown range band")
	// ErrUnknownWeapon is returned when no weapon of the campaign matches a name.
	ErrUnknownWeapon = errors.New("unknown weapon")
	// ErrAmbiguous is returned when a prefix matches more than one name; the
	// message lists the candidates.
	ErrAmbiguous = errors.New("ambiguous")
	// ErrSyntax is returned for text that a parser cannot read.
	ErrSyntax = errors.New("syntax error")
	// ErrOutOfRange is returned for a number outside the range a rule allows.
	ErrOutOfRange = errors.New("out of range")
	// ErrInvalidCharacter is wrapped by the *InvalidCharacterError that
	// ValidateCharacter returns.
	ErrInvalidCharacter = errors.New("invalid character")
	// ErrInvalidCampaign is returned by New for options that cannot make a campaign.
	ErrInvalidCampaign = errors.New("invalid campaign options")
	// ErrInvalidWeapon is returned for a weapon definition that breaks a rule,
	// or a weapon used in the wrong kind of attack.
	ErrInvalidWeapon = errors.New("invalid weapon")
	// ErrInvalidCheck is returned by Roll for a Check whose fields do not fit its kind.
	ErrInvalidCheck = errors.New("invalid check")
	// ErrNotEnoughXP is returned when a skill raise costs more XP than the character has.
	ErrNotEnoughXP = errors.New("not enough xp")
	// ErrDead is returned when healing a dead character.
	ErrDead = errors.New("character is dead")
	// ErrEmptyMagazine is returned when firing a weapon with no shots left.
	ErrEmptyMagazine = errors.New("magazine empty")
	// ErrBeyondRange is returned for a target farther than a weapon's long range.
	ErrBeyondRange = errors.New("beyond the weapon's long range")
	// ErrRunaway is returned when explosions go on longer than any fair dice
	// could (a broken roller); see MaxRounds and MaxExplosions.
	ErrRunaway = errors.New("runaway explosion chain")
)
