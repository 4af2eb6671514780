// Verification of a campaign's events in the browser: the dice (dice.js for
// journal-dice-v1, dice2.js for journal-dice-v2), the signatures of device
// messages (signed.js), the reveal against the request's commitment, the
// hash chain of an export (prevhash over each line's exact bytes), and the
// rules judged again: kept dice, totals and outcomes (RULES.md; the Go
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

  // judge returns what the rules say is wrong with a roll's record ([]: nothing).
  function judge(d) {
    if (!d) return [tr("v.noData")];
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


  // --- journal-dice-v2 beyond one roll (replay/v2*.go): GM rolls (a
  // player's witness, a beacon round, unwitnessed), the requests' fields
  // against their signed actions, contests, initiative and healing after a
  // combat re-derived from their rolls, co-signed session ends, voids'
  // consents, and the flags (replay/v2_flags.go): what the audit reports
  // without failing. A co-signature names SHA-256 of the session-ended
  // event's stored bytes: an export's line, else (from the API) the next
  // event's prevhash, which the server served and the page cannot check.
  const STALE_MS = 30 * 24 * 3600 * 1000;
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

  async function verifyV2(records, x) {
    const { rolls, bad, problem, flag, options } = x;
    const now = options.now ? Date.parse(options.now) : Date.now();
    const keys = {};
    const roles = {};
    const registeredBy = {};
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
    const badOr = (ids, why, ev) => {
      const known = ids.filter((id) => id && rolls[id]);
      if (known.length) known.forEach((id) => bad(id, why));
      else problem(tr("v2.event", ev.id, why));
    };
    for (let i = 0; i < records.length; i++) {
      const ev = records[i].event;
      if (!ev || typeof ev !== "object") continue;
      const d = ev.data || {};
      const t = Date.parse(ev.time);
      switch (ev.type) {
        case "journal.campaign.created.v1":
          system = d.system || system;
          break;
        case "journal.participant.registered.v1":
          if (d.user && d.public_key) keys[d.user] = d.public_key;
          roles[d.user] = d.role;
          registeredBy[d.user] = ev.actor;
          if (ev.actor !== d.user) flag("key-by-other", ev.id, tr("v2.f.keyByOther", d.user, ev.actor));
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
          if (d.event_id) voidedOf[d.event_id] = { by: ev.actor, reason: d.reason || "" };
          break;
      }
      const s0 = ss[ev.session];
      if (ev.type === "journal.session.started.v1") {
        if (d.algorithm === "journal-dice-v2") ss[ev.session] = { id: ev.session, startID: ev.id, commitment: d.commitment, contributions: 0, requests: {}, order: [], cosigs: [], actions: {}, gmSource: {}, ended: false, last: t, lastID: ev.id, due: null };
        continue;
      }
      if (s0) {
        if (t > s0.last) {
          s0.last = t;
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
        if (s0 && (!due || due.kind !== "initiative" || due.rolls.length !== due.need)) problem(tr("v2.event", ev.id, tr("v2.noRolls", ev.type, "initiative")));
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
      if (!s0) continue;
      const s = s0;
      switch (ev.type) {
        case "journal.session.contributed.v1":
          if (s.order.length) problem(tr("v2.event", ev.id, tr("v2.lateContribution")));
          else s.contributions++;
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
          if (why) problem(tr("v2.event", ev.id, tr("v2.cosign", why)));
          else s.cosigs.push({ user: d.user, role: roles[d.user], event: ev.id });
          break;
        }
        case "journal.roll.cancelled.v1": {
          const r = s.requests[d.request];
          if (!r || r.state !== "pending" || r.d.nonce !== d.nonce) problem(tr("v2.event", ev.id, tr("v2.badCancel", d.request)));
          else {
            r.state = "cancelled";
            flag("cancelled", ev.id, tr("v2.f.cancelled", d.request, d.nonce));
          }
          break;
        }
        case "journal.roll.requested.v1": {
          const fail = (why) => problem(tr("v2.event", ev.id, why));
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
          if (diff.length) {
            fail(tr("v2.fields", diff.join("; ")));
            break;
          }
          if (s.requests[d.request]) {
            fail(tr("v2.replayed", d.request));
            break;
          }
          const gm = roles[d.user] === "gm";
          if (gm && d.commitment) fail(tr("v2.gmCommitment", d.user));
          else if (!gm && !d.commitment) fail(tr("v2.noCommitment", d.user));
          else if (!gm && (d.wait || d.beacon_round)) fail(tr("v2.playerWait"));
          else if (gm && !(d.wait > 0)) fail(tr("v2.noWait"));
          else if (gm && d.beacon_round && global.JournalBeacon && !(Number(d.beacon_round) > global.JournalBeacon.roundAt(Math.floor(t / 1000)))) fail(tr("v2.beaconKnown", d.beacon_round));
          // Repeated: the same action by the same user after the first was revealed.
          if (a) {
            const key = d.user + "|" + (combat ? combat.id + "/" + combat.round : "") + "|" + canonical(a);
            const earlier = s.actions[key] || [];
            s.actions[key] = earlier.concat([d.request]);
            const prev = earlier.map((id) => s.requests[id]).find((r) => r && r.state === "made");
            if (prev) flag("repeated", ev.id, tr("v2.f.repeated", d.request, d.user, prev.d.request));
          }
          s.requests[d.request] = { ev: ev, d: d, state: "pending", rolled: 0 };
          s.order.push(d.request);
          break;
        }
        case "journal.roll.made.v1": {
          const r = s.requests[d.request];
          if (!r) break; // verifyEvents says so
          const multi = r.d.target || PATH_COMMANDS[r.d.kind];
          const more = r.state === "made" && multi && r.rolled < taken(r.d).length;
          if (r.state !== "pending" && !more) {
            bad(ev.id, tr("v2.already", d.request, r.state));
            break;
          }
          r.state = "made";
          r.rolled++;
          v2rolls[ev.id] = { session: s, roller: r.d.user };
          if (!r.d.commitment) await gmSource(ev, d, r, s, more, x, keys, roles, registeredBy, flag);
          else if (d.witness) bad(ev.id, tr("v2.witnessWithCommitment", d.witness));
          else if (d.user !== r.d.user) bad(ev.id, tr("v2.revealedBy", d.user, r.d.user));
          if (PATH_COMMANDS[r.d.kind]) {
            const k = r.rolled - 1;
            if (k === 0) {
              if (s.due) problem(tr("v2.event", s.due.ids[0], tr("v2.noConsequence", s.due.kind)));
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
            problem(tr("v2.event", ev.id, tr("v2.noRolls", ev.type, "contest")));
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
          if (diff.length) badOr(due.ids, diff.join("; "), ev);
          break;
        }
        case "journal.healed.v1": {
          if (d.reason !== "after_combat") break;
          const due = s.due;
          if (!due || due.kind !== "heal" || due.rolls.length !== due.need) {
            problem(tr("v2.event", ev.id, tr("v2.noRolls", ev.type, "heal")));
            break;
          }
          s.due = null;
          if (d.character !== due.d.character || d.amount !== due.heal) badOr(due.ids, tr("v2.heal", d.amount, due.heal, due.rolls[0].data.total), ev);
          break;
        }
        case "journal.tor.hope.spent.v1": {
          if (!d.signed) {
            problem(tr("v2.event", ev.id, tr("v2.hopeUnsigned")));
            break;
          }
          const sg = await global.JournalSigned.verifyEvent(ev, keys).catch((e) => ({ status: "mismatch", reason: e.message }));
          if (sg.status !== "verified") {
            problem(tr("v.signatureOf", ev.id, sg.reason));
            break;
          }
          const a = signedAction(d) || {};
          const q = s.requests[d.roll_request];
          const roll = x.byID[d.roll];
          const diff = [];
          if (a.command !== "tor-hope" || a.seed_commitment !== s.commitment || a.character !== d.character || a.roll_request !== d.roll_request) diff.push(tr("v2.fields", "action"));
          if (!q || q.state !== "made" || !roll || (roll.data || {}).request !== d.roll_request) diff.push(tr("v2.hopeRoll", d.roll_request));
          else if (q.d.user !== d.user) diff.push(tr("v2.hopeRoller", d.user, q.d.user));
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
    // The flags of every v2 session, and what is due at the end.
    for (const s of Object.values(ss)) {
      if (s.contributions === 0) flag("no-contribution", s.startID, tr("v2.f.noContribution", s.id));
      for (const id of s.order) {
        const r = s.requests[id];
        if (r.state === "pending") flag("unrevealed", r.ev.id, tr("v2.f.unrevealed", id, r.d.nonce));
      }
      if (s.due) problem(tr("v2.event", s.due.ids[0], tr("v2.noConsequence", s.due.kind)));
      if (s.ended) {
        if (!s.cosigs.some((c) => c.role === "player")) flag("not-cosigned", s.endID, tr("v2.f.notCosigned", s.id));
      } else if (now - s.last > STALE_MS) {
        flag("stale", s.lastID, tr("v2.f.stale", new Date(s.last).toISOString(), Math.floor((now - s.last) / 86400000)));
      }
    }
    for (const [id, r] of Object.entries(v2rolls)) {
      const v = voidedOf[id];
      if (!v) continue;
      flag("voided", id, consents[id] ? tr("v2.f.voidedConsented", id, v.by, v.reason, consents[id]) : tr("v2.f.voided", id, v.by, v.reason));
    }
    return { sessions: ss };
  }

  // ensureNoble loads vendor/noble-curves.js (BLS12-381, for beacon.js)
  // on a page that did not: the dashboard and the permalink load it only
  // when a beacon roll is verified; the offline verifier inlines it.
  let noble = null;
  function ensureNoble() {
    if (global.JournalNoble || typeof document === "undefined") return Promise.resolve();
    noble = noble || new Promise((resolve, reject) => {
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

  // gmSource checks where a GM request's roll took r from (replay's gmRollR).
  async function gmSource(ev, d, r, s, damage, x, keys, roles, registeredBy, flag) {
    const no = (why) => x.bad(ev.id, why);
    const src = [d.witness, d.reveal, d.signed, d.beacon_signature].join("|");
    if (!/^[0-9a-f]{64}$/.test(String(d.reveal))) return no(tr("v2.badR"));
    if (damage) {
      if (s.gmSource[d.request] !== src) no(tr("v2.damageSource", d.witness));
      return;
    }
    s.gmSource[d.request] = src;
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
      if (rand !== d.reveal) no(tr("v2.beaconR", r.d.beacon_round));
      return;
    }
    if (d.witness === "none") {
      if (d.signed || d.signature || d.beacon_signature) return no(tr("v2.noneSigned"));
      if (roles[ev.actor] !== "gm" && !(ev.actor === "gm" && roles.gm === undefined)) return no(tr("v2.noneByPlayer", ev.actor));
      let from = Date.parse(r.ev.time);
      if (r.d.beacon_round && global.JournalBeacon) from = Math.max(from, global.JournalBeacon.timeOf(r.d.beacon_round) * 1000);
      if (Date.parse(ev.time) < from + (r.d.wait || 0) * 1000) return no(tr("v2.noneEarly"));
      flag("unwitnessed", ev.id, tr("v2.f.unwitnessed", d.request, d.nonce));
      return;
    }
    if (d.witness !== d.user) return no(tr("v2.witnessNotSigner", d.witness, d.user));
    if (d.user === r.d.user) return no(tr("v2.witnessRequester", d.user));
    if (roles[d.user] === "gm") return no(tr("v2.witnessGM", d.user));
    if (d.beacon_signature || d.beacon_round) return no(tr("v2.witnessBeacon"));
    let m;
    try {
      m = await global.JournalSigned.open(keys[d.user], d.signed, d.signature, ev.campaign, ev.session);
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
    if (registeredBy[d.user] && registeredBy[d.user] !== d.user) flag("witness-key-by-other", ev.id, tr("v2.f.witnessKeyByOther", d.request, d.user, registeredBy[d.user]));
    if (r.d.beacon_round) flag("beacon-not-used", ev.id, tr("v2.f.beaconNotUsed", d.request, r.d.beacon_round, d.user));
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
    if (!keys[d.consent_user]) return tr("v2.noKey", d.consent_user);
    let m;
    try {
      m = await global.JournalSigned.open(keys[d.consent_user], d.consent_signed, d.consent_signature, ev.campaign, roll.session.id);
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
    const requests = {};
    const byID = {};
    const voided = {};
    const nonces = {};
    const characters = new Set();
    // A log that starts mid-campaign (an export of one session) may
    // not hold the characters' creation: then existence is not checked.
    const whole = records.length > 0 && records[0].event && records[0].event.type === "journal.campaign.created.v1";
    const chain = { checked: 0, ok: true, reason: "" };
    const verdict = (id) => (rolls[id] = rolls[id] || { status: "verified", reasons: [], flags: [] });
    const bad = (id, reason) => {
      const v = verdict(id);
      v.status = "mismatch";
      v.reasons.push(reason);
    };
    const chains = {};
    for (let i = 0; i < records.length; i++) {
      const rec = records[i];
      const ev = rec.event;
      if (!ev || typeof ev !== "object") continue;
      byID[ev.id] = ev;
      if (typeof rec.line === "string") {
        if (ev.prevhash !== undefined || ev.type === ANCHOR) chain.checked++;
        if (!(await chainStep(chains, rec, i + 1, problems))) chain.ok = false;
      }
      const d = ev.data || {};
      switch (ev.type) {
        case "journal.session.started.v1":
          sessions[ev.session] = { id: ev.session, algorithm: d.algorithm || "journal-dice-v1", commitment: d.commitment, contributions: [] };
          break;
        case "journal.session.ended.v1":
          if (sessions[ev.session]) sessions[ev.session].seed = d.seed;
          break;
        case "journal.session.contributed.v1":
          if (sessions[ev.session]) sessions[ev.session].contributions.push(d.value);
          await checkSigned(ev, keys, problems);
          break;
        case "journal.participant.registered.v1":
          if (d.user && d.public_key) keys[d.user] = d.public_key;
          break;
        case "journal.roll.requested.v1":
          requests[d.request] = ev;
          await checkSigned(ev, keys, problems);
          break;
        case "journal.event.voided.v1":
          if (d.event_id) voided[d.event_id] = d.reason || "";
          break;
        case "journal.character.created.v1":
        case "journal.tor.character.created.v1":
          characters.add(ev.subject && ev.subject.startsWith("characters/") ? ev.subject.slice(11) : d.id);
          break;
      }
      if (ev.type !== ROLL) continue;
      if (options.only && !options.only.includes(ev.id)) {
        // Still count its nonce.
        const key = ev.session + "|" + d.nonce;
        nonces[key] = (nonces[key] || 0) + 1;
        continue;
      }
      const v = verdict(ev.id);
      const session = sessions[ev.session] ? Object.assign({}, sessions[ev.session]) : null;
      // Seeds revealed later in the log count too.
      if (session && !session.seed) {
        const end = records.find((r) => r.event && r.event.type === "journal.session.ended.v1" && r.event.session === ev.session);
        if (end) session.seed = (end.event.data || {}).seed;
      }
      let r;
      try {
        if (session && session.algorithm === "journal-dice-v2") {
          const rq = requests[d.request] || null;
          if (!rq) bad(ev.id, tr("v.noRequest", d.request));
          r = await global.JournalDiceV2.verify(ev, session, rq);
          if (d.signed !== undefined) {
            const s = await global.JournalSigned.verifyEvent(ev, keys);
            if (s.status !== "verified") bad(ev.id, tr("v.signature", s.reason));
          }
          if (rq) {
            const s = await global.JournalSigned.verifyEvent(rq, keys);
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
      v.detail = r;
      for (const p of judge(d)) bad(ev.id, p);
      if (whole && d.character && !characters.has(d.character)) bad(ev.id, tr("v.noCharacter", d.character));
      const key = ev.session + "|" + d.nonce;
      nonces[key] = (nonces[key] || 0) + 1;
      if (nonces[key] > 1) bad(ev.id, tr("v.nonceTwice", d.nonce));
    }
    // Consequences: attacks, damage taken, contests.
    const isV2 = (ev) => !!sessions[ev.session] && sessions[ev.session].algorithm === "journal-dice-v2";
    for (let i = 0; i < records.length; i++) {
      const ev = records[i].event;
      if (!ev) continue;
      const d = ev.data || {};
      if (ev.type === "journal.attack.resolved.v1") {
        const atk = byID[d.attack_roll];
        const dmg = d.damage_roll ? byID[d.damage_roll] : null;
        const ids = [d.attack_roll, d.damage_roll].filter((x) => x && rolls[x]);
        const fail = (why) => ids.forEach((id) => bad(id, why));
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
        const order = d.order || [];
        for (const [who, rid] of Object.entries(d.initiative || {})) {
          const r = byID[rid];
          if (r && (r.data || {}).total !== (d.totals || {})[who]) ids.forEach((x) => bad(x, tr("v.initiative", who, (d.totals || {})[who], (r.data || {}).total)));
        }
        for (let k = 1; k < order.length; k++) {
          if (((d.totals || {})[order[k]] ?? 0) > ((d.totals || {})[order[k - 1]] ?? 0)) ids.forEach((x) => bad(x, tr("v.order", order.join(" "))));
        }
      } else if (ev.type === "journal.contest.resolved.v1" && !isV2(ev)) {
        const a = byID[d.roll_a];
        const b = byID[d.roll_b];
        if (!a || !b) continue;
        const w = contestWinner(a.data || {}, b.data || {}, d.a, d.b);
        if ((d.winner || "") !== w) [d.roll_a, d.roll_b].filter((x) => rolls[x]).forEach((id) => bad(id, tr("v.winner", w || tr("f.tie"), d.winner || tr("f.tie"))));
      }
    }
    // journal-dice-v2 beyond one roll, and the flags.
    const flags = [];
    const problem = (p) => problems.push(p);
    const flag = (code, event, what) => {
      flags.push({ code: code, event: event, what: what });
      if (rolls[event] && !rolls[event].flags.includes(what)) rolls[event].flags.push(what);
    };
    // A session's own flags are every roll of it's too.
    const sessionFlags = new Set(["no-contribution", "not-cosigned", "stale"]);
    const flagSession = (code, event, what) => {
      flag(code, event, what);
      const sid = byID[event] && byID[event].session;
      if (!sessionFlags.has(code) || !sid) return;
      for (const [id, v] of Object.entries(rolls)) if (byID[id] && byID[id].session === sid && !v.flags.includes(what)) v.flags.push(what);
    };
    await verifyV2(records, { rolls: rolls, bad: (id, why) => (options.only && !options.only.includes(id) ? null : bad(id, why)), problem: problem, flag: flagSession, options: options, byID: byID });
    // Nonces without gaps: a gap is a roll that was made and hidden
    // (v2: the nonces requests took, cancelled ones included).
    const taken = {};
    for (const r of records) {
      const ev = r.event;
      if (!ev || !sessions[ev.session]) continue;
      const d = ev.data || {};
      const v2 = sessions[ev.session].algorithm === "journal-dice-v2";
      let ns = [];
      if (v2 && ev.type === "journal.roll.requested.v1") ns = Array.isArray(d.nonces) ? d.nonces : [d.nonce];
      else if (!v2 && ev.type === ROLL) ns = [d.nonce];
      for (const n of ns) if (Number.isSafeInteger(n)) (taken[ev.session] = taken[ev.session] || new Set()).add(n);
    }
    for (const [sid, set] of Object.entries(taken)) {
      const max = Math.max(...set);
      for (let n = 0; n <= max; n++) if (!set.has(n)) problems.push(tr("v.nonceGap", n, sid));
    }
    for (const [id, v] of Object.entries(rolls)) {
      if (Object.prototype.hasOwnProperty.call(voided, id) && !flags.some((f) => f.code === "voided" && f.event === id)) v.flags.push(tr("v.voided", voided[id]));
      if (!chain.ok && v.status !== "mismatch") {
        v.status = "mismatch";
        v.reasons.push(tr("v.chainFile"));
      }
    }
    return { rolls: rolls, problems: problems, flags: flags, chain: chain, sessions: sessions, keys: keys, count: Object.keys(rolls).length };
  }

  async function checkSigned(ev, keys, problems) {
    const d = ev.data || {};
    if (d.signed === undefined) return;
    try {
      const s = await global.JournalSigned.verifyEvent(ev, keys);
      if (s.status !== "verified") problems.push(tr("v.signatureOf", ev.id, s.reason));
    } catch (e) {
      problems.push(tr("v.signatureOf", ev.id, e.message));
    }
  }

  // parseExport reads an export (JSON Lines, one stored event per line)
  // into records keeping each line's exact text for the chain.
  function parseExport(text) {
    const lines = text.split("\n");
    if (lines.length && lines[lines.length - 1] === "") lines.pop();
    const out = [];
    const errors = [];
    lines.forEach((line, i) => {
      const l = line.endsWith("\r") ? line.slice(0, -1) : line;
      if (l.trim() === "") return;
      try {
        const ev = JSON.parse(l);
        if (!ev || typeof ev !== "object" || typeof ev.id !== "string" || typeof ev.type !== "string") throw new Error(tr("v.notEvent"));
        out.push({ event: ev, line: l });
      } catch (e) {
        errors.push(tr("v.line", i + 1, e.message));
      }
    });
    return { records: out, errors: errors };
  }

  global.JournalVerify = {
    judge: judge,
    contestWinner: contestWinner,
    verifyEvents: verifyEvents,
    parseExport: parseExport,
  };
})(typeof window !== "undefined" ? window : globalThis);
