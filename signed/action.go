package signed

import (
	"bytes"
	"encoding/json"
	"errors"
	"github.com/campaign-journal/journal/internal/msgerr"
	"io"
)

// ErrAfterAction: a request's action with data after its JSON object.
var ErrAfterAction = msgerr.New("data after the action object")

// DecodeAction reads a roll.request's action (Request.Action) into v
// strictly: no member v does not name, and nothing after the object. Every
// reader of actions (the journal judging a request, the verifier comparing
// it with the event) reads them through this one function, so that both
// accept exactly the same objects.
func DecodeAction(action []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(action))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return ErrAfterAction
	}
	return nil
}
