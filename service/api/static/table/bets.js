// The bets on the table: one stack per bet type, in minor units.
//
// Every change keeps the stacks as they were, so Undo steps back through
// chips, Clear and Rebet alike. After a deal the bets stay in place for the
// next game (as at a real table) and become what Rebet puts back.

import { _, amount } from "./language.js";
import { formatMinor } from "./money.js";

export class Bets {
  constructor() {
    this.stacks = new Map();
    this.history = [];
    this.lastRound = new Map();
  }

  stake(type) {
    return this.stacks.get(type) || 0;
  }

  get total() {
    let sum = 0;
    for (const units of this.stacks.values()) sum += units;
    return sum;
  }

  get canUndo() {
    return this.history.length > 0;
  }

  add(type, units) {
    this.#change(new Map(this.stacks).set(type, this.stake(type) + units));
  }

  clear() {
    if (this.stacks.size) this.#change(new Map());
  }

  rebet() {
    if (this.lastRound.size) this.#change(new Map(this.lastRound));
  }

  undo() {
    if (this.history.length) this.stacks = this.history.pop();
  }

  /** The round was dealt with these bets: they stay, and Rebet will put them back. */
  dealt() {
    this.lastRound = new Map(this.stacks);
    this.history = [];
  }

  /** Forget everything (another table). */
  reset() {
    this.stacks = new Map();
    this.history = [];
    this.lastRound = new Map();
  }

  /** The slip as the API takes it; each bet's id is its type (one stack per type). */
  slip(digits) {
    return [...this.stacks].map(([type, units]) => ({
      id: type,
      type,
      amount: formatMinor(units, digits),
    }));
  }

  #change(stacks) {
    this.history.push(this.stacks);
    this.stacks = stacks;
  }
}

/**
 * Each stack outside its table limits: [{type, message}], the message naming
 * the limit, in the page's language. `limits` maps a bet type to {min, max,
 * name} in minor units.
 */
export function limitProblems(stacks, limits, digits) {
  const problems = [];
  for (const [type, units] of stacks) {
    const limit = limits.get(type);
    if (!limit) {
      problems.push({ type, message: _("{bet}: this table does not offer the bet", { bet: type }) });
    } else if (units < limit.min) {
      problems.push({
        type,
        message: _("{bet}: {stake} is under the table minimum of {minimum}", {
          bet: limit.name,
          stake: amount(units, digits),
          minimum: amount(limit.min, digits),
        }),
      });
    } else if (units > limit.max) {
      problems.push({
        type,
        message: _("{bet}: {stake} is over the table maximum of {maximum}", {
          bet: limit.name,
          stake: amount(units, digits),
          maximum: amount(limit.max, digits),
        }),
      });
    }
  }
  return problems;
}
