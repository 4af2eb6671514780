// @ts-check
// A roll's permalink page (/r/{campaign}/{event}): the card of the action
// the roll belongs to, verified at once in the visitor's browser, with the
// forum line to copy. Words come from i18n.js.
(function () {
  "use strict";

  const t = (k, ...a) => JournalI18n.t(k, ...a);
  JournalI18n.apply(document);
  document.title = t("r.title");
  const parts = location.pathname.split("/").map(decodeURIComponent);
  const campaign = parts[2] || "";
  const id = parts[3] || "";
  const status = /** @type {HTMLElement} */ (document.getElementById("status"));
  /** @type {HTMLAnchorElement} */ (document.getElementById("back")).href = "/?campaign=" + encodeURIComponent(campaign);
  // The access token typed on the dashboard, else the table's sign-in's.
  const tableToken = () => {
    try {
      return (JSON.parse(localStorage.getItem("journal.table") || "null") || {}).token || "";
    } catch (e) {
      return "";
    }
  };
  const token = () => localStorage.getItem("journal.token") || tableToken();

  const api = (path) => JournalDOM.api("GET", path, undefined, { token: token() }); // dom.js

  let data = null;
  const nameOf = (cid) => {
    const ch = (data && data.characters && data.characters[cid]) || (data && data.tor && data.tor.characters && data.tor.characters[cid]);
    return (ch && ch.name) || cid || "";
  };

  // With ?k= (a permalink's capability, for a reader with no token) the
  // events come from the roll's evidence only; else from the campaign's API.
  const cap = new URLSearchParams(location.search).get("k");
  async function source() {
    if (!cap) return api;
    const path = "/api/permalinks/" + encodeURIComponent(campaign) + "/" + encodeURIComponent(id) + "?k=" + encodeURIComponent(cap);
    const res = await fetch(path, { headers: { Accept: "application/json", "Accept-Language": document.documentElement.lang || "en" } });
    if (res.status === 404) return null;
    const body = await res.json().catch(() => null);
    if (!res.ok || !body) throw new Error((body && body.error && (body.error.message || body.error)) || res.status + " " + res.statusText);
    // The evidence holds the rolls' characters' creation: their names.
    data = { characters: {} };
    for (const r of body.records) {
      const ev = r.event || {};
      if (ev.type === "journal.character.created.v1" || ev.type === "journal.tor.character.created.v1") {
        const cid = (ev.subject || "").replace(/^characters\//, "") || (ev.data || {}).id;
        if (cid && ev.data && ev.data.name) data.characters[cid] = { name: ev.data.name };
      }
    }
    return async (p) => (p.includes("/events?from=1&") ? body.records : []);
  }

  async function main() {
    const read = await source();
    if (!read) {
      status.textContent = t("r.notFound", id, campaign);
      status.dataset.status = "missing";
      return;
    }
    if (!cap) data = await api("/api/campaigns/" + encodeURIComponent(campaign));
    const list = /** @type {HTMLElement} */ (document.getElementById("card"));
    const feed = JournalFeed.create({ list: list, api: read, campaign: () => campaign, nameOf: nameOf });
    const records = await feed.loadAll();
    const at = records.findIndex((r) => r.event.id === id);
    if (at < 0 || records[at].event.type !== "journal.roll.made.v1") {
      status.textContent = t("r.notFound", id, campaign);
      status.dataset.status = "missing";
      return;
    }
    // The action the roll belongs to is recorded in one batch around it.
    feed.add(records.slice(Math.max(0, at - 4), at + 5), false);
    const node = feed.cardOf(id);
    for (const li of [...list.children]) if (li !== node) li.remove();
    status.textContent = "";
    const button = node && node.querySelector("button.verify");
    if (button) button.click();
  }

  main().catch((err) => {
    status.textContent = t("verify.error", err.message);
    status.dataset.status = "error";
  });
})();
