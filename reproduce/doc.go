// Package reproduce re-runs a session's recorded commands with its
// revealed seed into a fresh in-memory journal (package command over
// events/memstore), and compares what they produce with what was recorded.
//
// It is built on package replay (its Source, Options and Mismatch) and
// kept out of it: replay, what an auditor must trust, imports neither the
// command layer nor an in-memory store. Three parts:
//   - the engine (engine.go) re-runs one command at a time into the fresh
//     journal, with the recorded time, event ids, actor and seed;
//   - the mapping (mapping.go) turns a group of recorded events back into
//     the command that produced it, with its recorded inputs;
//   - the diff (diff.go) compares the events and the final sheets.
//
// Invariants: no input makes it panic; a difference is a replay.Mismatch
// in the Report, never an error; it reads its input once and keeps the
// events (and the reproduction) in memory.
package reproduce
