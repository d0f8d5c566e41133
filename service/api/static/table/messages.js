// What the page tells the player: a status line (announced politely) and an
// alert (announced at once) that shows every error whole: a problem's
// title, status and detail, and each field error, also at the bet it names.
// A problem's words are the service's, in the language the page asked for.

import { Problem } from "./api.js";
import { el, fill } from "./dom.js";
import { _ } from "./language.js";
import { showBetError } from "./render.js";

const BET_POINTER = /^\/bets\/(\d+)(?:\/|$)/;

export class Messages {
  constructor(status, alert, apiKey) {
    this.status = status;
    this.alert = alert;
    this.apiKey = apiKey;
    this.areas = new Map();
  }

  say(text) {
    this.status.textContent = text;
  }

  /** Take down the alert and every bet area's message. */
  clear() {
    this.alert.hidden = true;
    fill(this.alert);
    delete this.alert.dataset.status;
    for (const area of this.areas.values()) showBetError(area, null);
  }

  warn(title, lines = []) {
    fill(this.alert, el("p", { class: "alert-title" }, title), lines.length ? el("ul", {}, lines.map((line) => el("li", {}, line))) : null);
    this.alert.hidden = false;
  }

  /** A message at one bet area, repeated in the alert. */
  atBet(type, title, message) {
    if (this.areas.has(type)) showBetError(this.areas.get(type), message);
    this.warn(title, [message]);
  }

  /** Any error, shown whole; `slip` is the bets sent, which the errors' pointers index. */
  problem(problem, slip = []) {
    if (!(problem instanceof Problem)) {
      this.warn(_("The page failed"), [String(problem && problem.message ? problem.message : problem)]);
      return;
    }
    const document = problem.document;
    const lines = document.detail ? [document.detail] : [];
    for (const error of problem.errors) {
      const match = BET_POINTER.exec(error.pointer || "");
      const bet = match ? slip[Number(match[1])] : undefined;
      if (bet && this.areas.has(bet.type)) showBetError(this.areas.get(bet.type), error.detail);
      lines.push(el("span", {}, error.pointer ? [el("code", {}, error.pointer), " "] : null, error.detail));
    }
    const title = document.title || _("Error");
    this.warn(problem.status ? _("{title} ({status})", { title, status: problem.status }) : title, lines);
    this.alert.dataset.status = String(problem.status);
    if (problem.status === 401) {
      this.say(_("This service requires an API key: paste one in the API key box."));
      this.apiKey.focus();
    }
  }
}
