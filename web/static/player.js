// The player's view of the table (docs/design.md §6): each of the player's
// characters as a sheet, and the actions from it. Each action is a row of
// JournalTable's table of actions, so that a roll path adds a row here and
// nothing else. In a journal-dice-v2 session the device also acts by
// itself, and says so on the page: it contributes to the session key,
// witnesses the GM's requests, and co-signs the session's end; it offers
// "consent to void" for the GM's void proposals of its own rolls.
(function (global) {
  "use strict";
  const T = global.JournalTable;
  const { el, t } = T;

  // The One Ring's skills and the attribute column each belongs to
  // (rules/tor/skills.go): Hope adds that attribute's score to a roll.
  const TOR_COLUMN = {
    Impresionar: "cuerpo", Inspirar: "corazon", Persuadir: "mente", Atletismo: "cuerpo", Viajar: "corazon", Sigilo: "mente",
    "Atención": "cuerpo", Perspicacia: "corazon", Buscar: "mente", Explorar: "cuerpo", Curar: "corazon", Cazar: "mente",
    "Canción": "cuerpo", "Cortesía": "corazon", Acertijos: "mente", "Artesanía": "cuerpo", Guerrear: "corazon", Saber: "mente",
  };
  // hopeBonus is what spending Hope adds to ch's last roll (the skill's
  // attribute's basic score, its favoured score when the skill is
  // favoured), 0 when unknown.
  function hopeBonus(ch) {
    const lr = ch.last_roll;
    const col = lr && TOR_COLUMN[lr.skill];
    const score = col && ch.attributes && ch.attributes[col];
    if (!score) return 0;
    return (lr.favoured ? score.favoured : score.basic) || 0;
  }
  // hopeCanTurn: Hope is offered only on a failed roll it can turn into a
  // success (the journal refuses it on a success; rules/tor/hope.go).
  function hopeCanTurn(ch) {
    const lr = ch.last_roll;
    if (!lr || !lr.result || lr.result.success || lr.hope_spent || lr.result.hope_bonus || !(ch.hope > 0)) return false;
    const bonus = hopeBonus(ch);
    return bonus > 0 && lr.result.total + bonus >= lr.result.tn;
  }
  T.hopeCanTurn = hopeCanTurn;

  // answered holds the calls this device answered (call id/character):
  // their Roll button goes at once, before the journal's list says so.
  const answered = new Set();
  const isAnswered = (c, chId) => answered.has(c.id + "/" + chId) || !!(c.answered && c.answered[chId]);

  // sideName is a combat side in the page's language: the tracker's
  // "party" and "enemies" by their words, another by its name.
  function sideName(sd) {
    if (!sd) return t("tbl.noSide");
    const w = t("tbl.side." + sd);
    return w === "tbl.side." + sd ? t("tbl.sides", sd) : w;
  }

  // The player's actions. when(state, ch) says whether the action is offered
  // for character ch now; fields(state, ch) its form; run(state, ch, v) does it.
  const PLAYER_ACTIONS = [
    {
      id: "roll",
      label: () => t("roll"),
      when: (st) => !!T.openSession() && !st.campaign.tor,
      fields: (st, ch, call) => {
        const skills = Object.keys(ch.skills || {}).sort();
        const attrs = Object.keys(ch.attributes || {});
        const f = [
          { name: "skill", label: t("skill"), type: "select", options: [["", "—"]].concat(skills.map((s) => [s, s + " " + ch.skills[s]])), value: call ? call.skill || "" : skills[0] },
          { name: "attribute", label: t("attribute"), type: "select", options: [["", "—"]].concat(attrs.map((a) => [a, a + " " + ch.attributes[a]])), value: call ? call.attribute || "" : "" },
          { name: "vs", label: t("vs"), type: "select", options: [["", "—"]].concat(T.DIFFICULTIES.map(([v, k]) => [v, t(k) === v ? v : v + " (" + t(k) + ")"])), value: call ? call.vs || "" : "media" },
          { name: "modifier", label: t("modifier"), type: "number", value: 0 },
        ];
        // The token and the specialization only where they can be used.
        if (ch.token === "player") f.push({ name: "token", label: t("useToken"), type: "checkbox" });
        if (ch.specialization && !ch.spec_used_today) f.push({ name: "specialization", label: t("useSpec") + " (" + ch.specialization + ")", type: "checkbox" });
        return f;
      },
      // key: the intent's request id; call: the GM's call it answers.
      run: (st, ch, v, key, call) => {
        const action = { command: "roll", character: ch.id, skill: v.skill || "", attribute: v.attribute || "", vs: v.vs || "", modifier: v.modifier || 0, token: !!v.token, specialization: !!v.specialization };
        if (T.isV2(T.openSession())) return T.requestReveal(ch.id, action, { key: key, call: call });
        const body = { character: ch.id, modifier: action.modifier, token: action.token, specialization: action.specialization };
        if (action.skill) body.skill = action.skill;
        if (action.attribute) body.attribute = action.attribute;
        if (action.vs) body.vs = action.vs;
        if (call) body.call = call;
        return T.command("roll", body, key);
      },
    },
    {
      // A free roll (1d6, 2d10+3): committed and verified like every roll
      // (the free-roll command; in journal-dice-v2 the device's signed
      // request and reveal, the action as the journal spells it).
      id: "free-roll",
      label: () => t("gm.freeRoll"),
      when: () => !!T.openSession(),
      fields: () => [
        { name: "dice", label: t("gm.dice"), type: "text", value: "", required: true, placeholder: t("gm.diceHelp") },
        { name: "note", label: t("note"), type: "text", value: "" },
      ],
      run: async (st, ch, v, key) => {
        const body = { character: ch.id, dice: String(v.dice || "").replace(/\s+/g, "") };
        if (String(v.note || "").trim()) body.note = String(v.note).trim();
        if (T.isV2(T.openSession())) return T.requestReveal(ch.id, await T.v2Action("free-roll", body), { key: key });
        return T.command("free-roll", body, key);
      },
    },
    {
      // A skill raised with the character's own XP (docs/rules.md): the
      // player's, for its own character (the raise command acts for it).
      id: "raise",
      label: () => t("gm.raise"),
      when: (st, ch) => !st.campaign.tor && (ch.xp || 0) > 0,
      fields: (st, ch) => {
        const skills = Object.keys(ch.skills || {}).sort();
        return [{ name: "skill", label: t("skill"), type: "select", options: skills.map((s) => [s, s + " " + ch.skills[s]]), value: skills[0] || "" }];
      },
      run: (st, ch, v, key) => T.command("raise", { character: ch.id, skill: v.skill }, key),
    },
    {
      id: "attack",
      label: () => t("attack"),
      when: (st, ch) => {
        const cb = st.campaign && st.campaign.combat;
        return !!T.openSession() && !!cb && !cb.ended && (cb.order || []).includes(ch.id);
      },
      fields: (st, ch) => {
        const cb = st.campaign.combat;
        const targets = (cb.order || []).filter((id) => id !== ch.id);
        const opt = (id) => [id, T.nameOf(id)];
        // Targets grouped by side (the tracker's); the default is the first
        // enemy's (a character of another side), none when no side is known.
        const mySide = T.sideOf(ch.id);
        const sides = [...new Set(targets.map(T.sideOf))];
        const known = sides.some(Boolean);
        const enemy = mySide ? targets.find((id) => T.sideOf(id) && T.sideOf(id) !== mySide) || "" : "";
        const target = known
          ? { name: "target", label: t("target"), type: "select", required: true, value: enemy, options: [["", t("tbl.chooseTarget")]],
              groups: sides.map((sd) => [sideName(sd), targets.filter((id) => T.sideOf(id) === sd).map(opt)]) }
          : { name: "target", label: t("target"), type: "select", required: true, value: "", options: [["", t("tbl.chooseTarget")]].concat(targets.map(opt)) };
        return [
          target,
          { name: "weapon", label: t("weapon"), type: "select", options: [["", (ch.weapons || [])[0] || "—"]].concat((ch.weapons || []).slice(1).map((w) => [w, w])) },
          { name: "range", label: t("range"), type: "select", options: [["", "—"], ["corta", "corta"], ["media", "media"], ["larga", "larga"]] },
          { name: "modifier", label: t("modifier"), type: "number", value: 0 },
        ].concat(ch.token === "player" ? [{ name: "token", label: t("useToken"), type: "checkbox" }] : [])
          .concat(ch.specialization && !ch.spec_used_today ? [{ name: "specialization", label: t("useSpec"), type: "checkbox" }] : []);
      },
      run: async (st, ch, v, key) => {
        const req = { attacker: ch.id, target: v.target, modifier: v.modifier || 0, token: !!v.token, specialization: !!v.specialization };
        if (v.weapon) req.weapon = v.weapon;
        if (v.range) req.range = v.range;
        if (!T.isV2(T.openSession())) return T.command("attack", req, key);
        // The action as the rules spell it (the weapon's name, the band),
        // from the journal, then signed here.
        const action = await T.api("POST", T.campaignPath("/actions/attack"), req);
        delete action.seed_commitment;
        return T.requestReveal(ch.id, action, { key: key });
      },
    },
    // The One Ring: a skill roll against a TN, with a trait; Hope on the
    // last roll; the fellowship pool asked for and voted on.
    {
      id: "tor-roll",
      label: () => t("roll"),
      when: (st) => !!T.openSession() && !!st.campaign.tor,
      fields: (st, ch) => [
        { name: "skill", label: t("skill"), type: "select", options: Object.keys(ch.skills || {}).sort().map((s) => [s, s + " " + T.value(ch.skills[s])]) },
        { name: "tn", label: "TN", type: "number", value: 14 },
        { name: "trait", label: t("trait"), type: "select", options: [["", "—"]].concat((ch.traits || []).map((x) => [x, x])) },
      ],
      run: async (st, ch, v, key, call) => {
        if (!T.isV2(T.openSession())) return T.command("roll", Object.assign({ character: ch.id, skill: v.skill, tn: v.tn || 14 }, v.trait ? { trait: v.trait } : {}, call ? { call: call } : {}), key);
        // journal-dice-v2: "tor-roll", the trait counted as the journal
        // judges it (one the GM ruled "roll" for, or the one chosen).
        const action = await T.v2Action("tor-roll", { character: ch.id, skill: v.skill, tn: v.tn || 14, trait: v.trait || "" });
        return T.requestReveal(ch.id, action, { key: key, call: call });
      },
    },
    {
      id: "hope-spend",
      label: () => t("spendHope"),
      when: (st, ch) => !!st.campaign.tor && hopeCanTurn(ch) && (!T.isV2(T.openSession()) || !!ch.last_roll.request),
      fields: () => [],
      run: async (st, ch, v, key) => {
        if (!T.isV2(T.openSession())) return T.command("hope-spend", { character: ch.id }, key);
        // journal-dice-v2: the roller's signed "tor-hope" request naming
        // the roll's request; it draws nothing.
        const action = await T.v2Action("tor-hope", { character: ch.id });
        return T.requestOnly(ch.id, action, undefined, { key: key });
      },
    },
    {
      id: "fellowship-ask",
      label: () => t("askFellowship"),
      when: (st, ch) => !!st.campaign.tor && !st.campaign.tor.request && st.campaign.tor.pool > 0 && ch.hope < ch.max_hope,
      fields: () => [],
      run: (st, ch, v, key) => T.command("fellowship-ask", { character: ch.id }, key),
    },
    {
      id: "fellowship-vote",
      label: () => t("vote"),
      when: (st, ch) => {
        const rq = st.campaign.tor && st.campaign.tor.request;
        return !!rq && rq.character !== ch.id && !rq.tally && !(rq.ballots || []).some((b) => b.voter === ch.id);
      },
      fields: (st) => [{ name: "agree", label: t("agreeFor") + " " + st.campaign.tor.request.character, type: "select", options: [["yes", t("yes")], ["no", t("no")]] }],
      run: (st, ch, v, key) => T.command("fellowship-vote", { character: st.campaign.tor.request.character, voter: ch.id, agree: v.agree === "yes" }, key),
    },
    // journal-dice-v2 contests, combat starts and healings (RyF): the
    // player requests them for a character it plays; its device signs the
    // request and reveals r.
    {
      id: "contest",
      label: () => t("contest"),
      when: (st) => T.isV2(T.openSession()) && !st.campaign.tor,
      fields: (st, ch) => {
        const skills = Object.keys(ch.skills || {}).sort();
        const others = T.roster().filter((o) => o.id !== ch.id);
        const f = [
          { name: "skill", label: t("skill"), type: "select", options: skills.map((s) => [s, s + " " + ch.skills[s]]) },
          { name: "opponent", label: t("opponent"), type: "select", options: others.map((o) => [o.id, o.name || o.id]) },
          { name: "opponent_skill", label: t("opponentSkill"), required: true, placeholder: "Pelea" },
          { name: "modifier", label: t("modifier"), type: "number", value: 0 },
        ];
        if (ch.token === "player") f.push({ name: "token", label: t("useToken"), type: "checkbox" });
        if (ch.specialization && !ch.spec_used_today) f.push({ name: "specialization", label: t("useSpec") + " (" + ch.specialization + ")", type: "checkbox" });
        return f;
      },
      run: async (st, ch, v, key) => {
        const action = await T.v2Action("contest", { character: ch.id, a: ch.id, skill_a: v.skill, modifier_a: v.modifier || 0, token_a: !!v.token, specialization_a: !!v.specialization, b: v.opponent, skill_b: v.opponent_skill });
        return T.requestReveal(ch.id, action, { key: key });
      },
    },
    {
      id: "combat-start",
      label: () => t("combatStart"),
      when: (st) => T.isV2(T.openSession()) && !st.campaign.tor && !(st.campaign.combat && !st.campaign.combat.ended),
      fields: (st, ch) => [{ name: "participants", label: t("participants"), type: "checks", options: T.roster().map((o) => [o.id, o.name || o.id]), value: [ch.id] }]
        .concat(ch.token === "player" ? [{ name: "token", label: t("useToken") + " (" + t("initiative") + ")", type: "checkbox" }] : []),
      run: async (st, ch, v, key) => {
        const action = await T.v2Action("combat-start", { character: ch.id, participants: v.participants, token: v.token ? [ch.id] : [] });
        return T.requestReveal(ch.id, action, { key: key });
      },
    },
    {
      id: "heal-after-combat",
      label: () => t("healAfterCombat"),
      when: (st, ch) => {
        // The healing is for the last combat, once it has ended.
        const cb = st.campaign.combat && !st.campaign.combat.ended ? null : st.campaign.last_combat;
        const pending = Object.values((T.openSession() || {}).requests || {}).some((p) => p.state === "pending" && p.requested.kind === "heal" && p.requested.character === ch.id);
        return !!T.openSession() && !st.campaign.tor && !!cb && (cb.order || []).includes(ch.id) && !(cb.healed_after || {})[ch.id] && !pending;
      },
      fields: () => [],
      run: async (st, ch, v, key) => {
        if (!T.isV2(T.openSession())) return T.command("heal-after-combat", { character: ch.id }, key);
        const action = await T.v2Action("heal-after-combat", { character: ch.id });
        return T.requestReveal(ch.id, action, { key: key });
      },
    },
  ];
  // Each row is also in the shared table, for tests and other views.
  for (const a of PLAYER_ACTIONS) T.action(Object.assign({ view: "player" }, a));

  // attrText is an attribute as the sheet shows it: The One Ring's by its
  // proper name in the page's language with its basic and favoured scores;
  // Rápido y Fácil's by its rule name and value.
  function attrText(k, v) {
    if (v && typeof v === "object" && "basic" in v) return t("tbl.basic", t("tor.attr." + k), v.basic, v.favoured);
    return k + " " + T.value(v);
  }
  // outcomeWord is a One Ring result's verdict in the page's language.
  const outcomeWord = (r) => (r.success ? t("q." + (r.quality || "success")) : t("o.failure"));

  // skillButtons are the sheet's skills, each a button that rolls it at
  // once (one intent per skill and character).
  function skillButtons(st, ch) {
    const tor = !!st.campaign.tor;
    const open = !!T.openSession();
    return el("ul", { class: "chips skill-roll" }, Object.entries(ch.skills || {}).sort().map(([k, v]) => {
      const label = [k, el("span", { class: "n" }, T.value(v))];
      if (!open) return el("li", {}, label);
      const b = T.button(ch.id + "/skill/" + k, t("tbl.tapRoll", k), (key) => {
        if (tor) {
          const tn = Number((document.querySelector('form[data-form="' + ch.id + '/tor-roll"] [name="tn"]') || {}).value) || 14;
          return byId("tor-roll").run(st, ch, { skill: k, tn: tn, trait: "" }, key);
        }
        return byId("roll").run(st, ch, { skill: k, modifier: 0 }, key);
      }, { dataset: { skill: k }, title: t("tbl.tapRoll", k) });
      b.replaceChildren(...label);
      return el("li", {}, b);
    }));
  }
  const byId = (id) => PLAYER_ACTIONS.find((a) => a.id === id);

  // actionOf builds one action of ch: a button, or a form in a <details>
  // (closed, the skills roll with a tap; open for a vote, and in the
  // action bar for the attack on the character's turn:
  // the turn is in its key, so that it opens when the turn comes even if
  // it was drawn closed before).
  function actionOf(st, ch, a, prefix) {
    const turn = T.currentTurn() === ch.id;
    const fields = a.fields(st, ch);
    const scope = ch.id + "/" + a.id;
    if (!fields.length) return T.button(scope, a.label(), (key) => a.run(st, ch, {}, key), { dataset: { action: a.id } });
    const round = (st.campaign.combat && st.campaign.combat.round) || 0;
    const key = (prefix || "") + ch.id + "/" + a.id + (a.id === "attack" ? (turn ? "/turn" + round : "/wait") : "");
    // The attack opens on the turn where the action bar shows it (prefix
    // "bar/"); the sheet's says "Your turn" and stays folded (one form open).
    return el("details", { class: "action", open: (a.id === "attack" && turn && prefix) || a.id === "fellowship-vote" ? true : undefined, dataset: { action: a.id, key: key } },
      el("summary", {}, a.label() + (a.id === "attack" && turn ? " · " + t("yourTurn") : "")),
      T.form(scope, fields, a.label(), (v, k) => a.run(st, ch, v, k)));
  }

  // callsFor are the GM's open calls for ch not answered yet.
  const callsFor = (st, ch) => (st.calls || []).filter((c) => (c.characters || []).includes(ch.id) && !isAnswered(c, ch.id));

  // callEl is one call for ch, with its Roll button (one intent; gone once
  // answered). The call's id goes with the roll when the journal keeps
  // calls as events (a call with "answered").
  function callEl(st, ch, c) {
    const what = [c.skill, c.attribute].filter(Boolean).join(" / ") + (c.vs ? " vs " + c.vs : "");
    const callId = c.answered !== undefined ? c.id : undefined;
    return el("div", { class: "call", dataset: { call: c.id, character: ch.id } },
      el("p", {}, (ch.name || ch.id) + " · " + t("callFor") + ": " + what, c.note ? el("span", { class: "call-note" }, " · " + t("tbl.callNote", c.note)) : null),
      T.button("call/" + c.id + "/" + ch.id, t("rollNow"), async (key) => {
        const res = st.campaign.tor
          ? await byId("tor-roll").run(st, ch, { skill: c.skill || "", tn: Number(c.vs) || 14, trait: "" }, key, callId)
          : await byId("roll").run(st, ch, { skill: c.skill || "", attribute: c.attribute || "", vs: c.vs || "", modifier: 0 }, key, callId);
        answered.add(c.id + "/" + ch.id);
        return res;
      }, { class: "primary", dataset: { action: "call-roll" } }));
  }

  function sheet(st, ch) {
    const facts = el("dl", { class: "facts" },
      el("dt", {}, t("status")), el("dd", { class: "status-" + (ch.status || "ok") }, T.statusWord(ch.status)),
      ch.xp !== undefined ? [el("dt", {}, t("xp")), el("dd", {}, String(ch.xp || 0))] : null,
      ch.token !== undefined ? [el("dt", {}, t("tokenHolder")), el("dd", {}, ch.token === "player" ? t("sheet.tokenPlayer") : ch.token === "gm" ? t("sheet.tokenGM") : ch.token || t("none"))] : null,
      ch.specialization ? [el("dt", {}, t("spec")), el("dd", {}, ch.specialization + (ch.spec_used_today ? " · " + t("specUsed") : ""))] : null,
      ch.hope !== undefined ? [el("dt", {}, t("hope")), el("dd", { dataset: { hope: ch.hope } }, ch.hope + "/" + ch.max_hope)] : null);
    const attrs = el("ul", { class: "chips attrs" }, Object.entries(ch.attributes || {}).map(([k, v]) => el("li", { dataset: { attribute: k } }, attrText(k, v))));
    const tor = st.campaign.tor;
    const lr = ch.last_roll;
    const r = lr && lr.result;
    const torFacts = tor
      ? el("dl", { class: "facts tor" },
          el("dt", {}, t("shadow")), el("dd", {}, String(ch.shadow || 0) + (ch.permanent_shadow ? " (+" + ch.permanent_shadow + ")" : "")),
          el("dt", {}, t("traits")), el("dd", {}, (ch.traits || []).join(", ") || "—"),
          el("dt", {}, t("advancement")), el("dd", { class: "boxes" }, Object.entries(ch.advancement || {}).map(([g, n]) => g + " " + "▣".repeat(n)).join(" · ") || "—"),
          el("dt", {}, t("fellowship")), el("dd", { dataset: { pool: tor.pool } }, String(tor.pool)),
          el("dt", {}, t("eyes")), el("dd", { dataset: { eyes: ch.eyes || 0 } }, (ch.eyes || 0) + " · " + (ch.runes || 0)),
          r ? [el("dt", {}, t("lastRoll")), el("dd", { class: "last-roll " + (r.eye ? "eye" : r.rune ? "rune" : ""), dataset: { outcome: r.success ? "success" : "failure", hope: r.hope_bonus || 0 } },
            lr.skill + ": " + (r.eye ? "◉" : r.rune ? "✦" : r.feat) + " + [" + (r.success_dice || []).join(" ") + "]" + (r.hope_bonus ? " + " + t("tbl.hopeBonus", r.hope_bonus) : "") + " = " + r.total + " vs " + r.tn + " · " + outcomeWord(r))] : null)
      : null;
    const weapons = (ch.weapons || []).length ? el("p", { class: "weapons" }, t("weapons") + ": " + ch.weapons.join(", ")) : null;
    const s = T.openSession();
    // Contests someone else asked for in which this character is a side:
    // shown until the requester's device reveals.
    const contests = Object.entries((s && s.requests) || {}).filter(([, p]) => p.state === "pending" && p.requested.kind === "contest" && (p.requested.character === ch.id || p.requested.b === ch.id));
    const contestEls = contests.map(([id, p]) => el("p", { class: "contest-pending", dataset: { request: id } },
      t("inContest") + ": " + T.nameOf(p.requested.character) + " (" + (p.requested.skill || p.requested.attribute) + ") vs " + T.nameOf(p.requested.b) + " (" + (p.requested.skill_b || p.requested.attribute_b) + ") · " + t("requestedBy") + " " + p.requested.user + " · " + t("waitingReveal")));
    const contrib = T.isV2(s) && !T.contributed(s) && !Object.keys(s.requests || {}).length
      ? T.button(ch.id + "/contribute", t("contribute"), () => T.contribute(ch.id), { dataset: { action: "contribute" } })
      : null;
    const acts = PLAYER_ACTIONS.filter((a) => a.when(st, ch)).map((a) => actionOf(st, ch, a));
    return el("article", { class: "card sheet", dataset: { character: ch.id } },
      el("header", {}, el("h2", {}, ch.name || ch.id), T.hpBar(ch)),
      facts, torFacts, el("h3", {}, t("attributes")), attrs, el("h3", {}, t("skills")), skillButtons(st, ch), weapons,
      contestEls, contrib, acts);
  }

  // The action bar: what it is this player's turn to do, now: the GM's
  // calls for its characters (Roll), and the attack of the character whose
  // combat turn it is. A call or a turn that appears is announced
  // (T.alert: the notice, the title, a vibration).
  const announced = new Set();
  function actionBar(st) {
    const bar = document.getElementById("actionbar");
    const body = document.getElementById("actionbar-body");
    if (!bar || !body) return;
    const mine = st.me && st.me.role === "player" ? (st.me.characters || []).map(T.sheetOf).filter(Boolean) : [];
    const turn = T.currentTurn();
    const items = [];
    const fresh = [];
    for (const ch of mine) {
      for (const c of callsFor(st, ch)) {
        items.push(callEl(st, ch, c));
        const k = "call/" + c.id + "/" + ch.id;
        if (!announced.has(k)) {
          announced.add(k);
          fresh.push(t("tbl.callNotice", (ch.name || ch.id) + " · " + [c.skill, c.attribute].filter(Boolean).join(" / ")));
        }
      }
      if (turn === ch.id && T.openSession()) {
        const atk = byId("attack");
        if (atk.when(st, ch)) items.push(el("div", { class: "turn-now", dataset: { character: ch.id } }, actionOf(st, ch, atk, "bar/")));
        const k = "turn/" + ((st.campaign.combat && st.campaign.combat.round) || 0) + "/" + ch.id;
        if (!announced.has(k)) {
          announced.add(k);
          fresh.push(t("tbl.turnNotice", ch.name || ch.id));
        }
      }
    }
    bar.hidden = !items.length;
    T.replaceKeeping(body, () => items);
    if (fresh.length) T.alert(fresh.join(" · "));
  }
  T.onUpdate(actionBar);

  T.view({
    id: "player-view",
    when: (st) => st.me && st.me.role === "player",
    render: (st, root) => {
      const mine = (st.me.characters || []).map(T.sheetOf).filter(Boolean);
      // What the device does by itself (witnesses, co-signs) folds away.
      const device = [].concat(witnessStatus(st), cosignStatus(st));
      T.replaceKeeping(root, () => [].concat(consents(st), mine.length ? mine.map((ch) => sheet(st, ch)) : [el("p", { class: "empty" }, t("noCharacters"))],
        device.length ? el("details", { class: "card section device-status", dataset: { key: "device-status" } }, el("summary", {}, el("h2", {}, t("tbl.device"))), device) : []));
    },
  });

  // consents are the GM's void proposals for this player's own rolls:
  // "consent to void" signs the void.consent the GM's void then carries.
  function consents(st) {
    const mine = (st.voids || []).filter((p) => p.roller === st.me.name && !p.consent_signed);
    return mine.map((p) => el("section", { class: "card consent", dataset: { proposal: p.id, event: p.event_id } },
      el("p", {}, t("proposeVoid") + " (" + T.nameOf(p.character) + "): " + p.reason),
      el("button", { type: "button", class: "danger", dataset: { action: "void-consent" }, onclick: () => T.perform(t("consentVoid"), () => T.consentVoid(p)) }, t("consentVoid"))));
  }

  // witnessStatus says that this device witnesses the GM's rolls, and
  // what became of its witnesses.
  function witnessStatus(st) {
    const s = T.openSession();
    if (!T.isV2(s)) return [];
    const lines = Object.entries(witnesses).slice(-3).map(([id, w]) => el("li", { class: w.state, dataset: { request: id, witness: w.state } },
      w.state === "mine" ? t("witnessMine") + " " + T.nameOf(w.character) : w.state === "other" ? t("witnessOther") + " " + T.nameOf(w.character) : t("witnessFailed") + " " + T.nameOf(w.character) + ": " + w.message));
    return [el("section", { class: "witness", dataset: { witnessing: "auto" } }, el("p", {}, t("witnessAuto")), lines.length ? el("ul", {}, lines) : null)];
  }

  // cosignStatus says what this device does at a v2 session's end.
  function cosignStatus(st) {
    const s = T.lastSession();
    if (!T.isV2(s)) return [];
    const c = st.cosign[s.id];
    const done = (s.cosigned || {})[st.me.name];
    const line = done ? t("cosigned") + " " + s.id
      : c && c.state === "failed" ? t("cosignFailed") + " " + s.id + ": " + c.message
      : c && c.state === "signing" ? t("cosigning") + " " + s.id + "…" : t("cosignAuto");
    return [el("p", { class: "cosign " + (done ? "ok" : c && c.state === "failed" ? "error" : ""), dataset: { cosign: done ? "done" : c ? c.state : "auto" } }, line)];
  }

  // Every device co-signs the end of a v2 session by itself, once: the
  // players' (for their first character) and the GM's (gm.js calls it).
  T.autoCosign = (st, character) => {
    const s = T.lastSession();
    if (!T.isV2(s) || !s.ended || !st.me || (s.cosigned || {})[st.me.name] || st.cosign[s.id]) return;
    st.cosign[s.id] = { state: "signing" };
    T.cosign(s, character).then(
      () => { st.cosign[s.id] = { state: "done" }; return T.refresh(); },
      (e) => { st.cosign[s.id] = { state: "failed", message: e.message }; T.render(); });
  };

  // A player's device witnesses every GM's request of the open v2 session
  // that waits for a witness, once (not those pinned to a beacon round:
  // the beacon gives their r). A witness that is not recorded says why
  // (another device's came first, or the journal's refusal).
  // In a session of witness chains (docs/design.md §3.3) every contributing
  // device's value is combined: "mine" is a witness recorded. A beacon
  // request seen before its round is receipted instead, once.
  const witnesses = {}; // request id → {state: "sending"|"mine"|"other"|"failed", character, message}
  const receipts = {}; // request id → true once sent
  function autoWitness(st, character) {
    const s = T.openSession();
    if (!T.isV2(s)) return;
    for (const [id, p] of Object.entries(s.requests || {})) {
      const round = p.requested && p.requested.beacon_round;
      if (p.state === "pending" && T.witnessed(p) && round && !receipts[id] && p.requested.user !== st.me.name && !(p.receipted || []).includes(st.me.name) &&
          global.JournalBeacon && Date.now() < global.JournalBeacon.timeOf(round) * 1000) {
        receipts[id] = true;
        T.receipt(id, character).then(() => T.refresh(), () => {});
      }
      if (p.state !== "pending" || !T.witnessed(p) || round || p.requested.user === st.me.name || witnesses[id]) continue;
      if ((p.witnessed || []).some((w) => w.user === st.me.name)) continue;
      const w = (witnesses[id] = { state: "sending", character: p.requested.character });
      T.witness(id, character).then(
        (res) => {
          const made = ((res && res.recorded) || []).some((r) => r.event && r.event.data &&
            (r.event.data.witness === st.me.name || (r.event.type === "journal.roll.witnessed.v1" && r.event.data.user === st.me.name)));
          w.state = made ? "mine" : "other";
          return T.refresh();
        },
        (e) => {
          // Another device's witness came first: the request is resolved.
          const done = T.openSession() && T.openSession().requests[id] && T.openSession().requests[id].state !== "pending";
          Object.assign(w, done || /the first witness wins/.test(e.message) ? { state: "other" } : { state: "failed", message: e.message });
          T.render();
        });
    }
  }

  // A player's device contributes to a new v2 session's key by itself,
  // once, before the first roll request.
  let contributing = false;
  T.view({
    id: "player-auto",
    when: (st) => {
      const s = T.openSession();
      const mine = st.me && st.me.role === "player" ? st.me.characters || [] : [];
      if (mine.length) T.autoCosign(st, mine[0]);
      if (mine.length) autoWitness(st, mine[0]);
      if (!contributing && mine.length && T.isV2(s) && !T.contributed(s) && !Object.keys(s.requests || {}).length) {
        contributing = true;
        T.contribute(mine[0]).then(T.refresh, () => {}).finally(() => (contributing = false));
      }
      return false;
    },
    render: () => {},
  });
})(typeof window !== "undefined" ? window : globalThis);
