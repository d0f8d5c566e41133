#!/usr/bin/env node
// Independent verifier for seeded baccarat shoes, written from docs/fairness.md.
//
// Plain Node.js (18 or later), no dependencies beyond the built-in crypto module.
//
//   node verify.js ANSWER.json...       check answers of POST /v1/shoes or seeded POST /v1/rounds
//                                       (a multiplier round's, or each round of a multiplier shoe's,
//                                       multiplier cards too, docs/multipliers.md)
//   node verify.js -                    the same, reading one answer from standard input
//   node verify.js --derive SERVER_SEED CLIENT_SEED NONCE DECKS [CUT_CARD]
//                                       print the shoe and its rounds for these inputs, as JSON
//   node verify.js --vectors docs/fairness.md
//                                       check the golden test vectors (from the page, or a JSON file)
//
// Exit status: 0 when everything matches, 1 when something differs, 2 for a usage error.
"use strict";

const crypto = require("node:crypto");
const fs = require("node:fs");

const ALGORITHM = "hmac-sha256-fisher-yates/v1";
const MULTIPLIER_ALGORITHM = "hmac-sha256-multiplier-cards/v1";
const SUITS = ["S", "H", "D", "C"];
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];
const TWO_32 = 2 ** 32;
const MIN_CUT_CARD = 14;
const MAX_CUT_CARD = 80;

// --- the shuffle (docs/fairness.md, section 2) ---------------------------------

function sha256Hex(text) {
  return crypto.createHash("sha256").update(Buffer.from(text, "utf8")).digest("hex");
}

// Words of the HMAC-SHA256 counter stream, with every word read recorded.
function wordStream(serverSeed, clientSeed, nonce) {
  const key = Buffer.from(serverSeed, "utf8");
  let counter = 0;
  let block = null;
  let at = 32;
  return function next() {
    if (at === 32) {
      const message = Buffer.from(`${clientSeed}:${String(nonce)}:${String(counter)}`, "utf8");
      block = crypto.createHmac("sha256", key).update(message).digest();
      counter += 1;
      at = 0;
    }
    const word = block.readUInt32BE(at);
    at += 4;
    return word;
  };
}

function firstBlockHex(serverSeed, clientSeed, nonce) {
  const message = Buffer.from(`${clientSeed}:${String(nonce)}:0`, "utf8");
  return crypto.createHmac("sha256", Buffer.from(serverSeed, "utf8")).update(message).digest("hex");
}

// The shuffled shoe, top first, with a trace of the draws and the rejected words.
function deriveShoe(serverSeed, clientSeed, nonce, decks) {
  const cards = [];
  for (let d = 0; d < decks; d += 1) {
    for (const suit of SUITS) {
      for (const rank of RANKS) cards.push(rank + suit);
    }
  }
  const next = wordStream(serverSeed, clientSeed, nonce);
  const draws = [];
  const rejected = [];
  for (let i = cards.length - 1; i >= 1; i -= 1) {
    const n = i + 1;
    const limit = TWO_32 - (TWO_32 % n);
    let x = next();
    while (x >= limit) {
      rejected.push([i, x]);
      x = next();
    }
    const j = x % n;
    draws.push([i, x, j]);
    const swap = cards[i];
    cards[i] = cards[j];
    cards[j] = swap;
  }
  return { cards, draws, rejected };
}

function shoeHash(cards) {
  return sha256Hex(cards.join(","));
}

// --- the tableau and the shoe (docs/fairness.md, section 4) --------------------

function points(code) {
  const rank = code[0];
  if (rank === "A") return 1;
  if ("TJQK".includes(rank)) return 0;
  return Number(rank);
}

function pip(code) {
  return points(code) === 0 ? 10 : points(code);
}

function total(hand) {
  return hand.reduce((sum, code) => sum + points(code), 0) % 10;
}

function bankerDraws(bankerTotal, playerThird) {
  if (playerThird === null) return bankerTotal <= 5;
  if (bankerTotal <= 2) return true;
  if (bankerTotal === 3) return playerThird !== 8;
  if (bankerTotal === 4) return playerThird >= 2 && playerThird <= 7;
  if (bankerTotal === 5) return playerThird >= 4 && playerThird <= 7;
  if (bankerTotal === 6) return playerThird === 6 || playerThird === 7;
  return false;
}

function handFacts(cards, positions) {
  return {
    cards,
    total: total(cards),
    natural: cards.length === 2 && total(cards) >= 8,
    pair: cards[0][0] === cards[1][0],
    perfect_pair: cards[0] === cards[1],
    positions,
  };
}

// One round read from shoe position `start`, by the tableau.
function dealRound(shoe, start) {
  let at = start;
  const take = () => {
    if (at >= shoe.length) throw new Error(`the shoe ran out at position ${at}`);
    const position = at;
    at += 1;
    return position;
  };
  const p = [take()];
  const b = [take()];
  p.push(take());
  b.push(take());
  const cardsOf = (positions) => positions.map((position) => shoe[position]);
  const natural = total(cardsOf(p)) >= 8 || total(cardsOf(b)) >= 8;
  if (!natural) {
    let playerThird = null;
    if (total(cardsOf(p)) <= 5) {
      p.push(take());
      playerThird = points(shoe[p[2]]);
    }
    if (bankerDraws(total(cardsOf(b)), playerThird)) b.push(take());
  }
  const player = handFacts(cardsOf(p), p);
  const banker = handFacts(cardsOf(b), b);
  const outcome = player.total === banker.total ? "tie" : player.total > banker.total ? "player" : "banker";
  return { start, end: at, player, banker, outcome, natural: player.natural || banker.natural };
}

function dealShoe(shoe, cutCard) {
  const largest = Math.min(MAX_CUT_CARD, Math.floor(shoe.length / 2));
  if (!(cutCard >= MIN_CUT_CARD && cutCard <= largest)) {
    throw new Error(`a cut card ${cutCard} cards from the end is outside ${MIN_CUT_CARD}-${largest}`);
  }
  const burnCount = 1 + pip(shoe[0]);
  const cutCardPosition = shoe.length - cutCard;
  const rounds = [];
  let position = burnCount;
  let cutOutBefore = false;
  for (;;) {
    const round = dealRound(shoe, position);
    round.number = rounds.length + 1;
    round.cut_card_out = !cutOutBefore && round.end > cutCardPosition;
    round.last = cutOutBefore;
    rounds.push(round);
    position = round.end;
    if (cutOutBefore) break;
    cutOutBefore = round.cut_card_out;
  }
  const dealt = rounds.reduce((sum, round) => sum + round.end - round.start, 0);
  return {
    burned: shoe.slice(0, burnCount),
    cutCardPosition,
    rounds,
    // A seeded shoe is dealt whole: no round is left in progress.
    cardCounts: { total: shoe.length, burned: burnCount, dealt, in_progress: 0, left_behind: shoe.length - position },
  };
}

// --- comparing an answer with the replay ---------------------------------------

class Checker {
  constructor() {
    this.differences = [];
    this.checked = 0;
  }

  same(what, stated, expected) {
    this.checked += 1;
    if (JSON.stringify(stated) !== JSON.stringify(expected)) {
      this.differences.push(`${what}: the answer says ${JSON.stringify(stated)}, expected ${JSON.stringify(expected)}`);
    }
  }
}

// --- the multiplier cards (docs/multipliers.md, "From a seed") ---------------------

// Step 1: the words of the multiplier cards' own stream for round `round`.
function multiplierWords(serverSeed, clientSeed, nonce, round) {
  const key = Buffer.from(serverSeed, "utf8");
  let counter = 0;
  let block = null;
  let at = 32;
  return function next() {
    if (at === 32) {
      const message = `${clientSeed}:${String(nonce)}:${String(round)}:multipliers:${String(counter)}`;
      block = crypto.createHmac("sha256", key).update(Buffer.from(message, "utf8")).digest();
      counter += 1;
      at = 0;
    }
    const word = block.readUInt32BE(at);
    at += 4;
    return word;
  };
}

// Step 2: an unbiased integer below n, by rejection.
function below(next, n) {
  const limit = TWO_32 - (TWO_32 % n);
  let x = next();
  while (x >= limit) x = next();
  return x % n;
}

function gcd(a, b) {
  return b === 0 ? a : gcd(b, a % b);
}

// Steps 3 and 5: a key of `weights` ({"2": 14, ...}) by weight; no word read for a single key.
function byWeight(next, weights) {
  const keys = Object.keys(weights).map(Number).sort((a, b) => a - b);
  if (keys.length === 1) return keys[0];
  const divisor = keys.reduce((d, key) => gcd(d, weights[key]), 0);
  let x = below(next, keys.reduce((sum, key) => sum + weights[key] / divisor, 0));
  for (const key of keys) {
    const weight = weights[key] / divisor;
    if (x < weight) return key;
    x -= weight;
  }
  throw new Error("x is below the total weight");
}

// Steps 3 to 5: the multiplier cards of round `round`, as [{card, multiplier}], in the order drawn.
function deriveMultiplierCards(inputs, round, rule) {
  const next = multiplierWords(inputs.serverSeed, inputs.clientSeed, inputs.nonce, round);
  const count = byWeight(next, rule.cards);
  const deck = [];
  for (const suit of SUITS) for (const rank of RANKS) deck.push(rank + suit);
  for (let i = 0; i < count; i += 1) {
    const j = i + below(next, 52 - i);
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck.slice(0, count).map((card) => ({ card, multiplier: byWeight(next, rule.multipliers) }));
}

function checkMultiplierCards(check, answer, inputs) {
  const rule = answer.rules.multipliers;
  if (rule === undefined) return "";
  check.same("multiplier_algorithm", answer.multiplier_algorithm, MULTIPLIER_ALGORITHM);
  const round = answer.round === undefined ? 1 : answer.round.number;
  const drawn = deriveMultiplierCards(inputs, round, rule);
  check.same("multiplier_cards", answer.multiplier_cards, drawn);
  return `, ${drawn.length} multiplier card(s)`;
}

function seedInputs(answer) {
  const seed = answer.seed;
  if (!seed || typeof seed.server_seed !== "string") {
    throw new Error("the answer carries no seed data: only seeded answers can be verified");
  }
  return { serverSeed: seed.server_seed, clientSeed: seed.client_seed ?? "", nonce: seed.nonce ?? 0 };
}

function checkSeed(check, answer, inputs, shoe) {
  check.same("seed.server_seed_hash", answer.seed.server_seed_hash, sha256Hex(inputs.serverSeed));
  check.same("seed.algorithm", answer.seed.algorithm, ALGORITHM);
  check.same("seed.shoe_hash", answer.seed.shoe_hash, shoeHash(shoe));
}

function checkHand(check, where, stated, expected, withPositions) {
  for (const key of ["cards", "total", "natural", "pair", "perfect_pair"]) {
    check.same(`${where}.${key}`, stated?.[key], expected[key]);
  }
  if (withPositions) check.same(`${where}.positions`, withPositions, expected.positions);
}

function checkRound(check, where, stated, expected, positions) {
  checkHand(check, `${where}.player`, stated.player, expected.player, positions?.player);
  checkHand(check, `${where}.banker`, stated.banker, expected.banker, positions?.banker);
  check.same(`${where}.outcome`, stated.outcome, expected.outcome);
  check.same(`${where}.natural`, stated.natural, expected.natural);
  check.same(`${where}.cards_used`, stated.cards_used, expected.end - expected.start);
}

function checkShoeAnswer(check, answer) {
  const inputs = seedInputs(answer);
  const decks = answer.rules.decks;
  const { cards: shoe } = deriveShoe(inputs.serverSeed, inputs.clientSeed, inputs.nonce, decks);
  checkSeed(check, answer, inputs, shoe);
  check.same("shoe_hash", answer.shoe_hash, shoeHash(shoe));
  check.same("algorithm", answer.algorithm, ALGORITHM);
  if (answer.shoe !== undefined) check.same("shoe", answer.shoe, shoe);
  const dealt = dealShoe(shoe, answer.rules.cut_card);
  check.same("burned", answer.burned, dealt.burned);
  check.same("cut_card_position", answer.cut_card_position, dealt.cutCardPosition);
  check.same("round_count", answer.round_count, dealt.rounds.length);
  check.same("card_counts", answer.card_counts, dealt.cardCounts);
  const rule = answer.rules.multipliers;
  if (rule !== undefined) check.same("multiplier_algorithm", answer.multiplier_algorithm, MULTIPLIER_ALGORITHM);
  answer.rounds.forEach((stated, index) => {
    const where = `rounds[${index}]`;
    if (index > 0) check.same(`${where}.number`, stated.number, answer.rounds[index - 1].number + 1);
    const expected = dealt.rounds[stated.number - 1];
    if (!expected) {
      check.same(`${where}.number`, stated.number, `at most ${dealt.rounds.length}`);
      return;
    }
    checkRound(check, where, stated, expected, stated.positions ?? {});
    check.same(`${where}.cut_card_out`, stated.cut_card_out, expected.cut_card_out);
    check.same(`${where}.last`, stated.last, expected.last);
    // Round n of a multiplier shoe draws the multiplier cards of round n (docs/multipliers.md).
    if (rule !== undefined) {
      const drawn = deriveMultiplierCards(inputs, stated.number, rule);
      check.same(`${where}.multiplier_cards`, stated.multiplier_cards, drawn);
    }
  });
  const lit = rule === undefined ? "" : ", each with its multiplier cards";
  return `shoe of ${decks} decks: hash ${shoeHash(shoe).slice(0, 16)}..., ${answer.rounds.length} of ${dealt.rounds.length} rounds${lit}`;
}

function checkRoundAnswer(check, answer) {
  const inputs = seedInputs(answer);
  const decks = answer.rules.decks;
  const { cards: shoe } = deriveShoe(inputs.serverSeed, inputs.clientSeed, inputs.nonce, decks);
  checkSeed(check, answer, inputs, shoe);
  const lit = checkMultiplierCards(check, answer, inputs);
  if (answer.round === undefined) {
    // Reshuffled after each hand: the round is dealt from the top, with no burn.
    checkRound(check, "round", answer, dealRound(shoe, 0));
    return `round from the top of a shoe of ${decks} decks: hash ${shoeHash(shoe).slice(0, 16)}...${lit}`;
  }
  const dealt = dealShoe(shoe, answer.rules.cut_card);
  const expected = dealt.rounds[answer.round.number - 1];
  if (!expected) {
    check.same("round.number", answer.round.number, `at most ${dealt.rounds.length}`);
    return "round past the end of the shoe";
  }
  checkRound(check, "round", answer, expected, answer.round.positions);
  check.same("round.cut_card_out", answer.round.cut_card_out, expected.cut_card_out);
  check.same("round.last", answer.round.last, expected.last);
  return `round ${answer.round.number} of ${dealt.rounds.length} in a shoe of ${decks} decks${lit}`;
}

// --- golden vectors --------------------------------------------------------------

function readVectors(path) {
  const text = fs.readFileSync(path, "utf8");
  if (!path.endsWith(".md")) return JSON.parse(text);
  const section = text.split(/^## .*Golden test vectors.*$/m)[1];
  const block = section && section.match(/```json\n([\s\S]*?)```/);
  if (!block) throw new Error(`no golden vector JSON block in ${path}`);
  return JSON.parse(block[1]);
}

function checkVectors(check, vectors) {
  for (const v of vectors) {
    const label = `vector ${JSON.stringify(v.server_seed)}/${JSON.stringify(v.client_seed)}/${v.nonce}/${v.decks}`;
    const derived = deriveShoe(v.server_seed, v.client_seed, v.nonce, v.decks);
    check.same(`${label} server_seed_hash`, v.server_seed_hash, sha256Hex(v.server_seed));
    check.same(`${label} block_0`, v.block_0, firstBlockHex(v.server_seed, v.client_seed, v.nonce));
    check.same(`${label} first_draws`, v.first_draws, derived.draws.slice(0, 3));
    check.same(`${label} rejected`, v.rejected, derived.rejected);
    check.same(`${label} first_20`, v.first_20, derived.cards.slice(0, 20).join(" "));
    check.same(`${label} shoe_sha256`, v.shoe_sha256, shoeHash(derived.cards));
    const dealt = dealShoe(derived.cards, 16);
    check.same(`${label} burned`, v.burned, dealt.burned.join(" "));
    check.same(`${label} rounds`, v.rounds, dealt.rounds.length);
    const first = dealt.rounds[0];
    check.same(`${label} round_1`, v.round_1, {
      player: first.player.cards.join(" "),
      banker: first.banker.cards.join(" "),
      outcome: first.outcome,
    });
  }
  return `${vectors.length} golden vectors`;
}

// --- command line ------------------------------------------------------------------

function derive(args) {
  const [serverSeed, clientSeed, nonceText, decksText, cutText] = args;
  const nonce = Number(nonceText);
  const decks = Number(decksText);
  const derived = deriveShoe(serverSeed, clientSeed, nonce, decks);
  const dealt = dealShoe(derived.cards, cutText === undefined ? 16 : Number(cutText));
  return {
    algorithm: ALGORITHM,
    server_seed_hash: sha256Hex(serverSeed),
    shoe_hash: shoeHash(derived.cards),
    shoe: derived.cards,
    burned: dealt.burned,
    cut_card_position: dealt.cutCardPosition,
    card_counts: dealt.cardCounts,
    rounds: dealt.rounds.map((r) => ({
      number: r.number,
      player: r.player.cards,
      banker: r.banker.cards,
      outcome: r.outcome,
      positions: { player: r.player.positions, banker: r.banker.positions },
      cut_card_out: r.cut_card_out,
      last: r.last,
    })),
  };
}

function checkAnswerFile(path) {
  const check = new Checker();
  const answer = JSON.parse(fs.readFileSync(path === "-" ? 0 : path, "utf8"));
  const summary = Array.isArray(answer.rounds) ? checkShoeAnswer(check, answer) : checkRoundAnswer(check, answer);
  return report(check, `${path}: ${summary}`);
}

function report(check, summary) {
  if (check.differences.length) {
    for (const difference of check.differences) process.stderr.write(`MISMATCH ${difference}\n`);
    process.stderr.write(`FAILED: ${check.differences.length} of ${check.checked} checks differ (${summary})\n`);
    return 1;
  }
  process.stdout.write(`OK: ${check.checked} checks passed (${summary})\n`);
  return 0;
}

function main(argv) {
  const usage = "usage: verify.js ANSWER.json... | - | --derive SERVER CLIENT NONCE DECKS [CUT] | --vectors FILE";
  if (argv[0] === "--derive") {
    if (argv.length < 5) throw new UsageError(usage);
    process.stdout.write(`${JSON.stringify(derive(argv.slice(1)))}\n`);
    return 0;
  }
  if (argv[0] === "--vectors") {
    if (argv.length !== 2) throw new UsageError(usage);
    const check = new Checker();
    return report(check, checkVectors(check, readVectors(argv[1])));
  }
  if (argv.length === 0 || argv.some((arg) => arg.startsWith("--"))) throw new UsageError(usage);
  let status = 0;
  for (const path of argv) {
    try {
      status = Math.max(status, checkAnswerFile(path));
    } catch (error) {
      process.stderr.write(`error: ${path}: ${error.message}\n`);
      status = 1;
    }
  }
  return status;
}

class UsageError extends Error {}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`${error instanceof UsageError ? "" : "error: "}${error.message}\n`);
  process.exitCode = error instanceof UsageError ? 2 : 1;
}
