package logtext_test

import (
	"bufio"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/logtext"
	"github.com/campaign-journal/journal/projections"
)

// reader reads recs, all of them whatever the query.
type reader []events.Recorded

func (rs reader) Read(_ context.Context, _ events.Query, fn func(events.Recorded) error) error {
	for _, r := range rs {
		if err := fn(r); err != nil {
			return err
		}
	}
	return nil
}

func TestText(t *testing.T) {
	time.Local = time.UTC
	l := projections.LogLine{ShortID: "0123abcd"}
	l.Seq, l.Time, l.Text = 7, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), "Lodin rolls"
	require.Equal(t, "     7  0123abcd  2026-01-02 03:04:05 UTC  Lodin rolls", logtext.Text(l, i18n.EN))
}

func TestExportStopsAtTheSessionEnd(t *testing.T) {
	ev := func(typ, session, raw string) events.Recorded {
		return events.Recorded{Event: events.Event{Type: typ, Session: session}, Raw: []byte(raw)}
	}
	st := reader{ev(events.TypeSessionStarted, "s1", "a"), ev(events.TypeSessionEnded, "s1", "b"), ev(events.TypeSessionStarted, "s2", "c")}
	var b strings.Builder
	out := bufio.NewWriter(&b)
	n, err := logtext.Export(context.Background(), st, events.Query{}, "s1", out)
	require.NoError(t, err)
	require.NoError(t, out.Flush())
	require.Equal(t, 2, n)
	require.Equal(t, "a\nb\n", b.String())

	require.NoError(t, logtext.HasSession(context.Background(), st, "", "c1", "s2"))
	require.ErrorContains(t, logtext.HasSession(context.Background(), st, "", "c1", "s3"), "campaign c1 has no session s3")

	_, err = logtext.Stored(events.Recorded{Seq: 3})
	require.ErrorContains(t, err, "no stored bytes")
}
