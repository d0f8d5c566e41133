// The words of index.html, written in the page's language: each element
// with a data-words attribute gets the message it names as its text (and
// one with data-words-label as its aria-label). An element inside it with a
// data-slot is kept, where the message names it ({rounds}): code and links
// are never translated.

import { N_, _, parts } from "./language.js";

export const PAGE_WORDS = {
  title: N_("Baccarat reference table"),
  language: N_("Language"),
  note: N_(
    "Play money only. A reference client and demo of this service's public API: no real money, no accounts. " +
      "The service deals, settles and draws the roads; this page only shows its answers.",
  ),
  bets: N_("Bets"),
  balance: N_("Balance"),
  "on-the-table": N_("On the table"),
  fees: N_("Fees"),
  reset: N_("Reset play money"),
  chip: N_("Chip"),
  "bet-areas": N_("Bet areas: click one, or press Enter or Space on it, to add the chosen chip."),
  undo: N_("Undo"),
  clear: N_("Clear bets"),
  rebet: N_("Rebet"),
  deal: N_("Deal"),
  "no-round": N_("No round dealt yet"),
  roads: N_("Roads"),
  "no-rounds": N_("No rounds yet."),
  "roads-region": N_("Roads picture, scrolls sideways"),
  table: N_("Table"),
  game: N_("Game"),
  dealing: N_("Dealing"),
  "dealing-shoe": N_("Shoe: burn, cut card"),
  "dealing-reshuffle": N_("Reshuffle every hand"),
  "client-seed": N_("Your client seed"),
  "client-seed-help": N_(
    "Mixed into the shuffle with the server seed; it cannot change once a shoe's first round is dealt.",
  ),
  "new-shoe": N_("New shoe"),
  "api-key": N_("API key"),
  "api-key-help": N_("Only if this service requires one. Kept in this page's memory, sent only to this service, never stored."),
  "use-key": N_("Use key"),
  fairness: N_("Fairness"),
  "rounds-so-far": N_("Rounds so far"),
  round: N_("Round"),
  player: N_("Player"),
  banker: N_("Banker"),
  outcome: N_("Outcome"),
  net: N_("Net"),
  "pay-table": N_("Pay table"),
  bet: N_("Bet"),
  pays: N_("Pays"),
  limits: N_("Limits"),
  calls: N_(
    "Each round is {rounds} with this page's seeds and bets; the table list is {tables}, the multiplier games " +
      "{paytables}, the seeds {seeds}, " +
      "the burn {shoes} and the roads {roads}. The API is described at {docs}.",
  ),
};

/** Write every data-words element of `root` in the page's language. */
export function writePageWords(root = document) {
  for (const node of root.querySelectorAll("[data-words]")) {
    const message = PAGE_WORDS[node.dataset.words];
    const slots = Object.fromEntries([...node.querySelectorAll("[data-slot]")].map((slot) => [slot.dataset.slot, slot]));
    node.replaceChildren(...parts(message, slots));
  }
  for (const node of root.querySelectorAll("[data-words-label]")) {
    node.setAttribute("aria-label", _(PAGE_WORDS[node.dataset.wordsLabel]));
  }
}
