// @ts-check
// Receipts in the browser (docs/design.md §3.3, "Receipts: every signed message
// says what its device saw"; the CLI's are Go's device/receipts.go and
// device/receipts_check.go, the same format and words):
//
//   - keys.js stamps every message it signs with seen {seq, hash}, the
//     campaign's latest event this page has received (seen(campaign),
//     from the head the page registers with setHead: its sequence and
//     SHA-256 of that event's stored bytes), and keeps the signed message
//     here before it is sent (keep).
//   - Kept in IndexedDB, database "journal-receipts", store "receipts",
//     one record a message, indexed by scope "<campaign>/<user>"; each
//     record's receipt is the CLI's line: {campaign, user, public_key,
//     signed, signature, time}. Never rewritten, never deleted here.
//   - check(kept, opts) is pure: given the kept receipts and what the
//     journal now holds at each sequence (opts.hashAt), it returns the
//     alarms, in words, with the sequence where the histories part.
//   - toJSONL(kept) is the CLI's receipts file, for `journal replay
//     --receipts DIR`.
//
// Needs dice.js (JournalDice: SHA-256, hex) and signed.js (JournalSigned).
(function (global) {
  "use strict";

  const DB = "journal-receipts";
  const STORE = "receipts";
  const VERSION = 1;

  const WORDS = {
    en: {
      history: "the journal's history differs from what this device signed at #{0}",
      cut: "the journal's history stops at #{0}, before #{1} which this device signed after seeing",
      key: "the journal holds a key for {0} that is not this device's",
      fileCut: "the file stops at #{0}, before #{1} which this device signed after seeing: the export is cut",
      message: "the record holds a {0} of {1} at #{2} that is not the one this device signed",
      warning: "WARNING: ",
      download: "Download receipts",
    },
    es: {
      history: "la historia del diario difiere de lo que firmó este dispositivo en #{0}",
      cut: "la historia del diario termina en #{0}, antes de #{1}, que este dispositivo firmó tras verlo",
      key: "el diario tiene una clave para {0} que no es la de este dispositivo",
      fileCut: "el archivo termina en #{0}, antes de #{1}, que este dispositivo firmó tras verlo: la exportación está cortada",
      message: "el registro tiene un {0} de {1} en #{2} que no es el que firmó este dispositivo",
      warning: "AVISO: ",
      download: "Descargar recibos",
    },
  };
  function words(lang, key, ...args) {
    const w = (WORDS[lang] || WORDS.en)[key] || WORDS.en[key];
    return w.replace(/\{(\d)\}/g, (_, i) => String(args[Number(i)]));
  }

  const scopeOf = (campaign, user) => campaign + "/" + user;

  function openDB() {
    return new Promise((resolve, reject) => {
      if (!global.indexedDB) {
        reject(new Error("this browser has no IndexedDB: it cannot keep what this device signs"));
        return;
      }
      const req = global.indexedDB.open(DB, VERSION);
      req.onupgradeneeded = () => {
        const st = req.result.createObjectStore(STORE, { autoIncrement: true });
        st.createIndex("scope", "scope");
      };
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(new Error("IndexedDB " + DB + ": " + (req.error && req.error.message)));
    });
  }

  // keep stores one receipt; it resolves once the transaction is durable
  // (before the message is sent).
  async function keep(r) {
    const db = await openDB();
    try {
      await new Promise(/** @param {(v?: unknown) => void} resolve */ (resolve, reject) => {
        const t = db.transaction(STORE, "readwrite", { durability: "strict" });
        t.objectStore(STORE).add({ scope: scopeOf(r.campaign, r.user), receipt: r });
        t.oncomplete = () => resolve();
        t.onerror = () => reject(new Error("IndexedDB " + DB + ": " + (t.error && t.error.message)));
        t.onabort = () => reject(new Error("IndexedDB " + DB + ": transaction aborted"));
      });
    } finally {
      db.close();
    }
  }

  // list resolves to the receipts kept for campaign and user, oldest first.
  async function list(campaign, user) {
    const db = await openDB();
    try {
      return await new Promise((resolve, reject) => {
        const t = db.transaction(STORE, "readonly");
        const req = t.objectStore(STORE).index("scope").getAll(scopeOf(campaign, user));
        req.onsuccess = () => resolve(req.result.map((x) => x.receipt));
        req.onerror = () => reject(new Error("IndexedDB " + DB + ": " + (req.error && req.error.message)));
      });
    } finally {
      db.close();
    }
  }

  let head = null; // async (campaign) → {seq, hash} | null
  function setHead(fn) {
    head = fn;
  }
  // seen resolves to the message's seen for campaign: the head the page
  // registered, or null (no head: the message carries none).
  async function seen(campaign) {
    if (!head) return null;
    try {
      const s = await head(campaign);
      return s && s.seq > 0 && /^[0-9a-f]{64}$/.test(s.hash) ? { seq: s.seq, hash: s.hash } : null;
    } catch (e) {
      return null;
    }
  }

  // storedHash is hex(SHA-256) of an event's stored bytes given in base64.
  /**
   * @param {string} b64 the stored bytes, standard base64
   * @returns {Promise<string>}
   */
  async function storedHash(b64) {
    const bin = global.atob(b64);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    const D = global.JournalDice;
    return D.bytesToHex(await D.sha256(bytes));
  }

  // check checks the journal's record against the kept receipts (Go's
  // device.CheckRecord and CheckKey): opts.hashAt(seq) resolves to the
  // hash of the stored bytes the journal holds at seq (null: none),
  // opts.last is the journal's last sequence, opts.user the device's user,
  // opts.own its public key and opts.registered the keys the journal holds
  // for that user. It resolves to the alarms: {kind, seq, last, user, text}
  // in opts.lang. Heads are checked where the device saw them (a campaign
  // moved into another folder, whose sequences differ, alarms here; the
  // CLI also finds such heads by their hash).
  async function check(kept, opts) {
    const lang = opts.lang || "en";
    const alarms = [];
    if (opts.own && opts.registered && opts.registered.length && !opts.registered.includes(opts.own)) {
      alarms.push({ kind: "foreign-key", user: opts.user, text: words(lang, "key", opts.user) });
    }
    const heads = new Map(); // seq → [hash]
    for (const k of kept || []) {
      let m;
      try {
        m = global.JournalSigned.parse(k.signed);
      } catch (e) {
        continue;
      }
      if (!m.seen) continue;
      if (!heads.has(m.seen.seq)) heads.set(m.seen.seq, new Set());
      heads.get(m.seen.seq).add(m.seen.hash);
    }
    const missing = [];
    for (const seq of [...heads.keys()].sort((a, b) => a - b)) {
      if (opts.last && seq > opts.last) {
        missing.push({ seq: seq, beyond: true });
        continue;
      }
      const got = await opts.hashAt(seq);
      for (const h of heads.get(seq)) {
        if (h !== got) {
          missing.push({ seq: seq, beyond: false });
          break;
        }
      }
    }
    if (missing.length) {
      const parts = missing.find((x) => !x.beyond);
      if (parts) alarms.push({ kind: "history-differs", seq: parts.seq, text: words(lang, "history", parts.seq) });
      else {
        const y = missing[missing.length - 1].seq;
        alarms.push({ kind: "cut", seq: y, last: opts.last, text: words(lang, "cut", opts.last, y) });
      }
    }
    return alarms;
  }

  // identity names what a message answers (Go's device identity): its
  // type, campaign, session, user and the request or event it names; a
  // message that names neither (a contribution, a co-signature) has none.
  function identity(user, signed) {
    let m;
    try {
      m = global.JournalSigned.parse(signed);
    } catch (e) {
      return null;
    }
    const what = m.type === "void.consent" ? m.event : m.request;
    if (!user || !what) return null;
    return [m.type, m.campaign, m.session, user, what].join("|");
  }

  /**
   * @param {string} line an export line (its stored bytes)
   * @returns {Promise<string>}
   */
  async function lineHash(line) {
    const D = global.JournalDice;
    return D.bytesToHex(await D.sha256(new TextEncoder().encode(line)));
  }

  // checkFile checks an export (records: [{event, line}], as verify.js
  // reads it) against kept receipts, campaign by campaign, as `journal
  // replay --file F --receipts DIR` does (Go's device.CheckRecord with
  // File): every kept head must be a line of its campaign (found by
  // hash), else the histories part at the lowest missing head, or the
  // file is cut when every missing head lies past what the file holds;
  // every message of the file that answers a kept message must be one
  // the device kept, verbatim. It resolves to the alarms.
  async function checkFile(kept, records, lang) {
    lang = lang || "en";
    const byCampaign = new Map();
    for (const k of kept || []) {
      if (!byCampaign.has(k.campaign)) byCampaign.set(k.campaign, []);
      byCampaign.get(k.campaign).push(k);
    }
    const alarms = [];
    for (const [campaign, ks] of byCampaign) {
      const hashes = new Map(); // hash → index among the campaign's records
      const recorded = new Map(); // identity → [signed]
      const users = new Map();
      let n = 0; // the campaign's records
      for (const r of records || []) {
        if (!r || !r.event || r.event.campaign !== campaign) continue;
        if (typeof r.line === "string") hashes.set(await lineHash(r.line), n);
        n++;
        const d = r.event.data || {};
        if (typeof d.signed !== "string" || d.signed === "") continue;
        const id = identity(d.user, d.signed);
        if (!id) continue;
        if (!recorded.has(id)) recorded.set(id, []);
        recorded.get(id).push(d.signed);
        users.set(id, d.user);
      }
      const signedAs = new Map();
      const kinds = new Map();
      let found = 0;
      let foundAt = -1;
      const missing = [];
      for (const k of ks) {
        let m;
        try {
          m = global.JournalSigned.parse(k.signed);
        } catch (e) {
          continue;
        }
        if (m.seen) {
          if (hashes.has(m.seen.hash)) {
            if (m.seen.seq >= found) {
              found = m.seen.seq;
              foundAt = hashes.get(m.seen.hash);
            }
          } else missing.push(m.seen.seq);
        }
        const id = identity(k.user, k.signed);
        if (id) {
          if (!signedAs.has(id)) signedAs.set(id, []);
          signedAs.get(id).push(k.signed);
          kinds.set(id, m.type);
        }
      }
      /** @type {{kind: string, seq: number, user: string, text: string}[]} */
      const differs = [];
      for (const [id, got] of recorded) {
        const mine = signedAs.get(id);
        if (mine && got.some((g) => !mine.includes(g))) differs.push({ kind: "message-differs", seq: 0, user: users.get(id), text: words(lang, "message", kinds.get(id), users.get(id), 0) });
      }
      const inFile = new Set(/** @type {string[]} */ ([]).concat(...recorded.values()));
      let past = 0;
      for (const k of ks) {
        if (!inFile.has(k.signed)) continue;
        try {
          const m = global.JournalSigned.parse(k.signed);
          if (m.seen) past = Math.max(past, m.seen.seq);
        } catch (e) {
          /* not a message */
        }
      }
      if (missing.length) {
        missing.sort((a, b) => a - b);
        const lowest = missing[0];
        const highest = missing[missing.length - 1];
        // Sequences grow by at least one per event of the campaign: a
        // file with lowest-found lines after the highest head found reaches lowest.
        const after = n - 1 - foundAt;
        if (lowest > found && lowest > past && after < lowest - found) {
          const at = Math.max(found, past);
          alarms.push({ kind: "cut", seq: highest, last: at, text: words(lang, "fileCut", at, highest) });
        } else alarms.push({ kind: "history-differs", seq: lowest, text: words(lang, "history", lowest) });
      }
      alarms.push(...differs);
    }
    return alarms;
  }

  // parseJSONL reads a receipts file (the CLI's format).
  /**
   * @param {string} text
   * @returns {any[]} the kept receipts
   */
  function parseJSONL(text) {
    return String(text).split("\n").map((l) => l.trim()).filter((l) => l !== "").map((l) => JSON.parse(l));
  }

  // toJSONL writes receipts as the CLI keeps them, one JSON object a line.
  /**
   * @param {any[]} kept
   * @returns {string}
   */
  function toJSONL(kept) {
    return (kept || []).map((r) => JSON.stringify({ campaign: r.campaign, user: r.user, public_key: r.public_key, signed: r.signed, signature: r.signature, time: r.time })).join("\n") + (kept && kept.length ? "\n" : "");
  }

  global.JournalReceipts = {
    DB: DB,
    WORDS: WORDS,
    words: words,
    keep: keep,
    list: list,
    setHead: setHead,
    seen: seen,
    storedHash: storedHash,
    check: check,
    checkFile: checkFile,
    parseJSONL: parseJSONL,
    toJSONL: toJSONL,
  };
})(typeof window !== "undefined" ? window : globalThis);
