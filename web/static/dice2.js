// @ts-check
// journal-dice-v2 in the browser (docs/design.md §3.2; the Go reference is
// rules/dice/v2.go): re-derive a v2 roll's dice from its session's revealed
// seed, the participants' contributions and the roll's reveal r.
//
//   K        = HMAC-SHA256(key = S, message = "journal-dice-v2|key|" + campaign + "|" +
//              session + "|" + join(contributions as lower-case hex, ","))
//   block(k) = HMAC-SHA256(key = K, message = "journal-dice-v2|" + campaign + "|" +
//              session + "|" + nonce + "|" + hex(r) + "|" + k)
//   stream   = block(0) || block(1) || ...   with v1's die rule and draw order.
//
// Every 32-byte value (seed, contribution, r, K, commitment) is written as
// exactly 64 lower-case hex digits, the only form v2 records; anything else
// is refused (JournalDiceV2.HexError), as dice.ParseHex32 refuses it.
//
// Needs dice.js (JournalDice) loaded first: SHA-256, HMAC and the byte
// stream come from it, with Web Crypto where the page is a secure context
// and its small fallback elsewhere (JournalDice.useFallback switches both).
(function (global) {
  "use strict";

  const ALGORITHM = "journal-dice-v2";
  const encoder = new TextEncoder();

  function D() {
    const d = global.JournalDice;
    if (!d || !d.byteStream) throw new Error("dice2.js needs dice.js (JournalDice) loaded first");
    return d;
  }

  // HexError: a value that is not 64 lower-case hex digits.
  class HexError extends Error {
    constructor(what, value) {
      super("invalid 32-byte hex value for " + what + ": " + describe(value) + " (want 64 lower-case hex digits)");
      this.name = "HexError";
      this.code = "invalid-hex32";
      this.field = what;
    }
  }

  function describe(v) {
    if (typeof v !== "string") return typeof v;
    return v.length === 64 ? JSON.stringify(v) : v.length + " characters";
  }

  // hex32 decodes exactly 64 lower-case hex digits (dice.ParseHex32).
  function hex32(what, text) {
    if (typeof text !== "string" || !/^[0-9a-f]{64}$/.test(text)) throw new HexError(what, text);
    return D().hexToBytes(text);
  }

  function checkNonce(nonce) {
    if (!Number.isSafeInteger(nonce) || nonce < 0) throw new Error("a nonce is a whole number ≥ 0, not " + JSON.stringify(nonce));
  }

  // sessionKey returns K (lower-case hex) of a v2 session from its seed S and
  // its contributions in stream order (hex each; none: an empty array).
  /**
   * @param {string} seedHex
   * @param {string} campaign
   * @param {string} session
   * @param {string[]} [contributionsHex]
   * @returns {Promise<string>}
   */
  async function sessionKey(seedHex, campaign, session, contributionsHex) {
    const seed = hex32("seed", seedHex);
    const list = contributionsHex || [];
    if (!Array.isArray(list)) throw new Error("contributions must be an array of hex strings");
    list.forEach((c, i) => hex32("contribution " + (i + 1), c));
    const msg = ALGORITHM + "|key|" + campaign + "|" + session + "|" + list.join(",");
    return D().bytesToHex(await D().hmacSHA256(seed, encoder.encode(msg)));
  }

  // prefix is a roll's HMAC message without its block index.
  /**
   * @param {string} campaign
   * @param {string} session
   * @param {number} nonce
   * @param {string} rHex
   * @returns {string}
   */
  function prefix(campaign, session, nonce, rHex) {
    return ALGORITHM + "|" + campaign + "|" + session + "|" + String(nonce) + "|" + rHex + "|";
  }

  // stream returns the byte stream of one v2 roll: an object with
  // die(sides) → face, blockAt(k) → bytes, and draws (every byte taken:
  // {byte, sides, kept}), as dice.js's v1 stream.
  async function stream(KHex, campaign, session, nonce, rHex) {
    const key = hex32("session key", KHex);
    hex32("r", rHex);
    checkNonce(nonce);
    return D().byteStream(key, prefix(campaign, session, nonce, rHex));
  }

  // block returns block(k) of a roll's stream, as hex.
  async function block(KHex, campaign, session, nonce, rHex, k) {
    const s = await stream(KHex, campaign, session, nonce, rHex);
    return D().bytesToHex(await s.blockAt(k));
  }

  // faces draws one die per entry of sides (2 to 256 each), in order.
  async function faces(KHex, campaign, session, nonce, rHex, sides) {
    const s = await stream(KHex, campaign, session, nonce, rHex);
    const out = [];
    for (const n of sides) out.push(await s.die(n));
    return out;
  }

  // revealCommitment returns hex(SHA-256(r)): what a roll.request commits to.
  /**
   * @param {string} rHex
   * @returns {Promise<string>} hex SHA-256(r)
   */
  async function revealCommitment(rHex) {
    return D().bytesToHex(await D().sha256(hex32("r", rHex)));
  }

  // revealMatches reports whether r is the secret committed to; the
  // commitment must be in its recorded form (64 lower-case hex digits).
  /**
   * @param {string} rHex
   * @param {string} commitment
   * @returns {Promise<boolean>}
   */
  async function revealMatches(rHex, commitment) {
    return (await revealCommitment(rHex)) === commitment;
  }

  function sameFaces(a, b) {
    return a.length === b.length && a.every((f, i) => f === b[i]);
  }

  // verify checks one v2 roll-made event against its session and, when
  // given, its roll-requested event:
  //   roll    {campaign, session, data: {nonce, reveal, draws, faces, witness?, request?}}
  //   session {id, algorithm, commitment, seed?, contributions: [hex, …] in stream order}
  //   request {data: {request, commitment?, beacon_round?}} or null (then the reveal is not checked)
  //   options {beacon: {round, signature (hex)}}: for a beacon roll (the
  //           request names beacon_round), the round as drand published it
  //           (else roll.data.beacon); r must be SHA-256(signature) of exactly
  //           that round, verified by beacon.js against quicknet's key
  // It resolves to {status, reason, …} where status is "verified",
  // "mismatch", or "sealed" (the session has not ended: S is not revealed;
  // the reveal is still checked against the commitment). flags lists what
  // the audit reports without failing ("no contribution", "unwitnessed").
  // Invalid hex in any field is a mismatch naming the field, never a throw.
  async function verify(roll, session, request, options) {
    const data = (roll && roll.data) || {};
    const recorded = Array.isArray(data.faces) ? data.faces : [];
    /** @type {Record<string, any> & {flags: string[]}} */
    const base = { recorded: recorded, nonce: data.nonce, reveal: data.reveal, flags: [] };
    const fail = (reason, more) => Object.assign(base, more || {}, { status: "mismatch", reason: reason });
    if (!session) return fail("the roll's session " + (roll && roll.session) + " is unknown");
    if (session.algorithm !== ALGORITHM) return fail("session " + session.id + " uses algorithm " + JSON.stringify(session.algorithm) + ", not " + ALGORITHM);
    const contributions = session.contributions || [];
    if (contributions.length === 0) base.flags.push("no contribution: the session key is the host's seed alone");
    if (data.witness === "none") base.flags.push("unwitnessed: r came from the server");
    try {
      hex32("reveal", data.reveal);
      hex32("session commitment", session.commitment);
      contributions.forEach((c, i) => hex32("contribution " + (i + 1), c));
    } catch (e) {
      return fail(e.message);
    }
    if (!Number.isSafeInteger(data.nonce) || data.nonce < 0) return fail("the nonce " + JSON.stringify(data.nonce) + " is not a whole number ≥ 0");
    const draws = data.draws;
    if (!Array.isArray(draws) || !draws.every((n) => Number.isInteger(n) && n >= 2 && n <= 256)) {
      return fail("draws must list the sides (2 to 256) of every die drawn");
    }
    if (draws.length !== recorded.length) return fail(draws.length + " dice drawn but " + recorded.length + " faces recorded");
    // The reveal against the request's commitment.
    let revealOK = null;
    if (request) {
      const rq = request.data || request;
      if (data.request !== undefined && rq.request !== undefined && data.request !== rq.request) {
        return fail("the roll answers request " + data.request + ", not " + rq.request);
      }
      if (rq.commitment) {
        const got = await revealCommitment(data.reveal);
        revealOK = got === rq.commitment;
        base.revealOK = revealOK;
        if (!revealOK) return fail("SHA-256(reveal) is " + got + ", not the request's commitment " + rq.commitment);
      }
    }
    // A beacon roll: r is the randomness of the round the request named.
    const rq = request ? request.data || request : null;
    if (rq && rq.beacon_round) {
      const bc = (options && options.beacon) || data.beacon;
      if (!bc) {
        base.beaconOK = null;
        base.flags.push("beacon round " + rq.beacon_round + " not checked: no signature given");
      } else {
        if (String(bc.round) !== String(rq.beacon_round)) return fail("the beacon round given is " + bc.round + ", the request names " + rq.beacon_round);
        const B = global.JournalBeacon;
        if (!B) return fail("beacon.js (JournalBeacon) is not loaded: cannot check beacon round " + rq.beacon_round);
        let randomness;
        try {
          randomness = await B.verify(rq.beacon_round, bc.signature);
        } catch (e) {
          return fail(e.message);
        }
        base.beaconOK = randomness === data.reveal;
        if (!base.beaconOK) return fail("the reveal is not the randomness of beacon round " + rq.beacon_round + " (" + randomness + ")");
      }
    }
    if (!session.seed) {
      return Object.assign(base, { status: "sealed", reason: "not yet revealed: the seed is revealed when session " + session.id + " ends" + (revealOK ? "; the reveal matches the request's commitment" : "") });
    }
    let seedCommit;
    try {
      seedCommit = D().bytesToHex(await D().sha256(hex32("seed", session.seed)));
    } catch (e) {
      return fail(e.message);
    }
    base.commitmentOK = seedCommit === session.commitment;
    if (!base.commitmentOK) return fail("SHA-256(seed) is " + seedCommit + ", not the session's commitment");
    const K = await sessionKey(session.seed, roll.campaign, roll.session, contributions);
    const s = await stream(K, roll.campaign, roll.session, data.nonce, data.reveal);
    const derived = [];
    for (const n of draws) derived.push(await s.die(n));
    Object.assign(base, { sides: draws, derived: derived, draws: s.draws, facesOK: sameFaces(derived, recorded) });
    if (!base.facesOK) return fail("the seed, contributions and reveal give faces " + derived.join(" ") + ", the record says " + recorded.join(" "));
    const what = [ "SHA-256(seed) matches the commitment", contributions.length + " contribution" + (contributions.length === 1 ? "" : "s") ];
    if (revealOK) what.push("the reveal matches the request's commitment");
    if (base.beaconOK) what.push("the reveal is beacon round " + rq.beacon_round + "'s verified randomness");
    return Object.assign(base, { status: "verified", reason: what.join("; ") + "; faces " + derived.join(" ") + " re-derived" });
  }

  // Witness chains of GM rolls (docs/design.md §3.3; the Go reference is
  // rules/dice/v2_witness.go):
  //   w      = SHA-256(Ed25519 signature of the device key over witnessSeedMessage(campaign, session, seed commitment))
  //   anchor = hex(H^N(w)), H = SHA-256, N = WITNESS_CHAIN
  //   w_j    = H^(N−j)(w), the value for the session's j-th GM request
  //   r      = SHA-256("journal-dice-v2|gm|" + join(hex(w_j) of each contributing device, in contribution order, ","))
  const WITNESS_CHAIN = 1024;
  const MAX_WITNESS_INDEX = WITNESS_CHAIN - 1;

  /**
   * @param {string} campaign
   * @param {string} session
   * @param {string} commitment
   * @returns {string}
   */
  function witnessSeedMessage(campaign, session, commitment) {
    return ALGORITHM + "|witness|" + campaign + "|" + session + "|" + commitment;
  }

  // hashTimes returns H^n(v) as lower-case hex.
  /**
   * @param {string} vHex
   * @param {number} n
   * @returns {Promise<string>}
   */
  async function hashTimes(vHex, n) {
    let b = hex32("witness value", vHex);
    for (let k = 0; k < n; k++) b = await D().sha256(b);
    return D().bytesToHex(b);
  }

  // witnessSecret returns w (hex) from the raw signature bytes.
  /**
   * @param {Uint8Array} signatureBytes
   * @returns {Promise<string>}
   */
  async function witnessSecret(signatureBytes) {
    return D().bytesToHex(await D().sha256(signatureBytes));
  }

  /**
   * @param {string} wHex
   * @returns {Promise<string>}
   */
  async function witnessAnchor(wHex) {
    return hashTimes(wHex, WITNESS_CHAIN);
  }

  // witnessValue returns w_j (hex), j in 1..MAX_WITNESS_INDEX.
  /**
   * @param {string} wHex
   * @param {number} j
   * @returns {Promise<string>}
   */
  async function witnessValue(wHex, j) {
    if (!Number.isInteger(j) || j < 1 || j > MAX_WITNESS_INDEX) throw new Error("witness index " + j + ": want 1 to " + MAX_WITNESS_INDEX);
    return hashTimes(wHex, WITNESS_CHAIN - j);
  }

  // witnessMatches reports whether H^j(value) is the anchor.
  /**
   * @param {string} valueHex
   * @param {string} anchorHex
   * @param {number} j
   * @returns {Promise<boolean>}
   */
  async function witnessMatches(valueHex, anchorHex, j) {
    if (!Number.isInteger(j) || j < 1 || j > MAX_WITNESS_INDEX) return false;
    try {
      return (await hashTimes(valueHex, j)) === anchorHex;
    } catch (e) {
      return false;
    }
  }

  // combineWitnesses returns r (hex) of a GM roll from the values (hex),
  // in contribution order.
  /**
   * @param {string[]} valuesHex
   * @returns {Promise<string>}
   */
  async function combineWitnesses(valuesHex) {
    valuesHex.forEach((v, i) => hex32("witness " + (i + 1), v));
    return D().bytesToHex(await D().sha256(encoder.encode(ALGORITHM + "|gm|" + valuesHex.join(","))));
  }

  // revealSecret derives a device's secret r (hex) for its request from
  // its own Ed25519 signature (deterministic) over the request's identity,
  // as the CLI's device does (device.Key.RevealSecret):
  //   r = SHA-256(UTF-8 of base64url(sign("journal-dice-v2|r|" + campaign + "|" +
  //                                     session + "|" + user + "|" + request)))
  // signString(text) resolves to the signature's text (keys.js). So the
  // device can re-derive r from the recorded request alone and prove a
  // roll whose reveal the host did not record.
  /**
   * @param {(text: string) => Promise<string>} signString the device's signature of a text (keys.js signString)
   * @param {string} campaign
   * @param {string} session
   * @param {string} user
   * @param {string} request
   * @returns {Promise<string>} r, 64 lower-case hex digits
   */
  async function revealSecret(signString, campaign, session, user, request) {
    const sig = await signString(ALGORITHM + "|r|" + campaign + "|" + session + "|" + user + "|" + request);
    return D().bytesToHex(await D().sha256(encoder.encode(sig)));
  }

  // provable lists the requests of user that a proof may be sent for
  // (docs/design.md §3.3): in the campaign's state (the journal's projection),
  // those with a commitment, cancelled, or left pending in an ended
  // session, and not proved yet: [{session, request, character, commitment}].
  function provable(campaign, user) {
    const out = [];
    for (const s of (campaign && campaign.sessions) || []) {
      if (s.algorithm !== ALGORITHM) continue;
      for (const [id, p] of Object.entries(s.requests || {})) {
        const q = p.requested || {};
        if (q.user !== user || !q.commitment || p.proved) continue;
        if (p.state === "cancelled" || (p.state === "pending" && s.ended)) out.push({ session: s.id, request: id, character: q.character, commitment: q.commitment });
      }
    }
    return out;
  }

  global.JournalDiceV2 = {
    WITNESS_CHAIN: WITNESS_CHAIN,
    MAX_WITNESS_INDEX: MAX_WITNESS_INDEX,
    witnessSeedMessage: witnessSeedMessage,
    witnessSecret: witnessSecret,
    witnessAnchor: witnessAnchor,
    witnessValue: witnessValue,
    witnessMatches: witnessMatches,
    combineWitnesses: combineWitnesses,
    hashTimes: hashTimes,
    revealSecret: revealSecret,
    provable: provable,
    ALGORITHM: ALGORITHM,
    HexError: HexError,
    sessionKey: sessionKey,
    stream: stream,
    block: block,
    faces: faces,
    revealCommitment: revealCommitment,
    revealMatches: revealMatches,
    verify: verify,
  };
})(typeof window !== "undefined" ? window : globalThis);
