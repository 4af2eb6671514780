package device

import (
	"cmp"
	"reflect"
	"slices"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/signed"
)

// Checking a record against a device's receipts (docs/design.md §3.3, "on
// every load a device checks that the record it is shown extends every
// head it signed and that the key registered for its user is its own").
// Pure: the caller reads the receipts and the record.
//
// A kept head (a receipt's seen) is found by its hash among the record's
// stored bytes, never by its sequence alone: a campaign restored or
// migrated into another folder keeps its bytes, not its sequences. The
// sequence is for the words: the lowest head not found is where the
// histories part.

// Alarm kinds.
const (
	// AlarmHistory: a head the device signed after seeing is not in the
	// record, though the record goes past it: the history was rewritten.
	AlarmHistory = "history-differs"
	// AlarmCut: the record stops before a head the device signed after seeing.
	AlarmCut = "cut"
	// AlarmMessage: the record holds a message of this device's user that
	// is not, byte for byte, the one the device signed.
	AlarmMessage = "message-differs"
	// AlarmKey: the record's keys for the device's user do not include its own.
	AlarmKey = "foreign-key"
)

// Alarm is one way the record differs from what the device holds.
type Alarm struct {
	Kind string `json:"kind"`
	// Seq is where the histories part (history-differs, message-differs),
	// or the head beyond the record's end (cut).
	Seq uint64 `json:"seq,omitempty"`
	// Last is the record's last known sequence (cut; 0 when unknown).
	Last uint64 `json:"last,omitempty"`
	User string `json:"user,omitempty"`
	// Text is the alarm in English words; Err is the same, keyed, for a
	// door to render in its reader's language (i18n.Render).
	Text string `json:"text"`
	Err  error  `json:"-"`
}

// alarm is a with its words e (Text and Err).
func alarm(a Alarm, e error) Alarm {
	a.Text, a.Err = e.Error(), e
	return a
}

// HistoryDiffers is the words of an AlarmHistory at seq.
func HistoryDiffers(seq uint64) string { return historyDiffers(seq).Error() }

func historyDiffers(seq uint64) error {
	return msgerr.Errorf("the journal's history differs from what this device signed at #%d", seq)
}

// Record is what a device is shown of one campaign: its events in stream
// order, each with its stored bytes (Raw). File is true for an export
// (the words then speak of the file); its events may carry no sequence.
type Record struct {
	Events []events.Recorded
	File   bool
}

// CheckRecord checks rec against the receipts kept for its campaign: every
// kept head is in rec (else AlarmHistory at the lowest missing head, or
// AlarmCut when every missing head lies beyond rec's end: past its last
// sequence, its highest kept head and every kept message it holds, and
// rec holds fewer events after its highest kept head than the sequences
// between them), and every
// message of rec that answers a kept message (same type, session, user and
// request or event) is the kept one verbatim (else AlarmMessage). Receipts without seen check only
// their message.
func CheckRecord(kept []Receipt, rec Record) []Alarm {
	if len(kept) == 0 {
		return nil
	}
	hashes := make(map[signed.Hex32]int, len(rec.Events)) // → its index in rec.Events
	var last uint64
	byID := map[string][]string{} // identity -> recorded signed strings
	seqOf := map[string]uint64{}
	users := map[string]string{}
	for i, r := range rec.Events {
		if r.Raw != nil {
			hashes[signed.SeenOf(r.Seq, r.Raw).Hash] = i
		}
		last = max(last, r.Seq)
		user, msg := signedBy(r.Event)
		if msg == "" {
			continue
		}
		if id, ok := identity(user, msg); ok {
			byID[id] = append(byID[id], msg)
			users[id] = user
			if _, ok := seqOf[id]; !ok {
				seqOf[id] = r.Seq
			}
		}
	}
	signedAs := map[string][]string{} // identity -> kept signed strings
	kinds := map[string]signed.Type{}
	var found uint64 // the highest kept head found
	foundAt := -1    // its index in rec.Events
	var missing []uint64
	var alarms []Alarm
	for _, k := range kept {
		m, err := signed.Parse(k.Signed)
		if err != nil {
			continue // not a message this device could have sent
		}
		if s := m.Head().Seen; s != nil {
			if i, ok := hashes[s.Hash]; ok {
				if s.Seq >= found {
					found, foundAt = s.Seq, i
				}
			} else {
				missing = append(missing, s.Seq)
			}
		}
		if id, ok := identity(k.User, k.Signed); ok {
			signedAs[id] = append(signedAs[id], k.Signed)
			kinds[id] = m.Kind()
		}
	}
	for id, got := range byID {
		mine := signedAs[id]
		if len(mine) == 0 {
			continue
		}
		for _, g := range got {
			if !slices.Contains(mine, g) {
				alarms = append(alarms, alarm(Alarm{Kind: AlarmMessage, Seq: seqOf[id], User: users[id]},
					msgerr.Errorf("the record holds a %s of %s at #%d that is not the one this device signed", kinds[id], users[id], seqOf[id])))
				break
			}
		}
	}
	slices.SortFunc(alarms, func(a, b Alarm) int { return cmp.Compare(a.Seq, b.Seq) })
	if len(missing) == 0 {
		return alarms
	}
	slices.Sort(missing)
	lowest, highest := missing[0], missing[len(missing)-1]
	// A kept message the record holds verbatim was signed after its seen:
	// the record goes past that head.
	recorded := map[string]bool{}
	for _, got := range byID {
		for _, g := range got {
			recorded[g] = true
		}
	}
	var past uint64 // the highest head a recorded kept message was signed after
	for _, k := range kept {
		if m, err := signed.Parse(k.Signed); err == nil && m.Head().Seen != nil && recorded[k.Signed] {
			past = max(past, m.Head().Seen.Seq)
		}
	}
	// Sequences grow by at least one per event of the campaign: a record
	// with lowest-found events after the highest head found reaches lowest.
	after := len(rec.Events) - 1 - foundAt
	beyond := lowest > found && lowest > past && (last == 0 || lowest > last) && uint64(after) < lowest-found
	if !beyond {
		return append([]Alarm{alarm(Alarm{Kind: AlarmHistory, Seq: lowest}, historyDiffers(lowest))}, alarms...)
	}
	at := last
	if at == 0 { // an export: no sequences, its highest kept head
		at = max(found, past)
	}
	text := msgerr.Errorf("the journal's history stops at #%d, before #%d which this device signed after seeing", at, highest)
	if rec.File {
		text = msgerr.Errorf("the file stops at #%d, before #%d which this device signed after seeing: the export is cut", at, highest)
	}
	return append([]Alarm{alarm(Alarm{Kind: AlarmCut, Seq: highest, Last: at}, text)}, alarms...)
}

// identity names what a signed message answers, so that two messages of
// one user for the same thing are compared: its type, session and the
// request or event it names. A message that names neither (a
// contribution, a co-signature: one per session, which another device of
// the same user may have sent instead) has none.
func identity(user, s string) (string, bool) {
	m, err := signed.Parse(s)
	if err != nil || user == "" {
		return "", false
	}
	h := m.Head()
	id := string(m.Kind()) + "|" + h.Campaign + "|" + h.Session + "|" + user + "|"
	switch v := m.(type) {
	case *signed.Request:
		return id + v.Request, true
	case *signed.Reveal:
		return id + v.Request, true
	case *signed.Witness:
		return id + v.Request, true
	case *signed.VoidConsent:
		return id + v.Event, true
	}
	return "", false
}

// CheckKey checks that one of the device's own public keys (64 hex: a
// CLI may hold several, by name) is among the keys registered for user; a
// device with no key, or a user with no key registered, has none to
// differ. It returns nil when it is.
func CheckKey(user string, own, registered []string) *Alarm {
	if len(own) == 0 || len(registered) == 0 || slices.ContainsFunc(own, func(k string) bool { return slices.Contains(registered, k) }) {
		return nil
	}
	a := alarm(Alarm{Kind: AlarmKey, User: user}, msgerr.Errorf("the journal holds a key for %s that is not this device's", user))
	return &a
}

// signedBy is the user and the device message that ev records (its
// payload's User and Signed members, as the event's type decodes them
// strictly); "" when it records none.
func signedBy(ev events.Event) (user, msg string) {
	p, err := ev.Payload()
	if err != nil || p == nil {
		return "", ""
	}
	v := reflect.ValueOf(p)
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return "", ""
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return "", ""
	}
	str := func(name string) string {
		if f := v.FieldByName(name); f.IsValid() && f.Kind() == reflect.String {
			return f.String()
		}
		return ""
	}
	return str("User"), str("Signed")
}
