// How the service's codes read on the table, in the page's language: cards,
// bets, pays and outcomes. Words and symbols only: what a card counts, who
// draws and who wins are the service's answers.

import { N_, _, percentage } from "./language.js";
import { odds, toMinor } from "./money.js";

const RANK_NAMES = { A: N_("Ace"), J: N_("Jack"), Q: N_("Queen"), K: N_("King") };
const SUITS = {
  S: { symbol: "♠", name: N_("spades"), red: false },
  H: { symbol: "♥", name: N_("hearts"), red: true },
  D: { symbol: "♦", name: N_("diamonds"), red: true },
  C: { symbol: "♣", name: N_("clubs"), red: false },
};

/** "TH" -> {rank: "10", symbol: "♥", name: "10 of hearts", red: true}. */
export function cardFace(code) {
  const rank = code.slice(0, -1);
  const suit = SUITS[code.slice(-1)];
  const shown = rank === "T" ? "10" : rank;
  const rankName = RANK_NAMES[rank] ? _(RANK_NAMES[rank]) : shown;
  return { rank: shown, symbol: suit.symbol, name: _("{rank} of {suit}", { rank: rankName, suit: _(suit.name) }), red: suit.red };
}

/** Every bet type's name, as the tables that deal it write it (docs/glossary.md). */
const BET_NAMES = {
  player: N_("Player"),
  banker: N_("Banker"),
  tie: N_("Tie"),
  player_pair: N_("Player Pair"),
  banker_pair: N_("Banker Pair"),
  either_pair: N_("Either Pair"),
  perfect_pair: N_("Perfect Pair"),
  dragon_bonus_player: N_("Dragon Bonus Player"),
  dragon_bonus_banker: N_("Dragon Bonus Banker"),
  dragon_7: N_("Dragon 7"),
  panda_8: N_("Panda 8"),
  big: N_("Big"),
  small: N_("Small"),
  super_6: N_("Super 6"),
  lucky_6: N_("Lucky 6"),
  big_tiger: N_("Big Tiger"),
  small_tiger: N_("Small Tiger"),
  tiger_tie: N_("Tiger Tie"),
};

/** "dragon_bonus_player" -> "Dragon Bonus Player"; a type the page does not know is written out as it is. */
export function betName(type) {
  if (BET_NAMES[type]) return _(BET_NAMES[type]);
  return type
    .split("_")
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(" ");
}

const HANDS = { player: N_("Player"), banker: N_("Banker") };

/** "banker" -> "Banker". */
export function handName(hand) {
  return _(HANDS[hand]);
}

const OUTCOMES = { player: N_("Player wins"), banker: N_("Banker wins"), tie: N_("Tie") };

/** "banker" -> "Banker wins"; "tie" -> "Tie". */
export function outcomeWords(outcome) {
  return _(OUTCOMES[outcome]);
}

const RESULTS = { win: N_("win"), lose: N_("lose"), push: N_("push") };

/** A settled bet's result: "win", "lose" or "push". */
export function resultWords(result) {
  return RESULTS[result] ? _(RESULTS[result]) : result;
}

/** One line of a pay table in words: "Banker wins: 1:1 less 5% commission" (the service writes when it pays). */
export function payLine(line) {
  let pays;
  if (line.result === "push") pays = _("push (stake returned)");
  else if (line.result === "lose") pays = _("loses");
  else pays = odds(line.odds);
  if (line.commission && toMinor(line.commission, 6) > 0) {
    pays = _("{pays} less {rate} commission", { pays, rate: percentage(line.commission) });
  }
  return _("{when}: {pays}", { when: line.when, pays });
}

/** What a bet pays, short, for its bet area: "8:1", "1:1 less 5%", "1:2 or 1:1", "1:1 to 30:1". */
export function paysInShort(bet) {
  const wins = bet.pays.filter((line) => line.result === "win");
  const distinct = [...new Set(wins.map((line) => line.odds))].sort((a, b) => toMinor(a, 6) - toMinor(b, 6));
  const commission = wins.find((line) => toMinor(line.commission, 6) > 0);
  let pays;
  if (distinct.length === 0) return "";
  if (distinct.length === 1) pays = odds(distinct[0]);
  else if (distinct.length === 2) pays = _("{low} or {high}", { low: odds(distinct[0]), high: odds(distinct[1]) });
  else pays = _("{low} to {high}", { low: odds(distinct[0]), high: odds(distinct[distinct.length - 1]) });
  return commission ? _("{pays} less {rate}", { pays, rate: percentage(commission.commission) }) : pays;
}

/**
 * The round's cards in the order they were dealt: [{code, hand, position}].
 * By their shoe positions when the answer gives them (a round of a shoe);
 * otherwise by the dealing order the rules fix: Player, Banker, Player,
 * Banker, then each third card in the order the answer's draws list them.
 */
export function dealingOrder(answer) {
  const cards = [];
  const positions = answer.round && answer.round.positions;
  if (positions) {
    for (const hand of ["player", "banker"]) {
      answer[hand].cards.forEach((code, index) => cards.push({ code, hand, position: positions[hand][index] }));
    }
    return cards.sort((a, b) => a.position - b.position);
  }
  for (let index = 0; index < 2; index += 1) {
    for (const hand of ["player", "banker"]) cards.push({ code: answer[hand].cards[index], hand, position: null });
  }
  for (const draw of answer.draws) cards.push({ code: draw.card, hand: draw.hand, position: null });
  return cards;
}
