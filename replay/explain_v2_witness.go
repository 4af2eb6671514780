package replay

import (
	"encoding/hex"

	"github.com/campaign-journal/journal/beacon"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/rules/dice"
)

// V2Source is where a GM's v2 roll took r from: a player's witness, a
// drand quicknet round, or the server ("none").
type V2Source struct {
	Witness         string `json:"witness"`
	R               string `json:"r"`
	BeaconRound     uint64 `json:"beacon_round,omitempty"`
	BeaconSignature string `json:"beacon_signature,omitempty"`
	// BeaconError is why the round's signature does not verify ("": it does).
	BeaconError string `json:"beacon_error,omitempty"`
	// WitnessIndex and Witnesses are a roll's of witness chains (Witness
	// "chain"): r combines the values (dice.CombineWitnesses).
	WitnessIndex int                `json:"witness_index,omitempty"`
	Witnesses    []events.GMWitness `json:"witnesses,omitempty"`
	// ChainError is why r is not the combination of the values ("": it is).
	ChainError string `json:"chain_error,omitempty"`
}

// gmSource explains where the roll e of the GM's request d took r from and
// reports whether that holds as far as explain checks (the witness's
// signature is replay's): the beacon's signature and r, or a witness or
// unwitnessed resolution named.
func (v *V2Steps) gmSource(e events.RollMade, d events.RollRequested) bool {
	src := &V2Source{Witness: e.Witness, R: e.Reveal, BeaconRound: e.BeaconRound, BeaconSignature: e.BeaconSignature,
		WitnessIndex: e.WitnessIndex, Witnesses: e.Witnesses}
	v.Source = src
	switch e.Witness {
	case "":
		return false
	case chainWitness:
		values := make([][32]byte, len(e.Witnesses))
		for i, w := range e.Witnesses {
			var err error
			if values[i], err = dice.ParseHex32(w.Value); err != nil {
				src.ChainError = err.Error()
			}
		}
		if r := dice.CombineWitnesses(values); src.ChainError == "" && (len(values) == 0 || encodeHex(r) != e.Reveal) {
			src.ChainError = "r is not the combination of the witness values"
		}
		return src.ChainError == ""
	case "beacon":
		r, err := beacon.Quicknet().VerifyHex(e.BeaconRound, e.BeaconSignature)
		switch {
		case err != nil:
			src.BeaconError = err.Error()
		case e.BeaconRound != d.BeaconRound:
			src.BeaconError = "not the round the request named"
		case encodeHex(r) != e.Reveal:
			src.BeaconError = "r is not SHA-256 of the signature"
		}
		return src.BeaconError == ""
	}
	return true
}

func encodeHex(b [32]byte) string { return hex.EncodeToString(b[:]) }

// write writes the source's steps.
func (s *V2Source) write(l i18n.Lang, p func(string)) {
	switch s.Witness {
	case "beacon":
		p(l.T("x2.beacon", s.BeaconRound, clip(s.BeaconSignature, 100), s.R))
		if s.BeaconError == "" {
			p(l.T("x2.beacon_ok"))
		} else {
			p(l.T("x2.beacon_bad", s.BeaconError))
		}
	case "none":
		p(l.T("x2.unwitnessed", s.R))
	case chainWitness:
		p(l.T("x2.chain", s.WitnessIndex, WitnessList(s.Witnesses), s.R))
	case "":
	default:
		p(l.T("x2.witnessed", s.Witness, s.R))
	}
}

func (s *V2Source) mismatch() message {
	if s.Witness == "" {
		return msg("x2v.gm_source_none")
	}
	return msg("x2v.source_bad")
}

func (s *V2Source) verified() message {
	switch s.Witness {
	case "beacon":
		return msg("x2v.beacon", s.BeaconRound)
	case "none":
		return msg("x2v.unwitnessed")
	case chainWitness:
		return msg("x2v.chain", WitnessList(s.Witnesses))
	}
	return msg("x2v.witnessed", s.Witness)
}
