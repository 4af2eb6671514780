package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/nats-io/nats.go"
	"github.com/spf13/cobra"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/campaign-journal/journal/access"
)

// The deploy files (Dockerfile, docker-compose.yml, deploy/) are read here:
// docker is not run by the tests, so what can be checked without it is —
// that every journal command line in them is one the journal accepts, that
// nothing is published beyond the loopback interface, that the services
// find the files they read, and that the compose file's access script,
// run with this very binary as `journal`, makes a working configuration.

// TestMain lets the test binary stand in for the journal's binary: with
// $JOURNAL_TEST_IS_JOURNAL set it runs the command line it is given.
func TestMain(m *testing.M) {
	if os.Getenv("JOURNAL_TEST_IS_JOURNAL") == "1" {
		os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
	}
	// The tests' CLI is the GM unless a test says who it is (t.Setenv of
	// JOURNAL_ACTOR, or a login in its own JOURNAL_CONFIG with the variable
	// unset): the program itself has no default user (identity.go).
	if os.Getenv("JOURNAL_ACTOR") == "" {
		os.Setenv("JOURNAL_ACTOR", "gm")
	}
	code := m.Run()
	stopChromium() // verifier_browser_test.go
	os.Exit(code)
}

// pendingCommands are journal commands other branches are adding that the
// deploy files already use: a line naming one is not checked until the
// command exists.
var pendingCommands = []string{"backup", "restore"}

// requireJournalArgs checks that args (without the binary) are a journal
// command line whose command and flags exist, and returns the command.
func requireJournalArgs(t *testing.T, where string, args []string) *cobra.Command {
	t.Helper()
	root := newApp(io.Discard, io.Discard).rootCommand()
	cmd, rest, err := root.Find(args)
	if (err != nil || cmd == root) && len(args) > 0 && slices.Contains(pendingCommands, args[0]) {
		t.Logf("%s: journal %s: not checked, this branch has no %q command yet", where, strings.Join(args, " "), args[0])
		return nil
	}
	require.NoError(t, err, "%s: journal %s", where, strings.Join(args, " "))
	require.NotEqual(t, root, cmd, "%s: journal %s: no such command", where, strings.Join(args, " "))
	require.NoError(t, cmd.ParseFlags(rest), "%s: journal %s", where, strings.Join(args, " "))
	if cmd.Args != nil {
		require.NoError(t, cmd.Args(cmd, cmd.Flags().Args()), "%s: journal %s", where, strings.Join(args, " "))
	}
	return cmd
}

// dockerStage is the instructions of one stage of a Dockerfile: keyword →
// arguments (joined continuation lines), in order.
type dockerStage struct {
	name  string
	instr [][2]string
}

func (s dockerStage) get(kw string) []string {
	var out []string
	for _, in := range s.instr {
		if in[0] == kw {
			out = append(out, in[1])
		}
	}
	return out
}

func readDockerfile(t *testing.T) map[string]dockerStage {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "Dockerfile"))
	require.NoError(t, err)
	defer f.Close()
	stages := map[string]dockerStage{}
	var cur *dockerStage
	var line string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(l, "#") || (l == "" && line == "") {
			continue
		}
		if cont, ok := strings.CutSuffix(l, "\\"); ok {
			line += cont + " "
			continue
		}
		line += l
		kw, rest, _ := strings.Cut(line, " ")
		line = ""
		kw, rest = strings.ToUpper(kw), strings.TrimSpace(rest)
		if kw == "FROM" {
			f := strings.Fields(rest)
			st := dockerStage{name: f[len(f)-1]}
			stages[st.name] = st
			cur = &st
			continue
		}
		require.NotNil(t, cur, "%s before FROM", kw)
		cur.instr = append(cur.instr, [2]string{kw, rest})
		stages[cur.name] = *cur
	}
	require.NoError(t, sc.Err())
	return stages
}

// TestDockerfileJournalStage: the journal's image runs as a user of its
// own (not root), keeps its data in a volume it owns, and checks its health
// with its own binary, on a command line the journal accepts.
func TestDockerfileJournalStage(t *testing.T) {
	stages := readDockerfile(t)
	for _, name := range []string{"journal", "nats"} {
		st, ok := stages[name]
		require.True(t, ok, "no stage %q", name)
		users := st.get("USER")
		require.NotEmpty(t, users, "stage %s runs as root", name)
		u, _, _ := strings.Cut(users[len(users)-1], ":")
		require.NotContains(t, []string{"root", "0"}, u, "stage %s runs as root", name)
		require.Equal(t, []string{`["/data"]`}, st.get("VOLUME"), name)
		require.Equal(t, []string{"/data"}, st.get("WORKDIR"), name)
		require.Contains(t, strings.Join(st.get("RUN"), " "), "chown "+u+":", "stage %s: the user owns its volume", name)
	}
	j := stages["journal"]
	require.Contains(t, j.get("EXPOSE"), "8080")
	env := strings.Join(j.get("ENV"), " ")
	require.Contains(t, env, "JOURNAL_DATA=/data")
	require.Contains(t, env, "JOURNAL_ACCESS=/data/access.json")

	hc := j.get("HEALTHCHECK")
	require.Len(t, hc, 1)
	_, execForm, ok := strings.Cut(hc[0], "CMD ")
	require.True(t, ok, hc[0])
	var args []string
	require.NoError(t, json.Unmarshal([]byte(execForm), &args), "HEALTHCHECK in exec form (the image has no shell tools to rely on): %s", execForm)
	require.Equal(t, "/usr/local/bin/journal", args[0], "the journal checks itself")
	cmd := requireJournalArgs(t, "Dockerfile HEALTHCHECK", args[1:])
	require.Equal(t, "healthcheck", cmd.Name())

	var entry, cmdArgs []string
	require.NoError(t, json.Unmarshal([]byte(j.get("ENTRYPOINT")[0]), &entry))
	require.NoError(t, json.Unmarshal([]byte(j.get("CMD")[0]), &cmdArgs))
	require.Equal(t, []string{"/usr/local/bin/journal"}, entry)
	require.Equal(t, "serve", requireJournalArgs(t, "Dockerfile CMD", cmdArgs).Name())
	// The health check asks the port serve listens on.
	require.Contains(t, strings.Join(args, " "), "127.0.0.1:8080")
	require.Contains(t, strings.Join(cmdArgs, " "), ":8080")
}

type composeFile struct {
	Services map[string]struct {
		Image       string            `yaml:"image"`
		Entrypoint  []string          `yaml:"entrypoint"`
		Command     []string          `yaml:"command"`
		Environment map[string]string `yaml:"environment"`
		Volumes     []string          `yaml:"volumes"`
		Ports       []string          `yaml:"ports"`
		DependsOn   yaml.Node         `yaml:"depends_on"`
	} `yaml:"services"`
	Volumes map[string]any `yaml:"volumes"`
}

func readCompose(t *testing.T) composeFile {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "docker-compose.yml"))
	require.NoError(t, err)
	var c composeFile
	require.NoError(t, yaml.Unmarshal(b, &c))
	return c
}

// mount finds the volume of service svc mounted at target, and whether
// read-only.
func mount(vols []string, target string) (source string, ro, ok bool) {
	for _, v := range vols {
		f := strings.Split(v, ":")
		if len(f) >= 2 && f[1] == target {
			return f[0], len(f) > 2 && strings.Contains(f[2], "ro"), true
		}
	}
	return "", false, false
}

// TestComposeFile: every published port is on 127.0.0.1 (4222 never on
// every interface), every named volume is declared and every file mounted
// exists, the NATS servers read the generated authorization read-only
// where deploy/nats.conf includes it, the journal reads its password from
// the file the access script writes, and Prometheus and Grafana find the
// journal's metrics and dashboard.
func TestComposeFile(t *testing.T) {
	c := readCompose(t)
	for _, name := range []string{"access", "n1", "n2", "n3", "journal", "prometheus", "grafana"} {
		require.Contains(t, c.Services, name)
	}
	for name, s := range c.Services {
		for _, p := range s.Ports {
			require.True(t, strings.HasPrefix(p, "127.0.0.1:"), "service %s publishes %q beyond the loopback interface", name, p)
		}
		for _, v := range s.Volumes {
			src := strings.Split(v, ":")[0]
			if strings.HasPrefix(src, ".") {
				_, err := os.Stat(filepath.Join("..", "..", src))
				require.NoError(t, err, "service %s mounts %s", name, src)
				continue
			}
			require.Contains(t, c.Volumes, src, "service %s: volume %s is not declared", name, src)
		}
	}

	natsConf, err := os.ReadFile(filepath.Join("..", "..", "deploy", "nats.conf"))
	require.NoError(t, err)
	inc := regexp.MustCompile(`(?m)^include (\S+)$`).FindStringSubmatch(string(natsConf))
	require.NotNil(t, inc, "deploy/nats.conf includes the users")
	accessVol, _, ok := mount(c.Services["access"].Volumes, "/data")
	require.True(t, ok, "the access service writes in /data")
	for _, n := range []string{"n1", "n2", "n3"} {
		src, ro, ok := mount(c.Services[n].Volumes, "/etc/nats/"+filepath.Dir(inc[1]))
		require.True(t, ok, "%s does not mount the authorization nats.conf includes (%s)", n, inc[1])
		require.Equal(t, accessVol, src, n)
		require.True(t, ro, "%s may write the access volume", n)
		require.Equal(t, "auth.conf", filepath.Base(inc[1]))
	}
	j := c.Services["journal"]
	src, ro, ok := mount(j.Volumes, "/access")
	require.True(t, ok)
	require.Equal(t, accessVol, src)
	require.True(t, ro, "the journal may write the access volume")
	require.Equal(t, "/access/access.json", j.Environment["JOURNAL_ACCESS"])
	script := strings.Join(j.Command, " ")
	require.Contains(t, script, "cat /access/journal.password", "the journal's password, as the access script writes it")
	require.NotContains(t, script, "change-me", "an example password")
	m := regexp.MustCompile(`exec /usr/local/bin/journal (.*)$`).FindStringSubmatch(script)
	require.NotNil(t, m, script)
	require.Equal(t, "serve", requireJournalArgs(t, "docker-compose.yml journal", strings.Fields(m[1])).Name())
	require.Contains(t, m[1], "--http 0.0.0.0:8080")
	require.Contains(t, m[1], "--replicas 3")

	// Prometheus scrapes the journal's /metrics; Grafana reads Prometheus
	// and the dashboard.
	var prom struct {
		ScrapeConfigs []struct {
			MetricsPath   string `yaml:"metrics_path"`
			StaticConfigs []struct {
				Targets []string `yaml:"targets"`
			} `yaml:"static_configs"`
		} `yaml:"scrape_configs"`
	}
	promSrc, _, ok := mount(c.Services["prometheus"].Volumes, "/etc/prometheus/prometheus.yml")
	require.True(t, ok)
	b, err := os.ReadFile(filepath.Join("..", "..", promSrc))
	require.NoError(t, err)
	require.NoError(t, yaml.Unmarshal(b, &prom))
	require.Len(t, prom.ScrapeConfigs, 1)
	require.Equal(t, "/metrics", prom.ScrapeConfigs[0].MetricsPath)
	require.Equal(t, []string{"journal:8080"}, prom.ScrapeConfigs[0].StaticConfigs[0].Targets)

	g := c.Services["grafana"]
	prov, _, ok := mount(g.Volumes, "/etc/grafana/provisioning")
	require.True(t, ok)
	var ds struct {
		Datasources []struct {
			Type      string `yaml:"type"`
			URL       string `yaml:"url"`
			IsDefault bool   `yaml:"isDefault"`
		} `yaml:"datasources"`
	}
	b, err = os.ReadFile(filepath.Join("..", "..", prov, "datasources", "prometheus.yml"))
	require.NoError(t, err)
	require.NoError(t, yaml.Unmarshal(b, &ds))
	require.Equal(t, "prometheus", ds.Datasources[0].Type)
	require.Equal(t, "http://prometheus:9090", ds.Datasources[0].URL)
	require.True(t, ds.Datasources[0].IsDefault, "the dashboard's DS_PROMETHEUS variable picks the default")
	require.Contains(t, strings.Join(c.Services["prometheus"].Ports, " "), ":9090")
	var dp struct {
		Providers []struct {
			Options struct {
				Path string `yaml:"path"`
			} `yaml:"options"`
		} `yaml:"providers"`
	}
	b, err = os.ReadFile(filepath.Join("..", "..", prov, "dashboards", "journal.yml"))
	require.NoError(t, err)
	require.NoError(t, yaml.Unmarshal(b, &dp))
	dash, _, ok := mount(g.Volumes, dp.Providers[0].Options.Path+"/journal-dashboard.json")
	require.True(t, ok, "the dashboard is not mounted where the provider reads")
	require.Equal(t, "./grafana/journal-dashboard.json", dash)
	require.Equal(t, dp.Providers[0].Options.Path+"/journal-dashboard.json", g.Environment["GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH"])
}

// TestComposeAccessScript runs deploy/compose-access.sh as the compose
// file's access service does, with this test binary as `journal`: the first
// start makes the journal's user (password in a file, never printed) and
// prints a GM's and a dashboard's credentials once; later starts keep
// them; a command given to it adds a player; every run writes the NATS
// authorization, which a nats-server accepts: the journal's password from
// the file signs in, nobody signs in anonymously.
func TestComposeAccessScript(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	self, err := os.Executable()
	require.NoError(t, err)
	bin := t.TempDir()
	require.NoError(t, os.Symlink(self, filepath.Join(bin, "journal")))
	dir := t.TempDir()
	script, err := filepath.Abs(filepath.Join("..", "..", "deploy", "compose-access.sh"))
	require.NoError(t, err)
	runScript := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(sh, append([]string{script}, args...)...)
		cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
			"JOURNAL_TEST_IS_JOURNAL=1", "JOURNAL_ACCESS_DIR="+dir, "JOURNAL_GM=ana", "JOURNAL_GM_CAMPAIGN=mordor", "JOURNAL_ACCESS=")
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
		return string(out)
	}

	first := runScript()
	for _, f := range []string{"access.json", "journal.password", "auth.conf"} {
		fi, err := os.Stat(filepath.Join(dir, f))
		require.NoError(t, err)
		require.Equal(t, os.FileMode(0o600), fi.Mode().Perm(), f)
	}
	pw, err := os.ReadFile(filepath.Join(dir, "journal.password"))
	require.NoError(t, err)
	jpw := strings.TrimSpace(string(pw))
	require.Len(t, jpw, 48)
	require.NotContains(t, first, jpw, "the journal's own password is printed")
	require.Regexp(t, `NATS: user ana, password [0-9a-f]{48}`, first)
	require.Regexp(t, `added "wall" \(dashboard of campaign mordor\)[^\n]*\n  HTTP: Authorization: Bearer [0-9a-f]{48}`, first)
	cfg, err := access.Load(filepath.Join(dir, "access.json"))
	require.NoError(t, err)
	require.Len(t, cfg.Users, 3)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 3, "temporary files left behind")

	accessBefore, err := os.ReadFile(filepath.Join(dir, "access.json"))
	require.NoError(t, err)
	again := runScript()
	require.NotContains(t, again, "Bearer", "a later start prints credentials again")
	accessAfter, err := os.ReadFile(filepath.Join(dir, "access.json"))
	require.NoError(t, err)
	require.Equal(t, string(accessBefore), string(accessAfter), "a later start changed the credentials")

	out := runScript("access", "add", "bea", "--role", "player", "--campaign", "mordor", "--character", "lodin")
	require.Regexp(t, `NATS: user bea, password ([0-9a-f]{48})`, out)
	beaPW := regexp.MustCompile(`NATS: user bea, password ([0-9a-f]{48})`).FindStringSubmatch(out)[1]

	url := startConfigServer(t, dir, filepath.Join(dir, "auth.conf"))
	connect := func(user, password string) error {
		opts := []nats.Option{nats.MaxReconnects(0)}
		if user != "" {
			opts = append(opts, nats.UserInfo(user, password))
		}
		nc, err := nats.Connect(url, opts...)
		if err == nil {
			nc.Close()
		}
		return err
	}
	require.NoError(t, connect("journal", jpw), "the journal service's password")
	require.NoError(t, connect("bea", beaPW), "the player added through the script")
	require.Error(t, connect("", ""), "anonymous")
	require.Error(t, connect("journal", "journal-change-me"), "the example password")
}

// TestSystemdUnits: the units' journal command lines are ones the journal
// accepts, serve listens on the loopback interface only, and the
// hardening the recipe promises is there.
func TestSystemdUnits(t *testing.T) {
	read := func(name string) map[string][]string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join("..", "..", "deploy", name))
		require.NoError(t, err)
		kv := map[string][]string{}
		for _, l := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(l, "="); ok && !strings.HasPrefix(l, "#") {
				kv[k] = append(kv[k], v)
			}
		}
		return kv
	}
	svc := read("journal.service")
	require.Equal(t, []string{"journal"}, svc["User"])
	require.Equal(t, []string{"journal"}, svc["StateDirectory"])
	for k, v := range map[string]string{"NoNewPrivileges": "yes", "ProtectSystem": "strict", "ReadWritePaths": "/var/lib/journal", "Restart": "on-failure", "PrivateTmp": "yes", "ProtectHome": "yes"} {
		require.Equal(t, []string{v}, svc[k], k)
	}
	require.Contains(t, svc["Environment"], "JOURNAL_DATA=/var/lib/journal/data")
	env := unitEnvironment(svc)
	require.Len(t, svc["ExecStart"], 1)
	raw := svc["ExecStart"][0]
	exe := strings.Fields(expandUnitVars(t, raw, env))
	require.Equal(t, "/usr/local/bin/journal", exe[0])
	cmd := requireJournalArgs(t, "journal.service", exe[1:])
	require.Equal(t, "serve", cmd.Name())
	httpAddr := cmd.Flags().Lookup("http").Value.String()
	host, _, err := net.SplitHostPort(httpAddr)
	require.NoError(t, err)
	require.True(t, net.ParseIP(host).IsLoopback(), "serve listens on %s: the proxy is the one facing the world", httpAddr)

	// Behind the proxy every request's Host is the public name: without
	// --public-host serve answers 421 to all of them. The name is set in
	// one place, the placeholder the docs tell the GM to replace.
	hosts, err := cmd.Flags().GetStringSlice("public-host")
	require.NoError(t, err)
	require.Equal(t, []string{placeholderHost}, hosts, "journal.service: serve needs --public-host behind the proxy")
	require.Contains(t, raw, "--public-host ${JOURNAL_PUBLIC_HOST}")
	require.Equal(t, placeholderHost, env["JOURNAL_PUBLIC_HOST"])
	unit, err := os.ReadFile(filepath.Join("..", "..", "deploy", "journal.service"))
	require.NoError(t, err)
	require.Equal(t, 1, strings.Count(string(unit), "\nEnvironment=JOURNAL_PUBLIC_HOST="), "one line to change")
	vps, err := os.ReadFile(filepath.Join("..", "..", "docs", "vps.md"))
	require.NoError(t, err)
	require.Contains(t, string(vps), "JOURNAL_PUBLIC_HOST", "docs/vps.md tells the GM where the name goes")

	backup := read("journal-backup.service")
	require.Equal(t, []string{"oneshot"}, backup["Type"])
	require.Equal(t, []string{"journal"}, backup["User"])
	for _, e := range []string{"JOURNAL_DATA", "JOURNAL_ACCESS"} {
		require.Equal(t, env[e], unitEnvironment(backup)[e], "the backup must reach the same journal as serve (%s)", e)
	}
	require.Subset(t, svc["Environment"], backup["Environment"], "the backup must reach the same journal as serve")
	m := regexp.MustCompile(`exec /usr/local/bin/journal (\S+) "(/var/backups/journal/[^"]+)"`).FindStringSubmatch(backup["ExecStart"][0])
	require.NotNil(t, m, backup["ExecStart"][0])
	requireJournalArgs(t, "journal-backup.service", []string{m[1], m[2]})
	require.Contains(t, backup["ReadWritePaths"][0], "/var/backups/journal")
	timer := read("journal-backup.timer")
	require.Equal(t, []string{"true"}, timer["Persistent"])
	require.NotEmpty(t, timer["OnCalendar"])
}

// placeholderHost is the public name the shipped files carry, for the GM
// to replace with theirs (docs/vps.md §1, §3).
const placeholderHost = "journal.example.org"

// unitEnvironment is the variables a unit's Environment= lines set.
func unitEnvironment(kv map[string][]string) map[string]string {
	env := map[string]string{}
	for _, e := range kv["Environment"] {
		for _, f := range strings.Fields(e) {
			if k, v, ok := strings.Cut(f, "="); ok {
				env[k] = v
			}
		}
	}
	return env
}

// expandUnitVars expands ${NAME} in a unit's command line as systemd does
// from the unit's environment; a variable it does not set fails the test.
func expandUnitVars(t *testing.T, line string, env map[string]string) string {
	t.Helper()
	return regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`).ReplaceAllStringFunc(line, func(m string) string {
		name := m[2 : len(m)-1]
		v, ok := env[name]
		require.True(t, ok, "%s: ${%s} is not set by the unit", line, name)
		return v
	})
}

// TestBackupExtension: a backup file has one extension everywhere a file
// name is given to journal backup or restore, or a cleanup finds old
// ones: .jbk (the README's, the help's examples').
func TestBackupExtension(t *testing.T) {
	files := []string{"README.md", "docs/vps.md", "deploy/journal-backup.service", "helptopics/topics/examples.txt"}
	cmdLine := regexp.MustCompile(`journal\S*(?: [^\n]*)? (?:backup|restore) |-name '`)
	named := regexp.MustCompile(`[\w%)*}-]\.([a-z][a-z0-9]{1,5})\b`)
	notBackups := map[string]bool{"key": true, "json": true, "service": true, "timer": true, "conf": true, "password": true, "md": true, "go": true}
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join("..", "..", f))
		require.NoError(t, err)
		n := 0
		for i, l := range strings.Split(string(b), "\n") {
			if !cmdLine.MatchString(l) {
				continue
			}
			for _, m := range named.FindAllStringSubmatch(l, -1) {
				if notBackups[m[1]] {
					continue
				}
				require.Equal(t, "jbk", m[1], "%s:%d: a backup named .%s: %s", f, i+1, m[1], l)
				n++
			}
		}
		require.NotZero(t, n, "%s names no backup file", f)
		require.NotContains(t, string(b), ".jrnl", f)
	}
}

// TestProxyConfigs: the shipped proxy files pass the public name the
// unit's --public-host gives through in Host, to the address serve listens
// on, keep /metrics off the internet, and the nginx one needs no
// certificate (certbot --nginx adds it, after nginx -t has passed); the
// docs show these same files, in that order.
func TestProxyConfigs(t *testing.T) {
	read := func(name string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join("..", "..", name))
		require.NoError(t, err)
		return string(b)
	}
	nginx, caddy, vps := read("deploy/nginx-journal.conf"), read("deploy/Caddyfile"), read("docs/vps.md")
	for _, want := range []string{"listen 80;", "server_name " + placeholderHost + ";", "proxy_pass http://127.0.0.1:8080;",
		"proxy_set_header Host $host;", "location = /metrics { return 404; }", "proxy_buffering off;"} {
		require.Contains(t, nginx, want, "deploy/nginx-journal.conf")
	}
	for _, cert := range []string{"ssl_certificate", "443", "/etc/letsencrypt"} {
		require.NotContains(t, stripComments(nginx, "#"), cert, "deploy/nginx-journal.conf needs a certificate before certbot has made one")
	}
	for _, want := range []string{placeholderHost + " {", "reverse_proxy 127.0.0.1:8080", "handle /metrics {\n\t\trespond 404"} {
		require.Contains(t, caddy, want, "deploy/Caddyfile")
	}

	// The docs' blocks are the shipped files (comments aside).
	for lang, shipped := range map[string]string{"nginx": nginx, "caddy": caddy} {
		m := regexp.MustCompile("(?s)```"+lang+"\n(.*?)```").FindAllStringSubmatch(vps, -1)
		require.Len(t, m, 1, "docs/vps.md shows one %s block", lang)
		require.Equal(t, stripComments(shipped, "#"), stripComments(m[0][1], "#"), "docs/vps.md's %s block is not the shipped file", lang)
	}
	// nginx -t before certbot, and the file installed before either.
	sec := vps[strings.Index(vps, "**nginx**"):]
	sh := regexp.MustCompile("(?s)```sh\n(.*?)```").FindStringSubmatch(sec)
	require.NotNil(t, sh)
	install, test, certbot := strings.Index(sh[1], "deploy/nginx-journal.conf"), strings.Index(sh[1], "nginx -t"), strings.Index(sh[1], "certbot --nginx")
	require.True(t, install >= 0 && install < test && test < certbot, "docs/vps.md: install the file, nginx -t, then certbot --nginx:\n%s", sh[1])
}

// stripComments drops the comment lines and blank lines of a
// configuration and trims the others.
func stripComments(s, mark string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, mark) {
			continue
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// toolOrSkip finds a tool the deploy files are checked with, or skips
// with what to install.
func toolOrSkip(t *testing.T, name, pkg string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s is not installed (Debian: apt-get install %s): not checked with it", name, pkg)
	}
	return p
}

// runTool runs a checking tool and fails with its output unless it exits
// 0 with nothing on stderr that names a problem.
func runTool(t *testing.T, cmd *exec.Cmd) string {
	t.Helper()
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	require.NoError(t, err, "%s:\n%s%s", strings.Join(cmd.Args, " "), out.String(), errb.String())
	return out.String() + errb.String()
}

// TestDeployFilesWithTheirTools renders the shipped units and proxy files
// and checks each with its own tool, where installed: systemd-analyze
// verify on the three units (with the journal's binary where they name
// /usr/local/bin/journal: verify wants it to exist), nginx -t on a main
// configuration that includes deploy/nginx-journal.conf as Debian's
// sites-enabled does, and caddy validate on deploy/Caddyfile.
func TestDeployFilesWithTheirTools(t *testing.T) {
	deploy := filepath.Join("..", "..", "deploy")
	t.Run("systemd", func(t *testing.T) {
		analyze := toolOrSkip(t, "systemd-analyze", "systemd")
		self, err := os.Executable()
		require.NoError(t, err)
		dir := t.TempDir()
		bin := filepath.Join(dir, "bin", "journal")
		require.NoError(t, os.MkdirAll(filepath.Dir(bin), 0o755))
		require.NoError(t, os.Symlink(self, bin))
		var units []string
		for _, name := range []string{"journal.service", "journal-backup.service", "journal-backup.timer"} {
			b, err := os.ReadFile(filepath.Join(deploy, name))
			require.NoError(t, err)
			rendered := strings.ReplaceAll(string(b), "/usr/local/bin/journal", bin)
			p := filepath.Join(dir, name)
			require.NoError(t, os.WriteFile(p, []byte(rendered), 0o644))
			units = append(units, p)
		}
		out := runTool(t, exec.Command(analyze, append([]string{"verify", "--man=no"}, units...)...))
		for _, l := range strings.Split(out, "\n") {
			for _, name := range []string{"journal.service", "journal-backup.service", "journal-backup.timer"} {
				require.NotContains(t, l, name, "systemd-analyze verify warns about the unit")
			}
		}
	})
	t.Run("nginx", func(t *testing.T) {
		nginx := toolOrSkip(t, "nginx", "nginx")
		site, err := filepath.Abs(filepath.Join(deploy, "nginx-journal.conf"))
		require.NoError(t, err)
		dir := t.TempDir()
		conf := filepath.Join(dir, "nginx.conf")
		// What /etc/nginx/nginx.conf has around sites-enabled, with every
		// file it writes in dir (nginx -t opens them, as whatever user).
		main := "pid " + dir + "/nginx.pid;\nerror_log " + dir + "/error.log;\nevents {}\nhttp {\n" +
			"    access_log off;\n"
		for _, tmp := range []string{"client_body", "proxy", "fastcgi", "uwsgi", "scgi"} {
			main += "    " + tmp + "_temp_path " + dir + "/" + tmp + ";\n"
		}
		main += "    include " + site + ";\n}\n"
		require.NoError(t, os.WriteFile(conf, []byte(main), 0o644))
		out := runTool(t, exec.Command(nginx, "-t", "-p", dir, "-e", filepath.Join(dir, "error.log"), "-c", conf))
		require.Contains(t, out, "test is successful")
		require.NotContains(t, out, "[warn]", "nginx -t warns")
	})
	t.Run("caddy", func(t *testing.T) {
		caddy := toolOrSkip(t, "caddy", "caddy")
		file, err := filepath.Abs(filepath.Join(deploy, "Caddyfile"))
		require.NoError(t, err)
		home := t.TempDir()
		cmd := exec.Command(caddy, "validate", "--config", file, "--adapter", "caddyfile")
		cmd.Env = append(os.Environ(), "HOME="+home, "XDG_DATA_HOME="+home, "XDG_CONFIG_HOME="+home)
		out := runTool(t, cmd)
		require.Contains(t, out, "Valid configuration")
		require.NotContains(t, out, "not formatted", "caddy fmt would change deploy/Caddyfile")
	})
}

// TestDockerfileCACertificates: the journal's runtime image has the CA
// certificates Go's TLS reads on Linux (the drand beacon is fetched over
// HTTPS; debian:bookworm-slim has none): copied from the build stage, or
// installed from the distribution's package.
func TestDockerfileCACertificates(t *testing.T) {
	const bundle = "/etc/ssl/certs/ca-certificates.crt" // the first file crypto/x509 tries on Linux
	j := readDockerfile(t)["journal"]
	copied := slices.ContainsFunc(j.get("COPY"), func(c string) bool {
		f := strings.Fields(c)
		return len(f) == 3 && f[0] == "--from=build" && f[1] == bundle && (f[2] == bundle || f[2] == "/etc/ssl/certs/")
	})
	installed := slices.ContainsFunc(j.get("RUN"), func(r string) bool {
		return regexp.MustCompile(`apt-get install\b[^&;]*\bca-certificates\b`).MatchString(r)
	})
	require.True(t, copied || installed, "the journal's image has no CA certificates: HTTPS (the drand beacon) fails in it")
}
