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
  const G = global.JournalGM; // gm_tools.js
  const N = global.JournalNames; // gm_names.js
  const tr = (key, ...args) => global.JournalI18n.t(key, ...args);

  // The rules' names (GET /names), for the skill and attribute pickers.
  let names = null;
  function loadNames() {
    if (names) return;
    G.loadNames(T.api, T.campaignPath("/names")).then((n) => {
      names = n;
      T.render();
    }, () => {});
  }
  // attributeOptions are the rules' attributes: RyF's by letter, The One
  // Ring's by name.
  const attributeOptions = () => [["", "—"]].concat(((names && names.attributes) || []).map((a) => [a.letter || a.name, a.letter ? a.letter + " · " + a.name : a.name]));
  const sideLabel = (side) => tr(side === "enemies" ? "gm.sideEnemies" : "gm.sideParty");
  const vsField = () => ({ name: "vs", label: t("vs"), type: "select", options: [["", "—"]].concat(T.DIFFICULTIES.map(([v]) => [v, v])), value: "media" });

  const charOptions = (filter) => T.roster().filter(filter || (() => true)).map((ch) => [ch.id, (ch.name || ch.id) + (ch.npc ? " (" + t("npcs") + ")" : "")]);

  // The GM's actions: panel is where each is shown.
  const GM_ACTIONS = [
    { id: "session-start-v2", panel: "sessions", label: () => t("startV2"), when: () => !T.openSession(), fields: () => [],
      run: () => T.command("session-start", { dice: "v2" }) },
    // journal-dice-v1 only while no device key is registered (the journal
    // refuses a v1 session then: no downgrade).
    { id: "session-start", panel: "sessions", label: () => t("start"), when: (st) => !T.openSession() && !Object.keys(st.campaign.participants || {}).length, fields: () => [],
      run: () => T.command("session-start", {}) },
    { id: "session-end", panel: "sessions", label: () => t("end"), when: () => !!T.openSession(), fields: () => [],
      run: () => T.command("session-end", {}) },
    { id: "roll-call", panel: "calls", label: () => t("call"), when: () => !!T.openSession(),
      fields: (st) => [
        { name: "characters", label: t("characters"), type: "checks", options: charOptions((ch) => !ch.npc) },
        { name: "skill", label: t("skill") },
        { name: "attribute", label: t("attribute"), type: "select", options: attributeOptions() },
      ].concat(st.campaign.tor ? [] : [vsField()]).concat([{ name: "note", label: t("note") }]),
      run: (st, v) => T.api("POST", T.campaignPath("/calls"), Object.assign({ characters: v.characters, skill: v.skill, attribute: v.attribute, note: v.note }, v.vs ? { vs: v.vs } : {})) },
    { id: "combat-start", panel: "combat", label: () => t("combatStart"), when: (st) => !st.campaign.tor && !!T.openSession() && !(st.campaign.combat && !st.campaign.combat.ended),
      fields: () => [{ name: "participants", label: t("characters"), type: "checks", options: T.roster().map((ch) => [ch.id, (ch.name || ch.id) + " · " + sideLabel(ch.npc ? "enemies" : "party")]) }].concat(waitField()),
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
        { name: "skill", label: t("skill") }, { name: "attribute", label: t("attribute"), type: "select", options: attributeOptions() }, vsField()]
        .concat(T.isV2(T.openSession()) ? waitField() : [{ name: "secret", label: tr("gm.secret"), type: "checkbox" }]),
      run: (st, v) => {
        // A secret roll (journal-dice-v1: the roll command's "secret"; in
        // v2 a secret roll is a free roll, from the free-roll box).
        if (!T.isV2(T.openSession())) return T.command("roll", Object.assign({ character: v.character }, v.skill ? { skill: v.skill } : {}, v.attribute ? { attribute: v.attribute } : {}, v.vs ? { vs: v.vs } : {}, v.secret ? { secret: true } : {}));
        return gmRequest(v.character, { command: "roll", character: v.character, skill: v.skill, attribute: v.attribute || "", vs: v.vs || "", modifier: 0, token: false, specialization: false }, v.wait);
      } },
    // The One Ring: the GM's roll for any character against a TN (in a v2
    // session a "tor-roll" request, witnessed by a player's device).
    { id: "npc-tor-roll", panel: "tor", label: () => t("npcRoll"), when: (st) => !!T.openSession() && !!st.campaign.tor,
      fields: () => [{ name: "character", label: t("character"), type: "select", options: charOptions() }, { name: "skill", label: t("skill"), required: true },
        { name: "tn", label: tr("gm.tn"), type: "number", value: 14 }].concat(waitField()),
      run: async (st, v) => {
        if (!T.isV2(T.openSession())) return T.command("roll", { character: v.character, skill: v.skill, tn: v.tn || 14 });
        const action = await T.v2Action("tor-roll", { character: v.character, skill: v.skill, tn: v.tn || 14, trait: "" });
        return gmRequest(v.character, action, v.wait);
      } },
    // Its form is keyed by whose turn it is: the attacker and the target
    // follow the turn rather than what was picked for the last one.
    { id: "npc-attack", panel: "combat", label: () => t("npcAttack"), formKey: () => T.currentTurn(), when: (st) => !!(st.campaign.combat && !st.campaign.combat.ended),
      fields: (st) => {
        // The attacker is whoever's turn it is (an NPC's, most often), the
        // target its enemies first (the sides the combat's start recorded).
        const order = st.campaign.combat.order || [];
        const turn = T.currentTurn() || order[0] || "";
        const attackers = [turn].concat(order.filter((id) => id !== turn)).filter(Boolean);
        const label = (id) => ((T.sheetOf(id) || {}).name || id) + " · " + sideLabel(N.sideOf(st.campaign, id));
        const weapons = (T.sheetOf(turn) || {}).weapons || [];
        return [{ name: "attacker", label: tr("gm.attacker"), type: "select", options: attackers.map((id) => [id, label(id)]) },
          { name: "target", label: t("target"), type: "select", options: N.targets(st.campaign, turn).map((id) => [id, label(id)]) },
          { name: "weapon", label: t("weapon"), type: "select", options: [["", weapons[0] || "—"]].concat(weapons.slice(1).map((w) => [w, w])) },
          { name: "range", label: t("range"), type: "select", options: [["", "—"], ["corta", "corta"], ["media", "media"], ["larga", "larga"]] }].concat(waitField());
      },
      run: async (st, v) => {
        const req = Object.assign({ attacker: v.attacker, target: v.target }, v.weapon ? { weapon: v.weapon } : {}, v.range ? { range: v.range } : {});
        if (!T.isV2(T.openSession())) return T.command("attack", req);
        // journal-dice-v2: the action as the rules spell it, then the GM's
        // request without commitment, witnessed by a player's device.
        const action = await T.api("POST", T.campaignPath("/actions/attack"), req);
        return gmRequest(v.attacker, action, v.wait);
      } },
    // A skill raised with the character's XP (docs/rules.md: XP are spent
    // one rank at a time).
    { id: "raise", panel: "party", label: () => tr("gm.raise"), when: (st) => !st.campaign.tor,
      fields: () => [{ name: "character", label: t("character"), type: "select", options: charOptions((ch) => !ch.npc).concat(charOptions((ch) => ch.npc)) }, { name: "skill", label: t("skill"), required: true }],
      run: (st, v) => T.command("raise", { character: v.character, skill: v.skill }) },
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
          el("summary", {}, a.label()), G.enhanceNames(T.form("gm/" + a.id + (a.formKey ? "/" + a.formKey(st) : ""), fields, a.label(), (v) => T.perform(a.label(), () => a.run(st, v))), names))
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
          el("span", { class: "init", title: t("initiative") }, String((cb.initiative || {})[id] ?? "")), " ", ch.name || id, " ",
          el("span", { class: "side side-" + N.sideOf(st.campaign, id), dataset: { side: N.sideOf(st.campaign, id) } }, sideLabel(N.sideOf(st.campaign, id))),
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

  // The forms that keep what they show across renders (an invite's link,
  // a free roll typed): made once, placed again at every render.
  let inviteBox = null;
  let freeRollBox = null;
  let secretList = null;
  let secretAsked = 0;
  function rollsPanel(st) {
    if (!freeRollBox) {
      freeRollBox = G.freeRollForm({ gm: true, characters: charOptions(), characterLabel: t("character"), noteLabel: t("note"),
        run: (body) => T.perform(tr("gm.freeRoll"), () => freeRoll(body)) });
    }
    // The GM's hidden results, asked for again at most every 3 s.
    if (Date.now() - secretAsked > 3000) {
      secretAsked = Date.now();
      G.secretRolls({ api: T.api, path: T.campaignPath("/secret-rolls"), command: T.command, perform: T.perform }).then((ul) => {
        const before = secretList;
        secretList = ul;
        if ((before && before.outerHTML) !== (ul && ul.outerHTML)) T.render();
      });
    }
    return el("section", { class: "card", dataset: { panel: "rolls" } }, el("h2", {}, tr("gm.freeRoll")), freeRollBox, secretList);
  }
  // freeRoll sends the free-roll command (v1), or in a journal-dice-v2
  // session the GM's request for the free-roll action, witnessed by a
  // player's device; "secret" hides its faces until revealed.
  async function freeRoll(body) {
    if (!T.isV2(T.openSession())) return T.command("free-roll", body);
    const action = await T.v2Action("free-roll", body); // "secret" is signed in the action
    return T.requestOnly(body.character || "", action);
  }
  // voidCard voids the event of a feed card: a v2 roll is proposed to its
  // roller first (the consent flow below), anything else is voided at once.
  function voidCard(id, reason) {
    const card = document.querySelector('li.ev[data-event-id="' + id + '"]');
    const roll = card && (card.classList.contains("roll") || card.dataset.rolls);
    const st = typeof T.state === "function" ? T.state() : T.state;
    const v2 = ((st.campaign && st.campaign.sessions) || []).some(T.isV2);
    if (roll && v2) return T.perform(tr("gm.voidCard"), () => T.api("POST", T.campaignPath("/void-proposals"), { event_id: id, reason: reason }));
    return T.perform(tr("gm.voidCard"), () => T.command("void", { event_id: id, reason: reason }));
  }

  function devicesPanel(st, list) {
    if (!inviteBox) {
      inviteBox = G.inviteForm({ api: T.api, path: T.campaignPath("/invites"), perform: T.perform, characters: charOptions((ch) => !ch.npc),
        charactersLabel: t("characters"), roleLabel: (r) => t("role_" + r) });
    }
    return el("section", { class: "card", dataset: { panel: "devices" } }, el("h2", {}, t("devices")), inviteBox,
      el("ul", { class: "devices" }, (list || []).map((d) => el("li", { dataset: { device: d.id, user: d.user, kind: d.kind } },
        d.user + " · " + t("role_" + (d.role === "viewer" ? "dashboard" : d.role)) + " · " + tr(d.kind === "invite" ? "gm.kindInvite" : "gm.kindDevice") + " " + (d.fingerprint || "") + " · " +
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
      loadNames();
      const calls = (st.calls || []).map((c) => el("li", { dataset: { call: c.id } }, c.characters.join(", ") + ": " + [c.skill, c.attribute].filter(Boolean).join(" / ") + (c.vs ? " vs " + c.vs : "") + (c.note ? " · " + c.note : "") + " ",
        el("button", { type: "button", dataset: { action: "call-close" }, onclick: () => T.perform(t("close"), () => T.api("POST", T.campaignPath("/calls/" + c.id + "/close"))) }, t("close"))));
      T.replaceKeeping(root, () => [
        el("section", { class: "card", dataset: { panel: "sessions" } }, el("h2", {}, t("sessions")), cosignsOf(st), actionsOf(st, "sessions")),
        el("section", { class: "card", dataset: { panel: "calls" } }, el("h2", {}, t("rollCall")), el("ul", { class: "calls" }, calls), actionsOf(st, "calls")),
        st.campaign.tor ? torPanel(st) : combatPanel(st),
        partyPanel(st),
        rollsPanel(st),
        pendingPanel(st),
        el("section", { class: "card", dataset: { panel: "audit" } }, el("h2", {}, t("void")), voidsPanel(st), actionsOf(st, "audit")),
        devicesPanel(st, devices),
      ].filter(Boolean));
      // A Void button on every card of the feed (feed.js's cards), the GM's,
      // and on each card the feed adds later (live, older on scroll).
      const feedList = document.getElementById("feed") || document.querySelector("main");
      G.voidButtons(feedList, { void: voidCard });
      if (feedList && !feedList.dataset.gmVoids) {
        feedList.dataset.gmVoids = "1";
        new MutationObserver(() => G.voidButtons(feedList, { void: voidCard })).observe(feedList, { childList: true });
      }
    },
  });
})(typeof window !== "undefined" ? window : globalThis);
