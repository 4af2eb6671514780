// @ts-check
// The pages' one DOM and API helper (no build step: a plain script that
// the pages load before their own, and that the offline verifier inlines).
//
//   JournalDOM.el(tag, attrs, ...children)  an element, built with
//       textContent and attributes only: never HTML from data.
//   JournalDOM.api(method, path, body?, opts?)  → Promise<JSON>: one request
//       to the journal's API, its JSON answer or its own refusal.
//   JournalDOM.APIError                       the refusal: status, message.
//
// Invariants:
//   - el never parses markup: a child that is not a Node is a text node
//     (String(child)), and attributes are set with setAttribute, so text
//     from an event or a request can never become markup.
//   - api sends the page's language as Accept-Language, the token as
//     Authorization: Bearer when there is one, and no cookies; a refusal
//     rejects with the journal's own message (error.message of its JSON
//     body), unchanged.
//   - A request with an Idempotency-Key (opts.key) is sent again when the
//     network failed, three times, 0.5, 1 and 2 s apart: the answer may
//     have been lost after the journal recorded it, and the same key
//     records once. A request without one is never repeated.
(function (global) {
  "use strict";

  /**
   * Attributes of el: "class" (className), "text" (textContent),
   * "dataset" (an object of data-* values), "on<event>" (a listener);
   * any other is an attribute (true: present and empty). null, undefined
   * and false set nothing.
   * @typedef {Record<string, any>} Attrs
   */

  /**
   * A child of el: a Node, or a value written as text; null, undefined
   * and false are left out; arrays are flattened.
   * @typedef {Node | string | number | boolean | null | undefined | any[]} Child
   */

  /**
   * el builds an element: el("button", {class: "x", onclick: f}, "text", child…).
   * @param {string} tag
   * @param {Attrs | null} [attrs]
   * @param {...Child} children
   * @returns {HTMLElement}
   */
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "class") e.className = v;
      else if (k === "text") e.textContent = v;
      else if (k === "dataset") Object.assign(e.dataset, v);
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? "" : String(v));
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      e.append(c instanceof Node ? c : String(c));
    }
    return e;
  }

  /** A refusal of the journal: the HTTP status and the journal's own message. */
  class APIError extends Error {
    /**
     * @param {number} status
     * @param {string} message
     */
    constructor(status, message) {
      super(message);
      this.name = "APIError";
      this.status = status;
    }
  }

  /**
   * Options of api.
   * @typedef {object} APIOptions
   * @property {string} [token] the bearer token ("" or absent: none)
   * @property {string} [key] the Idempotency-Key (the intent's request id)
   * @property {string} [lang] Accept-Language (default: the page's)
   */

  /** @param {number} ms */
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

  /**
   * api sends one request and resolves to its JSON answer (null when it
   * has none); a refusal rejects with an APIError.
   * @param {string} method
   * @param {string} path
   * @param {any} [body] sent as JSON when not undefined
   * @param {APIOptions} [opts]
   * @returns {Promise<any>}
   */
  async function api(method, path, body, opts) {
    const o = opts || {};
    /** @type {Record<string, string>} */
    const headers = { Accept: "application/json", "Accept-Language": o.lang || document.documentElement.lang || "en" };
    if (o.token) headers.Authorization = "Bearer " + o.token;
    if (o.key) headers["Idempotency-Key"] = o.key;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    /** @type {RequestInit} */
    const req = { method: method, headers: headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: "omit" };
    let res;
    for (let attempt = 0; ; attempt++) {
      try {
        res = await global.fetch(path, req);
        break;
      } catch (e) {
        if (!o.key || attempt >= 3) throw e;
        await sleep(500 * 2 ** attempt);
      }
    }
    const text = await res.text();
    let data = null;
    try {
      data = text ? JSON.parse(text) : null;
    } catch (e) {
      data = null;
    }
    if (!res.ok) throw new APIError(res.status, (data && data.error && (data.error.message || data.error)) || res.status + " " + res.statusText);
    return data;
  }

  global.JournalDOM = { el: el, api: api, APIError: APIError };
})(typeof window !== "undefined" ? window : globalThis);
