package main

import (
	"io"

	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/sheettext"
	"github.com/campaign-journal/journal/textout"
)

// iw is the writer text renderers print to.
type iw = io.Writer

// The text of the campaign's read models is package sheettext's; the
// names below are the command files'.
var (
	hpBar        = textout.HPBar
	fraction     = textout.Fraction
	printSheet   = sheettext.Sheet
	printCombat  = sheettext.Combat
	sessionState = sheettext.SessionState
)

// printRoster writes the roster: The One Ring's (tor.go), or RyF's.
func printRoster(w iw, l i18n.Lang, c *projections.Campaign) {
	if c.TOR != nil {
		printTORRoster(w, l, c)
		return
	}
	sheettext.Roster(w, l, c)
}

func printCampaign(w iw, l i18n.Lang, c *projections.Campaign) {
	sheettext.CampaignHead(w, l, c)
	printRoster(w, l, c)
	sheettext.Sessions(w, l, c)
	if c.Combat != nil {
		printCombat(w, l, c)
	}
	if c.TOR != nil {
		printTORCompany(w, l, c)
	}
}
