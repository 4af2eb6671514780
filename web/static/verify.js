// @ts-check
// Verification of a campaign's events in the browser: the dice (dice.js for
// journal-dice-v1, dice2.js for journal-dice-v2), the signatures of device
// messages (signed.js), the reveal against the request's commitment, the
// hash chain of an export (prevhash over each line's exact bytes), and the
// rules judged again: kept dice, totals and outcomes (docs/rules.md; the Go
// reference is rules/ryf and rules/tor), then the consequences: an attack's
// hit and damage, the damage taken, a contest's winner.
//
// verifyEvents(records, options) takes the events in stream order
// ([{event, line?}], line being the exact stored bytes of an export) and
// resolves to a report: {rolls: {id: verdict}, problems: [..], chain,
// sessions}. A verdict is {status: "verified" | "sealed" | "mismatch",
// reasons: [..], flags: [..]}. It never throws on bad input: every
// problem is a reason naming the event.
//
// Needs dice.js, dice2.js and signed.js loaded before it is called; the
// words come from i18n.js (JournalI18n) when it is loaded, else English.
(function (global) {
  "use strict";

  const ROLL = "journal.roll.made.v1";
  const tr = (key, ...args) => (global.JournalI18n ? global.JournalI18n.t(key, ...args) : key + (args.length ? " " + args.join(" ") : ""));

  // --- The rules, judged again from the recorded faces ---

  function keep(level, dice) {
    const s = dice.slice().sort((x, y) => x - y);
    if (level === "low") return s[0];
    if (level === "high") return s[2];
    return s[1];
  }

  function same(a, b) {
    return JSON.stringify(a) === JSON.stringify(b);
  }

  // judge1o3d10 re-judges a 1o3d10 roll: the kept die of every round by its
  // level, explosions (a kept 10 rolls again, except in attribute rolls
  // that are not a side of an opposed roll), the total and the outcome.
  function judge1o3d10(d) {
    const out = [];
    const faces = d.faces || [];
    if (faces.length === 0 || faces.length % 3 !== 0) return [tr("v.faces3", faces.length)];
    const explodes = d.kind !== "attribute" || !!d.opposed;
    const kept = [];
    for (let i = 0; i < faces.length; i += 3) kept.push(keep(d.level, faces.slice(i, i + 3)));
    for (let r = 0; r < kept.length - 1; r++) {
      if (!explodes || kept[r] !== 10) return [tr("v.extraRound", r + 2)];
    }
    if (explodes && kept[kept.length - 1] === 10) out.push(tr("v.missingRound"));
    if (!same(kept, d.kept || [])) out.push(tr("v.kept", kept.join(" "), (d.kept || []).join(" ")));
    const diePart = kept.reduce((a, b) => a + b, 0);
    if (d.die_part !== undefined && d.die_part !== diePart) out.push(tr("v.diePart", diePart, d.die_part));
    const base = baseOf(d);
    if (base !== null && d.base !== undefined && base !== d.base) out.push(tr("v.base", base, d.base));
    const total = (d.base || 0) + diePart;
    if (total !== d.total) out.push(tr("v.total", total, d.total));
    const first = faces.slice(0, 3);
    let outcome;
    if (first[0] === 1 && first[1] === 1 && first[2] === 1) outcome = "fumble";
    else if (explodes && kept[0] === 1) outcome = "natural1";
    else if (d.difficulty === undefined || d.difficulty === null) outcome = "rolled";
    else if (total >= d.difficulty) outcome = total >= 30 ? "critical" : "success";
    else outcome = "failure";
    if (outcome !== d.outcome) out.push(tr("v.outcome", tr("o." + outcome), tr("o." + d.outcome)));
    return out;
  }

  // baseOf is what the inputs add up to (ryf.Check.Base), or null when the
  // roll lacks the inputs (older records).
  function baseOf(d) {
    const mod = d.modifier || 0;
    if (typeof d.attribute_value !== "number") return null;
    if (d.kind === "attribute") return 2 * d.attribute_value + mod;
    if (d.kind === "initiative") return d.attribute_value + (d.attribute2_value || 0) + mod;
    return d.attribute_value + (d.rank || 0) + (d.precision || 0) + mod;
  }

  // judgeTOR re-judges a One Ring roll: the feat die (11 the Eye counts 0,
  // 12 the rune succeeds), the success dice, the total against the TN and
  // the quality by the sixes.
  function judgeTOR(d) {
    const out = [];
    const faces = d.faces || [];
    if (!faces.length) return [tr("v.noFaces")];
    const feat = faces[0];
    const success = faces.slice(1);
    const total = (feat === 11 ? 0 : feat) + success.reduce((a, b) => a + b, 0) + (d.hope_bonus || 0);
    if (total !== d.total) out.push(tr("v.total", total, d.total));
    const sixes = success.filter((f) => f === 6).length;
    const ok = feat === 12 || total >= d.tn;
    const outcome = ok ? "success" : "failure";
    if (outcome !== d.outcome) out.push(tr("v.outcome", tr("o." + outcome), tr("o." + d.outcome)));
    const quality = ok ? (sixes === 0 ? "success" : sixes === 1 ? "great" : "extraordinary") : undefined;
    if (ok && (d.quality || "success") !== quality) out.push(tr("v.quality", tr("q." + quality), tr("q." + (d.quality || "success"))));
    if (!!d.eye !== (feat === 11)) out.push(tr("v.eye"));
    if (!!d.rune !== (feat === 12)) out.push(tr("v.rune"));
    return out;
  }

  // judgeDamage re-judges damage or healing dice "NdS±M": N chains, each
  // exploding while it shows S; the total is the sum plus the modifier, at
  // least 0, doubled on a critical.
  function judgeDamage(d) {
    const m = /^(\d*)d(\d+)([+-]\d+)?$/.exec(String(d.dice || "").replace(/\s+/g, ""));
    if (!m) return [tr("v.dice", d.dice)];
    const count = m[1] === "" ? 1 : Number(m[1]);
    const sides = Number(m[2]);
    const mod = m[3] ? Number(m[3]) : 0;
    const faces = d.faces || [];
    let chains = 0;
    let open = false;
    for (const f of faces) {
      if (!open) chains++;
      open = f === sides;
    }
    const out = [];
    if (chains !== count || open) out.push(tr("v.chains", count, sides));
    let total = Math.max(faces.reduce((a, b) => a + b, 0) + mod, 0);
    if (d.critical) total *= 2;
    if (total !== d.total) out.push(tr("v.total", total, d.total));
    return out;
  }

  // judgeHeal re-judges the after-combat healing die (rolls.FromHeal): one
  // d6 that does not explode; the total is its face.
  function judgeHeal(d) {
    const faces = d.faces || [];
    if (faces.length !== 1 || !(faces[0] >= 1 && faces[0] <= 6)) return [tr("v.chains", 1, 6)];
    if (d.total !== faces[0]) return [tr("v.total", faces[0], d.total)];
    return [];
  }

  // judgeFree re-judges a free roll (rolls.FromFree): one face per die of
  // its expression, each on its die, the total their signed sum with the
  // numbers, the outcome "rolled".
  function judgeFree(d) {
    let x;
    try {
      x = global.JournalDice.parseExpr(d.dice);
      if (x.text !== d.dice) throw new Error("dice " + JSON.stringify(d.dice) + " is not written as the journal writes it, " + JSON.stringify(x.text));
    } catch (e) {
      return [tr("v.dice", d.dice) + ": " + e.message];
    }
    const faces = d.faces || [];
    let total = 0;
    let k = 0;
    for (const t of x.terms) {
      const sign = t.neg ? -1 : 1;
      if (!t.sides) {
        total += sign * t.count;
        continue;
      }
      for (let c = 0; c < t.count; c++, k++) {
        if (!(faces[k] >= 1 && faces[k] <= t.sides)) return [tr("v.chains", t.count, t.sides)];
        total += sign * faces[k];
      }
    }
    if (k !== faces.length) return [tr("v.chains", k, faces.length)];
    const out = [];
    if (total !== d.total) out.push(tr("v.total", total, d.total));
    if (d.outcome !== "rolled") out.push(tr("v.outcome", "rolled", d.outcome));
    return out;
  }

  // HIDDEN_INPUTS are events.HiddenInputs: the members a GM's secret roll
  // (journal.roll.hidden.v1) shares with the roll that reveals it.
  const HIDDEN_INPUTS = ["system", "rules", "kind", "character", "note", "dice", "skill", "attribute", "attribute_value", "rank", "modifier", "difficulty", "difficulty_name", "token_returned", "incapacitated", "nonce", "entropy", "call", "request", "user", "signed", "signature", "reveal", "witness", "beacon_round", "beacon_signature", "witness_index", "witnesses"];

  // zeroJSON is replay's: a JSON value that is its type's zero (absent too).
  function zeroJSON(v) {
    if (v === undefined || v === null || v === "" || v === 0 || v === false) return true;
    if (Array.isArray(v)) return v.length === 0;
    if (typeof v === "object") return Object.keys(v).length === 0;
    return false;
  }

  // hiddenDiff lists the inputs where a reveal differs from its secret roll.
  function hiddenDiff(got, want) {
    const out = [];
    for (const k of HIDDEN_INPUTS) {
      const g = got[k];
      const w = want[k];
      if ((zeroJSON(g) && zeroJSON(w)) || canonical(g) === canonical(w)) continue;
      out.push(tr("v.hiddenField", k, JSON.stringify(g), JSON.stringify(w)));
    }
    return out;
  }

  // --- Rules versions (docs/rules.md part 4; Go: rolls/version.go) ---
  // A roll is judged by the judge of the rules version it records, never by
  // another: rulesCheck(d) is {version, unknown: true} for a version this
  // verifier does not judge (flagged unknown-rules), {version, problem} for
  // one that cannot be this roll's, {version} otherwise. A roll recorded
  // before rolls named their version reads as version 1 of its kind's
  // engine, a side flagged opposed as ryf/2 (rolls.Version). Every judge
  // below is one of RULES_VERSIONS' (ryf/1 and ryf/2 differ only in
  // opposed sides, which judge1o3d10 reads from the flag).
  const RULES_VERSIONS = { "dice/1": "dice", "ryf/1": "ryf", "ryf/2": "ryf", "tor/1": "tor" };
  const rulesEngine = (kind) => (kind === "tor" ? "tor" : kind === "free" ? "dice" : "ryf");
  function rulesCheck(d) {
    const engine = rulesEngine(d.kind);
    const version = typeof d.rules === "string" && d.rules !== "" ? d.rules : engine !== "ryf" ? engine + "/1" : d.opposed ? "ryf/2" : "ryf/1";
    const clipped = version.length <= 40 ? version : version.slice(0, 40) + "\u2026";
    if (!Object.prototype.hasOwnProperty.call(RULES_VERSIONS, version)) return { version: version, clipped: clipped, unknown: true, known: Object.keys(RULES_VERSIONS).sort().join(", ") };
    if (RULES_VERSIONS[version] !== engine) return { version: version, clipped: clipped, problem: tr("v.rulesEngine", version, d.kind, engine) };
    if (version === "ryf/1" && d.opposed) return { version: version, clipped: clipped, problem: tr("v.rulesNoOpposed") };
    // opposed: whether a contest under this version flags its sides (ryf.OpposedSides).
    return { version: version, clipped: clipped, opposed: version !== "ryf/1" };
  }

  // judge returns what the rules say is wrong with a roll's record ([]: nothing).
  function judge(d) {
    if (!d) return [tr("v.noData")];
    if (d.kind === "free") return judgeFree(d);
    if (d.kind === "tor" || d.system === "tor") return judgeTOR(d);
    if (d.dice === "1o3d10") return judge1o3d10(d);
    if (d.kind === "heal") return judgeHeal(d);
    if (d.kind === "damage") return judgeDamage(d);
    return [];
  }

  function failed(d) {
    return d.outcome === "fumble" || d.outcome === "natural1";
  }

  // contestWinner is ryf.Contest: a natural 1 or a fumble loses, both is a
  // tie, else the higher total wins.
  function contestWinner(a, b, ida, idb) {
    if (failed(a) && failed(b)) return "";
    if (failed(a)) return idb;
    if (failed(b)) return ida;
    if (a.total > b.total) return ida;
    if (b.total > a.total) return idb;
    return "";
  }

  // --- The hash chain of an export (replay/chain.go, the same rules) ---
  // Each campaign's chain begins at the first of its events that carries
  // prevhash (a campaign chained from its first event: its second one), at
  // its chain anchor, or at its first journal-dice-v2 session's start (an
  // export of an earlier journal). From there every event carries prevhash
  // = SHA-256 of the exact line of the campaign's previous event; an event
  // without one is a stripped chain. An anchor (journal.chain.anchored.v1)
  // names the count of the campaign's lines before it and the SHA-256 of
  // those lines, each followed by "\n".
  async function sha256Hex(text) {
    const D = global.JournalDice;
    return D.bytesToHex(await D.sha256(new TextEncoder().encode(text)));
  }

  const ANCHOR = "journal.chain.anchored.v1";

  function beginsChain(ev) {
    return ev.prevhash !== undefined || ev.type === ANCHOR ||
      (ev.type === "journal.session.started.v1" && (ev.data || {}).algorithm === "journal-dice-v2");
  }

  // chainStep checks the event of record rec (line n of the file) in its
  // campaign's chain (chains: campaign → state), pushing any problem.
  async function chainStep(chains, rec, n, problems) {
    const ev = rec.event;
    const c = chains[ev.campaign] || (chains[ev.campaign] = { chained: false, last: undefined, before: [], anchored: false });
    if (ev.type === ANCHOR) {
      const d = ev.data || {};
      if (c.anchored) problems.push(tr("v.anchorTwice", n, ev.id));
      else if (d.events !== c.before.length) problems.push(tr("v.anchorCount", n, ev.id, d.events, c.before.length));
      else if (d.hash !== await sha256Hex(c.before.map((l) => l + "\n").join(""))) problems.push(tr("v.anchorHash", n, ev.id));
      c.anchored = true;
      c.before = [];
    }
    const prev = c.last;
    c.last = rec.line;
    if (!c.anchored) c.before.push(rec.line);
    if (!c.chained && !beginsChain(ev)) return true;
    c.chained = true;
    if (prev === undefined) {
      if (ev.prevhash === undefined) return true;
      problems.push(tr("v.chainFirst", n, ev.id));
      return false;
    }
    if (ev.prevhash === undefined) {
      problems.push(tr("v.chainMissing", n, ev.id));
      return false;
    }
    if (await sha256Hex(prev) !== ev.prevhash) {
      problems.push(tr("v.chainBroken", n, ev.id));
      return false;
    }
    return true;
  }

  // --- Receipts (replay/v2_seen.go, the same rule) ---
  // A device's message (data.signed, data.consent_signed) may carry seen
  // {seq, hash}: the campaign's latest event its device had received. A
  // seen.hash that is not the SHA-256 of the line of an event of the
  // campaign before the message's own event is a chain mismatch: the
  // history was rewritten before it. Matched by hash (sequences change
  // when a campaign moves to another folder); seq is for the words.
  async function seenStep(seen, rec, problems) {
    const ev = rec.event;
    const hashes = seen[ev.campaign] || (seen[ev.campaign] = new Set());
    const d = ev.data || {};
    const S = global.JournalSigned;
    let ok = true;
    for (const s of [d.signed, d.consent_signed]) {
      if (typeof s !== "string" || s === "" || !S) continue;
      let m;
      try {
        m = S.parse(s);
      } catch (e) {
        continue; // the signature checks report a malformed message
      }
      if (m.seen && !hashes.has(m.seen.hash)) {
        problems.push(tr("v.seenRewritten", m.seen.seq));
        ok = false;
        break;
      }
    }
    hashes.add(await sha256Hex(rec.line));
    return ok;
  }

  // --- journal-dice-v2 beyond one roll (replay/v2*.go): GM rolls (a
  // player's witness, a beacon round, unwitnessed), the requests' fields
  // against their signed actions, contests, initiative and healing after a
  // combat re-derived from their rolls, co-signed session ends, voids'
  // consents, and the flags (replay/v2_flags.go): what the audit reports
  // without failing. A co-signature names SHA-256 of the session-ended
  // event's stored bytes: an export's line, else (from the API) the next
  // event's prevhash, which the server served and the page cannot check.
  const STALE_MS = 30 * 24 * 3600 * 1000;
  // stamp is an event's time in nanoseconds since 1970 (a BigInt), as Go
  // compares times: Date keeps milliseconds only.
  function stamp(time) {
    const ms = Date.parse(time);
    if (Number.isNaN(ms)) return -1n;
    const frac = (/\.(\d+)/.exec(String(time)) || [])[1] || "";
    return BigInt(ms) * 1000000n + BigInt((frac + "000000000").slice(3, 9));
  }
  // rfc3339 is a time as Go's time.RFC3339 writes it in UTC: whole seconds.
  const rfc3339 = (ms) => new Date(ms).toISOString().replace(/\.\d+Z$/, "Z");
  const PATH_COMMANDS = { contest: "contest", initiative: "combat-start", heal: "heal-after-combat" };

  function canonical(v) {
    if (v === null || typeof v !== "object") return JSON.stringify(v);
    if (Array.isArray(v)) return "[" + v.map(canonical).join(",") + "]";
    return "{" + Object.keys(v).sort().map((k) => JSON.stringify(k) + ":" + canonical(v[k])).join(",") + "}";
  }

  // signedAction is a request's signed action as plain JSON (null: none).
  function signedAction(d) {
    try {
      const a = JSON.parse(d.signed).action;
      return a && typeof a === "object" && !Array.isArray(a) ? a : null;
    } catch (e) {
      return null;
    }
  }

  function taken(d) {
    return Array.isArray(d.nonces) && d.nonces.length ? d.nonces : [d.nonce];
  }

  // requestDiff compares a recorded request with its signed action
  // (replay's checkRequest, pathRequestDiff, torRequestDiff).
  function requestDiff(d, a, commitment, system) {
    const diff = [];
    const eq = (what, got, want) => {
      if (canonical(got) !== canonical(want)) diff.push(what + ": " + JSON.stringify(got) + " ≠ " + JSON.stringify(want));
    };
    const v = (x, z) => (x === undefined || x === null ? z : x);
    if (!a) return [tr("v2.noAction")];
    eq("seed_commitment", commitment, a.seed_commitment);
    if (d.kind === "free") {
      // replay's freeRequestDiff: every member of the action, none other.
      const members = Object.keys(a).sort().join(",");
      if (members !== "character,command,dice,note,secret,seed_commitment") diff.push("members: " + members);
      try {
        global.JournalDice.sidesOf({ kind: "free", dice: a.dice });
      } catch (e) {
        diff.push(e.message);
      }
      eq("command", "free-roll", a.command);
      eq("character", v(d.character, ""), a.character);
      eq("dice", v(d.dice, ""), a.dice);
      eq("note", v(d.note, ""), a.note);
      eq("secret", !!d.secret, a.secret);
      return diff;
    }
    if (PATH_COMMANDS[d.kind]) {
      eq("command", PATH_COMMANDS[d.kind], a.command);
      if (d.kind === "contest") {
        const A = a.a || {};
        const B = a.b || {};
        eq("character", v(d.character, ""), v(A.character, ""));
        eq("skill", v(d.skill, ""), v(A.skill, ""));
        eq("attribute", v(d.attribute, ""), v(A.attribute, ""));
        eq("modifier", v(d.modifier, 0), v(A.modifier, 0));
        eq("token", !!d.token, !!A.token);
        eq("specialization", !!d.specialization, !!A.specialization);
        eq("b", v(d.b, ""), v(B.character, ""));
        eq("skill_b", v(d.skill_b, ""), v(B.skill, ""));
        eq("attribute_b", v(d.attribute_b, ""), v(B.attribute, ""));
        eq("modifier_b", v(d.modifier_b, 0), v(B.modifier, 0));
        eq("token_b", !!d.token_b, !!B.token);
        eq("specialization_b", !!d.specialization_b, !!B.specialization);
        eq("rematch", v(d.rematch, ""), v(a.rematch, ""));
      } else if (d.kind === "initiative") {
        eq("participants", v(d.participants, []), v(a.participants, []));
        eq("tokens", v(d.tokens, []), v(a.token, []));
        if ((a.participants || []).length) eq("character", d.character, a.participants[0]);
      } else {
        eq("character", v(d.character, ""), v(a.character, ""));
      }
    } else if (system === "tor") {
      eq("command", "tor-roll", a.command);
      eq("character", v(d.character, ""), v(a.character, ""));
      eq("kind", d.kind, "tor");
      eq("skill", v(d.skill, ""), v(a.skill, ""));
      eq("tn", v(d.tn, 0), v(a.tn, 0));
      eq("trait", v(d.trait, ""), v(a.trait, ""));
    } else {
      eq("command", d.target ? "attack" : "roll", a.command);
      for (const [k, z] of [["target", ""], ["weapon", ""], ["range", ""], ["character", ""], ["skill", ""], ["attribute", ""], ["vs", ""], ["modifier", 0]]) eq(k, v(d[k], z), v(a[k], z));
      for (const k of ["cover", "token", "specialization"]) eq(k, !!d[k], !!a[k]);
    }
    return diff;
  }

  // orderInitiative is ryf.OrderInitiative: highest total first, ties by
  // Destreza, then Percepción, then roll order.
  function orderInitiative(list) {
    return list
      .map((x, i) => Object.assign({ i: i }, x))
      .sort((a, b) => b.total - a.total || b.d - a.d || b.p - a.p || a.i - b.i)
      .map((x) => x.id);
  }

  // contestVerdict is ryf.Contest: [winner 0|1|2, reason].
  function contestVerdict(a, b) {
    const fa = failed(a);
    const fb = failed(b);
    if (fa && fb) return [0, "both natural 1 or fumble"];
    if (fa) return [2, "natural 1 or fumble loses"];
    if (fb) return [1, "natural 1 or fumble loses"];
    if (a.total > b.total) return [1, "higher total"];
    if (b.total > a.total) return [2, "higher total"];
    return [0, "equal totals"];
  }

  // parseDifficulty is ryf.ParseDifficulty: a number, or a name (any
  // case, no accents needed, a unique prefix); null when it is neither.
  const DIFFICULTIES = { facil: 10, media: 15, dificil: 20, insolito: 25, imposible: 30 };
  function parseDifficulty(text) {
    const t = String(text).trim();
    if (/^[+-]?\d+$/.test(t)) return Number(t);
    const q = t.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
    if (!q) return null;
    if (q in DIFFICULTIES) return DIFFICULTIES[q];
    const names = Object.keys(DIFFICULTIES).filter((k) => k.startsWith(q));
    return names.length === 1 ? DIFFICULTIES[names[0]] : null;
  }

  // pathInputs compares a roll of a contest, an initiative or a healing
  // after a combat with its request (replay's pathRoll).
  function pathInputs(d, r, eq, str, num) {
    const k = r.rolled - 1;
    const nonces = taken(r.d);
    if (k >= nonces.length) return;
    eq("nonce", num(d.nonce), nonces[k]);
    const side = (char, skill, attr, mod, token, spec) => {
      eq("character", str(d.character), str(char));
      eq("skill", str(d.skill), str(skill));
      eq("kind", str(d.kind), str(skill) === "" ? "attribute" : "skill");
      if (str(attr) !== "") eq("attribute", str(d.attribute), attr);
      eq("modifier", num(d.modifier), num(mod));
      eq("token", !!d.token, !!token);
      eq("specialization", !!d.specialization, !!spec);
      eq("opposed", !!d.opposed, true);
    };
    if (r.d.kind === "contest") {
      if (k === 0) side(r.d.character, r.d.skill, r.d.attribute, r.d.modifier, r.d.token, r.d.specialization);
      else side(r.d.b, r.d.skill_b, r.d.attribute_b, r.d.modifier_b, r.d.token_b, r.d.specialization_b);
    } else if (r.d.kind === "initiative") {
      const who = (r.d.participants || [])[k];
      if (who !== undefined) {
        eq("character", str(d.character), who);
        eq("token", !!d.token, (r.d.tokens || []).includes(d.character));
      }
      eq("kind", str(d.kind), "initiative");
      eq("modifier", num(d.modifier), 0);
      eq("specialization", !!d.specialization, false);
    } else {
      eq("character", str(d.character), str(r.d.character));
      eq("kind", str(d.kind), "heal");
    }
  }

  // attackRoll compares a roll of an attack request with the request (the
  // attack roll takes the first nonce, the damage roll the second, only
  // after a hit) and keeps what the attack's consequences must be
  // (replay's attackRoll).
  function attackRoll(ev, d, r, s, damage, eq, diff, str, num, x) {
    const nonces = taken(r.d);
    eq("character", str(d.character), str(r.d.character));
    eq("target", str(d.target), str(r.d.target));
    eq("weapon", str(d.weapon), str(r.d.weapon));
    if (!damage) {
      if (s.attack) x.fault(ev.id, tr("v2.attackUnresolvedNext", s.attack.request, s.attack.attackID));
      eq("nonce", num(d.nonce), nonces[0]);
      eq("kind", str(d.kind), str(r.d.kind));
      eq("modifier", num(d.modifier), num(r.d.modifier));
      eq("token", !!d.token, !!r.d.token);
      eq("specialization", !!d.specialization, !!r.d.specialization);
      eq("range", str(d.range), str(r.d.range));
      eq("cover", !!d.cover, !!r.d.cover);
      const hit = d.outcome === "success" || d.outcome === "critical";
      s.attack = { request: d.request, attackID: ev.id, attacker: d.character, target: d.target, hit: hit, critical: hit && !!d.critical, total: d.total, damageID: "", damage: 0, taken: false };
      return;
    }
    eq("nonce", num(d.nonce), nonces[nonces.length - 1]);
    eq("kind", str(d.kind), "damage");
    const a = s.attack;
    if (!a || a.request !== d.request) diff.push(tr("v2.damageResolved"));
    else if (!a.hit) diff.push(tr("v2.damageMissed", a.attackID));
    else {
      eq("critical (the attack's)", !!d.critical, a.critical);
      a.damageID = ev.id;
      a.damage = d.total;
    }
  }

  // attackConsequence checks, in a v2 session, the damage an attack deals
  // and its resolution against what its recorded rolls say (replay's
  // attackConsequence): the mismatch is the consequence's.
  function attackConsequence(ev, d, s, x) {
    const a = s.attack;
    const no = (why) => x.fault(ev.id, why);
    if (ev.type === "journal.damage.taken.v1") {
      if (!a) return;
      if (!a.damageID) no(tr("v2.takenNoDamage", a.request));
      else if (a.taken) no(tr("v2.takenTwice", a.request));
      else if (d.character !== a.target || d.source !== a.attacker || d.amount !== a.damage) no(tr("v2.takenWrong", d.character, d.amount, d.source, a.target, a.damage, a.attacker));
      a.taken = true;
      return;
    }
    s.attack = null;
    if (!a || d.attack_roll !== a.attackID) return no(tr("v2.resolvedOther", String(d.attack_roll).slice(0, 40)));
    const diff = [];
    const eq = (what, got, want) => {
      if (canonical(got) !== canonical(want)) diff.push(what + ": " + JSON.stringify(got) + " ≠ " + JSON.stringify(want));
    };
    eq("attacker", d.attacker || "", a.attacker || "");
    eq("target", d.target || "", a.target || "");
    eq("hit", !!d.hit, a.hit);
    eq("critical", !!d.critical, a.critical);
    eq("total", d.total || 0, a.total || 0);
    eq("damage roll", d.damage_roll || "", a.damageID);
    eq("damage", d.damage || 0, a.damage);
    if (a.hit && !a.damageID) diff.push(tr("v2.hitNoDamage"));
    if (a.damage > 0 && !a.taken) diff.push(tr("v2.takesNone", a.target, a.damage));
    if (diff.length) {
      [a.attackID, a.damageID].filter((id) => id && x.rolls[id]).forEach((id) => x.mark(id, tr("v2.attack", diff.join("; "))));
      no(tr("v2.attack", diff.join("; ")));
    }
  }

  // The events of a journal-dice-v2 session's own (replay's isV2Type, but
  // the key registrations, which are the campaign's).
  const V2_SESSION_TYPES = new Set(["journal.session.contributed.v1", "journal.roll.requested.v1", "journal.roll.cancelled.v1", "journal.session.cosigned.v1", "journal.roll.witnessed.v1", "journal.roll.receipted.v1", "journal.roll.proved.v1"]);

  async function verifyV2(records, x) {
    const { rolls, bad, problem, flag, options } = x;
    const now = options.now ? Date.parse(options.now) : Date.now();
    const keys = {};
    const roles = {};
    const dv = newDevices(); // the campaign's devices (keys: their active keys by user)
    const ss = {};
    const chars = {};
    const torChars = {}; // The One Ring's sheets as created
    const v2rolls = {}; // roll id -> {session, roller}
    const consents = {};
    const voidedOf = {};
    let system = "ryf";
    let combat = null;
    let lastCombat = null;
    const rollOf = (id) => (rolls[id] ? id : null);
    // badOr: a consequence (ev) that does not follow from its rolls (ids)
    // is ev's mismatch, as replay names it, said on the rolls' cards.
    const badOr = (ids, why, ev) => {
      const known = ids.filter((id) => id && rolls[id]);
      known.forEach((id) => x.mark(id, why));
      if (known.length) x.fault(ev.id, why);
      else problem(ev.id, tr("v2.event", ev.id, why));
    };
    // Every contest's tie, the ties re-rolled and what a v2 contest's sides rolled.
    const contests = { tie: {}, rerolled: {}, sides: {} };
    for (let i = 0; i < records.length; i++) {
      const ev = records[i].event;
      if (!ev || typeof ev !== "object") continue;
      const d = ev.data || {};
      const t = Date.parse(ev.time);
      if (i > 0) {
        const prev = records[i - 1].event;
        if (prev.type === "journal.contest.resolved.v1") contests.tie[prev.id] = !!(prev.data || {}).tie;
      }
      switch (ev.type) {
        case "journal.campaign.created.v1":
          system = d.system || system;
          break;
        case "journal.participant.registered.v1":
        case "journal.device.registered.v1":
        case "journal.device.approved.v1":
        case "journal.device.revoked.v1":
          applyDevice(dv, keys, ev);
          if (d.role) roles[d.user] = d.role;
          break;
        case "journal.tor.character.created.v1":
          torChars[(ev.subject || "").replace(/^characters\//, "") || d.id] = d;
          break;
        case "journal.character.created.v1":
          chars[d.id || (ev.subject || "").replace(/^characters\//, "")] = { hp: d.max_hp || 0, max: d.max_hp || 0 };
          break;
        case "journal.damage.taken.v1":
          if (chars[d.character]) chars[d.character].hp -= d.amount || 0;
          if (combat) combat.damage[d.character] = (combat.damage[d.character] || 0) + (d.amount || 0);
          break;
        case "journal.combat.round.v1":
          if (combat) combat.round = d.round;
          break;
        case "journal.combat.ended.v1":
          if (combat) lastCombat = combat;
          combat = null;
          break;
        case "journal.event.voided.v1":
          if (d.event_id && !voidedOf[d.event_id]) voidedOf[d.event_id] = { by: ev.actor, event: ev.id, reason: d.reason || "" };
          break;
      }
      const s0 = ss[ev.session];
      if (ev.type === "journal.session.started.v1") {
        if (d.algorithm === "journal-dice-v2" && !ss[ev.session]) ss[ev.session] = { id: ev.session, campaign: ev.campaign, proved: [], startID: ev.id, starter: ev.actor, commitment: d.commitment, contributions: 0, independent: 0, requests: {}, order: [], cosigs: [], actions: {}, gmSource: {}, nonceAt: {}, ended: false, last: t, lastStamp: stamp(ev.time), lastID: ev.id, due: null, attack: null, torRolls: {}, anchors: [], gmRequests: 0 };
        continue;
      }
      if (s0) {
        const st = stamp(ev.time);
        if (st > s0.lastStamp) {
          s0.last = t;
          s0.lastStamp = st;
          s0.lastID = ev.id;
        }
      }
      if (ev.type === "journal.event.voided.v1" && (d.consent_user || d.consent_signed || d.consent_signature)) {
        const roll = v2rolls[d.event_id];
        const why = await consentProblem(ev, d, roll, keys);
        if (why) badOr([d.event_id], tr("v2.consent", why), ev);
        else consents[d.event_id] = d.consent_user;
        continue;
      }
      if (ev.type === "journal.combat.started.v1") {
        const due = s0 && s0.due;
        if (s0 && (!due || due.kind !== "initiative" || due.rolls.length !== due.need)) problem(ev.id, tr("v2.event", ev.id, tr("v2.noRolls", ev.type, "initiative")));
        else if (s0) {
          s0.due = null;
          const ids = {};
          const totals = {};
          due.rolls.forEach((r, k) => {
            ids[r.data.character] = due.ids[k];
            totals[r.data.character] = r.data.total;
          });
          const order = orderInitiative(due.rolls.map((r) => ({ id: r.data.character, total: r.data.total, d: r.data.attribute_value || 0, p: r.data.attribute2_value || 0 })));
          const diff = [];
          if (canonical(d.order || []) !== canonical(order)) diff.push(tr("v2.order", (d.order || []).join(" "), order.join(" ")));
          if (canonical(d.totals || {}) !== canonical(totals)) diff.push(tr("v2.totals", canonical(d.totals || {}), canonical(totals)));
          if (canonical(d.initiative || {}) !== canonical(ids)) diff.push(tr("v2.initRolls"));
          if (diff.length) badOr(due.ids, diff.join("; "), ev);
        }
        combat = { id: ev.id, round: 1, damage: {} };
        continue;
      }
      // replay's v2Event: a journal-dice-v2 event of a session that is no
      // journal-dice-v2 session started before it (its start dropped).
      if (!s0 && ev.session && V2_SESSION_TYPES.has(ev.type)) problem(ev.id, tr("v2.event", ev.id, ev.type + " outside a journal-dice-v2 session"));
      if (!s0) continue;
      const s = s0;
      if (ev.type === "journal.damage.taken.v1" || ev.type === "journal.attack.resolved.v1") attackConsequence(ev, d, s, x);
      if (ev.type === "journal.tor.madness.begun.v1") {
        // A bout of madness names a v2 roll of the session just made that
        // shows the Eye (Hope and Shadow are the sheet's: not re-derived here).
        const roll = x.byID[d.roll];
        if (!s.torRolls[d.roll]) problem(ev.id, tr("v2.event", ev.id, tr("v2.madnessRoll", d.character, String(d.roll).slice(0, 40))));
        else if (!roll || ((roll.data || {}).faces || [])[0] !== 11) problem(ev.id, tr("v2.event", ev.id, tr("v2.madnessNoEye", d.roll)));
      }
      switch (ev.type) {
        case "journal.session.contributed.v1":
          if (x.unsigned.has(ev.id)) break; // verifyEvents says why
          if (s.order.length) problem(ev.id, tr("v2.event", ev.id, tr("v2.lateContribution")));
          else {
            s.contributions++;
            // replay's countsAsPlayers: a contribution counts toward the
            // key's independence from the GM unless its user is the GM (a
            // user registered with the role gm at this point of the
            // stream, or the session's starter).
            if (d.user !== s.starter && roles[d.user] !== "gm") {
              s.independent++;
              // replay's addAnchor: the device's witness chain, the first per user.
              if (d.witness_anchor && !s.anchors.some((a) => a.user === d.user)) s.anchors.push({ user: d.user, anchor: d.witness_anchor });
            }
          }
          break;
        case "journal.session.ended.v1": {
          if (s.ended) break;
          s.ended = true;
          s.endID = ev.id;
          if (typeof records[i].line === "string") {
            s.endHash = await sha256Hex(records[i].line);
            s.endFrom = "line";
          } else {
            const next = records.slice(i + 1).find((r) => r.event && r.event.prevhash !== undefined);
            s.endHash = next && records.indexOf(next) === i + 1 ? next.event.prevhash : undefined;
            s.endFrom = "prevhash";
          }
          break;
        }
        case "journal.session.cosigned.v1": {
          const why = await cosignProblem(ev, d, s, keys);
          if (why) problem(ev.id, tr("v2.event", ev.id, tr("v2.cosign", why)));
          else s.cosigs.push({ user: d.user, role: roles[d.user], event: ev.id });
          break;
        }
        case "journal.roll.witnessed.v1": {
          const why = await witnessedProblem(ev, d, s, keys);
          if (why) problem(ev.id, tr("v2.event", ev.id, why));
          else s.requests[d.request].witnessed.push({ user: d.user, value: d.value });
          break;
        }
        case "journal.roll.receipted.v1": {
          const r = s.requests[d.request];
          if (!r || !r.d.beacon_round) {
            problem(ev.id, tr("v2.event", ev.id, tr("v2.receiptRequest", d.request)));
            break;
          }
          const sg = await signedBy(ev, d, keys);
          if (sg.why) problem(ev.id, tr("v2.event", ev.id, sg.why));
          else if (sg.message.type !== "beacon.receipt" || sg.message.request !== d.request) problem(ev.id, tr("v2.event", ev.id, tr("v2.receiptFields")));
          else if (d.user !== s.starter && roles[d.user] !== "gm" && global.JournalBeacon && stamp(ev.time) < BigInt(global.JournalBeacon.timeOf(r.d.beacon_round)) * 1000000000n) r.receipted = true;
          break;
        }
        case "journal.roll.proved.v1":
          await provedEvent(ev, d, s, keys, (why) => problem(ev.id, tr("v2.event", ev.id, why)));
          break;
        case "journal.roll.cancelled.v1": {
          const r = s.requests[d.request];
          if (!r || r.state !== "pending" || r.d.nonce !== d.nonce) problem(ev.id, tr("v2.event", ev.id, tr("v2.badCancel", d.request)));
          else {
            r.state = "cancelled";
            r.cancelledBy = ev.actor;
            r.cancelID = ev.id;
            flag("cancelled", ev.id, tr("v2.f.cancelled", d.request, d.nonce, ev.id, d.reason || ""));
          }
          break;
        }
        case "journal.roll.requested.v1": {
          // replay's checkRequest, in its order: a request that fails is
          // not recorded (its roll answers no request); past the nonces'
          // check it has taken its nonces.
          const fail = (why) => problem(ev.id, tr("v2.event", ev.id, why));
          if (x.unsigned.has(ev.id)) break; // verifyEvents says why
          const a = signedAction(d);
          let msg = null;
          try {
            msg = global.JournalSigned.parse(d.signed);
          } catch (e) {
            msg = null;
          }
          const diff = requestDiff(d, a, s.commitment, system);
          if (msg && (msg.commitment || "") !== (d.commitment || "")) diff.push("commitment");
          if (msg && String(msg.beacon_round || 0) !== String(d.beacon_round || 0)) diff.push("beacon_round");
          if (msg && msg.wait && String(msg.wait) !== String(d.wait || 0)) diff.push("wait"); // the GM's signed wait (none: an older device)
          if (diff.length) {
            fail(tr("v2.fields", diff.join("; ")));
            break;
          }
          if (s.requests[d.request]) {
            fail(tr("v2.replayed", d.request));
            break;
          }
          // The nonces it takes: its own, the next for an attack's damage,
          // one a side or participant of a contest or an initiative.
          const want = [d.nonce];
          if (d.target) want.push(d.nonce + 1);
          const paths = d.kind === "contest" ? 2 : d.kind === "initiative" ? (d.participants || []).length : d.kind === "heal" ? 1 : 0;
          for (let k = 1; k < paths; k++) want.push(d.nonce + k);
          if (canonical(taken(d)) !== canonical(want)) {
            fail(tr("v2.nonces", taken(d).join(" "), want.join(" ")));
            break;
          }
          const twice = want.find((n) => n in s.nonceAt);
          if (twice !== undefined) {
            fail(tr("v.nonceTwice", twice));
            break;
          }
          for (const n of want) s.nonceAt[n] = ev.id;
          const gm = roles[d.user] === "gm";
          let why = "";
          if (gm && d.commitment) why = tr("v2.gmCommitment", d.user);
          else if (!gm && !d.commitment) why = tr("v2.noCommitment", d.user);
          else if (!gm && (d.wait || d.beacon_round)) why = tr("v2.playerWait");
          else if (gm && !(d.wait > 0)) why = tr("v2.noWait");
          else if (gm && d.beacon_round && global.JournalBeacon && !(Number(d.beacon_round) > global.JournalBeacon.roundAt(Math.floor(t / 1000)))) why = tr("v2.beaconKnown", d.beacon_round);
          else if (gm && d.beacon_round && s.anchors.length && global.JournalBeacon && BigInt(global.JournalBeacon.timeOf(d.beacon_round)) * 1000000000n < stamp(ev.time) + 60000000000n) why = tr("v2.beaconTooSoon", d.beacon_round);
          else if (gm) {
            // replay's checkWitnessIndex: the session's GM requests so far
            // in a session of witness chains, 0 in another.
            if (s.anchors.length) s.gmRequests++;
            const want = s.anchors.length ? s.gmRequests : 0;
            if ((d.witness_index || 0) !== want) why = tr("v2.witnessIndex", d.witness_index || 0, want);
          }
          if (why) {
            fail(why);
            break;
          }
          // Repeated: the same action by the same user after the first was revealed.
          if (a) {
            const key = d.user + "|" + (combat ? combat.id + "/" + combat.round : "") + "|" + canonical(a);
            const earlier = s.actions[key] || [];
            s.actions[key] = earlier.concat([d.request]);
            const prev = earlier.map((id) => s.requests[id]).find((r) => r && r.state === "made");
            if (prev) flag("repeated", ev.id, tr("v2.f.repeated", d.request, ev.id, d.user, prev.d.request, prev.ev.id));
          }
          s.requests[d.request] = { ev: ev, d: d, state: "pending", rolled: 0, witnessed: [], receipted: false, key: keys[d.user] || [], fingerprint: deviceFingerprints(dv, d.user) };
          s.order.push(d.request);
          break;
        }
        case "journal.roll.hidden.v1": {
          // replay's hiddenEvent: a v2 secret roll answers a pending secret request.
          const r = s.requests[d.request];
          const why = !r ? tr("v.hiddenUnknownRequest") : !r.d.secret ? tr("v.hiddenNotSecret") : r.state !== "pending" || r.hidden ? tr("v.hiddenNotPending", r.state) : "";
          if (why) problem(ev.id, tr("v.hiddenRequest", d.request, why));
          else r.hidden = ev.id;
          break;
        }
        case "journal.roll.made.v1": {
          const r = s.requests[d.request];
          if (d.witness !== "chain" && (d.witness_index || (Array.isArray(d.witnesses) && d.witnesses.length))) {
            bad(ev.id, tr("v2.chainFieldsAlone", d.witness));
            break;
          }
          if (!r) {
            bad(ev.id, d.request ? tr("v.noRequest", d.request) : tr("v2.noRequestID"));
            break;
          }
          if ((r.hidden || d.hidden) && (d.hidden || "") !== (r.hidden || "")) {
            bad(ev.id, tr("v.hiddenMissing", d.request, r.hidden || ""));
            break;
          }
          const multi = r.d.target || PATH_COMMANDS[r.d.kind];
          const more = r.state === "made" && multi && r.rolled < taken(r.d).length;
          if (r.state !== "pending" && !more) {
            bad(ev.id, tr("v2.already", d.request, r.state));
            break;
          }
          if (r.d.commitment && d.user !== r.d.user) {
            bad(ev.id, tr("v2.revealedBy", d.user, r.d.user));
            break;
          }
          r.state = "made";
          if (!r.made) r.made = ev.id;
          r.rolled++;
          v2rolls[ev.id] = { session: s, roller: r.d.user, nonce: d.nonce };
          // Where r came from; a roll whose r does not hold is checked no
          // further (replay's rollV2 returns there).
          const sourced = r.d.commitment ? await revealSource(ev, d, r, x, keys) : await gmSource(ev, d, r, s, more, x, keys, roles, dv, flag);
          if (!sourced) break;
          // The roll is the one requested (replay's rollInputs, attackRoll,
          // torRoll, pathRoll), and draws the dice the rules roll.
          const diff = [];
          const eq = (what, got, want) => {
            if (canonical(got) !== canonical(want)) diff.push(tr("v2.rolledRequested", what, JSON.stringify(got), JSON.stringify(want)));
          };
          const str = (v) => (v === undefined || v === null ? "" : v);
          const num = (v) => (v === undefined || v === null ? 0 : v);
          if (r.d.kind === "free") {
            eq("nonce", num(d.nonce), num(r.d.nonce));
            eq("character", str(d.character), str(r.d.character));
            eq("kind", str(d.kind), str(r.d.kind));
            eq("dice", str(d.dice), str(r.d.dice));
            eq("note", str(d.note), str(r.d.note));
          } else if (r.d.target) attackRoll(ev, d, r, s, more, eq, diff, str, num, x);
          else if (PATH_COMMANDS[r.d.kind]) pathInputs(d, r, eq, str, num);
          else if (system === "tor") {
            eq("nonce", num(d.nonce), num(r.d.nonce));
            eq("character", str(d.character), str(r.d.character));
            eq("kind", str(d.kind), "tor");
            eq("skill", str(d.skill), str(r.d.skill));
            eq("tn", num(d.tn), num(r.d.tn));
            eq("trait", str(d.trait), str(r.d.trait));
            s.torRolls[ev.id] = true;
          } else {
            eq("nonce", num(d.nonce), num(r.d.nonce));
            eq("character", str(d.character), str(r.d.character));
            eq("kind", str(d.kind), str(r.d.kind));
            eq("skill", str(d.skill), str(r.d.skill));
            eq("modifier", num(d.modifier), num(r.d.modifier));
            eq("token", !!d.token, !!r.d.token);
            eq("specialization", !!d.specialization, !!r.d.specialization);
            if (str(r.d.attribute).length === 1) eq("attribute", str(d.attribute), r.d.attribute);
            if (r.d.vs) {
              const want = parseDifficulty(r.d.vs);
              if (want === null) diff.push(tr("v2.badVs", r.d.vs));
              else eq("difficulty", d.difficulty === undefined ? null : d.difficulty, want);
            } else if (d.difficulty !== undefined && d.difficulty !== null) eq("difficulty", d.difficulty, null);
          }
          if (diff.length) bad(ev.id, tr("v2.notRequested", diff.join("; ")));
          else {
            let sides = null;
            try {
              sides = global.JournalDice.sidesOf(d);
            } catch (e) {
              sides = null;
            }
            if (sides && canonical(sides) !== canonical(d.draws || [])) bad(ev.id, tr("v2.draws", (d.draws || []).join(" "), sides.join(" ")));
          }
          if (PATH_COMMANDS[r.d.kind]) {
            const k = r.rolled - 1;
            if (k === 0) {
              if (s.due) problem(s.due.ids[0], tr("v2.event", s.due.ids[0], tr("v2.noConsequence", s.due.kind)));
              s.due = { kind: r.d.kind, request: r.d.request, d: r.d, need: taken(r.d).length, ids: [], rolls: [] };
            }
            const due = s.due;
            if (!due || due.request !== r.d.request) {
              bad(ev.id, tr("v2.consequenceDone"));
              break;
            }
            if (d.nonce !== taken(r.d)[k]) bad(ev.id, tr("v2.wrongNonce", d.nonce, taken(r.d)[k]));
            const want = r.d.kind === "contest" ? (k === 0 ? r.d.character : r.d.b) : r.d.kind === "initiative" ? (r.d.participants || [])[k] : r.d.character;
            if (d.character !== want) bad(ev.id, tr("v2.wrongCharacter", d.character, want));
            if (r.d.kind === "heal") {
              const ch = chars[d.character];
              const tk = lastCombat ? lastCombat.damage[d.character] || 0 : 0;
              due.heal = ch ? Math.min(d.total, tk, Math.max(ch.max - ch.hp, 0)) : d.total;
            }
            due.ids.push(ev.id);
            due.rolls.push(ev);
          }
          break;
        }
        case "journal.contest.resolved.v1": {
          const due = s.due;
          if (!due || due.kind !== "contest" || due.rolls.length !== due.need) {
            problem(ev.id, tr("v2.event", ev.id, tr("v2.noRolls", ev.type, "contest")));
            break;
          }
          s.due = null;
          const [w, reason] = contestVerdict(due.rolls[0].data, due.rolls[1].data);
          const winner = w === 1 ? due.d.character : w === 2 ? due.d.b : "";
          const diff = [];
          if ((d.winner || "") !== winner) diff.push(tr("v.winner", winner || tr("f.tie"), d.winner || tr("f.tie")));
          if (!!d.tie !== (w === 0)) diff.push("tie");
          if ((d.reason || "") !== reason) diff.push("reason: " + d.reason + " ≠ " + reason);
          if (d.roll_a !== due.ids[0] || d.roll_b !== due.ids[1]) diff.push("roll_a, roll_b");
          if (d.a !== due.d.character || d.b !== due.d.b) diff.push("a, b");
          if ((d.rematch || "") !== (due.d.rematch || "")) diff.push("rematch");
          // A re-roll is of a tie recorded before, not re-rolled before,
          // each character rolling what it rolled in it (replay's rematchDiff).
          const sides = {};
          for (const r of due.rolls) sides[r.data.character] = r.data.skill ? r.data.skill + " (" + r.data.attribute + ")" : "the attribute " + r.data.attribute;
          if (d.rematch) {
            const target = d.rematch;
            const known = target !== ev.id && Object.prototype.hasOwnProperty.call(contests.tie, target);
            if (!known) diff.push(tr("v2.rematchUnknown", String(target).slice(0, 40)));
            else if (!contests.tie[target]) diff.push(tr("v2.rematchNoTie", target));
            else if (contests.rerolled[target] && contests.rerolled[target] !== ev.id) diff.push(tr("v2.rematchTwice", target, contests.rerolled[target]));
            else if (contests.sides[target]) {
              for (const ch of Object.keys(sides).sort()) {
                const was = contests.sides[target][ch];
                if (was === undefined) diff.push(tr("v2.rematchNotIn", target, ch));
                else if (was !== sides[ch]) diff.push(tr("v2.rematchSame", ch, was, target, sides[ch]));
              }
            }
            if (!contests.rerolled[target]) contests.rerolled[target] = ev.id;
          }
          contests.sides[ev.id] = sides;
          if (diff.length) badOr(due.ids, diff.join("; "), ev);
          break;
        }
        case "journal.healed.v1": {
          if (d.reason !== "after_combat") break;
          const due = s.due;
          if (!due || due.kind !== "heal" || due.rolls.length !== due.need) {
            problem(ev.id, tr("v2.event", ev.id, tr("v2.noRolls", ev.type, "heal")));
            break;
          }
          s.due = null;
          if (d.character !== due.d.character || d.amount !== due.heal) badOr(due.ids, tr("v2.heal", d.amount, due.heal, due.rolls[0].data.total), ev);
          break;
        }
        case "journal.tor.hope.spent.v1": {
          if (!d.signed) {
            problem(ev.id, tr("v2.event", ev.id, tr("v2.hopeUnsigned")));
            break;
          }
          const sg = await global.JournalSigned.verifyEvent(ev, keys).catch((e) => ({ status: "mismatch", reason: e.message }));
          if (sg.status !== "verified") {
            problem(ev.id, tr("v.signatureOf", ev.id, sg.reason));
            break;
          }
          const a = signedAction(d) || {};
          const q = s.requests[d.roll_request];
          const roll = x.byID[d.roll];
          const diff = [];
          if (a.command !== "tor-hope" || a.seed_commitment !== s.commitment || a.character !== d.character || a.roll_request !== d.roll_request) diff.push(tr("v2.fields", "action"));
          if (!q || q.state !== "made" || !roll || (roll.data || {}).request !== d.roll_request) diff.push(tr("v2.hopeRoll", d.roll_request));
          else if (q.d.user !== d.user) diff.push(tr("v2.hopeRoller", d.user, q.d.user));
          else if ((roll.data || {}).character !== d.character) diff.push(tr("v2.hopeRoll", d.roll_request)); // replay's: not the character's latest roll
          else if ((roll.data || {}).outcome === "success") diff.push(tr("v2.hopeSucceeded")); // tor.SpendHope: Hope on a failed roll only
          else {
            const rd = roll.data || {};
            // The bonus is the sheet's: the skill's attribute column, its
            // favoured value when the skill is favoured (tor.HopeBonus).
            const sheet = torChars[d.character];
            const col = { Cuerpo: "cuerpo", "Corazón": "corazon", Mente: "mente" }[rd.attribute];
            if (sheet && col) {
              const fav = !!((sheet.skills || {})[rd.skill] || {}).favoured;
              const score = (sheet.attributes || {})[col] || {};
              const bonus = fav ? score.favoured : score.basic;
              if (d.bonus !== bonus) diff.push(tr("v2.hopeBonus", d.bonus, bonus));
              if (!!d.favoured !== fav) diff.push("favoured");
            }
            const total = (rd.total || 0) + (d.bonus || 0);
            const feat = (rd.faces || [])[0];
            const ok = feat === 12 || total >= (d.tn || rd.tn);
            const sixes = (rd.faces || []).slice(1).filter((f) => f === 6).length;
            if (d.total !== total) diff.push(tr("v.total", total, d.total));
            if (d.outcome !== (ok ? "success" : "failure")) diff.push(tr("v.outcome", tr("o." + (ok ? "success" : "failure")), tr("o." + d.outcome)));
            if (ok && (d.quality || "success") !== (sixes === 0 ? "success" : sixes === 1 ? "great" : "extraordinary")) diff.push(tr("v.quality", "", d.quality));
          }
          if (diff.length) badOr([d.roll], tr("v2.hope", diff.join("; ")), ev);
          break;
        }
      }
      if (ev.type === "journal.healed.v1" && chars[d.character]) chars[d.character].hp = Math.min(chars[d.character].hp + (d.amount || 0), chars[d.character].max);
    }
    // Proof files (replay's --proof) against the sessions they name.
    const proofs = (options.proofs || []).map((pf) => {
      const s = ss[pf.proof.session];
      if (!s || s.campaign !== pf.proof.campaign) return { file: pf.name, request: pf.proof.request, status: "bad", what: tr("v2.proof.no_session", pf.proof.session, pf.proof.campaign) };
      return null;
    });
    for (let k = 0; k < proofs.length; k++) if (!proofs[k]) proofs[k] = await proofFile(options.proofs[k], ss[options.proofs[k].proof.session]);
    // The flags of every v2 session, and what is due at the end.
    for (const s of Object.values(ss)) {
      await provedFlags(s, x, flag);
      if (s.contributions === 0) flag("no-contribution", s.startID, tr("v2.f.noContribution"));
      else if (s.independent === 0) flag("no-contribution", s.startID, tr("v2.f.gmContributionOnly", s.contributions));
      for (const id of s.order) {
        const r = s.requests[id];
        if (r.state === "pending") flag("unrevealed", r.ev.id, tr("v2.f.unrevealed", id, r.d.nonce, r.ev.id));
      }
      if (s.due) problem(s.due.ids[0], tr("v2.event", s.due.ids[0], tr("v2.noConsequence", s.due.kind)));
      if (s.attack) x.fault(s.attack.attackID, tr("v2.attackUnresolved", s.attack.request, s.attack.attackID));
      if (s.ended) {
        if (!s.cosigs.some((c) => c.role === "player")) flag("not-cosigned", s.endID, tr("v2.f.notCosigned", s.endID));
      } else if (now - s.last > STALE_MS) {
        flag("stale", s.lastID, tr("v2.f.stale", rfc3339(s.last), Math.floor((now - s.last) / 86400000)));
      } else {
        // Not ended yet, or an export cut before its end (replay's open).
        flag("open", s.lastID, tr("v2.f.open", rfc3339(s.last), Math.max(Math.floor((now - s.last) / 86400000), 0)));
      }
    }
    for (const [id, r] of Object.entries(v2rolls)) {
      const v = voidedOf[id] && Object.assign({ nonce: r.nonce }, voidedOf[id]);
      if (!v) continue;
      flag("voided", id, consents[id] ? tr("v2.f.voidedConsented", id, v.nonce, v.event, v.reason, consents[id]) : tr("v2.f.voided", id, v.nonce, v.event, v.reason));
    }
    // What the nonces' check needs: the nonces each accepted request took,
    // and those consumed without a roll (cancelled, unrevealed).
    for (const s of Object.values(ss)) s.consumed = Object.values(s.requests).reduce((n, r) => n + taken(r.d).length - r.rolled, 0);
    return { sessions: ss, proofs: proofs };
  }

  // ensureNoble loads vendor/noble-curves.js (BLS12-381, for beacon.js)
  // on a page that did not: the dashboard and the permalink load it only
  // when a beacon roll is verified; the offline verifier inlines it.
  let noble = null;
  function ensureNoble() {
    if (global.JournalNoble || typeof document === "undefined") return Promise.resolve();
    noble = noble || new Promise(/** @param {(v?: unknown) => void} resolve */ (resolve, reject) => {
      const s = document.createElement("script");
      s.src = "/static/vendor/noble-curves.js";
      s.onload = () => resolve();
      s.onerror = () => {
        noble = null;
        reject(new Error(tr("v2.noNoble")));
      };
      document.head.append(s);
    });
    return noble;
  }

  // --- Devices hold keys, not users (docs/design.md §3.3; replay/v2_devices.go) ---
  // A campaign's devices by user, in registration order, folded as
  // projections/devices.go folds them; keys[user] is the user's active
  // keys, newest first (what a message of the user opens under).
  function newDevices() {
    return { users: {}, order: [] };
  }
  function devicesOf(dv, user) {
    if (!dv.users[user]) {
      dv.users[user] = { role: "", devices: [] };
      dv.order.push(user);
    }
    return dv.users[user];
  }
  function activeKeys(dv, user) {
    const u = dv.users[user];
    if (!u) return [];
    return u.devices.filter((d) => !d.revoked).map((d) => d.pub).reverse();
  }
  // byOther is who registered every active device of user when that is
  // someone other than user, else "" (replay's registeredByOther).
  function byOther(dv, user) {
    const u = dv.users[user];
    let by = "";
    for (const d of u ? u.devices.filter((x) => !x.revoked) : []) {
      if (!d.by || d.by === user) return "";
      by = d.by;
    }
    return by;
  }
  // deviceFingerprints names a user's active devices, for messages.
  function deviceFingerprints(dv, user) {
    const u = dv.users[user];
    return u ? u.devices.filter((d) => !d.revoked).map((d) => d.fp).join(", ") : "";
  }
  function deviceOwner(dv, pub) {
    for (const u of dv.order) if (dv.users[u].devices.some((d) => d.pub === pub)) return u;
    return "";
  }
  function deviceByKey(dv, user, pub) {
    const u = dv.users[user];
    return u ? u.devices.find((d) => d.pub === pub) : undefined;
  }
  // checkDevice checks a device event against dv, the state before it
  // (replay's deviceEvent): what does not hold is the event's mismatch.
  async function checkDevice(dv, ev, problem) {
    const d = ev.data || {};
    const S = global.JournalSigned;
    const bad = (why) => problem(ev.id, tr("v2.event", ev.id, why));
    const fpOK = async () => {
      try {
        return (await S.fingerprint(d.public_key)) === d.fingerprint;
      } catch (e) {
        return false;
      }
    };
    if (ev.type === "journal.device.registered.v1") {
      try {
        S.publicKeyBytes(d.public_key);
      } catch (e) {
        return bad(e.message);
      }
      if (!(await fpOK())) return bad("fingerprint " + d.fingerprint + " is not the key's");
      if (d.role !== "player" && d.role !== "gm") return bad("role " + JSON.stringify(d.role));
      if (d.by !== ev.actor) return bad("by " + JSON.stringify(d.by) + " is not the event's actor " + JSON.stringify(ev.actor));
      if (deviceOwner(dv, d.public_key)) return bad("key " + d.fingerprint + " is registered a second time");
      if (!d.signed && !d.signature) return d.by === d.user ? bad("a device of " + d.user + "'s own registered without its device.register") : undefined;
      let m;
      try {
        m = S.parse(d.signed);
        if (m.type !== "device.register") throw new Error("a " + m.type + ", not a device.register");
        m = await S.open(m.public_key, d.signed, d.signature, ev.campaign, "");
      } catch (e) {
        return bad("the device.register does not hold under the key it registers: " + e.message);
      }
      if (m.user !== d.user || m.role !== d.role || m.name !== (d.name || "") || m.public_key !== d.public_key) bad("the registration is not its signed device.register");
      return;
    }
    const u = dv.users[d.user];
    const target = deviceByKey(dv, d.user, d.public_key);
    if (!target || target.revoked || target.fp !== d.fingerprint) return bad("no active device " + d.fingerprint + " of " + d.user + " at this point");
    const active = u.devices.filter((x) => !x.revoked);
    if (ev.type === "journal.device.approved.v1") {
      let m;
      try {
        m = (await S.openAny(active.filter((x) => x.pub !== d.public_key).map((x) => x.pub).reverse(), d.signed, d.signature, ev.campaign, "")).message;
      } catch (e) {
        return bad("the approval is not signed by another active device of " + d.user + ": " + e.message);
      }
      if (m.type !== "device.approve" || m.user !== d.user || m.public_key !== d.public_key) bad("the approval is not its signed device.approve");
      return;
    }
    if (!d.signed && !d.signature) return d.by === d.user ? bad(d.user + " revokes its own device without signing it") : undefined;
    let m;
    try {
      m = (await S.openAny(active.map((x) => x.pub).reverse(), d.signed, d.signature, ev.campaign, "")).message;
    } catch (e) {
      return bad("the revocation is not signed by an active device of " + d.user + ": " + e.message);
    }
    if (m.type !== "device.revoke" || m.user !== d.user || m.public_key !== d.public_key || m.reason !== (d.reason || "")) bad("the revocation is not its signed device.revoke");
  }
  // applyDevice folds a device event, or a legacy registration, into dv
  // and keys; false for any other event.
  function applyDevice(dv, keys, ev) {
    const d = ev.data || {};
    switch (ev.type) {
      case "journal.participant.registered.v1": {
        const u = devicesOf(dv, d.user);
        if (d.role) u.role = d.role;
        for (const x of u.devices) if (!x.revoked) Object.assign(x, { revoked: true, revokedBy: ev.actor, replaced: true });
        u.devices.push({ pub: d.public_key, fp: d.fingerprint, by: ev.actor, event: ev.id, legacy: true, proved: false });
        break;
      }
      case "journal.device.registered.v1": {
        const u = devicesOf(dv, d.user);
        if (d.role) u.role = d.role;
        const needs = u.devices.some((x) => !x.revoked);
        u.devices.push({ pub: d.public_key, fp: d.fingerprint, name: d.name || "", by: d.by, event: ev.id, proved: !!d.signed, needsApproval: needs });
        break;
      }
      case "journal.device.approved.v1":
        for (const x of (dv.users[d.user] || { devices: [] }).devices) if (x.pub === d.public_key) x.approved = true;
        break;
      case "journal.device.revoked.v1":
        for (const x of (dv.users[d.user] || { devices: [] }).devices) if (x.pub === d.public_key && !x.revoked) Object.assign(x, { revoked: true, revokedBy: d.by, reason: d.reason || "" });
        break;
      default:
        return false;
    }
    if (d.user !== undefined) keys[d.user] = activeKeys(dv, d.user);
    return true;
  }
  // deviceFlags flags every device as replay's campaignDevices does, and
  // returns the audit's list of devices (users in name order, devices in
  // registration order).
  function deviceFlags(dv, flag) {
    const list = [];
    for (const user of [...dv.order].sort()) {
      const u = dv.users[user];
      for (const x of u.devices) {
        list.push({ user: user, role: u.role, name: x.name || "", fingerprint: x.fp, by: x.by, proved: !!x.proved, approved: !!x.approved, revoked: !!x.revoked, revokedBy: x.revokedBy || "" });
        if (x.by !== user) flag("key-by-other", x.event, tr("v2.f.keyByOther", x.event, x.by, u.role, x.fp, user));
        else if (x.needsApproval && !x.approved) flag("key-by-other", x.event, tr("v2.f.deviceUnapproved", x.event, user, x.fp));
        if (x.legacy) flag("key-unproved", x.event, tr("v2.f.keyUnproved", x.event, user, x.fp));
        if (x.revoked && x.revokedBy !== user && !x.replaced) flag("revoked-by-other", x.event, tr("v2.f.revokedByOther", user, x.fp, x.revokedBy));
      }
    }
    return list;
  }

  // gmSource checks where a GM request's roll took r from (replay's gmRollR).
  async function gmSource(ev, d, r, s, damage, x, keys, roles, dv, flag) {
    const no = (why) => {
      x.bad(ev.id, why);
      return false;
    };
    // The damage roll of a witnessed attack records the same r, from the
    // same source (its device's message and signature too), as the attack's.
    const src = [d.witness, d.reveal, d.signed, d.signature, d.beacon_signature].join("|");
    if (!/^[0-9a-f]{64}$/.test(String(d.reveal))) return no(tr("v2.badR"));
    if (damage) {
      return s.gmSource[d.request] !== src ? no(tr("v2.damageSource", d.witness)) : true;
    }
    s.gmSource[d.request] = src;
    const chained = s.anchors.length > 0;
    if (d.witness === "chain" && !chained) return no(tr("v2.chainNone"));
    if (chained && d.witness === "none" && r.witnessed.length > 0) return no(tr("v2.chainLeftOut", r.witnessed.length, d.request));
    if (chained && d.witness !== "chain" && d.witness !== "none" && d.witness !== "beacon") return no(tr("v2.chainWitness", d.witness));
    if (d.witness === "chain") return chainSource(ev, d, r, s, roles, dv, flag, no);
    if (!d.witness) return no(tr("v2.gmReveal", r.d.user));
    if (d.witness === "beacon") {
      if (!r.d.beacon_round) return no(tr("v2.noBeaconRound", d.request));
      if (String(d.beacon_round) !== String(r.d.beacon_round)) return no(tr("v2.beaconRound", d.beacon_round, r.d.beacon_round));
      if (d.signed || d.signature) return no(tr("v2.beaconSigned"));
      const B = global.JournalBeacon;
      let rand;
      try {
        await ensureNoble();
        rand = await B.verify(r.d.beacon_round, d.beacon_signature);
      } catch (e) {
        return no(tr("v2.beaconBad", r.d.beacon_round, e.message));
      }
      if (rand !== d.reveal) return no(tr("v2.beaconR", r.d.beacon_round));
      // replay's beaconR: a beacon roll no player's device receipted before its round.
      if (!r.receipted) flag("beacon-unseen", r.ev.id, tr("v2.f.beaconUnseen", d.request, r.ev.id, d.beacon_round));
      return true;
    }
    if (d.witness === "none") {
      if (d.signed || d.signature || d.beacon_signature) return no(tr("v2.noneSigned"));
      if (roles[ev.actor] !== "gm" && !(ev.actor === "gm" && roles.gm === undefined)) return no(tr("v2.noneByPlayer", ev.actor));
      let from = Date.parse(r.ev.time);
      if (r.d.beacon_round && global.JournalBeacon) from = Math.max(from, global.JournalBeacon.timeOf(r.d.beacon_round) * 1000);
      if (Date.parse(ev.time) < from + (r.d.wait || 0) * 1000) return no(tr("v2.noneEarly"));
      flag("unwitnessed", ev.id, tr("v2.f.unwitnessed", d.request, d.nonce, ev.id));
      return true;
    }
    if (d.witness !== d.user) return no(tr("v2.witnessNotSigner", d.witness, d.user));
    if (d.user === r.d.user) return no(tr("v2.witnessRequester", d.user));
    if (roles[d.user] === "gm") return no(tr("v2.witnessGM", d.user));
    if (d.beacon_signature || d.beacon_round) return no(tr("v2.witnessBeacon"));
    let m, used;
    try {
      ({ message: m, pub: used } = await global.JournalSigned.openAny(keys[d.user], d.signed, d.signature, ev.campaign, ev.session));
    } catch (e) {
      return no(tr("v.signature", e.message));
    }
    if (m.type !== "roll.witness") return no(tr("v2.notA", m.type, "roll.witness"));
    if (m.request !== d.request || m.value !== d.reveal) return no(tr("v2.witnessFields"));
    let q = null;
    try {
      q = global.JournalSigned.parse(r.d.signed);
    } catch (e) {
      q = null;
    }
    if (!q || q.request !== m.request || q.campaign !== m.campaign || q.session !== m.session || q.commitment) return no(tr("v2.witnessRequest"));
    const by = (deviceByKey(dv, d.user, used) || {}).by;
    if (by && by !== d.user) flag("witness-key-by-other", ev.id, tr("v2.f.witnessKeyByOther", d.request, ev.id, d.user, by));
    if (r.d.beacon_round) flag("beacon-not-used", ev.id, tr("v2.f.beaconNotUsed", d.request, r.ev.id, r.d.beacon_round, d.user, ev.id));
    return true;
  }

  // signedBy opens an event's device message as replay's open does: the
  // user's registered key, the event issued by that user, the signature
  // and scope. It resolves to {message} or {why}.
  async function signedBy(ev, d, keys) {
    if (!(keys[d.user] || []).length) return { why: tr("v.signature", tr("v2.noKey", d.user)) };
    if (ev.actor !== d.user) return { why: tr("v.signature", tr("v.actor", ev.actor, d.user)) };
    try {
      return await global.JournalSigned.openAny(keys[d.user], d.signed, d.signature, ev.campaign, ev.session); // any active device of the user
    } catch (e) {
      return { why: tr("v.signature", e.message) };
    }
  }

  // witnessedProblem says what is wrong with a recorded chain witness
  // (replay's witnessedEvent; "": nothing).
  async function witnessedProblem(ev, d, s, keys) {
    const r = s.requests[d.request];
    const k = s.anchors.findIndex((a) => a.user === d.user);
    if (!r) return tr("v2.witnessedUnknown", d.request);
    if (!r.d.witness_index) return tr("v2.witnessedNotChain", d.request);
    if (r.state !== "pending") return tr("v2.already", d.request, r.state);
    if (d.index !== r.d.witness_index) return tr("v2.witnessedIndex", d.index, d.request, r.d.witness_index);
    if (k < 0) return tr("v2.witnessedNoChain", d.user);
    if (r.witnessed.some((w) => w.user === d.user)) return tr("v2.witnessedTwice", d.user, d.request);
    const sg = await signedBy(ev, d, keys);
    if (sg.why) return sg.why;
    const m = sg.message;
    if (m.type !== "roll.witness" || m.request !== d.request || (m.index || 0) !== d.index || m.value !== d.value) return tr("v2.witnessedFields");
    if (!(await global.JournalDiceV2.witnessMatches(m.value, s.anchors[k].anchor, d.index))) return tr("v2.witnessedChain", d.user, d.request, d.index);
    return "";
  }

  // chainSource checks a GM roll made from witness chains (replay's chainR).
  async function chainSource(ev, d, r, s, roles, dv, flag, no) {
    if (d.signed || d.signature || d.beacon_signature || d.beacon_round) return no(tr("v2.chainSigned"));
    if ((d.witness_index || 0) !== (r.d.witness_index || 0)) return no(tr("v2.chainIndex", d.witness_index || 0, d.request, r.d.witness_index || 0));
    if (!Array.isArray(d.witnesses) || !d.witnesses.length) return no(tr("v2.chainNoWitnesses"));
    const want = [];
    const missing = [];
    for (const a of s.anchors) {
      const w = r.witnessed.find((g) => g.user === a.user);
      if (w) want.push(w);
      else missing.push(a.user);
    }
    const same = d.witnesses.length === want.length && d.witnesses.every((w, i) => w && typeof w === "object" && Object.keys(w).length === 2 && w.user === want[i].user && w.value === want[i].value);
    if (!same) return no(tr("v2.chainList", d.request));
    const rr = await global.JournalDiceV2.combineWitnesses(want.map((w) => w.value));
    if (rr !== d.reveal) return no(tr("v2.chainR"));
    // Every value from a user all of whose devices someone else registered
    // (the GM's sock puppets), as replay's registeredByOther.
    if (want.every((w) => byOther(dv, w.user))) flag("witness-key-by-other", ev.id, tr("v2.f.witnessKeyByOther", d.request, ev.id, want.map((w) => w.user).join(", "), byOther(dv, want[0].user)));
    if (missing.length) {
      if (roles[ev.actor] !== "gm" && !(ev.actor === "gm" && roles.gm === undefined)) return no(tr("v2.noneByPlayer", ev.actor));
      let from = Date.parse(r.ev.time);
      if (r.d.beacon_round && global.JournalBeacon) from = Math.max(from, global.JournalBeacon.timeOf(r.d.beacon_round) * 1000);
      if (Date.parse(ev.time) < from + (r.d.wait || 0) * 1000) return no(tr("v2.noneEarly"));
      flag("partial-witness", ev.id, tr("v2.f.partialWitness", d.request, ev.id, missing.join(", "), want.length, s.anchors.length));
    }
    if (r.d.beacon_round) flag("beacon-not-used", ev.id, tr("v2.f.beaconNotUsed", d.request, r.ev.id, r.d.beacon_round, want.map((w) => w.user).join(", "), ev.id));
    return true;
  }

  // revealSource checks a player's reveal (replay's rollV2): no witness,
  // the requester's signed roll.reveal naming the request and r, and r
  // answering the request's commitment. It says what is wrong on the roll
  // and returns false when it does not hold.
  async function revealSource(ev, d, r, x, keys) {
    const no = (why) => {
      x.bad(ev.id, why);
      return false;
    };
    if (d.witness) return no(tr("v2.witnessWithCommitment", d.witness));
    if (ev.actor !== d.user) return no(tr("v.signature", tr("v.actor", ev.actor, d.user)));
    let m;
    try {
      m = (await global.JournalSigned.openAny(keys[d.user], d.signed, d.signature, ev.campaign, ev.session)).message;
    } catch (e) {
      return no(tr("v.signature", e.message));
    }
    if (m.type !== "roll.reveal") return no(tr("v2.notA", m.type, "roll.reveal"));
    if (m.request !== d.request || m.r !== d.reveal) return no(tr("v2.revealFields"));
    let h = "";
    try {
      h = await global.JournalDiceV2.revealCommitment(d.reveal);
    } catch (e) {
      return no(e.message);
    }
    if (h !== r.d.commitment) return no(tr("v2.revealCommitment", String(d.reveal).slice(0, 80), d.request, r.d.commitment));
    return true;
  }

  // --- A suppressed roll's proof (replay/v2_prove.go) ---

  // proofFits says why a reveal of rHex by user cannot prove request (r:
  // its recorded request, undefined if unknown) in a session (ended or
  // not), or "" (replay's proofFits).
  async function proofFits(r, request, user, rHex, ended) {
    if (!r) return tr("v2.proof.unknown_request", request);
    if (r.d.user !== user) return tr("v2.proof.not_users", user, request, r.d.user);
    if (!r.d.commitment) return tr("v2.proof.gm_request", request);
    let h = "";
    try {
      h = await global.JournalDiceV2.revealCommitment(rHex);
    } catch (e) {
      h = "";
    }
    if (h !== r.d.commitment) return tr("v2.proof.commitment", request, r.d.commitment);
    if (r.state === "made") return tr("v2.proof.made", request);
    if (r.proved) return tr("v2.proof.proved", request, r.proved);
    if (r.state === "pending" && !ended) return tr("v2.proof.pending", request);
    return "";
  }

  // provedEvent checks a journal.roll.proved.v1 (replay's provedEvent);
  // fail says what is wrong.
  async function provedEvent(ev, d, s, keys, fail) {
    if (ev.actor !== d.user) return fail(tr("v.signature", tr("v.actor", ev.actor, d.user)));
    let m;
    try {
      m = (await global.JournalSigned.openAny(keys[d.user], d.signed, d.signature, ev.campaign, ev.session)).message;
    } catch (e) {
      return fail(tr("v.signature", e.message));
    }
    if (m.type !== "roll.reveal") return fail(tr("v2.notA", m.type, "roll.reveal"));
    if (m.request !== d.request || m.r !== d.reveal) return fail(tr("v2.revealFields"));
    const r = s.requests[d.request];
    const why = await proofFits(r, d.request, d.user, d.reveal, s.ended);
    if (why) return fail(why);
    const diff = [];
    const eq = (what, got, want) => {
      if (canonical(got) !== canonical(want)) diff.push(what);
    };
    eq("nonce", d.nonce, r.d.nonce);
    eq("nonces", d.nonces || [], r.d.nonces || []);
    eq("cancelled_by", d.cancelled_by || "", r.cancelledBy || "");
    eq("cancel", d.cancel || "", r.cancelID || "");
    const tk = taken(r.d);
    const rolls = Array.isArray(d.rolls) ? d.rolls : [];
    if (rolls.length === 0 || rolls.length > tk.length) diff.push("rolls");
    else {
      const first = rolls[0] || {};
      if (canonical(d.draws || []) !== canonical(first.draws || []) || canonical(d.faces || []) !== canonical(first.faces || []) || d.total !== first.total || d.outcome !== first.outcome) diff.push("draws, faces, total, outcome");
      rolls.forEach((pr, k) => {
        eq("rolls[" + k + "].nonce", pr.nonce, tk[k]);
        const dr = Array.isArray(pr.draws) ? pr.draws : [];
        const fs = Array.isArray(pr.faces) ? pr.faces : [];
        if (dr.length === 0 || dr.length !== fs.length || !dr.every((n) => Number.isInteger(n) && n >= 2 && n <= 256)) diff.push("rolls[" + k + "].draws");
      });
    }
    if (diff.length) return fail(tr("v2.fields", diff.join("; ")));
    r.proved = ev.id;
    s.proved.push({ event: ev.id, file: "", user: d.user, r: d.reveal, req: r, rolls: rolls.map((pr) => ({ nonce: pr.nonce, draws: pr.draws, faces: pr.faces, outcome: pr.outcome })) });
  }

  // firstSides are the sides of the first dice a request's roll draws
  // whatever the sheets say (replay's firstSides).
  function firstSides(q) {
    if ((q.tn || 0) > 0) return [12];
    if (q.kind === "heal") return [6];
    return [10, 10, 10];
  }

  // parseProof reads a proof file's text strictly (signed.ParseProof); it
  // throws an Error whose message says what is wrong.
  function parseProof(text) {
    const MEMBERS = ["version", "campaign", "session", "request", "user", "signed", "signature"];
    let p;
    try {
      p = JSON.parse(text);
    } catch (e) {
      throw new Error(tr("v2.proof.notObject"));
    }
    if (!p || typeof p !== "object" || Array.isArray(p)) throw new Error(tr("v2.proof.notObject"));
    for (const k of Object.keys(p)) if (!MEMBERS.includes(k)) throw new Error(tr("v2.proof.unknown", k));
    for (const k of MEMBERS) if (!(k in p)) throw new Error(tr("v2.proof.member", k));
    if (p.version !== 1) throw new Error(tr("v2.proof.version", p.version));
    for (const k of MEMBERS.slice(1)) if (typeof p[k] !== "string") throw new Error(tr("v2.proof.member", k));
    const m = global.JournalSigned.parse(p.signed);
    if (m.type !== "roll.reveal") throw new Error(tr("v2.proof.notRevealMsg", m.type));
    if (m.campaign !== p.campaign || m.session !== p.session || m.request !== p.request) throw new Error(tr("v2.proof.names", p.campaign, p.session, p.request, m.campaign, m.session, m.request));
    return p;
  }

  // proofFile checks a proof file against its session s (replay's
  // session.proofFile): {file, request, status: flagged|recorded|bad, what}.
  async function proofFile(pf, s) {
    const p = pf.proof;
    const res = { file: pf.name, request: p.request, status: "bad", what: "" };
    const refuse = (what) => Object.assign(res, { what: what });
    const r = s.requests[p.request];
    if (!r) return refuse(tr("v2.proof.no_request", p.request, s.id));
    if (r.d.user !== p.user) return refuse(tr("v2.proof.not_users", p.user, p.request, r.d.user));
    if (!(r.key || []).length) return refuse(tr("v2.proof.no_key", p.request));
    let m;
    try {
      m = (await global.JournalSigned.openAny(r.key, p.signed, p.signature, s.campaign, s.id)).message; // the devices active at the request
    } catch (e) {
      return refuse(tr("v2.proof.signature", p.request, p.user, r.fingerprint));
    }
    if (m.type !== "roll.reveal" || m.request !== p.request) return refuse(tr("v2.proof.not_reveal", p.request));
    if (r.state === "made" || r.proved) return Object.assign(res, { status: "recorded", what: tr("v2.proof.recorded", pf.name, p.request, r.proved || r.made) });
    const why = await proofFits(r, p.request, p.user, m.r, true);
    if (why) return refuse(why);
    s.proved.push({ event: "", file: pf.name, user: p.user, r: m.r, req: r, rolls: [{ nonce: taken(r.d)[0], draws: firstSides(r.d), faces: [], outcome: "" }] });
    res.status = "flagged";
    return res;
  }

  // provedText writes a proof's rolls as the flag says them
  // (projections.ProvedText).
  function provedText(rolls) {
    return [rolls.map((r) => (r.faces || []).join(", ")).join("; "), rolls.map((r) => r.outcome).filter((o) => o).join("; ")];
  }

  // provedFlags re-derives the faces of s's proofs once its seed is known
  // (a proved event's faces that differ are its mismatch) and flags each
  // (replay's provedReport).
  async function provedFlags(s, x, flag) {
    const outer = (x.sessions || {})[s.id];
    const sd = (x.seeds || {})[s.id];
    const seed = (outer && outer.seed) || (sd && sd.seed);
    let K = null;
    if (seed && !(sd && sd.why)) {
      try {
        K = await global.JournalDiceV2.sessionKey(seed, s.campaign, s.id, (outer && outer.contributions) || []);
      } catch (e) {
        K = null;
      }
    }
    for (const p of s.proved) {
      let derived = false;
      if (K) {
        let ok = true;
        for (let k = 0; k < p.rolls.length; k++) {
          const pr = p.rolls[k];
          let got;
          try {
            got = await global.JournalDiceV2.faces(K, s.campaign, s.id, pr.nonce, p.r, pr.draws);
          } catch (e) {
            x.problem(p.event, tr("v2.event", p.event, e.message));
            ok = false;
            continue;
          }
          if (p.file) pr.faces = got;
          else if (canonical(got) !== canonical(pr.faces)) {
            x.problem(p.event, tr("v2.event", p.event, tr("v2.provedFaces", k + 1, p.req.d.request, (pr.faces || []).join(" "), got.join(" "))));
            ok = false;
          }
        }
        if (!ok) continue;
        derived = true;
      }
      const q = p.req;
      const [faces, outcomes] = provedText(p.rolls);
      const event = p.event || q.ev.id;
      const cancelled = q.state === "cancelled";
      let what;
      if (!p.file) what = cancelled ? tr("v2.f.cancelled_after_reveal", p.user, q.d.request, q.d.nonce, q.cancelledBy, q.cancelID, faces, outcomes) : tr("v2.f.unrevealed_after_reveal", p.user, q.d.request, q.d.nonce, faces, outcomes);
      else if (!derived) what = cancelled ? tr("v2.f.proof_cancelled_sealed", p.file, p.user, q.d.request, q.d.nonce, q.cancelledBy, q.cancelID) : tr("v2.f.proof_unrevealed_sealed", p.file, p.user, q.d.request, q.d.nonce);
      else what = cancelled ? tr("v2.f.proof_cancelled", p.file, p.user, q.d.request, q.d.nonce, q.cancelledBy, q.cancelID, faces) : tr("v2.f.proof_unrevealed", p.file, p.user, q.d.request, q.d.nonce, faces);
      flag("cancelled-after-reveal", event, what);
    }
  }

  // cosignProblem says what is wrong with a session.cosign event ("": nothing).
  async function cosignProblem(ev, d, s, keys) {
    let sg;
    try {
      sg = await global.JournalSigned.verifyEvent(ev, keys);
    } catch (e) {
      return e.message;
    }
    if (sg.status !== "verified") return tr("v.signature", sg.reason);
    if (sg.message.type !== "session.cosign") return tr("v2.notA", sg.message.type, "session.cosign");
    if (sg.message.ended !== d.ended) return tr("v2.cosignSigned");
    if (!s.ended) return tr("v2.cosignNotEnded", s.id);
    if (d.ended_event !== s.endID) return tr("v2.cosignEvent", d.ended_event, s.endID);
    if (s.endHash === undefined) return tr("v2.cosignNoBytes", s.endID);
    if (d.ended !== s.endHash) return tr("v2.cosignHash", d.ended, s.endID, s.endHash);
    if (s.cosigs.some((c) => c.user === d.user)) return tr("v2.cosignTwice", d.user);
    return "";
  }

  // consentProblem says what is wrong with a void's consent ("": nothing).
  async function consentProblem(ev, d, roll, keys) {
    if (!roll) return tr("v2.consentNoRoll", d.event_id);
    if (d.consent_user !== roll.roller) return tr("v2.consentUser", d.consent_user, roll.roller);
    if (!keys[d.consent_user] || !keys[d.consent_user].length) return tr("v2.noKey", d.consent_user);
    let m;
    try {
      m = (await global.JournalSigned.openAny(keys[d.consent_user], d.consent_signed, d.consent_signature, ev.campaign, roll.session.id)).message;
    } catch (e) {
      return tr("v.signature", e.message);
    }
    if (m.type !== "void.consent") return tr("v2.notA", m.type, "void.consent");
    if (m.event !== d.event_id) return tr("v2.consentEvent", m.event, d.event_id);
    if (m.reason !== d.reason) return tr("v2.consentReason", m.reason, d.reason);
    return "";
  }

  // --- The whole log ---
  async function verifyEvents(records, options) {
    options = options || {};
    const rolls = {};
    const problems = [];
    const sessions = {};
    const keys = {};
    const devices = newDevices(); // the campaign's devices (replay/v2_devices.go)
    const keyed = {}; // campaign → the users a device key was registered for (downgrade)
    const requests = {};
    const byID = {};
    const voided = {};
    const nonces = {};
    const characters = new Set();
    const unsigned = new Set(); // requests whose device's message does not hold
    const chain = { checked: 0, ok: true, reason: "" };
    // A roll's verdict: its status, the reasons of a mismatch, its flags
    // (flagged: replay's, each {code, event, what}, those of its request
    // and its session included; flags: their words) and notes (words that
    // are no flag of replay's, such as a journal-dice-v1 roll's void).
    const verdict = (id) => (rolls[id] = rolls[id] || { status: "verified", reasons: [], flags: [], flagged: [], notes: [] });
    // What the audit finds wrong, each by the event at fault as replay
    // names it (its Mismatch.EventID): the summary's mismatched events.
    // mark says it on a roll's card when the event at fault is another
    // (the consequence that does not follow from the roll, the session's
    // end whose seed is not its commitment); bad when it is the roll.
    const mismatches = [];
    const fault = (event, what) => mismatches.push({ event: event || "", what: what });
    const mark = (id, reason) => {
      const v = verdict(id);
      v.status = "mismatch";
      if (!v.reasons.includes(reason)) v.reasons.push(reason);
    };
    const bad = (id, reason) => {
      mark(id, reason);
      fault(id, reason);
    };
    const problem = (event, p) => {
      problems.push(p);
      fault(event, p);
    };
    // An event whose id an earlier one has is a mismatch and is read no
    // further (replay's duplicate-id).
    {
      const ids = new Set();
      const kept = [];
      records.forEach((rec, i) => {
        const ev = rec && rec.event;
        if (!ev || typeof ev !== "object") return;
        if (ids.has(ev.id)) return problem(ev.id, tr("v.duplicate", i + 1, ev.id));
        ids.add(ev.id);
        kept.push(rec);
      });
      records = kept;
    }
    // A log that starts mid-campaign (an export of one session) may
    // not hold the characters' creation: then existence is not checked.
    const whole = records.length > 0 && records[0].event.type === "journal.campaign.created.v1";
    // The seed each session's first end reveals, against the commitment
    // of its start: replay names the end when they differ, and the
    // session's rolls cannot be re-derived.
    const seeds = {};
    for (const { event: ev } of records) {
      const d = ev.data || {};
      if (ev.type === "journal.session.started.v1" && !seeds[ev.session]) seeds[ev.session] = { commitment: d.commitment };
      if (ev.type === "journal.session.ended.v1" && seeds[ev.session] && seeds[ev.session].seed === undefined) {
        const sd = seeds[ev.session];
        sd.seed = d.seed;
        if (typeof d.seed !== "string" || !/^[0-9a-f]{64}$/.test(d.seed)) sd.why = tr("v.seedHex", String(d.seed).slice(0, 80));
        else {
          const h = global.JournalDice.bytesToHex(await global.JournalDice.sha256(global.JournalDice.hexToBytes(d.seed)));
          if (h !== sd.commitment) sd.why = tr("v.seedCommitment", d.seed, sd.commitment, h);
        }
      }
    }
    const chains = {};
    const seen = {}; // campaign → the hashes of its lines so far (seenStep)
    for (let i = 0; i < records.length; i++) {
      const rec = records[i];
      const ev = rec.event;
      byID[ev.id] = ev;
      if (typeof rec.line === "string") {
        if (ev.prevhash !== undefined || ev.type === ANCHOR) chain.checked++;
        if (!(await chainStep(chains, rec, i + 1, { push: (p) => problem(ev.id, p) }))) chain.ok = false;
        if (!(await seenStep(seen, rec, { push: (p) => problem(ev.id, p) }))) chain.ok = false;
      }
      const d = ev.data || {};
      switch (ev.type) {
        case "journal.session.started.v1": {
          if (sessions[ev.session]) {
            problem(ev.id, tr("v.startedTwice", ev.session, sessions[ev.session].startID));
            break;
          }
          const algorithm = d.algorithm || "journal-dice-v1";
          sessions[ev.session] = { id: ev.session, startID: ev.id, algorithm: algorithm, commitment: d.commitment, contributions: [], rolls: 0, nonceAt: {}, ended: false, hidden: {}, hiddenOrder: [] };
          if (algorithm !== "journal-dice-v1" && algorithm !== "journal-dice-v2") problem(ev.id, tr("v.algorithm", algorithm));
          // replay's downgrade: a v1 session while a device key was registered.
          if (algorithm === "journal-dice-v1") {
            const u = [...(keyed[ev.campaign] || [])].sort()[0]; // of this campaign, as replay's fold
            if (u) sessions[ev.session].downgrade = { user: u, id: ev.id };
          }
          break;
        }
        case "journal.session.ended.v1": {
          const s = sessions[ev.session];
          if (!s) problem(ev.id, tr("v.endsUnstarted", ev.session));
          else if (s.ended) problem(ev.id, tr("v.endedTwice", ev.session, s.endID));
          else {
            s.seed = d.seed;
            s.ended = true;
            s.endID = ev.id;
            s.declared = Number.isSafeInteger(d.rolls) ? d.rolls : 0;
            const sd = seeds[ev.session];
            if (sd && sd.why && sd.seed === d.seed) problem(ev.id, sd.why);
          }
          break;
        }
        case "journal.session.contributed.v1": {
          // A contribution whose message does not hold, or made after the
          // session's first request, is not in the session key (replay's).
          let ok = await checkSigned(ev, keys, problem, true);
          const s = sessions[ev.session];
          // replay's: a contribution names its session's seed commitment
          // (one signed before the field existed has none: old format,
          // accepted as before); another session's is a replayed one.
          if (ok && s) {
            let named;
            try {
              named = JSON.parse(d.signed).commitment;
            } catch (e) {
              named = undefined;
            }
            if (named !== undefined && named !== s.commitment) {
              problem(ev.id, tr("v.contributionCommitment", ev.id, String(named).slice(0, 64), s.commitment));
              ok = false;
            }
          }
          // replay's: the recorded witness anchor is the signed one.
          if (ok) {
            let anchor;
            try {
              anchor = JSON.parse(d.signed).witness_anchor;
            } catch (e) {
              anchor = undefined;
            }
            if (anchor === "0".repeat(64)) anchor = undefined;
            if ((anchor || "") !== (d.witness_anchor || "")) {
              problem(ev.id, tr("v2.event", ev.id, tr("v2.anchorSigned")));
              ok = false;
            }
          }
          if (!ok) unsigned.add(ev.id);
          if (ok && s && !s.requested) s.contributions.push(d.value);
          break;
        }
        case "journal.device.registered.v1":
        case "journal.device.approved.v1":
        case "journal.device.revoked.v1":
          await checkDevice(devices, ev, problem); // against the state before it
        // falls through
        case "journal.participant.registered.v1":
          applyDevice(devices, keys, ev);
          (keyed[ev.campaign] = keyed[ev.campaign] || new Set()).add(d.user);
          break;
        case "journal.roll.requested.v1":
          requests[d.request] = ev;
          if (!(await checkSigned(ev, keys, problem, true))) unsigned.add(ev.id);
          else if (sessions[ev.session]) sessions[ev.session].requested = true;
          break;
        case "journal.roll.hidden.v1": {
          // replay's hiddenEvent: a GM's secret roll, kept for its reveal;
          // under v1 it takes its nonce (under v2 its request did).
          const s = sessions[ev.session];
          if (!s) {
            problem(ev.id, tr("v.rollUnstarted", ev.session));
            break;
          }
          if (s.ended) problem(ev.id, tr("v.hiddenAfterEnd", s.endID));
          if (!["free", "skill", "attribute"].includes(d.kind)) {
            problem(ev.id, tr("v.hiddenKind", d.kind));
            break;
          }
          if (s.algorithm !== "journal-dice-v2") {
            if (Number.isSafeInteger(d.nonce) && d.nonce in s.nonceAt) {
              problem(ev.id, tr("v.nonceTwice", d.nonce));
              break;
            }
            if (Number.isSafeInteger(d.nonce)) s.nonceAt[d.nonce] = ev.id;
          } // under v2, verifyV2 checks its request
          s.hidden[ev.id] = { ev: ev, nonce: d.nonce, revealed: "" };
          s.hiddenOrder.push(ev.id);
          break;
        }
        case "journal.event.voided.v1":
          if (d.event_id) voided[d.event_id] = d.reason || "";
          break;
        case "journal.character.created.v1":
        case "journal.tor.character.created.v1":
          characters.add(ev.subject && ev.subject.startsWith("characters/") ? ev.subject.slice(11) : d.id);
          break;
      }
      if (ev.type !== ROLL) continue;
      // The session's count of rolls and, under v1, the nonce each takes
      // (a v2 roll uses its request's).
      const s0 = sessions[ev.session] || null;
      const v2 = !!s0 && s0.algorithm === "journal-dice-v2";
      if (s0) s0.rolls++;
      const key = ev.session + "|" + d.nonce;
      nonces[key] = (nonces[key] || 0) + 1;
      // replay's revealOf: a roll that reveals a secret roll has its inputs.
      let hiddenWhy = "";
      const h = s0 && d.hidden ? s0.hidden[d.hidden] : null;
      if (s0 && d.hidden) {
        if (!h) hiddenWhy = tr("v.hiddenUnknown", d.hidden);
        else if (h.revealed) hiddenWhy = tr("v.hiddenTwice", d.hidden, h.revealed);
        else {
          const diff = hiddenDiff(d, h.ev.data || {});
          if (diff.length) hiddenWhy = tr("v.hiddenInputs", d.hidden, diff.join("; "));
          else h.revealed = ev.id;
        }
      }
      const heldBy = s0 && !v2 && Number.isSafeInteger(d.nonce) ? s0.nonceAt[d.nonce] : undefined;
      const hiddenNonce = heldBy !== undefined && byID[heldBy] && byID[heldBy].type === "journal.roll.hidden.v1";
      const validReveal = hiddenNonce && !!h && !hiddenWhy && heldBy === h.ev.id;
      if (s0 && !v2 && Number.isSafeInteger(d.nonce) && !(d.nonce in s0.nonceAt)) s0.nonceAt[d.nonce] = ev.id;
      else if (validReveal) s0.nonceAt[d.nonce] = ev.id;
      if (options.only && !options.only.includes(ev.id)) continue;
      const v = verdict(ev.id);
      if (s0 && s0.ended) bad(ev.id, tr("v.afterEnd", s0.endID));
      if (hiddenWhy) bad(ev.id, hiddenWhy);
      if (!v2 && !validReveal && (nonces[key] > 1 || hiddenNonce)) bad(ev.id, tr("v.nonceTwice", d.nonce));
      const session = s0 ? Object.assign({}, s0) : null;
      // Seeds revealed later in the log count too.
      const sd = seeds[ev.session];
      if (session && !session.seed && sd) session.seed = sd.seed;
      let r;
      if (session && session.seed !== undefined && sd && sd.why) {
        // The end reports the seed; the roll cannot be re-derived.
        mark(ev.id, sd.why);
        r = { status: "mismatch", reason: sd.why };
      } else {
        try {
          if (v2) {
            const rq = requests[d.request] || null;
            r = await global.JournalDiceV2.verify(ev, session, rq);
            if (d.signed !== undefined) {
              const s = await global.JournalSigned.verifyEvent(ev, keys);
              if (s.status !== "verified") bad(ev.id, tr("v.signature", s.reason));
            }
          } else {
            r = await global.JournalDice.verify(ev, session);
          }
        } catch (e) {
          r = { status: "mismatch", reason: e.message };
        }
        // dice2.js's own flags are replaced by verifyV2's, coded and localized.
        if (r.status === "mismatch") bad(ev.id, r.reason);
        else if (r.status === "sealed" && v.status !== "mismatch") v.status = "sealed";
      }
      v.detail = r;
      const rc = rulesCheck(d);
      if (rc.unknown && s0) (s0.unknownRules = s0.unknownRules || []).push({ id: ev.id, nonce: d.nonce, rc: rc });
      else if (rc.unknown) bad(ev.id, tr("v.rulesUnknown", rc.clipped, rc.known));
      else if (rc.problem) bad(ev.id, rc.problem);
      else for (const p of judge(d)) bad(ev.id, p);
      if (whole && d.character && !characters.has(d.character)) bad(ev.id, tr("v.noCharacter", d.character));
    }
    const ring = {}; // campaign -> its last two rolls, for contests
    const unclaimed = (side) => {
      if (side && side.opposed && !side.claimed) {
        side.claimed = true;
        fault(side.id, tr("v.unclaimed"));
        if (rolls[side.id]) mark(side.id, tr("v.unclaimed"));
      }
    };
    // Consequences: attacks, damage taken, contests. A consequence that
    // does not follow from its rolls is the consequence's mismatch, and
    // said on the rolls' cards.
    const isV2 = (ev) => !!sessions[ev.session] && sessions[ev.session].algorithm === "journal-dice-v2";
    for (let i = 0; i < records.length; i++) {
      const ev = records[i].event;
      const d = ev.data || {};
      if (ev.type === "journal.attack.resolved.v1" && !isV2(ev)) {
        // (in a v2 session verifyV2 follows the attack from its request)
        const atk = byID[d.attack_roll];
        const dmg = d.damage_roll ? byID[d.damage_roll] : null;
        const ids = [d.attack_roll, d.damage_roll].filter((x) => x && rolls[x]);
        const fail = (why) => {
          ids.forEach((id) => mark(id, why));
          fault(ev.id, why);
        };
        if (!atk) continue;
        const a = atk.data || {};
        const hit = a.outcome === "success" || a.outcome === "critical";
        if (d.total !== a.total) fail(tr("v.attackTotal", d.total, a.total));
        if (a.difficulty !== undefined && d.against !== a.difficulty) fail(tr("v.against", d.against, a.difficulty));
        if (!!d.hit !== hit) fail(tr("v.hit", tr(hit ? "f.hit" : "f.miss")));
        const want = hit && dmg ? (dmg.data || {}).total : 0;
        if ((d.damage || 0) !== want) fail(tr("v.damage", d.damage || 0, want));
        if (dmg && !!(dmg.data || {}).critical !== (a.outcome === "critical")) fail(tr("v.critDamage"));
        if (!hit && dmg) fail(tr("v.missDamage"));
        // The damage taken, recorded in the same batch just before.
        const taken = records.slice(Math.max(0, i - 3), i).map((r) => r.event).find((e) => e && e.type === "journal.damage.taken.v1" && (e.data || {}).character === d.target);
        if (hit && want > 0 && (!taken || (taken.data || {}).amount !== want)) fail(tr("v.taken", want, taken ? taken.data.amount : 0));
        if (!hit && taken) fail(tr("v.takenMiss"));
      } else if (ev.type === "journal.combat.started.v1" && !isV2(ev)) {
        // The initiative order follows the initiative rolls' totals (in a
        // v2 session verifyV2 re-derives it from the requested rolls).
        const ids = Object.values(d.initiative || {}).filter((x) => rolls[x]);
        const fail = (why) => {
          ids.forEach((id) => mark(id, why));
          fault(ev.id, why);
        };
        const order = d.order || [];
        for (const [who, rid] of Object.entries(d.initiative || {})) {
          const r = byID[rid];
          if (r && (r.data || {}).total !== (d.totals || {})[who]) fail(tr("v.initiative", who, (d.totals || {})[who], (r.data || {}).total));
        }
        for (let k = 1; k < order.length; k++) {
          if (((d.totals || {})[order[k]] ?? 0) > ((d.totals || {})[order[k - 1]] ?? 0)) fail(tr("v.order", order.join(" ")));
        }
      }
      // Contests, in every session (replay's contestEvent): a contest names
      // the two rolls recorded just before it, of its two characters, of one
      // rules version and flagged opposed as it flags sides (rulesCheck), and its verdict is the rules' of their
      // recorded totals; a roll flagged opposed is a side of a contest.
      const c = (ring[ev.campaign] = ring[ev.campaign] || [null, null]);
      if (ev.type === ROLL) {
        unclaimed(c[0]);
        c[0] = c[1];
        c[1] = { id: ev.id, character: d.character, total: d.total, failed: !!(d.natural1 || d.fumble), opposed: !!d.opposed, rules: rulesCheck(d), claimed: false };
      } else if (ev.type === "journal.contest.resolved.v1") {
        const [a, b] = c;
        const no = (why) => {
          [d.roll_a, d.roll_b].filter((x) => rolls[x]).forEach((id) => mark(id, why));
          fault(ev.id, why);
        };
        if (!a || !b || a.id !== d.roll_a || b.id !== d.roll_b) {
          no(tr("v.contestRolls", String(d.roll_a).slice(0, 40), String(d.roll_b).slice(0, 40)));
          continue;
        }
        a.claimed = b.claimed = true;
        if (a.character !== d.a || b.character !== d.b) no(tr("v.contestSides", d.a, d.b, a.character, b.character));
        else if (a.opposed !== b.opposed) no(tr("v.contestOpposed"));
        else if (a.rules.version !== b.rules.version) no(tr("v.contestRules", a.rules.clipped, b.rules.clipped));
        else if (a.rules.unknown) {
          // flagged unknown-rules: not judged by other rules
        }
        else if (a.opposed !== a.rules.opposed) no(tr("v.contestUnopposed", a.rules.version));
        else {
          const [w, reason] = contestVerdict({ total: a.total, outcome: a.failed ? "natural1" : "" }, { total: b.total, outcome: b.failed ? "natural1" : "" });
          const winner = w === 1 ? d.a : w === 2 ? d.b : "";
          if ((d.winner || "") !== winner || !!d.tie !== (w === 0) || (d.reason || "") !== reason) no(tr("v.contestVerdict", d.winner || "", !!d.tie, d.reason || "", winner, w === 0, reason));
        }
      }
    }
    for (const c of Object.values(ring)) c.forEach(unclaimed);
    // journal-dice-v2 beyond one roll, and the flags.
    // A flag is said on the card of the roll it is about, and a request's
    // (repeated, unrevealed...) on the cards of the rolls that answer it.
    const flags = [];
    const answers = {};
    for (const { event: ev } of records) if (ev.type === ROLL && ev.data && ev.data.request) (answers[ev.data.request] = answers[ev.data.request] || []).push(ev.id);
    const flag = (code, event, what) => {
      flags.push({ code: code, event: event, what: what });
      const ev = byID[event];
      const ids = rolls[event] ? [event] : ev && ev.type === "journal.roll.requested.v1" ? answers[(ev.data || {}).request] || [] : [];
      for (const id of ids) onRoll(id, code, event, what);
    };
    // onRoll says a flag on a roll's card (once).
    const onRoll = (id, code, event, what) => {
      const v = rolls[id];
      if (!v || v.flagged.some((f) => f.code === code && f.event === event && f.what === what)) return;
      v.flagged.push({ code: code, event: event, what: what });
      if (!v.flags.includes(what)) v.flags.push(what);
    };
    // A session's own flags are every roll of it's too.
    const sessionFlags = new Set(["no-contribution", "not-cosigned", "stale", "open", "downgrade"]);
    const flagSession = (code, event, what) => {
      flag(code, event, what);
      const sid = byID[event] && byID[event].session;
      if (!sessionFlags.has(code) || !sid) return;
      for (const id of Object.keys(rolls)) if (byID[id] && byID[id].session === sid) onRoll(id, code, event, what);
    };
    const judged = (id) => !options.only || options.only.includes(id);
    const v2 = await verifyV2(records, {
      sessions: sessions,
      seeds: seeds,
      rolls: rolls,
      bad: (id, why) => (judged(id) ? bad(id, why) : fault(id, why)),
      mark: (id, why) => (judged(id) ? mark(id, why) : null),
      fault: fault,
      problem: problem,
      unsigned: unsigned,
      flag: flagSession,
      options: options,
      byID: byID,
    });
    // Every device, with its flags (key-by-other, key-unproved, revoked-by-other).
    const deviceList = deviceFlags(devices, flag);
    // Nonces 0, 1, 2… without gaps: a gap is a roll made and hidden (v1:
    // the rolls' nonces; v2: those the requests took, cancelled ones
    // included). Replay names the event that took the nonce after the gap,
    // or the session's end when the gap is at the end; and the end's count
    // of rolls must be the rolls seen and the nonces consumed without one.
    for (const s of Object.values(sessions)) {
      const w = s.algorithm === "journal-dice-v2" ? v2.sessions[s.id] : null;
      const at = w ? w.nonceAt : s.nonceAt;
      const gap = (from, to, event) => problem(event, from === to ? tr("v.nonceGap", from, s.id) : tr("v.nonceGaps", from, to, s.id));
      let expect = 0;
      for (const n of Object.keys(at).map(Number).sort((a, b) => a - b)) {
        if (n > expect) gap(expect, n - 1, at[n]);
        expect = n + 1;
      }
      if (s.ended && s.declared > expect) gap(expect, s.declared - 1, s.endID);
      // replay's empty: a session, v1 or v2, ended with no roll event.
      if (s.ended && s.rolls === 0) flagSession("empty", s.endID, tr("v2.f.empty", s.id, s.endID));
      if (s.downgrade) flagSession("downgrade", s.downgrade.id, tr("v2.f.downgrade", s.id, s.downgrade.id, s.downgrade.user));
      for (const x of s.unknownRules || []) flag("unknown-rules", x.id, tr("v2.f.unknownRules", x.id, x.nonce, x.rc.clipped, x.rc.known));
      const consumed = w ? w.consumed : s.hiddenOrder.filter((id) => !s.hidden[id].revealed).length;
      // replay's hidden-unrevealed: a secret roll of an ended session never revealed.
      if (s.ended) for (const id of s.hiddenOrder) if (!s.hidden[id].revealed) flagSession("hidden-unrevealed", id, tr("v2.f.hiddenUnrevealed", id, s.hidden[id].nonce, s.id));
      if (s.ended && s.declared !== s.rolls + consumed) problem(s.endID, tr("v.rollCount", s.declared, s.rolls));
    }
    // A void names an event of the log (the first void of each).
    const voidOf = {};
    for (const { event: ev } of records) {
      const d = ev.data || {};
      if (ev.type === "journal.event.voided.v1" && d.event_id !== undefined && !voidOf[d.event_id]) voidOf[d.event_id] = ev.id;
    }
    for (const [target, by] of Object.entries(voidOf)) if (!byID[target]) problem(by, tr("v.voidUnknown", String(target).slice(0, 80)));
    for (const [id, v] of Object.entries(rolls)) {
      if (Object.prototype.hasOwnProperty.call(voided, id) && !flags.some((f) => f.code === "voided" && f.event === id)) v.notes.push(tr("v.voided", voided[id]));
      if (!chain.ok && v.status !== "mismatch") {
        v.status = "mismatch";
        v.reasons.push(tr("v.chainFile"));
      }
    }
    const rep = { rolls: rolls, problems: problems, mismatches: mismatches, flags: flags, proofs: v2.proofs, chain: chain, sessions: sessions, keys: keys, devices: deviceList, count: Object.keys(rolls).length };
    rep.summary = summarize(rep, options.foreign || []);
    return rep;
  }

  // checkSigned checks the device's message an event records (required:
  // an event of a device's message without one is a mismatch).
  async function checkSigned(ev, keys, problem, required) {
    const d = ev.data || {};
    if (d.signed === undefined && !required) return true;
    let why = "";
    try {
      const s = await global.JournalSigned.verifyEvent(ev, keys);
      if (s.status !== "verified") why = tr("v.signatureOf", ev.id, s.reason);
      else if (ev.actor !== d.user) why = tr("v.signatureOf", ev.id, tr("v.actor", ev.actor, d.user));
    } catch (e) {
      why = tr("v.signatureOf", ev.id, e.message);
    }
    if (why) problem(ev.id, why);
    return !why;
  }

  // summarize is the report's verdict as `journal replay` gives it
  // (replay.Report.Verdict): "mismatch" when anything is wrong, else
  // "foreign" when a line is no journal event, else "flagged" when the
  // audit flags something (replay's exit status 5), else "ok"; with the
  // flags (code, event, words), the events at fault, the sessions not
  // ended, and the verdict's words (i18n.js s.*).
  function summarize(rep, foreign) {
    const mismatched = [...new Set(rep.mismatches.map((m) => m.event).filter(Boolean))];
    const open = Object.values(rep.sessions).filter((s) => !s.ended).map((s) => s.id);
    const list = Object.values(rep.rolls);
    const verdict = rep.mismatches.length ? "mismatch" : foreign.length ? "foreign" : rep.flags.length ? "flagged" : "ok";
    const codes = [...new Set(rep.flags.map((f) => f.code))];
    const words = verdict === "ok" ? tr("s.ok") : verdict === "flagged" ? tr(rep.flags.length === 1 ? "s.flagged.one" : "s.flagged.many", rep.flags.length) : tr("s.failed");
    return {
      verdict: verdict,
      words: words,
      flags: rep.flags,
      codes: codes,
      mismatches: rep.mismatches.length,
      mismatched: mismatched,
      foreign: foreign,
      open: open,
      devices: rep.devices || [],
      rolls: { checked: list.length, verified: list.filter((v) => v.status === "verified").length, sealed: list.filter((v) => v.status === "sealed").length, mismatch: list.filter((v) => v.status === "mismatch").length },
    };
  }

  // verifyExport verifies an export's text (JSON Lines): a line that is
  // no journal event is listed in the summary's foreign, as replay lists
  // it, and the rest verified.
  async function verifyExport(text, options) {
    const parsed = parseExport(text);
    const rep = await verifyEvents(parsed.records, Object.assign({}, options || {}, { foreign: parsed.foreign }));
    rep.records = parsed.records;
    rep.errors = parsed.errors;
    return rep;
  }



  // parseExport reads an export (JSON Lines, one stored event per line)
  // into records keeping each line's exact text for the chain. A line
  // that is no journal event (events.Decode's envelope checks: a JSON
  // object with specversion 1.0, a canonical UUID id, a journal type, a
  // campaign and its source, a time, JSON data) is foreign: listed with
  // its line number and left out, as replay lists and leaves it.
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
  const SLUG = /^[a-z0-9_-]{1,64}$/;
  function notEvent(ev) {
    if (!ev || typeof ev !== "object" || Array.isArray(ev)) return tr("v.notEvent");
    if (ev.specversion !== "1.0") return "specversion " + JSON.stringify(ev.specversion);
    if (typeof ev.id !== "string" || !UUID.test(ev.id)) return "id " + JSON.stringify(ev.id);
    if (typeof ev.type !== "string" || !/^journal\.[a-z0-9_.]+\.v[0-9]+$/.test(ev.type)) return "type " + JSON.stringify(ev.type);
    if (typeof ev.campaign !== "string" || !SLUG.test(ev.campaign)) return "campaign " + JSON.stringify(ev.campaign);
    if (ev.source !== "/campaigns/" + ev.campaign) return "source " + JSON.stringify(ev.source);
    if (typeof ev.time !== "string" || Number.isNaN(Date.parse(ev.time))) return "time " + JSON.stringify(ev.time);
    if (ev.datacontenttype !== "application/json") return "datacontenttype " + JSON.stringify(ev.datacontenttype);
    if (!ev.data || typeof ev.data !== "object" || Array.isArray(ev.data)) return "data";
    return "";
  }

  function parseExport(text) {
    const lines = text.split("\n");
    if (lines.length && lines[lines.length - 1] === "") lines.pop();
    const out = [];
    const errors = [];
    const foreign = [];
    lines.forEach((line, i) => {
      const l = line.endsWith("\r") ? line.slice(0, -1) : line;
      if (l.trim() === "") return;
      let why;
      let ev = null;
      try {
        ev = JSON.parse(l);
        why = notEvent(ev);
      } catch (e) {
        why = e.message;
      }
      if (!why) {
        out.push({ event: ev, line: l, n: i + 1 }); // n: its line in the file
        return;
      }
      foreign.push({ line: i + 1, reason: why });
      errors.push(tr("v.line", i + 1, why));
    });
    return { records: out, errors: errors, foreign: foreign };
  }

  global.JournalVerify = {
    judge: judge,
    contestWinner: contestWinner,
    verifyEvents: verifyEvents,
    verifyExport: verifyExport,
    parseExport: parseExport,
    parseProof: parseProof,
  };
})(typeof window !== "undefined" ? window : globalThis);
