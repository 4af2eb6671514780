package command

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rules/tor"
)

// The One Ring's company: adventures, the fellowship pool and its vote,
// advancement points and the fellowship phase.
//
// Decisions:
//   - An adventure is started by the GM ('adventure start') and ended by the
//     fellowship phase. The pool is set when it starts (player characters +
//     hobbits); a player character created during it adds its share.
//     Fellowship points and advancement points need an adventure in
//     progress; rolls between adventures earn no advancement.
//   - One request for a fellowship point at a time. The fellowship of a
//     request is every player character not in a bout of madness when it
//     is made; every member but the requester votes, once. The last vote
//     settles it: granted, the point is spent in the same batch; refused,
//     the requester takes it anyway (+1 Shadow) or withdraws it. A request
//     may be withdrawn while the vote is open too. A fellowship of one is
//     granted at once.
//   - An advancement point names the roll that earned it: a roll of the
//     adventure in progress, of a skill of that group, that qualifies for
//     the group's next box (tor.NextAdvancement) and has not earned a point
//     yet. Without a roll, the GM grants it by decision alone (the rules
//     let the GM decide). Never a 4th point in a group.

// AdventureRequest is a StartAdventure: its title, if any.
type AdventureRequest struct {
	Title string `json:"title,omitempty" cli:"[TITLE]"`
}

// StartAdventure starts an adventure: the fellowship pool is set to the
// number of player characters plus the hobbits among them.
func (j *Handler) StartAdventure(ctx context.Context, campaign, title string) (Result, error) {
	return j.execute(ctx, campaign, func(d *draft) error {
		s, err := torState(d.campaign)
		if err != nil {
			return err
		}
		if a := s.Adventure; a != nil {
			return invalid("adventure %d is in progress: the fellowship phase ends it first ('journal fellowship phase')", a.Number)
		}
		d.add(events.KindCampaign, d.campaign.ID, events.TypeTORAdventureStarted, events.TORAdventureStarted{
			Number: s.Adventures + 1, Title: strings.TrimSpace(title), Pool: tor.StartingPool(s.Company()),
		})
		return nil
	})
}

// FellowshipPhase ends the adventure in progress: every character's
// advancement points go to its total and its groups are cleared, temporary
// Shadow is cleared, and the pool is reset.
func (j *Handler) FellowshipPhase(ctx context.Context, campaign string) (Result, error) {
	return j.execute(ctx, campaign, func(d *draft) error {
		s, err := torState(d.campaign)
		if err != nil {
			return err
		}
		if s.Adventure == nil {
			return invalid("no adventure in progress: the fellowship phase ends one ('journal adventure start' begins it)")
		}
		if r := s.Request; r != nil {
			return invalid("%s's request for a fellowship point is still open: settle it first (vote, take or withdraw)", s.Characters[r.Character].Name)
		}
		data := events.TORFellowshipPhase{Adventure: s.Adventure.Number, Banked: map[string]int{}, ShadowCleared: map[string]int{}}
		var company []tor.Character
		for _, id := range s.Roster {
			ch := s.Characters[id]
			data.Banked[id] = ch.AdventurePoints()
			if ch.Shadow > 0 {
				data.ShadowCleared[id] = ch.Shadow
			}
			if !ch.NPC {
				company = append(company, ch.Character)
			}
		}
		_, data.Pool = tor.FellowshipPhase(company)
		d.add(events.KindCampaign, d.campaign.ID, events.TypeTORFellowshipPhase, data)
		return nil
	})
}

// RequestFellowship asks the fellowship for 1 point of the pool, to regain
// 1 Hope (docs/rules.md §2.4). Every other member of the fellowship then votes.
func (j *Handler) RequestFellowship(ctx context.Context, campaign, char string) (Result, error) {
	return j.execute(ctx, campaign, func(d *draft) error {
		s, err := torState(d.campaign)
		if err != nil {
			return err
		}
		ch, err := torCharacter(d.campaign, char)
		if err != nil {
			return err
		}
		if ch.NPC {
			return torInvalid(ch.Name, msgerr.Errorf("%w: non-player characters do not share the pool", tor.ErrNotInFellowship))
		}
		if err := playerControls(ch, "ask for a fellowship point"); err != nil {
			return err
		}
		if s.Adventure == nil {
			return invalid("no adventure in progress: the fellowship pool is set when one starts ('journal adventure start')")
		}
		if r := s.Request; r != nil {
			return invalid("%s's request for a fellowship point is still open: settle it first (vote, take or withdraw)", s.Characters[r.Character].Name)
		}
		if s.Pool <= 0 {
			return torInvalid(ch.Name, tor.ErrPoolEmpty)
		}
		if ch.Hope >= ch.MaxHope {
			return torInvalid(ch.Name, msgerr.Errorf("%w: hope %d of %d", tor.ErrHopeFull, ch.Hope, ch.MaxHope))
		}
		fellowship := s.Fellowship()
		id := d.add(events.KindCharacter, ch.ID, events.TypeTORFellowshipRequested, events.TORFellowshipRequested{
			Character: ch.ID, Fellowship: fellowship, Pool: s.Pool,
		})
		if len(fellowship) == 1 {
			vote := tor.Vote{Requester: ch.ID, Fellowship: fellowship}
			return d.spendFellowship(s, ch, id, vote, false)
		}
		return nil
	})
}

// VoteRequest is a Vote: on whose request, whose vote, and which.
type VoteRequest struct {
	Character string `json:"character" cli:"CHAR" complete:"character"`
	Voter     string `json:"voter" cli:"VOTER" complete:"character"`
	Agree     bool   `json:"agree" cli:"yes|no" complete:"vote"`
}

// Vote records one member's vote on a character's pending request. The last
// vote settles it: granted, the point is spent at once; refused, the
// requester takes it anyway or withdraws.
func (j *Handler) Vote(ctx context.Context, campaign, char, voter string, agree bool) (Result, error) {
	return j.execute(ctx, campaign, func(d *draft) error {
		s, err := torState(d.campaign)
		if err != nil {
			return err
		}
		ch, err := torCharacter(d.campaign, char)
		if err != nil {
			return err
		}
		r, err := pendingRequest(s, ch)
		if err != nil {
			return err
		}
		v, err := torCharacter(d.campaign, voter)
		if err != nil {
			return err
		}
		switch {
		case v.ID == ch.ID:
			return torInvalid(v.Name, msgerr.Errorf("%w on its own request", tor.ErrRequesterVoted))
		case !slices.Contains(r.Fellowship, v.ID):
			why := "it joined after the request"
			if v.NPC {
				why = "non-player characters do not vote"
			} else if !slices.Contains(s.Fellowship(), v.ID) {
				why = "it was in a bout of madness when the request was made"
			}
			return torInvalid(v.Name, msgerr.Errorf("%w of this request (%s; voters: %s)", tor.ErrNotInFellowship, why, strings.Join(voters(r), ", ")))
		case slices.ContainsFunc(r.Ballots, func(b tor.Ballot) bool { return b.Voter == v.ID }):
			return torInvalid(v.Name, msgerr.Errorf("%w on %s's request", tor.ErrDuplicateVote, ch.Name))
		}
		if err := playerControls(v, "vote"); err != nil {
			return err
		}
		vote := r.Vote()
		vote.Ballots = append(vote.Ballots, tor.Ballot{Voter: v.ID, Agree: agree})
		t, err := vote.Tally()
		if err != nil && !errors.Is(err, tor.ErrVoteIncomplete) {
			return torInvalid(v.Name, err)
		}
		d.addCaused(events.KindCharacter, v.ID, events.TypeTORFellowshipVoted, r.EventID, events.TORFellowshipVoted{
			Request: r.EventID, Character: ch.ID, Voter: v.ID, Agree: agree,
		})
		if err == nil && t.Granted {
			return d.spendFellowship(s, ch, r.EventID, vote, false)
		}
		return nil
	})
}

// ResolveFellowship settles a character's request that the fellowship
// refused: take the point anyway (Hope +1, pool −1, Shadow +1), or
// withdraw the request (nothing changes; also while the vote is open).
func (j *Handler) ResolveFellowship(ctx context.Context, campaign, char string, take bool) (Result, error) {
	return j.execute(ctx, campaign, func(d *draft) error {
		s, err := torState(d.campaign)
		if err != nil {
			return err
		}
		ch, err := torCharacter(d.campaign, char)
		if err != nil {
			return err
		}
		r, err := pendingRequest(s, ch)
		if err != nil {
			return err
		}
		if !take {
			w := events.TORFellowshipWithdrawn{Request: r.EventID, Character: ch.ID}
			for _, b := range r.Ballots {
				if b.Agree {
					w.Agree++
				} else {
					w.Refuse++
				}
			}
			d.addCaused(events.KindCharacter, ch.ID, events.TypeTORFellowshipWithdrawn, r.EventID, w)
			return nil
		}
		if !r.Refused() {
			return invalid("the fellowship has not refused %s's request: the vote is still open (waiting for %s)", ch.Name, strings.Join(r.Waiting(), ", "))
		}
		if err := playerControls(ch, "take a fellowship point"); err != nil {
			return err
		}
		return d.spendFellowship(s, ch, r.EventID, r.Vote(), true)
	})
}

// spendFellowship drafts the point spent on a settled request.
func (d *draft) spendFellowship(s *projections.TORState, ch *projections.TORSheet, request string, vote tor.Vote, takeAnyway bool) error {
	sp, err := tor.SpendFellowshipPoint(ch.Character, s.Pool, vote, takeAnyway)
	if err != nil {
		return torInvalid(ch.Name, err)
	}
	if !sp.Taken {
		return invalid("the fellowship refused %s's request", ch.Name)
	}
	outcome := events.TORFellowshipGranted
	if sp.Outcome == tor.FellowshipForced {
		outcome = events.TORFellowshipForced
	}
	d.addCaused(events.KindCharacter, ch.ID, events.TypeTORFellowshipSpent, request, events.TORFellowshipSpent{
		Request: request, Character: ch.ID, Outcome: outcome, Voters: sp.Tally.Voters, Agree: sp.Tally.Agree,
		Refuse: sp.Tally.Refuse, Hope: sp.Hope, Shadow: sp.Shadow, Pool: sp.Pool,
	})
	return nil
}

func pendingRequest(s *projections.TORState, ch *projections.TORSheet) (*projections.TORRequest, error) {
	r := s.Request
	if r == nil || r.Character != ch.ID {
		return nil, invalid("%s has no open request for a fellowship point ('journal fellowship ask %s')", ch.Name, ch.ID)
	}
	return r, nil
}

func voters(r *projections.TORRequest) []string {
	var out []string
	for _, m := range r.Fellowship {
		if m != r.Character {
			out = append(out, m)
		}
	}
	return out
}

// groupOf reads a skill group by name, or the group of a skill: "Percepción",
// "perception", "Buscar" (Percepción). The skill is returned when one was named.
func groupOf(name string) (tor.Group, string, error) {
	g, err := tor.LookupGroup(name)
	if err == nil {
		return g, "", nil
	}
	if !errors.Is(err, tor.ErrUnknownGroup) {
		return "", "", invalidOr(err)
	}
	sk, serr := tor.LookupSkill(name)
	if serr != nil {
		if errors.Is(serr, tor.ErrUnknownSkill) {
			var cands []string
			for _, g := range tor.Groups() {
				cands = append(cands, string(g))
			}
			for _, s := range tor.Skills() {
				cands = append(cands, s.Name)
			}
			return "", "", invalid("%v %q (nor a skill)%s", tor.ErrUnknownGroup, clip.Text(name), didYouMean(name, cands))
		}
		return "", "", invalidOr(serr)
	}
	return sk.Group, sk.Name, nil
}

// AdvancementRequest is a GrantAdvancement: whose point, in which group
// (or one of its skills), for which roll ("" for the GM's decision).
type AdvancementRequest struct {
	Character string `json:"character" cli:"CHAR" complete:"character"`
	Group     string `json:"group" cli:"GROUP|SKILL" complete:"group"`
	Roll      string `json:"roll,omitempty" cli:"--roll EVENT_ID" resolve:"event" help:"the roll (event id) that earned the point; without it, the GM's decision alone"`
}

// GrantAdvancement has the GM grant a character one advancement point in a
// skill group (named, or by one of its skills) for the adventure in
// progress. roll names the roll that earned it: it must qualify for the
// group's next box. Without a roll the GM grants by decision alone. A 4th
// point in a group is refused.
func (j *Handler) GrantAdvancement(ctx context.Context, campaign, char, group, roll string) (Result, error) {
	g, _, err := groupOf(group)
	if err != nil {
		return Result{}, err
	}
	return j.execute(ctx, campaign, func(d *draft) error {
		s, err := torState(d.campaign)
		if err != nil {
			return err
		}
		ch, err := torCharacter(d.campaign, char)
		if err != nil {
			return err
		}
		if s.Adventure == nil {
			return invalid("no adventure in progress: advancement points are earned during one ('journal adventure start')")
		}
		count := ch.Advancement[g]
		if _, err := tor.GrantAdvancement(ch.Character, g); err != nil {
			return torInvalid(ch.Name, msgerr.Errorf("%w in adventure %d", err, s.Adventure.Number))
		}
		data := events.TORAdvancementGranted{Character: ch.ID, Group: string(g), Box: count + 1, Reason: "the GM's decision"}
		if roll != "" {
			r := s.Rolls[roll]
			if r == nil {
				if ch.LastRoll != nil && ch.LastRoll.EventID == roll {
					return invalid("roll %s was not made in the adventure in progress (adventure %d)", roll, s.Adventure.Number)
				}
				return notFound("no roll %s in adventure %d", roll, s.Adventure.Number)
			}
			if r.Character != ch.ID {
				return invalid("roll %s is %s's, not %s's", roll, s.Characters[r.Character].Name, ch.Name)
			}
			if r.Group != g {
				return invalid("roll %s was %s, a skill of %s, not of %s", roll, r.Skill, r.Group, g)
			}
			e, err := s.Eligibility(r)
			if err != nil {
				return torInvalid(ch.Name, err)
			}
			if !e.Qualifies {
				return invalid("roll %s (%s, %s) does not earn box %d of %s: %s", roll, r.Skill, r.Result.Describe(), e.Box, g, e.Reason)
			}
			data.Roll, data.Skill, data.Reason = r.EventID, r.Skill, e.Reason
		}
		d.addCaused(events.KindCharacter, ch.ID, events.TypeTORAdvancementGranted, roll, data)
		return nil
	})
}
