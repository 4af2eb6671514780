package device

// A device's side of GM rolls from witness chains (docs/design.md §3.3; the
// derivation is rules/dice's v2_witness.go): the device's secret w for a
// session is derived from its key's signature, so nothing is stored; its
// contribution commits to the anchor H^N(w), and it witnesses the
// session's j-th GM request with w_j. It also receipts beacon requests.

import (
	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/signed"
)

// Chain is a device's witness chain for one session.
type Chain struct {
	w        [32]byte
	campaign string
	session  string
}

// Chain returns the key's witness chain for session of campaign, whose
// seed commitment is commitment (lower-case hex, as the session-started
// event records it).
func (k *Key) Chain(campaign, session, commitment string) Chain {
	return Chain{w: dice.DeviceWitnessSecret(k.priv, campaign, session, commitment), campaign: campaign, session: session}
}

// Anchor returns the chain's anchor, hex(H^N(w)): the contribution's
// witness_anchor.
func (c Chain) Anchor() signed.Hex32 { return signed.Hex32(dice.WitnessAnchor(c.w)) }

// Value returns w_j, the value for the session's j-th GM request.
func (c Chain) Value(j int) (signed.Hex32, error) {
	v, err := dice.WitnessValue(c.w, j)
	return signed.Hex32(v), err
}

// Witness returns the roll.witness of the session's GM request request
// whose witness index is j.
func (c Chain) Witness(request string, j int) (*signed.Witness, error) {
	v, err := c.Value(j)
	if err != nil {
		return nil, err
	}
	return &signed.Witness{Header: signed.Header{Campaign: c.campaign, Session: c.session}, Request: request, Index: j, Value: v}, nil
}

// Contribution returns a session.contribute of value bound to the seed
// commitment and committing to the key's witness chain.
func (k *Key) Contribution(campaign, session string, value, commitment signed.Hex32) *signed.Contribute {
	return &signed.Contribute{Header: signed.Header{Campaign: campaign, Session: session}, Value: value, Commitment: commitment,
		WitnessAnchor: k.Chain(campaign, session, commitment.String()).Anchor()}
}

// BeaconReceipt returns the beacon.receipt of the GM's request request.
func BeaconReceipt(campaign, session, request string) *signed.Receipt {
	return &signed.Receipt{Header: signed.Header{Campaign: campaign, Session: session}, Request: request}
}
