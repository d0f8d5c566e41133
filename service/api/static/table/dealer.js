// Seeds, shoes and rounds: what the page asks the service to deal.
//
// Provably fair, as docs/fairness.md describes it: a fresh server seed from
// POST /v1/seeds, whose SHA-256 (the commitment) is shown before the first
// round; the player's client seed, fixed at the first round; nonce 0. The
// service keeps no state, so the page holds the server seed and sends it
// with each round (a platform keeps it on its own servers); the page shows
// it only once the shoe is over.
//
// A shoe is dealt as a casino deals one: the burn and the cut card are the
// service's (POST /v1/shoes answers them), and round n is POST /v1/rounds
// with the seeds and "round": n. A table that reshuffles after every hand
// deals each round from a fresh seed with no "round": a shoe of one hand.
// A multiplier game (GET /v1/paytables' `multiplier_games`) is asked for as
// "rules": {"multipliers": <its name>} on every round of the shoe, and a way
// of dealing other than the table's own as "rules": {"dealing": <mode>}, so
// that the service deals, and records, what the rules sheet shown states.

// The modes are GET /v1/tables' `dealing` values: "shoe", or "reshuffle_each_hand" (any other mode).
export const SHOE = "shoe";

export class Dealer {
  constructor(api) {
    this.api = api;
    this.shoe = null;
    this.retired = null;
    this.count = 0;
  }

  /**
   * Draw the next shoe's server seed; its commitment can be shown at once. `game`: a multiplier game's name, or null;
   * `tableDealing`: how the table deals by its own rules (GET /v1/tables' `dealing`), which `mode` may override.
   */
  async prepare(table, mode, game = null, tableDealing = mode) {
    const seed = await this.api.json("POST", "/v1/seeds", {});
    this.count += 1;
    this.shoe = {
      number: this.count,
      table,
      mode,
      game,
      dealingChanged: mode !== tableDealing,
      serverSeed: seed.server_seed,
      hash: seed.server_seed_hash,
      algorithm: seed.algorithm,
      clientSeed: null,
      nonce: 0,
      rounds: 0,
      burned: null,
      cutCardPosition: null,
      cards: null,
      cutCardOut: false,
      ended: false,
      shoeHash: null,
    };
    return this.shoe;
  }

  /** Whether the shoe in hand is one of `table`, dealt by `mode`, for `game` (null: plain baccarat). */
  dealsFor(table, mode, game = null) {
    const shoe = this.shoe;
    return Boolean(shoe) && shoe.table === table && shoe.mode === mode && shoe.game === game;
  }

  /** The seed inputs of a request for `shoe`. */
  static seedInputs(shoe) {
    return { server_seed: shoe.serverSeed, server_seed_hash: shoe.hash, client_seed: shoe.clientSeed, nonce: shoe.nonce };
  }

  /** Deal the shoe's next round with the slip `bets`; the client seed is fixed at its first round. */
  async deal(clientSeed, bets) {
    const shoe = this.shoe;
    if (shoe.rounds === 0) {
      shoe.clientSeed = clientSeed;
      if (shoe.mode === SHOE) {
        const first = await this.api.json("POST", "/v1/shoes", {
          ...Dealer.seedInputs(shoe),
          table: shoe.table,
          ...Dealer.rules(shoe),
          to_round: 1,
        });
        shoe.burned = first.burned;
        shoe.cutCardPosition = first.cut_card_position;
        shoe.cards = first.card_counts.total;
      }
    }
    const body = { ...Dealer.seedInputs(shoe), table: shoe.table, ...Dealer.rules(shoe), bets };
    if (shoe.mode === SHOE) body.round = shoe.rounds + 1;
    const answer = await this.api.json("POST", "/v1/rounds", body);
    shoe.rounds += 1;
    shoe.shoeHash = answer.seed.shoe_hash;
    if (shoe.mode === SHOE) {
      shoe.cutCardOut = shoe.cutCardOut || answer.round.cut_card_out;
      shoe.ended = answer.round.last;
    } else {
      shoe.ended = true;
    }
    return answer;
  }

  /** The rules a request for `shoe` sends: its multiplier game and its way of dealing, where they are not the table's. */
  static rules(shoe) {
    const rules = {};
    if (shoe.game) rules.multipliers = shoe.game;
    if (shoe.dealingChanged) rules.dealing = shoe.mode;
    return Object.keys(rules).length ? { rules } : {};
  }

  /** The current shoe is over, or given up: once dealt from, its seed may be shown. */
  retire() {
    if (this.shoe && this.shoe.rounds > 0) this.retired = this.shoe;
    this.shoe = null;
  }
}

/** The request that deals a retired shoe (or hand) again, for anyone to check it. */
export function replayRequest(shoe) {
  const body = { ...Dealer.seedInputs(shoe), table: shoe.table, ...Dealer.rules(shoe) };
  return shoe.mode === SHOE ? { path: "/v1/shoes", body } : { path: "/v1/rounds", body };
}

/** Whether SHA-256(server seed) is the commitment, checked in this browser; null where it cannot be (no secure context). */
export async function commitmentHolds(shoe) {
  if (!globalThis.crypto || !crypto.subtle) return null;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(shoe.serverSeed));
  const hex = [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return hex === shoe.hash.toLowerCase();
}

/** A client seed to start with: 16 random hex digits (the player may type their own). */
export function randomClientSeed() {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}
