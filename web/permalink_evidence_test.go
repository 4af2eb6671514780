package web

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
)

// evidenceCase is a corpus file's events as the store gives them.
type evidenceCase struct {
	name  string
	recs  []events.Recorded
	rolls []string
}

// evidenceCorpus reads the genuine exports and the tampered ones that
// give a flag (device-*, downgrade, uncosigned, stale, proved-*...) or
// change a roll (face, outcome, total, reveal, seed, signature): each
// line an event at the sequence of its line.
func evidenceCorpus(t *testing.T) []evidenceCase {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(corpusDir, "*", "*.jsonl"))
	require.NoError(t, err)
	slices.Sort(paths)
	var out []evidenceCase
	taken := map[string]bool{}
	for _, p := range paths {
		name := strings.TrimSuffix(strings.TrimPrefix(p, corpusDir+string(filepath.Separator)), ".jsonl")
		kind := tamperKind(name)
		if kind != "" && taken[strings.SplitN(filepath.Base(name), ".", 2)[0]+"."+kind] {
			continue // one file of each kind of change a base
		}
		if kind != "" && !slices.Contains([]string{"downgrade", "device-unproved", "device-resigned", "device-legacy", "device-by-gm",
			"uncosigned", "stale", "revoked-signs", "approval-resigned", "proved-reveal", "proved-face", "proved-dropped", "proved-by",
			"face", "outcome", "total", "reveal", "seed", "signature"}, kind) {
			continue
		}
		if base := strings.SplitN(filepath.Base(name), ".", 2)[0]; slices.Contains([]string{"face", "outcome", "total", "reveal", "seed", "signature"}, kind) &&
			!slices.Contains([]string{"v1-ryf", "v2-gm", "v2-tor", "v2-chain"}, base) {
			continue // changes to the dice: on four bases
		}
		taken[strings.SplitN(filepath.Base(name), ".", 2)[0]+"."+kind] = true
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		c := evidenceCase{name: name}
		for i, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
			e, err := events.Decode([]byte(line))
			if err != nil {
				continue // a foreign line: not the store's
			}
			c.recs = append(c.recs, events.Recorded{Seq: uint64(i + 1), Subject: "campaigns." + e.Campaign, Event: e})
			if e.Type == events.TypeRollMade {
				c.rolls = append(c.rolls, e.ID)
			}
		}
		if len(c.rolls) > 0 && !multiCampaign(c.recs) {
			out = append(out, c)
		}
	}
	return append(out, syntheticEvidence(t, out)...)
}

// syntheticEvidence are files the journal makes (or an older journal
// made) but the corpus has not: an event recorded between a session's end
// and its co-signatures (the first co-signature's prevhash is then that
// event's hash, not the end's), an open session whose latest event is no
// roll, and a journal-dice-v1 session with rolls started after a device
// key was registered (downgrade).
func syntheticEvidence(t *testing.T, cases []evidenceCase) []evidenceCase {
	t.Helper()
	find := func(name string) evidenceCase {
		i := slices.IndexFunc(cases, func(c evidenceCase) bool { return c.name == filepath.Join("genuine", name) })
		require.GreaterOrEqual(t, i, 0, name)
		return cases[i]
	}
	xp := func(like events.Event, at time.Time, prev string) events.Event {
		e := like
		e.ID, e.Type, e.Time, e.PrevHash = uuid.NewString(), events.TypeXPGranted, at, prev
		e.Subject, e.Command, e.RequestID = "", "xp", ""
		e.Data = json.RawMessage(`{"character":"x","amount":1}`)
		return e
	}
	renumber := func(c evidenceCase) evidenceCase {
		for i := range c.recs {
			c.recs[i].Seq = uint64(i + 1)
		}
		return c
	}
	var out []evidenceCase
	// After the end: v2-ryf's end, then an XP grant, then the co-signatures.
	base := find("v2-ryf")
	end := slices.IndexFunc(base.recs, func(r events.Recorded) bool { return r.Event.Type == events.TypeSessionEnded })
	require.Equal(t, events.TypeSessionCosigned, base.recs[end+1].Event.Type, "v2-ryf: its end's co-signature next")
	c := evidenceCase{name: filepath.Join("synthetic", "after-end"), rolls: base.rolls}
	c.recs = slices.Clone(base.recs[:end+1])
	x := xp(base.recs[end].Event, base.recs[end].Event.Time, base.recs[end+1].Event.PrevHash)
	c.recs = append(c.recs, events.Recorded{Subject: base.recs[end].Subject, Event: x})
	for k, r := range base.recs[end+1:] {
		if k == 0 {
			h := sha256.Sum256([]byte(x.ID))
			r.Event.PrevHash = hex.EncodeToString(h[:])
		}
		c.recs = append(c.recs, r)
	}
	out = append(out, renumber(c))
	// Open, its latest event an XP grant an hour after its last.
	base = find("v2-open")
	last := base.recs[len(base.recs)-1]
	c = evidenceCase{name: filepath.Join("synthetic", "open-latest"), rolls: base.rolls, recs: slices.Clone(base.recs)}
	c.recs = append(c.recs, events.Recorded{Subject: last.Subject, Event: xp(last.Event, last.Event.Time.Add(time.Hour), "")})
	out = append(out, renumber(c))
	// Downgrade: v1-ryf with a device registered before its session (the
	// corpus's downgrade files append an empty v1 session).
	base = find("v1-ryf")
	dev := find("v2-devices")
	reg := dev.recs[slices.IndexFunc(dev.recs, func(r events.Recorded) bool { return r.Event.Type == events.TypeDeviceRegistered })]
	reg.Event.ID, reg.Event.Campaign, reg.Event.Source = uuid.NewString(), base.recs[0].Event.Campaign, base.recs[0].Event.Source
	reg.Event.Time = base.recs[0].Event.Time
	c = evidenceCase{name: filepath.Join("synthetic", "downgrade"), rolls: base.rolls}
	c.recs = append(slices.Clone(base.recs[:1]), reg)
	c.recs = append(c.recs, base.recs[1:]...)
	out = append(out, renumber(c))
	return out
}

// tamperKind is a tampered file's kind ("face" of "tampered/v2-gm.face-12"),
// "" for a genuine one.
func tamperKind(name string) string {
	if !strings.HasPrefix(name, "tampered") {
		return ""
	}
	_, kind, _ := strings.Cut(filepath.Base(name), ".")
	if i := strings.LastIndex(kind, "-"); i > 0 && strings.Trim(kind[i+1:], "0123456789") == "" {
		kind = kind[:i]
	}
	return kind
}

// multiCampaign reports whether recs are of more than one campaign (an
// evidence is one campaign's).
func multiCampaign(recs []events.Recorded) bool {
	for _, r := range recs {
		if r.Event.Campaign != recs[0].Event.Campaign {
			return true
		}
	}
	return false
}

// cardVerdict is a roll's verdict on its card: its status and its flags.
type cardVerdict struct {
	Status  string `json:"status"`
	Flagged []struct {
		Code  string `json:"code"`
		Event string `json:"event"`
		What  string `json:"what"`
	} `json:"flagged"`
	Reasons []string `json:"reasons"` // said, not compared
}

func (v cardVerdict) String() string {
	var fs []string
	for _, f := range v.Flagged {
		fs = append(fs, f.Code+" "+f.Event+" "+f.What)
	}
	slices.Sort(fs)
	return v.Status + " [" + strings.Join(fs, "; ") + "]"
}

// evidenceJob is one set of events verified under node, for the rolls asked.
type evidenceJob struct {
	Name   string         `json:"name"`
	Events []events.Event `json:"events"`
	Rolls  []string       `json:"rolls"`
}

// runEvidenceNode verifies each job's events with verify.js under node
// (testdata/evidence-node.js) and returns the rolls' verdicts by job name.
func runEvidenceNode(t *testing.T, node string, jobs []evidenceJob) map[string]map[string]cardVerdict {
	t.Helper()
	var in bytes.Buffer
	enc := json.NewEncoder(&in)
	for _, j := range jobs {
		require.NoError(t, enc.Encode(j))
	}
	file := filepath.Join(t.TempDir(), "jobs.jsonl")
	require.NoError(t, os.WriteFile(file, in.Bytes(), 0o644))
	var scripts []string
	for _, s := range verifierScripts {
		if s != "verifier.js" {
			scripts = append(scripts, s)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, node, filepath.Join("testdata", "evidence-node.js"), "--static", "static", "--scripts", strings.Join(scripts, ","),
		"--now", corpusNow.Format(time.RFC3339), file)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "node: %s", stderr.String())
	got := map[string]map[string]cardVerdict{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var r struct {
			Name     string                 `json:"name"`
			Error    string                 `json:"error"`
			Verdicts map[string]cardVerdict `json:"verdicts"`
		}
		require.NoError(t, json.Unmarshal(sc.Bytes(), &r))
		require.Empty(t, r.Error, "verify.js threw on %s", r.Name)
		got[r.Name] = r.Verdicts
	}
	require.NoError(t, sc.Err())
	require.Len(t, got, len(jobs))
	return got
}

func eventsOf(recs []events.Recorded) []events.Event {
	out := make([]events.Event, len(recs))
	for i, r := range recs {
		out[i] = r.Event
	}
	return out
}

// TestPermalinkEvidenceVerdicts: for every roll of the corpus's genuine
// exports and of the tampered ones that flag something or change a roll,
// the roll's card says on its permalink's evidence (evidence, verified by
// verify.js under node as the permalink page verifies it) what it says in
// the whole campaign's audit: the same status and the same flags, code,
// event and words. Among them demo-tor, whose session's end three
// players' devices co-signed: no not-cosigned flag on its permalinks.
func TestPermalinkEvidenceVerdicts(t *testing.T) {
	node := nodeVerifier(t)
	start := time.Now()
	cases := evidenceCorpus(t)
	var jobs []evidenceJob
	for _, c := range cases {
		jobs = append(jobs, evidenceJob{Name: c.name, Events: eventsOf(c.recs), Rolls: c.rolls})
	}
	got := runEvidenceNode(t, node, jobs)
	// Every roll of the genuine files; of a tampered one, its first roll
	// and up to three whose verdict the change made other than in the file
	// it was made from.
	jobs = nil
	for i, c := range cases {
		base := filepath.Join("genuine", strings.SplitN(filepath.Base(c.name), ".", 2)[0])
		var rolls []string
		for k, id := range c.rolls {
			g, ok := got[base][id]
			if tamperKind(c.name) == "" || k == 0 || (!ok || g.String() != got[c.name][id].String()) && len(rolls) < 4 {
				rolls = append(rolls, id)
			}
		}
		cases[i].rolls = rolls
		for _, id := range rolls {
			ev := evidence(c.recs, id)
			require.NotNil(t, ev, "%s: no evidence for roll %s", c.name, id)
			jobs = append(jobs, evidenceJob{Name: c.name + "#" + id, Events: eventsOf(ev), Rolls: []string{id}})
		}
	}
	for k, v := range runEvidenceNode(t, node, jobs) {
		got[k] = v
	}
	rolls, flagged := 0, 0
	codes := map[string]int{} // the flags said on the permalinks' cards
	for _, c := range cases {
		whole := got[c.name]
		for _, id := range c.rolls {
			want, have := whole[id], got[c.name+"#"+id][id]
			rolls++
			if len(want.Flagged) > 0 {
				flagged++
			}
			for _, f := range have.Flagged {
				codes[f.Code]++
			}
			if want.String() != have.String() {
				t.Errorf("%s: roll %s:\n  in the campaign: %s\n  on its permalink: %s %q", c.name, id, want, have, have.Reasons)
			}
			if c.name == filepath.Join("genuine", "demo-tor") {
				for _, f := range have.Flagged {
					require.NotEqual(t, "not-cosigned", f.Code, "%s: three devices co-signed the end of the session of roll %s", c.name, id)
				}
			}
		}
	}
	require.Contains(t, got, filepath.Join("genuine", "demo-tor"))
	for _, c := range []string{"downgrade", "not-cosigned", "no-contribution", "repeated", "voided", "unwitnessed", "partial-witness", "witness-key-by-other", "beacon-not-used", "beacon-unseen", "open", "stale"} {
		require.NotZero(t, codes[c], "no permalink's card says %s", c)
	}
	t.Logf("%d files, %d rolls (%d with flags), each verified in its campaign and on its evidence: %v; flags on the cards: %v", len(cases), rolls, flagged, time.Since(start).Round(time.Millisecond), codes)
}

// evidenceKind is a kind of event an evidence holds, to take out of it.
type evidenceKind struct {
	name string
	// in says whether the evidence's event at i is of the kind, for the
	// roll whose evidence it is (own: the roll's request).
	in func(ev []evRec, i int, own string) bool
}

var evidenceKinds = []evidenceKind{
	{"the roll's request", func(ev []evRec, i int, own string) bool {
		return ev[i].r.Event.Type == events.TypeRollRequested && ev[i].d.Request == own
	}},
	{"the session's start", func(ev []evRec, i int, _ string) bool { return ev[i].r.Event.Type == events.TypeSessionStarted }},
	{"the session's end (its seed)", func(ev []evRec, i int, _ string) bool { return ev[i].r.Event.Type == events.TypeSessionEnded }},
	{"the contributions", func(ev []evRec, i int, _ string) bool { return ev[i].r.Event.Type == events.TypeSessionContributed }},
	{"the co-signatures of the end", func(ev []evRec, i int, _ string) bool { return ev[i].r.Event.Type == events.TypeSessionCosigned }},
	{"the event after the end (its prevhash)", func(ev []evRec, i int, _ string) bool {
		return i > 0 && ev[i-1].r.Event.Type == events.TypeSessionEnded && ev[i].r.Event.Type != events.TypeSessionCosigned
	}},
	{"the characters' creation and the campaign's", func(ev []evRec, i int, _ string) bool {
		switch ev[i].r.Event.Type {
		case events.TypeCampaignCreated, events.TypeCharacterCreated, events.TypeTORCharacterCreated:
			return true
		}
		return false
	}},
	{"the signers' key events", func(ev []evRec, i int, _ string) bool { return isKeyType(ev[i].r.Event.Type) }},
	{"the chain witnesses", func(ev []evRec, i int, _ string) bool { return ev[i].r.Event.Type == events.TypeRollWitnessed }},
	{"the receipts", func(ev []evRec, i int, _ string) bool { return ev[i].r.Event.Type == events.TypeRollReceipted }},
	{"the voids", func(ev []evRec, i int, _ string) bool { return ev[i].r.Event.Type == events.TypeEventVoided }},
	{"the earlier requests for the same action, and their rolls", func(ev []evRec, i int, own string) bool {
		x := ev[i]
		if x.r.Event.Type == events.TypeRollMade && x.d.Request != own && x.d.Request != "" {
			return true
		}
		return x.r.Event.Type == events.TypeRollRequested && x.d.Request != own && x.action != "" && slices.ContainsFunc(ev, func(y evRec) bool {
			return y.r.Event.Type == events.TypeRollRequested && y.d.Request == own && y.action == x.action
		})
	}},
	{"the session's earlier GM requests (the witness index)", func(ev []evRec, i int, own string) bool {
		x := ev[i]
		return x.r.Event.Type == events.TypeRollRequested && x.d.Request != own && x.d.WitnessIndex > 0
	}},
	{"an open session's latest event", func(ev []evRec, i int, own string) bool {
		x := ev[i]
		if x.r.Event.Type == events.TypeRollMade || x.r.Event.Type == events.TypeRollRequested || x.r.Event.Session == "" {
			return false
		}
		for j, y := range ev {
			if y.r.Event.Session == x.r.Event.Session && (y.r.Event.Type == events.TypeSessionEnded || j > i && !y.r.Event.Time.Before(x.r.Event.Time)) {
				return false
			}
		}
		return true
	}},
}

// TestPermalinkEvidenceKinds: each kind of event an evidence holds is
// needed: for each, there is a roll of the corpus whose card says
// something else on its evidence without the events of that kind (its
// status, a flag, or a flag's words). Up to a few rolls a file are tried.
func TestPermalinkEvidenceKinds(t *testing.T) {
	node := nodeVerifier(t)
	start := time.Now()
	cases := slices.DeleteFunc(evidenceCorpus(t), func(c evidenceCase) bool {
		return !slices.Contains([]string{"", "downgrade", "stale"}, tamperKind(c.name)) && !strings.HasPrefix(c.name, "synthetic")
	})
	type try struct{ kind, job, roll string }
	var jobs []evidenceJob
	var tries []try
	for _, c := range cases {
		perKind := map[string]int{}
		for _, id := range c.rolls {
			ev := evidence(c.recs, id)
			recs := evidenceRecs(ev)
			own := ""
			for _, x := range recs {
				if x.r.Event.ID == id {
					own = x.d.Request
				}
			}
			full := c.name + "#" + id
			used := false
			for _, k := range evidenceKinds {
				var rest []events.Recorded
				for i, x := range recs {
					if x.r.Event.ID == id || !k.in(recs, i, own) {
						rest = append(rest, x.r)
					}
				}
				if len(rest) == len(ev) || perKind[k.name] >= 3 {
					continue
				}
				perKind[k.name]++
				used = true
				name := full + " without " + k.name
				jobs = append(jobs, evidenceJob{Name: name, Events: eventsOf(rest), Rolls: []string{id}})
				tries = append(tries, try{k.name, name, id})
			}
			if used {
				jobs = append(jobs, evidenceJob{Name: full, Events: eventsOf(ev), Rolls: []string{id}})
			}
		}
	}
	got := runEvidenceNode(t, node, jobs)
	changed := map[string][]string{}
	tried := map[string]int{}
	for _, tr := range tries {
		full, _, _ := strings.Cut(tr.job, " without ")
		tried[tr.kind]++
		if a, b := got[full][tr.roll].String(), got[tr.job][tr.roll].String(); a != b {
			changed[tr.kind] = append(changed[tr.kind], fmt.Sprintf("%s: %s → %s", full, a, b))
		}
	}
	for _, k := range evidenceKinds {
		t.Run(k.name, func(t *testing.T) {
			require.NotEmpty(t, changed[k.name], "no roll of the corpus (%d tried) says anything else on its evidence without %s", tried[k.name], k.name)
			t.Logf("%d of %d rolls say something else without it, e.g. %s", len(changed[k.name]), tried[k.name], changed[k.name][0])
		})
	}
	t.Logf("%d verifications: %v", len(jobs), time.Since(start).Round(time.Millisecond))
}
