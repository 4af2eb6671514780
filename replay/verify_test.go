package replay_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/replay"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/rules/ryf"
)

func verify(t testing.TB, evs []events.Event, opts replay.Options) replay.Report {
	t.Helper()
	rep, err := replay.Verify(context.Background(), replay.Events(evs...), opts)
	require.NoError(t, err)
	return rep
}

// findMismatch returns the mismatches of a kind about an event (any event when id is "").
func findMismatch(rep replay.Report, kind replay.MismatchKind, id string) []replay.Mismatch {
	var out []replay.Mismatch
	all := append([]replay.Mismatch(nil), rep.Mismatches...)
	for _, s := range rep.Sessions {
		all = append(all, s.Mismatches...)
	}
	for _, m := range all {
		if m.Kind == kind && (id == "" || m.EventID == id) {
			out = append(out, m)
		}
	}
	return out
}

func reportText(t testing.TB, rep replay.Report) string {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, rep.WriteText(&b))
	return b.String()
}

// honestWorld is one campaign with one ended session of n roll-making steps.
func honestWorld(t testing.TB, n int) (*world, *session, []events.Event) {
	t.Helper()
	w := newWorld(t, "mordor", "ryf", 1)
	s := w.start("s1", seedOf(1))
	rollEvs := s.honest(n)
	s.end()
	return w, s, rollEvs
}

func TestVerifyHonestSession(t *testing.T) {
	w, s, _ := honestWorld(t, 30)
	rep := verify(t, w.evs, replay.Options{})
	if !rep.OK() {
		t.Fatalf("honest session: got mismatches\n%s", reportText(t, rep))
	}
	require.Len(t, rep.Sessions, 1)
	got := rep.Sessions[0]
	if got.Status != replay.StatusVerified {
		t.Errorf("status: got %q, want %q", got.Status, replay.StatusVerified)
	}
	if got.Rolls != int(s.nonce) || got.Verified != int(s.nonce) || got.Unverifiable != 0 {
		t.Errorf("rolls: got checked %d verified %d unverifiable %d, want %d %d 0", got.Rolls, got.Verified, got.Unverifiable, s.nonce, s.nonce)
	}
	if got.SeedSource != "revealed" {
		t.Errorf("seed source: got %q, want revealed", got.SeedSource)
	}
	if rep.Totals.Events != len(w.evs) {
		t.Errorf("events: got %d, want %d", rep.Totals.Events, len(w.evs))
	}
	require.Len(t, rep.Campaigns, 1)
	if c := rep.Campaigns[0]; c.Characters != 3 || c.Sessions != 1 || c.Events != len(w.evs) || c.FoldErrors != 0 {
		t.Errorf("campaign fold: got %+v, want 3 characters, 1 session, %d events, no errors", c, len(w.evs))
	}
	text := reportText(t, rep)
	for _, want := range []string{"session mordor/s1: verified", "OK: "} {
		if !strings.Contains(text, want) {
			t.Errorf("text report lacks %q:\n%s", want, text)
		}
	}
}

// TestVerifyTampering: every kind of tampering is caught and named.
func TestVerifyTampering(t *testing.T) {
	type tamper struct {
		name string
		// edit returns the tampered input, and the mismatches that must be
		// reported: kind and event id ("" for any).
		edit func(t *testing.T, w *world, s *session, rollEvs []events.Event) ([]events.Event, []want)
		// status is the session's expected status.
		status replay.Status
	}
	tests := []tamper{
		{
			name: "face changed, rules fields forged to match",
			edit: func(t *testing.T, w *world, s *session, rollEvs []events.Event) ([]events.Event, []want) {
				for _, ev := range rollEvs {
					if ev.Type != events.TypeRollMade {
						continue
					}
					rm := rollOf(t, ev)
					if rm.Kind != "skill" || rm.Exploded {
						continue
					}
					for f := 1; f <= 9; f++ {
						if f == rm.Faces[1] {
							continue
						}
						forged := rm
						forged.Faces = append([]int(nil), rm.Faces...)
						forged.Faces[1] = f
						forged, err := rejudged(forged)
						if err != nil {
							continue
						}
						bad := withData(t, ev, forged)
						return replace(w.evs, bad), []want{{replay.MismatchFaces, ev.ID, "recorded faces"}}
					}
				}
				t.Fatal("no roll to forge")
				return nil, nil
			},
			status: replay.StatusMismatch,
		},
		{
			name: "total changed, faces intact",
			edit: func(t *testing.T, w *world, s *session, rollEvs []events.Event) ([]events.Event, []want) {
				ev := rollEvs[0]
				bad := editRoll(t, ev, func(rm *events.RollMade) { rm.Total += 3 })
				return replace(w.evs, bad), []want{{replay.MismatchRules, ev.ID, "total: recorded"}}
			},
			status: replay.StatusMismatch,
		},
		{
			name: "outcome changed",
			edit: func(t *testing.T, w *world, s *session, rollEvs []events.Event) ([]events.Event, []want) {
				ev := rollEvs[1]
				bad := editRoll(t, ev, func(rm *events.RollMade) {
					if rm.Outcome == "success" {
						rm.Outcome = "failure"
					} else {
						rm.Outcome = "success"
					}
				})
				return replace(w.evs, bad), []want{{replay.MismatchRules, ev.ID, "outcome: recorded"}}
			},
			status: replay.StatusMismatch,
		},
		{
			name: "skill rank inflated, total recomputed",
			edit: func(t *testing.T, w *world, s *session, rollEvs []events.Event) ([]events.Event, []want) {
				ev := rollEvs[0]
				forged := rollOf(t, ev)
				forged.Rank += 3
				forged.Total += 3
				if forged.Difficulty != nil {
					forged.Outcome = map[bool]string{true: "success", false: "failure"}[forged.Total >= *forged.Difficulty]
				}
				forged, err := rejudged(forged)
				require.NoError(t, err)
				bad := withData(t, ev, forged)
				return replace(w.evs, bad), []want{{replay.MismatchInputs, ev.ID, "rank of"}}
			},
			status: replay.StatusMismatch,
		},
		{
			name: "roll removed",
			edit: func(t *testing.T, w *world, s *session, rollEvs []events.Event) ([]events.Event, []want) {
				gone, next := rollEvs[2], rollEvs[3]
				return without(w.evs, gone.ID), []want{
					{replay.MismatchNonceGap, next.ID, "nonce 2 is missing"},
					{replay.MismatchRollCount, "", "counts"},
				}
			},
			status: replay.StatusMismatch,
		},
		{
			name: "last roll removed",
			edit: func(t *testing.T, w *world, s *session, rollEvs []events.Event) ([]events.Event, []want) {
				var last events.Event
				for _, ev := range rollEvs {
					if ev.Type == events.TypeRollMade {
						last = ev
					}
				}
				return without(w.evs, last.ID), []want{
					{replay.MismatchNonceGap, "", fmt.Sprintf("nonce %d is missing", rollOf(t, last).Nonce)},
					{replay.MismatchRollCount, "", "counts"},
				}
			},
			status: replay.StatusMismatch,
		},
		{
			name: "roll duplicated with the same id",
			edit: func(t *testing.T, w *world, s *session, rollEvs []events.Event) ([]events.Event, []want) {
				ev := rollEvs[0]
				return insertAfter(w.evs, rollEvs[1].ID, ev), []want{{replay.MismatchDuplicateID, ev.ID, "identical copy"}}
			},
			status: replay.StatusMismatch,
		},
		{
			name: "roll re-rolled at the same nonce (new id)",
			edit: func(t *testing.T, w *world, s *session, rollEvs []events.Event) ([]events.Event, []want) {
				// A cherry-picker rolls again at nonce 0 with other entropy.
				first := rollOf(t, rollEvs[0])
				chk, err := w.rules.SkillCheck(w.chars[first.Character], first.Skill, "")
				require.NoError(t, err)
				res, err := ryf.Roll(chk.WithDifficulty(*first.Difficulty), s.key.Stream(w.campaign, s.id, 0, "again"))
				require.NoError(t, err)
				again := first
				again.Entropy, again.Faces, again.Kept = "again", res.Faces(), res.Kept()
				again, err = rejudged(again)
				require.NoError(t, err)
				dup := withData(t, rollEvs[0], again)
				dup.ID = w.newID()
				return insertAfter(w.evs, rollEvs[0].ID, dup), []want{
					{replay.MismatchNonceRepeat, dup.ID, "nonce 0 already taken by event " + rollEvs[0].ID},
					{replay.MismatchRollCount, "", "counts"},
				}
			},
			status: replay.StatusMismatch,
		},
		{
			name: "seed does not match its commitment",
			edit: func(t *testing.T, w *world, s *session, rollEvs []events.Event) ([]events.Event, []want) {
				end := w.evs[len(w.evs)-1]
				bad := withData(t, end, events.SessionEnded{Seed: seedOf(99).String(), Rolls: int(s.nonce)})
				return replace(w.evs, bad), []want{{replay.MismatchCommitment, end.ID, "does not match commitment"}}
			},
			status: replay.StatusMismatch,
		},
		{
			name: "seed not hex",
			edit: func(t *testing.T, w *world, s *session, rollEvs []events.Event) ([]events.Event, []want) {
				end := w.evs[len(w.evs)-1]
				bad := withData(t, end, events.SessionEnded{Seed: "not a seed", Rolls: int(s.nonce)})
				return replace(w.evs, bad), []want{{replay.MismatchSeed, end.ID, "hex digits"}}
			},
			status: replay.StatusMismatch,
		},
		{
			name: "event inserted from another session",
			edit: func(t *testing.T, w *world, s *session, rollEvs []events.Event) ([]events.Event, []want) {
				// Session s0 of the same campaign, played before with another seed.
				w0 := newWorld(t, "mordor", "ryf", 2)
				s0 := w0.start("s0", seedOf(7))
				other := s0.honest(6)
				stolen := other[2]
				stolen.Session = s.id
				stolen.ID = w.newID()
				require.NoError(t, stolen.Validate())
				return insertAfter(w.evs, rollEvs[3].ID, stolen), []want{
					{replay.MismatchFaces, stolen.ID, "the seed gives"},
					{replay.MismatchNonceRepeat, stolen.ID, "already taken"},
					{replay.MismatchRollCount, "", "counts"},
				}
			},
			status: replay.StatusMismatch,
		},
		{
			name: "roll after the seed was revealed",
			edit: func(t *testing.T, w *world, s *session, rollEvs []events.Event) ([]events.Event, []want) {
				late := s.skill("lodin", "Sigilo", ryf.Media)
				return w.evs, []want{{replay.MismatchAfterEnd, late.ID, "after the session ended"}}
			},
			status: replay.StatusMismatch,
		},
		{
			name: "roll outside any session",
			edit: func(t *testing.T, w *world, s *session, rollEvs []events.Event) ([]events.Event, []want) {
				loose := rollEvs[0]
				loose.Session = ""
				loose.ID = w.newID()
				return append(append([]events.Event(nil), w.evs...), loose), []want{{replay.MismatchNoSession, loose.ID, "outside any session"}}
			},
			status: replay.StatusVerified,
		},
		{
			name: "roll of a session not in the input",
			edit: func(t *testing.T, w *world, s *session, rollEvs []events.Event) ([]events.Event, []want) {
				stray := rollEvs[0]
				stray.Session = "s9"
				stray.ID = w.newID()
				return append(append([]events.Event(nil), w.evs...), stray), []want{{replay.MismatchUnknownSession, stray.ID, `"s9"`}}
			},
			status: replay.StatusVerified,
		},
		{
			name: "void of an unknown event",
			edit: func(t *testing.T, w *world, s *session, rollEvs []events.Event) ([]events.Event, []want) {
				v := s.void(w.newID(), "typo")
				return w.evs, []want{{replay.MismatchVoidUnknown, v.ID, "not in the input"}}
			},
			status: replay.StatusVerified,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, s, rollEvs := honestWorld(t, 12)
			input, wants := tt.edit(t, w, s, rollEvs)
			rep := verify(t, input, replay.Options{})
			text := reportText(t, rep)
			if rep.OK() {
				t.Fatalf("tampered input verified OK:\n%s", text)
			}
			for _, wt := range wants {
				ms := findMismatch(rep, wt.kind, wt.id)
				if len(ms) == 0 {
					t.Errorf("no %s mismatch for event %q:\n%s", wt.kind, wt.id, text)
					continue
				}
				if !strings.Contains(ms[0].What, wt.what) {
					t.Errorf("%s mismatch: got %q, want it to say %q", wt.kind, ms[0].What, wt.what)
				}
				if !strings.Contains(text, string(wt.kind)) || (wt.id != "" && !strings.Contains(text, wt.id)) {
					t.Errorf("text report does not name %s %s:\n%s", wt.kind, wt.id, text)
				}
			}
			if got := rep.Sessions[0].Status; got != tt.status {
				t.Errorf("session status: got %q, want %q\n%s", got, tt.status, text)
			}
		})
	}
}

type want struct {
	kind replay.MismatchKind
	id   string
	what string
}

func TestVerifyNotYetRevealed(t *testing.T) {
	w := newWorld(t, "mordor", "ryf", 3)
	s := w.start("s1", seedOf(3))
	s.honest(10)

	rep := verify(t, w.evs, replay.Options{})
	if !rep.OK() {
		t.Fatalf("open session: got mismatches\n%s", reportText(t, rep))
	}
	got := rep.Sessions[0]
	if got.Status != replay.StatusUnrevealed || got.Verified != 0 || got.Unverifiable != int(s.nonce) {
		t.Errorf("without seed: got status %q verified %d unverifiable %d, want %q 0 %d",
			got.Status, got.Verified, got.Unverifiable, replay.StatusUnrevealed, s.nonce)
	}

	for _, key := range []string{"s1", "mordor/s1"} {
		rep = verify(t, w.evs, replay.Options{Seeds: map[string]string{key: s.seed.String()}})
		got = rep.Sessions[0]
		if !rep.OK() || got.Status != replay.StatusVerified || got.Verified != int(s.nonce) || got.SeedSource != "given" {
			t.Errorf("seed given as %q: got OK %v status %q verified %d source %q, want verified %d given",
				key, rep.OK(), got.Status, got.Verified, got.SeedSource, s.nonce)
		}
	}

	rep = verify(t, w.evs, replay.Options{Seeds: map[string]string{"s1": seedOf(4).String()}})
	if rep.OK() || len(findMismatch(rep, replay.MismatchCommitment, "")) != 1 {
		t.Errorf("wrong seed given: got OK %v, want one commitment mismatch\n%s", rep.OK(), reportText(t, rep))
	}

	_, err := replay.Verify(context.Background(), replay.Events(w.evs...), replay.Options{Seeds: map[string]string{"s1": "xyz"}})
	if !errors.Is(err, replay.ErrInvalidOptions) {
		t.Errorf("malformed given seed: got %v, want ErrInvalidOptions", err)
	}
}

func TestVerifyOpenSessionStillChecksRules(t *testing.T) {
	w := newWorld(t, "mordor", "ryf", 3)
	s := w.start("s1", seedOf(3))
	rollEvs := s.honest(6)
	bad := editRoll(t, rollEvs[0], func(rm *events.RollMade) { rm.Total++ })
	rep := verify(t, replace(w.evs, bad), replay.Options{})
	if rep.OK() || len(findMismatch(rep, replay.MismatchRules, bad.ID)) != 1 {
		t.Errorf("edited total in an open session: want a rules mismatch\n%s", reportText(t, rep))
	}
}

func TestVerifyVoidedRolls(t *testing.T) {
	w := newWorld(t, "mordor", "ryf", 4)
	s := w.start("s1", seedOf(4))
	rollEvs := s.honest(8)
	void := s.void(rollEvs[1].ID, "wrong skill")
	s.honest(3)
	s.end()

	rep := verify(t, w.evs, replay.Options{})
	if !rep.OK() {
		t.Fatalf("voided roll: got mismatches\n%s", reportText(t, rep))
	}
	got := rep.Sessions[0]
	want := replay.VoidedRoll{EventID: rollEvs[1].ID, Nonce: 1, VoidedBy: void.ID, Reason: "wrong skill"}
	if len(got.Voided) != 1 || got.Voided[0] != want {
		t.Errorf("voided: got %+v, want [%+v]", got.Voided, want)
	}
	if got.Status != replay.StatusVerified || got.Verified != int(s.nonce) {
		t.Errorf("got status %q verified %d, want verified %d (a voided roll keeps its nonce)", got.Status, got.Verified, s.nonce)
	}
	if !strings.Contains(reportText(t, rep), "voided  nonce 1") {
		t.Errorf("text report does not list the voided roll:\n%s", reportText(t, rep))
	}

	// Without the Scan pass the void is resolved when the report is made.
	v, err := replay.NewVerifier(replay.Options{})
	require.NoError(t, err)
	for _, ev := range w.evs {
		v.Add(events.Recorded{Event: ev})
	}
	if got := v.Report().Sessions[0].Voided; len(got) != 1 || got[0] != want {
		t.Errorf("single pass voided: got %+v, want [%+v]", got, want)
	}
}

func TestVerifyFilters(t *testing.T) {
	w := newWorld(t, "mordor", "ryf", 5)
	s1 := w.start("s1", seedOf(5))
	s1.honest(6)
	s1.end()
	s2 := w.start("s2", seedOf(6))
	r2 := s2.honest(6)
	s2.end()
	other := newWorld(t, "gondor", "ryf", 6)
	o1 := other.start("s1", seedOf(7))
	o1.honest(4)
	o1.end()
	all := append(append([]events.Event(nil), w.evs...), other.evs...)
	// Tamper with s2 only.
	all = replace(all, editRoll(t, r2[0], func(rm *events.RollMade) { rm.Total += 5 }))

	tests := []struct {
		name     string
		opts     replay.Options
		sessions []string
		ok       bool
	}{
		{"everything", replay.Options{}, []string{"mordor/s1", "mordor/s2", "gondor/s1"}, false},
		{"campaign gondor", replay.Options{Campaign: "gondor"}, []string{"gondor/s1"}, true},
		{"session s1 everywhere", replay.Options{Session: "s1"}, []string{"mordor/s1", "gondor/s1"}, true},
		{"session s2", replay.Options{Campaign: "mordor", Session: "s2"}, []string{"mordor/s2"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := verify(t, all, tt.opts)
			var got []string
			for _, s := range rep.Sessions {
				got = append(got, s.Campaign+"/"+s.Session)
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.sessions) || rep.OK() != tt.ok {
				t.Errorf("got sessions %v OK %v, want %v OK %v\n%s", got, rep.OK(), tt.sessions, tt.ok, reportText(t, rep))
			}
		})
	}
}

func TestVerifyTORSession(t *testing.T) {
	w := newWorld(t, "erebor", "tor", 7)
	s := w.start("t1", seedOf(8))
	var evs []events.Event
	for i := range 20 {
		evs = append(evs, s.torRoll([]string{"frodo", "bilbo"}[i%2], i%7, 10+i%8, ""))
	}
	s.end()
	rep := verify(t, w.evs, replay.Options{})
	if !rep.OK() || rep.Sessions[0].Verified != 20 {
		t.Fatalf("TOR session: want 20 verified\n%s", reportText(t, rep))
	}
	// The feat die changed: caught by the faces and by the rules.
	bad := editRoll(t, evs[3], func(rm *events.RollMade) { rm.Faces[0] = rm.Faces[0]%12 + 1 })
	rep = verify(t, replace(w.evs, bad), replay.Options{})
	if len(findMismatch(rep, replay.MismatchFaces, bad.ID)) != 1 {
		t.Errorf("TOR feat die changed: want a faces mismatch\n%s", reportText(t, rep))
	}
}

// TestVerifyRandomSessions is a property test: many random honest sessions
// (random characters, skills, difficulties, tokens, levels, damage, TOR
// rolls, entropy) all verify.
func TestVerifyRandomSessions(t *testing.T) {
	rng := rand.New(rand.NewPCG(2025, 3))
	skills := []string{"Pelea", "Sigilo", "Buscar", "Medicina", "Armas cuerpo a cuerpo", "Armas a distancia", "Atletismo", "Idiomas"}
	chars := []string{"lodin", "mara", "orco"}
	attrs := []ryf.Attr{ryf.Fuerza, ryf.Resistencia, ryf.Destreza, ryf.Inteligencia, ryf.Percepcion}
	for i := range 40 {
		system := []string{"ryf", "galaxia", "tor"}[i%3]
		w := newWorld(t, fmt.Sprintf("c%d", i), system, byte(i))
		var seed dice.Seed
		for j := range seed {
			seed[j] = byte(rng.IntN(256))
		}
		s := w.start(fmt.Sprintf("s%d", i), seed)
		n := 10 + rng.IntN(40)
		for range n {
			entropy := ""
			if rng.IntN(4) == 0 {
				entropy = fmt.Sprintf("e%d", rng.IntN(1000))
			}
			if system == "tor" {
				s.torRoll([]string{"frodo", "bilbo"}[rng.IntN(2)], rng.IntN(7), 1+rng.IntN(30), entropy)
				continue
			}
			char := chars[rng.IntN(len(chars))]
			c := w.chars[char]
			var chk ryf.Check
			var err error
			switch rng.IntN(6) {
			case 0, 1:
				chk, err = w.rules.SkillCheck(c, skills[rng.IntN(len(skills))], "")
				chk.Specialization = chk.Skill == c.Specialization && rng.IntN(2) == 0
			case 2:
				chk, err = w.rules.AttributeCheck(c, attrs[rng.IntN(len(attrs))])
			case 3:
				chk, err = w.rules.InitiativeCheck(c)
			case 4:
				s.damage(char, []string{"1d10", "2d6", "1d6-2", "1d8", "3d4+1"}[rng.IntN(5)], rng.IntN(4) == 0)
				continue
			case 5:
				s.heal(char)
				continue
			}
			require.NoError(t, err)
			chk.Modifier = rng.IntN(11) - 5
			chk.TokenSpent = rng.IntN(4) == 0
			chk.TokenReturned = rng.IntN(6) == 0
			chk.Incapacitated = rng.IntN(8) == 0
			if chk.Kind != ryf.KindInitiative && rng.IntN(5) > 0 {
				chk = chk.WithDifficulty(rng.IntN(35))
			}
			s.check(char, chk, entropy)
		}
		if rng.IntN(5) > 0 {
			s.end()
		}
		rep := verify(t, w.evs, replay.Options{Seeds: map[string]string{s.id: s.seed.String()}})
		if !rep.OK() || rep.Sessions[0].Status != replay.StatusVerified || rep.Sessions[0].Verified != n {
			t.Fatalf("random session %d (%s, %d rolls): not verified\n%s", i, system, n, reportText(t, rep))
		}
	}
}

func TestVerifyJSONLRoundTrip(t *testing.T) {
	w, s, _ := honestWorld(t, 20)
	var buf bytes.Buffer
	require.NoError(t, replay.WriteJSONL(&buf, w.evs...))
	if got := strings.Count(buf.String(), "\n"); got != len(w.evs) {
		t.Fatalf("export lines: got %d, want %d", got, len(w.evs))
	}

	var read []events.Event
	require.NoError(t, replay.ReadJSONL(bytes.NewReader(buf.Bytes()), func(ev events.Event) error {
		read = append(read, ev)
		return nil
	}))
	if len(read) != len(w.evs) {
		t.Fatalf("read back: got %d events, want %d", len(read), len(w.evs))
	}
	for i := range read {
		want := w.evs[i]
		want.StreamSubject = ""
		got, _ := json.Marshal(read[i])
		exp, _ := json.Marshal(want)
		if !bytes.Equal(got, exp) {
			t.Fatalf("event %d: got %s, want %s", i, got, exp)
		}
	}

	rep, err := replay.Verify(context.Background(), replay.JSONLBytes(buf.Bytes()), replay.Options{})
	require.NoError(t, err)
	if !rep.OK() || rep.Sessions[0].Verified != int(s.nonce) {
		t.Errorf("export verification: want every roll verified\n%s", reportText(t, rep))
	}
	// JSON report: lower-case keys.
	js, err := json.Marshal(rep)
	require.NoError(t, err)
	for _, key := range []string{`"sessions"`, `"status":"verified"`, `"rolls_verified"`, `"totals"`, `"mismatches":[]`} {
		if !bytes.Contains(js, []byte(key)) {
			t.Errorf("JSON report lacks %s: %s", key, js)
		}
	}
}

func TestReadJSONLErrors(t *testing.T) {
	w, _, _ := honestWorld(t, 2)
	var good bytes.Buffer
	require.NoError(t, replay.WriteJSONL(&good, w.evs[:3]...))
	lines := strings.SplitAfter(good.String(), "\n")

	tests := []struct {
		name  string
		input string
		line  string // the line the error must name; "" for no error
	}{
		{"valid", good.String(), ""},
		{"blank lines and CRLF", "\n" + strings.ReplaceAll(good.String(), "\n", "\r\n\n"), ""},
		{"no final newline", strings.TrimSuffix(good.String(), "\n"), ""},
		{"garbage line", lines[0] + "{not json\n" + lines[1], "line 2"},
		{"not an event", lines[0] + lines[1] + `{"specversion":"1.0"}` + "\n", "line 3"},
		{"binary", "\x00\xff\xfe", "line 1"},
		{"too long", lines[0] + strings.Repeat("x", events.MaxSize+10) + "\n", "line 2"},
		{"truncated event", lines[0][:len(lines[0])/2], "line 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := 0
			err := replay.ReadJSONL(strings.NewReader(tt.input), func(events.Event) error { n++; return nil })
			if tt.line == "" {
				if err != nil || n != 3 {
					t.Errorf("got %d events, error %v; want 3, nil", n, err)
				}
				return
			}
			if !errors.Is(err, replay.ErrMalformed) || !strings.Contains(err.Error(), tt.line+":") {
				t.Errorf("got error %v, want ErrMalformed naming %q", err, tt.line)
			}
			// Verify lists a line that does not decode and goes on; a line
			// too long to read ends the read.
			rep, verr := replay.Verify(context.Background(), replay.JSONLBytes([]byte(tt.input)), replay.Options{})
			if tt.name == "too long" {
				if !errors.Is(verr, replay.ErrMalformed) {
					t.Errorf("Verify: got error %v, want ErrMalformed", verr)
				}
				return
			}
			if verr != nil || rep.OK() || len(rep.Foreign) != 1 || !strings.HasPrefix(rep.Foreign[0].String(), tt.line+":") {
				t.Errorf("Verify: got %+v, %v; want a failed report naming %q", rep.Foreign, verr, tt.line)
			}
		})
	}

	stop := errors.New("stop")
	if err := replay.ReadJSONL(strings.NewReader(good.String()), func(events.Event) error { return stop }); !errors.Is(err, stop) {
		t.Errorf("callback error: got %v, want it returned", err)
	}
}

// TestVerifyGarbageRolls feeds rolls with nonsense inside valid envelopes:
// no panic, every one reported.
func TestVerifyGarbageRolls(t *testing.T) {
	w := newWorld(t, "mordor", "ryf", 9)
	s := w.start("s1", seedOf(9))
	base := s.skill("lodin", "Sigilo", ryf.Media)
	edits := []func(*events.RollMade){
		func(rm *events.RollMade) { rm.Faces = nil },
		func(rm *events.RollMade) { rm.Faces = []int{0, 11, -3} },
		func(rm *events.RollMade) { rm.Faces = make([]int, 3000) },
		func(rm *events.RollMade) { rm.Kind = "teleport" },
		func(rm *events.RollMade) { rm.Kind = "damage"; rm.Dice = "9d999" },
		func(rm *events.RollMade) { rm.Kind = "damage"; rm.Dice = "" },
		func(rm *events.RollMade) { rm.Kind = "tor"; rm.Faces = nil },
		func(rm *events.RollMade) { rm.Kind = "tor"; rm.TN = -1 },
		func(rm *events.RollMade) { rm.Kind = "heal"; rm.Faces = []int{7} },
		func(rm *events.RollMade) { rm.Nonce = 1<<64 - 1 },
		func(rm *events.RollMade) { rm.AttributeValue = 1000 },
		func(rm *events.RollMade) { d := -5; rm.Difficulty = &d },
		func(rm *events.RollMade) { rm.Level = "cosmic" },
	}
	input := append([]events.Event(nil), w.evs...)
	var bad []events.Event
	for _, f := range edits {
		ev := editRoll(t, base, f)
		ev.ID = w.newID()
		bad = append(bad, ev)
		input = append(input, ev)
	}
	s.end()
	input = append(input, w.evs[len(w.evs)-1])
	rep := verify(t, input, replay.Options{})
	for i, ev := range bad {
		found := false
		for _, m := range rep.Sessions[0].Mismatches {
			found = found || m.EventID == ev.ID
		}
		if !found {
			t.Errorf("garbage roll %d not reported:\n%s", i, reportText(t, rep))
		}
	}
	var b bytes.Buffer
	require.NoError(t, rep.WriteText(&b))
	_, err := json.Marshal(rep)
	require.NoError(t, err)
}

func TestVerifySourceError(t *testing.T) {
	boom := errors.New("disk on fire")
	src := func(ctx context.Context, fn func(replay.Input) error) error { return boom }
	if _, err := replay.Verify(context.Background(), src, replay.Options{}); !errors.Is(err, boom) {
		t.Errorf("got %v, want the source's error", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	w, _, _ := honestWorld(t, 2)
	if _, err := replay.Verify(ctx, replay.Events(w.evs...), replay.Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: got %v, want context.Canceled", err)
	}
}

func TestVerifyMismatchCap(t *testing.T) {
	w := newWorld(t, "mordor", "ryf", 10)
	s := w.start("s1", seedOf(10))
	rollEvs := s.honest(30)
	s.end()
	input := w.evs
	for _, ev := range rollEvs {
		if ev.Type == events.TypeRollMade {
			input = replace(input, editRoll(t, ev, func(rm *events.RollMade) { rm.Total += 100 }))
		}
	}
	rep := verify(t, input, replay.Options{MaxMismatches: 5})
	got := rep.Sessions[0]
	if len(got.Mismatches) != 5 || got.Omitted != int(s.nonce)-5 || rep.Totals.Mismatches != int(s.nonce) {
		t.Errorf("cap: got %d listed, %d omitted, total %d; want 5, %d, %d", len(got.Mismatches), got.Omitted, rep.Totals.Mismatches, s.nonce-5, s.nonce)
	}
	if !strings.Contains(reportText(t, rep), fmt.Sprintf("and %d more mismatches", s.nonce-5)) {
		t.Errorf("text report does not count the omitted mismatches")
	}
}

// TestVerifyNonces: gaps and repeats, wherever they are.
func TestVerifyNonces(t *testing.T) {
	const top = 1<<64 - 1
	tests := []struct {
		name     string
		nonces   []uint64
		declared int // -1: the session does not end
		want     []string
	}{
		{"in order", []uint64{0, 1, 2}, 3, nil},
		{"open, in order", []uint64{0, 1, 2}, -1, nil},
		{"gap inside", []uint64{0, 2, 3}, 4, []string{"nonce-gap: nonce 1 is missing", "roll-count: the session-ended event counts 4 rolls, the input has 3"}},
		{"gap inside, open", []uint64{0, 1, 5}, -1, []string{"nonce-gap: nonces 2..4 are missing: 3 rolls"}},
		{"hidden at the end", []uint64{0, 1}, 4, []string{"nonce-gap: nonces 2..3 are missing", "roll-count"}},
		{"first missing", []uint64{1, 2}, 2, []string{"nonce-gap: nonce 0 is missing"}},
		{"repeat", []uint64{0, 1, 1, 2}, 3, []string{"nonce-repeat: nonce 1 already taken", "roll-count: the session-ended event counts 3 rolls, the input has 4"}},
		{"repeat, count agreeing", []uint64{0, 1, 1, 2}, 4, []string{"nonce-repeat: nonce 1 already taken", "nonce-gap: nonce 3 is missing"}},
		{"out of order", []uint64{1, 0, 2}, 3, nil},
		{"the last nonce", []uint64{0, 1, top}, 3, []string{fmt.Sprintf("nonce-gap: nonces 2..%d are missing", uint64(top-1))}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t, "mordor", "ryf", 30)
			s := w.start("s1", seedOf(30))
			for _, n := range tt.nonces {
				s.nonce = n
				s.skill("mara", "Buscar", ryf.Media)
			}
			if tt.declared >= 0 {
				w.event(events.KindSession, "s1", "ended", events.TypeSessionEnded, "s1",
					events.SessionEnded{Seed: s.seed.String(), Rolls: tt.declared})
			}
			rep := verify(t, w.evs, replay.Options{Seeds: map[string]string{"s1": s.seed.String()}})
			var got []string
			for _, m := range rep.Sessions[0].Mismatches {
				got = append(got, string(m.Kind)+": "+m.What)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got mismatches %q, want %q", got, tt.want)
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tt.want[i]) {
					t.Errorf("mismatch %d: got %q, want it to start with %q", i, got[i], tt.want[i])
				}
			}
			if rep.Sessions[0].Verified != len(tt.nonces) {
				t.Errorf("verified: got %d, want %d (every roll's faces and rules are right)", rep.Sessions[0].Verified, len(tt.nonces))
			}
		})
	}
}
