// @ts-check
// drand quicknet beacon rounds in the browser, for journal-dice-v2 GM rolls
// resolved by a future round (docs/design.md §3.2, "Play days apart"; the Go
// reference is the beacon package).
//
// quicknet (scheme bls-unchained-g1-rfc9380) signs round n as a BLS12-381
// G1 point (48 bytes compressed) over message = SHA-256(n as 8-byte
// big-endian), hashed to G1 with DST "BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_",
// checked by e(signature, g2) = e(H(message), public key) with the chain's
// pinned G2 key. The roll's r is SHA-256(signature) (the round's randomness).
//
// A round is accepted only if its signature is the canonical compressed
// encoding of a G1 point in the prime-order subgroup, not the identity, and
// the pairing holds for exactly that round under the chain's key. A chain
// other than quicknet is accepted only if its hash matches its parameters.
// Refusals are JournalBeacon.BeaconError with code "bad-signature",
// "invalid-round", "invalid-chain" or "unsupported" (vendor/noble-curves.js
// not loaded).
//
// Needs vendor/noble-curves.js (JournalNoble) and dice.js (JournalDice).
(function (global) {
  "use strict";

  const SCHEME = "bls-unchained-g1-rfc9380";
  const DST = "BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_";

  // QUICKNET is the League of Entropy's quicknet chain as drand serves it
  // at /{hash}/info (the constants of beacon.QuicknetInfo).
  const QUICKNET = Object.freeze({
    public_key:
      "83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a",
    period: 3,
    genesis_time: 1692803367,
    hash: "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971",
    groupHash: "f477d5c89f21a17c863a7f937c6a6d15859414d2be09cd448d4279af331c5d3e",
    schemeID: SCHEME,
    metadata: Object.freeze({ beaconID: "quicknet" }),
  });

  class BeaconError extends Error {
    constructor(code, message) {
      super(message);
      this.name = "BeaconError";
      this.code = code;
    }
  }

  function N() {
    const n = global.JournalNoble;
    if (!n || !n.bls12_381) throw new BeaconError("unsupported", "beacon.js needs vendor/noble-curves.js (JournalNoble) loaded first");
    return n;
  }
  function D() {
    const d = global.JournalDice;
    if (!d || !d.sha256) throw new Error("beacon.js needs dice.js (JournalDice) loaded first");
    return d;
  }

  function hexBytes(code, what, text) {
    if (typeof text !== "string" || text.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(text)) throw new BeaconError(code, what + ": not hex");
    return D().hexToBytes(text);
  }

  // toRound reads a round number (a whole number, a BigInt or decimal digits).
  function toRound(round) {
    let n;
    if (typeof round === "bigint") n = round;
    else if (typeof round === "number" && Number.isSafeInteger(round)) n = BigInt(round);
    else if (typeof round === "string" && /^[0-9]{1,20}$/.test(round)) n = BigInt(round);
    else throw new BeaconError("invalid-round", "round " + JSON.stringify(String(round)) + " is not a whole number");
    if (n <= 0n || n >= 1n << 64n) throw new BeaconError("invalid-round", "round " + n + (n === 0n ? ": round 0 does not exist" : " is out of range"));
    return n;
  }

  // message returns SHA-256(round as 8-byte big-endian), as hex.
  async function message(round) {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setBigUint64(0, toRound(round));
    return D().bytesToHex(await D().sha256(b));
  }

  let quicknet; // the checked quicknet chain, once checked

  // chain checks a chain description ({public_key, period, genesis_time,
  // hash, groupHash, schemeID, metadata.beaconID}) as beacon.NewChain does:
  // the scheme, a G2 public key, and drand's chain hash of the fields.
  async function chain(info) {
    info = info || QUICKNET;
    if (info.schemeID !== SCHEME) throw new BeaconError("invalid-chain", "scheme " + JSON.stringify(info.schemeID) + ", want " + SCHEME);
    if (!Number.isSafeInteger(info.period) || info.period <= 0 || info.period > 2 ** 31) throw new BeaconError("invalid-chain", "period " + info.period + " s");
    if (!Number.isSafeInteger(info.genesis_time) || info.genesis_time <= 0) throw new BeaconError("invalid-chain", "genesis time " + info.genesis_time);
    const pk = hexBytes("invalid-chain", "public key", info.public_key);
    if (pk.length !== 96) throw new BeaconError("invalid-chain", "public key must be 96 bytes of hex");
    let pub;
    try {
      pub = N().bls12_381.G2.Point.fromBytes(pk);
      pub.assertValidity();
    } catch (e) {
      if (e instanceof BeaconError) throw e;
      throw new BeaconError("invalid-chain", "public key is not a G2 point");
    }
    if (pub.is0()) throw new BeaconError("invalid-chain", "public key is not a G2 point");
    const group = hexBytes("invalid-chain", "group hash", info.groupHash);
    if (group.length !== 32) throw new BeaconError("invalid-chain", "group hash must be 32 bytes of hex");
    // drand's chain hash: SHA-256(period uint32 BE || genesis int64 BE || key || group hash || beacon id unless "default").
    const id = (info.metadata && info.metadata.beaconID) || "";
    const idBytes = id && id !== "default" ? new TextEncoder().encode(id) : new Uint8Array(0);
    const buf = new Uint8Array(12 + pk.length + group.length + idBytes.length);
    const dv = new DataView(buf.buffer);
    dv.setUint32(0, info.period);
    dv.setBigInt64(4, BigInt(info.genesis_time));
    buf.set(pk, 12);
    buf.set(group, 12 + pk.length);
    buf.set(idBytes, 12 + pk.length + group.length);
    const hash = D().bytesToHex(await D().sha256(buf));
    if (hash !== info.hash) throw new BeaconError("invalid-chain", "hash " + JSON.stringify(info.hash) + " does not match its parameters (" + hash + ")");
    return { info: info, hash: hash, pub: pub };
  }

  // verify checks that signatureHex is the chain's (default quicknet)
  // signature of round, and resolves to the round's randomness
  // hex(SHA-256(signature)): the r of a beacon roll. It rejects with a
  // BeaconError otherwise, never resolving to a value for a bad round.
  async function verify(round, signatureHex, info) {
    const n = toRound(round);
    const c = !info || info === QUICKNET ? quicknet || (quicknet = await chain(QUICKNET)) : await chain(info);
    const sig = hexBytes("bad-signature", "bad beacon signature", signatureHex);
    if (sig.length !== 48) throw new BeaconError("bad-signature", "bad beacon signature: " + sig.length + " bytes, want 48 (a compressed G1 point)");
    const bls = N().bls12_381;
    let point;
    try {
      point = bls.G1.Point.fromBytes(sig);
      point.assertValidity(); // on the curve and in the prime-order subgroup
    } catch (e) {
      throw new BeaconError("bad-signature", "bad beacon signature: not a G1 point");
    }
    if (point.is0()) throw new BeaconError("bad-signature", "bad beacon signature: the identity point");
    if (D().bytesToHex(point.toBytes(true)) !== D().bytesToHex(sig)) throw new BeaconError("bad-signature", "bad beacon signature: non-canonical point encoding");
    const msg = D().hexToBytes(await message(n));
    const short = bls.shortSignatures;
    let ok = false;
    try {
      ok = short.verify(point, short.hash(msg, DST), c.pub);
    } catch (e) {
      ok = false;
    }
    if (!ok) throw new BeaconError("bad-signature", "bad beacon signature: round " + n + " does not verify under chain " + c.hash.slice(0, 16) + "…");
    return D().bytesToHex(await D().sha256(sig));
  }

  // roundAt returns the latest round published at unixSeconds (0 before
  // genesis); timeOf returns when round is published, in Unix seconds.
  /**
   * @param {number} unixSeconds
   * @param {{genesis_time: number, period: number}} info the chain's
   * @returns {number}
   */
  function roundAt(unixSeconds, info) {
    const i = info || QUICKNET;
    if (unixSeconds < i.genesis_time) return 0;
    return Math.floor((unixSeconds - i.genesis_time) / i.period) + 1;
  }
  /**
   * @param {number} round
   * @param {{genesis_time: number, period: number}} info the chain's
   * @returns {number} Unix seconds
   */
  function timeOf(round, info) {
    const i = info || QUICKNET;
    return i.genesis_time + (Number(toRound(round)) - 1) * i.period;
  }

  global.JournalBeacon = {
    SCHEME: SCHEME,
    DST: DST,
    QUICKNET: QUICKNET,
    BeaconError: BeaconError,
    chain: chain,
    message: message,
    verify: verify,
    roundAt: roundAt,
    timeOf: timeOf,
  };
})(typeof window !== "undefined" ? window : globalThis);
