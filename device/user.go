package device

import (
	"errors"
	"fmt"
	"io"

	"github.com/campaign-journal/journal/internal/msgerr"
)

// The user's own folders, as the CLI reads them: its device keys
// (DefaultDir) and its receipts (ReceiptsDir). getenv is os.Getenv in the
// binary (injected for tests).

// UserStore returns the store of the user's device keys (DefaultDir).
func UserStore(getenv func(string) string) (Store, error) {
	dir, err := DefaultDir(getenv)
	if err != nil {
		return Store{}, err
	}
	return NewStore(dir), nil
}

// LoadUserKey loads the user's device key called name (UserStore). A key
// not found says how to make one and register it (it still wraps
// ErrNotFound).
func LoadUserKey(getenv func(string) string, name string) (*Key, error) {
	st, err := UserStore(getenv)
	if err != nil {
		return nil, err
	}
	k, err := st.Load(name)
	if errors.Is(err, ErrNotFound) {
		return nil, msgerr.Errorf("%w: make one with 'journal key new' and register it with 'journal key register'", err)
	}
	return k, err
}

// UserReceipts returns the user's receipts folder (ReceiptsDir).
func UserReceipts(getenv func(string) string) (ReceiptStore, error) {
	dir, err := ReceiptsDir(getenv)
	if err != nil {
		return ReceiptStore{}, err
	}
	return NewReceiptStore(dir), nil
}

// WriteText writes the key's fingerprint and public key, one indented
// line each, as `journal key new` and `journal key show` print them.
func (info Info) WriteText(w io.Writer) {
	fmt.Fprintf(w, "  fingerprint %s\n  public key  %s\n", info.Fingerprint, info.PublicKey)
}
