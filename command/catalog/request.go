package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// RequestIDField is the member of a command's JSON body that carries its
// request id (see command.Call.RequestID), on every surface that
// takes commands as JSON; HTTP may send it as the Idempotency-Key header
// instead.
const RequestIDField = "request_id"

// RequestID returns a command's request id, from header (the HTTP
// Idempotency-Key, "" elsewhere) or the body's member request_id, and the
// body without that member, for the command's strict decoding. A body
// without request_id is returned as it is. Both given and different, a
// request_id that is not a string, given twice, or not a valid request id
// (events.ValidRequestID) are refused with command.ErrInvalid. No id at
// all is "".
func RequestID(header string, body []byte) (string, []byte, error) {
	id, rest, err := splitRequestID(body)
	if err != nil {
		return "", nil, msgerr.Errorf("%w: request body: %w", command.ErrInvalid, err)
	}
	switch {
	case header != "" && id != "" && header != id:
		return "", nil, msgerr.Errorf("%w: Idempotency-Key %q and %s %q differ", command.ErrInvalid, clip.Text(header), RequestIDField, clip.Text(id))
	case id == "":
		id = header
	}
	if id != "" {
		if err := events.ValidRequestID(id); err != nil {
			return "", nil, msgerr.Errorf("%w: %w", command.ErrInvalid, err)
		}
	}
	return id, rest, nil
}

// splitRequestID takes the member request_id out of the JSON object body.
// A body that is not a well-formed object is returned as it is, for
// DecodeStrict to refuse.
func splitRequestID(body []byte) (string, []byte, error) {
	if !bytes.Contains(body, []byte(`"`+RequestIDField+`"`)) {
		return "", body, nil
	}
	d := json.NewDecoder(bytes.NewReader(body))
	if tok, err := d.Token(); err != nil || tok != json.Delim('{') {
		return "", body, nil
	}
	var out bytes.Buffer
	out.WriteByte('{')
	id, found := "", false
	for d.More() {
		tok, err := d.Token()
		if err != nil {
			return "", body, nil
		}
		name, _ := tok.(string)
		var raw json.RawMessage
		if err := d.Decode(&raw); err != nil {
			return "", body, nil
		}
		if name != RequestIDField {
			if out.Len() > 1 {
				out.WriteByte(',')
			}
			key, _ := json.Marshal(name)
			out.Write(key)
			out.WriteByte(':')
			out.Write(raw)
			continue
		}
		if found {
			return "", nil, msgerr.Errorf("%q given more than once", RequestIDField)
		}
		found = true
		if err := json.Unmarshal(raw, &id); err != nil || len(raw) == 0 || raw[0] != '"' {
			return "", nil, msgerr.Errorf("%q is not a string", RequestIDField)
		}
		if id == "" {
			return "", nil, msgerr.Errorf("%q is empty", RequestIDField)
		}
	}
	if _, err := d.Token(); err != nil {
		return "", body, nil
	}
	if _, err := d.Token(); !errors.Is(err, io.EOF) {
		return "", body, nil // data after the object: DecodeStrict refuses it
	}
	if !found {
		return "", body, nil
	}
	out.WriteByte('}')
	return id, out.Bytes(), nil
}
