package ryf

import "github.com/campaign-journal/journal/internal/msgerr"

// Errors callers check with errors.Is. Returned errors wrap them with %w and
// add the offending value.
var (
	// ErrUnknownSystem is returned for a system other than "ryf" and "galaxia".
	ErrUnknownSystem = msgerr.New("unknown system")
	// ErrUnknownSkill is returned when no skill matches a name.
	ErrUnknownSkill = msgerr.New("unknown skill")
	// ErrUnknownAttribute is returned when no attribute matches a name or letter.
	ErrUnknownAttribute = msgerr.New("unknown attribute")
	// ErrUnknownDifficulty is returned for a difficulty that is neither a name nor an integer.
	ErrUnknownDifficulty = msgerr.New("unknown difficulty")
	// ErrUnknownBand is returned for a range band other than corta, media, larga.
	ErrUnknownBand = msgerr.New("unknown range band")
	// ErrUnknownWeapon is returned when no weapon of the campaign matches a name.
	ErrUnknownWeapon = msgerr.New("unknown weapon")
	// ErrAmbiguous is returned when a prefix matches more than one name; the
	// message lists the candidates.
	ErrAmbiguous = msgerr.New("ambiguous")
	// ErrSyntax is returned for text that a parser cannot read.
	ErrSyntax = msgerr.New("syntax error")
	// ErrOutOfRange is returned for a number outside the range a rule allows.
	ErrOutOfRange = msgerr.New("out of range")
	// ErrInvalidCharacter is wrapped by the *InvalidCharacterError that
	// ValidateCharacter returns.
	ErrInvalidCharacter = msgerr.New("invalid character")
	// ErrInvalidCampaign is returned by New for options that cannot make a campaign.
	ErrInvalidCampaign = msgerr.New("invalid campaign options")
	// ErrInvalidWeapon is returned for a weapon definition that breaks a rule,
	// or a weapon used in the wrong kind of attack.
	ErrInvalidWeapon = msgerr.New("invalid weapon")
	// ErrInvalidCheck is returned by Roll for a Check whose fields do not fit its kind.
	ErrInvalidCheck = msgerr.New("invalid check")
	// ErrNotEnoughXP is returned when a skill raise costs more XP than the character has.
	ErrNotEnoughXP = msgerr.New("not enough xp")
	// ErrDead is returned when healing a dead character.
	ErrDead = msgerr.New("character is dead")
	// ErrEmptyMagazine is returned when firing a weapon with no shots left.
	ErrEmptyMagazine = msgerr.New("magazine empty")
	// ErrBeyondRange is returned for a target farther than a weapon's long range.
	ErrBeyondRange = msgerr.New("beyond the weapon's long range")
	// ErrRunaway is returned when explosions go on longer than any fair dice
	// could (a broken roller); see MaxRounds and MaxExplosions.
	ErrRunaway = msgerr.New("runaway explosion chain")
)
