// @ts-check
// The rules' names at the table (pure, no DOM): fold and suggest as Go's
// rules/names does (names.Fold, names.Suggest), so that a picker accepts a
// skill typed "sigilo" as the rules' "Sigilo", refuses "Advertir" with the
// suggestion "Advertir/Notar", and sends only a name the rules spell; and
// the sides of a combat (docs/design.md §6), for an attack's target.
//
//   JournalNames.fold(s)                    lower case, no accents, one space
//   JournalNames.suggest(query, names)      the closest names (a typo away), or []
//   JournalNames.resolve(typed, names)      {name} when typed folds to one
//                                           name (or a '/' part of one, or
//                                           an English name given as
//                                           [name, english]), else
//                                           {suggestions: [...]} (maybe empty)
//   JournalNames.sideOf(campaign, id)       "party" or "enemies"
//   JournalNames.targets(campaign, attacker) the combat's other participants,
//                                           the attacker's enemies first
//
// Invariants: fold and suggest give what names.Fold and names.Suggest give
// for the same input (TestNamesJSAgreesWithGo); resolve never returns a
// name that is not in the list.
(function (global) {
  "use strict";

  const ACCENTS = { á: "a", à: "a", â: "a", ä: "a", ã: "a", å: "a", é: "e", è: "e", ê: "e", ë: "e", í: "i", ì: "i", î: "i", ï: "i",
    ó: "o", ò: "o", ô: "o", ö: "o", õ: "o", ú: "u", ù: "u", û: "u", ü: "u", ñ: "n", ç: "c", ý: "y", ÿ: "y" };

  // fold is names.Fold: lower-cased, combining marks dropped, accented
  // Latin letters to their base, '_' and runs of space to one space, trimmed.
  function fold(s) {
    let out = "";
    let space = false;
    for (const r of String(s || "").normalize("NFC")) {
      if (/\p{Mn}/u.test(r)) continue;
      if (r === "_" || /\s/u.test(r)) {
        space = out.length > 0;
        continue;
      }
      if (space) {
        out += " ";
        space = false;
      }
      const l = r.toLowerCase();
      out += ACCENTS[l] || l;
    }
    return out;
  }

  // keysOf are the folded forms a name answers to (the name, its '/' parts).
  function keysOf(name) {
    const keys = [fold(name)];
    if (name.includes("/")) for (const p of name.split("/")) keys.push(fold(p));
    return keys;
  }

  // distance is the optimal string alignment distance, in code points.
  function distance(a, b) {
    const ra = [...a];
    const rb = [...b];
    let prev2 = new Array(rb.length + 1).fill(0);
    let prev = rb.map((_, j) => j + 1);
    prev.unshift(0);
    for (let i = 1; i <= ra.length; i++) {
      const cur = new Array(rb.length + 1).fill(0);
      cur[0] = i;
      for (let j = 1; j <= rb.length; j++) {
        const cost = ra[i - 1] === rb[j - 1] ? 0 : 1;
        cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
        if (i > 1 && j > 1 && ra[i - 1] === rb[j - 2] && ra[i - 2] === rb[j - 1]) cur[j] = Math.min(cur[j], prev2[j - 2] + 1);
      }
      prev2 = prev;
      prev = cur;
    }
    return prev[rb.length];
  }

  // suggest is names.Suggest: the names fewest edits away from query, if
  // that is a typo (one edit for 3 to 5 letters, a third of the length for
  // longer; nothing under 3 letters); 4 letters or more also match a
  // longer name's start.
  function suggest(query, names) {
    const q = fold(query);
    const n = [...q].length;
    if (n < 3) return [];
    const limit = Math.max(1, Math.floor(n / 3));
    let best = limit + 1;
    let out = [];
    for (const c of names) {
      let d = limit + 1;
      for (const k of keysOf(c)) {
        d = Math.min(d, distance(q, k));
        const r = [...k];
        if (n >= 4 && r.length > n) d = Math.min(d, distance(q, r.slice(0, n).join("")));
      }
      if (d < best) {
        best = d;
        out = [c];
      } else if (d === best && d <= limit && !out.includes(c)) out.push(c);
    }
    return best > limit ? [] : out;
  }

  // resolve finds the rules' name a typed one means: entries are names or
  // [name, other spelling…] (The One Ring's English names, RyF's letters).
  // Only an exact fold of the whole name or of another spelling resolves;
  // a '/' part alone ("Advertir") or a typo is a suggestion, so that what
  // is sent is the name as the rules spell it.
  function resolve(typed, entries) {
    const q = fold(typed);
    const list = (entries || []).map((e) => (Array.isArray(e) ? e : [e]));
    if (!q) return { suggestions: [] };
    for (const [name, ...others] of list) {
      if (fold(name) === q || others.some((o) => o && fold(o) === q)) return { name: name };
    }
    const names = list.map((e) => e[0]);
    const near = suggest(typed, names);
    for (const [name, ...others] of list) if (others.some((o) => o && suggest(typed, [o]).length) && !near.includes(name)) near.push(name);
    return { suggestions: near };
  }

  // sideOf is a combat participant's side: as its start recorded it, else
  // "enemies" for an NPC and "party" for a player's character.
  function sideOf(campaign, id) {
    const cb = (campaign && (campaign.combat || campaign.last_combat)) || {};
    if (cb.sides && cb.sides[id]) return cb.sides[id];
    const ch = (campaign && campaign.characters && campaign.characters[id]) || {};
    return ch.npc ? "enemies" : "party";
  }

  // targets are the combat's participants but the attacker, its enemies
  // first (in initiative order), then its allies.
  function targets(campaign, attacker) {
    const cb = (campaign && campaign.combat) || {};
    const others = (cb.order || []).filter((id) => id !== attacker);
    const mine = sideOf(campaign, attacker);
    return others.filter((id) => sideOf(campaign, id) !== mine).concat(others.filter((id) => sideOf(campaign, id) === mine));
  }

  global.JournalNames = { fold: fold, suggest: suggest, resolve: resolve, sideOf: sideOf, targets: targets, distance: distance };
})(typeof window !== "undefined" ? window : globalThis);
