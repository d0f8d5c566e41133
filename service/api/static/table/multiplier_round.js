// A multiplier game's round, drawn from the service's answer: the
// multiplier cards drawn for it (`multiplier_cards`), which dealt cards
// they light, and the slip as the rule settled it (`multiplier_settlement`):
// each bet's fee, lit cards, multiplier and what came back.

import { el } from "./dom.js";
import { N_, _, amount, signedAmount } from "./language.js";
import { toMinor } from "./money.js";
import { betName, cardFace, resultWords } from "./words.js";

/** Each multiplier card's multiplier by its code ("8H" -> 8): a dealt card of that rank and suit is lit. */
export function litCards(answer) {
  return new Map((answer.multiplier_cards || []).map((drawn) => [drawn.card, drawn.multiplier]));
}

/** "×8", as the multiplier cards write it (a sign, in every language). */
export function times(multiplier) {
  return `×${multiplier}`;
}

/** The round's multiplier cards, each with its multiplier, in the order drawn. */
export function multiplierCards(answer) {
  const cards = answer.multiplier_cards.map((drawn, index) => {
    const face = cardFace(drawn.card);
    const said = _("{card}, multiplier {multiplier}", { card: face.name, multiplier: drawn.multiplier });
    return el(
      "li",
      { class: face.red ? "multiplier-card red" : "multiplier-card", "data-card": drawn.card, "data-multiplier": drawn.multiplier, "data-order": index + 1, title: said },
      el("span", { class: "rank", "aria-hidden": "true" }, face.rank),
      el("span", { class: "suit", "aria-hidden": "true" }, face.symbol),
      el("span", { class: "times", "aria-hidden": "true" }, times(drawn.multiplier)),
      el("span", { class: "sr-only" }, said),
    );
  });
  return el(
    "div",
    { class: "multipliers" },
    el("h3", { id: "multiplier-cards-title" }, _("Multiplier cards")),
    el("ol", { class: "multiplier-cards", "aria-labelledby": "multiplier-cards-title" }, cards),
  );
}

/** A dealt card's mark when a multiplier card lights it: {badge, said} to add to it, or null. */
export function litMark(lit, code) {
  if (!lit.has(code)) return null;
  const multiplier = lit.get(code);
  return {
    multiplier,
    badge: el("span", { class: "lit-times", "aria-hidden": "true" }, times(multiplier)),
    said: _("lit, multiplier {multiplier}", { multiplier }),
  };
}

const HEADS = [N_("Bet"), N_("Stake"), N_("Fee"), N_("Result"), N_("Multiplier"), N_("Win"), N_("Commission"), N_("Returned")];

/** "8H:8 KC:2": a bet's lit cards as its row keeps them. */
function litCodes(bet) {
  return bet.lit.map((card) => `${card.card}:${card.multiplier}`).join(" ");
}

function litWords(bet) {
  if (!bet.lit.length) return _("no card lit");
  return bet.lit.map((card) => `${cardFace(card.card).rank}${cardFace(card.card).symbol} ${times(card.multiplier)}`).join(", ");
}

/** The slip as a multiplier game settled it: each bet's stake, fee, result, multiplier, win, commission and return. */
export function multiplierSettlementTable(settlement, digits) {
  const money = (text) => el("td", { class: "amount" }, amount(toMinor(text, digits), digits));
  const rows = settlement.bets.map((bet) =>
    el(
      "tr",
      {
        "data-bet": bet.type,
        "data-result": bet.result,
        "data-amount": bet.amount,
        "data-fee": bet.fee,
        "data-fee-kept": bet.fee_kept,
        "data-multiplier": bet.multiplier,
        "data-lit": litCodes(bet),
        "data-win": bet.win,
        "data-commission": bet.commission,
        "data-capped": bet.capped,
        "data-returned": bet.returned,
      },
      el("th", { scope: "row" }, betName(bet.type), bet.reason ? el("span", { class: "bet-line" }, bet.reason) : null),
      money(bet.amount),
      money(bet.fee),
      el("td", { class: `result result-${bet.result}` }, resultWords(bet.result)),
      el("td", { class: "multiplier" }, times(bet.multiplier), el("span", { class: "bet-line" }, litWords(bet))),
      money(bet.win),
      money(bet.commission),
      money(bet.returned),
    ),
  );
  const net = toMinor(settlement.net, digits);
  const capped = toMinor(settlement.capped, digits);
  return el(
    "div",
    {},
    el(
      "table",
      {
        class: "results",
        "data-staked": settlement.staked,
        "data-fees": settlement.fees,
        "data-returned": settlement.returned,
        "data-capped": settlement.capped,
        "data-net": settlement.net,
      },
      el("caption", {}, _("Your bets")),
      el("thead", {}, el("tr", {}, HEADS.map((head) => el("th", { scope: "col" }, _(head))))),
      el("tbody", {}, rows),
      el(
        "tfoot",
        {},
        el(
          "tr",
          {},
          el("th", { scope: "row" }, _("Slip")),
          money(settlement.staked),
          money(settlement.fees),
          el("td", {}, ""),
          el("td", { colspan: 3, class: "net" }, _("net {amount}", { amount: signedAmount(net, digits) })),
          money(settlement.returned),
        ),
      ),
    ),
    capped ? el("p", { class: "help capped" }, _("The cap took {amount} off the wins.", { amount: amount(capped, digits) })) : null,
  );
}
