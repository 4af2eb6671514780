// Package layers holds the test of the module's import layers: which of
// the journal's packages each package may import, and which outside
// packages (NATS, HTTP) the domain packages may not. It has no code; its
// test reads every non-test Go file of the module.
//
// Invariants (checked by TestImportLayers):
//   - Every package of the module is in the table (a new package must be
//     placed in a layer before it builds green).
//   - A package imports only the journal's packages its row allows.
//   - The domain packages (rules, events' envelope, projections, rolls,
//     signed, replay, i18n) import no NATS client or server and no
//     net/http: I/O lives at the edges.
package layers
