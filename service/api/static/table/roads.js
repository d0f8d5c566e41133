// The roads, drawn by the service: POST /v1/roads with the results so far and
// "Accept: image/svg+xml", shown as an image from a blob: URL. An image runs
// no script and takes none of the page's styles, so the picture is shown as
// the service drew it, whatever it holds.

import { Problem } from "./api.js";
import { _ } from "./language.js";

/** The most results POST /v1/roads takes: a longer session shows its latest. */
const MAX_RESULTS = 1000;

export class Roads {
  constructor(api, image, note, onProblem) {
    this.api = api;
    this.image = image;
    this.note = note;
    this.onProblem = onProblem;
    this.request = 0;
    this.url = null;
    this.shown = null; // how many results the picture shows; null: no picture
  }

  /** Ask for the picture of `results` and show it; only the latest request's answer is shown. */
  async draw(results) {
    const shown = results.slice(-MAX_RESULTS);
    const request = ++this.request;
    try {
      const picture = await this.api.picture("POST", "/v1/roads", { results: shown });
      if (request !== this.request) return;
      const url = URL.createObjectURL(picture);
      this.image.src = url;
      await this.image.decode();
      if (this.url) URL.revokeObjectURL(this.url);
      this.url = url;
      this.shown = shown.length;
      this.retell();
      this.image.hidden = false;
      this.image.dataset.results = shown.length;
      const board = this.image.parentElement;
      board.scrollLeft = board.scrollWidth; // the latest results, as a table's display shows them
    } catch (problem) {
      if (request !== this.request) return;
      this.shown = null;
      this.image.hidden = true;
      delete this.image.dataset.results;
      this.note.textContent = _("The roads could not be drawn: see the message above.");
      this.onProblem(
        problem instanceof Problem
          ? problem
          : new Problem(0, { title: _("The roads picture could not be shown"), detail: String(problem) }),
      );
    }
  }

  /** Say what the picture shows in the page's language (again, after it changes). */
  retell() {
    if (this.shown === null) return;
    this.image.alt = _(
      "Roads of the {count} rounds so far: Bead Plate, Big Road, Big Eye Boy, Small Road and Cockroach Pig. " +
        "The same results are listed under Rounds so far.",
      { count: this.shown },
    );
    this.note.textContent = _("Drawn by the service from the {count} results so far ({request}).", {
      count: this.shown,
      request: "POST /v1/roads",
    });
  }
}
