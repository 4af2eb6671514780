// @ts-check
// Signed device messages of journal-dice-v2 in the browser (docs/design.md §3.2;
// the Go reference is the signed package): encode a message object into the
// string a device signs, parse a recorded string as strictly as Go's
// signed.Parse, verify an Ed25519 signature against a registered public key,
// and compute a key's fingerprint.
//
//   signed    = a JSON object as a string: "type", "campaign", "session",
//               "seen" (optional: {"seq":N,"hash":"<64 hex>"}, the campaign's
//               latest event the device had received, signed.Seen), then the
//               type's own members (the order Go's signed.Encode writes)
//   signature = unpadded base64url (RFC 4648 §5) of Ed25519 over the
//               string's UTF-8 bytes: exactly 86 characters, zero trailing bits
//   fingerprint = first 16 bytes of SHA-256(the 32 key bytes) as 32
//               lower-case hex digits in 8 groups of 4 joined by ":"
//
// Verification uses Web Crypto's Ed25519 where the page has it (a secure
// context), and elsewhere, only if vendor/noble-curves.js is loaded, Go's
// cofactorless equation on noble's curve arithmetic: verifying needs no
// secret, so a JavaScript fallback is safe. Signing is keys.js's, and has no fallback.
// Every refusal is a JournalSigned.SignedError whose code names the Go
// sentinel (too-large, bad-key, bad-signature, malformed, unknown-type,
// wrong-scope) or "unsupported" (no Ed25519 verifier in this page).
//
// Needs dice.js (JournalDice: SHA-256, hex) loaded before it is called.
(function (global) {
  "use strict";

  const MAX_SIZE = 8 << 10; // signed.MaxSize, bytes
  const MAX_REASON = 500; // signed.MaxReasonLen, bytes
  const MAX_ID = 64; // events.MaxIDLen
  const SIGNATURE_LEN = 86; // unpadded base64url of 64 bytes
  const encoder = new TextEncoder();
  let forceFallback = false;

  class SignedError extends Error {
    constructor(code, message) {
      super(message);
      this.name = "SignedError";
      this.code = code;
    }
  }
  const err = (code, msg) => new SignedError(code, msg);

  function D() {
    const d = global.JournalDice;
    if (!d || !d.sha256) throw new Error("signed.js needs dice.js (JournalDice) loaded first");
    return d;
  }

  // The members of each type after the header, in Go's order, with their kind:
  // "hex" (64 lower-case hex, not all zero), "hex?" (optional hex), "uuid"
  // (canonical lower-case), "uint?" (optional whole number), "index?" (an
  // optional witness index, 1 to 1023), "object"
  // (any JSON object, kept as given), "reason" (non-empty text ≤ 500 bytes).
  const FIELDS = {
    "session.contribute": [["value", "hex"], ["commitment", "hex?"], ["witness_anchor", "hex?"]],
    "roll.request": [["request", "uuid"], ["commitment", "hex?"], ["beacon_round", "uint?"], ["wait", "uint?"], ["action", "object"]],
    "roll.reveal": [["request", "uuid"], ["r", "hex"]],
    "roll.witness": [["request", "uuid"], ["index", "index?"], ["value", "hex"]],
    "session.cosign": [["ended", "hex"]],
    "void.consent": [["event", "uuid"], ["reason", "reason"]],
    // A user's devices (signed/device.go): campaign-scoped, session "".
    "device.register": [["user", "id"], ["role", "role"], ["name", "name"], ["public_key", "key"]],
    "device.approve": [["user", "id"], ["public_key", "key"]],
    "device.revoke": [["user", "id"], ["public_key", "key"], ["reason", "reason?"]],
    "beacon.receipt": [["request", "uuid"]],
  };
  // CAMPAIGN_SCOPED are the types that name no session (session "").
  const CAMPAIGN_SCOPED = new Set(["device.register", "device.approve", "device.revoke"]);
  const MAX_DEVICE_NAME = 100;
  const TYPES = Object.keys(FIELDS);
  const ZERO = "0".repeat(64);
  const HEX = /^[0-9a-f]{64}$/;
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
  const SLUG = /^[a-z0-9_-]+$/;

  function utf8Len(s) {
    return encoder.encode(s).length;
  }

  function checkID(name, v) {
    if (typeof v !== "string" || v === "") throw err("malformed", "field " + name + " is missing");
    if (v.length > MAX_ID) throw err("malformed", "field " + name + ": " + JSON.stringify(v) + " is longer than " + MAX_ID + " characters");
    if (!SLUG.test(v)) throw err("malformed", "field " + name + ": " + JSON.stringify(v) + " (use a-z, 0-9, '-' and '_')");
  }

  // checkField checks one member's value; it returns the value to keep
  // (undefined for an optional member that is absent).
  function checkField(name, kind, v) {
    const absent = v === undefined || v === null;
    switch (kind) {
      case "hex":
      case "hex?":
        if (absent) {
          if (kind === "hex?") return undefined;
          throw err("malformed", "field " + name + " is missing (or all zero)");
        }
        if (typeof v !== "string" || !HEX.test(v)) throw err("malformed", "field " + name + ": not 64 lower-case hex digits");
        if (v === ZERO) {
          if (kind === "hex?") return undefined;
          throw err("malformed", "field " + name + " is missing (or all zero)");
        }
        return v;
      case "uuid":
        if (absent || v === "") throw err("malformed", "field " + name + " is missing");
        if (typeof v !== "string" || !UUID.test(v)) throw err("malformed", "field " + name + ": " + JSON.stringify(v) + " is not a lower-case UUID");
        return v;
      case "uint?":
        if (v instanceof RawNumber) {
          // As Go reads a uint64: digits only, at most 2^64 - 1.
          if (!/^(0|[1-9][0-9]*)$/.test(v.text)) throw err("malformed", "field " + name + ": want a non-negative whole number");
          const n = BigInt(v.text);
          if (n >= 1n << 64n) throw err("malformed", "field " + name + ": " + v.text + " is out of range");
          if (n === 0n) return undefined;
          return n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;
        }
        if (absent || v === 0) return undefined;
        if (!Number.isSafeInteger(v) || v < 0) throw err("malformed", "field " + name + ": want a non-negative whole number");
        return v;
      case "index?": {
        // A witness index (Go's int, 0 omitted): 1 to 1023.
        let n = v;
        if (v instanceof RawNumber) {
          if (!/^-?(0|[1-9][0-9]*)$/.test(v.text)) throw err("malformed", "field " + name + ": want a whole number");
          n = Number(v.text);
        }
        if (absent || n === 0) return undefined;
        if (!Number.isSafeInteger(n)) throw err("malformed", "field " + name + ": want a whole number");
        if (n < 0 || n > 1023) throw err("malformed", "field " + name + ": " + n + ", want 1 to 1023");
        return n;
      }
      case "object":
        if (v === null || typeof v !== "object" || Array.isArray(v) || v instanceof RawNumber) throw err("malformed", "field " + name + " must be a JSON object");
        return v;
      case "id":
        checkID(name, v);
        return v;
      case "role":
        if (v !== "player" && v !== "gm") throw err("malformed", "field " + name + ": " + JSON.stringify(v) + ", want player or gm");
        return v;
      case "name":
        if (absent) return "";
        if (typeof v !== "string") throw err("malformed", "field " + name + ": wrong type");
        if (utf8Len(v) > MAX_DEVICE_NAME || /[\n\r\t]/.test(v)) throw err("malformed", "field " + name + ": at most " + MAX_DEVICE_NAME + " bytes on one line");
        return v;
      case "key":
        if (typeof v !== "string" || !HEX.test(v)) throw err("malformed", "field " + name + ": not lower-case hex");
        publicKeyBytes(v); // refuses a point of small order
        return v;
      case "reason?":
        if (absent) return "";
        if (typeof v !== "string") throw err("malformed", "field " + name + ": wrong type");
        if (utf8Len(v) > MAX_REASON) throw err("malformed", "field " + name + ": " + utf8Len(v) + " bytes, at most " + MAX_REASON);
        return v;
      case "reason":
        if (typeof v !== "string" && !absent) throw err("malformed", "field " + name + ": wrong type");
        if (absent || v.trim() === "") throw err("malformed", "field " + name + " is missing");
        if (utf8Len(v) > MAX_REASON) throw err("malformed", "field " + name + ": " + utf8Len(v) + " bytes, at most " + MAX_REASON);
        return v;
    }
    throw new Error("unknown field kind " + kind);
  }

  // checkMessage checks a message object as Go's Parse does and returns its
  // members in order, as [name, value] pairs.
  // checkSeen checks a message's receipt (signed.Seen) and returns it as
  // {seq, hash} in Go's member order, or undefined when absent.
  function checkSeen(v) {
    if (v === undefined || v === null) return undefined;
    if (typeof v !== "object" || Array.isArray(v) || v instanceof RawNumber) throw err("malformed", "field seen: wrong type");
    for (const k of Object.keys(v)) if (k !== "seq" && k !== "hash") throw err("malformed", "unknown field " + JSON.stringify("seen." + k));
    const seq = v.seq instanceof RawNumber ? Number(v.seq.text) : v.seq;
    if (seq === undefined || seq === null || seq === 0) throw err("malformed", "field seen.seq: want a stream sequence of at least 1");
    if (!Number.isSafeInteger(seq) || seq < 0) throw err("malformed", "field seen.seq: want a non-negative whole number");
    const hash = checkField("seen.hash", "hex", v.hash);
    return { seq: seq, hash: hash };
  }

  function checkMessage(m, typeHint) {
    if (m === null || typeof m !== "object" || Array.isArray(m)) throw err("malformed", "not a JSON object");
    if (typeHint !== undefined && m.type !== undefined && m.type !== null && m.type !== typeHint) {
      throw err("malformed", "field type is " + JSON.stringify(m.type) + " on a " + typeHint + " message");
    }
    const type = m.type === undefined || m.type === null ? typeHint : m.type;
    if (type === undefined || type === "") throw err("malformed", "field type is missing");
    if (typeof type !== "string") throw err("malformed", "field type: wrong type");
    const fields = FIELDS[type];
    if (!fields) throw err("unknown-type", JSON.stringify(type));
    const known = new Set(["type", "campaign", "session", "seen"].concat(fields.map((f) => f[0])));
    for (const k of Object.keys(m)) if (!known.has(k)) throw err("malformed", "unknown field " + JSON.stringify(k));
    checkID("campaign", m.campaign);
    if (CAMPAIGN_SCOPED.has(type)) {
      if (m.session !== "" && m.session !== undefined) throw err("malformed", "field session: a " + type + " names no session");
      m = Object.assign({}, m, { session: "" });
    } else checkID("session", m.session);
    const out = [["type", type], ["campaign", m.campaign], ["session", m.session]];
    const seen = checkSeen(m.seen);
    if (seen !== undefined) out.push(["seen", seen]);
    for (const [name, kind] of fields) {
      const v = checkField(name, kind, m[name]);
      if (v !== undefined) out.push([name, v]);
    }
    if (type === "roll.request" && m.beacon_round && checkField("commitment", "hex?", m.commitment) !== undefined) {
      throw err("malformed", "field beacon_round: a beacon roll takes no commitment");
    }
    if (type === "roll.request" && m.wait && checkField("commitment", "hex?", m.commitment) !== undefined) {
      throw err("malformed", "field wait: a wait for witnesses is for a GM's request, which takes no commitment");
    }
    return out;
  }

  // checkJSON refuses what JSON.stringify would silently change or drop.
  function checkJSON(path, v) {
    if (v === null || typeof v === "boolean") return;
    if (typeof v === "number") {
      if (!Number.isFinite(v)) throw err("malformed", "field " + path + ": not a finite number");
      return;
    }
    if (typeof v === "string") {
      if (typeof v.isWellFormed === "function" ? !v.isWellFormed() : /[\ud800-\udfff]/.test(v.replace(/[\ud800-\udbff][\udc00-\udfff]/g, ""))) {
        throw err("malformed", "field " + path + ": not valid Unicode (a lone surrogate)");
      }
      return;
    }
    if (Array.isArray(v)) {
      v.forEach((x, i) => checkJSON(path + "." + i, x));
      return;
    }
    if (typeof v === "object" && (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null)) {
      for (const k of Object.keys(v)) {
        checkJSON(path + "." + k, k);
        checkJSON(path + "." + k, v[k]);
      }
      return;
    }
    throw err("malformed", "field " + path + ": " + typeof v + " is not JSON");
  }

  // encode writes a message object as the string its device signs: members
  // in Go's signed.Encode order ("type", "campaign", "session", then the
  // type's own), no whitespace, the action object's members in the order
  // given. type may be passed separately (encode({campaign, …}, "roll.reveal")).
  // A message that Go's Parse would refuse is refused here.
  /**
   * @param {Record<string, any>} m the message (its members; type too, unless given apart)
   * @param {string} [type] the message type, when m has none
   * @returns {string} the signed string
   */
  function encode(m, type) {
    const pairs = checkMessage(m, type);
    for (const [k, v] of pairs) checkJSON(k, v);
    const s = "{" + pairs.map(([k, v]) => JSON.stringify(k) + ":" + JSON.stringify(v)).join(",") + "}";
    parse(s); // what is signed is what the journal parses
    return s;
  }

  // RawNumber is a number member of the top-level object as written, so
  // that beacon_round is read as Go reads a uint64 (all 64 bits).
  class RawNumber {
    constructor(text) {
      this.text = text;
    }
  }

  // --- a strict JSON reader (RFC 8259): one value, no duplicate names ---
  // Numbers that are members of the top-level object come back as RawNumber.
  function readJSON(text) {
    let i = 0;
    const fail = (what) => {
      throw err("malformed", what + " at byte offset " + utf8Len(text.slice(0, i)));
    };
    const ws = () => {
      while (i < text.length && (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r")) i++;
    };
    const number = /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;
    const value = (depth) => {
      ws();
      const c = text[i];
      if (c === "{") {
        i++;
        const obj = Object.create(null);
        ws();
        if (text[i] === "}") {
          i++;
          return obj;
        }
        for (;;) {
          ws();
          if (text[i] !== '"') fail("invalid character, want a member name");
          const k = string();
          if (Object.prototype.hasOwnProperty.call(obj, k)) fail("duplicate member name " + JSON.stringify(k));
          ws();
          if (text[i] !== ":") fail("invalid character, want ':'");
          i++;
          obj[k] = value(depth + 1);
          ws();
          if (text[i] === ",") {
            i++;
            continue;
          }
          if (text[i] === "}") {
            i++;
            return obj;
          }
          fail("invalid character, want ',' or '}'");
        }
      }
      if (c === "[") {
        i++;
        const arr = [];
        ws();
        if (text[i] === "]") {
          i++;
          return arr;
        }
        for (;;) {
          arr.push(value(depth + 1));
          ws();
          if (text[i] === ",") {
            i++;
            continue;
          }
          if (text[i] === "]") {
            i++;
            return arr;
          }
          fail("invalid character, want ',' or ']'");
        }
      }
      if (c === '"') return string();
      for (const [lit, v] of /** @type {[string, boolean | null][]} */ ([["true", true], ["false", false], ["null", null]])) {
        if (text.startsWith(lit, i)) {
          i += lit.length;
          return v;
        }
      }
      number.lastIndex = i;
      const m = number.exec(text);
      if (m) {
        i += m[0].length;
        return depth === 1 ? new RawNumber(m[0]) : Number(m[0]);
      }
      fail(i >= text.length ? "unexpected end of input" : "invalid character " + JSON.stringify(c));
    };
    const string = () => {
      const start = i;
      i++;
      for (;;) {
        if (i >= text.length) fail("unexpected end of input in a string");
        const c = text.charCodeAt(i);
        if (c === 0x22) break;
        if (c < 0x20) fail("invalid control character in a string");
        if (c === 0x5c) {
          const e = text[i + 1];
          if (e === "u") {
            if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail("invalid escape sequence");
            i += 6;
          } else if ('"\\/bfnrt'.includes(e) && e !== undefined) {
            i += 2;
          } else fail("invalid escape sequence");
          continue;
        }
        i++;
      }
      i++;
      const s = JSON.parse(text.slice(start, i));
      if (typeof s.isWellFormed === "function" && !s.isWellFormed()) fail("invalid UTF-8 (a lone surrogate)");
      return s;
    };
    const v = value(0);
    ws();
    if (i !== text.length) fail("invalid character after the top-level value");
    return v;
  }

  function checkSize(signed) {
    if (typeof signed !== "string") throw err("malformed", "the signed message is not a string");
    const n = utf8Len(signed);
    if (n > MAX_SIZE) throw err("too-large", n + " bytes, at most " + MAX_SIZE);
    if (typeof signed.isWellFormed === "function" && !signed.isWellFormed()) throw err("malformed", "not valid UTF-8");
  }

  // parse reads a signed string into its message object (members as Go's
  // Parse checks them: one JSON object, no duplicate names at any depth, no
  // unknown members, a known type, every field in its one spelling). It does
  // not check the signature nor the scope: see open.
  /**
   * @param {string} signed
   * @returns {Record<string, any>} the message, its members in their one spelling
   */
  function parse(signed) {
    checkSize(signed);
    if (!/^[ \t\n\r]*\{/.test(signed)) throw err("malformed", "not a JSON object");
    const obj = readJSON(signed);
    if (obj.type !== undefined && obj.type !== null && typeof obj.type !== "string") throw err("malformed", "field type: wrong type");
    const out = {};
    for (const [k, v] of checkMessage(obj)) out[k] = v;
    return out;
  }

  // --- keys and signatures ---
  // Encodings (sign bit cleared) of the points of small order of
  // edwards25519, as signed.smallOrder: such a key verifies forgeries.
  const SMALL_ORDER = [
    "0000000000000000000000000000000000000000000000000000000000000000",
    "0100000000000000000000000000000000000000000000000000000000000000",
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
  ];

  // publicKeyBytes decodes a public key from its recorded form (64
  // lower-case hex digits), refusing keys of small order (signed.ParsePublicKey).
  /**
   * @param {string} pubHex 64 lower-case hex digits
   * @returns {Uint8Array<ArrayBuffer>}
   */
  function publicKeyBytes(pubHex) {
    if (typeof pubHex !== "string" || !HEX.test(pubHex)) throw err("bad-key", "invalid public key: want 64 lower-case hex digits");
    const cleared = pubHex.slice(0, 62) + (parseInt(pubHex.slice(62), 16) & 0x7f).toString(16).padStart(2, "0");
    if (SMALL_ORDER.includes(cleared)) throw err("bad-key", "invalid public key: a point of small order");
    return D().hexToBytes(pubHex);
  }

  const B64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

  // base64url encodes bytes without padding (RFC 4648 §5).
  /**
   * @param {Uint8Array} bytes
   * @returns {string} unpadded base64url
   */
  function base64url(bytes) {
    let s = "";
    let i = 0;
    for (; i + 2 < bytes.length; i += 3) {
      const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
      s += B64URL[n >> 18] + B64URL[(n >> 12) & 63] + B64URL[(n >> 6) & 63] + B64URL[n & 63];
    }
    if (bytes.length - i === 1) {
      const n = bytes[i] << 16;
      s += B64URL[n >> 18] + B64URL[(n >> 12) & 63];
    } else if (bytes.length - i === 2) {
      const n = (bytes[i] << 16) | (bytes[i + 1] << 8);
      s += B64URL[n >> 18] + B64URL[(n >> 12) & 63] + B64URL[(n >> 6) & 63];
    }
    return s;
  }

  // signatureBytes decodes a signature's one spelling: 86 characters of
  // unpadded base64url whose last character carries no stray bits.
  function signatureBytes(sig) {
    if (typeof sig !== "string" || sig.length !== SIGNATURE_LEN) {
      throw err("bad-signature", "bad signature: " + (typeof sig === "string" ? sig.length : 0) + " characters, want " + SIGNATURE_LEN + " of unpadded base64url");
    }
    const out = new Uint8Array(64);
    let acc = 0;
    let bits = 0;
    let o = 0;
    for (let i = 0; i < sig.length; i++) {
      const v = B64URL.indexOf(sig[i]);
      if (v < 0) throw err("bad-signature", "bad signature: not canonical unpadded base64url of 64 bytes");
      acc = (acc << 6) | v;
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        out[o++] = (acc >> bits) & 0xff;
      }
      acc &= (1 << bits) - 1;
    }
    if (acc !== 0) throw err("bad-signature", "bad signature: not canonical unpadded base64url of 64 bytes");
    return out;
  }

  // The order L of edwards25519's prime subgroup: a signature's S must be
  // below it (RFC 8032 §5.1.7; Go refuses S ≥ L).
  const L = (1n << 252n) + 27742317777372353535851937790883648493n;
  function scalarCanonical(sig) {
    let s = 0n;
    for (let i = 63; i >= 32; i--) s = (s << 8n) | BigInt(sig[i]);
    return s < L;
  }

  function leNumber(bytes) {
    let n = 0n;
    for (let i = bytes.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(bytes[i]);
    return n;
  }

  // verifyNoble is Go's crypto/ed25519 verification, with noble's curve
  // arithmetic: cofactorless, R' = [S]B − [k]A with k = SHA-512(R || A || M)
  // mod L, and R' must encode to the signature's R bytes exactly. (noble's
  // own ed25519.verify checks the cofactored equation, which accepts
  // signatures under mixed-order keys that Go and Web Crypto refuse.)
  function verifyNoble(pub, msg, sig) {
    const N = global.JournalNoble;
    const Point = N.ed25519.Point;
    let A;
    try {
      A = Point.fromBytes(pub, true); // Go decodes non-canonical y too
    } catch (e) {
      return false;
    }
    const S = leNumber(sig.subarray(32));
    if (S >= L) return false;
    const h = new Uint8Array(64 + msg.length);
    h.set(sig.subarray(0, 32));
    h.set(pub, 32);
    h.set(msg, 64);
    const k = leNumber(N.sha512(h)) % L;
    const R = Point.BASE.multiplyUnsafe(S).subtract(A.multiplyUnsafe(k)).toBytes();
    let diff = 0;
    for (let i = 0; i < 32; i++) diff |= R[i] ^ sig[i];
    return diff === 0;
  }

  let webEd25519; // a promise: does this page's Web Crypto do Ed25519?
  function webCryptoEd25519() {
    if (forceFallback) return Promise.resolve(false);
    if (!webEd25519) {
      const s = global.crypto && global.crypto.subtle;
      webEd25519 = !s
        ? Promise.resolve(false)
        : s.importKey("raw", D().hexToBytes("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"), { name: "Ed25519" }, false, ["verify"]).then(
            () => true,
            () => false,
          );
    }
    return webEd25519;
  }

  // verify checks that signature is pubHex's Ed25519 signature of the
  // signed string (signed.Verify). It resolves to true or rejects with a
  // SignedError (never resolves to false).
  /**
   * @param {string} pubHex
   * @param {string} signed
   * @param {string} signature unpadded base64url
   * @returns {Promise<true>}
   */
  async function verify(pubHex, signed, signature) {
    checkSize(signed);
    const pub = publicKeyBytes(pubHex);
    const sig = signatureBytes(signature);
    const bytes = encoder.encode(signed);
    let ok;
    if (!scalarCanonical(sig)) {
      ok = false;
    } else if (await webCryptoEd25519()) {
      const s = global.crypto.subtle;
      const key = await s.importKey("raw", pub, { name: "Ed25519" }, false, ["verify"]);
      ok = await s.verify({ name: "Ed25519" }, key, sig, bytes);
    } else if (global.JournalNoble && global.JournalNoble.ed25519 && global.JournalNoble.sha512) {
      ok = verifyNoble(pub, bytes, sig);
    } else {
      throw err("unsupported", "this page cannot verify Ed25519 signatures: Web Crypto Ed25519 is missing (open the page over https or on localhost) and vendor/noble-curves.js is not loaded");
    }
    if (!ok) throw err("bad-signature", "bad signature: does not verify under key " + (await fingerprint(pubHex)));
    return true;
  }

  // open verifies and parses a device's message sent to campaign and
  // session (signed.Open): the size, the signature under pubHex, the shape,
  // then the scope. It resolves to the parsed message object.
  /**
   * @param {string} pubHex
   * @param {string} signed
   * @param {string} signature
   * @param {string} campaign
   * @param {string} session
   * @returns {Promise<Record<string, any>>}
   */
  async function open(pubHex, signed, signature, campaign, session) {
    await verify(pubHex, signed, signature);
    const m = parse(signed);
    if (m.campaign !== campaign) throw err("wrong-scope", "campaign is " + JSON.stringify(m.campaign) + ", sent to " + JSON.stringify(campaign));
    if (m.session !== session) throw err("wrong-scope", "session is " + JSON.stringify(m.session) + ", sent to " + JSON.stringify(session));
    return m;
  }

  // openAny opens a message under the first of pubs (a user's active
  // devices, newest first; or one key) under which its signature holds,
  // as Go's openUnder: it resolves to {message, pub}; the error is the
  // first key's, or the message's own once a signature held.
  /**
   * @param {string | string[] | null | undefined} pubs
   * @param {string} signed
   * @param {string} signature
   * @param {string} campaign
   * @param {string} session
   * @returns {Promise<{message: Record<string, any>, pub: string}>}
   */
  async function openAny(pubs, signed, signature, campaign, session) {
    const list = Array.isArray(pubs) ? pubs : pubs ? [pubs] : [];
    if (!list.length) throw err("bad-key", "no active device");
    let first = null;
    for (const pub of list) {
      try {
        return { message: await open(pub, signed, signature, campaign, session), pub: pub };
      } catch (e) {
        if (e.code === "unsupported") throw e;
        if (e.code !== "bad-signature" && e.code !== "bad-key") throw e;
        if (!first) first = e;
      }
    }
    throw first;
  }

  // EVENT_NAMES maps a signed member to the event data field that records
  // it where the names differ (docs/design.md §3.2: roll-made records r as "reveal").
  const EVENT_NAMES = { r: "reveal" };

  function sameJSON(a, b) {
    if (typeof a === "bigint" || typeof b === "bigint") return String(a) === String(b);
    if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return a === b;
    if (Array.isArray(a) !== Array.isArray(b)) return false;
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && sameJSON(a[k], b[k]));
  }

  // verifyEvent checks an event made from a device's message, as a verifier
  // does (docs/design.md §3.2): the signature of data.signed against the key
  // registered for data.user (keys: {user: public key hex} or a Map), the
  // message's shape, its scope against the envelope's campaign and session,
  // then that every member of the message that the event's data also
  // records (same name, or "reveal" for r) is equal there. It resolves to
  // {status: "verified" | "mismatch", reason, message?, fingerprint?}; it
  // never rejects on bad input, only where no verifier exists ("unsupported").
  /**
   * @param {Record<string, any>} event a recorded event
   * @param {string | Map<string, string | string[]> | Record<string, string | string[]>} keys the key, or each user's keys
   * @returns {Promise<{status: "verified" | "mismatch", reason: string, code?: string, message?: Record<string, any>, fingerprint?: string}>}
   */
  async function verifyEvent(event, keys) {
    const data = (event && event.data) || {};
    const user = data.user;
    const pub = typeof keys === "string" ? keys : keys instanceof Map ? keys.get(user) : keys && Object.prototype.hasOwnProperty.call(keys, user) ? keys[user] : undefined;
    if (typeof user !== "string" || user === "") return { status: "mismatch", reason: "the event names no user (data.user)" };
    if (!pub || (Array.isArray(pub) && !pub.length)) return { status: "mismatch", reason: "no key is registered for user " + user };
    let m, used;
    try {
      const o = await openAny(pub, data.signed, data.signature, event.campaign, event.session);
      m = o.message;
      used = o.pub;
    } catch (e) {
      if (e.code === "unsupported") throw e;
      return { status: "mismatch", reason: e.message, code: e.code };
    }
    const fp = await fingerprint(used);
    for (const [k, v] of Object.entries(m)) {
      if (k === "type" || k === "campaign" || k === "session" || k === "seen") continue;
      const field = Object.prototype.hasOwnProperty.call(EVENT_NAMES, k) ? EVENT_NAMES[k] : k;
      if (Object.prototype.hasOwnProperty.call(data, field) && !sameJSON(data[field], v)) {
        return { status: "mismatch", reason: "the event's " + field + " is " + JSON.stringify(data[field]) + ", the signed message says " + JSON.stringify(typeof v === "bigint" ? String(v) : v), message: m, fingerprint: fp };
      }
    }
    return { status: "verified", reason: m.type + " signed by " + user + " (key " + fp + "); the event's fields equal the message's", message: m, fingerprint: fp };
  }

  // fingerprint returns a public key's fingerprint (signed.Fingerprint):
  // the first 16 bytes of SHA-256(key) in 8 groups of 4 hex digits.
  /**
   * @param {string} pubHex
   * @returns {Promise<string>} eight groups of four hex digits, colon-separated
   */
  async function fingerprint(pubHex) {
    if (typeof pubHex !== "string" || !HEX.test(pubHex)) throw err("bad-key", "invalid public key: want 64 lower-case hex digits");
    const h = D().bytesToHex((await D().sha256(D().hexToBytes(pubHex))).slice(0, 16));
    return h.match(/..../g).join(":");
  }

  global.JournalSigned = {
    MAX_SIZE: MAX_SIZE,
    TYPES: TYPES,
    SignedError: SignedError,
    encode: encode,
    parse: parse,
    verify: verify,
    open: open,
    openAny: openAny,
    verifyEvent: verifyEvent,
    fingerprint: fingerprint,
    publicKeyBytes: publicKeyBytes,
    base64url: base64url,
    signatureBytes: signatureBytes,
    // useFallback(true) skips Web Crypto's Ed25519 (for tests of the
    // noble fallback); webCrypto() resolves to whether it is used.
    useFallback: function (on) {
      forceFallback = !!on;
    },
    webCrypto: webCryptoEd25519,
  };
})(typeof window !== "undefined" ? window : globalThis);
