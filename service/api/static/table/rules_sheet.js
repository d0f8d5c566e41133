// The rules sheet of the table being played (POST /v1/rules-sheets): the
// table, its game and its dealing as this page plays them, written by the
// service in the page's language. Its title and every section and sentence
// are the service's words; the page only lays them out (a heading per
// section, a list of its sentences), each carrying its code as data-code.

import { el, fill } from "./dom.js";

/** The request for the sheet of `table` played as `game` (a multiplier game's name, or null) and dealt by `dealing`. */
export function sheetRequest(table, game, dealing) {
  const body = { table, dealing };
  if (game) body.rules = { multipliers: game };
  return body;
}

/** Ask the service for the sheet and write it into `title` and `body`. */
export async function showRulesSheet(api, title, body, request) {
  const sheet = await api.json("POST", "/v1/rules-sheets", request);
  title.textContent = sheet.title;
  title.dataset.sheet = sheet.id;
  fill(
    body,
    sheet.sections.map((section, index) =>
      el(
        "section",
        { class: "sheet-section", "data-code": section.code, "aria-labelledby": `sheet-section-${index}` },
        el("h3", { id: `sheet-section-${index}` }, section.title),
        el("ul", {}, section.sentences.map((line) => el("li", { "data-code": line.code }, line.sentence))),
      ),
    ),
  );
  return sheet;
}
