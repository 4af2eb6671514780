// The table in the browser (docs/design.md §6): the page /table, where the GM
// and each player act from their own device. This module is the page's
// shell and the core the views share: the page's language
// (document.documentElement.lang, set by the server; its words are
// i18n.js's tbl.* keys), the device's sign-ins (invite links redeemed once with the
// device's new key, keys.js; one sign-in per campaign and role, switched
// from the header), the API with the device's token, the campaign's state
// kept live from the event stream, the feed (feed.js's cards), the party,
// the commit-then-reveal of journal-dice-v2 (§3.2) for every roll a device
// asks for, and the table of actions the views fill in.
//
// The API the views (player.js, gm.js, gm_*.js) use, window.JournalTable:
//
//   api(method, path, body?, {key}?)  → Promise<JSON>: the device's token,
//        Accept-Language = the page's language, Idempotency-Key = key when
//        given (then a network failure is retried with the same key, three
//        times); a refusal rejects with an APIError (.status, .message =
//        the journal's message in the page's language).
//   command(name, body, key?)    POST /api/campaigns/{c}/commands/{name};
//        key is the intent's request id (Idempotency-Key).
//   tap(scope, label, fn)        runs one user intent: fn(key) gets the
//        intent's request id, made once per scope and reused by a retry
//        after a failure that may not have reached the journal (a network
//        error); while it runs every button with data-intent=scope is
//        disabled and a second tap is ignored; the answer goes to the
//        notice (label when it records no text), then the state is read
//        again. Resolves to fn's result, or null when refused.
//   button(scope, label, fn, attrs?) a <button data-intent=scope> whose
//        click is tap(scope, label, fn); disabled while scope is busy.
//   form(id, fields, label, submit)  a small form whose submit is
//        tap(id, label, (key) => submit(values, key)).
//   me                 GET /api/me ({name, role, characters, …}) or null
//   campaign           GET /api/campaigns/{c} (the projection) or null
//   campaignId         the signed-in campaign's id
//   state()            the page's state object (me, campaign, calls, voids…)
//   onUpdate(fn)       fn(state) after every render (the state changed)
//   slot(name, title?) the body (a <div>) of a collapsible section of the
//        page, <details class="card section" id="slot-NAME">, made on first
//        use in the side column (GM sections: gm.js fills them); title is
//        its <h2>; the section keeps its open/closed state.
//   notify(text, kind) the visible notice (#notice; kind "ok"|"error"|"info")
//   alert(text)        a turn or roll-call notice: the notice, the title's
//        prefix ("(!) "), and a vibration where the device has one
//   t(key, …args)      the page's words (i18n.js: tbl.<key>, else key)
//   el(tag, attrs, …kids) builds DOM (textContent only, never HTML)
//   sheetOf(id), roster(), currentTurn(), sideOf(id), openSession(),
//   isV2(s), hpBar(ch), value(v), replaceKeeping(root, build),
//   requestReveal(character, action, {key}?), requestOnly(…), v2Action(…)
//   view({id, when(state), render(state, root)}) a view in #views
//   action(row)        a row in the table of actions
//
// Invariants:
//   - The device's private key is made and kept by keys.js (non-extractable,
//     IndexedDB); this page never sees it. r (the roll's secret) is drawn by
//     crypto.getRandomValues, committed to (SHA-256) in the signed request,
//     and revealed only after the journal recorded the request.
//   - The invite token leaves the address bar at once, before anything
//     else runs (history.replaceState at the script's start, and on every
//     hashchange), and is sent to the journal only; the device tokens live
//     in this origin's localStorage.
//   - One tap is one request id: a retry of the same intent sends the same
//     Idempotency-Key, so the journal records it once.
//   - A refused action shows the journal's own message, unchanged.
//   - Actions are rows of one table (JournalTable.actions): player.js and
//     gm.js add theirs; a new roll path adds a row, not a view.
(function (global) {
  "use strict";

  // The invite leaves the address bar first of all (the token must not
  // stay in the history, a screenshot or a shared link).
  const INVITE = /(?:^#|&)invite=([0-9a-f]+)/;
  function takeInvite() {
    const m = INVITE.exec(global.location.hash);
    if (!m) return "";
    global.history.replaceState(null, "", global.location.pathname + global.location.search);
    return m[1];
  }
  let pendingInvite = takeInvite();

  const lang = () => (document.documentElement.lang === "es" ? "es" : "en");
  // t is the page's word for key, from i18n.js ({0}… filled in): the
  // table's own word tbl.<key> where i18n.js has one, else key's.
  function t(key, ...args) {
    const I = global.JournalI18n;
    if (!I) return key;
    return I.t(I.has("tbl." + key) ? "tbl." + key : key, ...args);
  }
  // The difficulties as the journal names them (rule names stay Spanish).
  const DIFFICULTIES = [["fácil", "easy"], ["media", "medium"], ["difícil", "hard"], ["insólito", "unusual"], ["imposible", "impossible"]];

  // The sign-ins this browser holds: STORE is the one in use (the last
  // chosen), STORE + ".signins" every one, one per campaign, user and role;
  // a tab keeps its own choice in sessionStorage (two tabs, two sign-ins).
  const STORE = "journal.table";
  const SIGNINS = STORE + ".signins";
  const signinKey = (a) => (a && a.campaign) + "/" + (a && a.user) + "/" + ((a && a.role) || "");
  const $ = (sel, root) => (root || document).querySelector(sel);

  // el builds an element: el("button", {class: "x", onclick: f}, "text", child…) (dom.js).
  const el = global.JournalDOM.el;

  // ---- state ----
  const state = {
    auth: null, // {token, campaign, user, device, fingerprint}
    me: null, // GET /api/me
    campaign: null, // GET /api/campaigns/{c}
    calls: [],
    voids: [], // the GM's open void proposals (table2.go)
    cosign: {}, // session id → {state: "signing"|"done"|"failed", message}
    lastSeq: 0,
    live: false,
  };
  const views = []; // {id, render(state, root)}
  const actions = []; // {id, view, label, run(state, values) → Promise<result>}

  function readJSON(store, k) {
    try {
      return JSON.parse(store.getItem(k) || "null");
    } catch (e) {
      return null;
    }
  }
  // signins lists the sign-ins kept (the one in STORE first kept too, for
  // a browser that signed in before there was a list).
  function signins() {
    const list = readJSON(global.localStorage, SIGNINS) || [];
    const cur = readJSON(global.localStorage, STORE);
    if (cur && cur.token && !list.some((a) => a.token === cur.token)) list.push(cur);
    return list.filter((a) => a && a.token);
  }
  function saved() {
    const list = signins();
    const mine = readJSON(global.sessionStorage, STORE + ".tab");
    return (mine && list.find((a) => signinKey(a) === mine)) || readJSON(global.localStorage, STORE) || null;
  }
  // save makes auth the sign-in in use (this tab's and the browser's last),
  // replacing the one kept for its campaign, user and role.
  function save(auth) {
    global.localStorage.setItem(STORE, JSON.stringify(auth));
    if (auth && auth.campaign) {
      const list = signins().filter((a) => signinKey(a) !== signinKey(auth) && a.token !== auth.token);
      list.push(auth);
      global.localStorage.setItem(SIGNINS, JSON.stringify(list));
      global.sessionStorage.setItem(STORE + ".tab", JSON.stringify(signinKey(auth)));
    }
  }
  // switchTo uses another kept sign-in, in this tab, and reloads.
  function switchTo(k) {
    const a = signins().find((x) => signinKey(x) === k);
    if (!a) return;
    save(a);
    global.location.reload();
  }

  const APIError = global.JournalDOM.APIError;

  // api sends a request with the device's token (dom.js); a refusal
  // rejects with the journal's own message. A request with its intent's
  // key is sent again when the network failed (the answer may have been
  // lost after the journal recorded it: the same key records once).
  function api(method, path, body, opts) {
    return global.JournalDOM.api(method, path, body, { token: (state.auth && state.auth.token) || "", key: opts && opts.key, lang: lang() });
  }

  const campaignPath = (rest) => "/api/campaigns/" + encodeURIComponent(state.auth.campaign) + rest;

  // command runs a catalogued command and returns its answer.
  function command(name, body, key) {
    return api("POST", campaignPath("/commands/" + encodeURIComponent(name)), body || {}, key ? { key: key } : undefined);
  }

  // ---- intents: one request id per tap ----
  const intents = new Map(); // scope → the intent's request id, until answered
  const busy = new Set(); // scopes waiting for their answer
  function intentKey(scope) {
    if (!intents.has(scope)) intents.set(scope, global.crypto.randomUUID());
    return intents.get(scope);
  }
  // markBusy disables every button of a busy intent (re-rendered ones too).
  function markBusy() {
    for (const b of document.querySelectorAll("[data-intent]")) b.disabled = busy.has(b.dataset.intent);
  }
  async function tap(scope, label, fn) {
    if (busy.has(scope)) return null;
    busy.add(scope);
    markBusy();
    const key = intentKey(scope);
    try {
      const said = notices;
      const res = await fn(key);
      intents.delete(scope);
      // perform (inside fn, as older views do) has said it already.
      if (notices === said) report(res, label);
      return res;
    } catch (e) {
      // A refusal recorded nothing: the next tap is a new intent. A
      // network failure may have reached the journal: a retry keeps the key.
      if (e instanceof APIError) intents.delete(scope);
      notify(t("refused") + ": " + e.message, "error");
      return null;
    } finally {
      busy.delete(scope);
      markBusy();
      refresh().catch(() => {});
    }
  }
  function button(scope, label, fn, attrs) {
    const b = el("button", Object.assign({ type: "button" }, attrs || {}, { dataset: Object.assign({ intent: scope }, (attrs && attrs.dataset) || {}) }), label);
    b.disabled = busy.has(scope);
    b.addEventListener("click", () => tap(scope, label, fn));
    return b;
  }

  // ---- notices ----
  let notices = 0; // how many notices were shown
  function notify(text, kind) {
    notices++;
    const n = $("#notice");
    n.textContent = text;
    n.className = "notice " + (kind || "info");
    n.hidden = false;
  }

  // perform runs an action: its result lines in the notice, or the
  // journal's refusal (then it resolves to null).
  // The lines of the device's own protocol (the request with its id, nonce
  // and commitment, witnesses, receipts, contributions, co-signatures,
  // keys) are left out, and so are nonces: the notice says what happened
  // at the table; the feed's card has the details one tap away.
  const PROTOCOL = /^journal\.(roll\.(requested|witnessed|receipted)|session\.(contributed|cosigned)|device\.|participant\.)/;
  function report(res, what) {
    const lines = [];
    for (const r of [].concat(res || [])) {
      for (const rec of (r && r.recorded) || []) {
        if (!rec.text || PROTOCOL.test((rec.event && rec.event.type) || "")) continue;
        lines.push(rec.text.replace(/\s*\[nonce \d+\]/g, ""));
      }
    }
    notify(t("done") + ": " + (lines.length ? lines.join(" · ") : what), "ok");
  }
  async function perform(what, fn) {
    try {
      const res = await fn();
      report(res, what);
      await refresh();
      return res;
    } catch (e) {
      notify(t("refused") + ": " + e.message, "error");
      return null;
    }
  }

  // ---- journal-dice-v2 in the device ----
  function randomHex32() {
    const b = new Uint8Array(32);
    global.crypto.getRandomValues(b);
    return global.JournalDice.bytesToHex(b);
  }
  async function sha256Hex(hex) {
    const D = global.JournalDice;
    return D.bytesToHex(await D.sha256(D.hexToBytes(hex)));
  }

  let deviceKey = null;
  async function key() {
    if (deviceKey) return deviceKey;
    deviceKey = await global.JournalKeys.load({ campaign: state.auth.campaign, user: state.auth.user });
    if (!deviceKey) throw new Error("this browser holds no key for " + state.auth.user + " in " + state.auth.campaign + ": open a new invite link");
    return deviceKey;
  }

  function openSession() {
    const ss = (state.campaign && state.campaign.sessions) || [];
    const s = ss[ss.length - 1];
    return s && !s.ended ? s : null;
  }
  const isV2 = (s) => !!s && s.algorithm === "journal-dice-v2";

  // requestReveal runs one v2 roll for character: the signed request with
  // the commitment to a fresh r, then, once it is recorded, the signed
  // reveal of r. Both answers are returned.
  // opts.key, the intent's request id, is the request's id too: a retry
  // of the same intent signs the same request (Ed25519 is deterministic, r
  // is derived from the request) and the journal answers it once.
  async function requestReveal(character, action, opts) {
    const s = openSession();
    if (!isV2(s)) throw new Error("no journal-dice-v2 session in progress");
    const k = await key();
    const request = (opts && opts.key) || global.crypto.randomUUID();
    // r comes from the device's own signature over the request's
    // identity (dice2.js revealSecret), so that the device can re-derive
    // it and prove the roll if the host drops its reveal (proveSuppressed).
    const r = await global.JournalDiceV2.revealSecret((text) => k.signString(text), state.auth.campaign, s.id, state.auth.user, request);
    const hdr = { campaign: state.auth.campaign, session: s.id };
    // A roll answering a GM's call names it in the signed action (the
    // journal reads it there: the request's body has no call of its own).
    const call = opts && opts.call ? { call: opts.call } : {};
    const ask = await k.sign(Object.assign({ type: "roll.request" }, hdr, { request: request, commitment: await sha256Hex(r), action: Object.assign({ seed_commitment: s.commitment }, action, call) }));
    const asked = await command("roll-request", Object.assign({ character: character, signed: ask.signed, signature: ask.signature }), request + ".ask");
    const rev = await k.sign(Object.assign({ type: "roll.reveal" }, hdr, { request: request, r: r }));
    const made = await command("roll-reveal", { character: character, signed: rev.signed, signature: rev.signature }, request + ".reveal");
    return [asked, made];
  }

  // proveSuppressed sends again, once per page, the signed reveal of every
  // request of this user that the journal's state shows cancelled (or
  // left unrevealed at its session's end) and not proved, when this
  // device's key re-derives its r (another device's request, or one with
  // a random r, is left alone): the journal records the roll it would
  // have been (roll-prove, journal.roll.proved.v1). Run on every
  // (re)connect; what it proved is shown.
  const proving = new Set();
  async function proveSuppressed() {
    if (!state.auth.user || state.me && state.me.role === "viewer") return [];
    const todo = global.JournalDiceV2.provable(state.campaign, state.auth.user).filter((p) => !proving.has(p.request));
    if (!todo.length) return [];
    let k;
    try {
      k = await key();
    } catch (e) {
      return [];
    }
    const done = [];
    for (const p of todo) {
      proving.add(p.request);
      const r = await global.JournalDiceV2.revealSecret((text) => k.signString(text), state.auth.campaign, p.session, state.auth.user, p.request);
      if ((await sha256Hex(r)) !== p.commitment) continue; // not this device's r
      const rev = await k.sign({ type: "roll.reveal", campaign: state.auth.campaign, session: p.session, request: p.request, r: r });
      try {
        const res = await command("roll-prove", { character: p.character, signed: rev.signed, signature: rev.signature });
        done.push(res);
        const lines = ((res && res.recorded) || []).map((x) => x.text).filter(Boolean);
        notify(t("proved") + ": " + (lines.length ? lines.join(" · ") : p.request), "ok");
      } catch (e) {
        notify(t("proveRefused") + " " + p.request + ": " + e.message, "error");
      }
    }
    if (done.length) await refresh();
    return done;
  }

  // requestOnly sends a signed roll.request that draws nothing (no
  // commitment: Hope re-judging a roll, v2_tor.go) and returns the answer.
  async function requestOnly(character, action, extra, opts) {
    const s = openSession();
    if (!isV2(s)) throw new Error("no journal-dice-v2 session in progress");
    const k = await key();
    // A GM's wait is signed with its request (extra.wait, in seconds).
    const wait = extra && extra.wait > 0 ? { wait: extra.wait } : {};
    const request = (opts && opts.key) || global.crypto.randomUUID();
    const ask = await k.sign(Object.assign({ type: "roll.request" }, { campaign: state.auth.campaign, session: s.id }, { request: request }, wait, { action: Object.assign({ seed_commitment: s.commitment }, action) }));
    return command("roll-request", Object.assign({ character: character, signed: ask.signed, signature: ask.signature }, extra || {}), request + ".ask");
  }

  // witness sends this device's signed roll.witness for a GM's pending
  // request p (id): in a session of witness chains (the request has a
  // witness_index j) its chain's value w_j, combined with every
  // contributing device's; in an older session 32 fresh random bytes,
  // which are r if it is the first.
  async function witness(id, character) {
    const s = openSession();
    if (!isV2(s)) throw new Error("no journal-dice-v2 session in progress");
    const k = await key();
    const p = (s.requests || {})[id];
    const j = (p && p.requested && p.requested.witness_index) || 0;
    const msg = { type: "roll.witness", campaign: state.auth.campaign, session: s.id, request: id, value: randomHex32() };
    if (j > 0) {
      msg.index = j;
      msg.value = await global.JournalDiceV2.witnessValue(await k.witnessSecret(s.id, s.commitment), j);
    }
    const m = await k.sign(msg);
    return command("roll-witness", { character: character, signed: m.signed, signature: m.signature });
  }

  // receipt sends this device's signed beacon.receipt of a GM's request
  // pinned to a beacon round, seen before its round (docs/design.md §3.3).
  async function receipt(id, character) {
    const s = openSession();
    if (!isV2(s)) throw new Error("no journal-dice-v2 session in progress");
    const k = await key();
    const m = await k.sign({ type: "beacon.receipt", campaign: state.auth.campaign, session: s.id, request: id });
    return command("roll-receipt", { character: character, signed: m.signed, signature: m.signature });
  }
  // gmPending reports whether a recorded request is a GM's waiting for a
  // witness (no commitment).
  const witnessed = (p) => !!p && !p.requested.commitment;

  // v2Action is the action the journal spells for a path (records nothing).
  function v2Action(name, body) {
    return api("POST", campaignPath("/actions/" + encodeURIComponent(name)), body);
  }

  function base64ToBytes(b64) {
    const bin = global.atob(b64);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }

  // cosign co-signs an ended v2 session's end: the device reads the
  // session-ended event's stored bytes, hashes them itself, and signs
  // session.cosign {ended: hex(SHA-256(bytes))}.
  async function cosign(s, character) {
    const D = global.JournalDice;
    const ended = await api("GET", campaignPath("/sessions/" + encodeURIComponent(s.id) + "/ended"));
    if (ended.event !== s.ended_event) throw new Error("the journal gives event " + ended.event + " as session " + s.id + "'s end, its state says " + s.ended_event);
    const hash = D.bytesToHex(await D.sha256(base64ToBytes(ended.stored)));
    const k = await key();
    const m = await k.sign({ type: "session.cosign", campaign: state.auth.campaign, session: s.id, ended: hash });
    return command("session-cosign", { character: character || "", signed: m.signed, signature: m.signature });
  }

  // consentVoid signs the roller's void.consent for a GM's void proposal.
  async function consentVoid(p) {
    const k = await key();
    const m = await k.sign({ type: "void.consent", campaign: state.auth.campaign, session: p.session, event: p.event_id, reason: p.reason });
    return api("POST", campaignPath("/void-proposals/" + encodeURIComponent(p.id) + "/consent"), { signed: m.signed, signature: m.signature });
  }

  // lastSession is the campaign's last session, ended or not.
  function lastSession() {
    const ss = (state.campaign && state.campaign.sessions) || [];
    return ss[ss.length - 1] || null;
  }

  // contribute sends the device's signed contribution to the open session's key.
  async function contribute(character) {
    const s = openSession();
    const k = await key();
    // commitment: the session's seed commitment, so that the contribution
    // cannot be replayed into another journal's session (signed.Contribute).
    // witness_anchor: the device's witness chain for the session's GM
    // rolls (its w is derived from the key: nothing to store).
    const anchor = await global.JournalDiceV2.witnessAnchor(await k.witnessSecret(s.id, s.commitment));
    const m = await k.sign({ type: "session.contribute", campaign: state.auth.campaign, session: s.id, value: randomHex32(), commitment: s.commitment, witness_anchor: anchor });
    const res = await command("session-contribute", { character: character, signed: m.signed, signature: m.signature });
    global.localStorage.setItem(STORE + ".contributed." + state.auth.campaign + "." + s.id, "1");
    return res;
  }
  const contributed = (s) => !!s && global.localStorage.getItem(STORE + ".contributed." + state.auth.campaign + "." + s.id) === "1";

  // ---- sign-in ----
  async function redeem(inviteToken) {
    notify(t("joining"), "info");
    const peek = await api("GET", "/api/invites/" + encodeURIComponent(inviteToken));
    let body = {};
    let k = null;
    if (peek.role !== "viewer") {
      // Stored only once the journal holds it (below): a refused
      // redemption leaves the device's key as it was.
      k = await global.JournalKeys.create({ campaign: peek.campaign, user: peek.user }, { defer: true });
      // The device.register signed by the new key: proof that this device holds it.
      const reg = await k.register(peek.role, "browser");
      body = { public_key: k.publicKey, signed: reg.signed, signature: reg.signature };
    }
    // The retry key: if the answer is lost, api sends it again and the
    // journal gives this device back (a secret of this page only).
    const got = await api("POST", "/api/invites/" + encodeURIComponent(inviteToken), body, { key: global.crypto.randomUUID() });
    if (k) await k.store();
    state.auth = { token: got.token, campaign: got.campaign, user: got.user, role: got.role || peek.role, device: got.device, fingerprint: got.fingerprint || "" };
    save(state.auth);
    notify(t("joined") + " " + got.user + (got.fingerprint ? " · " + t("fingerprint") + " " + got.fingerprint : ""), "ok");
  }

  async function signIn() {
    const inv = pendingInvite;
    pendingInvite = "";
    if (inv) {
      try {
        await redeem(inv);
      } catch (e) {
        notify(t("refused") + ": " + e.message, "error");
      }
    }
    if (!state.auth) state.auth = saved();
    try {
      state.me = await api("GET", "/api/me");
    } catch (e) {
      state.me = null;
      if (state.auth && e.status === 401) notify(t("refused") + ": " + e.message, "error");
      return false;
    }
    if (!state.auth) state.auth = { token: "", campaign: "", user: state.me.name };
    if (state.auth.token && !state.auth.role && state.me.role) {
      state.auth.role = state.me.role;
      save(state.auth);
    }
    if (!state.auth.campaign || state.auth.campaign === "*") {
      const cs = await api("GET", "/api/campaigns");
      const list = Array.isArray(cs) ? cs : [];
      const c = state.me.campaign && state.me.campaign !== "*" ? state.me.campaign : list.length ? list[0].id || list[0] : "";
      state.auth.campaign = c;
    }
    return !!state.auth.campaign;
  }

  // ---- live state ----
  // refresh reads the campaign's state again and renders it. A refresh
  // asked for while one runs runs again after it, so that the last event
  // seen is always in the state shown.
  let refreshing = null;
  let again = false;
  async function refresh() {
    if (refreshing) {
      again = true;
      return refreshing;
    }
    refreshing = (async () => {
      try {
        do {
          again = false;
          const [c, calls, voids] = await Promise.all([api("GET", campaignPath("")), api("GET", campaignPath("/calls")), api("GET", campaignPath("/void-proposals")).catch(() => [])]);
          state.campaign = c;
          state.calls = calls || [];
          seeCalls(calls);
          state.voids = voids || [];
          render();
        } while (again);
      } finally {
        refreshing = null;
      }
    })();
    return refreshing;
  }

  let follow = null;
  async function followEvents() {
    // From the state the page (and the feed) was drawn from: no event missed.
    if (state.campaign && state.campaign.last_seq) state.lastSeq = state.campaign.last_seq;
    else state.lastSeq = (await api("GET", campaignPath("/recent?lines=1"))).last_seq || 0;
    const url = campaignPath("/events?from=" + (state.lastSeq + 1)) + (state.auth.token ? "&access_token=" + encodeURIComponent(state.auth.token) : "");
    follow = new EventSource(url);
    let timer = null;
    follow.onopen = () => {
      setLive(true);
      proveSuppressed().catch((e) => notify(e.message, "error"));
    };
    follow.onerror = () => setLive(false);
    follow.onmessage = (m) => {
      state.lastSeq = Math.max(state.lastSeq, Number(m.lastEventId) || 0);
      if (feed) {
        try {
          feed.add([{ seq: Number(m.lastEventId), event: JSON.parse(m.data) }], true);
        } catch (e) {
          /* not an event */
        }
      }
      clearTimeout(timer);
      timer = setTimeout(refresh, 60);
    };
    // Roll calls are the table's, not events: asked for now and then.
    setInterval(async () => {
      try {
        const [calls, voids] = await Promise.all([api("GET", campaignPath("/calls")), api("GET", campaignPath("/void-proposals")).catch(() => state.voids)]);
        if (JSON.stringify(calls) !== JSON.stringify(state.calls) || JSON.stringify(voids) !== JSON.stringify(state.voids)) {
          state.calls = calls;
          seeCalls(calls);
          state.voids = voids || [];
          render();
        }
      } catch (e) {
        /* shown at the next refresh */
      }
    }, 1500);
  }
  function setLive(on) {
    state.live = on;
    const l = $("#live");
    l.textContent = on ? t("live") : t("offline");
    l.className = "pill " + (on ? "on" : "off");
  }


  // ---- rendering ----
  const updates = []; // onUpdate's functions
  function render() {
    const s = openSession();
    $("#session").textContent = s ? t("session") + " " + s.id + (isV2(s) ? " · v2" : "") : t("noSession");
    const me = state.me;
    $("#who").textContent = me ? me.name + " · " + t("role_" + me.role) + " · " + ((state.campaign && state.campaign.name) || state.auth.campaign) : "";
    renderSignins();
    renderParty();
    renderViews();
    for (const fn of updates) {
      try {
        fn(state);
      } catch (e) {
        global.console.error(e);
      }
    }
    markBusy();
  }

  // renderSignins fills the header's switch between the sign-ins this
  // browser keeps (shown when there are two or more).
  function renderSignins() {
    const sel = $("#signins");
    if (!sel) return;
    const list = signins();
    const cur = state.auth ? signinKey(state.auth) : "";
    sel.hidden = list.length < 2;
    const opts = list.map((a) => el("option", { value: signinKey(a), selected: signinKey(a) === cur }, a.campaign + " · " + a.user + (a.role ? " · " + t("role_" + (a.role === "viewer" ? "dashboard" : a.role)) : "")));
    const sig = opts.map((o) => o.value + o.textContent).join("|") + cur;
    if (sel.dataset.sig === sig) return;
    sel.dataset.sig = sig;
    sel.replaceChildren(...opts);
  }

  // renderParty shows every character of the campaign with its HP (and
  // The One Ring's Hope and Shadow), the characters this device plays first
  // marked "yours"; a character's side in the combat, when known.
  function renderParty() {
    const box = $("#party");
    if (!box || !state.campaign) return;
    // The GM's view has its own party panel (gm.js), with its actions.
    const panel = $("#party-panel");
    if (panel) panel.hidden = !!state.me && (state.me.role === "gm" || state.me.role === "journal");
    const mine = new Set((state.me && state.me.characters) || []);
    const tor = state.campaign.tor;
    const turn = currentTurn();
    const rows = roster().map((ch) => el("li", { class: (ch.npc ? "npc " : "") + (mine.has(ch.id) ? "mine " : "") + (turn === ch.id ? "turn" : ""), dataset: { character: ch.id, side: sideOf(ch.id) || undefined } },
      el("span", { class: "name" }, ch.name || ch.id),
      el("span", { class: "muted" }, mine.has(ch.id) ? t("tbl.yours") : ch.npc ? t("npcs") : ch.player || ""),
      turn === ch.id ? el("span", { class: "badge" }, t("turn")) : el("span", {}),
      hpBar(ch),
      tor ? el("span", { class: "muted facts-line" }, t("hope") + " " + ch.hope + "/" + ch.max_hope + " · " + t("shadow") + " " + (ch.shadow || 0))
        : el("span", { class: "muted facts-line" }, t("xp") + " " + (ch.xp || 0) + " · " + statusWord(ch.status))));
    replaceKeeping(box, () => rows);
  }
  // statusWord is a character's status in the page's language.
  const statusWord = (st) => t("st." + (st || "ok"));

  function renderViews() {
    const root = $("#views");
    for (const v of views) {
      let sec = root.querySelector("#" + v.id);
      const show = v.when(state);
      if (!show) {
        if (sec) sec.remove();
        continue;
      }
      if (!sec) {
        sec = el("div", { id: v.id, class: "view" });
        root.append(sec);
      }
      // Keep what the user is typing: a view re-renders only what changed.
      v.render(state, sec);
    }
  }

  // slot is the body of a collapsible section of the side column, made
  // on first use (GM sections); its open state is the reader's.
  function slot(name, title) {
    let d = document.getElementById("slot-" + name);
    if (!d) {
      d = el("details", { id: "slot-" + name, class: "card section", open: true, dataset: { slot: name } },
        el("summary", {}, el("h2", {}, title || name)), el("div", { class: "slot-body" }));
      $("#slots").append(d);
    } else if (title) {
      const h = d.querySelector("summary h2");
      if (h.textContent !== title) h.textContent = title;
    }
    return d.querySelector(".slot-body");
  }

  // sideOf is a character's side in the combat (the tracker's sides,
  // combat.sides: character → side), or "" when none is known.
  function sideOf(id) {
    const cb = state.campaign && state.campaign.combat;
    const sides = (cb && !cb.ended && cb.sides) || {};
    return sides[id] || "";
  }

  // alert is a turn or roll-call notice: the visible #alert (apart from
  // #notice, the answer to this device's last action), a prefix on the
  // page's title until the page is seen again, and a vibration.
  let baseTitle = "";
  function alert(text) {
    const box = $("#alert");
    if (box) {
      box.textContent = text;
      box.hidden = false;
    }
    if (!baseTitle) baseTitle = document.title;
    document.title = "(!) " + baseTitle;
    if (global.navigator && typeof global.navigator.vibrate === "function") {
      try {
        global.navigator.vibrate([120, 60, 120]);
      } catch (e) {
        /* no vibration here */
      }
    }
    state.alerts = (state.alerts || 0) + 1;
  }
  function clearAlert() {
    if (baseTitle && document.visibilityState !== "hidden") document.title = baseTitle;
  }
  document.addEventListener("visibilitychange", clearAlert);
  global.addEventListener("focus", clearAlert);

  // exportCampaign downloads the campaign's export (GET
  // /api/campaigns/{c}/export, what `journal export` writes: one event a
  // line), which the offline verifier page reads.
  async function exportCampaign() {
    const res = await fetch(campaignPath("/export"), { headers: { Authorization: "Bearer " + state.auth.token, "Accept-Language": lang() }, credentials: "omit" });
    if (!res.ok) {
      let msg = res.status + " " + res.statusText;
      try {
        const b = await res.json();
        msg = (b.error && b.error.message) || msg;
      } catch (e) {
        /* the status says it */
      }
      throw new APIError(res.status, msg);
    }
    const blob = await res.blob();
    const url = URL.createObjectURL(blob);
    const a = el("a", { href: url, download: state.auth.campaign + ".jsonl", hidden: true });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 5000);
    return { recorded: [] };
  }

  // ---- the feed (feed.js's cards) ----
  let feed = null;
  const callNotes = {}; // call id → the GM's note, for every call seen
  function seeCalls(calls) {
    for (const c of calls || []) if (c && c.id && c.note) callNotes[c.id] = c.note;
  }
  function nameOf(id) {
    const ch = sheetOf(id);
    return (ch && ch.name) || id || "";
  }
  function startFeed() {
    if (!global.JournalFeed || !$("#feed")) return;
    feed = global.JournalFeed.create({
      list: $("#feed"),
      api: (path) => api("GET", path),
      campaign: () => state.auth.campaign,
      nameOf: nameOf,
      who: true,
      noteOf: (ev) => {
        const d = ev.data || {};
        return d.call && callNotes[d.call] ? t("tbl.callNote", callNotes[d.call]) : "";
      },
      onRender: (n) => {
        const none = $("#no-rolls");
        if (none) none.hidden = n > 0;
      },
      // Every verification (a card's Verify too) is the whole campaign's:
      // its verdict and flags are shown as `journal replay` gives them.
      onReport: (rep) => showAudit(rep),
    });
    const older = $("#older");
    if (older) older.addEventListener("click", () => feed.loadOlder().then(olderState));
    const va = $("#verify-all");
    if (va) va.addEventListener("click", verifyAll);
  }
  // showAudit puts the campaign's audit (feed.js summaryPanel: replay's
  // verdict, every flag with its code and words, links to the cards) under
  // Verify all.
  function showAudit(rep) {
    const out = $("#verify-all-result");
    if (!out) return;
    const panel = global.JournalFeed.summaryPanel(rep, feed);
    out.dataset.verdict = rep.summary.verdict;
    out.dataset.mismatch = String(rep.mismatches.length);
    out.className = "quiet " + panel.className;
    out.replaceChildren(...panel.childNodes);
  }
  function olderState() {
    const older = $("#older");
    if (older && feed) older.hidden = feed.done();
  }
  async function verifyAll() {
    const b = $("#verify-all");
    const out = $("#verify-all-result");
    b.disabled = true;
    out.textContent = t("verify.working");
    try {
      await feed.verifyAll(); // onReport shows it (showAudit)
    } catch (err) {
      out.textContent = t("verify.error", err.message);
    } finally {
      b.disabled = false;
    }
  }

  // replaceKeeping re-renders root's content with build(), unless one of
  // its fields has focus (the user is typing) or nothing changed; the
  // values typed and the open sections are kept.
  function replaceKeeping(root, build) {
    const active = document.activeElement;
    if (active && root.contains(active) && (active.tagName === "INPUT" || active.tagName === "SELECT" || active.tagName === "TEXTAREA")) return;
    const keyOf = (f) => (f.closest("[data-form]") ? f.closest("[data-form]").dataset.form + "/" : "") + f.name;
    // Only what the user changed is kept: a field still at the value it
    // was drawn with (data-initial) takes the new drawing's (a default that
    // changed, such as the attack's target once sides are known).
    const values = {};
    for (const f of root.querySelectorAll("[name]")) {
      const v = f.type === "checkbox" ? f.checked : f.value;
      if (f.dataset.initial === undefined || String(v) !== f.dataset.initial) values[keyOf(f)] = v;
    }
    const open = {};
    for (const d of root.querySelectorAll("details[data-key]")) open[d.dataset.key] = d.open;
    const fresh = [].concat(build());
    const holder = document.createElement("div");
    holder.append(...fresh);
    for (const d of holder.querySelectorAll("details[data-key]")) if (d.dataset.key in open) d.open = open[d.dataset.key];
    for (const f of holder.querySelectorAll("[name]")) {
      const k = keyOf(f);
      if (!(k in values)) continue;
      if (f.type === "checkbox") f.checked = values[k];
      else if (f.tagName === "INPUT" || [...(f.options || [])].some((o) => o.value === values[k])) f.value = values[k];
    }
    const same = holder.childNodes.length === root.childNodes.length && [...holder.childNodes].every((n, i) => n.isEqualNode(root.childNodes[i]));
    if (same) return;
    root.replaceChildren(...holder.childNodes);
  }

  // form builds a small form: fields [{name, label, type, options, value,
  // groups}], and a submit button: submitting is the intent tap(id, …)
  // calling submit(values, key). A select's options may come in groups
  // ({groups: [[label, options]…]}, an <optgroup> each).
  function form(id, fields, button, submit) {
    const f = el("form", { class: "act", dataset: { form: id } });
    for (const fd of fields) {
      let input;
      if (fd.type === "select") {
        const opt = ([v, l]) => el("option", { value: v, selected: String(fd.value) === String(v) }, l);
        input = el("select", { name: fd.name, "aria-label": fd.label, required: fd.required },
          (fd.options || []).map(opt), (fd.groups || []).map(([g, os]) => el("optgroup", { label: g }, os.map(opt))));
      } else if (fd.type === "checkbox") {
        input = el("input", { type: "checkbox", name: fd.name, checked: !!fd.value });
      } else if (fd.type === "checks") {
        input = el("span", { class: "checks", role: "group", "aria-label": fd.label }, fd.options.map(([v, l]) => el("label", {}, el("input", { type: "checkbox", name: fd.name + ":" + v, checked: (fd.value || []).includes(v) }), " " + l)));
        f.append(el("fieldset", {}, el("legend", {}, fd.label), input));
        continue;
      } else {
        input = el("input", { name: fd.name, type: fd.type || "text", value: fd.value === undefined ? "" : fd.value, inputmode: fd.type === "number" ? "numeric" : undefined, required: fd.required, placeholder: fd.placeholder });
      }
      input.dataset.initial = String(fd.type === "checkbox" ? input.checked : input.value);
      f.append(fd.type === "checkbox" ? el("label", { class: "check" }, input, " " + fd.label) : el("label", {}, el("span", {}, fd.label), input));
    }
    const sb = el("button", { type: "submit", dataset: { intent: id } }, button);
    sb.disabled = busy.has(id);
    f.append(sb);
    f.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const v = {};
      for (const fd of fields) {
        if (fd.type === "checks") v[fd.name] = fd.options.map(([o]) => o).filter((o) => f.elements[fd.name + ":" + o].checked);
        else if (fd.type === "checkbox") v[fd.name] = f.elements[fd.name].checked;
        else if (fd.type === "number") v[fd.name] = Number(f.elements[fd.name].value || 0);
        else v[fd.name] = f.elements[fd.name].value;
      }
      tap(id, button, (key) => submit(v, key));
    });
    return f;
  }

  // sheetOf returns character id's sheet (RyF) or TOR sheet.
  function sheetOf(id) {
    const c = state.campaign;
    if (!c) return null;
    if (c.tor && c.tor.characters && c.tor.characters[id]) return c.tor.characters[id];
    return (c.characters || {})[id] || null;
  }
  function roster() {
    const c = state.campaign;
    if (!c) return [];
    const ids = c.tor ? c.tor.roster || [] : c.roster || [];
    return ids.map(sheetOf).filter(Boolean);
  }

  // currentTurn is who acts now: the first in initiative order who can act
  // and has not attacked this round (as the journal judges it).
  function currentTurn() {
    const cb = state.campaign && state.campaign.combat;
    if (!cb || cb.ended) return "";
    for (const id of cb.order || []) {
      const ch = sheetOf(id);
      if (ch && !(cb.attacked || {})[id] && (ch.status === "ok" || ch.status === "" || ch.status === undefined)) return id;
    }
    return "";
  }

  // value writes a sheet's value: a number, or The One Ring's scores
  // ({basic, favoured}) and ratings ({rank, favoured}).
  function value(v) {
    if (v === null || typeof v !== "object") return String(v);
    if ("basic" in v) return v.basic + "/" + v.favoured;
    if ("rank" in v) return v.rank + (v.favoured ? "★" : "");
    return JSON.stringify(v);
  }

  function hpBar(ch) {
    if (ch.max_hp === undefined) return null;
    const pct = ch.max_hp ? Math.max(0, Math.min(100, Math.round((100 * ch.hp) / ch.max_hp))) : 0;
    return el("span", { class: "hp", role: "meter", "aria-valuemin": 0, "aria-valuemax": ch.max_hp, "aria-valuenow": ch.hp, "aria-label": t("hp") },
      el("span", { class: "fill", style: "width:" + pct + "%" }), el("span", { class: "num" }, t("hp") + " " + ch.hp + "/" + ch.max_hp));
  }

  // devicesAdded shows a banner for every device someone else added to
  // this user's name (GET /api/me's devices_added, docs/design.md §3.3), with
  // buttons to approve it (signed by this device, when it is another one)
  // or revoke it (signed by this device).
  async function devicesAdded() {
    const list = (state.me && state.me.devices_added) || [];
    let box = $("#devices-added");
    if (box) box.remove();
    if (!list.length) return;
    box = el("section", { id: "devices-added", class: "card warning", role: "alert" });
    const character = ((state.me && state.me.characters) || [])[0] || "";
    let mine = null;
    try {
      mine = await key();
    } catch (e) {
      mine = null;
    }
    for (const n of list) {
      const day = String(n.time || "").slice(0, 10);
      const p = el("p", { class: "device-added", "data-fingerprint": n.fingerprint }, t("deviceAdded", n.by, day, n.fingerprint));
      if (mine) {
        if (mine.publicKey !== n.public_key) {
          const approve = el("button", { type: "button", class: "device-approve" }, t("deviceApprove"));
          approve.addEventListener("click", () =>
            perform(t("deviceApprove"), async () => {
              const m = await mine.approve(n.public_key);
              return command("key-approve", { character: character, signed: m.signed, signature: m.signature });
            }).then(reloadMe),
          );
          p.append(" ", approve);
        }
        const revoke = el("button", { type: "button", class: "device-revoke" }, t("deviceRevoke"));
        revoke.addEventListener("click", () =>
          perform(t("deviceRevoke"), async () => {
            const m = await mine.revoke(n.public_key, t("deviceNotMine"));
            return command("key-revoke", { character: character, signed: m.signed, signature: m.signature });
          }).then(reloadMe),
        );
        p.append(" ", revoke);
      }
      box.append(p);
    }
    $("#table").insertBefore(box, $("#notice").nextSibling);
  }
  async function reloadMe() {
    try {
      state.me = await api("GET", "/api/me");
    } catch (e) {
      return;
    }
    await devicesAdded();
  }

  // ---- receipts (receipts.js) ----
  // The head this page has received: the campaign's last sequence as the
  // page knows it, with SHA-256 of that event's stored bytes (asked of the
  // journal once per sequence, hashed here).
  const heads = new Map(); // seq → promise of hex hash
  function hashAt(seq) {
    if (!heads.has(seq)) {
      heads.set(seq, api("GET", campaignPath("/events/" + seq + "/hash")).then((e) => global.JournalReceipts.storedHash(e.stored), () => null));
    }
    return heads.get(seq);
  }
  async function head() {
    const seq = Math.max(state.lastSeq || 0, (state.campaign && state.campaign.last_seq) || 0);
    if (!seq) return null;
    const hash = await hashAt(seq);
    return hash ? { seq: seq, hash: hash } : null;
  }
  // activeKeys are the public keys of a participant's devices not revoked
  // (every device of its user may sign; docs/design.md §3.3).
  function activeKeys(p) {
    if (!p) return [];
    const keys = (p.devices || []).filter((d) => !d.revoked).map((d) => d.public_key);
    if (!keys.length && p.public_key) keys.push(p.public_key);
    return keys;
  }
  // checkReceipts checks, on every load, that the journal still holds
  // every head this device signed after seeing and that the key it holds
  // for this user is this device's; it shows what differs as a red banner,
  // with a download of the receipts in the CLI's format.
  async function checkReceipts() {
    const R = global.JournalReceipts;
    if (!R || !state.auth || !state.auth.user || !state.auth.campaign) return;
    R.setHead(head);
    let kept = [];
    let own = "";
    try {
      kept = await R.list(state.auth.campaign, state.auth.user);
      const k = await global.JournalKeys.load({ campaign: state.auth.campaign, user: state.auth.user }).catch(() => null);
      own = k ? k.publicKey : "";
    } catch (e) {
      return; // no IndexedDB: nothing kept to check
    }
    const p = state.campaign && state.campaign.participants && state.campaign.participants[state.auth.user];
    const alarms = await R.check(kept, {
      lang: lang(), user: state.auth.user, own: own, registered: activeKeys(p),
      last: (state.campaign && state.campaign.last_seq) || 0, hashAt: hashAt,
    });
    let box = $("#receipts");
    if (!box) {
      box = el("div", { id: "receipts" });
      $("#table").prepend(box);
    }
    const download = kept.length ? el("button", { type: "button", class: "secondary", dataset: { action: "download-receipts" }, onclick: () => {
      const url = URL.createObjectURL(new Blob([R.toJSONL(kept)], { type: "application/jsonl" }));
      const a = el("a", { href: url, download: state.auth.campaign + ".jsonl" });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } }, R.words(lang(), "download")) : null;
    box.replaceChildren(...alarms.map((a) => el("p", { class: "notice error receipts-alarm", role: "alert", dataset: { kind: a.kind, seq: a.seq || "" } }, R.words(lang(), "warning") + a.text)), download || "");
  }

  // A second invite opened in this tab (a link followed, the hash
  // changed): taken at once, redeemed, and the page starts again with it.
  global.addEventListener("hashchange", () => {
    const inv = takeInvite();
    if (!inv) return;
    const was = state.auth;
    state.auth = null;
    redeem(inv).then(() => global.location.reload(), (e) => {
      state.auth = was;
      notify(t("refused") + ": " + e.message, "error");
    });
  });

  async function start() {
    for (const n of document.querySelectorAll("[data-t]")) n.textContent = t(n.dataset.t);
    for (const n of document.querySelectorAll("[data-t-aria]")) n.setAttribute("aria-label", t(n.dataset.tAria));
    document.title = t("tbl.home") + " · " + t("page.title");
    setLive(false);
    const ok = await signIn();
    if (!ok) {
      $("#signin").hidden = false;
      $("#signin-form").addEventListener("submit", (ev) => {
        ev.preventDefault();
        state.auth = { token: $("#signin-token").value.trim(), campaign: "", user: "" };
        save(state.auth);
        global.location.reload();
      });
      return;
    }
    if (global.JournalReceipts) global.JournalReceipts.setHead(head); // before anything is signed
    const sel = $("#signins");
    if (sel) sel.addEventListener("change", () => switchTo(sel.value));
    const ex = $("#export");
    if (ex && state.me && state.me.role !== "viewer") {
      ex.hidden = false;
      ex.dataset.intent = "export";
      ex.addEventListener("click", () => tap("export", t("tbl.export"), exportCampaign));
    }
    startFeed();
    await refresh();
    if (feed) {
      await feed.loadLatest((state.campaign && state.campaign.last_seq) || 0).catch((e) => notify(e.message, "error"));
      olderState();
    }
    await devicesAdded();
    await checkReceipts();
    await followEvents();
    document.body.dataset.ready = "1";
    if (global.performance && performance.mark) performance.mark("table-ready");
  }

  global.JournalTable = {
    DIFFICULTIES: DIFFICULTIES,
    t: t,
    el: el,
    state: () => state,
    get me() {
      return state.me;
    },
    get campaign() {
      return state.campaign;
    },
    get campaignId() {
      return state.auth ? state.auth.campaign : "";
    },
    onUpdate: (fn) => updates.push(fn),
    slot: slot,
    tap: tap,
    button: button,
    intentKey: intentKey,
    alert: alert,
    sideOf: sideOf,
    nameOf: nameOf,
    statusWord: statusWord,
    feed: () => feed,
    exportCampaign: exportCampaign,
    signins: signins,
    APIError: APIError,
    views: views,
    actions: actions,
    api: api,
    command: command,
    campaignPath: campaignPath,
    perform: perform,
    requestReveal: requestReveal,
    proveSuppressed: proveSuppressed,
    requestOnly: requestOnly,
    witness: witness,
    receipt: receipt,
    witnessed: witnessed,
    v2Action: v2Action,
    cosign: cosign,
    consentVoid: consentVoid,
    lastSession: lastSession,
    contribute: contribute,
    contributed: contributed,
    openSession: openSession,
    isV2: isV2,
    sheetOf: sheetOf,
    roster: roster,
    currentTurn: currentTurn,
    hpBar: hpBar,
    value: value,
    form: form,
    replaceKeeping: replaceKeeping,
    refresh: refresh,
    checkReceipts: checkReceipts,
    render: render,
    notify: notify,
    start: start,
    // action adds a row to the table of actions (see player.js, gm.js).
    action: (a) => actions.push(a),
    view: (v) => views.push(v),
  };
  global.addEventListener("load", () => {
    start().catch((e) => notify(e.message, "error"));
  });
})(typeof window !== "undefined" ? window : globalThis);
