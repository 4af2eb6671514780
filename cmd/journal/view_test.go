package main

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/i18n"
	"github.com/campaign-journal/journal/projections"
)

// logRow is a text line of journal log: sequence, short id, the rest.
var logRow = regexp.MustCompile(`^\s*(\d+)  ([0-9a-f]{8})  (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \S+)  (.*)$`)

// played sets up the campaign of setupCampaign with a session, rolls, a
// contest, a combat and damage.
func played(t *testing.T) *cli {
	t.Helper()
	c := newCLI(t)
	c.setupCampaign()
	for _, args := range [][]string{
		{"session", "start", "--title", "La torre"},
		{"roll", "lodin", "Sigilo", "--vs", "media"},
		{"roll", "lodin", "--attribute", "F"},
		{"contest", "lodin", "Sigilo", "orco", "Pelea"},
		{"combat", "start", "lodin", "orco"},
		{"attack"}, // whoever's turn the initiative gave
		{"damage", "lodin", "22", "--source", "orco"},
		{"combat", "round"},
		{"weapon", "define", "Ballesta de repetición larguísima", "--damage", "1d10", "--ranges", "20/40/80", "--magazine", "5"},
		{"skill", "define", "Cetrería", "--attr", "P"},
	} {
		if args[0] == "attack" {
			if _, _, code := c.run("-c", "mordor", "attack", "lodin", "orco"); code != 0 {
				c.ok("-c", "mordor", "attack", "orco", "lodin")
			}
			continue
		}
		c.ok(append([]string{"-c", "mordor"}, args...)...)
	}
	return c
}

// logRows parses journal log's text lines.
func logRows(t *testing.T, out string) [][]string {
	t.Helper()
	var rows [][]string
	for _, line := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		m := logRow.FindStringSubmatch(line)
		require.NotNil(t, m, "log line %q", line)
		rows = append(rows, m[1:])
	}
	return rows
}

// TestEventBySequenceOrShortID: what log prints is what explain and void
// take: the sequence, the short id, any unique start or end of the id; an
// ambiguous part is refused with its candidates, and records nothing.
func TestEventBySequenceOrShortID(t *testing.T) {
	c := played(t)
	rows := logRows(t, c.ok("-c", "mordor", "log"))
	var roll []string
	for _, r := range rows {
		if strings.Contains(r[3], "tira Sigilo") {
			roll = r
			break
		}
	}
	require.NotNil(t, roll)
	var full string
	for _, e := range c.events("mordor") {
		if strings.HasSuffix(e.ID, roll[1]) {
			full = e.ID
		}
	}
	require.NotEmpty(t, full)
	want := "tirada " + full
	for _, arg := range []string{roll[0], roll[1], full, strings.ToUpper(roll[1]), full[:30]} {
		out := c.ok("-c", "mordor", "explain", arg)
		require.Contains(t, out, want, "explain %s", arg)
	}
	// The first digits of a UUIDv7 are its time (they change every 65 s):
	// shared by most events here, all of them unless the clock crossed.
	n := len(c.events("mordor"))
	shared := map[string]int{}
	prefix := full[:8]
	for _, e := range c.events("mordor") {
		shared[e.ID[:8]]++
		if shared[e.ID[:8]] > shared[prefix] {
			prefix = e.ID[:8]
		}
	}
	require.Greater(t, shared[prefix], 1)
	for _, args := range [][]string{{"explain", prefix}, {"void", prefix, "--reason", "x"}} {
		_, errb, code := c.run(append([]string{"-c", "mordor", "--lang", "en"}, args...)...)
		require.NotZero(t, code)
		require.Contains(t, errb, "matches "+strconv.Itoa(shared[prefix])+" events")
		require.Contains(t, errb, "#1 ")
		if shared[prefix] > 8 {
			require.Contains(t, errb, "and ")
		}
	}
	for _, tc := range []struct{ arg, want string }{
		{"999", "no event 999 in campaign mordor"},
		{"ab", "at least 4 characters"},
		{"zzzzzzzz", "no event zzzzzzzz"},
	} {
		_, errb, code := c.run("-c", "mordor", "--lang", "en", "explain", tc.arg)
		require.NotZero(t, code)
		require.Contains(t, errb, tc.want)
		_, errb, code = c.run("-c", "mordor", "--lang", "en", "void", tc.arg, "--reason", "x")
		require.NotZero(t, code)
		require.Contains(t, errb, tc.want)
	}
	require.Len(t, c.events("mordor"), n, "refused voids recorded nothing")

	// Void by sequence: the log marks the voided line, by which event and why.
	c.ok("-c", "mordor", "void", roll[0], "--reason", "dado caído")
	rows = logRows(t, c.ok("-c", "mordor", "log"))
	voidRow := rows[len(rows)-1]
	for _, r := range rows {
		if r[0] == roll[0] {
			require.True(t, strings.HasSuffix(r[3], "[ANULADO por #"+voidRow[0]+" "+voidRow[1]+": dado caído]"), r[3])
		} else {
			require.NotContains(t, r[3], "ANULADO", "only the voided event is marked")
		}
	}
	var line projections.LogLine
	for _, l := range strings.Split(strings.TrimSpace(c.ok("-c", "mordor", "log", "--json")), "\n") {
		require.NoError(t, json.Unmarshal([]byte(l), &line))
		if strconv.FormatUint(line.Seq, 10) == roll[0] {
			break
		}
	}
	require.NotNil(t, line.VoidedBy)
	require.Equal(t, "dado caído", line.VoidedBy.Reason)
	require.Equal(t, roll[1], line.ShortID)
}

// TestLogLocalTime: log prints times in the local zone, with the zone.
func TestLogLocalTime(t *testing.T) {
	c := newCLI(t)
	c.ok("campaign", "create", "mordor", "--system", "ryf")
	local := time.Local
	t.Cleanup(func() { time.Local = local })
	time.Local = time.FixedZone("XYZ", -5*3600)
	row := logRows(t, c.ok("-c", "mordor", "log"))[0]
	at, err := time.Parse("2006-01-02 15:04:05 MST", row[2])
	require.NoError(t, err)
	require.True(t, strings.HasSuffix(row[2], " XYZ"), row[2])
	utc := c.events("mordor")[0].Time.UTC()
	require.Equal(t, utc.Add(-5*time.Hour).Format("15:04:05"), at.Format("15:04:05"))
}

// quotedCommand is a command named in an output as it is typed
// ('fellowship take bilbo'): the same in any language.
// A command line to type (journal advancement grant …), names between «»
// (the campaign's own: a trait «Ojo avizor»), a flag (--seed) and the dice
// algorithm (journal-dice-v1) are the same in any language.
var quotedCommand = regexp.MustCompile(`'[a-z]+ [^']*'|^\s*journal [a-z]+ .*$|«[^»]*»|--[a-z-]+|journal-dice-v\d+`)

// oneLanguage fails when a line of out has a label word of the language
// other than want's.
func oneLanguage(t *testing.T, what string, out string, want, other i18n.Lang) {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		line = quotedCommand.ReplaceAllString(line, "")
		w, found := i18n.HasWord(line, i18n.Words(other))
		require.Falsef(t, found, "%s: %s line %q has the %s word %q", what, want, line, other, w)
	}
}

// playedTOR adds to c a The One Ring campaign, arda, with a session, an
// adventure, rolls, Shadow and a refused fellowship request.
func playedTOR(t *testing.T, c *cli) {
	t.Helper()
	c.ok("campaign", "create", "arda", "--system", "tor")
	for _, args := range [][]string{
		{"character", "create", "bilbo", "--name", "Bilbo", "--player", "ana", "--attrs", "Cuerpo=3/5,Corazón=6/8,Mente=5/7",
			"--skills", "Atención=3*,Sigilo=3", "--hope", "1", "--culture", "Hobbits de la Comarca", "--traits", "Ladrón,Ojo avizor"},
		{"character", "create", "thorin", "--name", "Thorin", "--player", "bea", "--attrs", "Cuerpo=7/9,Corazón=5/7,Mente=2/4",
			"--skills", "Guerrear=3*", "--hope", "8", "--culture", "Enanos"},
		{"character", "create", "orco", "--npc", "--attrs", "Cuerpo=6/8,Corazón=2/3,Mente=2/3"},
		{"session", "start"},
		{"adventure", "start", "El camino"},
		{"roll", "bilbo", "atencion", "--tn", "12"},
		{"roll", "thorin", "guerrear", "--tn", "14"},
	} {
		c.ok(append([]string{"-c", "arda"}, args...)...)
	}
	// Hope spent on a failed roll (at TN 30 only the rune succeeds), so
	// that Bilbo may ask the fellowship for it back.
	spent := false
	for range 10 {
		c.ok("-c", "arda", "roll", "bilbo", "atencion", "--tn", "30")
		if _, errb, code := c.run("-c", "arda", "hope", "spend", "bilbo"); code == 0 {
			spent = true
			break
		} else {
			t.Log(errb)
		}
	}
	require.True(t, spent, "no failure at TN 30 in 10 rolls")
	c.ok("-c", "arda", "fellowship", "ask", "bilbo")
	c.ok("-c", "arda", "fellowship", "vote", "bilbo", "thorin", "no")
	c.ok("-c", "arda", "shadow", "gain", "bilbo", "2", "--reason", "un dragón")
}

// TestOneLanguagePerOutput: with --lang, or from $LANG, every output is in
// one language: no label of the other, while rule names stay Spanish. It
// covers what is read at the table and in an audit: the transcript, the
// sheets and lists, what a command recorded, stats, replay and its
// reproduction, explain, odds, The One Ring's sheet, roster, company and
// advancement, and the demo.
func TestOneLanguagePerOutput(t *testing.T) {
	c := played(t)
	playedTOR(t, c)
	// A witness to roll for: the orc may die in the combat of played.
	c.ok("-c", "mordor", "character", "create", "testigo", "--npc", "--attrs", "F=5,R=4,D=5,I=3,P=4", "--skills", "Pelea=2")
	var roll string
	for _, e := range c.events("mordor") {
		if e.Type == events.TypeRollMade {
			roll = e.ID
		}
	}
	require.NotEmpty(t, roll)
	commands := [][]string{
		{"log"}, {"campaign", "show"}, {"campaign", "list"}, {"character", "show", "lodin"}, {"character", "list"},
		{"session", "list"}, {"skill", "list"}, {"weapon", "list"}, {"combat", "show"}, {"stats"},
		{"heal", "lodin", "1"}, {"roll", "testigo", "Pelea"},
		{"replay"}, {"replay", "--reproduce"}, {"explain", roll},
		{"odds", "ryf", "--base", "12", "--vs", "20"}, {"odds", "ryf", "--base", "16", "--kind", "attribute", "--level", "high"},
		{"odds", "tor", "--dice", "1", "--tn", "14", "--hope", "3"},
		{"-c", "arda", "character", "show", "bilbo"}, {"-c", "arda", "character", "list"}, {"-c", "arda", "campaign", "show"},
		{"-c", "arda", "fellowship", "show"}, {"-c", "arda", "advancement", "show", "bilbo"}, {"-c", "arda", "log"},
		{"-c", "arda", "roll", "thorin", "guerrear"},
	}
	langs := []struct {
		name, lang, locale string
		want, other        i18n.Lang
	}{
		{"--lang en", "en", "es_ES.UTF-8", i18n.EN, i18n.ES},
		{"--lang es", "es", "en_US.UTF-8", i18n.ES, i18n.EN},
		{"LANG=en_GB", "", "en_GB.UTF-8", i18n.EN, i18n.ES},
		{"LANG=es_AR", "", "es_AR.UTF-8", i18n.ES, i18n.EN},
		{"LANG=C", "", "C", i18n.EN, i18n.ES},
	}
	for _, tc := range langs {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("LANG", tc.locale)
			for _, args := range commands {
				full := []string{"-c", "mordor"}
				if tc.lang != "" {
					full = append(full, "--lang", tc.lang)
				}
				out := c.ok(append(full, args...)...)
				oneLanguage(t, strings.Join(args, " "), out, tc.want, tc.other)
				if args[0] == "log" {
					require.Contains(t, out, "Sigilo", "rule names stay Spanish")
					require.Contains(t, out, "media")
					mark := map[i18n.Lang]string{i18n.EN: "Round 2.", i18n.ES: "Asalto 2."}[tc.want]
					require.Contains(t, out, mark)
				}
			}
		})
	}
	// The demo, in both systems, on a fresh journal each.
	for _, tc := range langs[:2] {
		for _, system := range []string{"ryf", "tor"} {
			d := newCLI(t)
			out := d.ok("--lang", tc.lang, "demo", "--system", system)
			oneLanguage(t, "demo --system "+system, out, tc.want, tc.other)
			require.Contains(t, out, map[i18n.Lang]string{i18n.EN: "Final sheets", i18n.ES: "Hojas finales"}[tc.want])
		}
	}
	t.Setenv("LANG", "C") // --lang fr is not a language: the locale's is the error's
	_, errb, code := c.run("-c", "mordor", "--lang", "fr", "log")
	require.NotZero(t, code)
	require.Contains(t, errb, `unknown language "fr": want es or en`)
}

// TestListVerbs: campaigns, sessions, skills (the system's and the
// campaign's) and weapons (with damage and skill) as tables and as JSON.
func TestListVerbs(t *testing.T) {
	c := played(t)
	c.ok("campaign", "create", "arda", "--system", "tor", "--name", "La Tierra Media")
	for _, tc := range []struct {
		args []string
		text []string
		json func(t *testing.T, out string)
	}{
		{[]string{"campaign", "list"}, []string{"mordor", "La Tierra Media", "tor"}, func(t *testing.T, out string) {
			var rows []projections.CampaignRow
			require.NoError(t, json.Unmarshal([]byte(out), &rows))
			require.Len(t, rows, 2)
			require.Equal(t, "tor", rows[1].System)
		}},
		{[]string{"-c", "mordor", "session", "list"}, []string{"s1", "La torre", "in progress"}, func(t *testing.T, out string) {
			var rows []projections.SessionRow
			require.NoError(t, json.Unmarshal([]byte(out), &rows))
			require.Len(t, rows, 1)
			require.False(t, rows[0].Ended)
			require.NotZero(t, rows[0].Rolls)
		}},
		{[]string{"-c", "mordor", "skill", "list"}, []string{"Sigilo", "Cetrería", "campaign"}, func(t *testing.T, out string) {
			var rows []projections.SkillRow
			require.NoError(t, json.Unmarshal([]byte(out), &rows))
			require.Equal(t, projections.SkillRow{Name: "Cetrería", Attribute: "P", Origin: "campaign"}, rows[len(rows)-1])
		}},
		{[]string{"-c", "arda", "skill", "list"}, []string{"Acertijos", "Mente", "Costumbre"}, nil},
		{[]string{"-c", "mordor", "weapon", "list"}, []string{"Espada", "1d10", "Armas cuerpo a cuerpo", "Ballesta de repetición larguísima", "20/40/80 m"}, func(t *testing.T, out string) {
			var rows []projections.WeaponRow
			require.NoError(t, json.Unmarshal([]byte(out), &rows))
			last := rows[len(rows)-1]
			require.Equal(t, "Armas a distancia", last.Skill)
			require.Equal(t, "1d10", last.Damage)
			require.Equal(t, 5, last.Magazine)
		}},
	} {
		out := c.ok(append([]string{"--lang", "en"}, tc.args...)...)
		for _, want := range tc.text {
			require.Contains(t, out, want, "%v", tc.args)
		}
		if tc.json != nil {
			tc.json(t, c.ok(append([]string{"--json"}, tc.args...)...))
		}
	}
}

// TestTablesLineUp: long, accented and wide names keep every column of a
// table at the same terminal column.
func TestTablesLineUp(t *testing.T) {
	c := newCLI(t)
	c.setupCampaign()
	c.ok("-c", "mordor", "character", "create", "nandu", "--name", "Ñandú de las Montañas Larguísimas", "--npc",
		"--attrs", "F=5,R=4,D=5,I=3,P=4", "--skills", "Pelea=2")
	c.ok("-c", "mordor", "character", "create", "kaito", "--name", "指輪の王", "--npc",
		"--attrs", "F=5,R=4,D=5,I=3,P=4", "--skills", "Pelea=2")
	for _, args := range [][]string{{"character", "list"}, {"campaign", "show"}} {
		out := c.ok(append([]string{"-c", "mordor", "--lang", "en"}, args...)...)
		col := -1
		rows := 0
		for _, line := range strings.Split(out, "\n") {
			i := strings.IndexAny(line, "█░")
			if i < 0 {
				continue
			}
			rows++
			at := i18n.Width(line[:i])
			if col < 0 {
				col = at
			}
			require.Equal(t, col, at, "%v: the HP bar moved:\n%s", args, out)
		}
		require.Equal(t, 4, rows)
	}
}
