package audit

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// ResolveAt reads an --at value: a stream sequence, or a time — RFC 3339,
// or "YYYY-MM-DD HH:MM[:SS]" in local time — resolved to the campaign's last
// sequence at or before it (the events in stream order up to the first one
// recorded after that time). "" is now (0). open gives the store, the
// campaign and its filter; it is called only for a time.
func ResolveAt(ctx context.Context, text string, open func(context.Context) (st Store, campaign, filter string, err error)) (uint64, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return 0, nil
	}
	if n, err := strconv.ParseUint(text, 10, 64); err == nil {
		return n, nil
	}
	at, until, err := ParseTime(text)
	if err != nil {
		return 0, err
	}
	st, campaign, filter, err := open(ctx)
	if err != nil {
		return 0, err
	}
	var seq uint64
	errAfter := msgerr.New("after")
	err = st.Read(ctx, events.Query{Subject: filter}, func(r events.Recorded) error {
		if !r.Event.Time.Before(until) {
			return errAfter
		}
		seq = r.Seq
		return nil
	})
	if err != nil && !errors.Is(err, errAfter) {
		return 0, err
	}
	if seq == 0 {
		return 0, msgerr.Errorf("--at %s: campaign %s has no events at or before %s", text, campaign, at.Format(time.RFC3339))
	}
	return seq, nil
}

// ParseTime reads the time forms --at takes: the time written, and the end
// of what it names, exclusive. Events have sub-second times: a time given
// to the second names the whole second (18:56:50 takes every event up to
// 18:56:50.999…), to the minute the whole minute; a time with a fraction
// is exact, to the nanosecond (a program's RFC3339Nano, which drops
// trailing zeros, so its digits say nothing of a precision).
func ParseTime(text string) (at, until time.Time, err error) {
	if t, err := time.Parse(time.RFC3339Nano, text); err == nil {
		step := time.Second
		if strings.IndexByte(text, '.') >= 0 {
			step = time.Nanosecond
		}
		return t, t.Add(step), nil
	}
	for _, f := range []struct {
		layout string
		step   time.Duration
	}{
		{"2006-01-02 15:04", time.Minute}, {"2006-01-02 15:04:05", time.Second},
		{"2006-01-02T15:04", time.Minute}, {"2006-01-02T15:04:05", time.Second},
	} {
		if t, err := time.ParseInLocation(f.layout, text, time.Local); err == nil {
			return t, t.Add(f.step), nil
		}
	}
	return time.Time{}, time.Time{}, msgerr.Errorf("--at %q: want a stream sequence or a time: RFC 3339 (2026-11-30T20:15:00Z) or \"YYYY-MM-DD HH:MM\"", clip.Text(text))
}
