// The reference table: wires the page to the service's public API.
//
// What the page decides: which table and game, which chips are on which
// bet, when to deal. What the service decides: everything else. The balance
// is play money held in this page: the bets' stakes and fees (a multiplier
// game's, games.js) leave it at the deal, and what the service's settlement
// returns comes back, so that a round moves it by the answer's net
// (returned - staked - fees). The page is written in the reader's language
// (language.js), which the API calls ask for too.

import { Api } from "./api.js";
import { Bets, limitProblems } from "./bets.js";
import { Dealer, SHOE, randomClientSeed } from "./dealer.js";
import { byId, el, fill } from "./dom.js";
import { renderCurrent, renderRetired } from "./fairness.js";
import { offeredBets } from "./games.js";
import { _, amount, remember, sentences, signedAmount, speak, startingLanguage } from "./language.js";
import { Messages } from "./messages.js";
import { toMinor } from "./money.js";
import { writePageWords } from "./page_words.js";
import { chipRefused, costOf, dealRefused, finerFee } from "./purse.js";
import { historyRow, renderBetAreas, renderChips, renderPayTable, renderRound, showBetError, showStack } from "./render.js";
import { Roads } from "./roads.js";
import { sheetRequest, showRulesSheet } from "./rules_sheet.js";
import { betName, handName, outcomeWords } from "./words.js";

/** The play-money bankroll a visit starts with. */
const BANKROLL = "1000.00";

const api = new Api();
const dealer = new Dealer(api);
const bets = new Bets();
const state = {
  tables: [],
  table: null,
  // The multiplier games (GET /v1/paytables) and the one chosen (null: plain baccarat).
  games: [],
  game: null,
  digits: 2,
  limits: new Map(),
  areas: new Map(),
  chip: 0,
  bankroll: 0,
  busy: false,
  // The rounds the roads and the list show: a shoe's, or a reshuffling table's hands since it was chosen;
  // each row of the list as it was dealt, to be written again in another language.
  session: { key: null, results: [], rounds: 0, rows: [] },
  epoch: 0,
  // The round on show: the service's answer and its place ({shoe, number, hand}).
  shown: null,
};

const page = {
  language: byId("language"),
  tableChoice: byId("table-choice"),
  game: byId("game"),
  gameDescription: byId("game-description"),
  dealing: byId("dealing"),
  clientSeed: byId("client-seed"),
  description: byId("table-description"),
  apiKey: byId("api-key"),
  balance: byId("balance"),
  staked: byId("staked"),
  fees: byId("fees"),
  feesShown: byId("fees-shown"),
  chips: byId("chips"),
  mainBets: byId("main-bets"),
  sideBets: byId("side-bets"),
  undo: byId("undo"),
  clear: byId("clear"),
  rebet: byId("rebet"),
  deal: byId("deal"),
  newShoe: byId("new-shoe"),
  round: byId("round"),
  roundTitle: byId("round-title"),
  roundBody: byId("round-body"),
  shoeNow: byId("shoe-now"),
  shoeBefore: byId("shoe-before"),
  history: byId("history-table").querySelector("tbody"),
  payTable: byId("paytable-table").querySelector("tbody"),
  rulesTitle: byId("rules-title"),
  rulesBody: byId("rules-body"),
};
const messages = new Messages(byId("status"), byId("alert"), page.apiKey);
const roads = new Roads(api, byId("roads-picture"), byId("roads-note"), (problem) => messages.problem(problem));

// --- the table ---------------------------------------------------------------------

function showBets() {
  for (const [type, area] of state.areas) showStack(area, bets.stake(type), state.digits);
  page.staked.dataset.cents = bets.total;
  page.staked.textContent = amount(bets.total, state.digits);
  const { fees } = costOf(state.game, bets.stacks);
  page.feesShown.hidden = !state.game;
  page.fees.dataset.cents = fees;
  page.fees.textContent = amount(fees, state.digits);
  page.balance.dataset.cents = state.bankroll;
  page.balance.textContent = amount(state.bankroll, state.digits);
  page.undo.disabled = !bets.canUndo;
  page.clear.disabled = bets.stacks.size === 0;
  page.rebet.disabled = bets.lastRound.size === 0;
}

/** While the page works, and before it has a table, the choices that would change what it deals are closed. */
function setBusy(busy) {
  state.busy = busy;
  page.round.setAttribute("aria-busy", String(busy));
  const closed = busy || !state.table;
  for (const control of [page.deal, page.newShoe, page.tableChoice, page.game, page.dealing]) control.disabled = closed;
  page.language.disabled = busy;
  page.clientSeed.readOnly = busy || Boolean(dealer.shoe && dealer.shoe.mode === SHOE && dealer.shoe.rounds > 0);
}

// The page's work (a table, a game, a shoe, a deal, a language), done one piece at a time
// in the order it was asked for: a choice made while the page is busy is queued behind
// the work in hand, never dropped, so the shoe a deal uses is always the one the last
// choice began.
let work = Promise.resolve();
let waiting = 0;

function busyWith(piece) {
  waiting += 1;
  setBusy(true);
  work = work.then(async () => {
    try {
      await piece();
    } catch (error) {
      messages.problem(error);
    } finally {
      waiting -= 1;
      if (waiting === 0) setBusy(false);
    }
  });
  return work;
}

function chooseTable(name) {
  const table = state.tables.find((candidate) => candidate.name === name);
  state.table = table;
  state.digits = table.rules.minor_unit;
  page.tableChoice.value = name;
  // GET /v1/tables says how each table deals: "shoe" or "reshuffle_each_hand", the Dealing choice's values.
  page.dealing.value = table.dealing;
  state.chip = 0; // the table's first chip
  showTable();
  bets.reset();
  showBets();
}

/** Play `name`, a multiplier game of GET /v1/paytables, or plain baccarat (""): only the bets it pays are offered. */
function chooseGame(name) {
  state.game = state.games.find((game) => game.name === name) || null;
  showGame();
  showTable();
  bets.reset();
  showBets();
}

/** The multiplier game played, by its name; null for plain baccarat. */
function gameName() {
  return state.game ? state.game.name : null;
}

/** The game choice: plain baccarat, then each multiplier game as the API names it; the chosen one's description. */
function showGame() {
  const plain = el("option", { value: "" }, _("Baccarat (no multipliers)"));
  fill(page.game, plain, state.games.map((game) => el("option", { value: game.name }, game.name)));
  page.game.value = state.game ? state.game.name : "";
  page.gameDescription.textContent = state.game ? state.game.description : "";
}

/** The chosen table's chips (the chosen one kept), bet areas, limits, pay table and description, in the page's language. */
function showTable() {
  const table = state.table;
  const chosen = state.chip;
  state.chip = renderChips(page.chips, table.chips, state.digits, (units) => {
    state.chip = units;
  });
  const chip = page.chips.querySelector(`input[value="${chosen}"]`);
  if (chip) {
    chip.checked = true;
    state.chip = chosen;
  }
  const offered = offeredBets(table.bets, state.game);
  state.areas = renderBetAreas(page.mainBets, page.sideBets, offered, state.digits, addChip, state.game);
  messages.areas = state.areas;
  state.limits = new Map(
    offered.map((bet) => [
      bet.type,
      { min: toMinor(bet.min, state.digits), max: toMinor(bet.max, state.digits), name: state.areas.get(bet.type).name },
    ]),
  );
  renderPayTable(page.payTable, offered, state.digits, state.game);
  page.description.textContent = table.description;
}

function tableReady() {
  messages.say(_("Table {table}: place your bets and deal.", { table: state.table.name }));
}

/** The tables this page deals plain rounds at: the multiplier games are chosen as games
 * (GET /v1/paytables), and the peek table is Peek Baccarat's (POST /v1/rounds/peek) alone. */
function dealtHere(tables) {
  return tables.filter((table) => !table.peek && !table.rules.multipliers);
}

async function loadTables() {
  const answer = await api.json("GET", "/v1/tables");
  state.tables = dealtHere(answer.tables);
  fill(page.tableChoice, state.tables.map((table) => el("option", { value: table.name }, table.name)));
  state.games = (await api.json("GET", "/v1/paytables")).multiplier_games;
  showGame();
  state.bankroll = toMinor(BANKROLL, answer.tables[0].rules.minor_unit);
  chooseTable(answer.default);
  await startShoe();
  tableReady();
}

/** Give up the current shoe (its seed is shown if it was dealt from) and draw the next one's seed. */
async function startShoe() {
  dealer.retire();
  renderCurrent(page.shoeNow, null);
  await renderRetired(page.shoeBefore, dealer.retired);
  await dealer.prepare(state.table.name, page.dealing.value, gameName(), state.table.dealing);
  renderCurrent(page.shoeNow, dealer.shoe);
  await showRules();
}

/** The rules sheet of the table as it is played now, in the page's language. */
async function showRules() {
  const request = sheetRequest(state.table.name, gameName(), page.dealing.value);
  await showRulesSheet(api, page.rulesTitle, page.rulesBody, request);
}

/** A new shoe, table or way of dealing starts new roads. */
function newSession() {
  state.epoch += 1;
}

function sessionKey() {
  return dealer.shoe.mode === SHOE ? `shoe-${dealer.shoe.number}` : `hands-${state.epoch}`;
}

// --- bets ------------------------------------------------------------------------

function addChip(type) {
  messages.clear();
  const area = state.areas.get(type);
  const limit = state.limits.get(type);
  const next = bets.stake(type) + state.chip;
  const chip = amount(state.chip, state.digits);
  if (next > limit.max) {
    const message = _("{bet}: the table maximum is {maximum}; another {chip} would make {stake}", {
      bet: area.name,
      maximum: amount(limit.max, state.digits),
      chip,
      stake: amount(next, state.digits),
    });
    messages.atBet(type, _("Over the table limit"), message);
    return;
  }
  const after = costOf(state.game, new Map(bets.stacks).set(type, next));
  if (after.finer.length) {
    messages.atBet(type, _("Not a stake this game takes"), finerFee(area.name, next, state.digits));
    return;
  }
  if (after.cost > state.bankroll) {
    messages.warn(_("Not enough play money"), [chipRefused(state.chip, after, state.bankroll, state.digits)]);
    return;
  }
  bets.add(type, state.chip);
  showBets();
  messages.say(_("{bet}: {stake}", { bet: area.name, stake: amount(next, state.digits) }));
}

function betsChanged(words) {
  messages.clear();
  showBets();
  messages.say(words);
}

// --- dealing ----------------------------------------------------------------------

/** Limits and the balance, checked before the service is asked. */
function readyToDeal() {
  const problems = limitProblems(bets.stacks, state.limits, state.digits);
  for (const problem of problems) showBetError(state.areas.get(problem.type), problem.message);
  if (problems.length) {
    messages.warn(_("Outside the table limits"), problems.map((problem) => problem.message));
    return false;
  }
  const cost = costOf(state.game, bets.stacks);
  if (cost.finer.length) {
    const lines = cost.finer.map((type) => finerFee(betName(type), bets.stake(type), state.digits));
    messages.warn(_("Not a stake this game takes"), lines);
    return false;
  }
  if (cost.cost > state.bankroll) {
    messages.warn(_("Not enough play money"), [dealRefused(cost, state.bankroll, state.digits)]);
    return false;
  }
  return true;
}

async function deal() {
  messages.clear();
  if (!state.table || !readyToDeal()) return;
  await busyWith(async () => {
    // The shoe dealt from is always the table, game and dealing on show.
    if (!dealer.dealsFor(state.table.name, page.dealing.value, gameName())) await startShoe();
    const slip = bets.slip(state.digits);
    // The stakes and fees leave the balance as the cards are dealt; they come back if no round is.
    const { cost } = costOf(state.game, bets.stacks);
    state.bankroll -= cost;
    showBets();
    let answer;
    try {
      answer = await dealer.deal(page.clientSeed.value, slip);
    } catch (problem) {
      state.bankroll += cost;
      showBets();
      renderCurrent(page.shoeNow, dealer.shoe);
      messages.problem(problem, slip);
      return;
    }
    played(answer, cost);
    const shoe = dealer.shoe;
    renderCurrent(page.shoeNow, shoe);
    if (shoe.ended) {
      if (shoe.mode === SHOE) {
        messages.say(_("{said} The shoe is over: its server seed is shown under Fairness.", { said: messages.status.textContent }));
      }
      await startShoe();
    }
    await roads.draw(state.session.results);
  });
}

/**
 * Show a dealt round, and settle the balance by its answer: `cost` (the
 * stakes and fees the page took at the deal) is given back and what the
 * answer charged taken instead, then what it returns added. The round so
 * moves the balance by the answer's net, in minor units.
 */
function played(answer, cost) {
  const key = sessionKey();
  if (state.session.key !== key) state.session = { key, results: [], rounds: 0, rows: [] };
  const session = state.session;
  session.rounds += 1;
  session.results.push({
    outcome: answer.outcome,
    player_pair: answer.player.pair,
    banker_pair: answer.banker.pair,
    natural: answer.natural,
  });
  let net = 0;
  const settlement = answer.multiplier_settlement || answer.settlement;
  state.bankroll += cost;
  if (settlement) {
    net = toMinor(settlement.net, state.digits); // returned - staked, less a multiplier game's fees
    state.bankroll += net;
  }
  bets.dealt();
  showBets();
  const shoe = dealer.shoe;
  state.shown = { answer, shoe: shoe.mode === SHOE ? shoe.number : null, number: shoe.rounds, hand: session.rounds };
  showRound();
  page.round.dataset.round = session.rounds;
  session.rows.push({ number: session.rounds, answer, net, balance: state.bankroll });
  if (session.rounds === 1) fill(page.history);
  page.history.append(historyRow(session.rounds, answer, net, state.bankroll, state.digits));
  const said = [
    _("{round}: {outcome}, {player} {player_total}, {banker} {banker_total}.", {
      round: roundLabel(state.shown),
      outcome: outcomeWords(answer.outcome),
      player: handName("player"),
      player_total: answer.player.total,
      banker: handName("banker"),
      banker_total: answer.banker.total,
    }),
  ];
  if (settlement) said.push(_("Your bets: net {amount}.", { amount: signedAmount(net, state.digits) }));
  said.push(_("Balance {amount}.", { amount: amount(state.bankroll, state.digits) }));
  if (shoe.mode === SHOE && answer.round.cut_card_out) said.push(_("The cut card is out: one more round."));
  messages.say(sentences(said));
}

/** "Round 3 of shoe 1", or "Hand 3" at a table that reshuffles. */
function roundLabel(shown) {
  return shown.shoe === null
    ? _("Hand {number}", { number: shown.hand })
    : _("Round {number} of shoe {shoe}", { number: shown.number, shoe: shown.shoe });
}

function showRound() {
  renderRound(page.roundTitle, page.roundBody, state.shown.answer, roundLabel(state.shown), state.digits);
}

// --- the language ------------------------------------------------------------------

/** Write everything on the page again in the language just chosen (the service's sentences stay as it wrote them). */
async function retell() {
  writePageWords();
  if (state.table) {
    showGame();
    showTable();
    showBets();
  }
  if (dealer.shoe) renderCurrent(page.shoeNow, dealer.shoe);
  await renderRetired(page.shoeBefore, dealer.retired);
  if (state.shown) showRound();
  const rows = state.session.rows;
  if (rows.length) fill(page.history, rows.map((row) => historyRow(row.number, row.answer, row.net, row.balance, state.digits)));
  roads.retell();
  if (state.table) {
    // The tables' own words (descriptions, pay lines) are the service's: asked for again in this language.
    const answer = await api.json("GET", "/v1/tables");
    state.tables = dealtHere(answer.tables);
    state.table = state.tables.find((table) => table.name === state.table.name) || state.table;
    showGame();
    showTable();
    showBets();
    await showRules();
  }
}

/** Speak `tag`: its words, the API's answers, `<html lang>`; `tag` kept as the reader's choice when `chosen`. */
async function useLanguage(tag, { chosen = false } = {}) {
  await speak(tag);
  api.language = tag;
  page.language.value = tag;
  if (chosen) remember(tag);
}

// --- wiring -----------------------------------------------------------------------

async function start() {
  page.clientSeed.value = randomClientSeed();
  page.undo.addEventListener("click", () => {
    bets.undo();
    betsChanged(_("Undone."));
  });
  page.clear.addEventListener("click", () => {
    bets.clear();
    betsChanged(_("Bets cleared."));
  });
  page.rebet.addEventListener("click", () => {
    bets.rebet();
    betsChanged(_("Last round's bets back: {amount}.", { amount: amount(bets.total, state.digits) }));
  });
  page.deal.addEventListener("click", deal);
  byId("reset-bankroll").addEventListener("click", () => {
    state.bankroll = toMinor(BANKROLL, state.digits);
    betsChanged(_("Play money reset to {amount}.", { amount: amount(state.bankroll, state.digits) }));
  });
  byId("settings").addEventListener("submit", (event) => {
    event.preventDefault();
    messages.clear();
    newSession();
    busyWith(async () => {
      await startShoe();
      messages.say(_("New shoe: its commitment is under Fairness."));
    });
  });
  page.tableChoice.addEventListener("change", () => {
    messages.clear();
    chooseTable(page.tableChoice.value);
    newSession();
    busyWith(async () => {
      await startShoe();
      tableReady();
    });
  });
  page.game.addEventListener("change", () => {
    messages.clear();
    chooseGame(page.game.value);
    newSession();
    busyWith(async () => {
      await startShoe();
      tableReady();
    });
  });
  page.dealing.addEventListener("change", () => {
    messages.clear();
    newSession();
    busyWith(startShoe);
  });
  byId("key-form").addEventListener("submit", (event) => {
    event.preventDefault();
    messages.clear();
    api.key = page.apiKey.value.trim();
    messages.say(api.key ? _("API key set for this page.") : _("No API key."));
    if (!state.table) busyWith(loadTables);
    else if (!dealer.shoe) busyWith(startShoe);
  });
  page.language.addEventListener("change", () => {
    messages.clear();
    messages.say("");
    busyWith(async () => {
      try {
        await useLanguage(page.language.value, { chosen: true });
      } catch (error) {
        page.language.value = api.language; // still the language the page is written in
        throw error;
      }
      await retell();
    });
  });
  const spoken = [...page.language.options].map((option) => option.value);
  try {
    await useLanguage(startingLanguage(spoken));
  } catch (error) {
    messages.problem(error); // the page's own words are its English
  }
  writePageWords();
  busyWith(loadTables);
}

start();
