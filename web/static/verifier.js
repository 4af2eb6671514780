// The offline verifier (journal verifier > verify.html): one page, no
// server, that checks a dropped export (JSON Lines, one stored event per
// line): the hash chain over the lines' exact bytes, the signatures, each
// seed against its commitment, every face re-derived, the rules and their
// consequences judged again (verify.js). Words come from i18n.js.
(function () {
  "use strict";

  const t = (k, ...a) => JournalI18n.t(k, ...a);
  const el = (tag, attrs, ...children) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") e.className = v;
      else if (k === "text") e.textContent = v;
      else e.setAttribute(k, v);
    }
    for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    return e;
  };
  JournalI18n.apply(document);
  document.title = t("x.title");
  const result = document.getElementById("result");
  const rolls = document.getElementById("rolls");

  async function check(name, text) {
    result.dataset.status = "working";
    result.textContent = t("verify.working");
    rolls.replaceChildren();
    const parsed = JournalVerify.parseExport(text);
    const rep = await JournalVerify.verifyEvents(parsed.records, {});
    const problems = parsed.errors.concat(rep.problems);
    const list = Object.entries(rep.rolls);
    const bad = list.filter(([, v]) => v.status === "mismatch").length + problems.length;
    const sealed = list.filter(([, v]) => v.status === "sealed").length;
    // Verified with flags: nothing fails, and the audit reports what it
    // flags (replay's exit status 5), a state of its own.
    const flags = rep.flags || [];
    const status = bad ? "mismatch" : flags.length ? "flagged" : "verified";
    result.dataset.status = status;
    result.className = "verdict " + status;
    result.replaceChildren(
      el("p", { class: "headline", text: bad ? t("x.bad", bad) : flags.length ? t("x.flagged", list.length - sealed, sealed, flags.length) : t("x.ok", list.length - sealed, sealed) }),
      el("p", { class: "quiet", text: t("x.file", name, parsed.records.length, list.length) + " · " + (rep.chain.checked ? t("x.chain", rep.chain.checked) : t("x.noChain")) }),
      problems.length ? el("ul", { class: "problems" }, problems.map((p) => el("li", { text: p }))) : "",
      flags.length ? el("ul", { class: "flags" }, flags.map((f) => el("li", { "data-flag": f.code, text: "⚠ " + t("x.flag", f.code) + " " + f.what }))) : "");
    const byID = {};
    for (const r of parsed.records) byID[r.event.id] = r.event;
    rolls.replaceChildren(...list.map(([id, v]) => {
      const d = (byID[id] && byID[id].data) || {};
      const faces = (d.faces || []).map((f, i) => (d.kind === "tor" && i === 0 && f === 11 ? t("x.eye") : d.kind === "tor" && i === 0 && f === 12 ? t("x.rune") : f)).join(" ");
      const mark = v.status === "verified" ? "✓" : v.status === "sealed" ? "◐" : "✗";
      return el("li", { class: "ev " + v.status, "data-event-id": id, "data-status": v.status },
        el("span", { class: "verdict " + v.status, text: mark + " " }),
        el("b", { text: (d.character || "") + " · " + (d.skill || d.attribute || d.kind || t("x.roll")) }),
        " [" + faces + "] → " + d.total + (d.outcome && d.outcome !== "rolled" ? " · " + t("o." + d.outcome) : ""),
        v.reasons.length ? el("div", { class: "verdict mismatch", text: v.reasons.join("; ") }) : null,
        v.flags.length ? el("div", { class: "flags", text: "⚠ " + v.flags.join("; ") }) : null);
    }));
  }

  function read(file) {
    file.text().then((text) => check(file.name, text)).catch((err) => {
      result.dataset.status = "error";
      result.textContent = t("verify.error", err.message);
    });
  }

  const input = document.getElementById("file");
  input.addEventListener("change", () => input.files[0] && read(input.files[0]));
  const zone = document.getElementById("drop");
  zone.addEventListener("dragover", (e) => { e.preventDefault(); zone.classList.add("over"); });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", (e) => {
    e.preventDefault();
    zone.classList.remove("over");
    if (e.dataTransfer.files[0]) read(e.dataTransfer.files[0]);
  });
  // For tests and scripts: JournalVerifier.check(name, text).
  window.JournalVerifier = { check: check };
})();
