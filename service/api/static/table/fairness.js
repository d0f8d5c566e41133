// The fairness panel: the commitment before play, and once a shoe (or a
// hand, at a table that reshuffles after each) is over, its server seed and
// how anyone can check it.

import { SHOE, commitmentHolds, replayRequest } from "./dealer.js";
import { el, fill } from "./dom.js";
import { N_, _, parts } from "./language.js";
import { cardFace } from "./words.js";

function entry(term, ...details) {
  return [el("dt", {}, term), el("dd", {}, ...details)];
}

function code(text, attributes = {}) {
  return el("code", { class: "hash", ...attributes }, text);
}

function burnWords(shoe) {
  if (!shoe.burned) return _("shown with the first round");
  const words = _("the {card} turned, {more} more burned face down ({count} cards)", {
    card: cardFace(shoe.burned[0]).name,
    more: shoe.burned.length - 1,
    count: shoe.burned.length,
  });
  // Burned cards stay face down: only the turned card and the count are shown.
  return el("span", { id: "burn", "data-turned": shoe.burned[0], "data-count": shoe.burned.length }, words);
}

/** The shoe about to be dealt, or being dealt: what a player may see. */
export function renderCurrent(node, shoe) {
  if (!shoe) {
    fill(node, el("p", { class: "help" }, _("Drawing a server seed…")));
    return;
  }
  const heading = shoe.mode === SHOE ? _("Shoe {number}", { number: shoe.number }) : _("Next hand");
  const details = [
    ...entry(_("Commitment (SHA-256 of the server seed)"), code(shoe.hash, { id: "commitment" })),
    ...entry(
      _("Client seed"),
      shoe.clientSeed === null ? _("yours, from the box above, fixed at the first round") : code(shoe.clientSeed),
    ),
    ...entry(_("Nonce"), String(shoe.nonce)),
  ];
  if (shoe.mode === SHOE) {
    details.push(...entry(_("Burn"), burnWords(shoe)));
    const cut =
      shoe.cutCardPosition === null
        ? _("16 cards from the end by default (the table's rule)")
        : _("in front of card {position} of {cards}", { position: shoe.cutCardPosition + 1, cards: shoe.cards });
    details.push(...entry(_("Cut card"), shoe.cutCardOut ? _("{cut}: it is out, one more round then the shoe ends", { cut }) : cut));
    details.push(...entry(_("Rounds dealt"), el("span", { id: "rounds-dealt" }, String(shoe.rounds))));
  } else {
    details.push(...entry(_("Shuffle"), _("a fresh 8-deck shoe for this hand alone: no burn, no cut card")));
  }
  fill(node, el("h3", {}, heading), el("dl", { class: "facts" }, details));
}

const VERDICTS = {
  null: N_("Not checked here (this page is not in a secure context): compute it as below."),
  true: N_("Checked in this browser: SHA-256 of the server seed is the commitment shown before play."),
  false: N_("Checked in this browser: SHA-256 of the server seed is NOT the commitment shown before play."),
};

/** The last shoe or hand that is over: its seed, and how to check it. */
export async function renderRetired(node, shoe) {
  if (!shoe) {
    fill(node);
    return;
  }
  const holds = await commitmentHolds(shoe);
  const replay = replayRequest(shoe);
  const heading =
    shoe.mode === SHOE
      ? _("Shoe {number} is over: {rounds} rounds", { number: shoe.number, rounds: shoe.rounds })
      : _("The last hand's seed");
  fill(
    node,
    el("h3", {}, heading),
    el(
      "dl",
      { class: "facts" },
      entry(_("Server seed"), code(shoe.serverSeed, { id: "revealed-seed" })),
      entry(_("Commitment shown before play"), code(shoe.hash, { id: "revealed-commitment" })),
      entry(_("Commitment check"), el("span", { id: "commitment-check", "data-holds": String(holds) }, _(VERDICTS[String(holds)]))),
      entry(_("Client seed and nonce"), parts(N_("{client_seed} and {nonce}"), { client_seed: code(shoe.clientSeed), nonce: shoe.nonce })),
      entry(_("Shoe hash"), code(shoe.shoeHash)),
    ),
    el(
      "p",
      {},
      parts(
        N_(
          "To check it yourself: the SHA-256 of the server seed must be the commitment ({command}); then send this to " +
            "{request} on any copy of the service, and every round it answers must be the one you were shown:",
        ),
        {
          command: el("code", {}, `printf %s '${shoe.serverSeed}' | sha256sum`),
          request: el("code", {}, `POST ${replay.path}`),
        },
      ),
    ),
    el("pre", { class: "replay" }, el("code", {}, JSON.stringify(replay.body, null, 2))),
    el(
      "p",
      { class: "help" },
      parts(
        N_(
          "Offline: save that answer and run {verify} or {node} on it (docs/fairness.md describes the shuffle, " +
            "the burn and the cut card precisely enough to re-implement them).",
        ),
        { verify: el("code", {}, "baccarat verify"), node: el("code", {}, "node verifier/verify.js") },
      ),
    ),
  );
}
