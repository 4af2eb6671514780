package replay

import (
	"crypto/sha256"
	"fmt"
	"reflect"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/signed"
)

// Receipts in the record (docs/design.md §3.3, "Receipts: every signed message
// says what its device saw"): a device's message may carry seen {seq,
// hash}, the campaign's latest event the device had received when it
// signed. A message whose seen.hash is not the hash of the stored bytes of
// an event of its campaign before the message's own event in the input is
// a chain mismatch: the device signed having seen a history that is not
// this one, so this history was rewritten before it (the host re-forged
// what came before a player's message, which it can re-chain but cannot
// re-sign). Matched by hash: a campaign restored or migrated into another
// folder keeps its bytes, not its sequences; seq is for the words. A
// message without seen (an older device) says nothing.

// seenHashes holds the hashes of a campaign's stored bytes in the input so far.
type seenHashes map[[32]byte]struct{}

// checkSeen checks each device message rec's event records (data.signed,
// data.consent_signed) that carries seen against the campaign's events
// before it, then adds rec's own stored bytes.
func (v *Verifier) checkSeen(c *campaign, m Mismatch, rec events.Recorded) {
	if c.seen == nil {
		c.seen = seenHashes{}
	}
	for _, s := range seensOf(rec.Event) {
		if _, ok := c.seen[[32]byte(s.Hash)]; !ok {
			m.Kind, m.What = MismatchChain, fmt.Sprintf("signed having seen #%d, which is not in this history: the history was rewritten before it", s.Seq)
			v.record(v.sessionOf(rec.Event), m)
			break
		}
	}
	if rec.Raw != nil {
		c.seen[sha256.Sum256(rec.Raw)] = struct{}{}
	}
}

// seensOf is the seen of each device message ev records in its payload's
// Signed or ConsentSigned member (none: no message, none that parses, or
// none with seen; a malformed one is the signature checks' to report). It
// reads the payload as the event's type decodes it (strictly, once),
// whatever the type.
func seensOf(ev events.Event) []*signed.Seen {
	var out []*signed.Seen
	for _, s := range signedStrings(ev) {
		if msg, err := signed.Parse(s); err == nil && msg.Head().Seen != nil {
			out = append(out, msg.Head().Seen)
		}
	}
	return out
}

// signedStrings are the non-empty string members Signed and ConsentSigned
// of ev's payload.
func signedStrings(ev events.Event) []string {
	p, err := ev.Payload()
	if err != nil || p == nil {
		return nil
	}
	v := reflect.ValueOf(p)
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return nil
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return nil
	}
	var out []string
	for _, name := range []string{"Signed", "ConsentSigned"} {
		if f := v.FieldByName(name); f.IsValid() && f.Kind() == reflect.String && f.String() != "" {
			out = append(out, f.String())
		}
	}
	return out
}
