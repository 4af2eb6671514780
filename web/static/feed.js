// @ts-check
// The feed as a game's chat: one card per action (an attack with its hit,
// its damage and the target's HP after it; a contest with its winner; a
// roll with its dice, criticals, fumbles and natural 1s styled; The One
// Ring's Eye and rune as glyphs with great and extraordinary successes),
// the technical details (nonce, sequence, session, level) behind a toggle,
// Verify on each card and "Verify all", a permalink and a copy button that
// gives the forum line (BBCode, Markdown) linking to it, and older events
// loaded on scroll.
//
// Everything is built with DOM calls and textContent: nothing from the
// journal is ever parsed as HTML. Words come from i18n.js (JournalI18n).
//
//   const feed = JournalFeed.create({list, api, campaign, nameOf, who, noteOf})
//     who: true puts under each roll card who recorded it and when (the
//     event's actor and time, in the page's language); noteOf(event) is
//     a line under it (the GM's note of the call a roll answers), or "".
//   feed.add(records, fresh)   records: [{seq, event}] in any order
//   feed.verifyAll()           badges on every card, resolves to the counts
(function (global) {
  "use strict";

  const t = (k, ...a) => global.JournalI18n.t(k, ...a);
  const ROLL = "journal.roll.made.v1";
  const ATTACK = "journal.attack.resolved.v1";
  const CONTEST = "journal.contest.resolved.v1";
  const TAKEN = "journal.damage.taken.v1";
  const HEALED = "journal.healed.v1";
  const COMBAT = "journal.combat.started.v1";

  // TYPES are the event types the feed shows (as cards or inside one).
  const TYPES = [
    ROLL, ATTACK, CONTEST, TAKEN, HEALED, COMBAT,
    "journal.combat.round.v1", "journal.combat.ended.v1",
    "journal.session.started.v1", "journal.session.ended.v1",
    "journal.xp.granted.v1", "journal.event.voided.v1", "journal.roll.cancelled.v1", "journal.roll.proved.v1", "journal.roll.hidden.v1",
    "journal.tor.hope.spent.v1", "journal.tor.fellowship.spent.v1", "journal.tor.shadow.gained.v1",
    "journal.tor.advancement.granted.v1", "journal.tor.madness.begun.v1",
  ];
  const PAGE = 40;
  const LIVE_MAX = 200;

  const el = global.JournalDOM.el; // dom.js

  const EYE = "👁";
  const RUNE = "ᚷ";

  // glyph draws the Eye or the rune as a small SVG, so that it shows
  // whatever fonts the device has (the forum line keeps the characters).
  function glyph(kind) {
    const NS = "http://www.w3.org/2000/svg";
    const g = document.createElementNS(NS, "svg");
    g.setAttribute("viewBox", "0 0 16 16");
    g.setAttribute("aria-hidden", "true");
    const add = (tag, attrs) => {
      const e = document.createElementNS(NS, tag);
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
      g.append(e);
    };
    if (kind === "eye") {
      add("path", { d: "M1 8 Q8 1.5 15 8 Q8 14.5 1 8 Z", fill: "#ff9a3c" });
      add("ellipse", { cx: "8", cy: "8", rx: "1.3", ry: "4", fill: "#1a0b05" });
    } else {
      add("path", { d: "M6 2 V14 M6 3 L11 6.5 M6 7.5 L11 11", stroke: "currentColor", "stroke-width": "1.8", fill: "none", "stroke-linecap": "round" });
    }
    return g;
  }

  // dice draws a roll's faces: 1o3d10 with the kept die of each round
  // marked (a 10 that explodes, a 1 that is a natural 1); The One Ring's
  // feat die as the Eye or the rune, its sixes marked; damage dice.
  function dice(d) {
    const faces = d.faces || [];
    if (d.dice === "1o3d10") {
      const kept = d.kept || [];
      const out = [];
      for (let i = 0; i < faces.length; i += 3) {
        const k = kept[i / 3];
        let marked = false;
        if (i > 0) out.push(el("span", { class: "explode", title: t("dice.explodes"), text: "+" }));
        for (const f of faces.slice(i, i + 3)) {
          const isKept = !marked && f === k;
          if (isKept) marked = true;
          out.push(el("span", { class: "die d10" + (isKept ? " kept" : "") + (f === 10 ? " max" : "") + (f === 1 ? " one" : ""), text: String(f) }));
        }
      }
      return out;
    }
    if (d.kind === "tor") {
      return faces.map((f, i) => {
        if (i === 0) {
          if (f === 11) return el("span", { class: "die feat eye", role: "img", title: t("tor.eye"), "aria-label": t("tor.eye"), "data-face": "11" }, glyph("eye"));
          if (f === 12) return el("span", { class: "die feat rune", role: "img", title: t("tor.rune"), "aria-label": t("tor.rune"), "data-face": "12" }, glyph("rune"));
          return el("span", { class: "die feat kept", text: String(f) });
        }
        return el("span", { class: "die d6" + (f === 6 ? " six" : ""), text: String(f) });
      });
    }
    return faces.map((f) => el("span", { class: "die", text: String(f) }));
  }

  // outcomeChip is the verdict as a styled word: criticals, fumbles and
  // natural 1s stand out; One Ring successes show their quality.
  function outcomeChip(d) {
    if (d.kind === "tor") {
      if (d.outcome === "success") {
        const q = d.quality || "success";
        return el("span", { class: "outcome q-" + q, "data-outcome": "success", "data-quality": q }, (q === "great" ? "★ " : q === "extraordinary" ? "★★ " : "") + t("q." + q));
      }
      return el("span", { class: "outcome failure", "data-outcome": "failure", text: t("o.failure") });
    }
    if (!d.outcome || d.outcome === "rolled") return null;
    const icon = { critical: "✦ ", fumble: "☠ ", natural1: "⚠ " }[d.outcome] || "";
    return el("span", { class: "outcome " + d.outcome, "data-outcome": d.outcome, text: icon + t("o." + d.outcome) });
  }

  function against(d) {
    if (d.kind === "tor") return d.tn ? t("card.tn", d.tn) : "";
    if (d.difficulty === undefined || d.difficulty === null) return "";
    return d.difficulty_name ? t("card.vsNamed", d.difficulty, d.difficulty_name) : t("card.vs", d.difficulty);
  }

  function create(opts) {
    const list = opts.list;
    const api = opts.api;
    const enc = encodeURIComponent;
    const base = () => "/api/campaigns/" + enc(opts.campaign());
    const nameOf = opts.nameOf || ((id) => id);
    const events = new Map(); // id → {seq, event}
    const nodes = new Map(); // head id → {node, sig}
    const verdicts = {}; // roll id → verdict (from the last verification)
    let oldest = Infinity;
    let done = false;
    let all = null; // every event of the campaign, for verification: {records, last}
    const hpCache = new Map();

    // add takes events into the feed. Pages (fresh false) render at once;
    // live events (fresh) render once per task however many arrive, and
    // the feed then keeps the newest LIVE_MAX events (so a render costs
    // LIVE_MAX, not the session): the older ones are one scroll away again
    // (loadOlder).
    let pending = false;
    function add(records, fresh) {
      for (const r of records) {
        if (!r || !r.event || !TYPES.includes(r.event.type)) continue;
        if (!events.has(r.event.id)) events.set(r.event.id, { seq: r.seq, event: r.event, fresh: !!fresh });
        if (r.seq < oldest) oldest = r.seq;
      }
      if (!fresh) {
        render();
        return;
      }
      if (pending) return;
      pending = true;
      queueMicrotask(() => {
        pending = false;
        trim();
        render();
      });
    }

    // trim drops the oldest events past LIVE_MAX, unless the reader has
    // scrolled down to read them.
    function trim() {
      if (events.size <= LIVE_MAX || global.scrollY > 2000) return;
      const recs = [...events.values()].sort((a, b) => b.seq - a.seq);
      for (const r of recs.slice(LIVE_MAX)) events.delete(r.event.id);
      oldest = recs[LIVE_MAX - 1].seq;
      done = false;
    }

    function clear() {
      events.clear();
      nodes.clear();
      list.replaceChildren();
      oldest = Infinity;
      done = false;
      all = null;
      report = null;
      for (const k of Object.keys(verdicts)) delete verdicts[k];
    }

    const byID = (id) => (id && events.get(id)) || null;

    // heads groups the events into cards, newest first: an attack claims its
    // rolls and the damage taken of its batch; a contest its two rolls; a
    // heal after combat its roll; a combat's start its initiative rolls.
    function heads() {
      const recs = [...events.values()].sort((a, b) => b.seq - a.seq);
      const claimed = new Set();
      const related = new Map();
      const bySeq = new Map(recs.map((r) => [r.seq, r]));
      for (const r of recs) {
        const ev = r.event;
        const d = ev.data || {};
        let rel = [];
        if (ev.type === ATTACK) {
          rel = [d.attack_roll, d.damage_roll];
          for (let q = r.seq - 3; q < r.seq; q++) {
            const o = bySeq.get(q);
            if (o && o.event.type === TAKEN && (o.event.data || {}).character === d.target) rel.push(o.event.id);
          }
        } else if (ev.type === CONTEST) {
          rel = [d.roll_a, d.roll_b];
        } else if (ev.type === COMBAT) {
          rel = Object.values(d.initiative || {});
        } else if (ev.type === HEALED) {
          const roll = bySeq.get(r.seq - 1);
          if (roll && roll.event.type === ROLL && (roll.event.data || {}).kind === "heal" && (roll.event.data || {}).character === d.character) rel = [roll.event.id];
        }
        rel = rel.filter(Boolean);
        rel.forEach((id) => claimed.add(id));
        related.set(ev.id, rel);
      }
      return recs.filter((r) => !claimed.has(r.event.id)).map((r) => ({ rec: r, rel: related.get(r.event.id) || [] }));
    }

    function render() {
      const hs = heads();
      const keep = new Set();
      hs.forEach((h, i) => {
        const id = h.rec.event.id;
        const sig = h.rel.map((x) => x + (events.has(x) ? "+" : "-")).join(",");
        let n = nodes.get(id);
        if (!n || n.sig !== sig) {
          const node = card(h.rec, h.rel);
          if (n) n.node.replaceWith(node);
          n = { node: node, sig: sig };
          nodes.set(id, n);
        }
        keep.add(id);
        const at = list.children[i];
        if (at !== n.node) list.insertBefore(n.node, at || null);
      });
      for (const [id, n] of nodes) {
        if (!keep.has(id)) {
          n.node.remove();
          nodes.delete(id);
        }
      }
      if (opts.onRender) opts.onRender(hs.length);
    }

    // --- Cards ---
    function card(rec, rel) {
      const ev = rec.event;
      const d = ev.data || {};
      switch (ev.type) {
        case ROLL: return rollCard(rec, [rec]);
        case ATTACK: return attackCard(rec, rel);
        case CONTEST: return contestCard(rec);
        case COMBAT: return note(rec, "⚔", t("n.combatStarted", (d.order || []).map((id) => nameOf(id) + " " + ((d.totals || {})[id] ?? "")).join(" · ")), rel.map(byID).filter(Boolean));
        case "journal.combat.round.v1": return note(rec, "⚔", t("n.round", d.round));
        case "journal.combat.ended.v1": return note(rec, "⚔", t("n.combatEnded"));
        case "journal.session.started.v1": return note(rec, "▶", t("n.sessionStarted", ev.session, d.title || ""));
        case "journal.session.ended.v1": return note(rec, "■", t("n.sessionEnded", ev.session));
        case TAKEN: return note(rec, "✖", t("n.damage", nameOf(d.character), d.amount, d.source ? nameOf(d.source) : "—"), [], d.character, rec.seq);
        case HEALED: {
          const roll = rel.map(byID).filter(Boolean);
          return note(rec, "✚", t("n.healed", nameOf(d.character), d.amount), roll, d.character, rec.seq);
        }
        case "journal.xp.granted.v1": return note(rec, "★", t("n.xp", nameOf(d.character), d.amount));
        case "journal.event.voided.v1": return note(rec, "⌫", t("n.voided", d.event, d.reason || ""));
        case "journal.roll.cancelled.v1": return note(rec, "⌫", t("n.cancelled", d.request || ""));
        // A GM's secret roll: who and what, never an outcome (none is recorded).
        case "journal.roll.hidden.v1": return note(rec, "◌", t("n.hidden", d.character ? nameOf(d.character) : t("card.gm"), d.dice === "1o3d10" ? d.skill || d.attribute || d.dice : d.dice, d.note ? " · " + d.note : ""));
        case "journal.roll.proved.v1": {
          // A suppressed roll's proof: the roll it would have been (the
          // transcript's words, projections/transcript_proved.go).
          const rolls = Array.isArray(d.rolls) ? d.rolls : [];
          const faces = rolls.map((r) => (r.faces || []).join(", ")).join("; ");
          const outcomes = rolls.map((r) => r.outcome).filter(Boolean).join("; ");
          return d.cancelled_by
            ? note(rec, "⚖", t("n.proved", d.user, d.request || "", nameOf(d.character), d.cancelled_by, faces, outcomes))
            : note(rec, "⚖", t("n.provedUnrevealed", d.user, d.request || "", nameOf(d.character), faces, outcomes));
        }
        case "journal.tor.hope.spent.v1": return note(rec, "✧", t("n.hope", nameOf(d.character), d.bonus, d.total, d.tn, t("o." + d.outcome)));
        case "journal.tor.fellowship.spent.v1": return note(rec, "⛬", t("n.fellowship", nameOf(d.character), t("fs." + d.outcome), d.pool));
        case "journal.tor.shadow.gained.v1": return note(rec, "☁", t("n.shadow", nameOf(d.character), d.amount, d.reason || ""));
        case "journal.tor.advancement.granted.v1": return note(rec, "▲", t("n.advancement", nameOf(d.character), d.group || d.skill || ""));
        case "journal.tor.madness.begun.v1": return note(rec, "☄", t("n.madness", nameOf(d.character)));
      }
      return note(rec, "·", ev.type);
    }

    function note(rec, icon, text, rolls, hpOf, hpAt) {
      const li = el("li", { class: "ev note" + (rolls && rolls.length ? " roll" : "") + (rec.fresh ? " fresh" : ""), "data-event-id": rec.event.id, "data-seq": String(rec.seq), "data-type": rec.event.type },
        el("div", { class: "line" }, el("span", { class: "icon", "aria-hidden": "true", text: icon }), el("span", { class: "what", text: text }), hpOf ? hpAfter(hpOf, hpAt) : null));
      if (rolls && rolls.length) {
        li.dataset.rolls = rolls.map((r) => r.event.id).join(" ");
        li.append(el("div", { class: "sub-rolls" }, rolls.map((r) => el("div", { class: "sub-roll", "data-roll": r.event.id }, el("span", { class: "who", text: nameOf((r.event.data || {}).character) }), el("span", { class: "dice" }, dice(r.event.data || {})), el("b", { class: "total", text: String((r.event.data || {}).total) })))));
        li.append(footer(rec, rolls));
      }
      return li;
    }

    function title(d) {
      const who = nameOf(d.character);
      switch (d.kind) {
        case "damage": return t("card.damage", who, d.dice) + (d.critical ? " ×2" : "");
        case "heal": return t("card.heal", who);
        case "free": return t("card.free", d.character ? who : t("card.gm"), d.dice) + (d.hidden ? " · " + t("card.revealed") : "");
        case "initiative": return t("card.initiative", who);
        case "melee": case "ranged": return t("card.attack", who, nameOf(d.target)) + (d.weapon ? " (" + d.weapon + ")" : "");
        case "attribute": return t("card.attribute", who, d.attribute);
        default: return who + " · " + (d.skill || d.attribute || d.kind);
      }
    }

    function rollBody(r) {
      const d = r.event.data || {};
      const cls = "roll-body o-" + (d.outcome || "rolled") + (d.eye ? " eye" : "") + (d.rune ? " rune" : "");
      return el("div", { class: cls, "data-roll": r.event.id },
        el("div", { class: "dice" }, dice(d)),
        el("div", { class: "score" }, el("b", { class: "total", text: String(d.total) }), el("span", { class: "against", text: against(d) }), outcomeChip(d)));
    }

    function details(rolls) {
      return el("details", { class: "tech" }, el("summary", { text: t("card.details") }),
        rolls.map((r) => {
          const ev = r.event;
          const d = ev.data || {};
          const rows = [
            [t("det.dice"), d.dice],
            [t("det.level"), d.level ? t("level." + d.level) + (d.level_reasons && d.level_reasons.length ? " (" + d.level_reasons.join("; ") + ")" : "") : ""],
            [t("det.base"), d.base],
            [t("det.session"), ev.session],
            [t("det.nonce"), d.nonce],
            [t("det.entropy"), d.entropy],
            [t("det.reveal"), d.reveal],
            [t("det.seq"), r.seq],
            [t("det.event"), ev.id],
          ].filter((x) => x[1] !== undefined && x[1] !== null && x[1] !== "");
          return el("dl", {}, rows.map(([k, v]) => [el("dt", { text: k }), el("dd", { text: String(v) })]));
        }));
    }

    function footer(rec, rolls) {
      const verdict = el("span", { class: "verdict", role: "status" });
      const ids = rolls.map((r) => r.event.id);
      const button = el("button", { class: "verify", type: "button", title: t("verify.title") }, t("verify.button"));
      button.addEventListener("click", () => verifyCard(ids, button, verdict));
      const link = permalink(rolls[0].event.id);
      const copied = el("output", { class: "copied" });
      const copy = (kind) => async () => {
        const shared = await shareLink(rolls[0].event.id, link);
        anchor.href = shared;
        const text = forumLine(kind, rec, rolls, shared);
        copied.textContent = text;
        copied.dataset.kind = kind;
        global.JournalFeed.lastCopied = text;
        copyText(text).then((ok) => { copied.dataset.ok = ok ? "1" : "0"; });
      };
      const anchor = el("a", { class: "permalink", href: link, title: t("card.permalinkTitle") }, "↗ " + t("card.permalink"));
      const row = el("div", { class: "verify-row" }, button, anchor,
        el("span", { class: "copy" }, t("card.copy"),
          el("button", { type: "button", class: "copy-bb", onclick: copy("bbcode") }, "BBCode"),
          el("button", { type: "button", class: "copy-md", onclick: copy("markdown") }, "Markdown")),
        verdict, copied);
      const v = verdicts[ids[0]];
      if (v) showVerdict(verdict, ids.map((id) => verdicts[id]).filter(Boolean));
      return el("div", { class: "card-foot" }, row, details(rolls));
    }

    // shareLink is the permalink with its capability ?k= (minted by the
    // server for a reader of the campaign), which a forum reader with no
    // token verifies the roll by; on a permalink page opened by its
    // capability, that page's own link; else the plain link.
    const shared = {};
    async function shareLink(id, plain) {
      if (shared[id]) return shared[id];
      try {
        const body = await api(base() + "/rolls/" + enc(id) + "/permalink");
        if (body && typeof body.link === "string" && body.link.startsWith("/r/")) return (shared[id] = location.origin + body.link);
      } catch (e) {
        // fall through
      }
      const k = new URLSearchParams(location.search).get("k");
      if (k && location.pathname === new URL(plain).pathname) return location.origin + location.pathname + "?k=" + encodeURIComponent(k);
      return plain;
    }

    function permalink(id) {
      return location.origin + "/r/" + enc(opts.campaign()) + "/" + enc(id);
    }

    // byLine is who recorded a card's event and when, and the note it
    // answers (the options who and noteOf), or null.
    function byLine(rec) {
      const ev = rec.event;
      const note = opts.noteOf ? opts.noteOf(ev) : "";
      if (!opts.who && !note) return null;
      let when = "";
      const at = ev.time ? new Date(ev.time) : null;
      if (at && !isNaN(at.getTime())) when = at.toLocaleTimeString(global.JournalI18n ? global.JournalI18n.lang() : undefined, { hour: "2-digit", minute: "2-digit" });
      return el("div", { class: "by" }, opts.who ? [el("span", { class: "actor", text: ev.actor || "" }), when ? el("time", { datetime: ev.time, text: " · " + when }) : null] : null,
        note ? el("span", { class: "call-note", text: (opts.who ? " · " : "") + note }) : null);
    }

    function rollCard(rec, rolls) {
      const d = rec.event.data || {};
      const li = el("li", { class: "ev roll o-" + (d.outcome || "rolled") + (rec.fresh ? " fresh" : ""), "data-event-id": rec.event.id, "data-seq": String(rec.seq), "data-rolls": rec.event.id, "data-outcome": d.outcome || "" },
        el("div", { class: "line" }, el("span", { class: "icon", "aria-hidden": "true", text: d.kind === "tor" ? "◈" : "⚄" }), el("span", { class: "what", text: title(d) })),
        byLine(rec),
        rollBody(rec),
        d.trait ? el("div", { class: "quiet", text: t("card.trait", d.trait) }) : null,
        d.note ? el("div", { class: "quiet note-text", text: d.note }) : null,
        d.hidden && d.kind !== "free" ? el("div", { class: "quiet", text: t("card.revealed") }) : null,
        footer(rec, rolls));
      return li;
    }

    function attackCard(rec, rel) {
      const d = rec.event.data || {};
      const atk = byID(d.attack_roll);
      const dmg = byID(d.damage_roll);
      const rolls = [atk, dmg].filter(Boolean);
      const a = (atk && atk.event.data) || {};
      const crit = a.outcome === "critical";
      const li = el("li", { class: "ev roll attack " + (d.hit ? "hit" : "miss") + (crit ? " o-critical" : "") + " o-" + (a.outcome || ""), "data-event-id": rolls.length ? rolls[0].event.id : rec.event.id, "data-head": rec.event.id, "data-seq": String(rec.seq), "data-rolls": rolls.map((r) => r.event.id).join(" "), "data-hit": d.hit ? "1" : "0" },
        el("div", { class: "line" }, el("span", { class: "icon", "aria-hidden": "true", text: "⚔" }),
          el("span", { class: "what", text: t("card.attack", nameOf(d.attacker), nameOf(d.target)) + (a.weapon ? " (" + a.weapon + ")" : "") }),
          el("span", { class: "outcome " + (d.hit ? (crit ? "critical" : "success") : "failure"), text: d.hit ? (crit ? "✦ " + t("f.critHit") : t("f.hit")) : t("f.miss") })),
        byLine(rec),
        atk ? rollBody(atk) : el("div", { class: "score" }, el("b", { class: "total", text: String(d.total) }), " ", t("card.vs", d.against)),
        d.hit ? el("div", { class: "consequence" },
          dmg ? el("span", { class: "dice" }, dice(dmg.event.data || {})) : null,
          el("span", { class: "damage", text: t("card.dealt", d.damage) }),
          hpAfter(d.target, rec.seq)) : null,
        rolls.length ? footer(rec, rolls) : null);
      return li;
    }

    // hpAfter shows a character's HP as of a sequence (after the action):
    // the sheet ?at=SEQ, a refold on the server, so it is fetched once,
    // only for cards on screen, two at a time.
    const hpQueue = [];
    let hpBusy = 0;
    function hpPump() {
      while (hpBusy < 2 && hpQueue.length) {
        const job = hpQueue.shift();
        hpBusy++;
        job().finally(() => {
          hpBusy--;
          hpPump();
        });
      }
    }
    function hpFetch(span) {
      const id = span.dataset.character;
      const key = id + "@" + span.dataset.seq;
      let p = hpCache.get(key);
      if (!p) {
        p = new Promise((resolve) => {
          hpQueue.push(() => api(base() + "/characters/" + enc(id) + "?at=" + span.dataset.seq).catch(() => null).then((ch) => (resolve(ch), ch)));
          hpPump();
        });
        hpCache.set(key, p);
      }
      p.then((ch) => {
        if (!ch || ch.hp === undefined) {
          hpCache.delete(key); // a failed read is tried again, once the card is on screen 5 s later
          if (hpSeen) setTimeout(() => /** @type {IntersectionObserver} */ (hpSeen).observe(span), 5000);
          return;
        }
        span.textContent = t("card.hpAfter", nameOf(id), ch.hp, ch.max_hp) + (ch.status && ch.status !== "ok" ? " · " + t("st." + ch.status) : "");
        span.className = "hp-after st-" + (ch.status || "ok");
      });
    }
    const hpSeen = "IntersectionObserver" in global ? new IntersectionObserver((entries) => {
      for (const e of entries) {
        if (!e.isIntersecting) continue;
        /** @type {IntersectionObserver} */ (hpSeen).unobserve(e.target);
        hpFetch(e.target);
      }
    }, { rootMargin: "200px" }) : null;
    function hpAfter(id, seq) {
      const span = el("span", { class: "hp-after", "data-character": id, "data-seq": String(seq) });
      if (hpSeen) hpSeen.observe(span);
      else hpFetch(span);
      return span;
    }

    function contestCard(rec) {
      const d = rec.event.data || {};
      const ra = byID(d.roll_a);
      const rb = byID(d.roll_b);
      const rolls = [ra, rb].filter(Boolean);
      const side = (id, r) => {
        const rd = (r && r.event.data) || {};
        return el("div", { class: "side" + (d.winner === id ? " winner" : d.winner ? " loser" : ""), "data-character": id },
          el("span", { class: "who" }, (d.winner === id ? "★ " : "") + nameOf(id) + (rd.skill || rd.attribute ? " · " + (rd.skill || rd.attribute) : "")),
          r ? rollBody(r) : null);
      };
      const verdict = d.winner ? t("card.wins", nameOf(d.winner)) : t("card.tie");
      return el("li", { class: "ev roll contest", "data-event-id": rolls.length ? rolls[0].event.id : rec.event.id, "data-head": rec.event.id, "data-seq": String(rec.seq), "data-rolls": rolls.map((r) => r.event.id).join(" "), "data-winner": d.winner || "" },
        el("div", { class: "line" }, el("span", { class: "icon", "aria-hidden": "true", text: "⚖" }), el("span", { class: "what", text: t("card.contest", nameOf(d.a), nameOf(d.b)) })),
        byLine(rec),
        el("div", { class: "sides" }, side(d.a, ra), side(d.b, rb)),
        el("div", { class: "contest-verdict", text: verdict + (d.reason ? " — " + t("cr." + d.reason) : "") }),
        rolls.length ? footer(rec, rolls) : null);
    }

    // The line to paste into a forum post, linking to the permalink.
    function forumLine(kind, rec, rolls, link) {
      return forumText(kind, summary(rec, rolls), link);
    }

    function summary(rec, rolls) {
      const ev = rec.event;
      const d = ev.data || {};
      if (ev.type === ATTACK) return "⚔ " + t("card.attack", nameOf(d.attacker), nameOf(d.target)) + ": " + d.total + " " + t("card.vs", d.against) + " — " + (d.hit ? t("f.hit") + ", " + t("card.dealt", d.damage) : t("f.miss")) + " · " + t("card.verifiable");
      if (ev.type === CONTEST) return "⚖ " + t("card.contest", nameOf(d.a), nameOf(d.b)) + " — " + (d.winner ? t("card.wins", nameOf(d.winner)) : t("card.tie")) + " · " + t("card.verifiable");
      const r = (rolls[0] && rolls[0].event.data) || d;
      const faces = (r.faces || []).map((f, i) => (r.kind === "tor" && i === 0 ? (f === 11 ? EYE : f === 12 ? RUNE : f) : f)).join(" ");
      const out = r.kind === "tor" ? (r.outcome === "success" ? t("q." + (r.quality || "success")) : t("o.failure")) : r.outcome && r.outcome !== "rolled" ? t("o." + r.outcome) : "";
      return "⚄ " + title(r) + ": [" + faces + "] → " + r.total + (against(r) ? " " + against(r) : "") + (out ? " — " + out : "") + " · " + t("card.verifiable");
    }

    // --- Verification ---
    // loadAll reads every event of the campaign (pages of 10 000), kept and
    // extended on the next call: a verification needs the sessions, keys
    // and requests before a roll, and the seed revealed after it.
    async function loadAll() {
      if (!all) all = { records: [], last: 0 };
      for (;;) {
        const page = await api(base() + "/events?from=" + (all.last + 1) + "&limit=10000");
        for (const r of page) all.records.push({ seq: r.seq, event: r.event });
        if (page.length) all.last = page[page.length - 1].seq;
        if (page.length < 10000) break;
      }
      return all.records;
    }

    // campaignReport is verify.js's report on every event of the campaign
    // read so far (one verification per new last event, shared by every
    // card's Verify and Verify all): a card's verdict is its rolls' in the
    // whole campaign's audit, never a partial one, so that the page says
    // what `journal replay` says (docs/design.md §3.3.7).
    let report = null; // {last, promise}
    async function campaignReport() {
      const records = await loadAll();
      if (!report || report.last !== all.last || report.n !== records.length) {
        const p = global.JournalVerify.verifyEvents(records, opts.now ? { now: opts.now } : {});
        report = { last: all.last, n: records.length, promise: p };
        p.catch(() => { if (report && report.promise === p) report = null; });
      }
      const rep = await report.promise;
      Object.assign(verdicts, rep.rolls);
      if (opts.onReport) opts.onReport(rep, api);
      return rep;
    }

    async function verifyCard(ids, button, verdict) {
      if (button) button.disabled = true;
      verdict.className = "verdict";
      verdict.textContent = t("verify.working");
      try {
        const rep = await campaignReport();
        showVerdict(verdict, ids.map((id) => rep.rolls[id] || { status: "mismatch", reasons: [t("v.notFound", id)], flags: [], flagged: [], notes: [] }));
        return verdict.dataset.status;
      } catch (err) {
        verdict.className = "verdict mismatch";
        verdict.dataset.status = "error";
        verdict.textContent = t("verify.error", err.message);
        return "error";
      } finally {
        if (button) button.disabled = false;
      }
    }

    // showVerdict puts a card's badge: its rolls' status in the campaign's
    // audit and the flags about them (those on the rolls, their requests
    // and their sessions), each with its code and words.
    function showVerdict(verdict, vs) {
      const flagged = [];
      for (const v of vs) for (const f of v.flagged || []) if (!flagged.some((g) => g.code === f.code && g.event === f.event && g.what === f.what)) flagged.push(f);
      const notes = [...new Set(vs.flatMap((v) => v.notes || []))];
      // Verified with flags: nothing fails and the audit flags something
      // (replay's exit status 5): a badge of its own, neither ok nor mismatch.
      const status = vs.some((v) => v.status === "mismatch") ? "mismatch" : vs.some((v) => v.status === "sealed") ? "sealed" : flagged.length ? "flagged" : "verified";
      verdict.className = "verdict " + status;
      verdict.dataset.status = status;
      verdict.dataset.flags = [...new Set(flagged.map((f) => f.code))].join(" ");
      const reasons = [...new Set(vs.flatMap((v) => v.reasons || []))];
      if (status === "flagged") verdict.textContent = t("verify.flaggedCard", flagged.length);
      else if (status === "verified") verdict.textContent = t("verify.ok", vs.length);
      else if (status === "sealed") verdict.textContent = t("verify.sealed");
      else verdict.textContent = t("verify.bad", reasons.join("; "));
      for (const f of flagged) verdict.append(" ", flagItem("span", f));
      if (notes.length) verdict.append(el("span", { class: "notes", text: " · " + notes.join("; ") }));
    }

    // verifyAll verifies every event of the campaign and puts a badge on
    // every card; it resolves to {verified, sealed, mismatch, flagged,
    // flags, problems, summary, report}: summary is the report's verdict,
    // as `journal replay` gives it (verify.js's summarize).
    async function verifyAll() {
      const rep = await campaignReport();
      const counts = { verified: 0, sealed: 0, mismatch: 0 };
      counts.flagged = 0; // verified rolls with flags (counted in verified too)
      for (const v of Object.values(rep.rolls)) {
        counts[v.status]++;
        if (v.status === "verified" && v.flagged.length) counts.flagged++;
      }
      counts.flags = rep.flags || [];
      for (const { node } of nodes.values()) {
        const ids = (node.dataset.rolls || "").split(" ").filter(Boolean);
        const vs = ids.map((id) => rep.rolls[id]).filter(Boolean);
        const verdict = node.querySelector(".verdict");
        if (vs.length && verdict) showVerdict(verdict, vs);
      }
      counts.problems = rep.problems;
      counts.summary = rep.summary;
      counts.report = rep;
      return counts;
    }

    // cardEventOf is the event whose card says what an event of the audit
    // is about (a flag's, a mismatch's): itself when the feed shows it, a
    // request's roll, a co-signature's session end; "" when none does
    // (contributions, devices, receipts...).
    function cardEventOf(id) {
      const recs = all ? all.records : [];
      const rec = recs.find((r) => r.event.id === id);
      if (!rec) return "";
      const ev = rec.event;
      if (TYPES.includes(ev.type)) return ev.id;
      const d = ev.data || {};
      if (ev.type === "journal.roll.requested.v1" || ev.type === "journal.roll.witnessed.v1" || ev.type === "journal.roll.receipted.v1") {
        const roll = recs.find((r) => r.event.type === ROLL && (r.event.data || {}).request === d.request && r.event.session === ev.session);
        return roll ? roll.event.id : "";
      }
      if (ev.type === "journal.session.cosigned.v1" && d.ended_event) return cardEventOf(d.ended_event);
      return "";
    }

    // seqOf is an event's sequence in the stream, 0 when not read.
    function seqOf(id) {
      const rec = all && all.records.find((r) => r.event.id === id);
      return rec ? rec.seq : 0;
    }

    // reveal brings an event's card into view: loaded around it when it is
    // older than the cards shown, then scrolled to and marked.
    function reveal(id) {
      let node = cardOfID(id);
      if (!node && all) {
        const at = all.records.findIndex((r) => r.event.id === id);
        if (at >= 0) {
          add(all.records.slice(Math.max(0, at - 4), at + 5), false);
          node = cardOfID(id);
        }
      }
      if (!node) return null;
      node.scrollIntoView({ block: "center" });
      for (const n of list.querySelectorAll(".ev.target")) n.classList.remove("target");
      node.classList.add("target");
      return node;
    }

    function cardOfID(id) {
      for (const { node } of nodes.values()) if ((node.dataset.rolls || "").split(" ").includes(id) || node.dataset.eventId === id || node.dataset.head === id) return node;
      return null;
    }

    // --- Older events ---
    async function loadOlder() {
      if (done || !Number.isFinite(oldest)) return 0; // nothing loaded yet
      if (oldest <= 1) {
        done = true;
        return 0;
      }
      const page = await api(base() + "/events?types=" + TYPES.join(",") + "&to=" + (oldest - 1) + "&tail=" + PAGE);
      if (page.length < PAGE) done = true;
      if (page.length) add(page, false);
      else done = true;
      return page.length;
    }

    async function loadLatest(upTo) {
      const page = await api(base() + "/events?types=" + TYPES.join(",") + "&tail=" + PAGE + "&to=" + upTo);
      if (page.length < PAGE) done = true;
      add(page, false);
      if (!page.length) oldest = upTo + 1;
      return page.length;
    }

    return {
      add: add,
      clear: clear,
      loadLatest: loadLatest,
      loadOlder: loadOlder,
      verifyAll: verifyAll,
      verifyCard: verifyCard,
      report: campaignReport,
      cardEventOf: cardEventOf,
      seqOf: seqOf,
      reveal: reveal,
      done: () => done,
      size: () => nodes.size,
      cardOf: cardOfID,
      loadAll: loadAll,
    };
  }

  // --- The campaign's audit, as `journal replay` gives it ---

  // flagName is a flag's code in the page's language (i18n.js fc.*).
  function flagName(code) {
    const k = "fc." + code;
    const w = t(k);
    return w === k ? code : w;
  }

  // flagItem is one flag: its name in the page's language, its code (a
  // machine identifier, as `journal replay --json` gives it: lang zxx, no
  // language) and its words; then what follows (a link to its card).
  function flagItem(tag, f, ...after) {
    return el(tag, { class: "flag", "data-flag": f.code, "data-event": f.event || "" },
      "⚠ ", el("b", { class: "flag-name", text: flagName(f.code) }), " ",
      el("code", { class: "flag-code", lang: "zxx", translate: "no", text: f.code }), ": ",
      el("span", { class: "flag-what", text: f.what }), ...after);
  }

  // MAX_LISTED is how many mismatches the panel lists (the rest counted).
  const MAX_LISTED = 50;

  // summaryPanel is the campaign's audit as `journal replay` gives it
  // (verify.js's whole-campaign report, rep): the verdict in words (ok,
  // flagged, mismatch, foreign), every flag with its name, code, words and
  // the event and sequence it concerns (those of events with no card too:
  // requests, sessions, devices, receipts), the events at fault, the
  // sessions not ended, then the cards' counts. Each flag or mismatch
  // whose event has a card links to it (feed.reveal). feed is the feed
  // the report is of (cardEventOf, seqOf, reveal), or null.
  function summaryPanel(rep, feed) {
    const sum = rep.summary;
    const list = Object.values(rep.rolls || {});
    const counts = { verified: 0, sealed: 0, mismatch: 0 };
    for (const v of list) counts[v.status] = (counts[v.status] || 0) + 1;
    const shown = { ok: sum.open.length ? "sealed" : "verified", flagged: "flagged", mismatch: "mismatch", foreign: "mismatch" }[sum.verdict];
    const where = (id) => {
      if (!id) return [];
      const seq = feed ? feed.seqOf(id) : 0;
      const at = " · " + (seq ? t("s.at", seq) : t("s.event", id));
      const card = feed ? feed.cardEventOf(id) : "";
      if (!card) return [el("span", { class: "at", text: at })];
      const a = el("a", { class: "to-card", href: "#", "data-card": card, text: at.slice(3) + " ↗" });
      a.addEventListener("click", (e) => {
        e.preventDefault();
        feed.reveal(card);
      });
      return [" · ", a];
    };
    const faults = [];
    for (const m of rep.mismatches || []) if (!faults.some((f) => f.event === m.event && f.what === m.what)) faults.push(m);
    const box = el("div", { class: "audit verdict " + shown, "data-verdict": sum.verdict, "data-flags": sum.codes.join(" ") },
      el("p", { class: "headline" },
        el("b", { class: "words", text: { verified: "✓ ", sealed: "◐ ", flagged: "⚠ ", mismatch: "✗ " }[shown] + sum.words }),
        " · " + t("all.summary", counts.verified, counts.sealed, counts.mismatch),
        sum.mismatches ? " · " + t("s.mismatches", sum.mismatches, sum.mismatched.length) : "",
        sum.foreign.length ? " · " + t("s.foreign", sum.foreign.length) : ""),
      sum.open.length ? el("p", { class: "open", text: t("s.open", sum.open.join(", ")) }) : null,
      sum.flags.length ? el("ul", { class: "flags" }, sum.flags.map((f) => flagItem("li", f, ...where(f.event)))) : null,
      faults.length ? el("ul", { class: "mismatches" },
        faults.slice(0, MAX_LISTED).map((m) => el("li", { class: "mismatch", "data-event": m.event || "" }, "✗ ", el("span", { class: "what", text: m.what }), ...where(m.event))),
        faults.length > MAX_LISTED ? el("li", { class: "more", text: t("s.more", faults.length - MAX_LISTED) }) : null) : null);
    return box;
  }

  // copyText puts text on the clipboard (navigator.clipboard where the page
  // is a secure context, else a selected textarea); resolves to success.
  async function copyText(text) {
    try {
      if (navigator.clipboard && global.isSecureContext) {
        await navigator.clipboard.writeText(text);
        return true;
      }
    } catch (e) {
      // fall through
    }
    const ta = el("textarea", { class: "offscreen", readonly: true });
    ta.value = text;
    document.body.append(ta);
    ta.select();
    let ok = false;
    try {
      ok = document.execCommand("copy");
    } catch (e) {
      ok = false;
    }
    ta.remove();
    return ok;
  }

  // forumText is the forum line of text (a card's summary, with the names
  // in it) linking to link. A name is data: in BBCode its brackets would
  // end the link or open a tag, so they become parentheses; in Markdown,
  // where a forum may pass HTML through, "&", "<" and ">" become entities
  // (no tag, no script) and every character that could end the link, open
  // another or an image, or start emphasis or code is backslash-escaped.
  function forumText(kind, text, link) {
    if (kind === "bbcode") return "[url=" + link + "]" + text.replace(/\[/g, "(").replace(/\]/g, ")") + "[/url]";
    const md = text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/([\\`*_\[\]()!~|])/g, "\\$1");
    return "[" + md + "](" + link + ")";
  }

  global.JournalFeed = { create: create, TYPES: TYPES, PAGE: PAGE, el: el, forumText: forumText, summaryPanel: summaryPanel, flagItem: flagItem, lastCopied: "" };
})(typeof window !== "undefined" ? window : globalThis);
