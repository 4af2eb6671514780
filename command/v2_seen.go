package command

import (
	"errors"
	"fmt"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/signed"
)

// ErrSeenDiffers marks a device's message refused because the device
// saw another history than the journal holds (docs/design.md §3.3, "Receipts"):
// its seen names an event that is not this campaign's, or whose stored
// bytes hash to something else. The refusal is a conflict (errors.Is
// events.ErrConcurrency too): the device, not its input, must look again.
var ErrSeenDiffers = msgerr.New("your device saw a different history")

// seenError is the refusal of a message whose seen differs, at Seq.
type seenError struct{ seq uint64 }

func (e *seenError) Error() string {
	return fmt.Sprintf("your device saw a different history at #%d: the journal holds another event there (nothing was recorded)", e.seq)
}

// Is makes the refusal ErrSeenDiffers and a conflict.
func (e *seenError) Is(target error) bool {
	return target == ErrSeenDiffers || target == events.ErrConcurrency
}

// errSeenFound ends the read of the one event seen.
var errSeenFound = msgerr.New("found")

// checkSeen checks a device's message's receipt against the campaign: the
// event at seen.seq must be one of the campaign's, at or before the state
// the command is decided on, and its stored bytes must hash to seen.hash.
// A message without seen (an older device) passes, and every message in
// a journal that re-runs a record (Options.NoSeenCheck). Nothing is
// recorded on a refusal (ErrSeenDiffers).
func (d *draft) checkSeen(m signed.Message) error {
	seen := m.Head().Seen
	if seen == nil || d.j.noSeenCheck {
		return nil
	}
	differs := func() error { return &seenError{seq: seen.Seq} }
	if seen.Seq > d.campaign.LastSeq {
		return differs()
	}
	filter, err := events.CampaignFilter(d.campaign.ID)
	if err != nil {
		return invalid("campaign %q: %v", d.campaign.ID, err)
	}
	var raw []byte
	found := false
	q := events.Query{Subject: filter, From: seen.Seq, To: seen.Seq}
	err = d.j.store.Read(d.ctx, q, func(r events.Recorded) error {
		if r.Seq == seen.Seq {
			raw, found = r.Raw, true
			return errSeenFound
		}
		return nil
	})
	if err != nil && !errors.Is(err, errSeenFound) {
		return msgerr.Errorf("read the event a device saw (#%d): %w", seen.Seq, err)
	}
	if !found || !seen.Matches(raw) {
		return differs()
	}
	return nil
}
