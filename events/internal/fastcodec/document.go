package fastcodec

import (
	"bytes"
	"strings"
	"time"
)

// The fast path of a document: a reader of the documents the journal
// itself writes (the encoder's attributes in the encoder's order, no
// whitespace, strings without escapes), tried before the general reader.
//
// Invariant: Read handles a subset of the documents the general reader
// accepts, and there the Document gives exactly what the general reader
// gives: the same attributes, time and data (decoded deep-equal, by
// DecodeData or, where it gives up, by the strict decoder). On anything
// else Read gives up, returning false and no error, and the general
// reader decides, as it did before the fast path existed. Both run on
// documents that have been checked to be valid UTF-8, so that neither
// checks it again.

// MaxAttrs is the most attributes a Layout describes.
const MaxAttrs = 16

// A Layout is the text the encoder writes around the values of a
// document's attributes, all of them JSON strings but the last, data, an
// object.
type Layout struct {
	// Before[k] is the text written before the value of string attribute
	// k, with the value's opening quote, in the order the attributes are
	// written; for k > 0 it starts with the closing quote of the value
	// before. It is "" for an attribute not read in that order: one whose
	// one accepted value is written as part of another's Before (the
	// Document gives it as ""), and Optional. At most MaxAttrs.
	Before []string
	// Time is the index of the time attribute, whose value is read as
	// time.Time.UnmarshalJSON reads it (the Document gives it as "").
	Time int
	// Optional are the indexes of the attributes written after the others,
	// in this order, each only when it is set, after its OptionalBefore.
	Optional       []int
	OptionalBefore []string
	// DataBefore is the text written before data, with the closing quote
	// of the attribute before.
	DataBefore string
}

// A Document is one document as Read read it, to be read once (Read,
// then DecodeData, then Strings) by one goroutine. Its values are parts
// of the document until Strings copies them out.
type Document struct {
	b           []byte
	spans       [MaxAttrs][2]int // of the string values in b, then (after Strings) in its text
	envelopeLen int              // the length of the string values
	time        time.Time
	data        []byte
	d           dataDecoder
}

// Read reads b, a valid UTF-8 document, when it is exactly what the
// encoder writes by l: {<Before[0]>…<Before[1]>…,…<DataBefore>{…}}, with
// <OptionalBefore[j]>… before DataBefore, in order, for each optional
// attribute the document has; each string value without a backslash or a control character
// (the time one as time.Time.UnmarshalJSON reads it), data one object with
// nothing around it, and nothing after the closing brace. It reports false
// on any other document.
func (doc *Document) Read(b []byte, l *Layout) bool {
	if len(l.Before) > MaxAttrs {
		return false
	}
	doc.b = b
	i := 0
	for k, before := range l.Before {
		if before == "" {
			continue
		}
		if !bytes.HasPrefix(b[i:], []byte(before)) {
			return false
		}
		start := i + len(before)
		if i = simpleStringEnd(b, start); i < 0 {
			return false
		}
		if k == l.Time {
			var ok bool
			if doc.time, ok = readTime(b[start-1 : i+1]); !ok {
				return false
			}
			continue
		}
		doc.spans[k] = [2]int{start, i}
		doc.envelopeLen += i - start
	}
	for j, before := range l.OptionalBefore {
		if !bytes.HasPrefix(b[i:], []byte(before)) { // written only when set
			continue
		}
		start := i + len(before)
		if i = simpleStringEnd(b, start); i < 0 {
			return false
		}
		doc.spans[l.Optional[j]] = [2]int{start, i}
		doc.envelopeLen += i - start
	}
	if !bytes.HasPrefix(b[i:], []byte(l.DataBefore)) || b[len(b)-1] != '}' {
		return false
	}
	// Data must be one object, with no whitespace around it that the
	// strict decoder would skip and the general reader would leave out of
	// it.
	data := b[i+len(l.DataBefore) : len(b)-1]
	if len(data) < 2 || data[0] != '{' || data[len(data)-1] != '}' {
		return false
	}
	doc.data = data
	return true
}

// Attr returns the value of string attribute k as it is in the document
// (a part of it, which needs no unquoting).
func (doc *Document) Attr(k int) []byte {
	return doc.b[doc.spans[k][0]:doc.spans[k][1]]
}

// Time returns the time attribute.
func (doc *Document) Time() time.Time { return doc.time }

// Data returns the data object, a part of the document.
func (doc *Document) Data() []byte { return doc.data }

// DecodeData decodes the data into v as DecodeData does, taking the ints
// of its slices and pointers from ints (when not nil) first; its strings
// are set by Strings, with the envelope's. On false, v is zero. It is
// called at most once per Read.
func (doc *Document) DecodeData(v any, fs *Struct, ints []int) bool {
	doc.d.data, doc.d.ints = doc.data, ints
	return doc.d.decode(fs, v)
}

// Strings copies the values of the string attributes, and the strings
// DecodeData read, into one string, text; it sets the strings of the
// decoded value to their parts of it, and returns where the value of each
// attribute k is in it: text[parts[k][0]:parts[k][1]] ("" for those Read
// did not read).
func (doc *Document) Strings() (text string, parts *[MaxAttrs][2]int) {
	var b strings.Builder
	b.Grow(doc.envelopeLen + doc.d.textLen)
	for k, s := range doc.spans {
		doc.spans[k] = [2]int{b.Len(), b.Len() + s[1] - s[0]}
		b.Write(doc.b[s[0]:s[1]])
	}
	envelope := b.Len()
	doc.d.writeText(&b)
	text = b.String()
	doc.d.setStrings(text[envelope:])
	return text, &doc.spans
}

// readTime reads the time attribute's value raw (with its quotes) as the
// general reader does (with time.Time.UnmarshalJSON), the form the encoder
// writes for UTC times by hand.
func readTime(raw []byte) (t time.Time, ok bool) {
	if t, ok = utcTime(raw[1 : len(raw)-1]); ok {
		return t, true
	}
	return t, t.UnmarshalJSON(raw) == nil
}

// utcTime reads the text of a time attribute (between its quotes) as
// time.Time.UnmarshalJSON reads it, when it has the form the encoder
// writes for a UTC time: 2006-01-02T15:04:05Z, with a fraction of 1 to 9
// digits after the seconds or none, each field in its range. It reports false for any
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
