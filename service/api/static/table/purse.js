// What the bets on the table cost, and whether the play-money balance pays
// it: their stakes, and at a multiplier game their fees (games.js), in
// minor units. The words that refuse a chip or a deal say both.

import { feesOf } from "./games.js";
import { _, amount } from "./language.js";

/** The stacks' (type -> minor units) cost: {staked, fees, cost, finer}, `finer` the types whose fee is not whole. */
export function costOf(game, stacks) {
  const { fees, finer } = feesOf(game, stacks);
  let staked = 0;
  for (const units of stacks.values()) staked += units;
  return { staked, fees, cost: staked + fees, finer };
}

/** Why a stake of `units` on the bet `name` is refused when its fee is finer than the minor unit. */
export function finerFee(name, units, digits) {
  return _("{bet}: the fee on {stake} would be finer than the currency's smallest unit", {
    bet: name,
    stake: amount(units, digits),
  });
}

/** Why a `chip` (minor units) is refused when the bets with it would `cost` more than the `balance`. */
export function chipRefused(chip, cost, balance, digits) {
  const values = {
    chip: amount(chip, digits),
    staked: amount(cost.staked, digits),
    fees: amount(cost.fees, digits),
    cost: amount(cost.cost, digits),
    balance: amount(balance, digits),
  };
  return cost.fees
    ? _("A {chip} chip would put {staked} on the table and {fees} in fees, {cost} in all; the balance is {balance}", values)
    : _("A {chip} chip would put {staked} on the table; the balance is {balance}", values);
}

/** Why a deal is refused when the bets `cost` more than the `balance`. */
export function dealRefused(cost, balance, digits) {
  const values = {
    staked: amount(cost.staked, digits),
    fees: amount(cost.fees, digits),
    cost: amount(cost.cost, digits),
    balance: amount(balance, digits),
  };
  return cost.fees
    ? _("The bets total {staked} and their fees {fees}, {cost} in all; the balance is {balance}", values)
    : _("The bets total {staked}; the balance is {balance}", values);
}
