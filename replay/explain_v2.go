package replay

import (
	"encoding/hex"
	"fmt"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/internal/msgerr"
	"slices"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/rolls"
	"github.com/campaign-journal/journal/rules/dice"
)

// V2Steps are the steps of a journal-dice-v2 roll: the contributions that
// made the session key, the request and its commitment, the reveal.
type V2Steps struct {
	Contributions []V2Contribution `json:"contributions"`
	// Key is K (lower-case hex), once the seed is known.
	Key        string `json:"key,omitempty"`
	Request    string `json:"request"`
	RequestBy  string `json:"request_by,omitempty"`
	RequestSeq uint64 `json:"request_seq,omitempty"`
	Commitment string `json:"commitment,omitempty"`
	Reveal     string `json:"reveal"`
	// RevealMatches says whether SHA-256(reveal) is the request's commitment
	// (nil when the request is not in the input).
	RevealMatches *bool `json:"reveal_matches,omitempty"`
	// Draws are the sides the event records, in order.
	Draws []int `json:"draws"`
	// Nonces are the request's nonces when it takes several (an attack, a
	// contest, a combat start), Path its kind and Nth which of them the
	// roll takes, from 1 (v2_paths.go).
	Nonces []uint64 `json:"nonces,omitempty"`
	Path   string   `json:"path,omitempty"`
	Nth    int      `json:"nth,omitempty"`
	// TOR is a The One Ring roll's own steps (v2_tor.go).
	TOR *V2TORSteps `json:"tor,omitempty"`
	// Source is where a GM's roll took r from (nil for a player's own
	// reveal); for a GM's request RevealMatches says whether it holds.
	Source *V2Source `json:"source,omitempty"`
}

// V2Contribution is one contribution to a v2 session key, in stream order.
type V2Contribution struct {
	User  string `json:"user"`
	Value string `json:"value"`
	Seq   uint64 `json:"seq"`
}

// v2Context is what ExplainEvent collects for a v2 roll.
type v2Context struct {
	contributions map[string][]V2Contribution // by session key
	requests      map[string]events.Recorded  // by request id
	hope          map[string]events.Recorded  // Hope spent, by roll event id (v2_tor.go)
}

func (c *v2Context) note(r events.Recorded) {
	ev := r.Event
	switch ev.Type {
	case events.TypeSessionContributed:
		var d events.SessionContributed
		if ev.DecodeData(&d) == nil {
			k := sessionKey(ev.Campaign, ev.Session)
			c.contributions[k] = append(c.contributions[k], V2Contribution{User: d.User, Value: d.Value, Seq: r.Seq})
		}
	case events.TypeRollRequested:
		var d events.RollRequested
		if ev.DecodeData(&d) == nil {
			if _, ok := c.requests[d.Request]; !ok {
				c.requests[d.Request] = r
			}
		}
	case events.TypeTORHopeSpent:
		c.noteHope(r) // v2_tor.go
	}
}

// explainV2 redoes the dice of x, a v2 roll: K from the seed and the
// contributions, the stream keyed by K and bound to the reveal, the draws.
func explainV2(x *Explanation, roll events.Event, started *events.SessionStarted, seed *dice.Seed, c *v2Context) {
	var e events.RollMade
	if roll.DecodeData(&e) != nil {
		return
	}
	v := &V2Steps{Request: e.Request, Reveal: e.Reveal, Draws: slices.Clone(e.Draws),
		Contributions: slices.Clone(c.contributions[sessionKey(roll.Campaign, roll.Session)])}
	if v.Contributions == nil {
		v.Contributions = []V2Contribution{}
	}
	x.V2 = v
	x.Message = fmt.Sprintf("%s|%s|%s|%d|%s|", dice.AlgorithmV2, roll.Campaign, roll.Session, e.Nonce, e.Reveal)
	x.Blocks, x.Draws, x.Derived, x.FacesMatch = nil, nil, nil, nil
	r, rerr := dice.ParseHex32(e.Reveal)
	if rec, ok := c.requests[e.Request]; ok {
		var d events.RollRequested
		if rec.Event.DecodeData(&d) == nil {
			v.RequestBy, v.RequestSeq, v.Commitment = d.User, rec.Seq, d.Commitment
			v.TOR = c.torSteps(d, roll.ID) // v2_tor.go
			pathSteps(v, d, e.Nonce)       // v2_paths.go
			m := rerr == nil && dice.RevealMatches(r, d.Commitment)
			if d.Commitment == "" { // a GM's request (explain_v2_witness.go)
				m = v.gmSource(e, d)
			}
			v.RevealMatches = &m
		}
	}
	sides, sidesErr := rolls.Dice(e)
	if sidesErr == nil && !slices.Equal(sides, e.Draws) {
		sidesErr = msgerr.Errorf("recorded draws %v, the rules roll %v", e.Draws, sides)
	}
	if seed != nil && rerr == nil {
		var contribs [][dice.ContributionSize]byte
		for _, cv := range v.Contributions {
			b, err := dice.ParseHex32(cv.Value)
			if err != nil {
				sidesErr = msgerr.Errorf("contribution at seq %d: %w", cv.Seq, err)
				break
			}
			contribs = append(contribs, b)
		}
		k := dice.SessionKey(*seed, roll.Campaign, roll.Session, contribs)
		v.Key = k.String()
		st := k.Stream(roll.Campaign, roll.Session, e.Nonce, r)
		st.Trace()
		if sidesErr == nil {
			if derived, err := derive(st, e.Draws, nil); err == nil {
				x.Derived = derived
				eq := slices.Equal(derived, e.Faces)
				x.FacesMatch = &eq
			}
		}
		x.Draws, x.Blocks = drawSteps(st)
		for i := range x.Blocks {
			b := st.Block(x.Blocks[i].Index)
			x.Blocks[i].Hex = hex.EncodeToString(b[:])
		}
	}
	x.verdict, x.Verified = verdict(*x, sidesErr, started != nil)
	switch {
	case v.RevealMatches == nil:
		x.Verified = false
		x.verdict = append(text{msg("x2v.request_missing", e.Request)}, x.verdict...)
	case !*v.RevealMatches && v.Source != nil:
		x.Verified = false
		x.verdict = append(text{v.Source.mismatch()}, x.verdict...)
	case !*v.RevealMatches:
		x.Verified = false
		x.verdict = append(text{msg("x2v.reveal_mismatch")}, x.verdict...)
	}
	if x.Verified && v.Source != nil {
		x.verdict = append(x.verdict, v.Source.verified())
	} else if x.Verified {
		x.verdict = append(x.verdict, msg("x2v.verified", v.Commitment, v.RequestBy))
	}
	x.Verdict = x.verdict.inL(i18n.EN)
}

// writeV2 writes a v2 roll's own steps.
func (x Explanation) writeV2(l i18n.Lang, p func(string)) {
	v := x.V2
	p(l.T("x2.key", dice.AlgorithmV2, dice.AlgorithmV2+"|key|"+x.Campaign+"|"+x.Session+"|"))
	if len(v.Contributions) == 0 {
		p(l.T("x2.no_contribution"))
	}
	for _, c := range v.Contributions {
		p(l.T("x2.contribution", c.User, c.Seq, c.Value))
	}
	if v.Key != "" {
		p(l.T("x2.k", v.Key))
	}
	switch {
	case v.RevealMatches == nil:
		p(l.T("x2.request_missing", v.Request))
	case v.Source != nil:
		p(l.T("x2.request_gm", v.Request, v.RequestBy, v.RequestSeq))
		v.Source.write(l, p)
	default:
		p(l.T("x2.request", v.Request, v.RequestBy, v.RequestSeq, v.Commitment))
		if *v.RevealMatches {
			p(l.T("x2.reveal_matches", v.Reveal))
		} else {
			p(l.T("x2.reveal_differs", v.Reveal))
		}
	}
	writePathSteps(l, v, p) // v2_paths.go
	p(l.T("x2.draws", v.Draws))
	v.writeTOR(l, p) // v2_tor.go
	p(l.T("x2.stream", x.Message))
}
