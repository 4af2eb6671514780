// @ts-check
// The GM's tools that stand alone (docs/design.md §6): each function takes
// what it needs (the words, the API, the command runner, the state) and
// builds or decorates DOM, so that any page shell can place it. Words come
// from i18n.js (JournalI18n, keys "gm.*"); rule names stay as the rules
// spell them.
//
//   JournalGM.loadNames(api, path)        GET /names once per campaign (a promise)
//   JournalGM.enhanceNames(form, names)   skill fields pick from the rules' names,
//                                         with a suggestion as one types; the
//                                         form submits only a rules' name
//   JournalGM.freeRollForm(o)             the free-roll box (o.gm adds "secret")
//   JournalGM.secretRolls(o)              the GM's hidden results, each with Reveal
//   JournalGM.voidButtons(root, o)        a Void button on each feed card (GM)
//   JournalGM.inviteForm(o)               make an invite link from the page
//   JournalGM.raiseForm(o)                a skill raise with XP (the GM's, or
//                                         the player's for its character)
//
// Invariants: nothing here builds HTML from data (textContent only); a
// form whose skill is not a rules' name is not submitted (its message says
// what to pick); a button is disabled from its tap until its answer.
(function (global) {
  "use strict";

  const tr = (key, ...args) => (global.JournalI18n ? global.JournalI18n.t(key, ...args) : key);

  const el = global.JournalDOM.el; // dom.js

  // ---- the rules' names ----
  const namesCache = new Map(); // path → promise
  function loadNames(api, path) {
    if (!namesCache.has(path)) {
      namesCache.set(path, api("GET", path).catch((e) => {
        namesCache.delete(path);
        throw e;
      }));
    }
    return namesCache.get(path);
  }

  // skillEntries are the resolve entries of a names answer: each skill with
  // its English name (The One Ring's) as another spelling.
  const skillEntries = (names) => ((names && names.skills) || []).map((s) => [s.name].concat(s.english ? [s.english] : []));

  // The fields that name a skill.
  const SKILL_FIELDS = ["skill", "skill_a", "skill_b", "opponent_skill"];

  // enhanceNames makes every skill field of form a picker of the rules'
  // names: a datalist of them, a hint as one types ("did you mean …"), and
  // a check at submit (before the form's own handler, in the capture
  // phase) that writes the rules' spelling or stops the submit.
  function enhanceNames(form, names) {
    if (!names || !form) return form;
    const entries = skillEntries(names);
    const N = global.JournalNames;
    for (const name of SKILL_FIELDS) {
      const input = form.elements[name];
      if (!input || input.tagName !== "INPUT") continue;
      const id = "names-" + (form.dataset.form || "f").replace(/[^a-z0-9-]/gi, "-") + "-" + name;
      input.setAttribute("list", id);
      input.setAttribute("autocomplete", "off");
      input.dataset.names = "skills";
      const list = el("datalist", { id: id }, entries.map(([n]) => el("option", { value: n })));
      const hint = el("small", { class: "name-hint", "aria-live": "polite", dataset: { for: name } });
      input.after(list, hint);
      input.addEventListener("input", () => {
        const v = input.value.trim();
        const r = v ? N.resolve(v, entries) : { name: "" };
        hint.textContent = r.name !== undefined ? "" : r.suggestions.length ? tr("gm.nameSuggest", v, r.suggestions.join(", ")) : tr("gm.nameUnknown", v);
        input.setAttribute("aria-invalid", r.name !== undefined ? "false" : "true");
      });
    }
    form.addEventListener("submit", (ev) => {
      for (const name of SKILL_FIELDS) {
        const input = form.elements[name];
        if (!input || input.dataset.names !== "skills") continue;
        const v = input.value.trim();
        if (!v && !input.required) continue;
        const r = N.resolve(v, entries);
        if (r.name !== undefined) {
          input.value = r.name;
          continue;
        }
        ev.preventDefault();
        ev.stopImmediatePropagation();
        const msg = !v ? tr("gm.nameNone") : r.suggestions.length ? tr("gm.nameSuggest", v, r.suggestions.join(", ")) : tr("gm.nameUnknown", v) + " " + tr("gm.nameNone");
        const hint = form.querySelector('.name-hint[data-for="' + name + '"]');
        if (hint) hint.textContent = msg;
        input.setAttribute("aria-invalid", "true");
        input.focus();
        return;
      }
    }, true);
    return form;
  }

  // ---- free rolls and secret rolls ----
  // freeRollForm: o = {characters: [[id, label]], gm: bool, run(body) →
  // promise}; body is the free-roll command's: {character?, dice, note?,
  // secret?} (docs/design.md §6).
  function freeRollForm(o) {
    const f = el("form", { class: "act free-roll", dataset: { form: "free-roll", action: "free-roll" } });
    if ((o.characters || []).length) {
      f.append(el("label", {}, el("span", {}, o.characterLabel || ""),
        el("select", { name: "character", "aria-label": o.characterLabel || "character" }, [el("option", { value: "" }, tr("gm.none"))].concat(o.characters.map(([v, l]) => el("option", { value: v }, l))))));
    }
    f.append(el("label", {}, el("span", {}, tr("gm.dice")), el("input", { name: "dice", required: true, placeholder: tr("gm.diceHelp"), pattern: "\\s*[0-9]*[dD][0-9]+(\\s*[+\\-]\\s*[0-9]+)?\\s*", autocomplete: "off", spellcheck: "false" })));
    f.append(el("label", {}, el("span", {}, o.noteLabel || ""), el("input", { name: "note", autocomplete: "off" })));
    if (o.gm) f.append(el("label", { class: "check" }, el("input", { type: "checkbox", name: "secret" }), " " + tr("gm.secret")));
    const b = el("button", { type: "submit" }, tr("gm.freeRoll"));
    f.append(b);
    f.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const body = { dice: f.elements.dice.value.replace(/\s+/g, "") };
      if (f.elements.character && f.elements.character.value) body.character = f.elements.character.value;
      if (f.elements.note.value.trim()) body.note = f.elements.note.value.trim();
      if (f.elements.secret && f.elements.secret.checked) body.secret = true;
      b.disabled = true;
      Promise.resolve(o.run(body)).catch(() => {}).finally(() => {
        b.disabled = false;
      });
    });
    return f;
  }

  // secretRolls lists the GM's own hidden results not yet revealed (GET
  // /secret-rolls),
  // each with Reveal (the "reveal" command): o = {api, path, command,
  // perform}. Resolves to the list element, or null when there are none
  // (or the route is not there).
  async function secretRolls(o) {
    let list;
    try {
      list = await o.api("GET", o.path);
    } catch (e) {
      return null;
    }
    // Each is {hidden (the roll.hidden event's id), session, revealed
    // (the roll's event id once revealed), roll (its dice and total)}.
    const open = Array.isArray(list) ? list.filter((r) => r && !r.revealed) : [];
    if (!open.length) return null;
    return el("ul", { class: "secret-rolls", "aria-label": tr("gm.secretRolls") }, open.map((r) => {
      const d = r.roll || {};
      return el("li", { dataset: { hidden: r.hidden || "" } },
        [d.character, d.dice || d.expression, d.total !== undefined ? "= " + d.total : "", d.note].filter((x) => x !== undefined && x !== "").join(" · ") + " ",
        el("button", { type: "button", dataset: { action: "reveal" }, onclick: (ev) => {
          ev.currentTarget.disabled = true;
          o.perform(tr("gm.reveal"), () => o.command("reveal", { request: r.hidden }));
        } }, tr("gm.reveal")));
    }));
  }

  // ---- voids from a card ----
  // voidButtons puts a Void button on every card of root (li.ev with
  // data-event-id: feed.js's cards) that has none; a tap opens a small form
  // for the reason, and o.void(eventId, reason) runs the void (the void
  // proposal in a journal-dice-v2 session: table2.go).
  // Cards of what a void cannot correct (a session's start or end, a
  // combat's flow, a void itself, a cancellation, a proof, a secret roll
  // not yet revealed) get none.
  const UNVOIDABLE = /^journal\.(session\.|combat\.(round|ended)|event\.voided|roll\.(cancelled|proved|hidden))/;
  function voidButtons(root, o) {
    if (!root) return;
    for (const card of root.querySelectorAll("li.ev[data-event-id]")) {
      if (card.querySelector(":scope > .gm-void") || UNVOIDABLE.test(card.dataset.type || "")) continue;
      const id = card.dataset.eventId;
      const box = el("div", { class: "gm-void" });
      const open = el("button", { type: "button", class: "secondary danger", dataset: { action: "void-card", event: id }, "aria-label": tr("gm.voidCard") + " " + id.slice(0, 8) }, tr("gm.voidCard"));
      open.addEventListener("click", () => {
        if (box.querySelector("form")) return;
        const f = el("form", { class: "act", dataset: { form: "void/" + id } },
          el("label", {}, el("span", {}, tr("gm.voidReason")), el("input", { name: "reason", required: true, autocomplete: "off" })),
          el("button", { type: "submit", class: "danger" }, tr("gm.voidCard")));
        f.addEventListener("submit", (ev) => {
          ev.preventDefault();
          const b = f.querySelector("button");
          b.disabled = true;
          Promise.resolve(o.void(id, f.elements.reason.value.trim())).catch(() => {}).finally(() => {
            b.disabled = false;
            f.remove();
          });
        });
        box.append(f);
        f.elements.reason.focus();
      });
      box.append(open);
      card.append(box);
    }
  }

  // ---- skill raises ----
  // raiseForm is a character's skill raise with its XP (docs/rules.md 1.4:
  // a rank costs as many XP as the new rank), for the GM or the
  // character's own player (the raise command acts for the character):
  // o = {character, names, skillLabel, run(body) → promise}.
  function raiseForm(o) {
    const f = el("form", { class: "act raise", dataset: { form: "raise/" + o.character, action: "raise" } },
      el("label", {}, el("span", {}, o.skillLabel || ""), el("input", { name: "skill", required: true, autocomplete: "off" })),
      el("button", { type: "submit" }, tr("gm.raise")));
    f.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const b = f.querySelector("button");
      b.disabled = true;
      Promise.resolve(o.run({ character: o.character, skill: f.elements.skill.value })).catch(() => {}).finally(() => {
        b.disabled = false;
      });
    });
    return enhanceNames(f, o.names);
  }

  // ---- invites ----
  // inviteForm: o = {api, path (POST …/invites), characters: [[id, label]],
  // perform, labels: {characters}}. The link made is shown once, with Copy.
  function inviteForm(o) {
    const out = el("p", { class: "invite-link", hidden: true });
    const f = el("form", { class: "act", dataset: { form: "invite", action: "invite" } },
      el("label", {}, el("span", {}, tr("gm.inviteUser")), el("input", { name: "user", required: true, autocomplete: "off", spellcheck: "false" })),
      el("label", {}, el("span", {}, tr("gm.inviteRole")), el("select", { name: "role" }, [["player", o.roleLabel("player")], ["gm", o.roleLabel("gm")], ["viewer", o.roleLabel("dashboard")]].map(([v, l]) => el("option", { value: v }, l)))),
      el("fieldset", {}, el("legend", {}, o.charactersLabel || ""), el("span", { class: "checks", role: "group", "aria-label": o.charactersLabel || "" }, (o.characters || []).map(([v, l]) => el("label", {}, el("input", { type: "checkbox", name: "characters:" + v }), " " + l)))),
      el("button", { type: "submit" }, tr("gm.invite")), out);
    f.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const body = { user: f.elements.user.value.trim(), role: f.elements.role.value, characters: (o.characters || []).map(([v]) => v).filter((v) => f.elements["characters:" + v].checked) };
      if (body.role !== "player") body.characters = [];
      const b = f.querySelector("button[type=submit]");
      b.disabled = true;
      o.perform(tr("gm.invite"), () => o.api("POST", o.path, body)).then((got) => {
        if (!got || !got.link) return;
        f.reset(); // the next invite starts empty (no character of this one's)
        const link = global.location.origin + got.link;
        const input = el("input", { readonly: true, value: link, "aria-label": tr("gm.inviteLink"), dataset: { invite: got.invite || "" } });
        out.replaceChildren(el("span", {}, tr("gm.inviteLink") + " "), input, " ",
          el("button", { type: "button", class: "secondary", onclick: () => (navigator.clipboard ? navigator.clipboard.writeText(link).catch(() => {}) : null) }, tr("gm.copy")));
        out.hidden = false;
      }).finally(() => {
        b.disabled = false;
      });
    });
    return f;
  }

  global.JournalGM = { loadNames: loadNames, enhanceNames: enhanceNames, skillEntries: skillEntries, freeRollForm: freeRollForm, secretRolls: secretRolls, voidButtons: voidButtons, inviteForm: inviteForm, raiseForm: raiseForm };
})(typeof window !== "undefined" ? window : globalThis);
