// The campaign journal's dashboard: live roll feed (Server-Sent Events),
// character cards, initiative, transcript, luck charts, and a verify button
// per roll that re-derives its dice in the browser (dice.js).
//
// Everything is built with DOM calls and textContent: nothing from the
// journal is ever parsed as HTML.
(function () {
  "use strict";

  const $ = (id) => document.getElementById(id);
  const params = new URLSearchParams(location.search);
  const FEED_MAX = 60;

  const state = {
    campaign: params.get("campaign") || "",
    data: null, // the campaign's state (GET /api/campaigns/{c})
    rolls: [], // [{seq, event}] newest first
    source: null,
    lastSeq: 0,
    refreshTimer: 0,
    generation: 0, // bumps when the campaign changes, to drop stale replies
  };

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "class") e.className = v;
      else if (k === "text") e.textContent = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return e;
  }

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
  const token = () => localStorage.getItem(TOKEN_KEY) || "";
  $("token").value = token();
  $("token").addEventListener("change", (e) => {
    const v = e.target.value.trim();
    if (v) localStorage.setItem(TOKEN_KEY, v);
    else localStorage.removeItem(TOKEN_KEY);
    open().catch(showError);
  });

  async function api(path) {
    const headers = { Accept: "application/json" };
    if (token()) headers.Authorization = "Bearer " + token();
    const res = await fetch(path, { headers: headers });
    if (res.status === 401) $("token").focus();
    const body = await res.json().catch(() => null);
    if (!res.ok) throw new Error((body && body.error) || res.status + " " + res.statusText);
    return body;
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
      setLive(false, "no campaign");
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
    $("session").textContent = open ? "session " + open.id + " in play" : last ? "session " + last.id + " ended" : "no session yet";
    renderCharacters(c);
    renderCombat(c);
  }

  function renderCharacters(c) {
    if (c.tor) {
      $("characters").replaceChildren(...(c.tor.roster || []).map((id) => c.tor.characters[id]).filter(Boolean).map(torCard));
      return;
    }
    const cards = (c.roster || []).map((id) => c.characters[id]).filter(Boolean).map((ch) => {
      const pct = ch.max_hp > 0 ? Math.max(0, Math.min(100, (100 * ch.hp) / ch.max_hp)) : 0;
      const facts = [
        el("span", {}, "HP ", el("b", { text: ch.hp + "/" + ch.max_hp })),
        el("span", {}, "XP ", el("b", { text: String(ch.xp) })),
      ];
      if (ch.token) facts.push(el("span", {}, "token ", el("b", { text: ch.token === "player" ? "with player" : "with GM" })));
      if (ch.specialization) facts.push(el("span", {}, "spec ", el("b", { text: ch.specialization + (ch.spec_used_today ? " (used)" : "") })));
      return el("article", { class: "card st-" + ch.status, "data-character": ch.id },
        el("header", {}, el("span", { class: "name", text: ch.name }), el("span", { class: "status", text: ch.status })),
        el("div", { class: "who", text: ch.npc ? "NPC" : "played by " + ch.player }),
        el("div", { class: "hp", role: "meter", "aria-valuemin": "0", "aria-valuemax": String(ch.max_hp), "aria-valuenow": String(ch.hp), "aria-label": ch.name + " HP" },
          el("span", { style: "width:" + pct.toFixed(1) + "%" })),
        el("div", { class: "facts" }, facts));
    });
    $("characters").replaceChildren(...cards);
  }

  // torCard is a One Ring character: Hope as the bar, Shadow, advancement.
  function torCard(ch) {
    const pct = ch.max_hope > 0 ? Math.max(0, Math.min(100, (100 * ch.hope) / ch.max_hope)) : 0;
    const shadow = ch.shadow + ch.permanent_shadow;
    const status = ch.mad ? "mad" : ch.madness_risk ? "at risk" : "ok";
    const cls = ch.mad ? "unconscious" : ch.madness_risk ? "incapacitated" : "ok";
    const facts = [
      el("span", {}, "Hope ", el("b", { text: ch.hope + "/" + ch.max_hope })),
      el("span", {}, "Shadow ", el("b", { text: String(shadow) + (ch.permanent_shadow ? " (" + ch.permanent_shadow + " permanent)" : "") })),
      el("span", {}, "advancement ", el("b", { text: String(ch.advancement_total || 0) + " + " + (ch.points || []).length })),
    ];
    if ((ch.flaws || []).length) facts.push(el("span", {}, "flaws ", el("b", { text: ch.flaws.join(", ") })));
    return el("article", { class: "card st-" + cls, "data-character": ch.id },
      el("header", {}, el("span", { class: "name", text: ch.name || ch.id }), el("span", { class: "status", text: status })),
      el("div", { class: "who", text: (ch.npc ? "NPC" : "played by " + ch.player) + (ch.culture ? " · " + ch.culture : "") }),
      el("div", { class: "hp", role: "meter", "aria-valuemin": "0", "aria-valuemax": String(ch.max_hope), "aria-valuenow": String(ch.hope), "aria-label": (ch.name || ch.id) + " Hope" },
        el("span", { style: "width:" + pct.toFixed(1) + "%" })),
      el("div", { class: "facts" }, facts));
  }

  function renderCombat(c) {
    const cb = c.combat;
    $("no-combat").hidden = !!cb;
    $("round").textContent = cb ? "round " + cb.round : "";
    if (!cb) {
      $("initiative").replaceChildren();
      return;
    }
    const next = (cb.order || []).find((id) => !(cb.attacked || {})[id] && canAct(c.characters[id]));
    $("initiative").replaceChildren(...(cb.order || []).map((id) => {
      const ch = c.characters[id] || {};
      const cls = [(cb.attacked || {})[id] ? "done" : "", id === next ? "next" : ""].join(" ").trim();
      const dmg = (cb.damage_taken || {})[id];
      return el("li", { class: cls || null, "data-character": id },
        nameOf(id), " ", el("span", { class: "init", text: "HP " + ch.hp + "/" + ch.max_hp + (dmg ? " · took " + dmg : "") + (ch.status && ch.status !== "ok" ? " · " + ch.status : "") }));
    }));
  }

  function canAct(ch) {
    return ch && (ch.status === "ok" || ch.status === "incapacitated");
  }

  function rollTitle(d) {
    const who = nameOf(d.character);
    switch (d.kind) {
      case "damage": return who + " · damage " + d.dice + (d.critical ? " ×2" : "");
      case "heal": return who + " · healing after combat";
      case "initiative": return who + " · initiative";
      case "melee": case "ranged": return who + " attacks " + nameOf(d.target) + (d.weapon ? " (" + d.weapon + ")" : "");
      case "tor": return who + " · " + (d.skill || "roll") + (d.quality ? " · " + d.quality : "") + (d.eye ? " · the Eye" : "") + (d.rune ? " · Gandalf rune" : "");
      default: return who + " · " + (d.skill || d.attribute || d.kind);
    }
  }

  function diceChips(d) {
    const faces = d.faces || [];
    if (d.dice === "1o3d10") {
      const kept = d.kept || [];
      const groups = [];
      for (let i = 0; i < faces.length; i += 3) {
        const g = faces.slice(i, i + 3);
        const k = kept[i / 3];
        let marked = false;
        groups.push(...g.map((f) => {
          const isKept = !marked && f === k;
          if (isKept) marked = true;
          return el("span", { class: "die" + (isKept ? " kept" : ""), text: String(f) });
        }));
      }
      return groups;
    }
    return faces.map((f, i) => el("span", { class: "die" + (d.kind === "tor" && i === 0 ? " kept" : ""), text: String(f) }));
  }

  function rollItem(rec, fresh) {
    const ev = rec.event;
    const d = ev.data || {};
    const verdict = el("span", { class: "verdict", role: "status" });
    const button = el("button", { class: "verify", type: "button", title: "Re-derive these dice from the session's seed, in this browser" }, "Verify");
    button.addEventListener("click", () => verifyRoll(ev, button, verdict));
    const against = d.difficulty !== undefined && d.difficulty !== null ? " vs " + d.difficulty + (d.difficulty_name ? " (" + d.difficulty_name + ")" : "") : d.tn ? " vs TN " + d.tn : "";
    const outcome = d.outcome && d.outcome !== "rolled" ? el("span", { class: "outcome " + d.outcome, text: d.outcome }) : el("span");
    return el("li", { class: "roll" + (fresh ? " fresh" : ""), "data-event-id": ev.id, "data-seq": String(rec.seq) },
      el("div", {}, el("div", { class: "what", text: rollTitle(d) }), el("div", { class: "dice" }, diceChips(d))),
      el("div", {}, el("div", { class: "total", text: String(d.total) }), outcome),
      el("div", { class: "meta", text: (d.level ? "level " + d.level + " · " : "") + "total " + d.total + against + " · " + d.dice +
        " · session " + ev.session + " · nonce " + d.nonce + (d.entropy ? " · entropy “" + d.entropy + "”" : "") + " · seq " + rec.seq }),
      el("div", { class: "verify-row" }, button, verdict));
  }

  function renderFeed() {
    $("no-rolls").hidden = state.rolls.length > 0;
  }

  function addRoll(rec, fresh) {
    if (state.rolls.some((r) => r.event.id === rec.event.id)) return;
    state.rolls.unshift(rec);
    const feed = $("feed");
    feed.prepend(rollItem(rec, fresh));
    while (state.rolls.length > FEED_MAX) {
      state.rolls.pop();
      feed.lastElementChild && feed.lastElementChild.remove();
    }
    renderFeed();
  }

  // --- Verification, in the browser ---
  async function verifyRoll(ev, button, verdict) {
    button.disabled = true;
    verdict.className = "verdict";
    verdict.textContent = "verifying…";
    try {
      const sessions = await api(base() + "/sessions");
      const session = sessions.find((s) => s.id === ev.session);
      const r = await JournalDice.verify(ev, session);
      verdict.className = "verdict " + r.status;
      verdict.dataset.status = r.status;
      if (r.status === "verified") {
        verdict.replaceChildren("✓ verified: SHA-256(seed) = commitment ", el("code", { text: short(r.commitment) }),
          "; faces " + r.derived.join(" ") + " re-derived from the seed (nonce " + r.nonce + ")");
      } else if (r.status === "sealed") {
        verdict.replaceChildren("🔒 not yet revealed: sealed by commitment ", el("code", { text: short(r.commitment) }),
          "; the seed is revealed when session " + ev.session + " ends");
      } else {
        verdict.replaceChildren("✗ MISMATCH: " + r.reason);
      }
    } catch (err) {
      verdict.className = "verdict mismatch";
      verdict.dataset.status = "error";
      verdict.textContent = "could not verify: " + err.message;
    } finally {
      button.disabled = false;
    }
  }

  function short(hex) {
    return hex ? hex.slice(0, 12) + "…" : "?";
  }

  // --- Luck ---
  function renderStats(rep) {
    const dists = (rep.distributions || []).filter((d) => d.n > 0);
    $("charts").replaceChildren(...dists.map(chart));
    if (!dists.length) $("charts").replaceChildren(el("p", { class: "quiet", text: "No dice rolled yet." }));
    const rows = (rep.characters || []).filter((c) => c.rolls > 0);
    const tor = state.data && state.data.system === "tor";
    const cols = tor
      ? [["rolls", "rolls"], ["success", "successes"], ["eye", "eyes"], ["rune", "runes"]]
      : [["rolls", "rolls"], ["success", "successes"], ["crit", "criticals"], ["fumble", "fumbles"], ["nat 1", "natural1s"], ["dealt", "damage_dealt"], ["taken", "damage_taken"]];
    const head = el("tr", {}, el("th", { text: "character" }), cols.map(([h]) => el("th", { text: h })));
    $("luck-table").replaceChildren(...(rows.length ? [el("thead", {}, head), el("tbody", {}, rows.map((c) => el("tr", {},
      el("td", { text: nameOf(c.character) }), cols.map(([, k]) => el("td", { text: String(c[k] || 0) })))))] : []));
  }

  // chart draws observed counts as bars and expected counts as ticks.
  function chart(d) {
    const W = 240, H = 120, L = 22, B = 16, T = 6;
    const n = d.observed.length;
    const top = Math.max(1, ...d.observed, ...d.expected);
    const bw = (W - L - 4) / n;
    const y = (v) => T + (H - T - B) * (1 - v / top);
    const g = svg("svg", { viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": d.name + ": observed against expected faces" });
    for (const v of [0, top / 2, top]) {
      g.append(svg("line", { class: "grid", x1: L, x2: W - 2, y1: y(v), y2: y(v) }));
      g.append(svg("text", { class: "axis", x: L - 3, y: y(v) + 3, "text-anchor": "end", text: v >= 10 ? Math.round(v) : +v.toFixed(1) }));
    }
    d.observed.forEach((o, i) => {
      const x = L + 2 + i * bw;
      const bar = svg("rect", { class: "bar", x: x + bw * 0.12, width: bw * 0.76, y: y(o), height: Math.max(0, y(0) - y(o)) });
      bar.append(svg("title", { text: "face " + (i + 1) + ": " + o + " seen, " + d.expected[i].toFixed(1) + " expected" }));
      g.append(bar);
      g.append(svg("line", { class: "exp", x1: x + bw * 0.05, x2: x + bw * 0.95, y1: y(d.expected[i]), y2: y(d.expected[i]) }));
      if (n <= 12 || (i + 1) % 5 === 0 || i === 0) {
        g.append(svg("text", { class: "axis", x: x + bw / 2, y: H - 4, "text-anchor": "middle", text: String(i + 1) }));
      }
    });
    const fit = d.fit ? "χ² " + d.fit.stat.toFixed(2) + " (df " + d.fit.df + "), p = " + d.fit.p_value.toFixed(3) : "";
    return el("figure", { class: "chart", "data-dist": d.name },
      el("figcaption", {}, el("b", { text: d.name }), " · " + d.n + " dice", el("span", { class: "sub", text: fit })),
      g,
      el("p", { class: "legend" }, el("span", { class: "sw" }), "observed", el("span", { class: "ln" }), "expected"));
  }

  // --- Transcript ---
  function renderTranscript(lines, scope) {
    $("transcript-scope").textContent = scope;
    const list = $("transcript");
    const atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
    list.replaceChildren(...lines.slice(-300).map((l) => el("li", { "data-seq": String(l.seq) }, el("span", { class: "seq", text: String(l.seq) }), el("span", { text: l.text }))));
    if (atBottom) list.scrollTop = list.scrollHeight;
  }

  // --- Loading and the live feed ---
  async function refresh() {
    const gen = state.generation;
    const c = await api(base());
    if (gen !== state.generation) return;
    state.data = c;
    renderCampaign();
    const last = (c.sessions || []).slice(-1)[0];
    const [lines, stats] = await Promise.all([
      api(base() + "/transcript" + (last ? "?session=" + enc(last.id) : "")),
      api(base() + "/stats" + (last ? "?session=" + enc(last.id) : "")),
    ]);
    if (gen !== state.generation) return;
    renderTranscript(lines, last ? "session " + last.id : "all events");
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
    setLive(false, "error: " + err.message);
  }

  async function open() {
    state.generation++;
    if (state.source) state.source.close();
    state.rolls = [];
    $("feed").replaceChildren();
    if (!(await loadCampaigns())) return;
    const gen = state.generation;
    await refresh();
    if (gen !== state.generation) return;
    const upTo = state.data.last_seq;
    const rolls = await api(base() + "/events?types=journal.roll.made.v1&tail=" + FEED_MAX + "&to=" + upTo);
    if (gen !== state.generation) return;
    for (const r of rolls) addRoll(r, false);
    renderFeed();
    follow(upTo + 1);
  }

  function follow(from) {
    const src = new EventSource(base() + "/events?from=" + from + (token() ? "&access_token=" + enc(token()) : ""));
    state.source = src;
    src.onopen = () => setLive(true, "live");
    src.onerror = () => setLive(false, src.readyState === EventSource.CLOSED ? "disconnected" : "reconnecting…");
    src.onmessage = (m) => {
      let ev;
      try {
        ev = JSON.parse(m.data);
      } catch (err) {
        return;
      }
      const seq = Number(m.lastEventId);
      state.lastSeq = Math.max(state.lastSeq, seq);
      if (ev.type === "journal.roll.made.v1") addRoll({ seq: seq, event: ev }, true);
      scheduleRefresh();
    };
  }

  open().catch(showError);
})();
