package beacon_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/beacon"
)

// relay serves the real quicknet rounds of beacon_test.go the way drand's
// HTTP API does; tamper rewrites a round's answer.
func relay(t *testing.T, tamper func(round uint64, body map[string]any) (int, any)) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var hits atomic.Int64
	prefix := "/" + beacon.QuicknetHash + "/"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path == prefix+"info" {
			_ = json.NewEncoder(w).Encode(beacon.QuicknetInfo())
			return
		}
		var n uint64
		if _, err := fmt.Sscanf(strings.TrimPrefix(r.URL.Path, prefix), "public/%d", &n); err != nil || !strings.HasPrefix(r.URL.Path, prefix) {
			http.NotFound(w, r)
			return
		}
		for _, q := range quicknetRounds {
			if q.round != n {
				continue
			}
			body := map[string]any{"round": q.round, "signature": q.signature}
			if q.randomness != "" {
				body["randomness"] = q.randomness
			}
			status, out := http.StatusOK, any(body)
			if tamper != nil {
				status, out = tamper(n, body)
			}
			w.WriteHeader(status)
			if s, ok := out.(string); ok {
				_, _ = w.Write([]byte(s))
				return
			}
			_ = json.NewEncoder(w).Encode(out)
			return
		}
		http.NotFound(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

func client(t *testing.T, srv *httptest.Server) *beacon.Client {
	t.Helper()
	c, err := beacon.NewClient(srv.Client(), srv.URL+"/", beacon.Quicknet())
	require.NoError(t, err)
	return c
}

func TestClientFetchesAndVerifies(t *testing.T) {
	srv, _ := relay(t, nil)
	c := client(t, srv)
	ctx := context.Background()
	require.NoError(t, c.CheckInfo(ctx))
	for _, q := range quicknetRounds {
		r, err := c.Round(ctx, q.round)
		require.NoError(t, err, "round %d", q.round)
		require.Equal(t, q.round, r.Number)
		require.Equal(t, q.signature, r.SignatureHex())
	}
}

func TestClientRefuses(t *testing.T) {
	sig2 := quicknetRounds[1].signature
	tests := []struct {
		name   string
		round  uint64
		tamper func(uint64, map[string]any) (int, any)
		want   error
	}{
		{"not published", 99, nil, beacon.ErrNotPublished},
		{"too early", 3, func(uint64, map[string]any) (int, any) { return http.StatusTooEarly, "" }, beacon.ErrNotPublished},
		{"server error", 3, func(uint64, map[string]any) (int, any) { return http.StatusBadGateway, "" }, beacon.ErrUnavailable},
		{"another round's signature", 3, func(_ uint64, b map[string]any) (int, any) {
			b["signature"] = sig2
			delete(b, "randomness")
			return 200, b
		}, beacon.ErrBadSignature},
		{"flipped signature", 3, func(_ uint64, b map[string]any) (int, any) {
			s := b["signature"].(string)
			b["signature"] = s[:len(s)-1] + "5"
			return 200, b
		}, beacon.ErrBadSignature},
		{"signature not hex", 3, func(_ uint64, b map[string]any) (int, any) { b["signature"] = "xyz"; return 200, b }, beacon.ErrBadSignature},
		{"other round number", 3, func(_ uint64, b map[string]any) (int, any) { b["round"] = 4; return 200, b }, beacon.ErrBadResponse},
		{"wrong randomness", 3, func(_ uint64, b map[string]any) (int, any) { b["randomness"] = strings.Repeat("00", 32); return 200, b }, beacon.ErrBadResponse},
		{"not json", 3, func(uint64, map[string]any) (int, any) { return 200, "<html>" }, beacon.ErrBadResponse},
		{"huge", 3, func(uint64, map[string]any) (int, any) {
			return 200, strings.Repeat(" ", beacon.MaxResponseSize+10) + "{}"
		}, beacon.ErrBadResponse},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := relay(t, tt.tamper)
			r, err := client(t, srv).Round(context.Background(), tt.round)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Round err = %v, want %v", err, tt.want)
			}
			require.Zero(t, r.Number)
		})
	}
}

func TestClientRoundZeroAsksNothing(t *testing.T) {
	srv, hits := relay(t, nil)
	_, err := client(t, srv).Round(context.Background(), 0)
	require.ErrorIs(t, err, beacon.ErrInvalidRound)
	require.Zero(t, hits.Load())
}

func TestClientCancelled(t *testing.T) {
	srv, _ := relay(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := client(t, srv).Round(ctx, 3)
	require.ErrorIs(t, err, beacon.ErrUnavailable)
	require.ErrorIs(t, err, context.Canceled)
}

func TestClientCheckInfoRefusesAnotherChain(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := beacon.QuicknetInfo()
		i.PublicKey = strings.Repeat("a", 192)
		_ = json.NewEncoder(w).Encode(i)
	}))
	t.Cleanup(srv.Close)
	err := client(t, srv).CheckInfo(context.Background())
	require.ErrorIs(t, err, beacon.ErrInvalidChain)
}

func TestNewClientRefusesBadURL(t *testing.T) {
	for _, u := range []string{"", "api.drand.sh", "ftp://x", "http://"} {
		if _, err := beacon.NewClient(http.DefaultClient, u, beacon.Quicknet()); err == nil {
			t.Errorf("NewClient(%q) accepted", u)
		}
	}
}
