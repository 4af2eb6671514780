// @ts-check
// A participant's device key in the browser, for journal-dice-v2
// (docs/design.md §3.2, "Participants and keys"): an Ed25519 key pair made by Web
// Crypto as NON-EXTRACTABLE, kept in IndexedDB (a structured clone of a
// CryptoKey stays non-extractable), loaded back on the next visit. The
// private key never leaves the browser: no code, not even this module's,
// can read its bytes; only sign with it. What leaves is the public key
// (raw, 64 lower-case hex digits: data.public_key of the registration
// event), its fingerprint (signed.Fingerprint) and signatures.
//
// One key per journal origin (IndexedDB is per origin), campaign and user:
// database "journal-keys", object store "keys", record id
// campaign + "/" + user. A lost or replaced device makes a new key
// (create with {replace: true}, or forget then create) and the GM registers
// it; the old public key stays in the journal's history.
//
// Where Web Crypto's Ed25519 or IndexedDB is missing (a page over plain http
// on the LAN is not a secure context, so it has no crypto.subtle) every call
// rejects with a JournalKeys.KeyError of code "unsupported" that says why:
// there is never a fallback to an extractable key or a JavaScript key.
//
// Needs dice.js and signed.js (JournalDice, JournalSigned) loaded first.
(function (global) {
  "use strict";

  const DB_NAME = "journal-keys";
  const STORE = "keys";
  const ALG = { name: "Ed25519" };
  const encoder = new TextEncoder();

  // KeyError codes: "unsupported" (no Web Crypto Ed25519 or no IndexedDB
  // here), "exists" (create without replace over a stored key),
  // "wrong-scope" (a message for another campaign), "invalid" (a bad
  // campaign or user name), "storage" (IndexedDB failed).
  class KeyError extends Error {
    constructor(code, message) {
      super(message);
      this.name = "KeyError";
      this.code = code;
    }
  }

  function S() {
    const s = global.JournalSigned;
    if (!s || !s.encode) throw new Error("keys.js needs signed.js (JournalSigned) and dice.js loaded first");
    return s;
  }

  let support; // a promise of {ok, reason}

  // supported resolves to {ok: true} or {ok: false, reason} saying what this
  // page lacks. It makes (and drops) one throwaway key to find out.
  function supported() {
    if (!support) support = probe();
    return support;
  }

  async function probe() {
    const where = global.isSecureContext === false ? " (this page is not a secure context: open the journal over https, or on localhost)" : "";
    if (!global.crypto || !global.crypto.subtle) return { ok: false, reason: "Web Crypto is not available" + where };
    if (!global.indexedDB) return { ok: false, reason: "IndexedDB is not available: this browser cannot keep a device key" + where };
    try {
      const pair = /** @type {CryptoKeyPair} */ (await global.crypto.subtle.generateKey(ALG, false, ["sign", "verify"]));
      if (pair.privateKey.extractable) return { ok: false, reason: "this browser made an extractable private key; refused" };
    } catch (e) {
      return { ok: false, reason: "this browser's Web Crypto cannot make Ed25519 keys (" + (e && e.name) + "): use a current browser" };
    }
    return { ok: true };
  }

  async function requireSupport() {
    const s = await supported();
    if (!s.ok) throw new KeyError("unsupported", "no device key: " + s.reason);
  }

  function checkScope(scope) {
    if (!scope || typeof scope !== "object") throw new KeyError("invalid", "a key is named by {campaign, user}");
    for (const name of ["campaign", "user"]) {
      const v = scope[name];
      if (typeof v !== "string" || !/^[a-z0-9_-]{1,64}$/.test(v)) {
        throw new KeyError("invalid", name + " " + JSON.stringify(v) + " is not a journal id (1 to 64 of a-z, 0-9, '-' and '_')");
      }
    }
    return scope.campaign + "/" + scope.user;
  }

  let dbPromise;
  function db() {
    if (!dbPromise) {
      dbPromise = new Promise((resolve, reject) => {
        const req = global.indexedDB.open(DB_NAME, 1);
        req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: "id" });
        req.onsuccess = () => {
          const d = req.result;
          d.onversionchange = () => {
            d.close();
            dbPromise = null;
          };
          resolve(d);
        };
        req.onerror = () => reject(new KeyError("storage", "cannot open IndexedDB " + DB_NAME + ": " + (req.error && req.error.message)));
        req.onblocked = () => reject(new KeyError("storage", "IndexedDB " + DB_NAME + " is blocked by another tab"));
      });
      dbPromise.catch(() => (dbPromise = null));
    }
    return dbPromise;
  }

  // tx runs fn(store) in one transaction and resolves to the value of the
  // request fn returns, once the transaction has committed.
  async function tx(mode, fn) {
    const d = await db();
    return new Promise((resolve, reject) => {
      const t = d.transaction(STORE, mode);
      let result;
      const req = fn(t.objectStore(STORE));
      req.onsuccess = () => (result = req.result);
      t.oncomplete = () => resolve(result);
      t.onerror = (ev) => {
        const e = t.error || req.error;
        if (e && e.name === "ConstraintError") {
          ev.preventDefault();
          reject(new KeyError("exists", "a key is already stored"));
          return;
        }
        reject(new KeyError("storage", "IndexedDB: " + (e && e.message)));
      };
      t.onabort = () => reject(new KeyError("storage", "IndexedDB: transaction aborted" + (t.error ? ": " + t.error.message : "")));
    });
  }

  // DeviceKey is one stored key: its public half, fingerprint, and sign.
  class DeviceKey {
    constructor(record) {
      this.campaign = record.campaign;
      this.user = record.user;
      this.publicKey = record.publicKey; // 64 lower-case hex digits
      this.fingerprint = record.fingerprint; // e.g. "1a2b:3c4d:…" (8 groups)
      this.created = record.created; // ISO 8601 time the key was made
      this.privateKey = record.pair.privateKey; // CryptoKey, extractable === false
      this.publicCryptoKey = record.pair.publicKey;
    }

    // signString signs a string's UTF-8 bytes; the signature is unpadded base64url.
    async signString(text) {
      if (typeof text !== "string") throw new TypeError("signString takes a string");
      const sig = await global.crypto.subtle.sign(ALG, this.privateKey, encoder.encode(text));
      return S().base64url(new Uint8Array(sig));
    }

    // sign encodes a message object (JournalSigned.encode: Go's member
    // order) and signs it; it resolves to {signed, signature}, the two
    // strings a device sends. With receipts.js loaded, the message carries
    // seen (the page's head) and is kept in IndexedDB before this resolves. The message must be for this key's campaign.
    // type may be given in the object or as the second argument.
    async sign(message, type) {
      if (message && message.campaign !== this.campaign) {
        throw new KeyError("wrong-scope", "this key is for campaign " + this.campaign + ", the message is for " + JSON.stringify(message.campaign));
      }
      // Receipts (receipts.js, when the page loads it): the message says
      // what this device saw, and is kept before it is sent.
      const R = global.JournalReceipts;
      if (R && message && message.seen === undefined) {
        const seen = await R.seen(this.campaign);
        if (seen) message = Object.assign({}, message, { seen: seen });
      }
      const signed = S().encode(message, type);
      const signature = await this.signString(signed);
      if (R) await R.keep({ campaign: this.campaign, user: this.user, public_key: this.publicKey, signed: signed, signature: signature, time: new Date().toISOString() });
      return { signed: signed, signature: signature };
    }

    // register is this key's device.register for its user as role (the
    // invite's), signed by the key itself: the proof that this device
    // holds it (signed/device.go). name says what the device is.
    register(role, name) {
      return this.sign({ type: "device.register", campaign: this.campaign, session: "", user: this.user, role: role, name: name || "", public_key: this.publicKey });
    }

    // approve is this device's device.approve of another device of its
    // user (publicKey, 64 hex digits); revoke its device.revoke of one
    // (this one or another).
    approve(publicKey) {
      return this.sign({ type: "device.approve", campaign: this.campaign, session: "", user: this.user, public_key: publicKey });
    }

    revoke(publicKey, reason) {
      return this.sign({ type: "device.revoke", campaign: this.campaign, session: "", user: this.user, public_key: publicKey, reason: reason || "" });
    }

    // witnessSecret resolves to this device's w for a session (hex), the
    // secret of its witness chain (docs/design.md §3.3): SHA-256 of its
    // (deterministic) Ed25519 signature of
    // JournalDiceV2.witnessSeedMessage(campaign, session, commitment), so
    // nothing is stored (rules/dice/v2_witness.go).
    async witnessSecret(session, commitment) {
      const V2 = global.JournalDiceV2;
      const text = V2.witnessSeedMessage(this.campaign, session, commitment);
      const sig = await global.crypto.subtle.sign(ALG, this.privateKey, encoder.encode(text));
      return V2.witnessSecret(new Uint8Array(sig));
    }

    toJSON() {
      return { campaign: this.campaign, user: this.user, publicKey: this.publicKey, fingerprint: this.fingerprint, created: this.created };
    }
  }

  function toHex(buf) {
    return Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, "0")).join("");
  }

  // load resolves to the stored key of {campaign, user}, or null if none.
  async function load(scope) {
    const id = checkScope(scope);
    await requireSupport();
    const rec = await tx("readonly", (st) => st.get(id));
    return rec ? new DeviceKey(rec) : null;
  }

  // create makes a new non-extractable key pair for {campaign, user} and
  // stores it. With an existing key it rejects with code "exists", unless
  // options.replace (a lost or replaced device: the old key is overwritten
  // and the GM must register the new one). With options.defer it stores
  // nothing yet: the key's store() does, once the journal has registered
  // it (an invite's redemption), so that a refused registration never
  // replaces the device's working key with one the journal does not hold.
  async function create(scope, options) {
    const id = checkScope(scope);
    await requireSupport();
    const pair = /** @type {CryptoKeyPair} */ (await global.crypto.subtle.generateKey(ALG, false /* non-extractable */, ["sign", "verify"]));
    if (pair.privateKey.extractable !== false) throw new KeyError("unsupported", "the browser made an extractable private key; refused");
    const publicKey = toHex(await global.crypto.subtle.exportKey("raw", pair.publicKey));
    const rec = {
      id: id,
      campaign: scope.campaign,
      user: scope.user,
      publicKey: publicKey,
      fingerprint: await S().fingerprint(publicKey),
      created: new Date().toISOString(),
      pair: { privateKey: pair.privateKey, publicKey: pair.publicKey },
    };
    const replace = !!(options && options.replace);
    if (options && options.defer) {
      const k = /** @type {DeviceKey & {store?: () => Promise<unknown>}} */ (new DeviceKey(rec));
      k.store = () => tx("readwrite", (st) => st.put(rec));
      return k;
    }
    try {
      await tx("readwrite", (st) => (replace ? st.put(rec) : st.add(rec)));
    } catch (e) {
      if (e.code === "exists") throw new KeyError("exists", "a key for " + id + " is already stored; forget it or create with {replace: true}");
      throw e;
    }
    return new DeviceKey(rec);
  }

  // fromPair is a DeviceKey over a key pair its caller holds and keeps
  // itself (a bot's or a command-line client's, which has no IndexedDB:
  // examples/v2-client keeps its key in a file of its own); it signs,
  // registers and derives witness secrets exactly as a stored key does.
  // Nothing is stored. The pair is a Web Crypto Ed25519 CryptoKeyPair.
  async function fromPair(scope, pair, created) {
    checkScope(scope);
    if (!global.crypto || !global.crypto.subtle) throw new KeyError("unsupported", "no device key: Web Crypto is not available");
    if (!pair || !pair.privateKey || !pair.publicKey) throw new KeyError("invalid", "fromPair takes an Ed25519 CryptoKeyPair {privateKey, publicKey}");
    const publicKey = toHex(await global.crypto.subtle.exportKey("raw", pair.publicKey));
    return new DeviceKey({
      campaign: scope.campaign,
      user: scope.user,
      publicKey: publicKey,
      fingerprint: await S().fingerprint(publicKey),
      created: created || new Date().toISOString(),
      pair: pair,
    });
  }

  // loadOrCreate loads the key of {campaign, user}, or makes one. Two tabs
  // doing so at once end with one key: the second's add fails and it loads
  // the first's.
  async function loadOrCreate(scope) {
    const k = await load(scope);
    if (k) return k;
    try {
      return await create(scope);
    } catch (e) {
      if (e.code !== "exists") throw e;
      return load(scope);
    }
  }

  // forget deletes the stored key of {campaign, user}; it resolves to
  // whether there was one. The private key is then gone for good.
  async function forget(scope) {
    const id = checkScope(scope);
    await requireSupport();
    const had = (await tx("readonly", (st) => st.count(id))) > 0;
    await tx("readwrite", (st) => st.delete(id));
    return had;
  }

  // list resolves to the public side of every stored key of this origin.
  async function list() {
    await requireSupport();
    const all = await tx("readonly", (st) => st.getAll());
    return all.map((r) => new DeviceKey(r).toJSON());
  }

  global.JournalKeys = {
    DB_NAME: DB_NAME,
    KeyError: KeyError,
    supported: supported,
    load: load,
    create: create,
    fromPair: fromPair,
    loadOrCreate: loadOrCreate,
    forget: forget,
    list: list,
    // verify and fingerprint are JournalSigned's (no private key needed).
    verify: (pub, signed, signature) => S().verify(pub, signed, signature),
    fingerprint: (pub) => S().fingerprint(pub),
  };
})(typeof window !== "undefined" ? window : globalThis);
