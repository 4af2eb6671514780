// Runs the browser's verifier (web/static/verify.js and the scripts the
// offline verifier loads before it) under node on sets of events as the
// API gives them (no stored bytes: a permalink's evidence, a campaign's
// events) and prints, for each set, the verdict of each roll asked: its
// status and its flags ({code, event, what}). web's
// TestPermalinkEvidenceVerdicts compares a roll's verdict on its
// permalink's evidence with its verdict in the whole campaign.
//
//   node web/testdata/evidence-node.js --static web/static \
//     --scripts i18n.js,dice.js,... [--now T] [--lang en|es] JOBS.jsonl
//
// A job is one JSON line {name, events: [event...], rolls: [id...]}; the
// answer one line {name, verdicts: {id: {status, flagged}}} or {name, error}.
"use strict";
const fs = require("fs");
const path = require("path");
const vm = require("vm");

function args(argv) {
  const o = { static: "", scripts: [], now: "", lang: "en", files: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--static") o.static = argv[++i];
    else if (a === "--scripts") o.scripts = argv[++i].split(",").filter(Boolean);
    else if (a === "--now") o.now = argv[++i];
    else if (a === "--lang") o.lang = argv[++i];
    else o.files.push(a);
  }
  if (!o.static || !o.scripts.length || o.files.length !== 1) throw new Error("usage: evidence-node.js --static DIR --scripts A,B,... [--now T] [--lang L] JOBS.jsonl");
  return o;
}

async function main() {
  const o = args(process.argv.slice(2));
  const ctx = {
    console: console,
    crypto: globalThis.crypto || require("crypto").webcrypto,
    TextEncoder: TextEncoder,
    TextDecoder: TextDecoder,
    setTimeout: setTimeout,
    clearTimeout: clearTimeout,
    atob: atob,
    btoa: btoa,
    document: { documentElement: { lang: o.lang } },
  };
  ctx.globalThis = ctx;
  vm.createContext(ctx);
  for (const s of o.scripts) vm.runInContext(fs.readFileSync(path.join(o.static, s), "utf8"), ctx, { filename: s });
  const lines = fs.readFileSync(o.files[0], "utf8").split("\n").filter((l) => l.trim() !== "");
  for (const line of lines) {
    const job = JSON.parse(line);
    let out;
    try {
      const rep = await ctx.JournalVerify.verifyEvents(job.events.map((e) => ({ event: e })), o.now ? { now: o.now } : {});
      const verdicts = {};
      for (const id of job.rolls) {
        const v = rep.rolls[id];
        verdicts[id] = v ? { status: v.status, flagged: v.flagged, reasons: v.reasons } : { status: "missing", flagged: [] };
      }
      out = { name: job.name, verdicts: verdicts };
    } catch (e) {
      out = { name: job.name, error: String((e && e.stack) || e) };
    }
    process.stdout.write(JSON.stringify(out) + "\n");
  }
}

main().catch((e) => {
  process.stderr.write(String((e && e.stack) || e) + "\n");
  process.exit(1);
});
