package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/rolls"
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/rules/ryf"
	"github.com/campaign-journal/journal/signed"
)

// v2Table is a CLI table of journal-dice-v2: the GM and ana, each with a
// device key in a configuration folder of their own.
type v2Table struct {
	*cli
	gmDir, anaDir string
}

func newV2Table(t *testing.T) *v2Table { return newV2TableAfter(t, nil) }

// newV2TableAfter is newV2Table with before played by the GM after the
// campaign's setup and before any key is registered: a campaign with keys
// refuses journal-dice-v1 sessions (no downgrade), so a v1 session of a
// test's campaign comes first.
func newV2TableAfter(t *testing.T, before func(c *cli)) *v2Table {
	c := newCLI(t)
	tb := &v2Table{cli: c, gmDir: filepath.Join(c.dir, "..", "gm-config"), anaDir: filepath.Join(c.dir, "..", "ana-config")}
	tb.as("gm")
	c.setupCampaign()
	if before != nil {
		before(c)
	}
	tb.as("gm").ok("key", "new")
	tb.ok("-c", "mordor", "key", "register")
	tb.as("ana").ok("key", "new")
	tb.ok("-c", "mordor", "key", "register")
	return tb
}

// as makes the next commands run as user (gm or ana), with its device key.
func (tb *v2Table) as(user string) *v2Table {
	tb.t.Setenv("JOURNAL_ACTOR", user)
	dir := tb.gmDir
	if user == "ana" {
		dir = tb.anaDir
	}
	tb.t.Setenv(device.EnvConfig, dir)
	return tb
}

// anaKey loads ana's device key.
func (tb *v2Table) anaKey() *device.Key {
	k, err := device.NewStore(filepath.Join(tb.anaDir, "keys")).Load(device.DefaultName)
	require.NoError(tb.t, err)
	return k
}

// v2Session plays a v2 session with the CLI: contributions, two rolls of
// ana, a request of ana's left unrevealed and cancelled by the GM, the end;
// it returns the export's lines.
func (tb *v2Table) v2Session() []string {
	t := tb.t
	out := tb.as("gm").ok("-c", "mordor", "session", "start", "--dice", "v2")
	require.Contains(t, out, "gm ")
	tb.as("ana").ok("-c", "mordor", "session", "contribute")
	tb.ok("-c", "mordor", "roll", "lodin", "Sigilo", "--vs", "media")
	tb.ok("-c", "mordor", "roll", "lodin", "--attribute", "F", "--mod", "2")
	// A request sent by ana's device that it never reveals.
	camp := tb.events("mordor")
	var commitment, session string
	for _, e := range camp {
		if e.Type == events.TypeSessionStarted {
			var d events.SessionStarted
			require.NoError(t, e.DecodeData(&d))
			commitment, session = d.Commitment, e.Session
		}
	}
	action, err := json.Marshal(command.RollAction{Command: "roll", SeedCommitment: commitment, Character: "lodin", Skill: "Pelea"})
	require.NoError(t, err)
	r := sha256.Sum256([]byte("ana's forgotten secret"))
	c, err := dice.ParseHex32(dice.RevealCommitment(r))
	require.NoError(t, err)
	msg, sig, err := tb.anaKey().Seal(&signed.Request{Header: signed.Header{Campaign: "mordor", Session: session},
		Request: uuid.NewString(), Commitment: c, Action: action})
	require.NoError(t, err)
	tb.ok("-c", "mordor", "roll", "request", "--character", "lodin", "--signed", msg, "--signature", sig)
	p, err := signed.Parse(msg)
	require.NoError(t, err)
	tb.as("gm").ok("-c", "mordor", "roll", "cancel", p.(*signed.Request).Request[:8], "--reason", "ana left") // a short request id
	tb.ok("-c", "mordor", "session", "end")
	tb.as("ana").ok("-c", "mordor", "session", "cosign")
	export := tb.ok("-c", "mordor", "export")
	return strings.Split(strings.TrimSpace(export), "\n")
}

func TestV2SessionEndToEnd(t *testing.T) {
	tb := newV2Table(t)
	lines := tb.v2Session()
	path := writeExport(t, lines)
	out := tb.flagged("--lang", "en", "replay", "--file", path)
	require.Contains(t, out, "verified — 2 rolls checked, 2 verified")
	require.Contains(t, out, "journal-dice-v2: 2 contributions")
	require.Contains(t, out, "FLAG  request")
	require.Contains(t, out, "cancelled (nonce 2 consumed")
	// The session's end counts what its event records, nonces (3: two
	// rolls and the cancelled request's), not rolls (2, as replay says).
	log := tb.ok("--lang", "en", "-c", "mordor", "log")
	require.Contains(t, log, "ends with 3 nonces taken")
	require.NotContains(t, log, "ends after 3 rolls")
	require.Contains(t, tb.ok("--lang", "es", "-c", "mordor", "log"), "con 3 nonces usados")
	require.Contains(t, tb.flagged("--lang", "en", "-c", "mordor", "replay"), "OK with 1 flag:")
	// Every command of it re-runs identically (the v2 commands as their
	// users, their signed messages as recorded).
	require.Contains(t, tb.ok("--lang", "en", "-c", "mordor", "replay", "--reproduce"), "IDENTICAL:")
	// Every event of the campaign but its first is chained, to the
	// previous line's bytes.
	for i, l := range lines {
		e, err := events.Decode([]byte(l))
		require.NoError(t, err)
		want := ""
		if i > 0 {
			want = events.ChainHash([]byte(lines[i-1]))
		}
		require.Equal(t, want, e.PrevHash, "event %s (%s)", e.ID, e.Type)
	}
	// explain shows the v2 steps of a roll.
	i := indexOf(t, lines, events.TypeRollMade, 1)
	x := tb.ok("--lang", "en", "explain", idAt(t, lines, i), "--file", path)
	for _, want := range []string{"journal-dice-v2 session key K", "contribution of gm", "contribution of ana",
		"SHA-256(r) matches the commitment", "draws (sides, in order): [10 10 10", "verdict: verified"} {
		require.Contains(t, x, want)
	}
	bad, id := edit(t, lines, events.TypeRollMade, 1, func(_ *events.Event, d map[string]any) { d["reveal"] = strings.Repeat("0", 64) })
	out, _, _ = tb.run("--lang", "en", "explain", id, "--file", writeExport(t, bad))
	require.Contains(t, out, "SHA-256(r) does NOT match the commitment")
	// ana's key as the campaign holds it.
	require.Contains(t, tb.as("ana").ok("-c", "mordor", "key", "show"), "Campaign mordor holds this key for ana.")
	// The GM adds a key of its own to ana's name: allowed (nothing
	// replaces ana's), the audit says who did it, and ana is told on
	// every command that reads the campaign.
	pub, err := signed.ParsePublicKey("3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c")
	require.NoError(t, err)
	tb.as("gm").ok("-c", "mordor", "key", "register", "ana", "--public-key", pub.String())
	out = tb.flagged("--lang", "en", "-c", "mordor", "replay")
	require.Contains(t, out, "FLAG  event")
	require.Contains(t, out, "gm registered the player key "+pub.Fingerprint()+" for ana")
	out, errb, code := tb.as("ana").run("--lang", "en", "-c", "mordor", "key", "show")
	require.Zero(t, code, errb)
	require.Contains(t, out, "Campaign mordor holds this key for ana.")
	require.Contains(t, errb, "WARNING: gm added a device to your name on ")
	require.Contains(t, errb, "(fingerprint "+pub.Fingerprint()+"): if it was not you, revoke it with 'journal key revoke "+pub.Fingerprint()+"'")
}

// rechain recomputes the prevhash of every chained line from i on, as a host
// that re-forges the chain after a change would.
func rechain(t *testing.T, lines []string) []string {
	out := append([]string(nil), lines...)
	for i := 1; i < len(out); i++ {
		e, err := events.Decode([]byte(out[i]))
		require.NoError(t, err)
		if e.PrevHash == "" {
			continue
		}
		e.PrevHash = events.ChainHash([]byte(out[i-1]))
		b, err := events.Encode(e)
		require.NoError(t, err)
		out[i] = string(b)
	}
	return out
}

// edit changes the data of the nth event (from 1) of type typ, re-encodes
// it, re-forges the chain, and returns the lines and the event's id.
func edit(t *testing.T, lines []string, typ string, nth int, change func(e *events.Event, d map[string]any)) ([]string, string) {
	t.Helper()
	out := append([]string(nil), lines...)
	seen := 0
	for i, line := range out {
		e, err := events.Decode([]byte(line))
		require.NoError(t, err)
		if e.Type != typ {
			continue
		}
		if seen++; seen < nth {
			continue
		}
		var d map[string]any
		require.NoError(t, json.Unmarshal(e.Data, &d))
		change(&e, d)
		e.Data, err = json.Marshal(d)
		require.NoError(t, err)
		b, err := events.Encode(e)
		require.NoError(t, err)
		out[i] = string(b)
		return rechain(t, out), e.ID
	}
	t.Fatalf("no %s %d in the export", typ, nth)
	return nil, ""
}

func idAt(t *testing.T, lines []string, i int) string {
	e, err := events.Decode([]byte(lines[i]))
	require.NoError(t, err)
	return e.ID
}

func indexOf(t *testing.T, lines []string, typ string, nth int) int {
	seen := 0
	for i, l := range lines {
		e, err := events.Decode([]byte(l))
		require.NoError(t, err)
		if e.Type == typ {
			if seen++; seen == nth {
				return i
			}
		}
	}
	t.Fatalf("no %s %d", typ, nth)
	return -1
}

// reforgeSeed is the host's best forgery of a whole session: another seed
// S' (its commitment in session-started, revealed at the end), every face
// re-derived from K' = SessionKey(S', contributions) and the recorded
// reveals, every total and outcome re-judged, the chain re-forged. It
// cannot re-sign the players' requests, which name the seed's commitment.
func reforgeSeed(t *testing.T, lines []string) []string {
	var seed dice.Seed
	seed[0] = 0x66
	out := append([]string(nil), lines...)
	var contributions [][32]byte
	for i, l := range out {
		e, err := events.Decode([]byte(l))
		require.NoError(t, err)
		p, err := e.Payload()
		require.NoError(t, err)
		switch d := p.(type) {
		case *events.SessionStarted:
			d.Commitment = seed.Commitment()
			e.Data, _ = json.Marshal(d)
		case *events.SessionEnded:
			d.Seed = seed.String()
			e.Data, _ = json.Marshal(d)
		case *events.SessionContributed:
			v, err := dice.ParseHex32(d.Value)
			require.NoError(t, err)
			contributions = append(contributions, v)
			continue
		case *events.RollMade:
			r, err := dice.ParseHex32(d.Reveal)
			require.NoError(t, err)
			st := &sidesOf{r: dice.SessionKey(seed, e.Campaign, e.Session, contributions).Stream(e.Campaign, e.Session, d.Nonce, r)}
			res, err := ryf.Roll(rolls.CheckOf(*d), st)
			require.NoError(t, err)
			want := rolls.FromRyF(d.System, res)
			d.Faces, d.Draws, d.Kept, d.Total, d.Outcome, d.DiePart = want.Faces, st.sides, want.Kept, want.Total, want.Outcome, want.DiePart
			d.Critical, d.Fumble, d.Natural1, d.Exploded, d.Base, d.Level = want.Critical, want.Fumble, want.Natural1, want.Exploded, want.Base, want.Level
			e.Data, _ = json.Marshal(d)
		default:
			continue
		}
		b, err := events.Encode(e)
		require.NoError(t, err)
		out[i] = string(b)
	}
	return rechain(t, out)
}

// sidesOf records the sides of every die drawn.
type sidesOf struct {
	r     dice.Roller
	sides []int
}

func (s *sidesOf) Roll(n int) (int, error) {
	f, err := s.r.Roll(n)
	if err == nil {
		s.sides = append(s.sides, n)
	}
	return f, err
}

// TestV2Tampering: every change to an exported v2 session that the host
// could make is caught by replay --file, with a message naming the event.
func TestV2Tampering(t *testing.T) {
	tb := newV2Table(t)
	lines := tb.v2Session()
	other := hex.EncodeToString(make([]byte, 32))
	tests := []tamperCase{
		{"a face", func() ([]string, string) {
			return edit(t, lines, events.TypeRollMade, 1, func(_ *events.Event, d map[string]any) {
				f := d["faces"].([]any)
				f[0] = float64(int(f[0].(float64))%10 + 1)
			})
		}, "faces"},
		{"a draw", func() ([]string, string) {
			return edit(t, lines, events.TypeRollMade, 1, func(_ *events.Event, d map[string]any) { d["draws"].([]any)[0] = 12.0 })
		}, "draws"},
		{"the reveal", func() ([]string, string) {
			return edit(t, lines, events.TypeRollMade, 1, func(_ *events.Event, d map[string]any) { d["reveal"] = other })
		}, "not the signed ones"},
		{"the request's commitment", func() ([]string, string) {
			return edit(t, lines, events.TypeRollRequested, 1, func(_ *events.Event, d map[string]any) { d["commitment"] = other })
		}, "commitment: recorded"},
		{"a roll's nonce", func() ([]string, string) {
			return edit(t, lines, events.TypeRollMade, 2, func(_ *events.Event, d map[string]any) { d["nonce"] = 0.0 })
		}, "nonce: rolled 0, requested 1"},
		{"a request's nonce", func() ([]string, string) {
			return edit(t, lines, events.TypeRollRequested, 2, func(_ *events.Event, d map[string]any) { d["nonce"] = 5.0 })
		}, "nonce"},
		{"a signature", func() ([]string, string) {
			return edit(t, lines, events.TypeRollRequested, 1, func(_ *events.Event, d map[string]any) {
				s := []byte(d["signature"].(string))
				s[3] ^= 1
				d["signature"] = string(s)
			})
		}, "signature"},
		{"the signed string", func() ([]string, string) {
			return edit(t, lines, events.TypeRollRequested, 2, func(_ *events.Event, d map[string]any) {
				d["signed"] = strings.Replace(d["signed"].(string), `"modifier":2`, `"modifier":9`, 1)
				d["modifier"] = 9.0
			})
		}, "bad signature"},
		{"a request's input outside the signed string", func() ([]string, string) {
			return edit(t, lines, events.TypeRollRequested, 2, func(_ *events.Event, d map[string]any) { d["modifier"] = 9.0 })
		}, "modifier: recorded 9, signed 2"},
		{"a roll's input against its request", func() ([]string, string) {
			return edit(t, lines, events.TypeRollMade, 1, func(_ *events.Event, d map[string]any) { d["difficulty"] = 10.0 })
		}, "difficulty: rolled 10"},
		{"a contribution's value", func() ([]string, string) {
			return edit(t, lines, events.TypeSessionContributed, 2, func(_ *events.Event, d map[string]any) { d["value"] = strings.Repeat("ab", 32) })
		}, "not the signed one"},
		{"who signed a roll", func() ([]string, string) {
			return edit(t, lines, events.TypeRollMade, 1, func(e *events.Event, d map[string]any) { d["user"], e.Actor = "gm", "gm" })
		}, "the request is \"ana\"'s"},
		{"who issued a request", func() ([]string, string) {
			return edit(t, lines, events.TypeRollRequested, 1, func(e *events.Event, _ map[string]any) { e.Actor = "gm" })
		}, "recorded as issued by \"gm\""},
		{"a total", func() ([]string, string) {
			return edit(t, lines, events.TypeRollMade, 1, func(_ *events.Event, d map[string]any) { d["total"] = 999.0 })
		}, "total"},
		{"an outcome", func() ([]string, string) {
			return edit(t, lines, events.TypeRollMade, 2, func(_ *events.Event, d map[string]any) { d["outcome"] = "tampered" })
		}, "outcome"},
		{"the revealed seed", func() ([]string, string) {
			return edit(t, lines, events.TypeSessionEnded, 1, func(_ *events.Event, d map[string]any) { d["seed"] = other })
		}, "does not match commitment"},
		{"the cancelled request's nonce", func() ([]string, string) {
			return edit(t, lines, events.TypeRollCancelled, 1, func(_ *events.Event, d map[string]any) { d["nonce"] = 7.0 })
		}, "with nonce 7, the request took 2"},
		{"a roll answers the cancelled request", func() ([]string, string) {
			cancelled := ""
			for _, l := range lines {
				if e, _ := events.Decode([]byte(l)); e.Type == events.TypeRollCancelled {
					var d events.RollCancelled
					require.NoError(t, e.DecodeData(&d))
					cancelled = d.Request
				}
			}
			return edit(t, lines, events.TypeRollMade, 1, func(_ *events.Event, d map[string]any) { d["request"] = cancelled })
		}, "request"},
		{"a key registration's fingerprint", func() ([]string, string) {
			return edit(t, lines, events.TypeDeviceRegistered, 2, func(_ *events.Event, d map[string]any) { d["fingerprint"] = "0000:0000:0000:0000:0000:0000:0000:0000" })
		}, "fingerprint"},
		{"drop an event", func() ([]string, string) {
			i := indexOf(t, lines, events.TypeRollMade, 1)
			out := append(append([]string(nil), lines[:i]...), lines[i+1:]...)
			return out, idAt(t, lines, i+1)
		}, "chain is broken"},
		{"reorder two events", func() ([]string, string) {
			i := indexOf(t, lines, events.TypeRollRequested, 2)
			out := append([]string(nil), lines...)
			out[i], out[i+1] = out[i+1], out[i]
			return out, idAt(t, out, i)
		}, "chain is broken"},
		{"a prevhash", func() ([]string, string) {
			i := indexOf(t, lines, events.TypeRollMade, 2)
			e, err := events.Decode([]byte(lines[i]))
			require.NoError(t, err)
			e.PrevHash = strings.Repeat("0", 64)
			b, err := events.Encode(e)
			require.NoError(t, err)
			out := append([]string(nil), lines...)
			out[i] = string(b)
			return out, e.ID
		}, "chain is broken"},
		{"replay a request", func() ([]string, string) {
			i := indexOf(t, lines, events.TypeRollRequested, 1)
			e, err := events.Decode([]byte(lines[i]))
			require.NoError(t, err)
			e.ID = uuid.NewString()
			b, err := events.Encode(e)
			require.NoError(t, err)
			out := append(append(append([]string(nil), lines[:i+1]...), string(b)), lines[i+1:]...)
			return rechain(t, out), e.ID
		}, "replayed request"},
		{"swap the seed and re-forge all the host can", func() ([]string, string) {
			out := reforgeSeed(t, lines)
			return out, idAt(t, out, indexOf(t, out, events.TypeRollRequested, 1))
		}, "seed commitment (the session's)"},
	}
	require.GreaterOrEqual(t, len(tests), 20)
	requireTamperMismatches(t, tb.cli, tests)
	t.Run("untouched", func(t *testing.T) {
		out := tb.flagged("--lang", "en", "replay", "--file", writeExport(t, lines))
		require.Contains(t, out, "OK with 1 flag:", fmt.Sprint(out)) // the cancelled request
	})
	t.Run("the attack path", v2AttackTampering)
}

// verified runs a replay that must verify, with flags (exit 5) or without
// (exit 0): a session whose dice decide whether a roll had to be asked for
// again. It returns the output and whether it was flagged.
func (c *cli) verified(args ...string) (string, bool) {
	c.t.Helper()
	out, errb, code := c.run(args...)
	require.Contains(c.t, []int{0, exitFlagged}, code, "journal %s: %s\n%s", strings.Join(args, " "), out, errb)
	require.NotContains(c.t, out, "MISMATCH")
	return out, code == exitFlagged
}

// flagged runs a replay that must verify with flags (exit 5) and returns its output.
func (c *cli) flagged(args ...string) string {
	c.t.Helper()
	out, errb, code := c.run(args...)
	require.Equal(c.t, exitFlagged, code, "journal %s: %s\n%s", strings.Join(args, " "), out, errb)
	require.Regexp(c.t, "verified with flags|verificado con avisos", errb)
	return out
}

// tamperCase is one tampering of an export: tamper returns the tampered
// lines and the id of the event replay must name, want what its MISMATCH
// line says.
type tamperCase struct {
	name   string
	tamper func() ([]string, string)
	want   string
}

// requireTamperMismatches replays each tampered export (journal replay
// --file) and requires the mismatch exit code and a MISMATCH line that
// names the event and says what tt.want says.
func requireTamperMismatches(t *testing.T, c *cli, tests []tamperCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tampered, id := tt.tamper()
			out, errb, code := c.run("--lang", "en", "replay", "--file", writeExport(t, tampered))
			require.Equal(t, exitMismatch, code, "%s\n%s", out, errb)
			require.Contains(t, out, id, "the message names the event")
			line := ""
			for _, l := range strings.Split(out, "\n") {
				if strings.Contains(l, id) && strings.Contains(l, "MISMATCH") {
					line += l + "\n"
				}
			}
			require.Contains(t, line, tt.want, "%s", out)
		})
	}
}
