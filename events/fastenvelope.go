package events

import (
	"bytes"
	"strings"
	"time"
)

// The fast path of Decode: a reader of the documents the journal itself
// writes (encode's attributes in encode's order, no whitespace, strings
// without escapes), tried before the general reader.
//
// Invariant: readFast handles a subset of the documents the general
// reader (readGeneral) accepts, and there it returns exactly what
// readGeneral returns: the same event and data decoded deep-equal. On
// anything else it gives up, returning false and no error, and
// readGeneral decides as it did before the fast path existed. Both run on
// documents that Decode has checked to be valid UTF-8, so that neither
// checks it again.

// envelopeBefore[k] is the text encode writes before the value of string
// attribute k (k < attrData), with the value's opening quote, for the
// attributes whose values vary; for k > 0 it starts with the closing
// quote of the value before. The other two, specversion and
// datacontenttype, have "": readFast reads them as part of the text
// before the next attribute, with the one value Decode accepts
// (checkEnvelope refuses any other, and readFast gives up on it).
var envelopeBefore = func() (before [attrData]string) {
	for k := range attrData {
		before[k] = `","` + attrNames[k] + `":"`
	}
	before[attrID] = `{"specversion":"` + SpecVersion + before[attrID]
	before[attrCampaign] = `","datacontenttype":"` + ContentType + before[attrCampaign]
	before[attrSpecVersion], before[attrDataContentType] = "", ""
	before[attrRequestID] = "" // optional: read after the loop
	before[attrCommand] = ""   // optional: read after the loop
	return before
}()

// dataBefore is the text encode writes before data, with the closing
// quote of the attribute before; requestIDBefore is the text it writes
// before the request id, when the event has one, after causationid.
const (
	dataBefore      = `","data":`
	requestIDBefore = `","requestid":"`
	commandBefore   = `","command":"`
)

// readFast reads b, a valid UTF-8 document, as readGeneral does, when b is
// exactly {"specversion":"1.0","id":"…",…,"causationid":"…","data":{…}}
// (with "requestid":"…" after causationid, and "command":"…" after that,
// when the event has them): every attribute in encode's order, none left
// out but requestid and command, no whitespace, each
// string attribute's value without a backslash or a control character
// (the time one as time.Time.UnmarshalJSON reads it), specversion and
// datacontenttype with the values Decode accepts, a registered type,
// data that decodes strictly, and nothing after the closing brace. It
// reports false on any other document. The envelope's strings and those
// of the data decoded the fast way share one allocation; data is copied
// out of b, unless owned, when it is a part of b.
func readFast(b []byte, owned bool) (e Event, v any, ok bool) {
	var spans [numAttrs][2]int // of the string values in b
	i, envelopeLen := 0, 0
	for k, before := range envelopeBefore {
		if before == "" {
			continue
		}
		if !bytes.HasPrefix(b[i:], []byte(before)) {
			return Event{}, nil, false
		}
		start := i + len(before)
		if i = simpleStringEnd(b, start); i < 0 {
			return Event{}, nil, false
		}
		if k == attrTime {
			if e.Time, ok = readTime(b[start-1 : i+1]); !ok {
				return Event{}, nil, false
			}
			continue
		}
		spans[k] = [2]int{start, i}
		envelopeLen += i - start
	}
	if bytes.HasPrefix(b[i:], []byte(requestIDBefore)) { // encode writes it only when set
		start := i + len(requestIDBefore)
		if i = simpleStringEnd(b, start); i < 0 {
			return Event{}, nil, false
		}
		spans[attrRequestID] = [2]int{start, i}
		envelopeLen += i - start
	}
	if bytes.HasPrefix(b[i:], []byte(commandBefore)) { // encode writes it only when set
		start := i + len(commandBefore)
		if i = simpleStringEnd(b, start); i < 0 {
			return Event{}, nil, false
		}
		spans[attrCommand] = [2]int{start, i}
		envelopeLen += i - start
	}
	if !bytes.HasPrefix(b[i:], []byte(dataBefore)) || b[len(b)-1] != '}' {
		return Event{}, nil, false
	}
	// Data must be one object, with no whitespace around it that
	// decodeStrictly would skip and readGeneral would leave out of it.
	data := b[i+len(dataBefore) : len(b)-1]
	if len(data) < 2 || data[0] != '{' || data[len(data)-1] != '}' {
		return Event{}, nil, false
	}
	typ := b[spans[attrType][0]:spans[attrType][1]]
	d := dataDecoder{data: data}
	if v, d.ints, ok = newData(string(typ)); !ok {
		return Event{}, nil, false
	}
	if !d.decode(v) && decodeStrictly(data, v) != nil {
		return Event{}, nil, false
	}
	setText(&e, b, &spans, envelopeLen, &d)
	e.SpecVersion, e.DataContentType = SpecVersion, ContentType
	if owned {
		e.Data = data[:len(data):len(data)] // an append to it cannot reach past data
	} else {
		e.Data = make([]byte, len(data))
		copy(e.Data, data)
	}
	return e, v, true
}

// setText copies the string values at spans in b and those d read into
// one string, and sets e's string attributes and the strings of d's value
// to their parts.
func setText(e *Event, b []byte, spans *[numAttrs][2]int, envelopeLen int, d *dataDecoder) {
	var text strings.Builder
	text.Grow(envelopeLen + d.textLen)
	var parts [numAttrs][2]int // of the values in text
	for k, s := range spans {
		parts[k] = [2]int{text.Len(), text.Len() + s[1] - s[0]}
		text.Write(b[s[0]:s[1]])
	}
	envelope := text.Len()
	d.writeText(&text)
	all := text.String()
	setStrings(e, all, &parts)
	d.setStrings(all[envelope:])
}

// newData returns a pointer to a fresh value of the data type registered
// for eventType, as dataFor does, and for the commonest type, room for
// the ints of its slices and pointers (see dataDecoder.newInts) in the
// same allocation.
func newData(eventType string) (v any, ints []int, ok bool) {
	if eventType == TypeRollMade {
		p := new(struct {
			v    RollMade
			ints [8]int
		})
		return &p.v, p.ints[:], true
	}
	v, ok = dataFor(eventType)
	return v, nil, ok
}

// readTime reads the time attribute's value raw (with its quotes) as
// readGeneral does (with time.Time.UnmarshalJSON), the form encode writes
// for UTC times by hand.
func readTime(raw []byte) (t time.Time, ok bool) {
	if t, ok = utcTime(raw[1 : len(raw)-1]); ok {
		return t, true
	}
	return t, t.UnmarshalJSON(raw) == nil
}

// utcTime reads the text of a time attribute (between its quotes) as
// time.Time.UnmarshalJSON reads it, when it has the form encode writes for
// a UTC time: 2006-01-02T15:04:05Z, with a fraction of 1 to 9 digits after
// the seconds or none, each field in its range. It reports false for any
// other text (which UnmarshalJSON reads instead).
func utcTime(s []byte) (time.Time, bool) {
	if len(s) < len("2006-01-02T15:04:05Z") || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' ||
		s[16] != ':' || s[len(s)-1] != 'Z' {
		return time.Time{}, false
	}
	year, month, day := decimal(s[0:4]), decimal(s[5:7]), decimal(s[8:10])
	hour, minute, sec := decimal(s[11:13]), decimal(s[14:16]), decimal(s[17:19])
	nsec := 0
	if frac := s[19 : len(s)-1]; len(frac) > 0 {
		if frac[0] != '.' || len(frac) < 2 || len(frac) > 10 {
			return time.Time{}, false
		}
		nsec = decimal(frac[1:]) * pow10[10-len(frac)]
	}
	if year < 0 || month < 1 || month > 12 || day < 1 || day > daysIn(month, year) || hour < 0 || hour > 23 ||
		minute < 0 || minute > 59 || sec < 0 || sec > 59 || nsec < 0 {
		return time.Time{}, false
	}
	return time.Date(year, time.Month(month), day, hour, minute, sec, nsec, time.UTC), true
}

// pow10[k] is 10 to the k.
var pow10 = [...]int{1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9}

// decimal returns the number the digits b (at most 9) write, or -1 if b
// holds anything else.
func decimal(b []byte) int {
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return -1
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// daysIn returns the number of days of month (1-12) in year.
func daysIn(month, year int) int {
	if month == 2 && year%4 == 0 && (year%100 != 0 || year%400 == 0) {
		return 29
	}
	return int(daysOfMonth[month-1])
}

// daysOfMonth are the days of each month of a common year.
var daysOfMonth = [12]uint8{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}
