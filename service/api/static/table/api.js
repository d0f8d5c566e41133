// The service's public API, called as any integrator calls it: fetch, JSON
// in and out, problem documents (RFC 9457) for errors, and an API key as
// "Authorization: Bearer <key>" when the service requires one. The key lives
// in this object only: never in storage, never in a URL. Each call asks for
// the page's language (Accept-Language), in which the service writes its
// reasons, bet lines and problems.

import { ENGLISH, _ } from "./language.js";

export const JSON_TYPE = "application/json";
export const SVG_TYPE = "image/svg+xml";
const PROBLEM_TYPE = "application/problem+json";

/** An answer that is not what was asked for: a problem document, or one made up to say what went wrong. */
export class Problem extends Error {
  constructor(status, document) {
    super(document.detail || document.title || `HTTP ${status}`);
    this.status = status;
    this.document = document;
  }

  /** Field-level errors: [{pointer, detail}]. */
  get errors() {
    return Array.isArray(this.document.errors) ? this.document.errors : [];
  }
}

function mediaType(response) {
  return (response.headers.get("Content-Type") || "").split(";")[0].trim().toLowerCase();
}

export class Api {
  constructor() {
    this.key = "";
    this.language = ENGLISH;
  }

  /** The answer to one request; any status but 2xx is thrown as a Problem. */
  async send(method, path, { body, accept = JSON_TYPE } = {}) {
    const headers = { Accept: accept, "Accept-Language": this.language };
    if (body !== undefined) headers["Content-Type"] = JSON_TYPE;
    if (this.key) headers.Authorization = `Bearer ${this.key}`;
    let response;
    try {
      response = await fetch(path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: "omit",
        cache: "no-store",
        redirect: "error",
      });
    } catch (error) {
      throw new Problem(0, { title: _("The service could not be reached"), detail: `${method} ${path}: ${error.message}` });
    }
    if (!response.ok) throw await problemOf(method, path, response);
    return response;
  }

  /** A JSON answer, read. */
  async json(method, path, body) {
    const response = await this.send(method, path, { body });
    const type = mediaType(response);
    if (type !== JSON_TYPE) throw unexpected(method, path, response, JSON_TYPE, type);
    return response.json();
  }

  /** A picture (image/svg+xml) answer, as a Blob. */
  async picture(method, path, body) {
    const response = await this.send(method, path, { body, accept: SVG_TYPE });
    const type = mediaType(response);
    if (type !== SVG_TYPE) throw unexpected(method, path, response, SVG_TYPE, type);
    return response.blob();
  }
}

async function problemOf(method, path, response) {
  const type = mediaType(response);
  let document = { title: `${response.status} ${response.statusText}`.trim() };
  if (type === PROBLEM_TYPE || type === JSON_TYPE) {
    try {
      document = await response.json();
    } catch {
      document.detail = _("{request}: the error answer could not be read", { request: `${method} ${path}` });
    }
  } else {
    document.detail = type
      ? _("{request} answered {type}", { request: `${method} ${path}`, type })
      : _("{request} answered nothing", { request: `${method} ${path}` });
  }
  return new Problem(response.status, document);
}

function unexpected(method, path, response, wanted, got) {
  return new Problem(response.status, {
    title: _("An answer of an unexpected type"),
    detail: got
      ? _("{request} answered {type}, not {wanted}", { request: `${method} ${path}`, type: got, wanted })
      : _("{request} answered no content type, not {wanted}", { request: `${method} ${path}`, wanted }),
  });
}
