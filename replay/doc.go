// Package replay audits a campaign journal from its events alone: it
// verifies every roll of a session against the session's committed seed and
// the rules (Verify), explains one roll step by step (Explain), and computes
// luck statistics against the exact distributions of the dice (Luck). It is
// what an auditor must trust, and imports neither the command layer nor an
// in-memory store: re-running a session's commands (package reproduce) is
// built on it, not in it.
//
// Input is a Source: a function that iterates the input in stream order and
// can be called more than once — an exported JSON Lines file (JSONLSource,
// ReadJSONL), a store read (StoreSource), or a slice of events (Events,
// Records). Each item is an Input: an event with its exact stored bytes
// (an export's line, a stream's message body), or a message that is not an
// event. What the chain and the co-signatures hash is those bytes, carried
// in the value itself (events.Recorded.Raw), never a re-encoding and never
// passed aside through the context.
//
// Verification makes two passes over the source. A session's seed is
// revealed only by its session-ended event, which comes after all of its
// rolls; the first pass (Verifier.Scan) learns every revealed seed and every
// voided event id, the second (Verifier.Add) checks each event as it goes by.
// Neither pass keeps events: memory grows with the number of sessions and
// with a few bytes per event (event ids, for duplicates, and nonces, for gaps
// and repeats), never with the events' contents.
//
// Invariants:
//   - The package is pure: no clock, no randomness, no network; I/O is
//     limited to reading the io.Readers it is given. It holds no mutable
//     package state.
//   - No input makes it panic. A malformed line of an export is an error
//     naming the line (ErrMalformed); anything wrong inside well-formed
//     events — a forged face, an edited total or outcome, a hidden or
//     repeated nonce, a seed that does not match its commitment, a
//     duplicated event id, a roll of a session that is not in the input, a
//     skill rank or attribute that is not the character sheet's — is a
//     Mismatch in the Report, never an error and never a crash.
//   - Rules are never re-implemented here: the sides of each die come from
//     rolls.Dice, the rule-derived fields from rolls.Rejudge and rolls.Diff,
//     the faces from dice.Key.Stream; a Report is verified only when all of
//     them agree with the recorded events.
//   - A session whose seed is not known (not yet ended, and none given in
//     Options.Seeds) is "not yet revealed": its rolls are counted as
//     unverifiable, which is not a failure; everything that can be checked
//     without the seed (nonces, rules) still is.
package replay
