// The table drawn from the service's answers: chips, bet areas, the pay
// table, a dealt round with its settlement, and the rounds so far, in the
// page's language. The reasons (why a hand drew or stood, why it won, what
// a bet's line paid) are the service's own sentences, asked for in that
// language.

import { el, fill } from "./dom.js";
import { N_, _, amount, number, percentage, signedAmount } from "./language.js";
import { formatMinor, toMinor } from "./money.js";
import { feeRate, multiplierPayLines, multiplierPaysInShort } from "./games.js";
import { litCards, litMark, multiplierCards, multiplierSettlementTable } from "./multiplier_round.js";
import { betName, cardFace, dealingOrder, handName, outcomeWords, payLine, paysInShort, resultWords } from "./words.js";

const MAIN_BETS = ["player", "tie", "banker"];

/** The chips as radio buttons (arrow keys move between them); the first is chosen. */
export function renderChips(fieldset, chips, digits, onChoose) {
  const legend = fieldset.querySelector("legend");
  const choices = chips.map((chip, index) => {
    const units = toMinor(chip, digits);
    const input = el("input", { type: "radio", name: "chip", value: units, id: `chip-${chip}`, "data-chip": chip, checked: index === 0 });
    input.addEventListener("change", () => input.checked && onChoose(units));
    return el("label", { class: `chip chip-${index}`, for: `chip-${chip}` }, input, el("span", {}, number(chip)));
  });
  fill(fieldset, legend, choices);
  return toMinor(chips[0], digits);
}

/**
 * One button per bet offered, main bets first, with what it pays (at a
 * multiplier `game`, the game's pays and fee); a Map of type -> its parts.
 */
export function renderBetAreas(mainNode, sideNode, offered, digits, onBet, game = null) {
  const areas = new Map();
  const ordered = [
    ...MAIN_BETS.map((type) => offered.find((bet) => bet.type === type)).filter(Boolean),
    ...offered.filter((bet) => !MAIN_BETS.includes(bet.type)),
  ];
  const main = [];
  const side = [];
  for (const bet of ordered) {
    const name = betName(bet.type);
    const stack = el("span", { class: "stack", "data-cents": 0 });
    const id = `bet-${bet.type}`;
    const button = el(
      "button",
      { type: "button", class: "bet", "data-bet": bet.type, "aria-describedby": `${id}-pays ${id}-info ${id}-error` },
      el("span", { class: "bet-name" }, name),
      el("span", { class: "bet-pays", id: `${id}-pays` }, _("pays {odds}", { odds: game ? multiplierPaysInShort(game, bet.type) : paysInShort(bet) })),
      stack,
    );
    button.addEventListener("click", () => onBet(bet.type));
    const rate = feeRate(game, bet.type);
    const shown = rate === null ? limits(bet, digits) : _("{limits}, fee {rate}", { limits: limits(bet, digits), rate: percentage(rate) });
    const info = el("span", { id: `${id}-info`, class: "bet-info" }, shown);
    const error = el("span", { id: `${id}-error`, class: "bet-error", hidden: true });
    const area = el("div", { class: `bet-area bet-${bet.type}`, "data-bet": bet.type }, button, info, error);
    areas.set(bet.type, { name, area, button, stack, error });
    (MAIN_BETS.includes(bet.type) ? main : side).push(area);
  }
  fill(mainNode, main);
  fill(sideNode, side);
  for (const type of areas.keys()) showStack(areas.get(type), 0, digits);
  return areas;
}

/** A bet's table limits: "1.00–200.00". */
function limits(bet, digits) {
  return `${amount(toMinor(bet.min, digits), digits)}–${amount(toMinor(bet.max, digits), digits)}`;
}

/** A bet area's stack: its total on the chip, and in the button's name. */
export function showStack(area, units, digits) {
  area.stack.dataset.cents = units;
  area.stack.textContent = units ? amount(units, digits) : "";
  const stake = units ? amount(units, digits) : _("no bet");
  area.button.setAttribute("aria-label", _("{bet}: {stake}", { bet: area.name, stake }));
}

/** A message at a bet area (null clears it). */
export function showBetError(area, message) {
  area.area.classList.toggle("has-error", Boolean(message));
  area.error.hidden = !message;
  area.error.textContent = message || "";
}

/** The pay table as a game shows it: every line of every bet `offered`, with the limits; a multiplier `game`'s own lines. */
export function renderPayTable(tbody, offered, digits, game = null) {
  fill(
    tbody,
    offered.map((bet) =>
      el(
        "tr",
        { "data-bet": bet.type },
        el("th", { scope: "row" }, betName(bet.type)),
        el(
          "td",
          {},
          el("ul", { class: "pays" }, (game ? multiplierPayLines(game, bet.type) : bet.pays.map(payLine)).map((line) => el("li", {}, line))),
        ),
        el("td", { class: "amount" }, limits(bet, digits)),
      ),
    ),
  );
}

function cardItem(card, order, lit) {
  const face = cardFace(card.code);
  let dealt =
    card.position === null
      ? _("{card}: dealt {order}", { card: face.name, order })
      : _("{card}: dealt {order}, card {position} of the shoe", { card: face.name, order, position: card.position + 1 });
  const mark = litMark(lit, card.code);
  if (mark) dealt = _("{said} ({lit})", { said: dealt, lit: mark.said });
  return el(
    "li",
    {
      class: ["card", face.red ? "red" : null, mark ? "lit" : null].filter(Boolean).join(" "),
      "data-multiplier": mark ? mark.multiplier : null,
      "data-card": card.code,
      "data-hand": card.hand,
      "data-order": order,
      "data-position": card.position,
      title: dealt,
    },
    el("span", { class: "order", "aria-hidden": "true" }, order),
    el("span", { class: "rank", "aria-hidden": "true" }, face.rank),
    el("span", { class: "suit", "aria-hidden": "true" }, face.symbol),
    mark ? mark.badge : null,
    el("span", { class: "sr-only" }, dealt),
  );
}

function handPanel(answer, hand, dealt, lit) {
  const cards = dealt.map((card, index) => ({ card, order: index + 1 })).filter(({ card }) => card.hand === hand);
  const total = answer[hand].total;
  return el(
    "div",
    { class: `hand hand-${hand}`, "data-hand": hand },
    el(
      "h3",
      {},
      handName(hand) + " ",
      el("span", { class: "sr-only" }, _("total") + " "),
      el("span", { class: "total", "data-total": total }, total),
      answer[hand].natural ? el("span", { class: "natural" }, " " + _("natural")) : null,
      answer[hand].pair ? el("span", { class: "pair" }, " " + _("pair")) : null,
    ),
    el(
      "ol",
      { class: "cards", "aria-label": _("{hand}'s cards", { hand: handName(hand) }) },
      cards.map(({ card, order }) => cardItem(card, order, lit)),
    ),
  );
}

function reasons(answer) {
  const items = [];
  for (const hand of ["player", "banker"]) {
    const draw = answer.draws.find((entry) => entry.hand === hand);
    const stand = answer.stands.find((entry) => entry.hand === hand);
    if (draw) {
      const words = _("{hand} draws the {card}: {reason}", { hand: handName(hand), card: cardFace(draw.card).name, reason: draw.reason });
      items.push(el("li", { "data-hand": hand, "data-action": "draws", "data-card": draw.card }, words));
    } else if (stand) {
      const words = _("{hand} stands: {reason}", { hand: handName(hand), reason: stand.reason });
      items.push(el("li", { "data-hand": hand, "data-action": "stands" }, words));
    }
  }
  return el("ul", { class: "reasons", "aria-label": _("Why each hand drew or stood") }, items);
}

/** "Banker wins: Banker's 7 beats Player's 5", the reason the service's. */
function outcomeLine(answer) {
  const words = _("{outcome}: {reason}", { outcome: outcomeWords(answer.outcome), reason: answer.outcome_reason.reason });
  return el("p", { class: `outcome outcome-${answer.outcome}`, "data-outcome": answer.outcome }, words);
}

const HEADS = [N_("Bet"), N_("Stake"), N_("Result"), N_("Win"), N_("Commission"), N_("Returned")];

function settlementTable(settlement, digits) {
  if (!settlement) return el("p", { class: "no-bets" }, _("No bets on this round."));
  const money = (text) => el("td", { class: "amount" }, amount(toMinor(text, digits), digits));
  const rows = settlement.bets.map((bet) =>
    el(
      "tr",
      { "data-bet": bet.type, "data-result": bet.result, "data-amount": bet.amount, "data-win": bet.win, "data-commission": bet.commission, "data-returned": bet.returned },
      el("th", { scope: "row" }, betName(bet.type), bet.reason ? el("span", { class: "bet-line" }, bet.reason) : null),
      money(bet.amount),
      el("td", { class: `result result-${bet.result}` }, resultWords(bet.result)),
      money(bet.win),
      money(bet.commission),
      money(bet.returned),
    ),
  );
  const net = toMinor(settlement.net, digits);
  return el(
    "table",
    { class: "results", "data-staked": settlement.staked, "data-returned": settlement.returned, "data-net": settlement.net },
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
        el("td", {}, ""),
        el("td", { colspan: 2, class: "net" }, _("net {amount}", { amount: signedAmount(net, digits) })),
        money(settlement.returned),
      ),
    ),
  );
}

/**
 * A dealt round: a multiplier game's multiplier cards, each hand's cards in
 * dealing order (those they light marked) with its total, the reasons, the
 * outcome, the bets' results.
 */
export function renderRound(title, body, answer, label, digits) {
  const dealt = dealingOrder(answer);
  const lit = litCards(answer);
  title.textContent = label;
  fill(
    body,
    answer.multiplier_cards ? multiplierCards(answer) : null,
    el("div", { class: "hands" }, handPanel(answer, "player", dealt, lit), handPanel(answer, "banker", dealt, lit)),
    outcomeLine(answer),
    reasons(answer),
    answer.multiplier_settlement ? multiplierSettlementTable(answer.multiplier_settlement, digits) : settlementTable(answer.settlement, digits),
  );
}

/** A row of the rounds so far. */
export function historyRow(number, answer, net, balance, digits) {
  return el(
    "tr",
    { "data-round": number, "data-outcome": answer.outcome, "data-balance": formatMinor(balance, digits) },
    el("th", { scope: "row" }, number),
    el("td", {}, answer.player.total),
    el("td", {}, answer.banker.total),
    el("td", { class: `outcome-${answer.outcome}` }, outcomeWords(answer.outcome)),
    el("td", { class: "amount" }, answer.settlement || answer.multiplier_settlement ? signedAmount(net, digits) : "–"),
    el("td", { class: "amount" }, amount(balance, digits)),
  );
}
