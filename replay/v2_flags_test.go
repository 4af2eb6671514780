package replay_test

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/replay"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/signed"
)

// codes lists the flag codes of a report's first session.
func codes(t *testing.T, rep replay.Report) []replay.FlagCode {
	t.Helper()
	require.True(t, rep.OK(), "%+v", rep.Sessions)
	var out []replay.FlagCode
	for _, f := range rep.Sessions[0].Flags {
		out = append(out, f.Code)
	}
	return out
}

// TestV2Flags plays a v2 session through the command layer and checks the
// flags the audit gives at each point: a roll repeated for the same action
// (after the first was revealed), a session not revealed long after its
// last event (the clock injected), an end co-signed by no player's device,
// then by the GM alone, then by the player too.
func TestV2Flags(t *testing.T) {
	r := newRecorder(t, "mordor")
	ctx, j, c := r.Ctx, r.J, r.Campaign
	key := func(b byte) ed25519.PrivateKey { var s [32]byte; s[0] = b; return ed25519.NewKeyFromSeed(s[:]) }
	anaKey, gmKey := key(1), key(2)
	aj := j.MustFor(command.Call{Actor: "ana"})
	r.Do("campaign", func() (command.Result, error) {
		return j.CreateCampaign(ctx, command.CreateCampaign{ID: c, System: "ryf"})
	})
	r.Do("lodin", func() (command.Result, error) {
		return j.CreateCharacter(ctx, c, command.CreateCharacter{ID: "lodin", Name: "Lodin", Player: "ana",
			Attributes: "F=8,R=7,D=9,I=8,P=8", Skills: "Pelea=5,Sigilo=3", Specialization: "Pelea"})
	})
	r.Do("gm key", func() (command.Result, error) {
		return j.RegisterKey(ctx, c, command.RegisterKey{SignedMessage: device.MustRegister(gmKey, c, "gm", command.RoleGM, "")})
	})
	r.Do("ana key", func() (command.Result, error) {
		return aj.RegisterKey(ctx, c, command.RegisterKey{SignedMessage: device.MustRegister(anaKey, c, "ana", command.RolePlayer, "")})
	})
	res := r.Do("start", func() (command.Result, error) {
		return j.StartSessionWith(ctx, c, command.SessionStart{ID: "s1", Dice: command.DiceV2})
	})
	var started events.SessionStarted
	require.NoError(t, res.Events[0].Event.DecodeData(&started))
	hdr := signed.Header{Campaign: c, Session: "s1"}
	seal := func(k ed25519.PrivateKey, m signed.Message) command.SignedMessage {
		s, err := signed.Encode(m)
		require.NoError(t, err)
		return command.SignedMessage{Signed: s, Signature: signed.Sign(k, s)}
	}
	r.Do("contribute", func() (command.Result, error) {
		return aj.Contribute(ctx, c, command.ContributeSigned{SignedMessage: seal(anaKey, &signed.Contribute{Header: hdr, Value: signed.Hex32{0xaa}, Commitment: hex32Of(t, started.Commitment)})})
	})
	action, err := json.Marshal(command.RollAction{Command: "roll", SeedCommitment: started.Commitment, Character: "lodin", Skill: "Sigilo", Vs: "media"})
	require.NoError(t, err)
	var last time.Time
	var lastRoll string
	roll := func(id string, rv [32]byte, reveal bool) {
		cm, err := dice.ParseHex32(dice.RevealCommitment(rv))
		require.NoError(t, err)
		res := r.Do("request", func() (command.Result, error) {
			return aj.RequestRoll(ctx, c, command.RollRequestSigned{Character: "lodin",
				SignedMessage: seal(anaKey, &signed.Request{Header: hdr, Request: id, Commitment: cm, Action: action})})
		})
		last = res.Events[0].Event.Time
		if reveal {
			res = r.Do("reveal", func() (command.Result, error) {
				return aj.RevealRoll(ctx, c, command.RollRevealSigned{Character: "lodin", SignedMessage: seal(anaKey, &signed.Reveal{Header: hdr, Request: id, R: rv})})
			})
			last, lastRoll = res.Events[0].Event.Time, res.Events[0].Event.ID
		}
	}
	verify := func(now time.Time) replay.Report {
		rep, err := replay.Verify(ctx, replay.Records(r.Records()), replay.Options{Now: now})
		require.NoError(t, err)
		return rep
	}
	// The same action asked for again while the first is unrevealed is no
	// cherry-picking (the first, never revealed, is flagged as such).
	roll("0b6f1c7e-9d2a-4c1e-8f3b-5a7d9e2c4b61", [32]byte{1}, false)
	roll("1c7f2d8e-0e3b-4d2f-9a4c-6b8e0f3d5c72", [32]byte{2}, true)
	// A session not ended is open (an export cut before its end too).
	require.Equal(t, []replay.FlagCode{replay.FlagUnrevealed, replay.FlagOpen}, codes(t, verify(last.Add(time.Hour))))
	// Asked for again once revealed: flagged, naming the second request.
	roll("2d803e9f-1f4c-4e30-8b5d-7c9f1a4e6d83", [32]byte{3}, true)
	rep := verify(last.Add(time.Hour))
	require.Equal(t, []replay.FlagCode{replay.FlagUnrevealed, replay.FlagRepeated, replay.FlagOpen}, codes(t, rep))
	require.Contains(t, rep.Sessions[0].Flags[1].What, "request 2d803e9f-1f4c-4e30-8b5d-7c9f1a4e6d83")
	require.Contains(t, rep.Sessions[0].Flags[1].What, "already revealed")
	require.Equal(t, 3, rep.Totals.Flags)

	// Not ended, 31 days after its last event: stale; 29 days: open.
	rep = verify(last.Add(31 * 24 * time.Hour))
	require.Equal(t, []replay.FlagCode{replay.FlagUnrevealed, replay.FlagRepeated, replay.FlagStale}, codes(t, rep))
	require.Contains(t, rep.Sessions[0].Flags[2].What, "31 days ago")
	rep = verify(last.Add(29 * 24 * time.Hour))
	require.Equal(t, []replay.FlagCode{replay.FlagUnrevealed, replay.FlagRepeated, replay.FlagOpen}, codes(t, rep))
	require.Contains(t, rep.Sessions[0].Flags[2].What, "29 days ago")
	rep, err = replay.Verify(ctx, replay.Records(r.Records()), replay.Options{Now: last.Add(2 * time.Hour), StaleAfter: time.Hour})
	require.NoError(t, err)
	require.Equal(t, []replay.FlagCode{replay.FlagUnrevealed, replay.FlagRepeated, replay.FlagStale}, codes(t, rep), "StaleAfter is the threshold")

	// Ended: the first request never revealed, no co-signature. An ended
	// session is never stale.
	ended := r.Do("end", func() (command.Result, error) { return j.EndSession(ctx, c) })
	far := last.Add(365 * 24 * time.Hour)
	require.Equal(t, []replay.FlagCode{replay.FlagUnrevealed, replay.FlagRepeated, replay.FlagNotCosigned}, codes(t, verify(far)))
	h, err := events.EventHash(ended.Events[0].Event)
	require.NoError(t, err)
	var hash signed.Hex32
	require.NoError(t, hash.UnmarshalText([]byte(h)))
	r.Do("gm cosigns", func() (command.Result, error) {
		return j.Cosign(ctx, c, command.CosignSigned{SignedMessage: seal(gmKey, &signed.Cosign{Header: hdr, Ended: hash})})
	})
	rep = verify(far)
	require.Equal(t, []replay.FlagCode{replay.FlagUnrevealed, replay.FlagRepeated, replay.FlagNotCosigned}, codes(t, rep), "the GM's co-signature is not a player's")
	require.Equal(t, []replay.Cosignature{{User: "gm", Role: "gm", EventID: rep.Sessions[0].Cosigned[0].EventID}}, rep.Sessions[0].Cosigned)
	r.Do("ana cosigns", func() (command.Result, error) {
		return aj.Cosign(ctx, c, command.CosignSigned{SignedMessage: seal(anaKey, &signed.Cosign{Header: hdr, Ended: hash})})
	})
	rep = verify(far)
	require.Equal(t, []replay.FlagCode{replay.FlagUnrevealed, replay.FlagRepeated}, codes(t, rep))
	require.Len(t, rep.Sessions[0].Cosigned, 2)
	// A v2 roll voided without its roller's consent.
	r.Do("void", func() (command.Result, error) { return j.Void(ctx, c, lastRoll, "a mistake") })
	rep = verify(far)
	require.Equal(t, []replay.FlagCode{replay.FlagUnrevealed, replay.FlagRepeated, replay.FlagVoided}, codes(t, rep))
	require.Contains(t, rep.Sessions[0].Flags[2].What, "without its roller's consent")
	require.Equal(t, lastRoll, rep.Sessions[0].Flags[2].EventID)
	// The same from an export.
	rep, err = replay.Verify(ctx, replay.JSONLBytes(r.Export()), replay.Options{Now: far})
	require.NoError(t, err)
	require.Equal(t, []replay.FlagCode{replay.FlagUnrevealed, replay.FlagRepeated, replay.FlagVoided}, codes(t, rep))
}

// TestV2GMContributionOnly: only contributions of users other than the GM
// count toward a session key's independence (docs/design.md §3.3): a session
// whose only contributions are the GM's (a user registered with the role
// gm), or the session starter's, is flagged no-contribution in its own
// words; one player's contribution is enough.
func TestV2GMContributionOnly(t *testing.T) {
	key := func(b byte) ed25519.PrivateKey { var s [32]byte; s[0] = b; return ed25519.NewKeyFromSeed(s[:]) }
	anaKey, gmKey := key(1), key(2)
	for _, tc := range []struct {
		name        string
		starter     string   // who starts the session
		contributes []string // who contributes, in order
		flagged     string   // the no-contribution flag's words, "" for none
	}{
		{"none", "gm", nil, "no contribution: the session key is the host's seed alone"},
		{"the gm's alone", "gm", []string{"gm"}, "no player's contribution: the session key is the host's seed with the GM's own (1)"},
		{"the gm's and a player's", "gm", []string{"gm", "ana"}, ""},
		{"a player's", "gm", []string{"ana"}, ""},
		{"the starter's alone", "ana", []string{"ana"}, "no player's contribution"},
		{"the starter's and the gm's", "ana", []string{"gm", "ana"}, "no player's contribution: the session key is the host's seed with the GM's own (2)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRecorder(t, "mordor")
			ctx, j, c := r.Ctx, r.J, r.Campaign
			as := map[string]*command.Handler{"gm": j, "ana": j.MustFor(command.Call{Actor: "ana"})}
			keys := map[string]ed25519.PrivateKey{"gm": gmKey, "ana": anaKey}
			r.Do("campaign", func() (command.Result, error) {
				return j.CreateCampaign(ctx, command.CreateCampaign{ID: c, System: "ryf"})
			})
			r.Do("lodin", func() (command.Result, error) {
				return j.CreateCharacter(ctx, c, command.CreateCharacter{ID: "lodin", Name: "Lodin", Player: "ana",
					Attributes: "F=8,R=7,D=9,I=8,P=8", Skills: "Pelea=5,Sigilo=3", Specialization: "Pelea"})
			})
			r.Do("gm key", func() (command.Result, error) {
				return j.RegisterKey(ctx, c, command.RegisterKey{SignedMessage: device.MustRegister(gmKey, c, "gm", command.RoleGM, "")})
			})
			r.Do("ana key", func() (command.Result, error) {
				return as["ana"].RegisterKey(ctx, c, command.RegisterKey{SignedMessage: device.MustRegister(anaKey, c, "ana", command.RolePlayer, "")})
			})
			res := r.Do("start", func() (command.Result, error) {
				return as[tc.starter].StartSessionWith(ctx, c, command.SessionStart{ID: "s1", Dice: command.DiceV2})
			})
			var started events.SessionStarted
			require.NoError(t, res.Events[0].Event.DecodeData(&started))
			hdr := signed.Header{Campaign: c, Session: "s1"}
			seal := func(k ed25519.PrivateKey, m signed.Message) command.SignedMessage {
				s, err := signed.Encode(m)
				require.NoError(t, err)
				return command.SignedMessage{Signed: s, Signature: signed.Sign(k, s)}
			}
			for i, u := range tc.contributes {
				r.Do("contribute", func() (command.Result, error) {
					return as[u].Contribute(ctx, c, command.ContributeSigned{SignedMessage: seal(keys[u], &signed.Contribute{Header: hdr, Value: signed.Hex32{byte(i + 1)}, Commitment: hex32Of(t, started.Commitment)})})
				})
			}
			rep, err := replay.Verify(ctx, replay.Records(r.Records()), replay.Options{Now: time.Now()})
			require.NoError(t, err)
			require.True(t, rep.OK(), "%+v", rep.Sessions)
			var got []string
			for _, f := range rep.Sessions[0].Flags {
				if f.Code == replay.FlagNoContribution {
					got = append(got, f.What)
				}
			}
			if tc.flagged == "" {
				require.Empty(t, got, "a player's contribution counts")
				return
			}
			require.Len(t, got, 1)
			require.Contains(t, got[0], tc.flagged)
		})
	}
}

// TestEmptySessionFlagged: a session, v1 or v2, ended with no roll is
// flagged empty (seed shopping: a host ends sessions until a seed suits
// it), naming the session and its end; a session with a roll is not, nor
// one not ended yet.
func TestEmptySessionFlagged(t *testing.T) {
	r := newRecorder(t, "mordor")
	ctx, j, c := r.Ctx, r.J, r.Campaign
	r.Do("campaign", func() (command.Result, error) {
		return j.CreateCampaign(ctx, command.CreateCampaign{ID: c, System: "ryf"})
	})
	r.Do("lodin", func() (command.Result, error) {
		return j.CreateCharacter(ctx, c, command.CreateCharacter{ID: "lodin", Name: "Lodin", Player: "ana",
			Attributes: "F=8,R=7,D=9,I=8,P=8", Skills: "Pelea=5,Sigilo=3", Specialization: "Pelea"})
	})
	var ends []string
	for _, s := range []struct {
		id, dice string
		roll     bool
	}{{"s1", command.DiceV1, false}, {"s2", command.DiceV1, true}, {"s3", command.DiceV2, false}, {"s4", command.DiceV2, false}} {
		r.Do("start", func() (command.Result, error) {
			return j.StartSessionWith(ctx, c, command.SessionStart{ID: s.id, Dice: s.dice})
		})
		if s.roll {
			r.Do("roll", func() (command.Result, error) {
				return j.Roll(ctx, c, command.RollRequest{Character: "lodin", Skill: "Sigilo"})
			})
		}
		res := r.Do("end", func() (command.Result, error) { return j.EndSession(ctx, c) })
		ends = append(ends, res.Events[0].Event.ID)
	}
	r.Do("start", func() (command.Result, error) {
		return j.StartSessionWith(ctx, c, command.SessionStart{ID: "s5", Dice: command.DiceV2})
	})
	rep, err := replay.Verify(ctx, replay.Records(r.Records()), replay.Options{Now: time.Now()})
	require.NoError(t, err)
	require.True(t, rep.OK(), "%+v", rep.Sessions)
	require.Len(t, rep.Sessions, 5)
	for i, sr := range rep.Sessions {
		var empty []replay.Flag
		for _, f := range sr.Flags {
			if f.Code == replay.FlagEmpty {
				empty = append(empty, f)
			}
		}
		if i == 1 || i == 4 { // a roll; not ended
			require.Empty(t, empty, "session %s", sr.Session)
			continue
		}
		require.Len(t, empty, 1, "session %s", sr.Session)
		require.Equal(t, ends[i], empty[0].EventID)
		require.Equal(t, "session "+sr.Session+" ended with no roll (event "+ends[i]+"): empty sessions let a host shop for a seed", empty[0].What)
		require.Contains(t, empty[0].WhatIn(i18n.ES), "terminó sin ninguna tirada")
	}
}

// hex32Of reads a seed commitment (64 lower-case hex) for a signed message.
func hex32Of(t testing.TB, s string) signed.Hex32 {
	t.Helper()
	var h signed.Hex32
	require.NoError(t, h.UnmarshalText([]byte(s)))
	return h
}

// TestContributionCommitment: a contribution names its session's seed
// commitment: one replayed from another journal's session of the same ids
// (the same devices) is a mismatch that names it; one signed before the
// field existed (none) is accepted as before (old format).
func TestContributionCommitment(t *testing.T) {
	anaKey, gmKey := ed25519.NewKeyFromSeed(make([]byte, 32)), ed25519.NewKeyFromSeed(append(make([]byte, 31), 2))
	hdr := signed.Header{Campaign: "mordor", Session: "s1"}
	seal := func(m signed.Message) command.SignedMessage {
		s, err := signed.Encode(m)
		require.NoError(t, err)
		return command.SignedMessage{Signed: s, Signature: signed.Sign(anaKey, s)}
	}
	// play records a v2 session s1 of mordor with ana's contribution
	// (after a v1 session s0 when other: another seed for s1), and returns
	// the records, the index of the contribution and s1's commitment.
	play := func(other bool) ([]events.Recorded, int, string) {
		r := newRecorder(t, "mordor")
		ctx, j, c := r.Ctx, r.J, r.Campaign
		r.Do("campaign", func() (command.Result, error) {
			return j.CreateCampaign(ctx, command.CreateCampaign{ID: c, System: "ryf"})
		})
		if other {
			r.Do("s0", func() (command.Result, error) { return j.StartSession(ctx, c, "s0", "") })
			r.Do("s0 end", func() (command.Result, error) { return j.EndSession(ctx, c) })
		}
		r.Do("gm key", func() (command.Result, error) {
			return j.RegisterKey(ctx, c, command.RegisterKey{SignedMessage: device.MustRegister(gmKey, c, "gm", command.RoleGM, "")})
		})
		r.Do("ana key", func() (command.Result, error) {
			return j.MustFor(command.Call{Actor: "ana"}).RegisterKey(ctx, c, command.RegisterKey{SignedMessage: device.MustRegister(anaKey, c, "ana", command.RolePlayer, "")})
		})
		res := r.Do("start", func() (command.Result, error) {
			return j.StartSessionWith(ctx, c, command.SessionStart{ID: "s1", Dice: command.DiceV2})
		})
		var started events.SessionStarted
		require.NoError(t, res.Events[0].Event.DecodeData(&started))
		r.Do("contribute", func() (command.Result, error) {
			return j.MustFor(command.Call{Actor: "ana"}).Contribute(ctx, c, command.ContributeSigned{SignedMessage: seal(&signed.Contribute{Header: hdr, Value: signed.Hex32{0xaa}, Commitment: hex32Of(t, started.Commitment)})})
		})
		r.Do("end", func() (command.Result, error) { return j.EndSession(ctx, c) })
		recs := r.Records()
		for i, rec := range recs {
			if rec.Event.Type == events.TypeSessionContributed {
				return recs, i, started.Commitment
			}
		}
		t.Fatal("no contribution")
		return nil, 0, ""
	}
	// with returns recs with the contribution's message replaced by m.
	with := func(recs []events.Recorded, at int, m command.SignedMessage) []events.Recorded {
		out := slices.Clone(recs)
		var d events.SessionContributed
		require.NoError(t, out[at].Event.DecodeData(&d))
		d.Signed, d.Signature = m.Signed, m.Signature
		ev := out[at].Event
		b, err := json.Marshal(d)
		require.NoError(t, err)
		ev.Data = b
		out[at].Event = ev
		out[at].Raw = nil // a re-made line: the chain's check is not what this test is about
		return out
	}
	mismatched := func(recs []events.Recorded, id string) []string {
		rep, err := replay.Verify(context.Background(), replay.Records(recs), replay.Options{Now: time.Now()})
		require.NoError(t, err)
		var out []string
		for _, s := range rep.Sessions {
			for _, m := range s.Mismatches {
				if m.EventID == id {
					out = append(out, m.What)
				}
			}
		}
		return out
	}
	a, at, aSeed := play(false)
	b, bt, bSeed := play(true)
	require.NotEqual(t, aSeed, bSeed)
	id := b[bt].Event.ID
	require.Empty(t, mismatched(b, id), "the genuine contribution")
	var aMsg events.SessionContributed
	require.NoError(t, a[at].Event.DecodeData(&aMsg))
	got := mismatched(with(b, bt, command.SignedMessage{Signed: aMsg.Signed, Signature: aMsg.Signature}), id)
	require.NotEmpty(t, got, "a contribution replayed from another journal's s1")
	require.Contains(t, strings.Join(got, "; "), "not its session's ("+bSeed+"): replayed from another session")
	old := seal(&signed.Contribute{Header: hdr, Value: signed.Hex32{0xaa}})
	require.NotContains(t, old.Signed, "commitment")
	require.Empty(t, mismatched(with(b, bt, old), id), "an old-format contribution")
}
