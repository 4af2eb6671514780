// The campaign journal's dashboard: the live feed (Server-Sent Events; its
// cards are feed.js's), character cards, initiative, transcript, luck
// charts. Words come from i18n.js (JournalI18n), in the page's language.
//
// Everything is built with DOM calls and textContent: nothing from the
// journal is ever parsed as HTML.
(function () {
  "use strict";

  const $ = (id) => document.getElementById(id);
  const params = new URLSearchParams(location.search);
  const t = (k, ...a) => JournalI18n.t(k, ...a);
  JournalI18n.apply(document);
  document.title = t("page.title");

  const state = {
    campaign: params.get("campaign") || "",
    data: null, // the campaign's state (GET /api/campaigns/{c})
    source: null,
    lastSeq: 0,
    refreshTimer: 0,
    generation: 0, // bumps when the campaign changes, to drop stale replies
  };

  const el = JournalDOM.el; // dom.js

  function svg(tag, attrs, ...children) {
    const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "text") e.textContent = v;
      else e.setAttribute(k, v);
    }
    for (const c of children) e.append(c);
    return e;
  }

  // The access token (journal serve --access): sent as Authorization: Bearer,
  // and as ?access_token= on the event stream, whose EventSource cannot send
  // headers. Kept in this browser only.
  const TOKEN_KEY = "journal.token";
  // A device signed in at the table (table.js keeps its sign-in under
  // "journal.table") reads the dashboard with that sign-in's token when no
  // access token was typed here, and opens its campaign first.
  const tableAuth = (() => {
    try {
      return JSON.parse(localStorage.getItem("journal.table") || "null") || {};
    } catch (e) {
      return {};
    }
  })();
  const token = () => localStorage.getItem(TOKEN_KEY) || tableAuth.token || "";
  if (!state.campaign && tableAuth.campaign) state.campaign = tableAuth.campaign;
  $("token").value = localStorage.getItem(TOKEN_KEY) || "";
  $("token").addEventListener("change", (e) => {
    const v = e.target.value.trim();
    if (v) localStorage.setItem(TOKEN_KEY, v);
    else localStorage.removeItem(TOKEN_KEY);
    open().catch(showError);
  });

  // api reads the journal's API with the access token (dom.js); a 401
  // puts the cursor in the token's field.
  async function api(path) {
    try {
      return await JournalDOM.api("GET", path, undefined, { token: token() });
    } catch (e) {
      if (e instanceof JournalDOM.APIError && e.status === 401) $("token").focus();
      throw e;
    }
  }

  const enc = encodeURIComponent;
  const base = () => "/api/campaigns/" + enc(state.campaign);

  function nameOf(id) {
    const d = state.data;
    const ch = (d && d.characters && d.characters[id]) || (d && d.tor && d.tor.characters && d.tor.characters[id]);
    return (ch && ch.name) || id || "";
  }

  // --- Campaign selection ---
  async function loadCampaigns() {
    const list = await api("/api/campaigns");
    const sel = $("campaign");
    sel.replaceChildren(...list.map((c) => el("option", { value: c.id, text: c.name && c.name !== c.id ? c.name + " (" + c.id + ")" : c.id })));
    $("empty").hidden = list.length > 0;
    if (!list.length) {
      // A page opened before the first campaign: look again until one exists.
      setLive(false, t("live.noCampaign"));
      clearTimeout(state.waitTimer);
      state.waitTimer = setTimeout(() => open().catch(showError), 2000);
      return false;
    }
    if (!list.some((c) => c.id === state.campaign)) state.campaign = list[0].id;
    sel.value = state.campaign;
    return true;
  }

  $("campaign").addEventListener("change", (e) => {
    state.campaign = e.target.value;
    const u = new URL(location.href);
    u.searchParams.set("campaign", state.campaign);
    history.replaceState(null, "", u);
    open();
  });

  // --- Rendering ---
  function renderCampaign() {
    const c = state.data;
    const open = (c.sessions || []).filter((s) => !s.ended).pop();
    const last = (c.sessions || []).slice(-1)[0];
    $("session").textContent = open ? t("session.open", open.id) : last ? t("session.ended", last.id) : t("session.none");
    renderCharacters(c);
    renderCombat(c);
  }

  function renderCharacters(c) {
    $("pool").textContent = c.tor ? t("sheet.pool") + ": " + (c.tor.pool || 0) : "";
    if (c.tor) {
      $("characters").replaceChildren(...(c.tor.roster || []).map((id) => c.tor.characters[id]).filter(Boolean).map(torCard));
      return;
    }
    const cards = (c.roster || []).map((id) => c.characters[id]).filter(Boolean).map((ch) => {
      const pct = ch.max_hp > 0 ? Math.max(0, Math.min(100, (100 * ch.hp) / ch.max_hp)) : 0;
      const facts = [
        el("span", {}, t("sheet.hp") + " ", el("b", { text: ch.hp + "/" + ch.max_hp })),
        el("span", {}, t("sheet.xp") + " ", el("b", { text: String(ch.xp) })),
      ];
      if (ch.token) facts.push(el("span", {}, t("sheet.token") + " ", el("b", { text: ch.token === "player" ? t("sheet.tokenPlayer") : t("sheet.tokenGM") })));
      if (ch.specialization) facts.push(el("span", {}, t("sheet.spec") + " ", el("b", { text: ch.specialization + (ch.spec_used_today ? " (" + t("sheet.used") + ")" : "") })));
      return el("article", { class: "card st-" + ch.status, "data-character": ch.id },
        el("header", {}, el("span", { class: "name", text: ch.name }), el("span", { class: "status", text: t("st." + ch.status) })),
        el("div", { class: "who", text: ch.npc ? t("sheet.npc") : t("sheet.playedBy", ch.player) }),
        el("div", { class: "hp", role: "meter", "aria-valuemin": "0", "aria-valuemax": String(ch.max_hp), "aria-valuenow": String(ch.hp), "aria-label": ch.name + " " + t("sheet.hp") },
          el("span", { style: "width:" + pct.toFixed(1) + "%" })),
        el("div", { class: "facts" }, facts));
    });
    $("characters").replaceChildren(...cards);
  }

  // torCard is a One Ring character: Hope as the bar, Shadow, advancement.
  function torCard(ch) {
    const pct = ch.max_hope > 0 ? Math.max(0, Math.min(100, (100 * ch.hope) / ch.max_hope)) : 0;
    const shadow = ch.shadow + ch.permanent_shadow;
    const status = ch.mad ? t("st.mad") : ch.madness_risk ? t("st.atRisk") : t("st.ok");
    const cls = ch.mad ? "unconscious" : ch.madness_risk ? "incapacitated" : "ok";
    const facts = [
      el("span", {}, t("sheet.hope") + " ", el("b", { text: ch.hope + "/" + ch.max_hope })),
      el("span", {}, t("sheet.shadow") + " ", el("b", { text: String(shadow) + (ch.permanent_shadow ? " (" + t("sheet.permanent", ch.permanent_shadow) + ")" : "") })),
      el("span", {}, t("sheet.advancement") + " ", el("b", { text: String(ch.advancement_total || 0) + " + " + (ch.points || []).length })),
    ];
    if ((ch.flaws || []).length) facts.push(el("span", {}, t("sheet.flaws") + " ", el("b", { text: ch.flaws.join(", ") })));
    return el("article", { class: "card st-" + cls, "data-character": ch.id },
      el("header", {}, el("span", { class: "name", text: ch.name || ch.id }), el("span", { class: "status", text: status })),
      el("div", { class: "who", text: (ch.npc ? t("sheet.npc") : t("sheet.playedBy", ch.player)) + (ch.culture ? " · " + ch.culture : "") }),
      el("div", { class: "hp", role: "meter", "aria-valuemin": "0", "aria-valuemax": String(ch.max_hope), "aria-valuenow": String(ch.hope), "aria-label": (ch.name || ch.id) + " " + t("sheet.hope") },
        el("span", { style: "width:" + pct.toFixed(1) + "%" })),
      el("div", { class: "facts" }, facts));
  }

  function renderCombat(c) {
    const cb = c.combat;
    $("no-combat").hidden = !!cb;
    $("round").textContent = cb ? t("round", cb.round) : "";
    if (!cb) {
      $("initiative").replaceChildren();
      return;
    }
    const next = (cb.order || []).find((id) => !(cb.attacked || {})[id] && canAct(c.characters[id]));
    $("initiative").replaceChildren(...(cb.order || []).map((id) => {
      const ch = c.characters[id] || {};
      const cls = [(cb.attacked || {})[id] ? "done" : "", id === next ? "next" : ""].join(" ").trim();
      const dmg = (cb.damage_taken || {})[id];
      return el("li", { class: cls || null, "data-character": id, "data-next": id === next ? t("combat.next") : null },
        nameOf(id), " ", el("span", { class: "init", text: t("sheet.hp") + " " + ch.hp + "/" + ch.max_hp + (dmg ? " · " + t("combat.took", dmg) : "") + (ch.status && ch.status !== "ok" ? " · " + t("st." + ch.status) : "") }));
    }));
  }

  function canAct(ch) {
    return ch && (ch.status === "ok" || ch.status === "incapacitated");
  }

  // --- The feed (feed.js) ---
  const feed = JournalFeed.create({
    list: $("feed"),
    api: api,
    campaign: () => state.campaign,
    nameOf: nameOf,
    onRender: (n) => { $("no-rolls").hidden = n > 0; },
    // Every verification (a card's Verify too) is the whole campaign's:
    // its verdict and flags are shown as `journal replay` gives them.
    onReport: (rep) => showAudit(rep),
  });

  // showAudit puts the campaign's audit (feed.js summaryPanel) under Verify all.
  function showAudit(rep) {
    const out = $("verify-all-result");
    const panel = JournalFeed.summaryPanel(rep, feed);
    out.dataset.verdict = rep.summary.verdict;
    out.dataset.mismatch = String(rep.mismatches.length);
    out.className = "quiet " + panel.className;
    out.replaceChildren(...panel.childNodes);
  }

  window.JournalDashboard = { feed: feed };

  function olderState() {
    $("older").hidden = feed.done();
    $("feed-start").hidden = !feed.done() || feed.size() === 0;
  }

  async function older() {
    if (state.loadingOlder || feed.done()) return;
    state.loadingOlder = true;
    try {
      await feed.loadOlder();
    } finally {
      state.loadingOlder = false;
      olderState();
    }
  }
  $("older").addEventListener("click", () => older().catch(showError));
  // Older events on scroll: when the end of the feed comes into view.
  if ("IntersectionObserver" in window) {
    new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) older().catch(showError);
    }, { rootMargin: "400px" }).observe($("older"));
  }

  $("verify-all").addEventListener("click", async () => {
    const b = $("verify-all");
    b.disabled = true;
    const out = $("verify-all-result");
    delete out.dataset.verdict; // until this verification's (a card's may be there)
    delete out.dataset.mismatch;
    out.textContent = t("verify.working");
    try {
      await feed.verifyAll(); // onReport shows it
    } catch (err) {
      $("verify-all-result").textContent = t("verify.error", err.message);
    } finally {
      b.disabled = false;
    }
  });

  // --- Luck ---
  function renderStats(rep) {
    const dists = (rep.distributions || []).filter((d) => d.n > 0);
    $("charts").replaceChildren(...dists.map(chart));
    if (!dists.length) $("charts").replaceChildren(el("p", { class: "quiet", text: t("luck.noDice") }));
    const rows = (rep.characters || []).filter((c) => c.rolls > 0);
    const tor = state.data && state.data.system === "tor";
    const cols = tor
      ? [[t("luck.rolls"), "rolls"], [t("luck.success"), "successes"], [t("luck.eye"), "eyes"], [t("luck.rune"), "runes"]]
      : [[t("luck.rolls"), "rolls"], [t("luck.success"), "successes"], [t("luck.crit"), "criticals"], [t("luck.fumble"), "fumbles"], [t("luck.nat1"), "natural1s"], [t("luck.dealt"), "damage_dealt"], [t("luck.taken"), "damage_taken"]];
    const head = el("tr", {}, el("th", { text: t("luck.character") }), cols.map(([h]) => el("th", { text: h })));
    $("luck-table").replaceChildren(...(rows.length ? [el("thead", {}, head), el("tbody", {}, rows.map((c) => el("tr", {},
      el("td", { text: nameOf(c.character) }), cols.map(([, k]) => el("td", { text: String(c[k] || 0) })))))] : []));
  }

  // distName is a distribution's name in the page's language: "kept d10
  // mid" reads "kept d10 (middle)".
  function distName(name) {
    const m = /^kept (d\d+) (low|mid|high)$/.exec(name);
    return m ? t("luck.kept", m[1], t("level." + m[2])) : name;
  }

  // chart draws observed counts as bars and expected counts as ticks.
  function chart(d) {
    const W = 240, H = 120, L = 22, B = 16, T = 6;
    const n = d.observed.length;
    const top = Math.max(1, ...d.observed, ...d.expected);
    const bw = (W - L - 4) / n;
    const y = (v) => T + (H - T - B) * (1 - v / top);
    const g = svg("svg", { viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": t("luck.aria", distName(d.name)) });
    for (const v of [0, top / 2, top]) {
      g.append(svg("line", { class: "grid", x1: L, x2: W - 2, y1: y(v), y2: y(v) }));
      g.append(svg("text", { class: "axis", x: L - 3, y: y(v) + 3, "text-anchor": "end", text: v >= 10 ? Math.round(v) : +v.toFixed(1) }));
    }
    d.observed.forEach((o, i) => {
      const x = L + 2 + i * bw;
      const bar = svg("rect", { class: "bar", x: x + bw * 0.12, width: bw * 0.76, y: y(o), height: Math.max(0, y(0) - y(o)) });
      bar.append(svg("title", { text: t("luck.face", i + 1, o, d.expected[i].toFixed(1)) }));
      g.append(bar);
      g.append(svg("line", { class: "exp", x1: x + bw * 0.05, x2: x + bw * 0.95, y1: y(d.expected[i]), y2: y(d.expected[i]) }));
      if (n <= 12 || (i + 1) % 5 === 0 || i === 0) {
        g.append(svg("text", { class: "axis", x: x + bw / 2, y: H - 4, "text-anchor": "middle", text: String(i + 1) }));
      }
    });
    const fit = d.fit ? t("luck.fit", d.fit.stat.toFixed(2), d.fit.df, d.fit.p_value.toFixed(3)) : "";
    return el("figure", { class: "chart", "data-dist": d.name },
      el("figcaption", {}, el("b", { text: distName(d.name) }), " · " + t("luck.dice", d.n), el("span", { class: "sub", text: fit })),
      g,
      el("p", { class: "legend" }, el("span", { class: "sw" }), t("luck.seen"), el("span", { class: "ln" }), t("luck.expected")));
  }

  // --- Transcript ---
  function renderTranscript(lines, scope) {
    $("transcript-scope").textContent = scope;
    const list = $("transcript");
    // Newest first, the last 100 lines: the page scrolls, the list does not.
    list.replaceChildren(...lines.slice(-100).reverse().map((l) => el("li", { "data-seq": String(l.seq) }, el("span", { class: "seq", text: String(l.seq) }), el("span", { text: l.text }))));
  }

  // --- Loading and the live feed ---
  async function refresh() {
    if (!(await refreshState())) return;
    await refreshReports();
  }

  // refreshState reads and draws the campaign's state (sheets, combat).
  async function refreshState() {
    const gen = state.generation;
    const c = await api(base());
    if (gen !== state.generation) return false;
    state.data = c;
    renderCampaign();
    return true;
  }

  // refreshReports reads and draws the transcript and the luck charts,
  // which cost a read of the whole campaign.
  async function refreshReports() {
    const gen = state.generation;
    const c = state.data;
    const last = (c.sessions || []).slice(-1)[0];
    const [lines, stats] = await Promise.all([
      api(base() + "/transcript?lang=" + JournalI18n.lang() + (last ? "&session=" + enc(last.id) : "") + "&tail=100"), // what renderTranscript shows
      api(base() + "/stats" + (last ? "?session=" + enc(last.id) : "")),
    ]);
    if (gen !== state.generation) return;
    renderTranscript(lines, last ? t("transcript.session", last.id) : t("transcript.all"));
    renderStats(stats);
  }

  function scheduleRefresh() {
    clearTimeout(state.refreshTimer);
    state.refreshTimer = setTimeout(() => refresh().catch(showError), 150);
  }

  function setLive(on, text) {
    const l = $("live");
    l.className = "pill live " + (on ? "on" : "off");
    l.textContent = text;
  }

  function showError(err) {
    setLive(false, t("live.error", err.message));
  }

  async function open() {
    state.generation++;
    if (state.source) state.source.close();
    feed.clear();
    if (!(await loadCampaigns())) return;
    const gen = state.generation;
    if (!(await refreshState())) return;
    const upTo = state.data.last_seq;
    // The feed first; the transcript and the charts come after.
    refreshReports().catch(showError);
    await feed.loadLatest(upTo);
    if (gen !== state.generation) return;
    olderState();
    follow(upTo + 1);
  }

  function follow(from) {
    const src = new EventSource(base() + "/events?from=" + from + (token() ? "&access_token=" + enc(token()) : ""));
    state.source = src;
    src.onopen = () => setLive(true, t("live.on"));
    src.onerror = () => setLive(false, src.readyState === EventSource.CLOSED ? t("live.disconnected") : t("live.reconnecting"));
    src.onmessage = (m) => {
      let ev;
      try {
        ev = JSON.parse(m.data);
      } catch (err) {
        return;
      }
      const seq = Number(m.lastEventId);
      state.lastSeq = Math.max(state.lastSeq, seq);
      feed.add([{ seq: seq, event: ev }], true);
      scheduleRefresh();
    };
  }

  open().catch(showError);
})();
