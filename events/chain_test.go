package events

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestPrevHashRoundTrips: the optional prevhash attribute is written after
// command, read back by the fast path and the general one, and validated.
func TestPrevHashRoundTrips(t *testing.T) {
	ids := NewV7(func() time.Time { return time.Unix(1, 0) }, zeroReader{})
	e, err := New(Spec{Campaign: "mordor", Kind: KindCampaign, AggregateID: "mordor", Name: "day", Type: TypeDayStarted,
		Actor: "gm", RequestID: "r1", Command: "day-new", Data: DayStarted{}}, ids, time.Unix(2, 0))
	require.NoError(t, err)
	prev, err := EventHash(e)
	require.NoError(t, err)
	e.PrevHash = prev
	b, err := Encode(e)
	require.NoError(t, err)
	require.Contains(t, string(b), `"command":"day-new","prevhash":"`+prev+`","data":`)
	got, err := Decode(b)
	require.NoError(t, err)
	require.Equal(t, prev, got.PrevHash)
	if _, _, ok := readFast(b, false); !ok {
		t.Fatal("the fast path does not read an event with prevhash")
	}
	again, err := Encode(got)
	require.NoError(t, err)
	require.Equal(t, b, again, "stored bytes re-encode identically")

	e.PrevHash = "ABC"
	_, err = Encode(e)
	require.ErrorIs(t, err, ErrInvalidPrevHash)
}

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) { clear(p); return len(p), nil }
