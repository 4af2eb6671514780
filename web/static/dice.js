// @ts-check
// journal-dice-v1 in the browser (docs/design.md §3): re-derive a roll's dice
// from its session's revealed seed, without trusting the server.
//
//   block(k) = HMAC-SHA256(key = seed,
//              message = "journal-dice-v1|" + campaign + "|" + session + "|" +
//                        nonce + "|" + entropy + "|" + k)
//   stream   = block(0) || block(1) || ...
//   a die of N sides takes the next byte b; if b < 256 − (256 mod N) the
//   face is (b mod N) + 1, else b is discarded.
//
// HMAC and SHA-256 come from Web Crypto (crypto.subtle) where the page is a
// secure context (https, localhost, 127.0.0.1); elsewhere (a phone on the
// LAN over plain http) from the small implementation below, which the
// browser test checks against the same vectors.
(function (global) {
  "use strict";

  const ALGORITHM = "journal-dice-v1";
  const encoder = new TextEncoder();
  let forceFallback = false;

  /** @returns {SubtleCrypto | null} Web Crypto's, or null for the fallback */
  function subtle() {
    if (forceFallback) return null;
    return (global.crypto && global.crypto.subtle) || null;
  }

  /**
   * @param {string} hex
   * @returns {Uint8Array<ArrayBuffer>}
   */
  function hexToBytes(hex) {
    if (typeof hex !== "string" || hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) {
      throw new Error("not a hex string: " + hex);
    }
    const out = new Uint8Array(hex.length / 2);
    for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(2 * i, 2), 16);
    return out;
  }

  /**
   * @param {Uint8Array} bytes
   * @returns {string} lower-case hex
   */
  function bytesToHex(bytes) {
    let s = "";
    for (const b of bytes) s += b.toString(16).padStart(2, "0");
    return s;
  }

  // --- SHA-256 and HMAC without Web Crypto (FIPS 180-4, RFC 2104) ---
  const K = new Uint32Array([
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
  ]);

  function sha256Sync(msg) {
    const h = new Uint32Array([
      0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
    ]);
    const bitLen = msg.length * 8;
    const padded = new Uint8Array(((msg.length + 9 + 63) >> 6) << 6);
    padded.set(msg);
    padded[msg.length] = 0x80;
    const view = new DataView(padded.buffer);
    view.setUint32(padded.length - 8, Math.floor(bitLen / 0x100000000));
    view.setUint32(padded.length - 4, bitLen >>> 0);
    const w = new Uint32Array(64);
    const rotr = (x, n) => (x >>> n) | (x << (32 - n));
    for (let off = 0; off < padded.length; off += 64) {
      for (let i = 0; i < 16; i++) w[i] = view.getUint32(off + 4 * i);
      for (let i = 16; i < 64; i++) {
        const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
        const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
        w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
      }
      let [a, b, c, d, e, f, g, hh] = h;
      for (let i = 0; i < 64; i++) {
        const S1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
        const ch = (e & f) ^ (~e & g);
        const t1 = (hh + S1 + ch + K[i] + w[i]) >>> 0;
        const S0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
        const maj = (a & b) ^ (a & c) ^ (b & c);
        const t2 = (S0 + maj) >>> 0;
        hh = g; g = f; f = e; e = (d + t1) >>> 0;
        d = c; c = b; b = a; a = (t1 + t2) >>> 0;
      }
      h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
    }
    const out = new Uint8Array(32);
    const ov = new DataView(out.buffer);
    for (let i = 0; i < 8; i++) ov.setUint32(4 * i, h[i]);
    return out;
  }

  function hmacSync(key, msg) {
    let k = key.length > 64 ? sha256Sync(key) : key;
    const block = new Uint8Array(64);
    block.set(k);
    const inner = new Uint8Array(64 + msg.length);
    const outer = new Uint8Array(64 + 32);
    for (let i = 0; i < 64; i++) {
      inner[i] = block[i] ^ 0x36;
      outer[i] = block[i] ^ 0x5c;
    }
    inner.set(msg, 64);
    outer.set(sha256Sync(inner), 64);
    return sha256Sync(outer);
  }

  // --- Web Crypto, or the fallback ---
  /**
   * @param {Uint8Array<ArrayBuffer>} bytes
   * @returns {Promise<Uint8Array>}
   */
  async function sha256(bytes) {
    const s = subtle();
    if (s) return new Uint8Array(await s.digest("SHA-256", bytes));
    return sha256Sync(bytes);
  }

  /**
   * An HMAC-SHA256 key: Web Crypto's, or the raw bytes for the fallback.
   * @typedef {{web: CryptoKey, raw?: undefined} | {raw: Uint8Array<ArrayBuffer>, web?: undefined}} HMACKey
   */

  /**
   * @param {Uint8Array<ArrayBuffer>} seed
   * @returns {Promise<HMACKey>}
   */
  async function hmacKey(seed) {
    const s = subtle();
    if (!s) return { raw: seed };
    return { web: await s.importKey("raw", seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]) };
  }

  /**
   * @param {HMACKey} key
   * @param {Uint8Array<ArrayBuffer>} msg
   * @returns {Promise<Uint8Array>}
   */
  async function hmac(key, msg) {
    if (key.web) return new Uint8Array(await /** @type {SubtleCrypto} */ (subtle()).sign("HMAC", key.web, msg));
    return hmacSync(key.raw, msg);
  }

  // The commitment of a seed: hex(SHA-256(seed)).
  /**
   * @param {string} seedHex
   * @returns {Promise<string>} hex SHA-256 of the seed
   */
  async function commitment(seedHex) {
    return bytesToHex(await sha256(hexToBytes(seedHex)));
  }

  // The HMAC message of a roll without its block index.
  /**
   * @param {string} campaign
   * @param {string} session
   * @param {number} nonce
   * @param {string} [entropy]
   * @returns {string}
   */
  function message(campaign, session, nonce, entropy) {
    return ALGORITHM + "|" + campaign + "|" + session + "|" + String(nonce) + "|" + (entropy || "") + "|";
  }

  // Stream is the byte stream of one roll: block(k) = HMAC(key, prefix + k).
  // journal-dice-v2 (dice2.js) uses it with its own key and prefix.
  class Stream {
    /**
     * @param {HMACKey} key
     * @param {string} prefix
     */
    constructor(key, prefix) {
      this.key = key;
      this.prefix = prefix;
      /** @type {Uint8Array | null} the block being read (none before the first byte) */
      this.block = null;
      this.k = 0;
      this.pos = 32;
      this.draws = []; // every byte taken: {byte, sides, kept}
    }
    async blockAt(k) {
      return hmac(this.key, encoder.encode(this.prefix + String(k)));
    }
    async nextByte() {
      if (this.pos >= 32) {
        this.block = await this.blockAt(this.k);
        this.k++;
        this.pos = 0;
      }
      return /** @type {Uint8Array} */ (this.block)[this.pos++];
    }
    async die(sides) {
      if (!Number.isInteger(sides) || sides < 2 || sides > 256) throw new Error("a die has 2 to 256 sides, not " + sides);
      const limit = 256 - (256 % sides);
      for (;;) {
        const b = await this.nextByte();
        const kept = b < limit;
        this.draws.push({ byte: b, sides: sides, kept: kept });
        if (kept) return (b % sides) + 1;
      }
    }
  }

  // stream returns the byte stream of one roll of a session.
  async function stream(seedHex, campaign, session, nonce, entropy) {
    return new Stream(await hmacKey(hexToBytes(seedHex)), message(campaign, session, nonce, entropy));
  }

  // byteStream returns the stream keyed by keyBytes whose block k is
  // HMAC-SHA256(keyBytes, prefix + k), with v1's die rule (for dice2.js).
  async function byteStream(keyBytes, prefix) {
    return new Stream(await hmacKey(keyBytes), prefix);
  }

  // hmacSHA256 returns HMAC-SHA256(keyBytes, msgBytes) (Web Crypto, or the fallback).
  async function hmacSHA256(keyBytes, msgBytes) {
    return hmac(await hmacKey(keyBytes), msgBytes);
  }

  // block returns block(k) of a roll's stream, as hex.
  async function block(seedHex, campaign, session, nonce, entropy, k) {
    const s = await stream(seedHex, campaign, session, nonce, entropy);
    return bytesToHex(await s.blockAt(k));
  }

  // faces draws one die per entry of sides, in order.
  async function faces(seedHex, campaign, session, nonce, entropy, sides) {
    const s = await stream(seedHex, campaign, session, nonce, entropy);
    const out = [];
    for (const n of sides) out.push(await s.die(n));
    return out;
  }

  /**
   * A term of a dice expression: count dice of sides faces, or the number
   * count when sides is 0; neg when it is subtracted.
   * @typedef {{count: number, sides: number, neg: boolean}} DiceTerm
   */

  // parseExpr reads a free roll's dice expression as rules/dice.ParseExpr
  // does: NdM terms (N 1..100, omitted 1; M 2..256) and numbers K 0..1000
  // joined by + or -, the first optionally signed, spaces only around
  // signs, D read as d; at least one dice term, at most 10 terms, 100 dice
  // and numbers adding up to 1000. It returns {terms: [{count, sides,
  // neg}], text} (text: the one spelling the journal records) or throws.
  /**
   * @param {unknown} input
   * @returns {{terms: DiceTerm[], text: string}}
   */
  function parseExpr(input) {
    const raw = String(input === undefined || input === null ? "" : input);
    if (raw.length > 64) throw new Error("invalid dice expression: " + raw.length + " characters, at most 64");
    if (/[^\s+-]\s+[^\s+-]/.test(raw.trim())) throw new Error("invalid dice expression: a space inside a term");
    const s = raw.toLowerCase().replace(/ /g, "");
    if (s === "") throw new Error("invalid dice expression: empty");
    /** @type {DiceTerm[]} */
    const terms = [];
    let dice = 0;
    let consts = 0;
    const re = /([+-]?)([^+-]*)/y;
    let i = 0;
    while (i < s.length) {
      re.lastIndex = i;
      const m = re.exec(s);
      if (!m || (i > 0 && !m[1])) throw new Error("invalid dice expression: want + or - between terms");
      const body = m[2];
      if (body === "") throw new Error("invalid dice expression: a term is missing");
      const num = (t) => (/^[0-9]{1,4}$/.test(t) ? parseInt(t, 10) : NaN);
      const at = body.indexOf("d");
      /** @type {DiceTerm} */
      let t;
      if (at < 0) {
        const k = num(body);
        if (!(k >= 0 && k <= 1000)) throw new Error("invalid dice expression: " + JSON.stringify(body));
        t = { count: k, sides: 0, neg: false };
        consts += k;
      } else {
        const c = body.slice(0, at) === "" ? 1 : num(body.slice(0, at));
        const n = num(body.slice(at + 1));
        if (!(c >= 1 && c <= 100)) throw new Error("invalid dice expression: " + JSON.stringify(body) + ": want 1..100 dice");
        if (!(n >= 2 && n <= 256)) throw new Error("invalid dice expression: " + JSON.stringify(body) + ": a die has 2..256 sides");
        t = { count: c, sides: n, neg: false };
        dice += c;
      }
      t.neg = m[1] === "-";
      terms.push(t);
      if (terms.length > 10) throw new Error("invalid dice expression: more than 10 terms");
      i = re.lastIndex;
    }
    if (dice === 0) throw new Error("invalid dice expression: no dice");
    if (dice > 100) throw new Error("invalid dice expression: " + dice + " dice, at most 100");
    if (consts > 1000) throw new Error("invalid dice expression: numbers adding up to " + consts + ", at most 1000");
    const text = terms.map((t, k) => (t.neg ? "-" : k > 0 ? "+" : "") + t.count + (t.sides ? "d" + t.sides : "")).join("");
    return { terms: terms, text: text };
  }

  // freeSides are a free roll's dice, in order; its expression must be
  // written as the journal writes it (rolls.FreeExpr).
  function freeSides(text) {
    const x = parseExpr(text);
    if (x.text !== text) throw new Error("dice " + JSON.stringify(text) + " is not written as the journal writes it, " + JSON.stringify(x.text));
    const out = [];
    for (const t of x.terms) for (let k = 0; t.sides && k < t.count; k++) out.push(t.sides);
    return out;
  }

  // sidesOf returns the sides of every die a roll event's faces were drawn
  // as, in draw order (the journal's rolls.Dice): a damage roll's dice (e.g.
  // "2d6", "1d6-2") and their explosions all have the sides its "dice"
  // field names; the after-combat heal is a d6; a One Ring roll is a d12
  // then d6s; every other roll (1o3d10) is all d10.
  function sidesOf(data) {
    const n = (data.faces || []).length;
    const repeat = (s, c) => Array.from({ length: c }, () => s);
    switch (data.kind) {
      case "damage": {
        const text = String(data.dice || "").toLowerCase().replace(/\s+/g, "");
        const m = /^\d*d(\d+)(?:[+-]\d+)?$/.exec(text);
        if (!m) throw new Error("unreadable damage dice " + JSON.stringify(data.dice));
        return repeat(parseInt(m[1], 10), n);
      }
      case "heal":
        return repeat(6, n);
      case "free":
        return freeSides(data.dice);
      case "tor":
        return n === 0 ? [] : [12].concat(repeat(6, n - 1));
      default:
        return repeat(10, n);
    }
  }

  // verify checks one roll event against its session: the revealed seed
  // matches the commitment, and the faces re-derive from it. It resolves
  // to {status, ...} where status is "verified", "mismatch" or "sealed"
  // (the session has not ended: the seed is not revealed yet).
  async function verify(roll, session) {
    const data = roll.data || {};
    const recorded = data.faces || [];
    const base = { recorded: recorded, nonce: data.nonce, entropy: data.entropy || "", commitment: session && session.commitment };
    if (!session) return Object.assign(base, { status: "mismatch", reason: "the roll's session " + roll.session + " is unknown" });
    if (!session.seed) return Object.assign(base, { status: "sealed", reason: "not yet revealed: the seed is revealed when session " + session.id + " ends" });
    if (session.algorithm && session.algorithm !== ALGORITHM) {
      return Object.assign(base, { status: "mismatch", reason: "unknown algorithm " + session.algorithm });
    }
    const got = await commitment(session.seed);
    const commitmentOK = got === String(session.commitment).toLowerCase();
    const sides = sidesOf(data);
    const s = await stream(session.seed, roll.campaign, roll.session, data.nonce, data.entropy || "");
    const derived = [];
    for (const n of sides) derived.push(await s.die(n));
    const facesOK = derived.length === recorded.length && derived.every((f, i) => f === recorded[i]);
    const out = Object.assign(base, { sides: sides, derived: derived, draws: s.draws, commitmentOK: commitmentOK, facesOK: facesOK });
    if (!commitmentOK) return Object.assign(out, { status: "mismatch", reason: "SHA-256(seed) is " + got + ", not the commitment" });
    if (!facesOK) return Object.assign(out, { status: "mismatch", reason: "the seed gives faces " + derived.join(" ") + ", the record says " + recorded.join(" ") });
    return Object.assign(out, { status: "verified", reason: "SHA-256(seed) matches the commitment; faces " + derived.join(" ") + " re-derived" });
  }

  global.JournalDice = {
    ALGORITHM: ALGORITHM,
    hexToBytes: hexToBytes,
    bytesToHex: bytesToHex,
    commitment: commitment,
    message: message,
    block: block,
    faces: faces,
    sidesOf: sidesOf,
    parseExpr: parseExpr,
    verify: verify,
    // Building blocks for dice2.js, keys.js and signed.js: SHA-256 and
    // HMAC-SHA256 over Uint8Arrays (Web Crypto, or the fallback), and a
    // roll's byte stream with any key and message prefix.
    sha256: sha256,
    hmacSHA256: hmacSHA256,
    byteStream: byteStream,
    // useFallback(true) makes the module skip Web Crypto (for tests).
    useFallback: function (on) { forceFallback = !!on; },
    webCrypto: function () { return !!subtle(); },
  };
})(typeof window !== "undefined" ? window : globalThis);
