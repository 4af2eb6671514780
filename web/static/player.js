// The player's view of the table (DESIGN.md §6): each of the player's
// characters as a sheet, and the actions from it. Each action is a row of
// JournalTable's table of actions, so that a roll path the journal wires
// later (contests, Hope, traits, fellowship votes, witnesses, co-signing)
// adds a row here and nothing else.
(function (global) {
  "use strict";
  const T = global.JournalTable;
  const { el, t } = T;

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
      run: (st, ch, v) => {
        const action = { command: "roll", character: ch.id, skill: v.skill || "", attribute: v.attribute || "", vs: v.vs || "", modifier: v.modifier || 0, token: !!v.token, specialization: !!v.specialization };
        if (T.isV2(T.openSession())) return T.requestReveal(ch.id, action);
        const body = { character: ch.id, modifier: action.modifier, token: action.token, specialization: action.specialization };
        if (action.skill) body.skill = action.skill;
        if (action.attribute) body.attribute = action.attribute;
        if (action.vs) body.vs = action.vs;
        return T.command("roll", body);
      },
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
        return [
          { name: "target", label: t("target"), type: "select", options: targets.map((id) => [id, (T.sheetOf(id) || { name: id }).name || id]) },
          { name: "weapon", label: t("weapon"), type: "select", options: [["", (ch.weapons || [])[0] || "—"]].concat((ch.weapons || []).slice(1).map((w) => [w, w])) },
          { name: "range", label: t("range"), type: "select", options: [["", "—"], ["corta", "corta"], ["media", "media"], ["larga", "larga"]] },
          { name: "modifier", label: t("modifier"), type: "number", value: 0 },
        ].concat(ch.token === "player" ? [{ name: "token", label: t("useToken"), type: "checkbox" }] : [])
          .concat(ch.specialization && !ch.spec_used_today ? [{ name: "specialization", label: t("useSpec"), type: "checkbox" }] : []);
      },
      run: async (st, ch, v) => {
        const req = { attacker: ch.id, target: v.target, modifier: v.modifier || 0, token: !!v.token, specialization: !!v.specialization };
        if (v.weapon) req.weapon = v.weapon;
        if (v.range) req.range = v.range;
        if (!T.isV2(T.openSession())) return T.command("attack", req);
        // The action as the rules spell it (the weapon's name, the band),
        // from the journal, then signed here.
        const action = await T.api("POST", T.campaignPath("/actions/attack"), req);
        delete action.seed_commitment;
        return T.requestReveal(ch.id, action);
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
      run: (st, ch, v) => T.command("roll", Object.assign({ character: ch.id, skill: v.skill, tn: v.tn || 14 }, v.trait ? { trait: v.trait } : {})),
    },
    {
      id: "hope-spend",
      label: () => t("spendHope"),
      when: (st, ch) => !!st.campaign.tor && !!ch.last_roll && !ch.last_roll.hope_spent && ch.hope > 0,
      fields: () => [],
      run: (st, ch) => T.command("hope-spend", { character: ch.id }),
    },
    {
      id: "fellowship-ask",
      label: () => t("askFellowship"),
      when: (st, ch) => !!st.campaign.tor && !st.campaign.tor.request && st.campaign.tor.pool > 0 && ch.hope < ch.max_hope,
      fields: () => [],
      run: (st, ch) => T.command("fellowship-ask", { character: ch.id }),
    },
    {
      id: "fellowship-vote",
      label: () => t("vote"),
      when: (st, ch) => {
        const rq = st.campaign.tor && st.campaign.tor.request;
        return !!rq && rq.character !== ch.id && !rq.tally && !(rq.ballots || []).some((b) => b.voter === ch.id);
      },
      fields: (st) => [{ name: "agree", label: t("agreeFor") + " " + st.campaign.tor.request.character, type: "select", options: [["yes", t("yes")], ["no", t("no")]] }],
      run: (st, ch, v) => T.command("fellowship-vote", { character: st.campaign.tor.request.character, voter: ch.id, agree: v.agree === "yes" }),
    },
  ];
  // Each row is also in the shared table, for tests and other views.
  for (const a of PLAYER_ACTIONS) T.action(Object.assign({ view: "player" }, a));

  function sheet(st, ch) {
    const turn = T.currentTurn();
    const facts = el("dl", { class: "facts" },
      el("dt", {}, t("status")), el("dd", { class: "status-" + (ch.status || "ok") }, ch.status || "ok"),
      ch.xp !== undefined ? [el("dt", {}, t("xp")), el("dd", {}, String(ch.xp || 0))] : null,
      ch.token !== undefined ? [el("dt", {}, t("tokenHolder")), el("dd", {}, ch.token || t("none"))] : null,
      ch.specialization ? [el("dt", {}, t("spec")), el("dd", {}, ch.specialization + (ch.spec_used_today ? " · " + t("specUsed") : ""))] : null,
      ch.hope !== undefined ? [el("dt", {}, t("hope")), el("dd", { dataset: { hope: ch.hope } }, ch.hope + "/" + ch.max_hope)] : null);
    const attrs = el("ul", { class: "chips" }, Object.entries(ch.attributes || {}).map(([k, v]) => el("li", {}, k + " " + T.value(v))));
    const skills = el("ul", { class: "chips" }, Object.entries(ch.skills || {}).sort().map(([k, v]) => el("li", {}, k + " " + T.value(v))));
    const tor = st.campaign.tor;
    const lr = ch.last_roll;
    const torFacts = tor
      ? el("dl", { class: "facts tor" },
          el("dt", {}, t("shadow")), el("dd", {}, String(ch.shadow || 0) + (ch.permanent_shadow ? " (+" + ch.permanent_shadow + ")" : "")),
          el("dt", {}, t("traits")), el("dd", {}, (ch.traits || []).join(", ") || "—"),
          el("dt", {}, t("advancement")), el("dd", { class: "boxes" }, Object.entries(ch.advancement || {}).map(([g, n]) => g + " " + "▣".repeat(n)).join(" · ") || "—"),
          el("dt", {}, t("fellowship")), el("dd", { dataset: { pool: tor.pool } }, String(tor.pool)),
          el("dt", {}, t("eyes")), el("dd", { dataset: { eyes: ch.eyes || 0 } }, (ch.eyes || 0) + " · " + (ch.runes || 0)),
          lr ? [el("dt", {}, t("lastRoll")), el("dd", { class: lr.result.eye ? "eye" : lr.result.rune ? "rune" : "" },
            lr.skill + ": " + (lr.result.eye ? "◉" : lr.result.rune ? "✦" : lr.result.feat) + " + [" + (lr.result.success_dice || []).join(" ") + "] = " + lr.result.total + " vs " + lr.result.tn + " · " + lr.result.outcome + (lr.hope_spent ? " · " + t("hope") : ""))] : null)
      : null;
    const weapons = (ch.weapons || []).length ? el("p", { class: "weapons" }, t("weapons") + ": " + ch.weapons.join(", ")) : null;
    const calls = (st.calls || []).filter((c) => (c.characters || []).includes(ch.id));
    const callEls = calls.map((c) =>
      el("div", { class: "call", dataset: { call: c.id } },
        el("p", {}, t("callFor") + ": " + [c.skill, c.attribute].filter(Boolean).join(" / ") + (c.vs ? " vs " + c.vs : "") + (c.note ? " · " + c.note : "")),
        el("button", { type: "button", class: "primary", dataset: { action: "call-roll" }, onclick: () => T.perform(t("roll"), () => PLAYER_ACTIONS[0].run(st, ch, { skill: c.skill || "", attribute: c.attribute || "", vs: c.vs || "", modifier: 0 })) }, t("rollNow"))));
    const s = T.openSession();
    const contrib = T.isV2(s) && !T.contributed(s) && !Object.keys(s.requests || {}).length
      ? el("button", { type: "button", dataset: { action: "contribute" }, onclick: () => T.perform(t("contribute"), () => T.contribute(ch.id)) }, t("contribute"))
      : null;
    const acts = PLAYER_ACTIONS.filter((a) => a.when(st, ch)).map((a) => {
      const fields = a.fields(st, ch);
      if (!fields.length) return el("button", { type: "button", dataset: { action: a.id }, onclick: () => T.perform(a.label(), () => a.run(st, ch, {})) }, a.label());
      return el("details", { class: "action", open: (a.id === "attack" && turn === ch.id) || a.id === "roll" || a.id === "tor-roll" || a.id === "fellowship-vote" ? true : undefined, dataset: { action: a.id, key: ch.id + "/" + a.id } },
        el("summary", {}, a.label() + (a.id === "attack" && turn === ch.id ? " · " + t("yourTurn") : "")),
        T.form(ch.id + "/" + a.id, fields, a.label(), (v) => T.perform(a.label(), () => a.run(st, ch, v))));
    });
    return el("article", { class: "card sheet", dataset: { character: ch.id } },
      el("header", {}, el("h2", {}, ch.name || ch.id), T.hpBar(ch)),
      facts, torFacts, el("h3", {}, t("attributes")), attrs, el("h3", {}, t("skills")), skills, weapons,
      callEls.length ? el("section", { class: "calls", "aria-label": t("calls") }, callEls) : null,
      contrib, acts);
  }

  T.view({
    id: "player-view",
    when: (st) => st.me && st.me.role === "player",
    render: (st, root) => {
      const mine = (st.me.characters || []).map(T.sheetOf).filter(Boolean);
      T.replaceKeeping(root, () => (mine.length ? mine.map((ch) => sheet(st, ch)) : [el("p", { class: "empty" }, t("noCharacters"))]));
    },
  });

  // A player's device contributes to a new v2 session's key by itself,
  // once, before the first roll request.
  let contributing = false;
  T.view({
    id: "player-auto",
    when: (st) => {
      const s = T.openSession();
      const mine = st.me && st.me.role === "player" ? st.me.characters || [] : [];
      if (!contributing && mine.length && T.isV2(s) && !T.contributed(s) && !Object.keys(s.requests || {}).length) {
        contributing = true;
        T.contribute(mine[0]).then(T.refresh, () => {}).finally(() => (contributing = false));
      }
      return false;
    },
    render: () => {},
  });
})(typeof window !== "undefined" ? window : globalThis);
