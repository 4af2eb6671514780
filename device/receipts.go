package device

import (
	"bufio"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// Receipts (docs/design.md §3.3, "Receipts"): a device keeps every message it
// signs, with its signature, so that it can check on every load that the
// record it is shown extends what it signed (receipts_check.go). The CLI
// keeps them in its configuration folder, one append-only JSON Lines file
// per campaign: <config>/receipts/<campaign>.jsonl (file 0600, folder
// 0700), one Receipt a line. The browser keeps the same objects in its
// IndexedDB ("journal-receipts") and downloads them in this format.
//
// Invariants: a receipt is appended (and synced) before its message is
// sent, so a message the journal may have recorded is always kept; lines
// are never rewritten; a line that does not decode is an error on load,
// never skipped silently.

// Receipt is one kept message: who signed it with which key, the signed
// string and its signature exactly as sent, and when.
type Receipt struct {
	Campaign  string    `json:"campaign"`
	User      string    `json:"user"`
	PublicKey string    `json:"public_key"`
	Signed    string    `json:"signed"`
	Signature string    `json:"signature"`
	Time      time.Time `json:"time"`
}

// ReceiptsDir returns the receipts folder: $JOURNAL_CONFIG/receipts if
// getenv gives it, else os.UserConfigDir()/journal/receipts.
func ReceiptsDir(getenv func(string) string) (string, error) {
	if dir := getenv(EnvConfig); dir != "" {
		return filepath.Join(dir, "receipts"), nil
	}
	base, err := os.UserConfigDir()
	if err != nil {
		return "", msgerr.Errorf("receipts: no configuration folder (set $%s): %w", EnvConfig, err)
	}
	return filepath.Join(base, "journal", "receipts"), nil
}

// ReceiptStore is a folder of receipt files.
type ReceiptStore struct{ dir string }

// NewReceiptStore returns the receipts of folder dir (ReceiptsDir); the
// folder is made with the first receipt.
func NewReceiptStore(dir string) ReceiptStore { return ReceiptStore{dir: dir} }

// Path is the receipt file of campaign.
func (s ReceiptStore) Path(campaign string) (string, error) {
	if err := events.ValidID(campaign); err != nil {
		return "", msgerr.Errorf("receipts: campaign %q: %w", campaign, err)
	}
	return filepath.Join(s.dir, campaign+".jsonl"), nil
}

// Append keeps r in its campaign's file, synced before it returns.
func (s ReceiptStore) Append(r Receipt) error {
	path, err := s.Path(r.Campaign)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return msgerr.Errorf("receipts: %w", err)
	}
	line, err := json.Marshal(r)
	if err != nil {
		return msgerr.Errorf("receipts: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return msgerr.Errorf("receipts: %w", err)
	}
	if _, err := f.Write(append(line, '\n')); err != nil {
		f.Close()
		return msgerr.Errorf("receipts: write %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return msgerr.Errorf("receipts: sync %s: %w", path, err)
	}
	return f.Close()
}

// Load returns the receipts kept for campaign, oldest first (none: no file).
func (s ReceiptStore) Load(campaign string) ([]Receipt, error) {
	path, err := s.Path(campaign)
	if err != nil {
		return nil, err
	}
	rs, err := ReadReceiptFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return rs, err
}

// ReadReceiptFile reads one receipt file.
func ReadReceiptFile(path string) ([]Receipt, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && runtime.GOOS != "windows" && fi.Mode().Perm()&0o022 != 0 {
		return nil, msgerr.Errorf("receipts: %s has mode %04o, writable by others; run `chmod 600 %s`", path, fi.Mode().Perm(), path)
	}
	var out []Receipt
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var r Receipt
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			return nil, msgerr.Errorf("receipts: %s line %d: %w", path, n, err)
		}
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		return nil, msgerr.Errorf("receipts: %s: %w", path, err)
	}
	return out, nil
}

// ReadReceiptDir reads every *.jsonl receipt file of dir (a folder the CLI
// kept, or receipts the browser downloaded), in name order.
func ReadReceiptDir(dir string) ([]Receipt, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, msgerr.Errorf("receipts: %s holds no receipt file (*.jsonl)", dir)
	}
	var out []Receipt
	for _, n := range names {
		rs, err := ReadReceiptFile(n)
		if err != nil {
			return nil, err
		}
		out = append(out, rs...)
	}
	return out, nil
}
