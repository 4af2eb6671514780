package device_test

import (
	"bytes"
	"crypto/rand"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/device"
)

func TestUserFolders(t *testing.T) {
	cfg := t.TempDir()
	getenv := func(k string) string {
		if k == device.EnvConfig {
			return cfg
		}
		return ""
	}
	st, err := device.UserStore(getenv)
	require.NoError(t, err)
	require.Equal(t, filepath.Join(cfg, "keys"), st.Dir())

	_, err = device.LoadUserKey(getenv, device.DefaultName)
	require.True(t, errors.Is(err, device.ErrNotFound), "%v", err)
	require.True(t, strings.HasSuffix(err.Error(), ": make one with 'journal key new' and register it with 'journal key register'"), "%v", err)

	k, err := st.New(device.DefaultName, device.NewOptions{Rand: rand.Reader})
	require.NoError(t, err)
	got, err := device.LoadUserKey(getenv, device.DefaultName)
	require.NoError(t, err)
	require.Equal(t, k.Fingerprint(), got.Fingerprint())

	rs, err := device.UserReceipts(getenv)
	require.NoError(t, err)
	p, err := rs.Path("mordor")
	require.NoError(t, err)
	require.Equal(t, filepath.Join(cfg, "receipts"), filepath.Dir(p))

	var b bytes.Buffer
	info := k.Info()
	info.WriteText(&b)
	require.Equal(t, "  fingerprint "+info.Fingerprint+"\n  public key  "+info.PublicKey+"\n", b.String())
}
