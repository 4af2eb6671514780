package beacon

// The HTTP fetcher: the edge of this package that does I/O. It reads rounds
// from a drand HTTP relay (https://api.drand.sh, https://drand.cloudflare.com
// ...) with drand's v1 API and trusts nothing it serves: every round is
// verified against the pinned Chain before it is returned.

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"github.com/campaign-journal/journal/internal/msgerr"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// MaxResponseSize bounds what the fetcher reads from a relay, in bytes.
const MaxResponseSize = 64 << 10

// Errors of the fetcher, besides ErrBadSignature and ErrInvalidChain.
var (
	// ErrNotPublished: the relay does not have the round (yet).
	ErrNotPublished = msgerr.New("beacon round not published")
	// ErrUnavailable: the relay could not be reached or failed.
	ErrUnavailable = msgerr.New("beacon relay unavailable")
	// ErrBadResponse: the relay answered something that is not the round asked for.
	ErrBadResponse = msgerr.New("bad beacon relay response")
)

// Round is a verified round of a chain.
type Round struct {
	Number     uint64
	Signature  []byte   // 48 bytes, verified
	Randomness [32]byte // SHA-256(Signature): the r of a beacon roll
}

// SignatureHex returns the signature as lower-case hex, the form to record.
func (r Round) SignatureHex() string { return hex.EncodeToString(r.Signature) }

// Client fetches rounds of one chain from one relay.
type Client struct {
	http  *http.Client
	base  *url.URL
	chain *Chain
}

// NewClient returns a fetcher for chain from the relay at baseURL (for
// example "https://api.drand.sh"), using hc for every request (its timeout
// and transport are the caller's). Rounds are fetched from
// {baseURL}/{chain hash}/public/{round}.
func NewClient(hc *http.Client, baseURL string, chain *Chain) (*Client, error) {
	if hc == nil || chain == nil {
		return nil, msgerr.New("beacon: nil http client or chain")
	}
	u, err := url.Parse(strings.TrimSuffix(baseURL, "/"))
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, msgerr.Errorf("beacon: relay URL %q: want http(s)://host[/path]", baseURL)
	}
	return &Client{http: hc, base: u, chain: chain}, nil
}

// Round fetches round n and verifies it. A round the relay does not have
// yet is ErrNotPublished; a round that does not verify is ErrBadSignature,
// whoever served it.
func (c *Client) Round(ctx context.Context, n uint64) (Round, error) {
	if n == 0 {
		return Round{}, msgerr.Errorf("%w: round 0", ErrInvalidRound)
	}
	var body struct {
		Round      uint64 `json:"round"`
		Randomness string `json:"randomness"`
		Signature  string `json:"signature"`
	}
	if err := c.get(ctx, "public/"+strconv.FormatUint(n, 10), &body); err != nil {
		return Round{}, msgerr.Errorf("round %d: %w", n, err)
	}
	if body.Round != n {
		return Round{}, msgerr.Errorf("%w: asked for round %d, got round %d", ErrBadResponse, n, body.Round)
	}
	sig, err := hex.DecodeString(body.Signature)
	if err != nil {
		return Round{}, msgerr.Errorf("%w: round %d: signature is not hex", ErrBadSignature, n)
	}
	r, err := c.chain.Verify(n, sig)
	if err != nil {
		return Round{}, err
	}
	if body.Randomness != "" && body.Randomness != hex.EncodeToString(r[:]) {
		return Round{}, msgerr.Errorf("%w: round %d: randomness is not SHA-256 of the signature", ErrBadResponse, n)
	}
	return Round{Number: n, Signature: sig, Randomness: r}, nil
}

// CheckInfo fetches the relay's description of the chain and checks that it
// is the pinned one: a relay serving another chain under this hash is
// refused with ErrInvalidChain.
func (c *Client) CheckInfo(ctx context.Context) error {
	var got Info
	if err := c.get(ctx, "info", &got); err != nil {
		return msgerr.Errorf("chain info: %w", err)
	}
	want := c.chain.Info()
	if got.PublicKey != want.PublicKey || got.Period != want.Period || got.GenesisTime != want.GenesisTime ||
		got.Hash != want.Hash || got.SchemeID != want.SchemeID {
		return msgerr.Errorf("%w: the relay serves another chain under %.16s…", ErrInvalidChain, want.Hash)
	}
	return nil
}

func (c *Client) get(ctx context.Context, path string, into any) error {
	u := c.base.JoinPath(c.chain.Hash(), path)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return msgerr.Errorf("%w: %v", ErrUnavailable, err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return msgerr.Errorf("%w: %w", ErrUnavailable, err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusOK:
	case resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusTooEarly:
		return msgerr.Errorf("%w: %s", ErrNotPublished, resp.Status)
	default:
		return msgerr.Errorf("%w: %s", ErrUnavailable, resp.Status)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, MaxResponseSize+1))
	if err != nil {
		return msgerr.Errorf("%w: %v", ErrUnavailable, err)
	}
	if len(data) > MaxResponseSize {
		return msgerr.Errorf("%w: more than %d bytes", ErrBadResponse, MaxResponseSize)
	}
	if err := json.Unmarshal(data, into); err != nil {
		return msgerr.Errorf("%w: %v", ErrBadResponse, err)
	}
	return nil
}
