#!/usr/bin/env node
// A journal-dice-v2 client of your own: a bot (or a player's command-line
// tool) that joins a campaign with an invite, rolls as its player over the
// HTTP API and verifies the record, using the journal's own browser code
// (web/static: dice.js, dice2.js, signed.js, keys.js, verify.js and the
// scripts it needs) under node, with no build step and no npm package.
//
//   node client.mjs join   --url URL --invite TOKEN --key bot.json
//   node client.mjs roll   --key bot.json --character ID [--skill S] [--attribute A]
//                          [--vs DIFFICULTY] [--modifier N] [--request UUID]
//   node client.mjs verify --key bot.json
//
// join   makes the bot's device key (Ed25519, node's Web Crypto), redeems
//        the GM's invite with it (POST /api/invites/{token}: the public key
//        and its device.register, signed by the key itself, the proof that
//        the bot holds it) and keeps the key and the device's bearer token
//        in the key file (mode 0600; guard it as a password: it is the
//        player's signature).
// roll   makes one v2 roll as that player in the open journal-dice-v2
//        session, as the table's page does (table.js requestReveal): the
//        signed roll.request with the commitment SHA-256(r), then the
//        signed roll.reveal of r (POST …/commands/roll-request and
//        …/commands/roll-reveal, each with an Idempotency-Key: a retry of
//        the same --request records once). r is derived from the key's own
//        signature over the request (dice2.js revealSecret), so the bot can
//        re-derive it if the host drops its reveal. It prints the roll's
//        lines and the verifier's verdict on the export so far.
// verify downloads the campaign's export (GET …/export) and runs the
//        offline verifier (verify.js) on it; exit 0 only when it holds
//        (ok, or flagged), 2 when it FAILED (mismatch, or a line that is
//        no journal event). A session's dice are
//        re-derived once the session has ended and its seed is revealed.
//
// --static DIR names the journal's web/static (default: ../../web/static
// from this file); --lang en|es the verifier's words. Node 20 or later.
// Exit status: 0 done, 1 refused or failed (the journal's message on
// stderr), 2 the export did not verify.
import { readFileSync, writeFileSync, existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";
import vm from "node:vm";

const here = path.dirname(fileURLToPath(import.meta.url));

function usage(msg) {
  if (msg) process.stderr.write("client.mjs: " + msg + "\n");
  process.stderr.write(
    "usage: node client.mjs join --url URL --invite TOKEN --key FILE\n" +
      "       node client.mjs roll --key FILE --character ID [--skill S] [--attribute A] [--vs D] [--modifier N] [--request UUID]\n" +
      "       node client.mjs verify --key FILE\n",
  );
  process.exit(1);
}

// args reads "--name value" pairs after the subcommand.
function args(argv) {
  const o = { cmd: argv[0] || "" };
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith("--") || i + 1 >= argv.length) usage("bad argument " + JSON.stringify(a));
    o[a.slice(2)] = argv[++i];
  }
  return o;
}

// journal loads the project's scripts, as a page loads them (the offline
// verifier's set, then keys.js), into this realm, so that the objects
// the client makes are plain objects to them (signed.js refuses another
// realm's), and returns their globals: JournalDice, JournalDiceV2,
// JournalSigned, JournalKeys, JournalVerify. The page's language is the
// verifier's words' (i18n.js reads documentElement.lang).
function journal(staticDir, lang) {
  if (!globalThis.document) globalThis.document = { documentElement: { lang: lang || "en" } };
  for (const s of ["i18n.js", "dice.js", "dice2.js", "signed.js", "keys.js", "vendor/noble-curves.js", "beacon.js", "verify.js"]) {
    vm.runInThisContext(readFileSync(path.join(staticDir, s), "utf8"), { filename: path.join(staticDir, s) });
  }
  return globalThis;
}

// http sends one request to the journal: JSON in and out, the device's
// bearer token when there is one, the Idempotency-Key when given. A
// refusal throws the journal's own message.
async function http(bot, method, p, body, key) {
  const headers = { Accept: "application/json", "Accept-Language": bot.lang || "en" };
  if (bot.token) headers.Authorization = "Bearer " + bot.token;
  if (key) headers["Idempotency-Key"] = key;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(new URL(p, bot.url), { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) {
    let msg = text;
    try {
      const e = JSON.parse(text).error;
      msg = (e && (e.message || e)) || text;
    } catch {
      // not JSON: the text as it came
    }
    throw new Error(method + " " + p + ": " + res.status + ": " + msg);
  }
  // JSON, or the export's JSON Lines (application/jsonl) as text.
  const type = (res.headers.get("content-type") || "").split(";")[0].trim();
  return type === "application/json" ? JSON.parse(text) : text;
}

const b64 = (bytes) => Buffer.from(bytes).toString("base64");

// deviceKey is the bot's key file's key as keys.js's DeviceKey.
async function deviceKey(J, bot) {
  const subtle = globalThis.crypto.subtle;
  const privateKey = await subtle.importKey("pkcs8", Buffer.from(bot.private_key_pkcs8, "base64"), { name: "Ed25519" }, false, ["sign"]);
  const publicKey = await subtle.importKey("raw", Buffer.from(bot.public_key, "hex"), { name: "Ed25519" }, true, ["verify"]);
  return J.JournalKeys.fromPair({ campaign: bot.campaign, user: bot.user }, { privateKey, publicKey }, bot.created);
}

function readBot(o) {
  if (!o.key) usage("--key FILE is needed");
  if (!existsSync(o.key)) usage("no key file " + o.key + ": run join first");
  const bot = JSON.parse(readFileSync(o.key, "utf8"));
  bot.lang = o.lang || "en";
  return bot;
}

const campaignPath = (bot, rest) => "/api/campaigns/" + encodeURIComponent(bot.campaign) + rest;

async function join(J, o) {
  if (!o.url || !o.invite || !o.key) usage("join needs --url, --invite and --key");
  if (existsSync(o.key)) throw new Error("key file " + o.key + " exists: this bot has joined already (a new device needs a new file)");
  const bot = { url: o.url, lang: o.lang || "en" };
  const peek = await http(bot, "GET", "/api/invites/" + encodeURIComponent(o.invite));
  if (peek.role === "viewer") throw new Error("this invite is a viewer's: a viewer has no key and cannot roll");
  // An extractable key: the bot keeps it in its own file (a browser's
  // stays non-extractable in IndexedDB; keys.js create).
  const pair = await globalThis.crypto.subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"]);
  const created = new Date().toISOString();
  const k = await J.JournalKeys.fromPair({ campaign: peek.campaign, user: peek.user }, pair, created);
  const reg = await k.register(peek.role, o.name || "bot");
  const got = await http(bot, "POST", "/api/invites/" + encodeURIComponent(o.invite), { public_key: k.publicKey, signed: reg.signed, signature: reg.signature });
  const file = {
    url: o.url,
    campaign: got.campaign,
    user: got.user,
    role: got.role || peek.role,
    characters: got.characters || peek.characters || [],
    device: got.device,
    token: got.token,
    public_key: k.publicKey,
    fingerprint: k.fingerprint,
    created,
    private_key_pkcs8: b64(new Uint8Array(await globalThis.crypto.subtle.exportKey("pkcs8", pair.privateKey))),
  };
  writeFileSync(o.key, JSON.stringify(file, null, 2) + "\n", { mode: 0o600, flag: "wx" });
  console.log(JSON.stringify({ joined: file.campaign, user: file.user, role: file.role, characters: file.characters, device: file.device, fingerprint: file.fingerprint }));
}

async function roll(J, o) {
  const bot = readBot(o);
  if (!o.character) usage("roll needs --character");
  const k = await deviceKey(J, bot);
  const D = J.JournalDice;
  const c = await http(bot, "GET", campaignPath(bot, ""));
  const s = (c.sessions || [])[(c.sessions || []).length - 1];
  if (!s || s.ended) throw new Error("campaign " + bot.campaign + " has no session in progress");
  if (s.algorithm !== J.JournalDiceV2.ALGORITHM) throw new Error("session " + s.id + " is " + s.algorithm + ", not journal-dice-v2: use the plain roll command");
  // The request's id is the intent's: the same --request signs the same
  // request (Ed25519 is deterministic, r derives from it) and records once.
  const request = o.request || globalThis.crypto.randomUUID();
  const r = await J.JournalDiceV2.revealSecret((text) => k.signString(text), bot.campaign, s.id, bot.user, request);
  const commitment = D.bytesToHex(await D.sha256(D.hexToBytes(r)));
  // The action as the rules spell it (player.js's roll), bound to the
  // session's seed commitment.
  const action = {
    seed_commitment: s.commitment,
    command: "roll",
    character: o.character,
    skill: o.skill || "",
    attribute: o.attribute || "",
    vs: o.vs || "",
    modifier: Number(o.modifier || 0),
    token: false,
    specialization: false,
  };
  const hdr = { campaign: bot.campaign, session: s.id };
  const ask = await k.sign(Object.assign({ type: "roll.request" }, hdr, { request, commitment, action }));
  const asked = await http(bot, "POST", campaignPath(bot, "/commands/roll-request"), { character: o.character, signed: ask.signed, signature: ask.signature }, request + ".ask");
  const rev = await k.sign(Object.assign({ type: "roll.reveal" }, hdr, { request, r }));
  const made = await http(bot, "POST", campaignPath(bot, "/commands/roll-reveal"), { character: o.character, signed: rev.signed, signature: rev.signature }, request + ".reveal");
  const lines = [].concat(asked.recorded || [], made.recorded || []).map((x) => x.text).filter(Boolean);
  const rolled = (made.recorded || []).map((x) => x.event).find((e) => e && e.type === "journal.roll.made.v1");
  console.log(JSON.stringify({ request, session: s.id, event: rolled ? rolled.id : "", repeated: !!made.repeated, lines }));
  for (const l of lines) console.log(l);
  return verify(J, o, bot);
}

async function verify(J, o, bot) {
  bot = bot || readBot(o);
  const text = await http(bot, "GET", campaignPath(bot, "/export"));
  const rep = await J.JournalVerify.verifyExport(text, {});
  const sum = rep.summary;
  console.log(JSON.stringify({ verdict: sum.verdict, words: sum.words, flags: (sum.flags || []).map((f) => f.code + " " + f.event), rolls: sum.rolls, open: sum.open }));
  if (sum.verdict === "mismatch" || sum.verdict === "foreign") process.exitCode = 2;
}

const o = args(process.argv.slice(2));
const J = journal(o.static || path.join(here, "..", "..", "web", "static"), o.lang);
const run = { join, roll, verify }[o.cmd];
if (!run) usage(o.cmd ? "unknown command " + JSON.stringify(o.cmd) : "");
run(J, o).catch((e) => {
  process.stderr.write("client.mjs: " + (e && e.message ? e.message : String(e)) + "\n");
  process.exit(1);
});
