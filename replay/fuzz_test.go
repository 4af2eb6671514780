package replay_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/replay"
)

// FuzzVerifyJSONL: no export, however broken, makes Verify, Luck or the
// text renderings panic; a malformed one is an error (a line too long) or
// a failed report listing the lines that are not events (Verify), or an
// error (Luck); a well-formed one a report.
func FuzzVerifyJSONL(f *testing.F) {
	w, _, rollEvs := honestWorld(f, 6)
	var buf bytes.Buffer
	require.NoError(f, replay.WriteJSONL(&buf, w.evs...))
	f.Add(buf.Bytes())
	var one bytes.Buffer
	require.NoError(f, replay.WriteJSONL(&one, rollEvs[0]))
	f.Add(one.Bytes())
	f.Add([]byte("{}\n"))
	f.Add([]byte("\n\n\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ctx := context.Background()
		rep, err := replay.Verify(ctx, replay.JSONLBytes(data), replay.Options{})
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := rep.WriteText(&out); err != nil {
			t.Fatal(err)
		}
		if _, err := json.Marshal(rep); err != nil {
			t.Fatal(err)
		}
		if rep.Totals.Foreign > 0 {
			if rep.OK() || len(rep.Foreign) == 0 {
				t.Fatalf("lines that are not events, and the report is OK or lists none: %+v", rep)
			}
			if _, err := replay.Luck(ctx, replay.JSONLBytes(data), replay.LuckFilter{}); !errors.Is(err, replay.ErrMalformed) {
				t.Fatalf("luck on an export with lines that are not events: %v, want malformed", err)
			}
			return
		}
		lr, err := replay.Luck(ctx, replay.JSONLBytes(data), replay.LuckFilter{})
		if err != nil {
			t.Fatalf("luck failed where verify read the export: %v", err)
		}
		if err := lr.WriteText(&out); err != nil {
			t.Fatal(err)
		}
		if _, err := json.Marshal(lr); err != nil {
			t.Fatal(err)
		}
	})
}
