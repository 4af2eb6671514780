package tor

import "github.com/campaign-journal/journal/internal/msgerr"

// Errors callers check with errors.Is. Every error the package returns is or
// wraps one of them, except that Roll passes a roller's own error on,
// wrapped (dice.ErrExhausted, dice.ErrInvalidFace).
var (
	// ErrInvalidCharacter is wrapped by *ValidationError: a character spec
	// breaks one or more rules.
	ErrInvalidCharacter = msgerr.New("invalid character")
	// ErrUnknownSkill is returned when no common skill matches a name.
	ErrUnknownSkill = msgerr.New("unknown skill")
	// ErrUnknownGroup is returned when no skill group matches a name.
	ErrUnknownGroup = msgerr.New("unknown skill group")
	// ErrUnknownAttribute is returned when no attribute matches a name.
	ErrUnknownAttribute = msgerr.New("unknown attribute")
	// ErrUnknownTrait is returned when the character has no trait by that name.
	ErrUnknownTrait = msgerr.New("unknown trait")
	// ErrAmbiguous is returned when a prefix matches more than one name; the
	// message names the candidates.
	ErrAmbiguous = msgerr.New("ambiguous name")
	// ErrSyntax is returned by the parsers for text they cannot read.
	ErrSyntax = msgerr.New("syntax error")
	// ErrInvalidRoll is returned for a rank, Target Number, face or roller
	// that does not fit a roll.
	ErrInvalidRoll = msgerr.New("invalid roll")
	// ErrOutOfRange is returned for a count or amount outside its range.
	ErrOutOfRange = msgerr.New("value out of range")

	// ErrNoHope is returned when a character with 0 Hope tries to spend one.
	ErrNoHope = msgerr.New("no hope left")
	// ErrAlreadySucceeded is returned when Hope is spent on a successful roll.
	ErrAlreadySucceeded = msgerr.New("roll already succeeded")
	// ErrHopeSpent is returned when Hope is spent twice on the same roll.
	ErrHopeSpent = msgerr.New("hope already spent on this roll")
	// ErrHopeFull is returned when a character at maximum Hope asks for a
	// fellowship point.
	ErrHopeFull = msgerr.New("hope already at maximum")

	// ErrPoolEmpty is returned when the fellowship pool has no point left.
	ErrPoolEmpty = msgerr.New("fellowship pool is empty")
	// ErrInvalidVote is returned for a malformed vote (no requester, an empty
	// or duplicated member of the fellowship).
	ErrInvalidVote = msgerr.New("invalid fellowship vote")
	// ErrNotInFellowship is returned for a requester or voter who is not a
	// member of the fellowship.
	ErrNotInFellowship = msgerr.New("not in the fellowship")
	// ErrRequesterVoted is returned when the requester votes on its own request.
	ErrRequesterVoted = msgerr.New("requester cannot vote")
	// ErrDuplicateVote is returned when a member votes twice.
	ErrDuplicateVote = msgerr.New("duplicate vote")
	// ErrVoteIncomplete is returned when some other member has not voted.
	ErrVoteIncomplete = msgerr.New("vote incomplete")

	// ErrNoMadness is returned when a bout of madness is begun without its
	// trigger, or ended when none is under way.
	ErrNoMadness = msgerr.New("no bout of madness")
	// ErrAlreadyMad is returned when a bout begins during another.
	ErrAlreadyMad = msgerr.New("already in a bout of madness")

	// ErrGroupFull is returned when a skill group already holds its 3
	// advancement points for the adventure.
	ErrGroupFull = msgerr.New("skill group already holds 3 advancement points")
)
