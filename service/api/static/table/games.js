// The multiplier games (Lightning, Golden Wealth, Prosperity Tree), as
// GET /v1/paytables lists them under `multiplier_games`: each with its
// name, its description and its rule (docs/multipliers.md).
//
// What the page reads of a rule: which bets it pays (a table plays only
// those of its bets), what each pays and which cards multiply it, and the
// fee charged on top of a stake. The fee is what a chip costs beyond its
// stake, counted here in minor units from the rule's rate, exactly or not
// at all: a fee finer than the currency's minor unit is refused, as the
// service refuses it. What a round pays is the service's answer, never
// worked out here.

import { N_, _, percentage } from "./language.js";
import { odds, toMinor } from "./money.js";

/** The rule's rates are read with this many decimals (a fee rate of "0.2" is 200000 millionths). */
const RATE_DIGITS = 6;
const ONE = 10 ** RATE_DIGITS;

/** The bets of `offered` (a table's, from GET /v1/tables) that `game` pays; all of them with no game. */
export function offeredBets(offered, game) {
  if (!game) return offered;
  return offered.filter((bet) => Object.hasOwn(game.rule.pays, bet.type));
}

/** The fee rate on a `type` bet ("0.2"), or null when the game charges none on it. */
export function feeRate(game, type) {
  const fee = game && game.rule.fee;
  if (!fee || !fee.bets.includes(type) || toMinor(fee.rate, RATE_DIGITS) === 0) return null;
  return fee.rate;
}

/** The fee on a stake of `units` on a `type` bet, in minor units (0 with no fee); null when it is not a whole number of them. */
export function feeOf(game, type, units) {
  const rate = feeRate(game, type);
  if (rate === null) return 0;
  const millionths = units * toMinor(rate, RATE_DIGITS);
  if (!Number.isSafeInteger(millionths) || millionths % ONE !== 0) return null;
  return millionths / ONE;
}

/** What the stacks (type -> minor units) cost beyond their stakes: {fees, finer}, `finer` the types whose fee is not whole. */
export function feesOf(game, stacks) {
  let fees = 0;
  const finer = [];
  for (const [type, units] of stacks) {
    const fee = feeOf(game, type, units);
    if (fee === null) finer.push(type);
    else fees += fee;
  }
  return { fees, finer };
}

const COUNTED = {
  winning_hand: N_("{pays} × the multipliers of the winning hand's lit cards"),
  all_cards: N_("{pays} × the multipliers of every lit card of the round"),
  paired_cards: N_("{pays} × the multipliers of the pair's lit cards"),
};

/** A multiplied bet's lines in words: what a win pays, the fee, and the push of a Player or Banker bet. */
export function multiplierPayLines(game, type) {
  const pay = game.rule.pays[type];
  const base = odds(pay.pays);
  let wins = COUNTED[pay.counted] ? _(COUNTED[pay.counted], { pays: base }) : base;
  if (toMinor(pay.stake_kept, RATE_DIGITS) > 0) {
    wins = _("{pays} less {rate} commission", { pays: wins, rate: percentage(pay.stake_kept) });
  }
  const lines = [_("On a win: {pays}", { pays: wins })];
  const rate = feeRate(game, type);
  if (type === "player" || type === "banker") {
    // A Player or Banker bet pushes on a tie, as at a plain table; the fee stays kept unless the rule gives it back.
    const feeKept = rate !== null && !game.rule.fee.returned_on_push;
    lines.push(feeKept ? _("On a tie: push (stake returned), the fee kept") : _("On a tie: push (stake returned)"));
  }
  if (rate !== null) lines.push(_("A {rate} fee on top of the stake", { rate: percentage(rate) }));
  return lines;
}

/** A multiplied bet's pays, short, for its bet area: "1:1 × multipliers", "1:1 × multipliers less 5%". */
export function multiplierPaysInShort(game, type) {
  const pay = game.rule.pays[type];
  const pays = pay.counted === "none" ? odds(pay.pays) : _("{odds} × multipliers", { odds: odds(pay.pays) });
  if (toMinor(pay.stake_kept, RATE_DIGITS) === 0) return pays;
  return _("{pays} less {rate}", { pays, rate: percentage(pay.stake_kept) });
}
