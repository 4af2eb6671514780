// The GM's view of the table (docs/design.md §6): sessions, roll calls, the
// combat tracker, the party and the NPCs with damage, heals and XP, voids,
// the unrevealed requests, and the devices the invites signed in. Each
// action is a row of JournalTable's table of actions. In a v2 session the
// GM's own rolls (NPC rolls, contests, combat starts) are requests with no
// commitment: a player's device witnesses them (player.js), or, once the
// wait the GM chose has passed, the GM resolves them unwitnessed; the
// pending panel shows who witnessed each. Voids are proposed to the roll's
// roller first, whose device may consent; the GM's device co-signs each
// v2 session's end by itself.
(function (global) {
  "use strict";
  const T = global.JournalTable;
  const { el, t } = T;

  const charOptions = (filter) => T.roster().filter(filter || (() => true)).map((ch) => [ch.id, (ch.name || ch.id) + (ch.npc ? " (" + t("npcs") + ")" : "")]);

  // The GM's actions: panel is where each is shown.
  const GM_ACTIONS = [
    { id: "session-start-v2", panel: "sessions", label: () => t("startV2"), when: () => !T.openSession(), fields: () => [],
      run: () => T.command("session-start", { dice: "v2" }) },
    { id: "session-start", panel: "sessions", label: () => t("start"), when: () => !T.openSession(), fields: () => [],
      run: () => T.command("session-start", {}) },
    { id: "session-end", panel: "sessions", label: () => t("end"), when: () => !!T.openSession(), fields: () => [],
      run: () => T.command("session-end", {}) },
    { id: "roll-call", panel: "calls", label: () => t("call"), when: () => !!T.openSession(),
      fields: () => [
        { name: "characters", label: t("characters"), type: "checks", options: charOptions((ch) => !ch.npc) },
        { name: "skill", label: t("skill"), placeholder: "Sigilo" },
        { name: "attribute", label: t("attribute"), placeholder: "P" },
        { name: "vs", label: t("vs"), type: "select", options: [["", "—"]].concat(T.DIFFICULTIES.map(([v]) => [v, v])), value: "media" },
        { name: "note", label: t("note") },
      ],
      run: (st, v) => T.api("POST", T.campaignPath("/calls"), v) },
    { id: "combat-start", panel: "combat", label: () => t("combatStart"), when: (st) => !st.campaign.tor && !!T.openSession() && !(st.campaign.combat && !st.campaign.combat.ended),
      fields: () => [{ name: "participants", label: t("characters"), type: "checks", options: charOptions() }].concat(waitField()),
      run: async (st, v) => {
        if (!T.isV2(T.openSession())) return T.command("combat-start", { participants: v.participants });
        // journal-dice-v2: the GM's request carries no commitment; its r
        // comes from a player's device (witness) or the beacon.
        const action = await T.v2Action("combat-start", { character: "", participants: v.participants, token: [] });
        return gmRequest(v.participants[0] || "", action, v.wait);
      } },
    { id: "combat-round", panel: "combat", label: () => t("nextRound"), when: (st) => !!(st.campaign.combat && !st.campaign.combat.ended), fields: () => [],
      run: () => T.command("combat-round", {}) },
    { id: "combat-end", panel: "combat", label: () => t("endCombat"), when: (st) => !!(st.campaign.combat && !st.campaign.combat.ended), fields: () => [],
      run: () => T.command("combat-end", {}) },
    { id: "damage", panel: "party", label: () => t("damage"), when: (st) => !st.campaign.tor,
      fields: () => [{ name: "character", label: t("character"), type: "select", options: charOptions() }, { name: "amount", label: t("amount"), type: "number", value: 1 }],
      run: (st, v) => T.command("damage", { character: v.character, amount: v.amount }) },
    { id: "heal", panel: "party", label: () => t("heal"), when: (st) => !st.campaign.tor,
      fields: () => [{ name: "character", label: t("character"), type: "select", options: charOptions() }, { name: "amount", label: t("amount"), type: "number", value: 1 }],
      run: (st, v) => T.command("heal", { character: v.character, amount: v.amount }) },
    { id: "xp", panel: "party", label: () => t("grantXP"), when: (st) => !st.campaign.tor,
      fields: () => [{ name: "character", label: t("character"), type: "select", options: charOptions((ch) => !ch.npc) }, { name: "amount", label: t("amount"), type: "number", value: 1 }],
      run: (st, v) => T.command("xp", { character: v.character, amount: v.amount }) },
    // Rolls the GM makes for any character (NPCs); in a v2 session a
    // player's device witnesses them.
    { id: "npc-roll", panel: "party", label: () => t("npcRoll"), when: (st) => !!T.openSession() && !st.campaign.tor,
      fields: () => [{ name: "character", label: t("character"), type: "select", options: charOptions((ch) => ch.npc).concat(charOptions((ch) => !ch.npc)) },
        { name: "skill", label: t("skill") }, { name: "vs", label: t("vs"), type: "select", options: [["", "—"]].concat(T.DIFFICULTIES.map(([v]) => [v, v])), value: "media" }].concat(waitField()),
      run: (st, v) => {
        if (!T.isV2(T.openSession())) return T.command("roll", Object.assign({ character: v.character, skill: v.skill }, v.vs ? { vs: v.vs } : {}));
        return gmRequest(v.character, { command: "roll", character: v.character, skill: v.skill, attribute: "", vs: v.vs || "", modifier: 0, token: false, specialization: false }, v.wait);
      } },
    { id: "npc-attack", panel: "combat", label: () => t("npcAttack"), when: (st) => !!(st.campaign.combat && !st.campaign.combat.ended),
      fields: (st) => [{ name: "attacker", label: t("character"), type: "select", options: (st.campaign.combat.order || []).map((id) => [id, id]) },
        { name: "target", label: t("target"), type: "select", options: (st.campaign.combat.order || []).map((id) => [id, id]) },
        { name: "range", label: t("range"), type: "select", options: [["", "—"], ["corta", "corta"], ["media", "media"], ["larga", "larga"]] }],
      run: (st, v) => T.command("attack", Object.assign({ attacker: v.attacker, target: v.target }, v.range ? { range: v.range } : {})) },
    // A contest between two characters (in a v2 session, the GM's request,
    // witnessed by a player's device).
    { id: "contest", panel: "party", label: () => t("contest"), when: (st) => !!T.openSession() && !st.campaign.tor,
      fields: () => [{ name: "a", label: t("character") + " 1", type: "select", options: charOptions() }, { name: "skill_a", label: t("skill") + " 1", required: true },
        { name: "b", label: t("character") + " 2", type: "select", options: charOptions() }, { name: "skill_b", label: t("skill") + " 2", required: true }].concat(waitField()),
      run: async (st, v) => {
        if (!T.isV2(T.openSession())) return T.command("contest", { a: v.a, skill_a: v.skill_a, b: v.b, skill_b: v.skill_b });
        const action = await T.v2Action("contest", { character: "", a: v.a, skill_a: v.skill_a, b: v.b, skill_b: v.skill_b });
        return gmRequest(v.a, action, v.wait);
      } },
    // The One Ring.
    { id: "adventure-start", panel: "tor", label: () => t("adventure"), when: (st) => !!st.campaign.tor && !!T.openSession() && !st.campaign.tor.adventure,
      fields: () => [{ name: "title", label: t("title") }], run: (st, v) => T.command("adventure-start", { title: v.title }) },
    { id: "trait-invoke", panel: "tor", label: () => t("trait"), when: (st) => !!st.campaign.tor && !!T.openSession(),
      fields: () => [{ name: "character", label: t("character"), type: "select", options: charOptions() }, { name: "trait", label: t("trait"), required: true }, { name: "automatic", label: "auto", type: "checkbox" }],
      run: (st, v) => T.command("trait-invoke", { character: v.character, trait: v.trait, automatic: v.automatic }) },
    { id: "shadow-gain", panel: "tor", label: () => t("shadowGain"), when: (st) => !!st.campaign.tor,
      fields: () => [{ name: "character", label: t("character"), type: "select", options: charOptions() }, { name: "amount", label: t("amount"), type: "number", value: 1 }, { name: "reason", label: t("reason") }],
      run: (st, v) => T.command("shadow-gain", { character: v.character, amount: v.amount, reason: v.reason }) },
    { id: "fellowship-phase", panel: "tor", label: () => t("fellowshipPhase"), when: (st) => !!st.campaign.tor && !!T.openSession(), fields: () => [],
      run: () => T.command("fellowship-phase", {}) },
    // A void: proposed to the roll's roller first (its device signs a
    // void.consent, shown in the proposals below, which the void carries),
    // or at once without asking (the audit then says nobody consented).
    { id: "void-propose", panel: "audit", label: () => t("propose"), when: () => true,
      fields: () => [{ name: "event", label: t("eventId"), required: true }, { name: "reason", label: t("reason"), required: true }],
      run: (st, v) => T.api("POST", T.campaignPath("/void-proposals"), { event_id: v.event, reason: v.reason }) },
    { id: "void", panel: "audit", label: () => t("voidAlone"), when: () => true,
      fields: () => [{ name: "event", label: t("eventId"), required: true }, { name: "reason", label: t("reason"), required: true }],
      run: (st, v) => T.command("void", { event_id: v.event, reason: v.reason }) },
  ];
  for (const a of GM_ACTIONS) T.action(Object.assign({ view: "gm" }, a));

  // gmRequest sends the GM's signed roll.request for a v2 roll: no
  // commitment (the GM may know the session key), so the journal waits for
  // a player's device to witness it.
  function gmRequest(character, action, wait) {
    return T.requestOnly(character, action, wait ? { wait: Number(wait) } : {});
  }
  // waitField is the GM's wait for a witness, in v2 sessions only.
  const waitField = () => (T.isV2(T.openSession()) ? [{ name: "wait", label: t("wait"), type: "number", value: 300 }] : []);

  // voidsPanel lists the void proposals: each roll's roller, whether its
  // device consented, and the void, which carries the consent when given.
  function voidsPanel(st) {
    const ps = st.voids || [];
    return ps.length
      ? el("ul", { class: "voids", "aria-label": t("voidProposals") }, ps.map((p) => el("li", { dataset: { proposal: p.id, event: p.event_id, consent: p.consent_signed ? "yes" : "no" } },
          p.character + " · " + p.event_id.slice(0, 8) + " · " + p.reason + " · " + (p.consent_signed ? p.roller + " " + t("consented") : t("waitingConsent") + " " + p.roller) + " ",
          el("button", { type: "button", class: "danger", dataset: { action: "void-proposed" }, onclick: () => T.perform(t("void"), () => T.command("void", Object.assign({ event_id: p.event_id, reason: p.reason }, p.consent_signed ? { consent_signed: p.consent_signed, consent_signature: p.consent_signature } : {}))) }, t("voidWithConsent")))))
      : null;
  }

  // cosignsOf shows who co-signed the last v2 session's end.
  function cosignsOf(st) {
    const s = T.lastSession();
    if (!T.isV2(s) || !s.ended) return null;
    const who = Object.keys(s.cosigned || {}).sort();
    return el("p", { class: "cosigns", dataset: { cosigned: who.join(",") } }, t("cosignedBy") + " (" + s.id + "): " + (who.join(", ") || "—") + " · " + t("cosignAuto"));
  }

  const actionsOf = (st, panel) => GM_ACTIONS.filter((a) => a.panel === panel && a.when(st)).map((a) => {
    const fields = a.fields(st);
    return fields.length
      ? el("details", { class: "action", dataset: { action: a.id, key: "gm/" + a.id }, open: a.panel === "calls" || a.id === "combat-start" ? true : undefined },
          el("summary", {}, a.label()), T.form("gm/" + a.id, fields, a.label(), (v) => T.perform(a.label(), () => a.run(st, v))))
      : el("button", { type: "button", dataset: { action: a.id }, onclick: () => T.perform(a.label(), () => a.run(st, {})) }, a.label());
  });

  function combatPanel(st) {
    const cb = st.campaign.combat;
    const kids = [el("h2", {}, t("combat"))];
    if (cb && !cb.ended) {
      const turn = T.currentTurn();
      kids.push(el("p", {}, t("round") + " " + cb.round));
      kids.push(el("ol", { class: "order" }, (cb.order || []).map((id) => {
        const ch = T.sheetOf(id) || { id: id, name: id, hp: 0, max_hp: 0 };
        return el("li", { class: (id === turn ? "turn " : "") + ((cb.attacked || {})[id] ? "done" : ""), dataset: { character: id } },
          el("span", { class: "init", title: t("initiative") }, String((cb.initiative || {})[id] ?? "")), " ", ch.name || id,
          id === turn ? el("span", { class: "badge" }, t("turn")) : null, T.hpBar(ch));
      })));
    }
    return el("section", { class: "card", dataset: { panel: "combat" } }, kids, actionsOf(st, "combat"));
  }

  function torPanel(st) {
    const tor = st.campaign.tor;
    const rq = tor.request;
    return el("section", { class: "card", dataset: { panel: "tor" } }, el("h2", {}, t("tor")),
      el("p", {}, t("fellowship") + ": " + tor.pool + (tor.adventure ? " · " + (tor.adventure.title || "") : "")),
      rq ? el("p", { dataset: { request: rq.character } }, t("agreeFor") + " " + rq.character + ": " + (rq.ballots || []).map((b) => b.voter + " " + (b.agree ? "✔" : "✘")).join(", ")) : null,
      actionsOf(st, "tor"));
  }

  function partyPanel(st) {
    const rows = T.roster().map((ch) => el("li", { dataset: { character: ch.id }, class: ch.npc ? "npc" : "" },
      el("span", { class: "name" }, ch.name || ch.id), ch.npc ? el("span", { class: "badge" }, t("npcs")) : el("span", { class: "muted" }, ch.player || ""),
      T.hpBar(ch), st.campaign.tor
        ? el("span", { class: "muted" }, t("hope") + " " + ch.hope + "/" + ch.max_hope + " · " + t("shadow") + " " + (ch.shadow || 0) + " · ◉ " + (ch.eyes || 0))
        : el("span", { class: "muted" }, t("xp") + " " + (ch.xp || 0) + " · " + (ch.status || "ok"))));
    return el("section", { class: "card", dataset: { panel: "party" } }, el("h2", {}, t("party")), el("ul", { class: "party" }, rows), actionsOf(st, "party"));
  }

  // pendingPanel lists the session's unrevealed requests (cancel), the
  // GM's waiting for a witness (resolve unwitnessed once their wait has
  // passed), and the GM's rolls made, with who witnessed each.
  function pendingPanel(st) {
    const s = T.openSession();
    const all = Object.entries((s && s.requests) || {});
    const reqs = all.filter(([, p]) => p && p.state === "pending");
    const made = all.filter(([, p]) => p && p.state === "made" && T.witnessed(p));
    if (!reqs.length && !made.length) return null;
    const now = Date.now();
    return el("section", { class: "card", dataset: { panel: "pending" } }, el("h2", {}, t("pending")),
      el("ul", {}, reqs.map(([id, p]) => {
        const gm = T.witnessed(p);
        const from = gm ? Date.parse(p.at) + 1000 * (p.requested.wait || 0) : 0;
        if (gm && from > now) wakeAt(from);
        return el("li", { dataset: { request: id, witness: gm ? "waiting" : undefined } }, ((p.requested && p.requested.character) || "") + " · " + id.slice(0, 8) + " ",
          gm ? el("span", { class: "muted" }, t("waitWitness") + " · " + t("resolveAt") + " " + new Date(from).toLocaleTimeString() + " ") : null,
          gm && from <= now ? el("button", { type: "button", dataset: { action: "roll-resolve" }, onclick: () => T.perform(t("resolveUnwitnessed"), () => T.command("roll-resolve", { request: id, unwitnessed: true })) }, t("resolveUnwitnessed")) : null,
          T.form("cancel/" + id, [{ name: "reason", label: t("reason"), required: true }], t("cancel"), (v) => T.perform(t("cancel"), () => T.command("roll-cancel", { request: id, reason: v.reason }))));
      })),
      made.length ? [el("h3", {}, t("gmRolls")), el("ul", { class: "gm-rolls" }, made.slice(-5).map(([id, p]) => {
        const w = witnessOf[id];
        if (w === undefined && !asked.has(id)) loadWitnesses(id);
        return el("li", { dataset: { request: id, witness: w || "" } }, (p.requested.character || "") + " · " + id.slice(0, 8) + " · " + (w === "none" ? t("unwitnessed") : w === "beacon" ? "beacon" : t("witnessedBy") + " " + (w || "…")));
      }))] : null);
  }

  // The witness of each GM roll made (request id → user, the users of a
  // roll of witness chains joined by ", ", "beacon" or "none"), from the
  // session's roll events.
  const witnessOf = {};
  const asked = new Set(); // requests looked up once
  let loadingWitnesses = false;
  function loadWitnesses(id) {
    if (loadingWitnesses) return;
    loadingWitnesses = true;
    asked.add(id);
    T.api("GET", T.campaignPath("/events?types=journal.roll.made.v1&tail=200"))
      .then((list) => {
        for (const r of list || []) {
          const d = r.event && r.event.data;
          if (!d || !d.request || !d.witness) continue;
          // A roll of witness chains names every device whose value it combines.
          witnessOf[d.request] = d.witness === "chain" ? (d.witnesses || []).map((w) => w.user).join(", ") : d.witness;
        }
      }, () => {})
      .finally(() => {
        loadingWitnesses = false;
        setTimeout(T.render, 0);
      });
  }
  // wakeAt re-renders the page when a GM request's wait has passed.
  const wakes = new Set();
  function wakeAt(ms) {
    if (wakes.has(ms)) return;
    wakes.add(ms);
    setTimeout(T.render, Math.max(0, ms - Date.now()) + 50);
  }

  function devicesPanel(st, list) {
    return el("section", { class: "card", dataset: { panel: "devices" } }, el("h2", {}, t("devices")),
      el("ul", { class: "devices" }, (list || []).map((d) => el("li", { dataset: { device: d.id, user: d.user, kind: d.kind } },
        d.user + " · " + t("role_" + (d.role === "viewer" ? "dashboard" : d.role)) + " · " + t("kind_" + d.kind) + " " + (d.fingerprint || "") + " · " +
          (d.revoked ? t("revoked") : d.kind === "invite" ? (d.used ? t("used") : t("open")) : ""),
        !d.revoked && !(d.kind === "invite" && d.used)
          ? el("button", { type: "button", class: "danger", dataset: { action: "revoke" }, onclick: () => T.perform(t("revoke"), () => T.api("POST", T.campaignPath("/devices/" + encodeURIComponent(d.id) + "/revoke"))).then(loadDevices) }, t("revoke"))
          : null))));
  }

  let devices = [];
  async function loadDevices() {
    try {
      devices = await T.api("GET", T.campaignPath("/devices"));
    } catch (e) {
      devices = [];
    }
    T.render();
  }
  let loadedAt = 0;

  T.view({
    id: "gm-view",
    when: (st) => st.me && (st.me.role === "gm" || st.me.role === "journal") && !!st.campaign,
    render: (st, root) => {
      // The devices change outside the journal (invites redeemed, the CLI's
      // revocations): asked for again at most every 2 s, when the page renders.
      // The GM's co-signature names a character for the permissions, as
      // the CLI's does: an NPC, else the first of the roster.
      if (st.me.role === "gm" && T.autoCosign) T.autoCosign(st, ((T.roster().find((ch) => ch.npc) || T.roster()[0]) || {}).id || "");
      if (Date.now() - loadedAt > 2000) {
        loadedAt = Date.now();
        loadDevices();
      }
      const calls = (st.calls || []).map((c) => el("li", { dataset: { call: c.id } }, c.characters.join(", ") + ": " + [c.skill, c.attribute].filter(Boolean).join(" / ") + (c.vs ? " vs " + c.vs : ""),
        el("button", { type: "button", dataset: { action: "call-close" }, onclick: () => T.perform(t("close"), () => T.api("POST", T.campaignPath("/calls/" + c.id + "/close"))) }, t("close"))));
      T.replaceKeeping(root, () => [
        el("section", { class: "card", dataset: { panel: "sessions" } }, el("h2", {}, t("sessions")), cosignsOf(st), actionsOf(st, "sessions")),
        el("section", { class: "card", dataset: { panel: "calls" } }, el("h2", {}, t("rollCall")), el("ul", { class: "calls" }, calls), actionsOf(st, "calls")),
        st.campaign.tor ? torPanel(st) : combatPanel(st),
        partyPanel(st),
        pendingPanel(st),
        el("section", { class: "card", dataset: { panel: "audit" } }, el("h2", {}, t("void")), voidsPanel(st), actionsOf(st, "audit")),
        devicesPanel(st, devices),
      ].filter(Boolean));
    },
  });
})(typeof window !== "undefined" ? window : globalThis);
