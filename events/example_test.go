package events_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/campaign-journal/journal/events"
)

func ExampleNew() {
	// Production code passes events.NewV7(time.Now, crypto/rand.Reader).
	ids := events.NewV7(func() time.Time { return time.UnixMilli(1_741_964_966_535) }, strings.NewReader(strings.Repeat("\x00", 10)))
	e, err := events.New(events.Spec{
		Campaign: "mordor", Kind: events.KindCampaign, AggregateID: "mordor", Name: "created",
		Type: events.TypeCampaignCreated, Actor: "gm",
		Data: events.CampaignCreated{Name: "Mordor", System: "ryf"},
	}, ids, time.Date(2025, 3, 14, 15, 9, 26, 0, time.UTC))
	if err != nil {
		fmt.Println(err)
		return
	}
	doc, err := events.Encode(e)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(e.StreamSubject)
	fmt.Println(string(doc))
	// Output:
	// journal.mordor
	// {"specversion":"1.0","id":"01959533-fa87-7000-8000-000000000000","source":"/campaigns/mordor","type":"journal.campaign.created.v1","subject":"campaigns/mordor","time":"2025-03-14T15:09:26Z","datacontenttype":"application/json","campaign":"mordor","session":"","actor":"gm","causationid":"","data":{"name":"Mordor","system":"ryf"}}
}

func ExampleCampaignSubject() {
	s, _ := events.CampaignSubject("mordor")
	fmt.Println(s, events.Match(events.AllFilter, s))
	fmt.Println(events.AggregateHeaderValue(events.KindCharacter, "lodin"))
	_, err := events.CampaignSubject("Mordor.x")
	fmt.Println(err)
	// Output:
	// journal.mordor true
	// char.lodin
	// campaign: invalid id: "Mordor.x" (use a-z, 0-9, '-' and '_')
}
