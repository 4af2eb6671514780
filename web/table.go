package web

// The table in the browser (docs/design.md §6): the page /table, where the GM
// and the players act from their own devices, and the routes it needs
// besides the API: invites redeemed once (POST /api/invites/{token}, the
// only /api/ route without a bearer token), the devices the GM lists and
// revokes, who a token is (/api/me), the GM's roll calls, and an attack's
// action as the rules spell it (for the device to sign).
//
// Invariants:
//   - An invite signs a device in once (package invite): the device's key
//     is registered (key-register, the journal's own judgment) for the
//     invite's user and role only: a player's as its own, a GM's by the GM
//     who invited; nothing the request says changes who, which role,
//     campaign or characters.
//   - Only a GM of the campaign (or the journal) lists or revokes its
//     devices and makes roll calls; a revoked device's token is refused at
//     once, on every route.
//   - Roll calls are the journal's (table_calls.go): the catalogue's
//     commands call and call-close record them, so that they survive a
//     restart; a roll naming one answers it once.

import (
	"context"
	"errors"
	"io/fs"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/campaign-journal/journal/access"
	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/command/catalog"
	"github.com/campaign-journal/journal/device"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/invite"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/signed"
)

// tableRoutes are the table's routes (authenticated like the API, except
// the invite's redemption, which is how a device gets its token).
func (s *Server) tableRoutes() []Route {
	return append([]Route{
		{http.MethodGet, "/api/me", "who the request's token is: name, role, campaign, characters, device", s.getMe},
		{http.MethodGet, "/api/campaigns/{c}/devices", "the campaign's invites and devices (the GM's)", s.listDevices},
		{http.MethodPost, "/api/campaigns/{c}/devices/{id}/revoke", "revoke a device or an unused invite (the GM's)", s.revokeDevice},
		{http.MethodGet, "/api/campaigns/{c}/calls", "the open roll calls, with who answered each (answered: character → event)", s.listCalls},
		{http.MethodPost, "/api/campaigns/{c}/calls", "make a roll call (the GM's; the command call's body: characters, skill or attribute, vs, note); answers the call", s.makeCall},
		{http.MethodPost, "/api/campaigns/{c}/calls/{id}/close", "close a roll call (the GM's; the command call-close; body: optional reason)", s.closeCall},
		{http.MethodGet, "/api/campaigns/{c}/recent", "the campaign's last stream sequence and the transcript lines of its last events (?lines=N, at most 100; from the live projection)", s.recent},
		{http.MethodPost, "/api/campaigns/{c}/actions/attack", "the signed action of an attack (body: the attack command's), as the rules spell it; records nothing", s.attackAction},
	}, append(append(append(append(s.table2Routes(), s.receiptRoutes()...), s.exportRoutes()...), s.gmRoutes()...), s.secretRoutes()...)...)
}

// TableRoutes returns the table's routes (Routes has the API's).
func (s *Server) TableRoutes() []Route { return s.tableRoutes() }

// registerTable adds the table's page and routes to the mux.
func (s *Server) registerTable(static fs.FS) {
	for _, rt := range s.tableRoutes() {
		s.mux.Handle(rt.Method+" "+rt.Pattern, s.instrument(rt.Method+" "+rt.Pattern, s.guard(rt.Pattern, rt.handle)))
	}
	s.mux.Handle("POST /api/invites/{token}", s.instrument("POST /api/invites/{token}", s.redeemInvite))
	s.mux.Handle("GET /api/invites/{token}", s.instrument("GET /api/invites/{token}", s.peekInvite))
	s.mux.Handle("GET /table", noCache(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.ServePage(w, r, "table.html") // the pages' one language rule (PageLang)
	})))
}

// meJSON is who a token is.
type meJSON struct {
	Name       string   `json:"name"`
	Role       string   `json:"role"`
	Campaign   string   `json:"campaign,omitempty"`
	Characters []string `json:"characters,omitempty"`
	Device     string   `json:"device,omitempty"`
	// Open: the server runs without access control (its host acts as GM).
	Open bool `json:"open,omitempty"`
	// DevicesAdded are the devices of this user's that someone else (or
	// another of its devices, unapproved) registered, neither approved nor
	// revoked: the page announces each (docs/design.md §3.3), with approve and
	// revoke buttons.
	DevicesAdded []device.Announcement `json:"devices_added,omitempty"`
}

func (s *Server) getMe(w http.ResponseWriter, r *http.Request) error {
	if s.opts.Access == nil {
		return writeJSON(w, http.StatusOK, meJSON{Name: s.opts.Actor, Role: string(access.RoleGM), Campaign: access.AllCampaigns, Open: true})
	}
	p, _ := principal(r)
	out := meJSON{Name: p.Name, Role: string(p.Role), Campaign: p.Campaign, Characters: p.Characters}
	if p.Campaign != "" && p.Campaign != access.AllCampaigns {
		_ = s.viewCampaign(r.Context(), p.Campaign, func(c *projections.Campaign) error {
			out.DevicesAdded = device.Announcements(c, p.Name)
			return nil
		})
	}
	if s.opts.Devices != nil {
		if _, tok, ok := strings.Cut(r.Header.Get("Authorization"), " "); ok {
			if _, d, ok := s.opts.Devices.ByToken(strings.TrimSpace(tok)); ok {
				out.Device = d.ID
			}
		}
	}
	return writeJSON(w, http.StatusOK, out)
}

// requireGM refuses whoever is not a GM of campaign (or the journal).
func (s *Server) requireGM(r *http.Request, campaign, what string) error {
	if s.opts.Access == nil {
		return nil
	}
	p, ok := principal(r)
	if !ok {
		return msgerr.New("web: a request reached the table without being authenticated")
	}
	if err := access.AuthorizeRead(p, campaign); err != nil {
		return err
	}
	if p.Role != access.RoleGM && p.Role != access.RoleJournal {
		return msgerr.Errorf("%w: %s %q may not %s: the game master's", events.ErrDenied, p.Role, p.Name, what)
	}
	return nil
}

// redeemBody is the body of POST /api/invites/{token}.
type redeemBody struct {
	PublicKey string `json:"public_key"`
	// Signed and Signature are the device.register of PublicKey for the
	// invite's user and role, signed by the new key itself (keys.js):
	// proof that the device holds it.
	Signed    string `json:"signed,omitempty"`
	Signature string `json:"signature,omitempty"`
}

// redeemedJSON is what a redeemed invite returns: the device's token, once.
type redeemedJSON struct {
	Token       string   `json:"token"`
	Device      string   `json:"device"`
	User        string   `json:"user"`
	Role        string   `json:"role"`
	Campaign    string   `json:"campaign"`
	Characters  []string `json:"characters,omitempty"`
	Fingerprint string   `json:"fingerprint,omitempty"`
}

// inviteError maps the book's refusals to statuses.
func inviteError(err error) error {
	switch {
	case errors.Is(err, invite.ErrUnknown):
		return notFound("no such invite (ask the GM for a new link)")
	case errors.Is(err, invite.ErrUsed):
		return &httpError{status: http.StatusConflict, msg: msgerr.Errorf("%s: each link signs in one device (ask the GM for a new one)", err)}
	case errors.Is(err, invite.ErrExpired), errors.Is(err, invite.ErrRevoked):
		return &httpError{status: http.StatusGone, msg: msgerr.Errorf("%s (ask the GM for a new link)", err)}
	}
	return err
}

// peekInvite says whom an invite is for, without using it.
func (s *Server) peekInvite(w http.ResponseWriter, r *http.Request) error {
	if s.opts.Devices == nil || s.opts.Access == nil {
		return notFound("this journal has no invites (serve it with --access FILE)")
	}
	inv, err := s.opts.Devices.Peek(r.Context(), r.PathValue("token"))
	if err != nil {
		return inviteError(err)
	}
	return writeJSON(w, http.StatusOK, map[string]any{"user": inv.User, "role": inv.Role, "campaign": inv.Campaign,
		"characters": inv.Characters, "expires": inv.Expires})
}

func (s *Server) redeemInvite(w http.ResponseWriter, r *http.Request) error {
	if s.opts.Devices == nil || s.opts.Access == nil {
		return notFound("this journal has no invites (serve it with --access FILE)")
	}
	body, err := readBody(w, r)
	if err != nil {
		return err
	}
	var req redeemBody
	if err := catalog.DecodeStrict(body, &req); err != nil {
		return err
	}
	red, err := s.opts.Devices.Redeem(r.Context(), r.PathValue("token"), req.PublicKey, r.Header.Get("Idempotency-Key"), func(reg invite.Registration) (string, error) {
		if reg.Invite.Role == invite.RoleViewer {
			if reg.PublicKey != "" || req.Signed != "" {
				return "", badRequest("a viewer's device registers no key: send no public_key")
			}
			return "", nil
		}
		pub, err := signed.ParsePublicKey(reg.PublicKey)
		if err != nil {
			return "", badRequest("public_key: %v", err)
		}
		if req.Signed == "" || req.Signature == "" {
			return "", badRequest("send the device.register of the new key, signed by it (signed, signature): the proof that this device holds it")
		}
		// A player's key is registered as its own (the journal lets any
		// user register its own key as a player); a GM's by the GM who
		// invited (the journal judges whether it may).
		actor := reg.Invite.User
		if reg.Invite.Role == invite.RoleGM {
			actor = reg.Invite.By
		}
		// The signed device.register must be for the invite's user, role and
		// key (RegisterKey refuses one whose fields differ).
		res, err := s.journal(actor).RegisterKey(r.Context(), reg.Invite.Campaign,
			command.RegisterKey{User: reg.Invite.User, Role: reg.Invite.Role, PublicKey: pub.String(),
				SignedMessage: command.SignedMessage{Signed: req.Signed, Signature: req.Signature}})
		if err != nil {
			return "", err
		}
		s.await(r.Context(), reg.Invite.Campaign, res)
		return pub.Fingerprint(), nil
	})
	if err != nil {
		return inviteError(err)
	}
	d := red.Device
	return writeJSON(w, http.StatusOK, redeemedJSON{Token: red.Token, Device: d.ID, User: d.User, Role: d.Role,
		Campaign: d.Campaign, Characters: d.Characters, Fingerprint: d.Fingerprint})
}

// await waits (FreshWait at most) until the live projection holds what
// res recorded.
func (s *Server) await(ctx context.Context, campaign string, res command.Result) {
	var last uint64
	for _, e := range res.Events {
		last = max(last, e.Seq)
	}
	if last == 0 {
		return
	}
	proj := s.proj.For(campaign)
	proj.NoteStreamLast(last)
	wctx, cancel := context.WithTimeout(ctx, s.opts.FreshWait)
	defer cancel()
	_ = proj.WaitFor(wctx, last)
}

// DeviceRow is one device or invite as the GM sees it (no hashes).
type DeviceRow struct {
	ID          string    `json:"id"`
	Kind        string    `json:"kind"` // device or invite
	User        string    `json:"user"`
	Role        string    `json:"role"`
	Characters  []string  `json:"characters,omitempty"`
	Fingerprint string    `json:"fingerprint,omitempty"`
	Created     time.Time `json:"created"`
	Expires     time.Time `json:"expires,omitzero"`
	Used        bool      `json:"used,omitempty"`
	Revoked     bool      `json:"revoked,omitempty"`
	// KeyRevoked: the device's key is revoked in the journal (a
	// device.revoke, or the GM's) while the book still signs it in: its
	// signed messages are refused (see KeyStates).
	KeyRevoked bool `json:"key_revoked,omitempty"`
}

// KeyStates marks the rows of devices whose key the campaign's journal
// holds revoked (the book and the journal are two records: a device the
// book lists as active may have had its key revoked by a device.revoke).
func KeyStates(rows []DeviceRow, f invite.File, c *projections.Campaign) {
	pub := map[string]invite.Device{}
	for _, d := range f.Devices {
		pub[d.ID] = d
	}
	for i, r := range rows {
		d, ok := pub[r.ID]
		if r.Kind != "device" || !ok || d.PublicKey == "" || d.Campaign != c.ID {
			continue
		}
		if dev, ok := c.Participants[d.User].Device(d.PublicKey); ok && dev.Revoked {
			rows[i].KeyRevoked = true
		}
	}
}

// Listing returns the book's devices and invites of campaign, as listed
// (devices first), for the API and the CLI.
func Listing(f invite.File, campaign string) []DeviceRow {
	out := []DeviceRow{}
	for _, d := range f.Devices {
		if campaign == "" || d.Campaign == campaign {
			out = append(out, DeviceRow{ID: d.ID, Kind: "device", User: d.User, Role: d.Role, Characters: d.Characters,
				Fingerprint: d.Fingerprint, Created: d.Created, Revoked: !d.Revoked.IsZero()})
		}
	}
	for _, i := range f.Invites {
		if campaign == "" || i.Campaign == campaign {
			out = append(out, DeviceRow{ID: i.ID, Kind: "invite", User: i.User, Role: i.Role, Characters: i.Characters,
				Created: i.Created, Expires: i.Expires, Used: !i.Used.IsZero(), Revoked: !i.Revoked.IsZero()})
		}
	}
	return out
}

func (s *Server) listDevices(w http.ResponseWriter, r *http.Request) error {
	c := r.PathValue("c")
	if err := s.requireGM(r, c, "list devices"); err != nil {
		return err
	}
	if s.opts.Devices == nil {
		return writeJSON(w, http.StatusOK, []DeviceRow{})
	}
	f, err := s.opts.Devices.Load(r.Context())
	if err != nil {
		return err
	}
	rows := Listing(f, c)
	_ = s.viewCampaign(r.Context(), c, func(camp *projections.Campaign) error {
		KeyStates(rows, f, camp)
		return nil
	})
	return writeJSON(w, http.StatusOK, rows)
}

func (s *Server) revokeDevice(w http.ResponseWriter, r *http.Request) error {
	c, id := r.PathValue("c"), r.PathValue("id")
	if err := s.requireGM(r, c, "revoke devices"); err != nil {
		return err
	}
	if s.opts.Devices == nil {
		return notFound("no device %q", clip.Text(id))
	}
	f, err := s.opts.Devices.Load(r.Context())
	if err != nil {
		return err
	}
	if !slices.ContainsFunc(Listing(f, c), func(d DeviceRow) bool { return d.ID == id }) {
		return notFound("no device or invite %q in campaign %s", clip.Text(id), c)
	}
	if err := s.opts.Devices.Revoke(r.Context(), id); err != nil {
		return err
	}
	s.streams.revoke(id) // its open event streams end now
	return writeJSON(w, http.StatusOK, map[string]any{"revoked": id})
}

// attackBody is the attack command's request, as the action route takes it.
type attackBody = command.AttackRequest

func (s *Server) attackAction(w http.ResponseWriter, r *http.Request) error {
	c, _, err := campaignOf(r)
	if err != nil {
		return err
	}
	body, err := readBody(w, r)
	if err != nil {
		return err
	}
	if err := s.authorizeCommand(r, c, "attack", body); err != nil {
		return err
	}
	var req attackBody
	if err := catalog.DecodeStrict(body, &req); err != nil {
		return err
	}
	actor, err := s.actor(r)
	if err != nil {
		return err
	}
	act, err := s.journal(actor).AttackActionFor(r.Context(), c, req)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, act)
}

// recentJSON is the campaign's position and its last lines.
type recentJSON struct {
	LastSeq uint64       `json:"last_seq"`
	Lines   []recentLine `json:"lines"`
}

type recentLine struct {
	Seq  uint64 `json:"seq"`
	Text string `json:"text"`
}

// recent answers the table's log without reading the whole stream: the
// campaign's last sequence, and the lines of its events among the last
// stream messages (the live projection keeps their texts), newest last.
func (s *Server) recent(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	id, filter, err := campaignOf(r)
	if err != nil {
		return err
	}
	n, err := uintParam(r, "lines")
	if err != nil {
		return err
	}
	n = min(max(n, 1), 100)
	if r.URL.Query().Get("lines") == "" {
		n = 30
	}
	last, err := s.campaignLast(ctx, id, filter)
	if err != nil {
		return err
	}
	from := uint64(1)
	if last > 4*n {
		from = last - 4*n + 1
	}
	proj := s.proj.For(id)
	out := recentJSON{LastSeq: last, Lines: []recentLine{}}
	var unknown []events.Recorded // folded before a restart: no text kept
	err = s.opts.Store.Read(ctx, events.Query{Subject: filter, From: from, To: last}, func(rec events.Recorded) error {
		if text, ok := proj.TextIn(rec.Seq, s.PageLang(r)); ok && text != "" {
			out.Lines = append(out.Lines, recentLine{Seq: rec.Seq, Text: text})
		} else if !ok {
			unknown = append(unknown, rec)
		}
		return nil
	})
	if err == nil && len(unknown) > 0 {
		out.Lines = s.describeLate(r, id, unknown, out.Lines)
	}
	if err != nil {
		return err
	}
	if len(out.Lines) > int(n) {
		out.Lines = out.Lines[len(out.Lines)-int(n):]
	}
	return writeJSON(w, http.StatusOK, out)
}

// viewCampaign calls fn with campaign id's live state (its projection),
// or, when the projection does not hold it, a refold.
func (s *Server) viewCampaign(ctx context.Context, id string, fn func(c *projections.Campaign) error) error {
	if err := s.proj.For(id).View(id, fn); err == nil || !errors.Is(err, events.ErrNotFound) {
		return err
	}
	c, err := s.journal(s.opts.Actor).Load(ctx, id, 0)
	if err != nil {
		return err
	}
	return fn(c)
}
