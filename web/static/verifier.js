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

  // check verifies an export's text; proofs are proof files of
  // suppressed rolls ([{name, text}], 'journal roll prove --out') checked
  // against it, as 'journal replay --file EXPORT --proof FILE' checks them.
  async function check(name, text, proofs) {
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
    const rep = await JournalVerify.verifyExport(text, { proofs: parsed });
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
      flags.length ? el("ul", { class: "flags" }, flags.map((f) => el("li", { "data-flag": f.code, text: "⚠ " + t("s.flag", f.code) + " " + f.what }))) : "",
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
        el("b", { text: (d.character || "") + " · " + (d.skill || d.attribute || (d.kind ? t("x.kind." + d.kind).replace(/^x\.kind\./, "") : "") || t("x.roll")) }),
        " [" + faces + "] → " + d.total + (d.outcome && d.outcome !== "rolled" ? " · " + t("o." + d.outcome) : ""),
        v.reasons.length ? el("div", { class: "verdict mismatch", text: v.reasons.join("; ") }) : null,
        v.flags.length ? el("div", { class: "flags", text: "⚠ " + v.flags.join("; ") }) : null);
    }));
  }

  let kept = null; // the receipts chosen (receipts.js), or none
  let last = null; // the export last checked: {name, text, proofs}
  const receipts = document.getElementById("receipts");
  if (receipts) {
    receipts.addEventListener("change", () => {
      const f = receipts.files[0];
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

  const input = document.getElementById("file");
  input.addEventListener("change", () => input.files.length && read(input.files));
  const zone = document.getElementById("drop");
  zone.addEventListener("dragover", (e) => { e.preventDefault(); zone.classList.add("over"); });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", (e) => {
    e.preventDefault();
    zone.classList.remove("over");
    if (e.dataTransfer.files.length) read(e.dataTransfer.files);
  });
  // For tests and scripts: JournalVerifier.check(name, text, proofs), with
  // the receipts given by JournalVerifier.receipts(jsonl) first.
  window.JournalVerifier = { check: check, receipts: (jsonl) => { kept = jsonl ? JournalReceipts.parseJSONL(jsonl) : null; } };
})();
