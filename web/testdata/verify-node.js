// Runs the browser's verifier (web/static/verify.js and the scripts the
// offline verifier loads before it) under node, with no browser, on
// export files, and prints one JSON report a line: the file and
// verify.js's summary (verdict, words, flags, mismatched events, foreign
// lines, sessions not ended). web's TestVerifierNodeAgreesWithReplay
// compares it with `journal replay --file`.
//
//   node web/testdata/verify-node.js --static web/static \
//     --scripts i18n.js,dice.js,dice2.js,signed.js,vendor/noble-curves.js,beacon.js,verify.js \
//     [--now 2026-12-08T00:00:00Z] [--lang en|es] FILE...
//
// The scripts run in a vm context of their own, as in a page: with Web
// Crypto (node's), TextEncoder and no DOM; a document whose only part is
// documentElement.lang chooses the words' language.
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
  if (!o.static || !o.scripts.length) throw new Error("usage: verify-node.js --static DIR --scripts A,B,... [--now T] [--lang L] FILE...");
  return o;
}

async function main() {
  const o = args(process.argv.slice(2));
  const ctx = {
    console: console,
    crypto: globalThis.crypto || require("crypto").webcrypto, // node 18 (Debian's) has no global one
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
  for (const f of o.files) {
    let out;
    try {
      const rep = await ctx.JournalVerify.verifyExport(fs.readFileSync(f, "utf8"), o.now ? { now: o.now } : {});
      out = Object.assign({ file: f }, rep.summary);
    } catch (e) {
      out = { file: f, error: String((e && e.stack) || e) };
    }
    process.stdout.write(JSON.stringify(out) + "\n");
  }
}

main().catch((e) => {
  process.stderr.write(String((e && e.stack) || e) + "\n");
  process.exit(1);
});
