package tor_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/campaign-journal/journal/rules/tor"
)

func TestStartingPool(t *testing.T) {
	hobbit := tor.Character{Culture: "Hobbits de la Comarca"}
	dwarf := tor.Character{Culture: "Enanos"}
	flagged := tor.Character{Hobbit: true}
	tests := []struct {
		name    string
		company []tor.Character
		want    int
	}{
		{"nobody", nil, 0},
		{"one dwarf", []tor.Character{dwarf}, 1},
		{"four with one hobbit", []tor.Character{dwarf, dwarf, hobbit, dwarf}, 5},
		{"three hobbits", []tor.Character{hobbit, flagged, hobbit}, 6},
	}
	for _, tt := range tests {
		if got := tor.StartingPool(tt.company); got != tt.want {
			t.Errorf("%s: StartingPool() = %d, want %d", tt.name, got, tt.want)
		}
	}
}

func TestPoolSize(t *testing.T) {
	tests := []struct {
		players, hobbits, want int
		wantErr                error
	}{
		{4, 0, 4, nil},
		{4, 1, 5, nil},
		{3, 3, 6, nil},
		{0, 0, 0, nil},
		{2, 3, 0, tor.ErrOutOfRange},
		{-1, 0, 0, tor.ErrOutOfRange},
		{3, -1, 0, tor.ErrOutOfRange},
	}
	for _, tt := range tests {
		got, err := tor.PoolSize(tt.players, tt.hobbits)
		if got != tt.want || !errors.Is(err, tt.wantErr) {
			t.Errorf("PoolSize(%d, %d) = %d, %v; want %d, %v", tt.players, tt.hobbits, got, err, tt.want, tt.wantErr)
		}
	}
}

// ballots builds ballots from "voter+" (agree) and "voter-" (refuse).
func ballots(votes ...string) []tor.Ballot {
	out := make([]tor.Ballot, len(votes))
	for i, v := range votes {
		out[i] = tor.Ballot{Voter: v[:len(v)-1], Agree: strings.HasSuffix(v, "+")}
	}
	return out
}

func TestTally(t *testing.T) {
	four := []string{"lodin", "bilba", "aragorn", "gimli"}
	five := append([]string{"frodo"}, four...)
	tests := []struct {
		name       string
		fellowship []string
		votes      []string
		want       tor.Tally
	}{
		{"all agree", four, []string{"bilba+", "aragorn+", "gimli+"}, tor.Tally{Voters: 3, Agree: 3, Granted: true}},
		{"two of three agree", four, []string{"bilba+", "aragorn-", "gimli+"}, tor.Tally{Voters: 3, Agree: 2, Refuse: 1, Granted: true}},
		{"two of three refuse", four, []string{"bilba-", "aragorn+", "gimli-"}, tor.Tally{Voters: 3, Agree: 1, Refuse: 2}},
		{"half of four agree: granted", five, []string{"bilba+", "aragorn-", "gimli+", "frodo-"}, tor.Tally{Voters: 4, Agree: 2, Refuse: 2, Granted: true}},
		{"three of four refuse", five, []string{"bilba+", "aragorn-", "gimli-", "frodo-"}, tor.Tally{Voters: 4, Agree: 1, Refuse: 3}},
		{"one voter refuses", []string{"lodin", "bilba"}, []string{"bilba-"}, tor.Tally{Voters: 1, Refuse: 1}},
		{"alone: no voters, granted", []string{"lodin"}, nil, tor.Tally{Granted: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tor.Vote{Requester: "lodin", Fellowship: tt.fellowship, Ballots: ballots(tt.votes...)}.Tally()
			if err != nil {
				t.Fatalf("Tally() error = %v", err)
			}
			if got != tt.want {
				t.Errorf("Tally() = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestTallyErrors(t *testing.T) {
	four := []string{"lodin", "bilba", "aragorn", "gimli"}
	tests := []struct {
		name       string
		requester  string
		fellowship []string
		votes      []string
		wantErr    error
		mention    string
	}{
		{"requester votes", "lodin", four, []string{"lodin+", "bilba+", "aragorn+", "gimli+"}, tor.ErrRequesterVoted, "lodin"},
		{"stranger votes", "lodin", four, []string{"bilba+", "aragorn+", "gimli+", "sauron-"}, tor.ErrNotInFellowship, "sauron"},
		{"voter votes twice", "lodin", four, []string{"bilba+", "aragorn-", "gimli+", "aragorn+"}, tor.ErrDuplicateVote, "aragorn"},
		{"vote incomplete", "lodin", four, []string{"bilba+"}, tor.ErrVoteIncomplete, "aragorn, gimli"},
		{"requester outside", "sauron", four, nil, tor.ErrNotInFellowship, "sauron"},
		{"no requester", " ", four, nil, tor.ErrInvalidVote, ""},
		{"member twice", "lodin", []string{"lodin", "bilba", "bilba"}, []string{"bilba+"}, tor.ErrInvalidVote, "bilba"},
		{"blank member", "lodin", []string{"lodin", ""}, nil, tor.ErrInvalidVote, ""},
		{"empty fellowship", "lodin", nil, nil, tor.ErrNotInFellowship, "lodin"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tor.Vote{Requester: tt.requester, Fellowship: tt.fellowship, Ballots: ballots(tt.votes...)}.Tally()
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Tally() error = %v, want %v", err, tt.wantErr)
			}
			if !strings.Contains(err.Error(), tt.mention) {
				t.Errorf("error %q does not mention %q", err, tt.mention)
			}
		})
	}
}

func TestSpendFellowshipPoint(t *testing.T) {
	four := []string{"lodin", "bilba", "aragorn", "gimli"}
	agree := ballots("bilba+", "aragorn+", "gimli-")
	refuse := ballots("bilba-", "aragorn+", "gimli-")
	tests := []struct {
		name       string
		ballots    []tor.Ballot
		takeAnyway bool
		outcome    string
		taken      bool
		hope       int
		shadow     int
		pool       int
	}{
		{"granted", agree, false, tor.FellowshipGranted, true, 4, 1, 4},
		{"granted, take-anyway ignored", agree, true, tor.FellowshipGranted, true, 4, 1, 4},
		{"refused, taken anyway", refuse, true, tor.FellowshipForced, true, 4, 2, 4},
		{"refused, withdrawn", refuse, false, tor.FellowshipWithdrawn, false, 3, 1, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := lodin()
			c.Hope, c.Shadow = 3, 1
			got, err := tor.SpendFellowshipPoint(c, 5, tor.Vote{Requester: "lodin", Fellowship: four, Ballots: tt.ballots}, tt.takeAnyway)
			if err != nil {
				t.Fatalf("SpendFellowshipPoint() error = %v", err)
			}
			if got.Outcome != tt.outcome || got.Taken != tt.taken || got.Hope != tt.hope || got.Shadow != tt.shadow || got.Pool != tt.pool {
				t.Errorf("got %s taken %v hope %d shadow %d pool %d; want %s %v %d %d %d",
					got.Outcome, got.Taken, got.Hope, got.Shadow, got.Pool, tt.outcome, tt.taken, tt.hope, tt.shadow, tt.pool)
			}
			if c.Hope != 3 || c.Shadow != 1 {
				t.Errorf("the character was changed: %+v", c)
			}
		})
	}
}

func TestSpendFellowshipPointErrors(t *testing.T) {
	vote := tor.Vote{Requester: "lodin", Fellowship: []string{"lodin", "bilba"}, Ballots: ballots("bilba-")}
	tests := []struct {
		name    string
		hope    int
		shadow  int
		pool    int
		vote    tor.Vote
		wantErr error
	}{
		{"pool empty", 3, 0, 0, vote, tor.ErrPoolEmpty},
		{"pool negative", 3, 0, -1, vote, tor.ErrOutOfRange},
		{"hope full", 12, 0, 3, vote, tor.ErrHopeFull},
		{"vote incomplete", 3, 0, 3, tor.Vote{Requester: "lodin", Fellowship: []string{"lodin", "bilba"}}, tor.ErrVoteIncomplete},
		{"shadow at its limit", 3, tor.ShadowLimit, 3, vote, tor.ErrOutOfRange},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := lodin()
			c.Hope, c.Shadow = tt.hope, tt.shadow
			if _, err := tor.SpendFellowshipPoint(c, tt.pool, tt.vote, true); !errors.Is(err, tt.wantErr) {
				t.Errorf("SpendFellowshipPoint() error = %v, want %v", err, tt.wantErr)
			}
		})
	}
}
