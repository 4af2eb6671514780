package web

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/campaign-journal/journal/events"
)

// A roll's evidence (GET /api/permalinks/{c}/{id}?k=CAP) is what verifying
// that roll needs for its card to say, in the visitor's browser, what the
// whole campaign's audit says of it (verify.js, as `journal replay`:
// docs/design.md §3.3.7): its status and every flag about it, with the
// flag's words. Nothing else of the campaign. For the roll id:
//
//   - the actions it belongs to (attack, contest, combat's initiative),
//     their other rolls, the damage taken an attack's hit recorded in its
//     own batch, the Hope spent on one of the rolls, the tie a contest
//     re-rolls;
//   - the rolls' requests, with their cancellations, chain witnesses and
//     receipts (unwitnessed, partial-witness, witness-key-by-other,
//     beacon-not-used, beacon-unseen); the same user's earlier requests
//     for the same action in the same combat round and session, with the
//     roll answering each (repeated); in a session of witness chains, the
//     earlier GM requests (whose count is a GM request's witness index);
//     the session's first request when a contribution follows it (a late
//     contribution is not in the session key);
//   - the rolls' sessions: the start, the contributions (no-contribution),
//     the end (the seed, recorded only once the session ended), the
//     co-signatures of the end (not-cosigned) and the campaign's next
//     event after the end (its prevhash is the hash of the end's stored
//     bytes, which a co-signature signs); a journal-dice-v2 session not
//     ended, its latest event (open, stale); a journal-dice-v1 session,
//     the other rolls of its nonce (a nonce used twice);
//   - the voids of the rolls (voided, with the roller's consent or not);
//   - every key event (registration, approval, revocation) of each user
//     who signed one of these, and, for a journal-dice-v1 session started
//     while a device key was registered (downgrade), of the user its flag
//     names.
//
// Nil when id is not a roll of c.

// evRefs are the fields of an event's data an evidence follows.
type evRefs struct {
	User         string            `json:"user"`
	Request      string            `json:"request"`
	AttackRoll   string            `json:"attack_roll"`
	DamageRoll   string            `json:"damage_roll"`
	RollA        string            `json:"roll_a"`
	RollB        string            `json:"roll_b"`
	Initiative   map[string]string `json:"initiative"`
	Target       string            `json:"target"`
	Character    string            `json:"character"`
	ID           string            `json:"id"`       // a character's creation's
	EventID      string            `json:"event_id"` // a void's
	Roll         string            `json:"roll"`     // Hope spent's
	Rematch      string            `json:"rematch"`  // a contest's re-roll
	Algorithm    string            `json:"algorithm"`
	Nonce        *int              `json:"nonce"`
	WitnessIndex int               `json:"witness_index"`
	Round        int               `json:"round"`
	Signed       string            `json:"signed"`
	// Hidden: the secret roll a roll reveals (its inputs are the evidence's).
	Hidden string `json:"hidden"`
	// An attack's outcome and its damage taken's.
	Attacker string `json:"attacker"`
	Hit      bool   `json:"hit"`
	Damage   int    `json:"damage"`
	Amount   int    `json:"amount"`
	Source   string `json:"source"`
}

// characterOf is the character a creation event creates: its subject's
// ("characters/ID"), else its data's id (verify.js reads it so).
func characterOf(x evRec) string {
	if id, ok := strings.CutPrefix(x.r.Event.Subject, "characters/"); ok {
		return id
	}
	return x.d.ID
}

// rollsOf are the rolls an action (attack, contest, combat start) names.
func (d evRefs) rollsOf() []string {
	out := []string{d.AttackRoll, d.DamageRoll, d.RollA, d.RollB}
	for _, v := range d.Initiative {
		out = append(out, v)
	}
	return slices.DeleteFunc(out, func(s string) bool { return s == "" })
}

// isKeyType reports whether typ registers, approves or revokes a user's
// key: an evidence holds every one of its signers'.
func isKeyType(typ string) bool {
	switch typ {
	case events.TypeParticipantRegistered, events.TypeDeviceRegistered, events.TypeDeviceApproved, events.TypeDeviceRevoked:
		return true
	}
	return false
}

// sameBatch reports whether a, stored just before b, was recorded by the
// same command: at the sequence before b's, with b's time, session,
// actor, request id and command (a command's events are one atomic
// append, stored contiguously, all at the command's time).
func sameBatch(a, b events.Recorded) bool {
	x, y := a.Event, b.Event
	return a.Seq+1 == b.Seq && x.Time.Equal(y.Time) && x.Session == y.Session && x.Actor == y.Actor &&
		x.RequestID == y.RequestID && x.Command == y.Command
}

// evRec is an event of the campaign with the fields the evidence follows,
// and for a request, what makes two requests the same action (replay's
// actionKey: the user, the signed action as canonical JSON, the combat
// and round in progress).
type evRec struct {
	r      events.Recorded
	d      evRefs
	action string
}

// canonicalAction is a request's signed action as canonical JSON (its
// members sorted), "" when it has none.
func canonicalAction(signedMsg string) string {
	var m struct {
		Action map[string]any `json:"action"`
	}
	if json.Unmarshal([]byte(signedMsg), &m) != nil || m.Action == nil {
		return ""
	}
	b, err := json.Marshal(m.Action)
	if err != nil {
		return ""
	}
	return string(b)
}

// evidenceRecs reads a campaign's events, in stream order, with their
// references and, for each request, its action key.
func evidenceRecs(recs []events.Recorded) []evRec {
	all := make([]evRec, 0, len(recs))
	combat := "" // the combat and round in progress: "START-SEQ/ROUND"
	var start uint64
	for _, r := range recs {
		x := evRec{r: r}
		_ = json.Unmarshal(r.Event.Data, &x.d) // a field of another shape names nothing
		switch r.Event.Type {
		case events.TypeCombatStarted:
			start, combat = r.Seq, fmt.Sprintf("%d/1", r.Seq)
		case events.TypeCombatRound:
			if combat != "" {
				combat = fmt.Sprintf("%d/%d", start, x.d.Round)
			}
		case events.TypeCombatEnded:
			combat = ""
		case events.TypeRollRequested:
			if a := canonicalAction(x.d.Signed); a != "" {
				x.action = x.d.User + "|" + combat + "|" + a
			}
		}
		all = append(all, x)
	}
	return all
}

// evidenceOf is the evidence of the roll id of campaign c, in stream
// order (see above); nil when id is not a roll of c.
func (s *Server) evidenceOf(ctx context.Context, c, id string) ([]recordJSON, error) {
	filter, err := events.CampaignFilter(c)
	if err != nil {
		return nil, nil
	}
	var recs []events.Recorded
	if err := s.opts.Store.Read(ctx, events.Query{Subject: filter}, func(r events.Recorded) error {
		recs = append(recs, r)
		return nil
	}); err != nil {
		return nil, err
	}
	kept := evidence(recs, id)
	if kept == nil {
		return nil, nil
	}
	out := make([]recordJSON, len(kept))
	for i, r := range kept {
		out[i] = recordJSON{Seq: r.Seq, Subject: r.Subject, Event: r.Event}
	}
	return out, nil
}

// evidence is the evidence of the roll id among a campaign's events recs
// (in stream order), in stream order (see above); nil when id is not a
// roll of them. It is pure.
func evidence(recs []events.Recorded, id string) []events.Recorded {
	all := evidenceRecs(recs)
	at := slices.IndexFunc(all, func(x evRec) bool { return x.r.Event.ID == id && x.r.Event.Type == events.TypeRollMade })
	if at < 0 {
		return nil
	}
	keep := map[int]bool{}
	byID := map[string]int{}
	for i, x := range all {
		if _, ok := byID[x.r.Event.ID]; !ok {
			byID[x.r.Event.ID] = i
		}
	}
	// The actions the roll belongs to, their rolls and consequences.
	rolls := map[string]bool{id: true}
	isAction := func(t string) bool {
		return t == events.TypeAttackResolved || t == events.TypeContestResolved || t == events.TypeCombatStarted
	}
	for i, x := range all {
		if !isAction(x.r.Event.Type) || !slices.Contains(x.d.rollsOf(), id) {
			continue
		}
		keep[i] = true
		for _, r := range x.d.rollsOf() {
			rolls[r] = true
		}
		if x.r.Event.Type == events.TypeContestResolved && x.d.Rematch != "" {
			if j, ok := byID[x.d.Rematch]; ok && all[j].r.Event.Type == events.TypeContestResolved {
				keep[j] = true // the tie it re-rolls
			}
		}
		if x.r.Event.Type == events.TypeAttackResolved && x.d.Hit && x.d.Damage > 0 && i > 0 {
			// The damage taken of a hit, recorded in the attack's atomic
			// batch just before its resolution: the event at the sequence
			// before, of the same command. Any other damage taken (the GM's,
			// another attack's) is not this roll's.
			if y := all[i-1]; y.r.Event.Type == events.TypeDamageTaken && sameBatch(y.r, x.r) &&
				y.d.Character == x.d.Target && y.d.Amount == x.d.Damage && y.d.Source == x.d.Attacker {
				keep[i-1] = true
			}
		}
	}
	type sreq struct{ session, request string }
	sessions, requests := map[string]bool{}, map[sreq]bool{}
	for i, x := range all {
		e := x.r.Event
		if e.Type == events.TypeRollMade && rolls[e.ID] {
			keep[i] = true
			sessions[e.Session] = true
			if x.d.Request != "" {
				requests[sreq{e.Session, x.d.Request}] = true
			}
		}
	}
	hidden := map[string]bool{} // the secret rolls the rolls reveal
	for _, x := range all {
		if x.r.Event.Type == events.TypeRollMade && rolls[x.r.Event.ID] && x.d.Hidden != "" {
			hidden[x.d.Hidden] = true
		}
	}
	for i, x := range all {
		e := x.r.Event
		switch {
		case e.Type == events.TypeTORHopeSpent && rolls[x.d.Roll], e.Type == events.TypeEventVoided && rolls[x.d.EventID],
			e.Type == events.TypeRollHidden && hidden[e.ID]:
			keep[i] = true
		}
	}
	keyUsers := map[string]bool{}
	for sid := range sessions {
		sessionEvidence(all, sid, rolls, keep, keyUsers)
	}
	// The requests, and what a request's flags need.
	for i, x := range all {
		e := x.r.Event
		if e.Type != events.TypeRollRequested || !requests[sreq{e.Session, x.d.Request}] {
			continue
		}
		keep[i] = true
		for j, y := range all {
			f := y.r.Event
			if f.Session != e.Session {
				continue
			}
			switch f.Type {
			case events.TypeRollCancelled, events.TypeRollWitnessed, events.TypeRollReceipted:
				keep[j] = keep[j] || y.d.Request == x.d.Request
			case events.TypeRollRequested:
				if j >= i {
					break
				}
				// repeated: the same action asked before, and its roll.
				if x.action != "" && y.action == x.action {
					keep[j] = true
					if k := slices.IndexFunc(all, func(z evRec) bool {
						return z.r.Event.Type == events.TypeRollMade && z.r.Event.Session == f.Session && z.d.Request == y.d.Request
					}); k >= 0 {
						keep[k] = true
					}
				}
				// The witness index counts the session's GM requests.
				if x.d.WitnessIndex > 0 && y.d.WitnessIndex > 0 {
					keep[j] = true
				}
			}
		}
	}
	// The campaign's creation (its system: the rules a request is read
	// by) and, since a log that begins with it checks that each roll's
	// character exists, the creation of the kept rolls' characters.
	characters := map[string]bool{}
	for i, x := range all {
		if keep[i] && x.r.Event.Type == events.TypeRollMade && x.d.Character != "" {
			characters[x.d.Character] = true
		}
	}
	created := false
	for i, x := range all {
		switch e := x.r.Event; e.Type {
		case events.TypeCampaignCreated:
			keep[i] = keep[i] || !created
			created = true
		case events.TypeCharacterCreated, events.TypeTORCharacterCreated:
			keep[i] = keep[i] || characters[characterOf(x)]
		}
	}
	signers := keyUsers
	for i, x := range all {
		if keep[i] && x.d.User != "" && !isKeyType(x.r.Event.Type) {
			signers[x.d.User] = true
		}
	}
	out := []events.Recorded{}
	for i, x := range all {
		if keep[i] || isKeyType(x.r.Event.Type) && signers[x.d.User] {
			out = append(out, x.r)
		}
	}
	return out
}

// sessionEvidence keeps what a roll's session sid gives its verdict: its
// start, contributions, end, the end's co-signatures and the event after
// it, a v2 session's latest event while it is not ended, a v1 session's
// rolls of the same nonce as one of rolls; the users whose keys a v1
// session's downgrade flag needs go into keyUsers.
func sessionEvidence(all []evRec, sid string, rolls map[string]bool, keep map[int]bool, keyUsers map[string]bool) {
	startAt, endAt := -1, -1
	for i, x := range all {
		e := x.r.Event
		if e.Session != sid {
			continue
		}
		switch e.Type {
		case events.TypeSessionStarted:
			if startAt < 0 {
				startAt = i
				keep[i] = true
			}
		case events.TypeSessionEnded:
			if endAt < 0 {
				endAt = i
				keep[i] = true
			}
		case events.TypeSessionContributed, events.TypeSessionCosigned:
			keep[i] = true
		}
	}
	if startAt < 0 {
		return
	}
	v2 := all[startAt].d.Algorithm == "journal-dice-v2"
	if v2 {
		if endAt >= 0 && endAt+1 < len(all) {
			keep[endAt+1] = true // its prevhash is the end's hash, which a co-signature signs
		}
		// A contribution after the first request is not in the session
		// key: the first request says it is late.
		first := -1
		for i := startAt; i < len(all); i++ {
			e := all[i].r.Event
			if e.Session != sid {
				continue
			}
			if e.Type == events.TypeRollRequested && first < 0 {
				first = i
			}
			if e.Type == events.TypeSessionContributed && first >= 0 {
				keep[first] = true
				break
			}
		}
		if endAt < 0 {
			// open or stale, since the session's latest event.
			last := -1
			for i := startAt; i < len(all); i++ {
				if all[i].r.Event.Session == sid && (last < 0 || all[i].r.Event.Time.After(all[last].r.Event.Time)) {
					last = i
				}
			}
			keep[last] = true
		}
		return
	}
	// journal-dice-v1: the other rolls of a nonce of one of rolls.
	nonces := map[int]bool{}
	for _, x := range all {
		if x.r.Event.Type == events.TypeRollMade && rolls[x.r.Event.ID] && x.r.Event.Session == sid && x.d.Nonce != nil {
			nonces[*x.d.Nonce] = true
		}
	}
	for i, x := range all {
		if x.r.Event.Type == events.TypeRollMade && x.r.Event.Session == sid && x.d.Request == "" && x.d.Nonce != nil && nonces[*x.d.Nonce] {
			keep[i] = true
		}
	}
	// downgrade: a device key registered in the campaign before the start
	// (the first user's, as the flag names it).
	first := ""
	for _, x := range all[:startAt] {
		if t := x.r.Event.Type; (t == events.TypeParticipantRegistered || t == events.TypeDeviceRegistered) && x.d.User != "" && (first == "" || x.d.User < first) {
			first = x.d.User
		}
	}
	if first != "" {
		keyUsers[first] = true
	}
}
