// @ts-check
// The offline verifier (journal verifier > verify.html): one page, no
// server, that checks a dropped export (JSON Lines, one stored event per
// line): the hash chain over the lines' exact bytes, the signatures, each
// seed against its commitment, every face re-derived, the rules and their
// consequences judged again (verify.js). Words come from i18n.js.
(function () {
  "use strict";

  const t = (k, ...a) => JournalI18n.t(k, ...a);
  const el = JournalDOM.el; // dom.js
  // flagItem is one flag as the feed shows it (feed.js flagItem): its name
  // in the page's language, its code (a machine identifier, as `journal
  // replay --json` gives it: no language), its words and where it is.
  const flagItem = (tag, f, at) => {
    const k = "fc." + f.code;
    const name = t(k) === k ? f.code : t(k);
    return el(tag, { class: "flag", "data-flag": f.code, "data-event": f.event || "" }, "⚠ ", el("b", { class: "flag-name", text: name }), " ",
      el("code", { class: "flag-code", lang: "zxx", translate: "no", text: f.code }), ": ", el("span", { class: "flag-what", text: f.what }), at ? " · " + at : null);
  };
  // title says what a roll is in the page's language (the feed's card
  // titles): damage, healing and initiative by their words, else the
  // skill or attribute (the rules' names).
  const title = (d) => {
    const who = d.character || "";
    if (d.kind === "damage") return t("card.damage", who, d.dice || "");
    if (d.kind === "heal") return t("card.heal", who);
    if (d.kind === "initiative") return t("card.initiative", who);
    return who + " · " + (d.skill || d.attribute || t("x.roll"));
  };
  JournalI18n.apply(document);
  document.title = t("x.title");
  const result = /** @type {HTMLElement} */ (document.getElementById("result"));
  const rolls = /** @type {HTMLElement} */ (document.getElementById("rolls"));

  // check verifies an export's text; proofs are proof files of
  // suppressed rolls ([{name, text}], 'journal roll prove --out') checked
  // against it, as 'journal replay --file EXPORT --proof FILE' checks them.
  // options: verify.js's (now: the time the verdict is given at, for tests).
  async function check(name, text, proofs, options) {
    result.dataset.status = "working";
    result.textContent = t("verify.working");
    rolls.replaceChildren();
    const parsed = [];
    const proofProblems = [];
    for (const pf of proofs || []) {
      try {
        parsed.push({ name: pf.name, proof: JournalVerify.parseProof(pf.text) });
      } catch (e) {
        proofProblems.push(t("v2.proof.parse", pf.name, e.message));
      }
    }
    const rep = await JournalVerify.verifyExport(text, Object.assign({}, options || {}, { proofs: parsed }));
    const sum = rep.summary;
    // With a device's receipts (receipts.js): the file must extend every
    // head they signed and hold their messages verbatim, else it fails,
    // as `journal replay --file F --receipts DIR` does.
    const alarms = kept ? await JournalReceipts.checkFile(kept, rep.records, JournalI18n.lang()) : [];
    if (alarms.length && (sum.verdict === "ok" || sum.verdict === "flagged")) sum.verdict = "mismatch";
    // A proof that does not hold is an error, as replay's; one of a roll
    // the export records says so; one that holds is a flag.
    for (const p of rep.proofs || []) {
      if (p.status === "bad") proofProblems.push(t("v2.proof.bad", p.file, p.what));
    }
    const recorded = (rep.proofs || []).filter((p) => p.status === "recorded").map((p) => p.what);
    const problems = rep.errors.concat(rep.problems, proofProblems);
    if (proofProblems.length && sum.verdict !== "mismatch" && sum.verdict !== "foreign") sum.verdict = "mismatch";
    const list = Object.entries(rep.rolls);
    const seqOf = {}; // an event's line in the file (its first)
    for (const r of rep.records) if (!(r.event.id in seqOf)) seqOf[r.event.id] = r.n;
    const sealed = list.filter(([, v]) => v.status === "sealed").length;
    // One verdict with `journal replay --file`: ok (its exit status 0),
    // flagged (5: nothing fails, and the audit reports what it flags),
    // mismatch or foreign (4). A session not ended is never a plain OK.
    const flags = sum.flags;
    const status = { ok: "verified", flagged: "flagged", mismatch: "mismatch", foreign: "mismatch" }[sum.verdict];
    const shown = status === "verified" && sum.open.length ? "sealed" : status;
    result.dataset.status = status;
    result.dataset.verdict = sum.verdict;
    result.className = "verdict " + shown;
    const headline = {
      ok: () => t("x.ok", sum.words, list.length - sealed, sealed),
      flagged: () => t("x.flagged", sum.words, list.length - sealed, sealed, flags.length),
      mismatch: () => t("x.bad", sum.words, sum.mismatches, sum.mismatched.length),
      foreign: () => t("x.foreign", sum.words, sum.foreign.length),
    }[sum.verdict]();
    result.replaceChildren(
      el("p", { class: "headline", text: { verified: "✓ ", sealed: "◐ ", flagged: "⚠ ", mismatch: "✗ " }[shown] + headline }),
      sum.open.length ? el("p", { class: "open", text: t("x.open", sum.open.join(", ")) }) : "",
      el("p", { class: "quiet", text: t("x.file", name, rep.records.length, list.length) + " · " + (rep.chain.checked ? t("x.chain", rep.chain.checked) : t("x.noChain")) }),
      alarms.length ? el("ul", { class: "problems receipts" }, alarms.map((a) => el("li", { "data-kind": a.kind, text: JournalReceipts.words(JournalI18n.lang(), "warning") + a.text }))) : "",
      problems.length ? el("ul", { class: "problems" }, problems.map((p) => el("li", { text: p }))) : "",
      recorded.length ? el("ul", { class: "proofs" }, recorded.map((p) => el("li", { text: p }))) : "",
      flags.length ? el("ul", { class: "flags" }, flags.map((f) => flagItem("li", f, f.event ? (seqOf[f.event] ? t("s.line", seqOf[f.event]) : t("s.event", f.event)) : ""))) : "",
      // Every device with its fingerprint, to compare with what each
      // player's own device shows (docs/design.md §3.3).
      (sum.devices || []).length ? el("ul", { class: "devices" }, sum.devices.map((d) => el("li", { "data-fingerprint": d.fingerprint,
        text: t("x.device", d.user, d.name || "-", d.fingerprint, d.by) + (d.revoked ? " · " + t("x.deviceRevoked", d.revokedBy) : d.approved ? " · " + t("x.deviceApproved") : "") + (d.proved ? "" : " · " + t("x.deviceUnproved")) }))) : "");
    const byID = {};
    for (const r of rep.records) byID[r.event.id] = r.event;
    rolls.replaceChildren(...list.map(([id, v]) => {
      const d = (byID[id] && byID[id].data) || {};
      const faces = (d.faces || []).map((f, i) => (d.kind === "tor" && i === 0 && f === 11 ? t("x.eye") : d.kind === "tor" && i === 0 && f === 12 ? t("x.rune") : f)).join(" ");
      const mark = v.status === "verified" ? "✓" : v.status === "sealed" ? "◐" : "✗";
      return el("li", { class: "ev " + v.status, "data-event-id": id, "data-status": v.status },
        el("span", { class: "verdict " + v.status, text: mark + " " }),
        el("b", { text: title(d) }),
        " [" + faces + "] → " + d.total + (d.outcome && d.outcome !== "rolled" ? " · " + t("o." + d.outcome) : ""),
        v.reasons.length ? el("div", { class: "verdict mismatch", text: v.reasons.join("; ") }) : null,
        (v.flagged || []).length ? el("ul", { class: "flags" }, v.flagged.map((f) => flagItem("li", f))) : null,
        (v.notes || []).length ? el("div", { class: "notes", text: v.notes.join("; ") }) : null);
    }));
  }

  let kept = null; // the receipts chosen (receipts.js), or none
  let last = null; // the export last checked: {name, text, proofs}
  const receipts = /** @type {HTMLInputElement | null} */ (document.getElementById("receipts"));
  if (receipts) {
    receipts.addEventListener("change", () => {
      const f = /** @type {FileList} */ (receipts.files)[0];
      if (!f) return;
      f.text().then((text) => {
        kept = JournalReceipts.parseJSONL(text);
        if (last) check(last.name, last.text, last.proofs);
      }).catch((err) => {
        result.dataset.status = "error";
        result.textContent = t("verify.error", err.message);
      });
    });
  }

  // isProof tells a proof file from an export: one JSON object with a
  // version and a signed reveal (an export is one event a line).
  function isProof(text) {
    try {
      const v = JSON.parse(text);
      return !!v && typeof v === "object" && "version" in v && "signed" in v && !("specversion" in v);
    } catch (e) {
      return false;
    }
  }

  // read reads the files given together: the export and any proof files.
  function read(files) {
    Promise.all([...files].map((f) => f.text().then((text) => ({ name: f.name, text: text })))).then((all) => {
      const proofs = all.filter((f) => isProof(f.text));
      const exp = all.find((f) => !isProof(f.text)) || all[0];
      last = { name: exp.name, text: exp.text, proofs: proofs.filter((p) => p !== exp) };
      return check(last.name, last.text, last.proofs);
    }).catch((err) => {
      result.dataset.status = "error";
      result.textContent = t("verify.error", err.message);
    });
  }

  const input = /** @type {HTMLInputElement} */ (document.getElementById("file"));
  input.addEventListener("change", () => { const fs = /** @type {FileList} */ (input.files); return fs.length && read(fs); });
  const zone = /** @type {HTMLElement} */ (document.getElementById("drop"));
  zone.addEventListener("dragover", (e) => { e.preventDefault(); zone.classList.add("over"); });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", (e) => {
    e.preventDefault();
    zone.classList.remove("over");
    const fs = /** @type {DataTransfer} */ (e.dataTransfer).files;
    if (fs.length) read(fs);
  });
  // For tests and scripts: JournalVerifier.check(name, text, proofs, options), with
  // the receipts given by JournalVerifier.receipts(jsonl) first.
  window.JournalVerifier = { check: check, receipts: (jsonl) => { kept = jsonl ? JournalReceipts.parseJSONL(jsonl) : null; } };
})();
