// Package backup writes a whole journal into one file — the event stream,
// the session secrets and the projection checkpoints, as JetStream stream
// snapshots — and restores such a file into a JetStream that holds no
// journal, embedded or a cluster (journal restore then audits what it
// restored: audit.Restored).
//
// A backup file is a tar archive:
//
//	manifest.json   what the file holds: format, time, the key's fingerprint,
//	                and for each part its stream, config, state (messages,
//	                first and last sequence), size and SHA-256
//	manifest.mac    hex HMAC-SHA256 of manifest.json under a key derived
//	                from the backup key
//	<stream>.snap   each stream's snapshot as the server wrote it
//	                (s2-compressed tar of its store), or, for the secrets,
//	                <stream>.snap.sealed: the snapshot encrypted with
//	                AES-256-GCM under a key derived from the backup key
//
// Invariants:
//   - The plaintext of a sealed part (the seeds of open sessions) is never
//     written to disk: it is sealed in memory, and opened in memory.
//   - A backup file appears whole or not at all (a temporary file in the
//     same folder, synced, renamed), mode 0600.
//   - Restore checks the whole file (every part's size and SHA-256, the
//     manifest's MAC, every sealed part opened) before it changes anything,
//     and restores only into streams that are absent, or hold no message
//     and have no consumer: it never deletes or replaces a message. A restore that fails part way
//     deletes the streams it created, and only those.
//   - The snapshots are taken in the order checkpoints, events, secrets:
//     a checkpoint never reaches past the events in the same file, and the
//     seed of every session the events start is in the file.
package backup

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/jetstore"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// Format is the version of the backup file's layout.
const Format = 1

// Kind names a journal backup in its manifest.
const Kind = "campaign-journal-backup"

// Names inside the archive.
const (
	ManifestFile = "manifest.json"
	MACFile      = "manifest.mac"
)

// maxSealed bounds a sealed part, which is sealed and opened in memory.
// The secrets bucket holds one small entry a session: far below it.
const maxSealed = 256 << 20

// maxManifest bounds the manifest a restore reads.
const maxManifest = 1 << 20

// Errors callers tell apart.
var (
	// ErrCorrupt: the file is not a whole, unaltered backup.
	ErrCorrupt = msgerr.New("backup file is corrupt")
	// ErrWrongKey: the key is not the one the backup was sealed with.
	ErrWrongKey = msgerr.New("wrong backup key")
	// ErrNoKey: no key file where one was expected.
	ErrNoKey = msgerr.New("no backup key")
	// ErrInvalidKey: a key file that cannot be used.
	ErrInvalidKey = msgerr.New("invalid backup key")
	// ErrNotEmpty: the target already holds a journal.
	ErrNotEmpty = msgerr.New("the target journal is not empty")
)

// Spec names a stream a backup holds.
type Spec struct {
	Stream string
	// Sealed parts are encrypted under the backup key.
	Sealed bool
	// Optional streams are left out of the backup when absent.
	Optional bool
}

// JournalStreams returns the journal's streams in the order a backup takes
// them: the checkpoints (optional: serve rebuilds them), the events, the
// secrets (sealed); for a journal of one partition (see PartitionedStreams).
func JournalStreams() []Spec { return PartitionedStreams(1) }

// PartitionedStreams is JournalStreams for a journal of k partitions: the
// events are the k streams JOURNAL-0 … JOURNAL-<k-1> (jetstore.StreamNames),
// each restored with its configuration, k in its metadata included.
func PartitionedStreams(k int) []Spec {
	specs := []Spec{{Stream: "KV_" + jetstore.CheckpointsBucket, Optional: true}}
	for _, name := range jetstore.StreamNames(k) {
		specs = append(specs, Spec{Stream: name})
	}
	return append(specs, Spec{Stream: "KV_" + jetstore.SecretsBucket, Sealed: true})
}

// journalPartitions returns the number of partitions of the journal nc
// reaches: the streams JOURNAL-0, JOURNAL-1 … present in a row, or 1.
func journalPartitions(ctx context.Context, nc *nats.Conn, prefix string) (int, error) {
	k := 0
	for ; k < events.MaxPartitions; k++ {
		err := streamExists(ctx, nc, prefix, jetstore.PartitionStream(k))
		if errors.Is(err, errNoStream) {
			break
		}
		if err != nil {
			return 0, err
		}
	}
	return max(k, 1), nil
}

// archivePartitions checks that a manifest holds the events of a journal
// of one partition (JOURNAL) or of k (JOURNAL-0 … JOURNAL-<k-1>, all of
// them), not both, and returns k.
func archivePartitions(m *Manifest) (int, error) {
	corrupt := fmt.Errorf // Open names the file
	k := 0
	for m.Part(jetstore.PartitionStream(k)) != nil {
		k++
	}
	for _, p := range m.Parts {
		if n, ok := strings.CutPrefix(p.Stream, jetstore.StreamName+"-"); ok {
			if i, err := strconv.Atoi(n); err == nil && i >= k {
				return 0, corrupt("it holds stream %s but not %s", p.Stream, jetstore.PartitionStream(k))
			}
		}
	}
	one := m.Part(jetstore.StreamName) != nil
	switch {
	case one && k > 0:
		return 0, corrupt("it holds both %s and %s", jetstore.StreamName, jetstore.PartitionStream(0))
	case one:
		return 1, nil
	case k == 1:
		return 0, corrupt("it holds %s alone: a journal of partitions has two at least", jetstore.PartitionStream(0))
	case k == 0:
		return 0, corrupt("it holds no %s stream", jetstore.StreamName)
	}
	return k, nil
}

// Manifest describes a backup file.
type Manifest struct {
	Format  int       `json:"format"`
	Kind    string    `json:"kind"`
	Version string    `json:"journal_version,omitempty"`
	Created time.Time `json:"created"`
	// KeyFingerprint names the key that sealed the sealed parts and the
	// manifest's MAC.
	KeyFingerprint string `json:"key_fingerprint"`
	Parts          []Part `json:"parts"`
}

// Part is one stream's snapshot in a backup file.
type Part struct {
	File   string `json:"file"`
	Stream string `json:"stream"`
	Sealed bool   `json:"sealed,omitempty"`
	// Messages, FirstSeq and LastSeq are the stream's state when its
	// snapshot began; a snapshot of a journal in use may hold more.
	Messages uint64 `json:"messages"`
	FirstSeq uint64 `json:"first_seq"`
	LastSeq  uint64 `json:"last_seq"`
	// Size and SHA256 are those of the part's bytes in the archive.
	Size   int64           `json:"size"`
	SHA256 string          `json:"sha256"`
	Config json.RawMessage `json:"config"`
	State  json.RawMessage `json:"state"`
}

// Part returns the part of stream, or nil.
func (m *Manifest) Part(stream string) *Part {
	for i := range m.Parts {
		if m.Parts[i].Stream == stream {
			return &m.Parts[i]
		}
	}
	return nil
}

// Options configure Write and Restore.
type Options struct {
	// Prefix is the JetStream API prefix; empty means $JS.API.
	Prefix string
	// Streams are what Write backs up; nil means JournalStreams().
	Streams []Spec
	// Rand draws the seal's nonces; nil means crypto/rand.
	Rand io.Reader
	// Now stamps the manifest; nil means time.Now.
	Now func() time.Time
	// Version is the journal's version, recorded in the manifest.
	Version string
	// Progress receives a line per part; nil is quiet.
	Progress io.Writer
	// Replicas of the restored streams: 1 on an embedded server, 3 on a
	// cluster; 0 keeps the backup's.
	Replicas int
}

func (o Options) prefix() string {
	if o.Prefix == "" {
		return jetstream.DefaultAPIPrefix
	}
	return o.Prefix
}

func (o Options) progress(format string, args ...any) {
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, format+"\n", args...)
	}
}

// hashWriter counts and hashes what passes through it.
type hashWriter struct {
	w io.Writer
	h hash.Hash
	n int64
}

func (h *hashWriter) Write(b []byte) (int, error) {
	n, err := h.w.Write(b)
	h.h.Write(b[:n])
	h.n += int64(n)
	return n, err
}

// Write backs up the streams of opts (the journal's, by default) over nc
// into a new file at path, replacing any file there only once the new one
// is whole. key seals the sealed parts and the manifest.
func Write(ctx context.Context, nc *nats.Conn, key *Key, path string, opts Options) (*Manifest, error) {
	if key == nil {
		return nil, msgerr.Errorf("%w: a backup needs a key", ErrNoKey)
	}
	specs := opts.Streams
	if specs == nil {
		k, err := journalPartitions(ctx, nc, opts.prefix())
		if err != nil {
			return nil, msgerr.Errorf("backup: %w", err)
		}
		specs = PartitionedStreams(k)
	}
	rnd := opts.Rand
	if rnd == nil {
		rnd = rand.Reader
	}
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	dir := filepath.Dir(path)
	tmpDir, err := os.MkdirTemp(dir, "."+filepath.Base(path)+".parts-")
	if err != nil {
		return nil, msgerr.Errorf("backup: %w", err)
	}
	defer os.RemoveAll(tmpDir)

	m := &Manifest{Format: Format, Kind: Kind, Version: opts.Version, Created: now().UTC(), KeyFingerprint: key.Fingerprint()}
	for _, spec := range specs {
		if err := streamExists(ctx, nc, opts.prefix(), spec.Stream); err != nil {
			if errors.Is(err, errNoStream) && spec.Optional {
				opts.progress("backup: %s: absent, left out", spec.Stream)
				continue
			}
			return nil, msgerr.Errorf("backup: %w", err)
		}
		p, err := writePart(ctx, nc, key, rnd, tmpDir, spec, opts)
		if err != nil {
			return nil, msgerr.Errorf("backup: %w", err)
		}
		m.Parts = append(m.Parts, p)
		opts.progress("backup: %s: %s, last sequence %d, %d bytes", p.Stream, Messages(p.Messages), p.LastSeq, p.Size)
	}
	manifest, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := writeArchive(path, tmpDir, m, manifest, []byte(hex.EncodeToString(key.mac(manifest))+"\n")); err != nil {
		return nil, msgerr.Errorf("backup: %w", err)
	}
	return m, nil
}

// writePart snapshots one stream into a file of tmpDir, sealed in memory
// first if the spec says so.
func writePart(ctx context.Context, nc *nats.Conn, key *Key, rnd io.Reader, tmpDir string, spec Spec, opts Options) (Part, error) {
	p := Part{Stream: spec.Stream, File: spec.Stream + ".snap", Sealed: spec.Sealed}
	if spec.Sealed {
		p.File += ".sealed"
	}
	f, err := os.OpenFile(filepath.Join(tmpDir, p.File), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return p, err
	}
	defer f.Close()
	hw := &hashWriter{w: f, h: sha256.New()}
	if spec.Sealed {
		var plain limitedBuffer
		plain.max = maxSealed
		if p.Config, p.State, err = snapshot(ctx, nc, opts.prefix(), spec.Stream, &plain); err != nil {
			return p, err
		}
		sealed, err := key.seal(p.File, plain.Bytes(), rnd)
		clear(plain.Bytes())
		if err != nil {
			return p, err
		}
		if _, err := hw.Write(sealed); err != nil {
			return p, err
		}
	} else if p.Config, p.State, err = snapshot(ctx, nc, opts.prefix(), spec.Stream, hw); err != nil {
		return p, err
	}
	var st streamState
	if err := json.Unmarshal(p.State, &st); err != nil {
		return p, msgerr.Errorf("snapshot of %s: its state is not JSON: %w", spec.Stream, err)
	}
	p.Messages, p.FirstSeq, p.LastSeq = st.Msgs, st.FirstSeq, st.LastSeq
	p.Size, p.SHA256 = hw.n, hex.EncodeToString(hw.h.Sum(nil))
	return p, f.Close()
}

// limitedBuffer is a bytes.Buffer that refuses to grow past max.
type limitedBuffer struct {
	bytes.Buffer
	max int
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if b.Len()+len(p) > b.max {
		return 0, msgerr.Errorf("a sealed part may hold at most %d bytes", b.max)
	}
	return b.Buffer.Write(p)
}

// writeArchive assembles the tar at path atomically.
func writeArchive(path, tmpDir string, m *Manifest, manifest, mac []byte) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err := f.Chmod(0o600); err != nil {
		return err
	}
	tw := tar.NewWriter(f)
	add := func(name string, size int64, r io.Reader) error {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o600, Size: size, ModTime: m.Created.Truncate(time.Second), Format: tar.FormatUSTAR}); err != nil {
			return err
		}
		_, err := io.Copy(tw, r)
		return err
	}
	if err := add(ManifestFile, int64(len(manifest)), bytes.NewReader(manifest)); err != nil {
		return err
	}
	if err := add(MACFile, int64(len(mac)), bytes.NewReader(mac)); err != nil {
		return err
	}
	for _, p := range m.Parts {
		pf, err := os.Open(filepath.Join(tmpDir, p.File))
		if err != nil {
			return err
		}
		err = add(p.File, p.Size, pf)
		pf.Close()
		if err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return err
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}

var errNoStream = msgerr.New("no such stream")

// streamState returns the state of stream, or an error wrapping
// errNoStream.
func getState(ctx context.Context, nc *nats.Conn, prefix, stream string) (streamState, error) {
	var info struct {
		State streamState `json:"state"`
	}
	err := request(ctx, nc, prefix+"STREAM.INFO."+stream, nil, &info)
	var apiErr *apiError
	if errors.As(err, &apiErr) && apiErr.ErrCode == errCodeStreamNotFound {
		return streamState{}, msgerr.Errorf("stream %s: %w", stream, errNoStream)
	}
	if err != nil {
		return streamState{}, msgerr.Errorf("stream %s: %w", stream, err)
	}
	return info.State, nil
}

func streamExists(ctx context.Context, nc *nats.Conn, prefix, stream string) error {
	_, err := getState(ctx, nc, prefix, stream)
	return err
}

// Archive is a backup file whose every part was checked by Open.
type Archive struct {
	path     string
	Manifest Manifest
	// opened holds the sealed parts' plaintext, by file name; empty once
	// LeaveSecretsOut.
	opened map[string][]byte
}

// Open reads and checks the whole backup file at path: its manifest, the
// manifest's MAC under key, each part's size and SHA-256, and opens the
// sealed parts. The key is needed: without the MAC, whoever can write the
// file can change the manifest and its parts together (LeaveSecretsOut
// restores without the sealed parts, checked all the same).
func Open(path string, key *Key) (*Archive, error) {
	if key == nil {
		return nil, msgerr.Errorf("%w: checking %s's manifest (its MAC) needs the key it was written with", ErrNoKey, path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, msgerr.Errorf("backup file: %w", err)
	}
	defer f.Close()
	corrupt := func(format string, args ...any) error {
		return msgerr.Errorf("%w: %s: %s", ErrCorrupt, path, msgerr.Errorf(format, args...))
	}
	tr := tar.NewReader(f)
	next := func(want string) (*tar.Header, error) {
		h, err := tr.Next()
		if err == io.EOF {
			return nil, corrupt("it ends before %s (truncated?)", want)
		}
		if err != nil {
			return nil, corrupt("reading %s: %v (truncated or not a journal backup?)", want, err)
		}
		return h, nil
	}
	readSmall := func(want string) ([]byte, error) {
		h, err := next(want)
		if err != nil {
			return nil, err
		}
		if h.Name != want {
			return nil, corrupt("found %q where %s should be: not a journal backup", h.Name, want)
		}
		b, err := io.ReadAll(io.LimitReader(tr, maxManifest+1))
		if err != nil {
			return nil, corrupt("reading %s: %v (truncated?)", want, err)
		}
		if len(b) > maxManifest {
			return nil, corrupt("%s is larger than %d bytes", want, maxManifest)
		}
		return b, nil
	}
	manifest, err := readSmall(ManifestFile)
	if err != nil {
		return nil, err
	}
	a := &Archive{path: path, opened: map[string][]byte{}}
	if err := json.Unmarshal(manifest, &a.Manifest); err != nil {
		return nil, corrupt("its manifest is not JSON: %v", err)
	}
	m := &a.Manifest
	if m.Kind != Kind {
		return nil, corrupt("its manifest is not a journal backup's (kind %q)", m.Kind)
	}
	if m.Format != Format {
		return nil, msgerr.Errorf("backup file %s has format %d; this journal reads format %d", path, m.Format, Format)
	}
	mac, err := readSmall(MACFile)
	if err != nil {
		return nil, err
	}
	got, err := hex.DecodeString(string(bytes.TrimSpace(mac)))
	if err != nil || !hmac.Equal(got, key.mac(manifest)) {
		if fp := key.Fingerprint(); !SameFingerprint(fp, m.KeyFingerprint) {
			return nil, msgerr.Errorf("%w: %s was sealed with the key of fingerprint %s; the key given has fingerprint %s", ErrWrongKey, path, m.KeyFingerprint, fp)
		}
		return nil, corrupt("its manifest does not match its MAC: it was altered")
	}
	seen := map[string]bool{}
	for _, p := range m.Parts {
		if seen[p.File] || p.File == ManifestFile || p.File == MACFile {
			return nil, corrupt("its manifest names %s twice", p.File)
		}
		seen[p.File] = true
		h, err := next(p.File)
		if err != nil {
			return nil, err
		}
		if h.Name != p.File {
			return nil, corrupt("found %q where %s should be", h.Name, p.File)
		}
		if h.Size != p.Size {
			return nil, corrupt("%s is %d bytes; the manifest says %d", p.File, h.Size, p.Size)
		}
		hw := &hashWriter{w: io.Discard, h: sha256.New()}
		var sealed bytes.Buffer
		if p.Sealed {
			if p.Size > maxSealed+1024 {
				return nil, corrupt("sealed part %s is %d bytes, more than a backup writes", p.File, p.Size)
			}
			hw.w = &sealed
		}
		if _, err := io.Copy(hw, tr); err != nil {
			return nil, corrupt("reading %s: %v (truncated?)", p.File, err)
		}
		if got := hex.EncodeToString(hw.h.Sum(nil)); hw.n != p.Size || got != p.SHA256 {
			return nil, corrupt("%s does not match its SHA-256 in the manifest", p.File)
		}
		if p.Sealed {
			plain, err := key.open(p.File, sealed.Bytes())
			if err != nil {
				return nil, msgerr.Errorf("%s: %w", path, err)
			}
			a.opened[p.File] = plain
		}
	}
	if _, err := tr.Next(); err != io.EOF {
		return nil, corrupt("it holds more than its manifest names")
	}
	if _, err := archivePartitions(m); err != nil {
		return nil, corrupt("%v", err)
	}
	return a, nil
}

// LeaveSecretsOut makes Restore leave the sealed parts out (the events
// restore; the seeds of the sessions open at the time of the backup do
// not). Open checked them all the same.
func (a *Archive) LeaveSecretsOut() { clear(a.opened) }

// Restored is what Restore put back for one part.
type Restored struct {
	Stream   string
	Messages uint64
	LastSeq  uint64
	// Skipped parts were sealed and left out (LeaveSecretsOut).
	Skipped bool
}

// Restore puts the archive's streams back over nc. Every stream it holds
// (and every stream of JournalStreams) must be absent or empty in the
// target, else it returns ErrNotEmpty and changes nothing; empty ones
// that nothing consumes are deleted and restored. On failure it deletes
// the streams it restored.
func (a *Archive) Restore(ctx context.Context, nc *nats.Conn, opts Options) (out []Restored, err error) {
	prefix := opts.prefix()
	check := slices.Clone(a.Manifest.Parts)
	// The journal's streams whatever its partitions: none may hold events.
	for _, s := range append(JournalStreams(), Spec{Stream: jetstore.PartitionStream(0)}) {
		if a.Manifest.Part(s.Stream) == nil {
			check = append(check, Part{Stream: s.Stream})
		}
	}
	var empties []string
	for _, p := range check {
		st, err := getState(ctx, nc, prefix, p.Stream)
		if errors.Is(err, errNoStream) {
			continue
		}
		if err != nil {
			return nil, msgerr.Errorf("restore: %w", err)
		}
		if st.Msgs > 0 || st.LastSeq > 0 {
			return nil, msgerr.Errorf("%w: stream %s holds %s (last sequence %d); restore only into an empty journal (a new --data folder, or a cluster without the journal's streams): nothing was changed",
				ErrNotEmpty, p.Stream, Messages(st.Msgs), st.LastSeq)
		}
		if a.Manifest.Part(p.Stream) == nil {
			continue
		}
		// An empty stream is deleted to make room, unless something
		// follows it (a journal serve, which could also write to it
		// between this check and the delete).
		if st.Consumers > 0 {
			return nil, msgerr.Errorf("%w: stream %s is empty but has %d consumers: stop the journal serve that uses it, then restore: nothing was changed",
				ErrNotEmpty, p.Stream, st.Consumers)
		}
		empties = append(empties, p.Stream)
	}
	for _, s := range empties {
		if err := request(ctx, nc, prefix+"STREAM.DELETE."+s, nil, nil); err != nil {
			return nil, msgerr.Errorf("restore: delete the empty stream %s: %w", s, err)
		}
	}

	var created []string
	defer func() {
		if err == nil {
			return
		}
		// Only streams this restore created whole: each was absent or empty
		// before, so deleting it loses nothing.
		for _, s := range created {
			_ = request(context.WithoutCancel(ctx), nc, prefix+"STREAM.DELETE."+s, nil, nil)
		}
	}()
	f, err := os.Open(a.path)
	if err != nil {
		return nil, msgerr.Errorf("restore: %w", err)
	}
	defer f.Close()
	tr := tar.NewReader(f)
	for range 2 { // manifest and MAC, checked by Open
		if _, err := tr.Next(); err != nil {
			return nil, msgerr.Errorf("restore: %w: %v", ErrCorrupt, err)
		}
	}
	for _, p := range a.Manifest.Parts {
		h, err := tr.Next()
		if err != nil || h.Name != p.File {
			return nil, msgerr.Errorf("restore: %w: %s changed since it was checked", ErrCorrupt, a.path)
		}
		var r io.Reader
		hw := &hashWriter{w: io.Discard, h: sha256.New()}
		if p.Sealed {
			plain, ok := a.opened[p.File]
			if !ok {
				out = append(out, Restored{Stream: p.Stream, Skipped: true})
				opts.progress("restore: %s: sealed, left out", p.Stream)
				continue
			}
			r = bytes.NewReader(plain)
		} else {
			r = io.TeeReader(tr, hw)
		}
		st, err := restore(ctx, nc, prefix, p.Stream, p.Config, p.State, opts.Replicas, r)
		if err != nil {
			// Not rolled back by this function: the stream may be someone
			// else's, created since the check (the server refuses to restore
			// over it); the server discards a restore it fails itself.
			return nil, msgerr.Errorf("restore: %w", err)
		}
		created = append(created, p.Stream)
		if !p.Sealed && hex.EncodeToString(hw.h.Sum(nil)) != p.SHA256 {
			return nil, msgerr.Errorf("restore: %w: %s changed since it was checked", ErrCorrupt, a.path)
		}
		if st.Msgs < p.Messages || st.LastSeq < p.LastSeq {
			return nil, msgerr.Errorf("restore: stream %s came back with %s (last sequence %d); the backup holds %d (last sequence %d)",
				p.Stream, Messages(st.Msgs), st.LastSeq, p.Messages, p.LastSeq)
		}
		out = append(out, Restored{Stream: p.Stream, Messages: st.Msgs, LastSeq: st.LastSeq})
		opts.progress("restore: %s: %s, last sequence %d", p.Stream, Messages(st.Msgs), st.LastSeq)
	}
	return out, nil
}

// Messages says "1 message" or "N messages".
func Messages(n uint64) string {
	if n == 1 {
		return "1 message"
	}
	return fmt.Sprintf("%d messages", n)
}
