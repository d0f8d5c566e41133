// The fairness panel: the commitment before play, and once a shoe (or a
// hand, at a table that reshuffles after each) is over, its server seed and
// how anyone can check it.

import { SHOE, commitmentHolds, replayRequest } from "./dealer.js";
import { el, fill } from "./dom.js";
import { cardFace } from "./words.js";

function entry(term, ...details) {
  return [el("dt", {}, term), el("dd", {}, ...details)];
}

function code(text, attributes = {}) {
  return el("code", { class: "hash", ...attributes }, text);
}

function burnWords(shoe) {
  if (!shoe.burned) return "shown with the first round";
  const turned = cardFace(shoe.burned[0]);
  const words = `the ${turned.name} turned, ${shoe.burned.length - 1} more burned face down (${shoe.burned.length} cards)`;
  // Burned cards stay face down: only the turned card and the count are shown.
  return el("span", { id: "burn", "data-turned": shoe.burned[0], "data-count": shoe.burned.length }, words);
}

/** The shoe about to be dealt, or being dealt: what a player may see. */
export function renderCurrent(node, shoe) {
  if (!shoe) {
    fill(node, el("p", { class: "help" }, "Drawing a server seed…"));
    return;
  }
  const heading = shoe.mode === SHOE ? `Shoe ${shoe.number}` : "Next hand";
  const details = [
    ...entry("Commitment (SHA-256 of the server seed)", code(shoe.hash, { id: "commitment" })),
    ...entry("Client seed", shoe.clientSeed === null ? "yours, from the box above, fixed at the first round" : code(shoe.clientSeed)),
    ...entry("Nonce", String(shoe.nonce)),
  ];
  if (shoe.mode === SHOE) {
    details.push(...entry("Burn", burnWords(shoe)));
    const cut = shoe.cutCardPosition === null ? "16 cards from the end by default (the table's rule)" : `in front of card ${shoe.cutCardPosition + 1} of ${shoe.cards}`;
    details.push(...entry("Cut card", shoe.cutCardOut ? `${cut}: it is out, one more round then the shoe ends` : cut));
    details.push(...entry("Rounds dealt", el("span", { id: "rounds-dealt" }, String(shoe.rounds))));
  } else {
    details.push(...entry("Shuffle", "a fresh 8-deck shoe for this hand alone: no burn, no cut card"));
  }
  fill(node, el("h3", {}, heading), el("dl", { class: "facts" }, details));
}

/** The last shoe or hand that is over: its seed, and how to check it. */
export async function renderRetired(node, shoe) {
  if (!shoe) {
    fill(node);
    return;
  }
  const holds = await commitmentHolds(shoe);
  const verdict =
    holds === null
      ? "Not checked here (this page is not in a secure context): compute it as below."
      : holds
        ? "Checked in this browser: SHA-256 of the server seed is the commitment shown before play."
        : "Checked in this browser: SHA-256 of the server seed is NOT the commitment shown before play.";
  const replay = replayRequest(shoe);
  const heading = shoe.mode === SHOE ? `Shoe ${shoe.number} is over: ${shoe.rounds} rounds` : "The last hand's seed";
  fill(
    node,
    el("h3", {}, heading),
    el(
      "dl",
      { class: "facts" },
      entry("Server seed", code(shoe.serverSeed, { id: "revealed-seed" })),
      entry("Commitment shown before play", code(shoe.hash, { id: "revealed-commitment" })),
      entry("Commitment check", el("span", { id: "commitment-check", "data-holds": String(holds) }, verdict)),
      entry("Client seed and nonce", code(shoe.clientSeed), ` and ${shoe.nonce}`),
      entry("Shoe hash", code(shoe.shoeHash)),
    ),
    el("p", {}, "To check it yourself: the SHA-256 of the server seed must be the commitment (", el("code", {}, `printf %s '${shoe.serverSeed}' | sha256sum`), "); then send this to ", el("code", {}, `POST ${replay.path}`), " on any copy of the service, and every round it answers must be the one you were shown:"),
    el("pre", { class: "replay" }, el("code", {}, JSON.stringify(replay.body, null, 2))),
    el("p", { class: "help" }, "Offline: save that answer and run ", el("code", {}, "baccarat verify"), " or ", el("code", {}, "node verifier/verify.js"), " on it (docs/fairness.md describes the shuffle, the burn and the cut card precisely enough to re-implement them)."),
  );
}
