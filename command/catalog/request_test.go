package catalog_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/command/catalog"
)

func TestRequestID(t *testing.T) {
	tests := []struct {
		name, header, body string
		id, rest           string // rest "": body as it is
		err                string
	}{
		{"none", "", `{"character":"lodin"}`, "", "", ""},
		{"empty body", "", ``, "", "", ""},
		{"header", "k-1", `{"character":"lodin"}`, "k-1", "", ""},
		{"body", "", `{"character":"lodin","request_id":"k-1"}`, "k-1", `{"character":"lodin"}`, ""},
		{"body first", "", ` {"request_id":"k-1", "amount": 2 ,"x":{"request_id":1}}`, "k-1", `{"amount":2,"x":{"request_id":1}}`, ""},
		{"both agree", "k-1", `{"request_id":"k-1"}`, "k-1", `{}`, ""},
		{"both differ", "k-1", `{"request_id":"k-2"}`, "", "", "differ"},
		{"not a string", "", `{"request_id":1}`, "", "", "not a string"},
		{"null", "", `{"request_id":null}`, "", "", "not a string"},
		{"empty", "", `{"request_id":""}`, "", "", "empty"},
		{"twice", "", `{"request_id":"a","request_id":"a"}`, "", "", "more than once"},
		{"invalid", "", `{"request_id":"a b"}`, "", "", "invalid request id"},
		{"invalid header", "a\tb", `{}`, "", "", "invalid request id"},
		{"too long", "", `{"request_id":"` + "0123456789012345678901234567890123456789012345678901234567890123456789" + `"}`, "", "", "at most 64"},
		// Malformed bodies are left to DecodeStrict.
		{"trailing", "", `{"request_id":"a"} {}`, "", "", ""},
		{"not an object", "", `["request_id"]`, "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id, rest, err := catalog.RequestID(tt.header, []byte(tt.body))
			if tt.err != "" {
				require.ErrorIs(t, err, command.ErrInvalid)
				require.ErrorContains(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.id, id)
			want := tt.rest
			if want == "" {
				want = tt.body
			}
			require.Equal(t, want, string(rest))
		})
	}
}
