package tor

import (
	"strings"

	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// StartingPool is the fellowship pool of a company of player characters at
// the start of an adventure: one point per character, plus one per hobbit
// (Character.IsHobbit).
func StartingPool(company []Character) int {
	n := len(company)
	for _, c := range company {
		if c.IsHobbit() {
			n++
		}
	}
	return n
}

// PoolSize is the starting fellowship pool for a number of player
// characters of whom some are hobbits: players + hobbits.
func PoolSize(players, hobbits int) (int, error) {
	if players < 0 || hobbits < 0 || hobbits > players {
		return 0, msgerr.Errorf("%w: %d players with %d hobbits", ErrOutOfRange, players, hobbits)
	}
	return players + hobbits, nil
}

// Ballot is one member's vote on a request for a fellowship point.
type Ballot struct {
	Voter string `json:"voter"`
	Agree bool   `json:"agree"`
}

// Vote is a request for one fellowship point: who asks, the whole
// fellowship (the requester included; ids compared exactly) and the ballots
// of every other member.
type Vote struct {
	Requester  string   `json:"requester"`
	Fellowship []string `json:"fellowship"`
	Ballots    []Ballot `json:"ballots"`
}

// Tally counts a complete vote. Granted when at least half of the votes
// agree (ties grant); otherwise more than half refused.
type Tally struct {
	Voters  int  `json:"voters"`
	Agree   int  `json:"agree"`
	Refuse  int  `json:"refuse"`
	Granted bool `json:"granted"`
}

// Tally checks and counts the vote. It refuses a blank requester or member
// or a member listed twice (ErrInvalidVote), a requester or voter outside
// the fellowship (ErrNotInFellowship), a ballot from the requester
// (ErrRequesterVoted), a second ballot from one voter (ErrDuplicateVote) and
// a vote some other member has not cast (ErrVoteIncomplete, naming them).
// A fellowship of one has no voters: the request is granted.
func (v Vote) Tally() (Tally, error) {
	if strings.TrimSpace(v.Requester) == "" {
		return Tally{}, msgerr.Errorf("%w: no requester", ErrInvalidVote)
	}
	members := make(map[string]bool, len(v.Fellowship))
	for _, m := range v.Fellowship {
		if strings.TrimSpace(m) == "" {
			return Tally{}, msgerr.Errorf("%w: blank member", ErrInvalidVote)
		}
		if members[m] {
			return Tally{}, msgerr.Errorf("%w: member %q listed twice", ErrInvalidVote, clip.Text(m))
		}
		members[m] = true
	}
	if !members[v.Requester] {
		return Tally{}, msgerr.Errorf("%w: requester %q", ErrNotInFellowship, clip.Text(v.Requester))
	}
	voted := make(map[string]bool, len(v.Ballots))
	var t Tally
	for _, b := range v.Ballots {
		switch {
		case b.Voter == v.Requester:
			return Tally{}, msgerr.Errorf("%w: %q", ErrRequesterVoted, clip.Text(b.Voter))
		case !members[b.Voter]:
			return Tally{}, msgerr.Errorf("%w: voter %q", ErrNotInFellowship, clip.Text(b.Voter))
		case voted[b.Voter]:
			return Tally{}, msgerr.Errorf("%w: %q voted twice", ErrDuplicateVote, clip.Text(b.Voter))
		}
		voted[b.Voter] = true
		t.Voters++
		if b.Agree {
			t.Agree++
		} else {
			t.Refuse++
		}
	}
	var missing []string
	for _, m := range v.Fellowship {
		if m != v.Requester && !voted[m] {
			missing = append(missing, m)
		}
	}
	if len(missing) > 0 {
		return Tally{}, msgerr.Errorf("%w: waiting for %s", ErrVoteIncomplete, strings.Join(missing, ", "))
	}
	t.Granted = 2*t.Agree >= t.Voters
	return t, nil
}

// What came of a request for a fellowship point.
const (
	FellowshipGranted   = "granted"      // the vote agreed: Hope +1, pool −1
	FellowshipForced    = "taken anyway" // refused but taken: Hope +1, pool −1, Shadow +1
	FellowshipWithdrawn = "withdrawn"    // refused and not taken: nothing changes
)

// FellowshipSpend is the outcome of a request for a fellowship point: the
// tally, what came of it and the requester's Hope and Shadow and the pool
// afterwards.
type FellowshipSpend struct {
	Tally   Tally  `json:"tally"`
	Outcome string `json:"outcome"` // one of the Fellowship… constants
	Taken   bool   `json:"taken"`   // a point left the pool and became Hope
	Hope    int    `json:"hope"`
	Shadow  int    `json:"shadow"`
	Pool    int    `json:"pool"`
}

// SpendFellowshipPoint settles c's request for 1 fellowship point from pool
// (docs/rules.md §2.4). If the vote grants it: Hope +1, pool −1. If more than
// half refused: with takeAnyway the point is taken all the same (Hope +1,
// pool −1, Shadow +1), else the request is withdrawn and nothing changes.
//
// It refuses an empty pool (ErrPoolEmpty), a negative pool (ErrOutOfRange),
// a character already at maximum Hope (ErrHopeFull), a Shadow gain past
// ShadowLimit (ErrOutOfRange) and every error of Vote.Tally. c is not changed.
func SpendFellowshipPoint(c Character, pool int, v Vote, takeAnyway bool) (FellowshipSpend, error) {
	switch {
	case pool < 0:
		return FellowshipSpend{}, msgerr.Errorf("%w: fellowship pool %d", ErrOutOfRange, pool)
	case pool == 0:
		return FellowshipSpend{}, ErrPoolEmpty
	case c.Hope >= c.MaxHope:
		return FellowshipSpend{}, msgerr.Errorf("%w: hope %d of %d", ErrHopeFull, c.Hope, c.MaxHope)
	}
	t, err := v.Tally()
	if err != nil {
		return FellowshipSpend{}, err
	}
	out := FellowshipSpend{Tally: t, Hope: c.Hope, Shadow: c.Shadow, Pool: pool}
	switch {
	case t.Granted:
		out.Outcome = FellowshipGranted
	case takeAnyway:
		if c.Shadow >= ShadowLimit {
			return FellowshipSpend{}, msgerr.Errorf("%w: shadow %d already at %d", ErrOutOfRange, c.Shadow, ShadowLimit)
		}
		out.Outcome = FellowshipForced
		out.Shadow++
	default:
		out.Outcome = FellowshipWithdrawn
		return out, nil
	}
	out.Taken = true
	out.Hope++
	out.Pool--
	return out, nil
}
