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
	// journal.mordor.campaign.mordor.created
	// {"specversion":"1.0","id":"01959533-fa87-7000-8000-000000000000","source":"/campaigns/mordor","type":"journal.campaign.created.v1","subject":"campaigns/mordor","time":"2025-03-14T15:09:26Z","datacontenttype":"application/json","campaign":"mordor","session":"","actor":"gm","causationid":"","data":{"name":"Mordor","system":"ryf"}}
}

func ExampleSubject() {
	s, _ := events.Subject("mordor", events.KindCharacter, "lodin", "roll")
	c, _ := events.CampaignFilter("mordor")
	a, _ := events.AggregateFilter("mordor", events.KindCharacter, "lodin")
	fmt.Println(s)
	fmt.Println(c, events.Match(c, s))
	fmt.Println(a, events.Match(a, s))
	_, err := events.Subject("mordor", events.KindCharacter, "Lodin.x", "roll")
	fmt.Println(err)
	// Output:
	// journal.mordor.char.lodin.roll
	// journal.mordor.> true
	// journal.mordor.char.lodin.> true
	// aggregate id: invalid id: "Lodin.x" (use a-z, 0-9, '-' and '_')
}
