package projections

import (
	"slices"

	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// TranscriptState is a transcript saved to be restored (RestoreTranscript):
// the campaign state its fold has reached and its last lines. A
// transcript restored from the state of one that folded events e1…ek,
// then folded ek+1…en, has the lines that one has after e1…en, less the
// Dropped first ones. Its size is the campaign state's and the lines
// kept, not the events folded.
type TranscriptState struct {
	Campaign *Campaign `json:"campaign"`
	Session  string    `json:"session,omitempty"`
	Lang     i18n.Lang `json:"lang,omitempty"`
	// Lines are the transcript's last lines, Dropped the number of lines
	// before them that the state does not keep.
	Lines   []Line `json:"lines"`
	Dropped int    `json:"dropped"`
}

// State returns the transcript's state keeping its last keep lines. It
// shares the transcript's campaign state: encode it before the
// transcript folds on.
func (t *Transcript) State(keep int) TranscriptState {
	n := min(max(keep, 0), len(t.Lines))
	return TranscriptState{Campaign: t.Campaign, Session: t.Session, Lang: t.Lang,
		Lines: slices.Clip(t.Lines[len(t.Lines)-n:]), Dropped: t.Dropped + len(t.Lines) - n}
}

// errNotTranscriptState is RestoreTranscript's error.
var errNotTranscriptState = msgerr.New("transcript state: not the state of a transcript")

// RestoreTranscript returns the transcript s saved, folding on from its
// campaign state. A state no transcript could have (no campaign, lines
// out of stream order or after the campaign's last sequence, lines of
// another session) is an error; the lines and state themselves are taken
// as they are (whoever can write the state can write what it says).
func RestoreTranscript(s TranscriptState) (*Transcript, error) {
	c := s.Campaign
	if c == nil || c.ID == "" || s.Dropped < 0 {
		return nil, errNotTranscriptState
	}
	prev := uint64(0)
	for _, l := range s.Lines {
		if l.Seq <= prev || l.Seq > c.LastSeq || s.Session != "" && l.Session != s.Session {
			return nil, errNotTranscriptState
		}
		prev = l.Seq
	}
	return &Transcript{Campaign: Normalize(c), Lines: slices.Clone(s.Lines), Session: s.Session, Lang: s.Lang, Dropped: s.Dropped}, nil
}
