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

  // judge returns what the rules say is wrong with a roll's record ([]: nothing).
  function judge(d) {
    if (!d) return [tr("v.noData")];
    if (d.kind === "tor" || d.system === "tor") return judgeTOR(d);
    if (d.dice === "1o3d10") return judge1o3d10(d);
    if (d.kind === "damage" || d.kind === "heal") return judgeDamage(d);
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

  // --- The hash chain of an export ---
  async function sha256Hex(text) {
    const D = global.JournalDice;
    return D.bytesToHex(await D.sha256(new TextEncoder().encode(text)));
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
    let chained = false;
    for (let i = 0; i < records.length; i++) {
      const rec = records[i];
      const ev = rec.event;
      if (!ev || typeof ev !== "object") continue;
      byID[ev.id] = ev;
      if (typeof rec.line === "string") {
        if (ev.prevhash !== undefined) {
          if (i > 0) {
            const h = await sha256Hex(records[i - 1].line);
            chain.checked++;
            if (h !== ev.prevhash) {
              chain.ok = false;
              problems.push(tr("v.chainBroken", i + 1, ev.id));
            }
          }
          chained = true;
        } else if (chained) {
          chain.ok = false;
          problems.push(tr("v.chainMissing", i + 1, ev.id));
        }
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
          if (d.event) voided[d.event] = d.reason || "";
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
      (r.flags || []).forEach((f) => v.flags.push(f));
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
      } else if (ev.type === "journal.combat.started.v1") {
        // The initiative order follows the initiative rolls' totals.
        const ids = Object.values(d.initiative || {}).filter((x) => rolls[x]);
        const order = d.order || [];
        for (const [who, rid] of Object.entries(d.initiative || {})) {
          const r = byID[rid];
          if (r && (r.data || {}).total !== (d.totals || {})[who]) ids.forEach((x) => bad(x, tr("v.initiative", who, (d.totals || {})[who], (r.data || {}).total)));
        }
        for (let k = 1; k < order.length; k++) {
          if (((d.totals || {})[order[k]] ?? 0) > ((d.totals || {})[order[k - 1]] ?? 0)) ids.forEach((x) => bad(x, tr("v.order", order.join(" "))));
        }
      } else if (ev.type === "journal.contest.resolved.v1") {
        const a = byID[d.roll_a];
        const b = byID[d.roll_b];
        if (!a || !b) continue;
        const w = contestWinner(a.data || {}, b.data || {}, d.a, d.b);
        if ((d.winner || "") !== w) [d.roll_a, d.roll_b].filter((x) => rolls[x]).forEach((id) => bad(id, tr("v.winner", w || tr("f.tie"), d.winner || tr("f.tie"))));
      }
    }
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
      if (Object.prototype.hasOwnProperty.call(voided, id)) v.flags.push(tr("v.voided", voided[id]));
      if (!chain.ok && v.status !== "mismatch") {
        v.status = "mismatch";
        v.reasons.push(tr("v.chainFile"));
      }
    }
    return { rolls: rolls, problems: problems, chain: chain, sessions: sessions, keys: keys, count: Object.keys(rolls).length };
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
