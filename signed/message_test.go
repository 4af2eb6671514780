package signed_test

import (
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/signed"
)

const (
	reqID   = "0193a5b0-7c1e-7d2a-9f00-1234567890ab"
	eventID = "0193a5b0-7c1e-7d2a-9f00-abcdefabcdef"
)

func hdr() signed.Header { return signed.Header{Campaign: "camp-1", Session: "sess-1"} }

func h32(b byte) signed.Hex32 {
	var h signed.Hex32
	for i := range h {
		h[i] = b
	}
	return h
}

// One valid message of every type.
func samples() []signed.Message {
	r0 := [32]byte(h32(0x20))
	commit, _ := dice.ParseHex32(dice.RevealCommitment(r0))
	return []signed.Message{
		&signed.Contribute{Header: hdr(), Value: h32(0xaa)},
		&signed.Contribute{Header: hdr(), Value: h32(0xaa), Commitment: h32(0xcd)}, // bound to the session's seed
		&signed.Request{Header: hdr(), Request: reqID, Commitment: commit,
			Action: jsontext.Value(`{"command":"roll","character":"lodin","skill":"Pelea","vs":7,"mod":0,"token":false}`)},
		&signed.Request{Header: hdr(), Request: reqID, BeaconRound: 1234567, Action: jsontext.Value(`{"command":"attack","character":"orc-1","target":"lodin"}`)},
		&signed.Reveal{Header: hdr(), Request: reqID, R: signed.Hex32(r0)},
		&signed.Witness{Header: hdr(), Request: reqID, Value: h32(0xbb)},
		&signed.Contribute{Header: hdr(), Value: h32(0xaa), Commitment: h32(0xcd), WitnessAnchor: h32(0xce)}, // a witness chain
		&signed.Witness{Header: hdr(), Request: reqID, Index: 3, Value: h32(0xbb)},                           // its third value
		&signed.Receipt{Header: hdr(), Request: reqID},
		&signed.Cosign{Header: hdr(), Ended: h32(0xcc)},
		&signed.VoidConsent{Header: hdr(), Event: eventID, Reason: "rolled for the wrong character"},
	}
}

func TestEncodeOpenRoundTrip(t *testing.T) {
	priv := rfcKey(t)
	pub := signed.PublicKeyOf(priv)
	for _, m := range samples() {
		t.Run(string(m.Kind()), func(t *testing.T) {
			s, err := signed.Encode(m)
			require.NoError(t, err)
			require.Empty(t, m.Head().Type, "Encode does not modify its argument")
			got, err := signed.Open(pub, s, signed.Sign(priv, s), "camp-1", "sess-1")
			require.NoError(t, err)
			require.Equal(t, m.Kind(), got.Head().Type, "the type is written")
			again, err := signed.Encode(got)
			require.NoError(t, err)
			require.Equal(t, s, again, "a parsed message encodes to the same string")
		})
	}
}

func TestEncodeRefuses(t *testing.T) {
	tests := []struct {
		name string
		m    signed.Message
	}{
		{"nil", nil},
		{"wrong type in header", &signed.Cosign{Header: signed.Header{Type: signed.TypeReveal, Campaign: "c", Session: "s"}, Ended: h32(1)}},
		{"no campaign", &signed.Cosign{Header: signed.Header{Session: "s"}, Ended: h32(1)}},
		{"no action", &signed.Request{Header: hdr(), Request: reqID}},
		{"missing value", &signed.Contribute{Header: hdr()}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := signed.Encode(tt.m); !errors.Is(err, signed.ErrMalformed) {
				t.Fatalf("Encode err = %v, want ErrMalformed", err)
			}
		})
	}
}

// A valid reveal, as a device would write it by hand.
const revealJSON = `{"type":"roll.reveal","campaign":"camp-1","session":"sess-1","request":"` + reqID + `","r":"2020202020202020202020202020202020202020202020202020202020202020"}`

func TestOpenRefuses(t *testing.T) {
	priv := rfcKey(t)
	pub := signed.PublicKeyOf(priv)
	good := signed.Sign(priv, revealJSON)
	goodRaw, _ := base64.RawURLEncoding.DecodeString(good)

	// A signature whose last character differs only in the unused low bits:
	// the same 64 bytes, a second spelling.
	last := strings.IndexByte("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", good[len(good)-1])
	alias := good[:len(good)-1] + string("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"[last^1])

	tests := []struct {
		name              string
		signed, signature string
		campaign, session string
		want              error
		mention           string
	}{
		{"tampered string", strings.Replace(revealJSON, "2020", "2021", 1), good, "camp-1", "sess-1", signed.ErrBadSignature, "does not verify"},
		{"whitespace added", revealJSON + " ", good, "camp-1", "sess-1", signed.ErrBadSignature, "does not verify"},
		{"wrong key", revealJSON, signed.Sign(otherKey(), revealJSON), "camp-1", "sess-1", signed.ErrBadSignature, "does not verify"},
		{"padded base64", revealJSON, good + "==", "camp-1", "sess-1", signed.ErrBadSignature, "characters"},
		{"standard base64", revealJSON, base64.RawStdEncoding.EncodeToString(goodRaw), "camp-1", "sess-1", signed.ErrBadSignature, ""},
		{"non-canonical trailing bits", revealJSON, alias, "camp-1", "sess-1", signed.ErrBadSignature, "canonical"},
		{"empty signature", revealJSON, "", "camp-1", "sess-1", signed.ErrBadSignature, ""},
		{"short signature", revealJSON, good[:40], "camp-1", "sess-1", signed.ErrBadSignature, ""},
		{"wrong campaign", revealJSON, good, "camp-2", "sess-1", signed.ErrWrongScope, "campaign"},
		{"wrong session", revealJSON, good, "camp-1", "sess-2", signed.ErrWrongScope, "session"},
		{"too large", strings.Repeat(" ", signed.MaxSize+1), good, "camp-1", "sess-1", signed.ErrTooLarge, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.name == "non-canonical trailing bits" {
				raw, err := base64.RawURLEncoding.DecodeString(alias)
				require.NoError(t, err, "the lax decoder reads the alias")
				require.Equal(t, goodRaw, raw, "the alias must spell the same bytes")
				require.NotEqual(t, good, alias)
			}
			m, err := signed.Open(pub, tt.signed, tt.signature, tt.campaign, tt.session)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Open err = %v, want %v", err, tt.want)
			}
			if m != nil {
				t.Fatalf("Open returned a message with an error: %+v", m)
			}
			if !strings.Contains(err.Error(), tt.mention) {
				t.Fatalf("error %q does not mention %q", err, tt.mention)
			}
		})
	}
}

func TestParseRefuses(t *testing.T) {
	const r = `"r":"2020202020202020202020202020202020202020202020202020202020202020"`
	base := `"campaign":"camp-1","session":"sess-1"`
	tests := []struct {
		name, text string
		want       error
		mention    string
	}{
		{"not an object", `["roll.reveal"]`, signed.ErrMalformed, "object"},
		{"null", `null`, signed.ErrMalformed, "object"},
		{"a string", `"x"`, signed.ErrMalformed, "object"},
		{"empty", ``, signed.ErrMalformed, "object"},
		{"trailing data", revealJSON + `{}`, signed.ErrMalformed, "after top-level value"},
		{"invalid utf-8", `{"type":"void.consent",` + base + `,"event":"` + eventID + `","reason":"` + "\xff" + `"}`, signed.ErrMalformed, "UTF-8"},
		{"bad escape surrogate", `{"type":"void.consent",` + base + `,"event":"` + eventID + `","reason":"\ud800"}`, signed.ErrMalformed, "surrogate"},
		{"missing type", `{` + base + `,"request":"` + reqID + `",` + r + `}`, signed.ErrMalformed, "type"},
		{"type not a string", `{"type":7,` + base + `}`, signed.ErrMalformed, "type"},
		{"unknown type", `{"type":"roll.steer",` + base + `}`, signed.ErrUnknownType, "roll.steer"},
		{"type in upper case", `{"type":"ROLL.REVEAL",` + base + `,"request":"` + reqID + `",` + r + `}`, signed.ErrUnknownType, "ROLL.REVEAL"},
		{"duplicate type", `{"type":"roll.reveal","type":"roll.witness",` + base + `,"request":"` + reqID + `",` + r + `}`, signed.ErrMalformed, "duplicate"},
		{"duplicate r", `{"type":"roll.reveal",` + base + `,"request":"` + reqID + `",` + r + `,` + r + `}`, signed.ErrMalformed, "duplicate"},
		{"duplicate in action", `{"type":"roll.request",` + base + `,"request":"` + reqID + `","action":{"vs":7,"vs":2}}`, signed.ErrMalformed, "duplicate"},
		{"unknown member", `{"type":"roll.reveal",` + base + `,"request":"` + reqID + `",` + r + `,"nonce":3}`, signed.ErrMalformed, `unknown field "nonce"`},
		{"member in another case", `{"type":"roll.reveal",` + base + `,"Request":"` + reqID + `",` + r + `}`, signed.ErrMalformed, `unknown field "Request"`},
		{"field of another type", `{"type":"roll.reveal",` + base + `,"request":"` + reqID + `",` + r + `,"value":"aa"}`, signed.ErrMalformed, `unknown field "value"`},
		{"missing campaign", `{"type":"roll.reveal","session":"sess-1","request":"` + reqID + `",` + r + `}`, signed.ErrMalformed, "campaign"},
		{"campaign not a slug", `{"type":"roll.reveal","campaign":"Camp 1","session":"sess-1","request":"` + reqID + `",` + r + `}`, signed.ErrMalformed, "campaign"},
		{"missing session", `{"type":"roll.reveal","campaign":"camp-1","request":"` + reqID + `",` + r + `}`, signed.ErrMalformed, "session"},
		{"missing r", `{"type":"roll.reveal",` + base + `,"request":"` + reqID + `"}`, signed.ErrMalformed, "field r is missing"},
		{"r upper case", `{"type":"roll.reveal",` + base + `,"request":"` + reqID + `","r":"` + strings.Repeat("AB", 32) + `"}`, signed.ErrMalformed, "field r"},
		{"r short", `{"type":"roll.reveal",` + base + `,"request":"` + reqID + `","r":"abab"}`, signed.ErrMalformed, "field r"},
		{"r not hex", `{"type":"roll.reveal",` + base + `,"request":"` + reqID + `","r":"` + strings.Repeat("zz", 32) + `"}`, signed.ErrMalformed, "field r"},
		{"r a number", `{"type":"roll.reveal",` + base + `,"request":"` + reqID + `","r":12}`, signed.ErrMalformed, "field r"},
		{"missing request", `{"type":"roll.reveal",` + base + `,` + r + `}`, signed.ErrMalformed, "field request is missing"},
		{"request upper case", `{"type":"roll.reveal",` + base + `,"request":"` + strings.ToUpper(reqID) + `",` + r + `}`, signed.ErrMalformed, "field request"},
		{"request braces", `{"type":"roll.reveal",` + base + `,"request":"{` + reqID + `}",` + r + `}`, signed.ErrMalformed, "field request"},
		{"request urn", `{"type":"roll.reveal",` + base + `,"request":"urn:uuid:` + reqID + `",` + r + `}`, signed.ErrMalformed, "field request"},
		{"contribute bad hex", `{"type":"session.contribute",` + base + `,"value":"` + strings.Repeat("a", 63) + `"}`, signed.ErrMalformed, "field value"},
		{"contribute zero", `{"type":"session.contribute",` + base + `,"value":"` + strings.Repeat("0", 64) + `"}`, signed.ErrMalformed, "field value"},
		{"witness missing value", `{"type":"roll.witness",` + base + `,"request":"` + reqID + `"}`, signed.ErrMalformed, "field value"},
		{"cosign missing ended", `{"type":"session.cosign",` + base + `}`, signed.ErrMalformed, "field ended"},
		{"action missing", `{"type":"roll.request",` + base + `,"request":"` + reqID + `"}`, signed.ErrMalformed, "field action"},
		{"action an array", `{"type":"roll.request",` + base + `,"request":"` + reqID + `","action":[1]}`, signed.ErrMalformed, "field action"},
		{"action null", `{"type":"roll.request",` + base + `,"request":"` + reqID + `","action":null}`, signed.ErrMalformed, "field action"},
		{"commitment bad hex", `{"type":"roll.request",` + base + `,"request":"` + reqID + `","commitment":"xy","action":{}}`, signed.ErrMalformed, "field commitment"},
		{"beacon round negative", `{"type":"roll.request",` + base + `,"request":"` + reqID + `","beacon_round":-1,"action":{}}`, signed.ErrMalformed, "field beacon_round"},
		{"beacon round float", `{"type":"roll.request",` + base + `,"request":"` + reqID + `","beacon_round":1e3,"action":{}}`, signed.ErrMalformed, "field beacon_round"},
		{"beacon round with commitment", `{"type":"roll.request",` + base + `,"request":"` + reqID + `","commitment":"` + strings.Repeat("ab", 32) + `","beacon_round":5,"action":{}}`, signed.ErrMalformed, "field beacon_round"},
		{"void missing reason", `{"type":"void.consent",` + base + `,"event":"` + eventID + `"}`, signed.ErrMalformed, "field reason"},
		{"void blank reason", `{"type":"void.consent",` + base + `,"event":"` + eventID + `","reason":"  "}`, signed.ErrMalformed, "field reason"},
		{"void long reason", `{"type":"void.consent",` + base + `,"event":"` + eventID + `","reason":"` + strings.Repeat("x", signed.MaxReasonLen+1) + `"}`, signed.ErrMalformed, "field reason"},
		{"void bad event", `{"type":"void.consent",` + base + `,"event":"lodin","reason":"x"}`, signed.ErrMalformed, "field event"},
		{"too large", `{"type":"void.consent",` + base + `,"event":"` + eventID + `","reason":"` + strings.Repeat("x", signed.MaxSize) + `"}`, signed.ErrTooLarge, "at most"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := signed.Parse(tt.text)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Parse err = %v, want %v", err, tt.want)
			}
			if m != nil {
				t.Fatalf("Parse returned a message with an error: %+v", m)
			}
			if !strings.Contains(err.Error(), tt.mention) {
				t.Fatalf("error %q does not mention %q", err, tt.mention)
			}
		})
	}
}

func TestParseAccepts(t *testing.T) {
	// Whitespace and member order are the device's: the signed string is
	// recorded verbatim, so Parse accepts any well-formed spelling.
	text := "{ \"r\": \"" + strings.Repeat("20", 32) + "\",\n \"request\": \"" + reqID + "\", \"session\": \"sess-1\", \"campaign\": \"camp-1\", \"type\": \"roll.reveal\" }"
	m, err := signed.Parse(text)
	require.NoError(t, err)
	rv, ok := m.(*signed.Reveal)
	require.True(t, ok, "got %T", m)
	require.Equal(t, h32(0x20), rv.R)
	require.Equal(t, reqID, rv.Request)

	w, err := signed.Parse(`{"type":"roll.request","campaign":"c","session":"s","request":"` + reqID + `","action":{"command":"roll"}}`)
	require.NoError(t, err)
	require.True(t, w.(*signed.Request).Witnessed(), "a request without commitment is witnessed")
}

func FuzzParse(f *testing.F) {
	for _, m := range samples() {
		s, err := signed.Encode(m)
		require.NoError(f, err)
		f.Add(s)
	}
	f.Add(revealJSON)
	f.Add(`{"type":"roll.reveal","type":"x"}`)
	f.Add(`{"type":"roll.request","campaign":"c","session":"s","request":"` + reqID + `","action":{"a":{"b":[1,{"c":2}]}}}`)
	priv := ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize))
	pub := signed.PublicKeyOf(priv)
	f.Fuzz(func(t *testing.T, text string) {
		m, err := signed.Parse(text)
		if err != nil {
			if m != nil {
				t.Fatalf("message and error: %v", err)
			}
			return
		}
		// What parses re-encodes, and the re-encoding parses to the same message.
		again, err := signed.Encode(m)
		if err != nil {
			t.Fatalf("Encode(Parse(%q)): %v", text, err)
		}
		back, err := signed.Parse(again)
		if err != nil {
			t.Fatalf("Parse(Encode(...)) of %q: %v", again, err)
		}
		if back.Kind() != m.Kind() || back.Head() != m.Head() {
			t.Fatalf("round trip changed the message: %+v vs %+v", back, m)
		}
		h := m.Head()
		if _, err := signed.Open(pub, text, signed.Sign(priv, text), h.Campaign, h.Session); err != nil {
			t.Fatalf("Open of a signed valid message: %v", err)
		}
	})
}

func BenchmarkOpen(b *testing.B) {
	priv := rfcKey(b)
	pub := signed.PublicKeyOf(priv)
	sig := signed.Sign(priv, revealJSON)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := signed.Open(pub, revealJSON, sig, "camp-1", "sess-1"); err != nil {
			b.Fatal(err)
		}
	}
}

// Every type of Types parses, and samples cover every type.
func TestTypesCovered(t *testing.T) {
	seen := map[signed.Type]bool{}
	for _, m := range append(samples(), deviceSamples()...) {
		seen[m.Kind()] = true
	}
	for _, typ := range signed.Types() {
		require.True(t, seen[typ], "no sample of %s", typ)
	}
	require.Len(t, seen, len(signed.Types()))
}

// A message carries its device's receipt (seen) after "session", in Go's
// and the browser's one spelling; a seen without its sequence or hash is
// malformed.
func TestSeenEncoding(t *testing.T) {
	h := hdr()
	h.Seen = &signed.Seen{Seq: 42, Hash: h32(0xab)}
	s, err := signed.Encode(&signed.Cosign{Header: h, Ended: h32(0xcc)})
	require.NoError(t, err)
	require.Equal(t, `{"type":"session.cosign","campaign":"camp-1","session":"sess-1","seen":{"seq":42,"hash":"`+h32(0xab).String()+`"},"ended":"`+h32(0xcc).String()+`"}`, s)
	m, err := signed.Parse(s)
	require.NoError(t, err)
	require.Equal(t, uint64(42), m.Head().Seen.Seq)
	for _, bad := range []string{
		`{"type":"session.cosign","campaign":"camp-1","session":"sess-1","seen":{"seq":0,"hash":"` + h32(0xab).String() + `"},"ended":"` + h32(0xcc).String() + `"}`,
		`{"type":"session.cosign","campaign":"camp-1","session":"sess-1","seen":{"seq":3},"ended":"` + h32(0xcc).String() + `"}`,
		`{"type":"session.cosign","campaign":"camp-1","session":"sess-1","seen":{"seq":3,"hash":"` + h32(0xab).String() + `","x":1},"ended":"` + h32(0xcc).String() + `"}`,
	} {
		_, err := signed.Parse(bad)
		require.ErrorIs(t, err, signed.ErrMalformed, bad)
	}
	require.True(t, signed.SeenOf(7, []byte("abc")).Matches([]byte("abc")))
	require.False(t, signed.SeenOf(7, []byte("abc")).Matches([]byte("abd")))
}

func TestWithSeen(t *testing.T) {
	seen := &signed.Seen{Seq: 3, Hash: h32(0x11)}
	for _, m := range samples() {
		got := signed.WithSeen(m, seen)
		require.Nil(t, m.Head().Seen, "m is not modified")
		require.Equal(t, seen, got.Head().Seen)
		require.Equal(t, m.Kind(), got.Kind())
		_, err := signed.Encode(got)
		require.NoError(t, err)
	}
}
