package main

import (
	"strings"
	"testing"
)

// TestLongInputShortErrors: a hostile value of 120 KB as an argument, a
// flag's value or a flag's name is refused with an error under 1 KB, in
// text, in Spanish and in JSON, that quotes at most its start.
func TestLongInputShortErrors(t *testing.T) {
	c := newCLI(t)
	c.setupCampaign()
	c.ok("-c", "mordor", "session", "start")
	big := strings.Repeat("A", 120<<10)
	for _, args := range [][]string{
		{"-c", big, "roll", "lodin", "Sigilo"},
		{"-c", "mordor", "roll", big, "Sigilo"},
		{"-c", "mordor", "roll", "lodin", big},
		{"-c", "mordor", "roll", "lodin", "Sigilo", "--vs", big},
		{"-c", "mordor", "roll", "lodin", "Sigilo", "--mod", big},
		{"-c", "mordor", "roll", "lodin", "Sigilo", "--" + big},
		{"-c", "mordor", "roll", "lodin", "Sigilo", "-" + big},
		{"-c", "mordor", "roll", "lodin", "Sigilo", "--level", big},
		{"-c", "mordor", big},
		{big},
		{"campaign", "create", big, "--system", "ryf"},
		{"campaign", "create", "x", "--system", big},
		{"-c", "mordor", "character", "create", big, "--npc", "--attrs", "F=7,R=4,D=5,I=3,P=4"},
		{"-c", "mordor", "character", "create", "x", "--npc", "--attrs", big},
		{"-c", "mordor", "character", "create", "x", "--npc", "--attrs", "F=7,R=4,D=5,I=3,P=4", "--skills", big},
		{"-c", "mordor", "character", "create", "x", "--npc", "--attrs", "F=7,R=4,D=5,I=3,P=4", "--weapons", big},
		{"-c", "mordor", "character", "create", "x", "--name", big, "--npc", "--attrs", "F=7,R=4,D=5,I=3,P=4"},
		{"-c", "mordor", "attack", "lodin", big},
		{"-c", "mordor", "attack", "lodin", "orco", "--weapon", big},
		{"-c", "mordor", "attack", "lodin", "orco", "--range", big},
		{"-c", "mordor", "damage", big, "3"},
		{"-c", "mordor", "damage", "lodin", big},
		{"-c", "mordor", "xp", "grant", "lodin", big},
		{"-c", "mordor", "log", "--at", big},
		{"-c", "mordor", "explain", big},
		{"-c", "mordor", "sheet", big},
		{"-c", "mordor", "sheet", "lodin", "--at", big},
		{"-c", "mordor", "replay", "--seed", big},
		{"-c", "mordor", "replay", "--session", big},
		{"replay", "--file", big},
		{"-c", "mordor", "session", "start", big},
		{"-c", "mordor", "contest", "lodin", big, "orco", "Pelea"},
		{"-c", "mordor", "weapon", "define", big, "--skill", "Pelea", "--damage", "1d6"},
		{"-c", "mordor", "weapon", "define", "x", "--skill", "Pelea", "--damage", big},
		{"-c", "mordor", "skill", "define", big, "--attr", "F"},
		{"-c", "mordor", "void", big, "--reason", "x"},
		{"--lang", big, "log"},
		{"-c", "mordor", "roll", "lodin", "Sigilo", "--request-id", big},
		{"-c", "mordor", "raise", "lodin", big},
		{"--lang", "es", "-c", "mordor", "roll", "lodin", big},
		{"--json", "-c", "mordor", "roll", "lodin", big},
	} {
		out, errb, code := c.run(args...)
		if code == 0 || len(errb) >= 1024 || len(out) >= 1024 {
			short := make([]string, len(args))
			for i, a := range args {
				if len(a) > 20 {
					a = a[:10] + "…"
				}
				short[i] = a
			}
			t.Errorf("%v: exit %d, %d bytes out, an error of %d bytes: %.300s", short, code, len(out), len(errb), errb)
		}
	}
	_, errb, _ := c.run("--lang", "en", "-c", "mordor", "roll", big, "Sigilo")
	if want := `no character "` + strings.Repeat("A", 64) + `…(122880 bytes)"`; !strings.Contains(errb, want) {
		t.Errorf("the error does not quote the start and the length (%s): %.300s", want, errb)
	}
}
