package invite_test

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/invite"
)

func TestBook(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	path := filepath.Join(t.TempDir(), "access.json.devices.json")
	b := invite.Open(path, clock, nil)
	register := func(invite.Registration) (string, error) { return "fp", nil }

	for _, bad := range []invite.Spec{
		{User: "bea", Campaign: "mordor"},              // a player without a character
		{User: "bea", Role: "god", Campaign: "mordor"}, // no such role
		{User: "bea", Role: invite.RoleViewer, Campaign: "mordor", Characters: []string{"x"}},
		{User: "Bea Zed", Campaign: "mordor", Characters: []string{"x"}}, // not a slug
		{User: access.ReservedPrefix + "x", Campaign: "mordor", Characters: []string{"x"}},
		{User: "bea", Campaign: "", Characters: []string{"x"}},
	} {
		_, _, err := b.Create(ctx, bad)
		require.ErrorIs(t, err, invite.ErrInvalid, "%+v", bad)
	}
	f, err := b.Load(ctx)
	require.NoError(t, err)
	require.Empty(t, f.Invites, "a refused invite is not recorded")

	tok, inv, err := b.Create(ctx, invite.Spec{User: "bea", Campaign: "mordor", Characters: []string{"ruisenor"}, By: "ana", TTL: time.Hour})
	require.NoError(t, err)
	require.Equal(t, invite.RolePlayer, inv.Role)
	peek, err := b.Peek(ctx, tok)
	require.NoError(t, err)
	require.Equal(t, "bea", peek.User)

	// A refused registration leaves the invite unused.
	_, err = b.Redeem(ctx, tok, "k", "", func(invite.Registration) (string, error) { return "", errors.New("no") })
	require.Error(t, err)
	_, err = b.Peek(ctx, tok)
	require.NoError(t, err)

	// Two books on one file (two processes) redeem it once.
	other := invite.Open(path, clock, nil)
	var wg sync.WaitGroup
	errs := make([]error, 2)
	reds := make([]invite.Redeemed, 2)
	for i, bk := range []*invite.Book{b, other} {
		wg.Add(1)
		go func() { defer wg.Done(); reds[i], errs[i] = bk.Redeem(ctx, tok, "k", "", register) }()
	}
	wg.Wait()
	require.True(t, (errs[0] == nil) != (errs[1] == nil), "one redemption: %v", errs)
	for i, err := range errs {
		if err != nil {
			require.ErrorIs(t, err, invite.ErrUsed)
			continue
		}
		p, d, ok := other.ByToken(reds[i].Token)
		require.True(t, ok)
		require.Equal(t, access.Principal{Name: "bea", Role: access.RolePlayer, Campaign: "mordor", Characters: []string{"ruisenor"}}, p)
		require.NoError(t, b.Revoke(ctx, d.ID))
		_, _, ok = other.ByToken(reds[i].Token)
		require.False(t, ok, "a revoked device's token, seen by another book on the file")
	}

	late, _, err := b.Create(ctx, invite.Spec{User: "cai", Role: invite.RoleGM, Campaign: "mordor", TTL: time.Minute})
	require.NoError(t, err)
	mu.Lock()
	now = now.Add(time.Minute)
	mu.Unlock()
	_, err = b.Redeem(ctx, late, "k", "", register)
	require.ErrorIs(t, err, invite.ErrExpired)
	_, err = b.Redeem(ctx, "nothing", "k", "", register)
	require.ErrorIs(t, err, invite.ErrUnknown)
	require.ErrorIs(t, b.Revoke(ctx, "d-none"), invite.ErrUnknown)
}

// TestRedeemRetry: a client whose answer was lost redeems again with its
// retry key and gets its device back with a new token, registering
// nothing again; anyone else, another key, a revoked device or a late
// retry is refused as used.
func TestRedeemRetry(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	later := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	b := invite.Open(filepath.Join(t.TempDir(), "access.json.devices.json"), clock, nil)
	registered := 0
	register := func(invite.Registration) (string, error) { registered++; return "fp", nil }
	newInvite := func() string {
		tok, _, err := b.Create(ctx, invite.Spec{User: "bea", Campaign: "mordor", Characters: []string{"ruisenor"}, By: "ana", TTL: time.Hour})
		require.NoError(t, err)
		return tok
	}

	tok := newInvite()
	first, err := b.Redeem(ctx, tok, "k1", "retry-secret", register)
	require.NoError(t, err)
	require.Equal(t, 1, registered)

	for _, bad := range []struct{ what, key, retry string }{
		{"no retry key", "k1", ""},
		{"another retry key", "k1", "guess"},
		{"another public key", "k2", "retry-secret"},
	} {
		_, err := b.Redeem(ctx, tok, bad.key, bad.retry, register)
		require.ErrorIs(t, err, invite.ErrUsed, bad.what)
	}
	_, _, ok := b.ByToken(first.Token)
	require.True(t, ok, "refused retries leave the first token working")

	later(time.Minute)
	again, err := b.Redeem(ctx, tok, "k1", "retry-secret", register)
	require.NoError(t, err)
	require.Equal(t, 1, registered, "a retry registers nothing again")
	require.Equal(t, first.Device.ID, again.Device.ID)
	require.NotEqual(t, first.Token, again.Token)
	_, _, ok = b.ByToken(first.Token)
	require.False(t, ok, "the lost answer's token stops working")
	_, _, ok = b.ByToken(again.Token)
	require.True(t, ok)
	f, err := b.Load(ctx)
	require.NoError(t, err)
	require.Len(t, f.Devices, 1)

	later(invite.RetryWindow)
	_, err = b.Redeem(ctx, tok, "k1", "retry-secret", register)
	require.ErrorIs(t, err, invite.ErrUsed, "a retry after the window")

	tok = newInvite()
	red, err := b.Redeem(ctx, tok, "k1", "other-secret", register)
	require.NoError(t, err)
	require.NoError(t, b.Revoke(ctx, red.Device.ID))
	_, err = b.Redeem(ctx, tok, "k1", "other-secret", register)
	require.ErrorIs(t, err, invite.ErrUsed, "a revoked device is not given back")
}
