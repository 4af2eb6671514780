package events

import (
	"reflect"

	"github.com/campaign-journal/journal/events/internal/fastcodec"
)

// The fast path's glue: Decode and New try the fast codec
// (internal/fastcodec) first, with the registry's types and the field
// tables generated from their structs (fastfields.go).
//
// Invariant: readFast handles a subset of the documents the general
// reader (readGeneral) accepts, and there it returns exactly what
// readGeneral returns: the same event and data decoded deep-equal;
// decodeData decodes exactly what decodeStrictly decodes. On anything
// else the fast path gives up, and the general way decides as it did
// before the fast path existed. A stale fastfields.go (generated before
// a struct or the registry changed) only makes the fast path slower: a
// field table that is not its struct's is not used (fastcodec.StructOf
// checks it), nor a type index that is not the type's.

// fastStructOf is what the fast path knows of the data struct of t, with
// its generated field table, or nil when it does not decode it.
func fastStructOf(t *TypeInfo) *fastcodec.Struct {
	pt := reflect.TypeOf(t.data())
	return fastcodec.StructOf(pt, fastFields[pt])
}

// fastLayout is the text encode writes around the attributes' values (see
// fastcodec.Layout). Before[k] is the text before the value of string
// attribute k (k < attrData), with the value's opening quote, for the
// attributes whose values vary; for k > 0 it starts with the closing
// quote of the value before. The other two, specversion and
// datacontenttype, have "": they are read as part of the text before the
// next attribute, with the one value Decode accepts (checkEnvelope refuses
// any other, and the fast path gives up on it). The request id is
// optional, and so is the command after it: encode writes each, after
// causationid, only when set.
var fastLayout = func() fastcodec.Layout {
	before := make([]string, attrData)
	for k := range attrData {
		before[k] = `","` + attrNames[k] + `":"`
	}
	before[attrID] = `{"specversion":"` + SpecVersion + before[attrID]
	before[attrCampaign] = `","datacontenttype":"` + ContentType + before[attrCampaign]
	before[attrSpecVersion], before[attrDataContentType] = "", ""
	before[attrRequestID], before[attrCommand], before[attrPrevHash] = "", "", ""
	return fastcodec.Layout{Before: before, Time: attrTime,
		Optional:       []int{attrRequestID, attrCommand, attrPrevHash},
		OptionalBefore: []string{`","requestid":"`, `","command":"`, `","prevhash":"`}, DataBefore: `","data":`}
}()

// readFast reads b, a valid UTF-8 document, as readGeneral does, when b is
// exactly {"specversion":"1.0","id":"…",…,"causationid":"…","data":{…}}
// (with "requestid":"…" after causationid, and "command":"…" after that,
// when the event has them): every attribute in encode's order, none left
// out but requestid and command, no
// whitespace, each string attribute's value without a backslash or a
// control character (the time one as time.Time.UnmarshalJSON reads it),
// specversion and datacontenttype with the values Decode accepts, a
// registered type, data that decodes strictly, and nothing after the
// closing brace. It reports false on any other document. The envelope's
// strings and those of the data decoded the fast way share one
// allocation; data is copied out of b, unless owned, when it is a part of
// b.
func readFast(b []byte, owned bool) (e Event, v any, ok bool) {
	var doc fastcodec.Document
	if !doc.Read(b, &fastLayout) {
		return Event{}, nil, false
	}
	// An unknown type, or one that fastfields.go, stale, does not know or
	// places elsewhere, is left to the general way.
	typ := doc.Attr(attrType)
	i := fastTypeIndex(string(typ))
	if i < 0 || i >= len(registry) || registry[i].Type != string(typ) {
		return Event{}, nil, false
	}
	t := &registry[i]
	var ints []int
	if t.fast != nil && t.fast.Fields().New != nil {
		v, ints = t.fast.Fields().New()
	} else {
		v = t.data()
	}
	data := doc.Data()
	if !doc.DecodeData(v, t.fast, ints) && decodeStrictly(data, v) != nil {
		return Event{}, nil, false
	}
	text, parts := doc.Strings()
	setStrings(&e, text, (*[numAttrs][2]int)(parts[:numAttrs]))
	e.Time = doc.Time()
	e.SpecVersion, e.DataContentType = SpecVersion, ContentType
	if owned {
		e.Data = data[:len(data):len(data)] // an append to it cannot reach past data
	} else {
		e.Data = make([]byte, len(data))
		copy(e.Data, data)
	}
	return e, v, true
}

// decodeData decodes data strictly into v, a pointer to a zero value of
// the struct registered as t, with the result and the error of
// decodeStrictly: the fast way when data is in the fast path's subset,
// otherwise the general way. data must be valid UTF-8.
func decodeData(data []byte, v any, t *TypeInfo) error {
	if fastcodec.DecodeData(data, v, t.fast) {
		return nil
	}
	return decodeStrictly(data, v)
}
