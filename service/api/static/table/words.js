// How the service's codes read on the table: cards, bets, pays and outcomes.
// Words and symbols only: what a card counts, who draws and who wins are the
// service's answers.

import { odds, percent, toMinor } from "./money.js";

const RANK_NAMES = { A: "Ace", T: "10", J: "Jack", Q: "Queen", K: "King" };
const SUITS = {
  S: { symbol: "♠", name: "spades", red: false },
  H: { symbol: "♥", name: "hearts", red: true },
  D: { symbol: "♦", name: "diamonds", red: true },
  C: { symbol: "♣", name: "clubs", red: false },
};

/** "TH" -> {rank: "10", symbol: "♥", name: "10 of hearts", red: true}. */
export function cardFace(code) {
  const rank = code.slice(0, -1);
  const suit = SUITS[code.slice(-1)];
  const shown = rank === "T" ? "10" : rank;
  return { rank: shown, symbol: suit.symbol, name: `${RANK_NAMES[rank] || rank} of ${suit.name}`, red: suit.red };
}

/** "dragon_bonus_player" -> "Dragon Bonus Player". */
export function betName(type) {
  return type
    .split("_")
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(" ");
}

export const HANDS = { player: "Player", banker: "Banker" };

/** "banker" -> "Banker wins"; "tie" -> "Tie". */
export function outcomeWords(outcome) {
  return outcome === "tie" ? "Tie" : `${HANDS[outcome]} wins`;
}

/** One line of a pay table in words: "Banker wins: 1:1 less 5% commission". */
export function payLine(line) {
  let pays;
  if (line.result === "push") pays = "push (stake returned)";
  else if (line.result === "lose") pays = "loses";
  else pays = odds(line.odds);
  if (line.commission && toMinor(line.commission, 6) > 0) pays += ` less ${percent(line.commission)}% commission`;
  return `${line.when}: ${pays}`;
}

/** What a bet pays, short, for its bet area: "8:1", "1:1 −5%", "1:2 or 1:1", "1:1 to 30:1". */
export function paysInShort(bet) {
  const wins = bet.pays.filter((line) => line.result === "win");
  const distinct = [...new Set(wins.map((line) => line.odds))].sort((a, b) => toMinor(a, 6) - toMinor(b, 6));
  const commission = wins.find((line) => toMinor(line.commission, 6) > 0);
  const less = commission ? ` less ${percent(commission.commission)}%` : "";
  if (distinct.length === 0) return "";
  if (distinct.length === 1) return odds(distinct[0]) + less;
  if (distinct.length === 2) return `${odds(distinct[0])} or ${odds(distinct[1])}${less}`;
  return `${odds(distinct[0])} to ${odds(distinct[distinct.length - 1])}${less}`;
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
