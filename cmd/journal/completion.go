package main

import (
	"context"
	"slices"

	"github.com/campaign-journal/journal/clicomplete"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/projections"
)

// annComplete is clicomplete.Annotation, by the name fromspec.go uses.
const annComplete = clicomplete.Annotation

// argKinds lists, by command path (without "journal "), what each
// positional argument names, of the commands not built from the catalogue
// (those say it in their request types' complete tags, fromspec.go); the
// last kind repeats for variadic commands.
var argKinds = map[string][]clicomplete.Kind{
	"character show":    {clicomplete.Character},
	"advancement show":  {clicomplete.Character},
	"log --session":     {clicomplete.Session},
	"export --session":  {clicomplete.Session},
	"replay --session":  {clicomplete.Session},
	"stats --session":   {clicomplete.Session},
	"stats --character": {clicomplete.Character},
	"odds ryf --vs":     {clicomplete.Difficulty},
}

// namesOf lists the names of kind k in the journal, or nil when it cannot
// be read (clicomplete.Names): completing never creates the data folder
// and never prints an error. args are the positional arguments before the
// one completed.
func (a *app) namesOf(ctx context.Context, k clicomplete.Kind, args []string) []string {
	a.readOnly = true // completing never creates the folder
	if err := a.resolveDataDir(); err != nil {
		return nil
	}
	if k == clicomplete.Campaign {
		ids, _ := a.campaignNames(ctx)
		return ids
	}
	camp, err := a.completionCampaign(ctx)
	if err != nil {
		return nil
	}
	return clicomplete.CampaignNames(camp, k, args)
}

// completionCampaign folds the campaign of -c, or the only one.
func (a *app) completionCampaign(ctx context.Context) (*projections.Campaign, error) {
	id := a.campaign
	if id == "" {
		ids, err := a.campaignNames(ctx)
		if err != nil || len(ids) != 1 {
			return nil, msgerr.New("no campaign")
		}
		id = ids[0]
	}
	j, err := a.journal(ctx)
	if err != nil {
		return nil, err
	}
	return j.Load(ctx, id, 0)
}

// campaignNames lists the campaigns of the journal, in creation order.
func (a *app) campaignNames(ctx context.Context) ([]string, error) {
	st, err := a.openStore(ctx, false, "")
	if err != nil {
		return nil, err
	}
	var names []string
	err = st.Read(ctx, events.Query{Types: []string{events.TypeCampaignCreated}}, func(r events.Recorded) error {
		if !slices.Contains(names, r.Event.Campaign) {
			names = append(names, r.Event.Campaign)
		}
		return nil
	})
	return names, err
}
