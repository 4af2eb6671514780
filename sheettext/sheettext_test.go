package sheettext

import (
	"bytes"
	"strings"
	"testing"

	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/projections"
)

func campaign() (*projections.Campaign, *projections.Sheet) {
	s := &projections.Sheet{ID: "lodin", Name: "Lódin", Player: "ana", HP: 25, MaxHP: 28, Status: "ok",
		Attributes: map[string]int{"C": 6, "F": 8, "R": 7},
		Skills:     map[string]int{"Sigilo": 3, "Pelea": 5, "Cocina": 0}, Specialization: "Sigilo"}
	c := &projections.Campaign{ID: "mordor", Name: "Sombras", System: "ryf", LastSeq: 9,
		Characters: map[string]*projections.Sheet{"lodin": s}, Roster: []string{"lodin"}}
	return c, s
}

// TestSheetOrder: attributes in the rules' order, skills by name (none at
// 0), the specialization marked, the sequence the sheet is as of.
func TestSheetOrder(t *testing.T) {
	c, s := campaign()
	var b bytes.Buffer
	Sheet(&b, i18n.EN, c, s)
	out := b.String()
	for _, want := range []string{"F 8  R 7  C 6", "Pelea 5, Sigilo* 3", "sequence 9", "25/28"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "Cocina") {
		t.Errorf("a skill at 0 is listed:\n%s", out)
	}
}

func TestRosterAndSessions(t *testing.T) {
	c, _ := campaign()
	var b bytes.Buffer
	Roster(&b, i18n.EN, c)
	if got := b.String(); got != "  lodin  Lódin  ana  ██████████░░  25/28  "+projections.StatusName(i18n.EN, "ok")+"\n" {
		t.Errorf("roster %q", got)
	}
	b.Reset()
	Sessions(&b, i18n.EN, c)
	if b.Len() != 0 {
		t.Errorf("sessions of a campaign without: %q", b.String())
	}
	c.Sessions = []*projections.Session{{ID: "s1", Title: "one", Ended: true}, {ID: "s2", Title: "two"}}
	Sessions(&b, i18n.ES, c)
	if out := b.String(); strings.Index(out, "s2") > strings.Index(out, "s1") || !strings.Contains(out, "en curso") {
		t.Errorf("sessions, the last first:\n%s", out)
	}
}
