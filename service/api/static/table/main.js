// The reference table: wires the page to the service's public API.
//
// What the page decides: which table, which chips are on which bet, when to
// deal. What the service decides: everything else. The balance is play
// money held in this page, and changes only by what the service's
// settlement answers (balance - staked + returned).

import { Api } from "./api.js";
import { Bets, limitProblems } from "./bets.js";
import { Dealer, SHOE, randomClientSeed } from "./dealer.js";
import { byId, el, fill } from "./dom.js";
import { renderCurrent, renderRetired } from "./fairness.js";
import { Messages } from "./messages.js";
import { formatMinor, signed, toMinor } from "./money.js";
import { historyRow, renderBetAreas, renderChips, renderPayTable, renderRound, showBetError, showStack } from "./render.js";
import { Roads } from "./roads.js";
import { outcomeWords } from "./words.js";

/** The play-money bankroll a visit starts with. */
const BANKROLL = "1000.00";

const api = new Api();
const dealer = new Dealer(api);
const bets = new Bets();
const state = {
  tables: [],
  table: null,
  digits: 2,
  limits: new Map(),
  areas: new Map(),
  chip: 0,
  bankroll: 0,
  busy: false,
  // The rounds the roads and the list show: a shoe's, or a reshuffling table's hands since it was chosen.
  session: { key: null, results: [], rounds: 0 },
  epoch: 0,
};

const page = {
  tableChoice: byId("table-choice"),
  dealing: byId("dealing"),
  clientSeed: byId("client-seed"),
  description: byId("table-description"),
  apiKey: byId("api-key"),
  balance: byId("balance"),
  staked: byId("staked"),
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
};
const messages = new Messages(byId("status"), byId("alert"), page.apiKey);
const roads = new Roads(api, byId("roads-picture"), byId("roads-note"), (problem) => messages.problem(problem));

// --- the table ---------------------------------------------------------------------

function showBets() {
  for (const [type, area] of state.areas) showStack(area, bets.stake(type), state.digits);
  page.staked.dataset.cents = bets.total;
  page.staked.textContent = formatMinor(bets.total, state.digits);
  page.balance.dataset.cents = state.bankroll;
  page.balance.textContent = formatMinor(state.bankroll, state.digits);
  page.undo.disabled = !bets.canUndo;
  page.clear.disabled = bets.stacks.size === 0;
  page.rebet.disabled = bets.lastRound.size === 0;
}

function setBusy(busy) {
  state.busy = busy;
  page.round.setAttribute("aria-busy", String(busy));
  for (const control of [page.deal, page.newShoe, page.tableChoice, page.dealing]) control.disabled = busy;
  page.clientSeed.readOnly = busy || Boolean(dealer.shoe && dealer.shoe.mode === SHOE && dealer.shoe.rounds > 0);
}

async function busyWith(work) {
  if (state.busy) return;
  setBusy(true);
  try {
    await work();
  } catch (error) {
    messages.problem(error);
  } finally {
    setBusy(false);
  }
}

function chooseTable(name) {
  const table = state.tables.find((candidate) => candidate.name === name);
  state.table = table;
  state.digits = table.rules.minor_unit;
  page.tableChoice.value = name;
  page.description.textContent = table.description;
  // GET /v1/tables says how each table deals: "shoe" or "reshuffle_each_hand", the Dealing choice's values.
  page.dealing.value = table.dealing;
  state.chip = renderChips(page.chips, table.chips, state.digits, (units) => {
    state.chip = units;
  });
  state.areas = renderBetAreas(page.mainBets, page.sideBets, table.bets, state.digits, addChip);
  messages.areas = state.areas;
  state.limits = new Map(
    table.bets.map((bet) => [
      bet.type,
      { min: toMinor(bet.min, state.digits), max: toMinor(bet.max, state.digits), name: state.areas.get(bet.type).name },
    ]),
  );
  renderPayTable(page.payTable, table);
  bets.reset();
  showBets();
}

async function loadTables() {
  const answer = await api.json("GET", "/v1/tables");
  state.tables = answer.tables;
  fill(page.tableChoice, state.tables.map((table) => el("option", { value: table.name }, table.name)));
  page.tableChoice.disabled = false;
  state.bankroll = toMinor(BANKROLL, answer.tables[0].rules.minor_unit);
  chooseTable(answer.default);
  await startShoe();
  messages.say(`Table ${state.table.name}: place your bets and deal.`);
}

/** Give up the current shoe (its seed is shown if it was dealt from) and draw the next one's seed. */
async function startShoe() {
  dealer.retire();
  renderCurrent(page.shoeNow, null);
  await renderRetired(page.shoeBefore, dealer.retired);
  await dealer.prepare(state.table.name, page.dealing.value);
  renderCurrent(page.shoeNow, dealer.shoe);
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
  const chip = formatMinor(state.chip, state.digits);
  if (next > limit.max) {
    const message = `${area.name}: the table maximum is ${formatMinor(limit.max, state.digits)}; another ${chip} would make ${formatMinor(next, state.digits)}`;
    messages.atBet(type, "Over the table limit", message);
    return;
  }
  if (bets.total + state.chip > state.bankroll) {
    messages.warn("Not enough play money", [`A ${chip} chip would put ${formatMinor(bets.total + state.chip, state.digits)} on the table; the balance is ${formatMinor(state.bankroll, state.digits)}`]);
    return;
  }
  bets.add(type, state.chip);
  showBets();
  messages.say(`${area.name}: ${formatMinor(next, state.digits)}`);
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
    messages.warn("Outside the table limits", problems.map((problem) => problem.message));
    return false;
  }
  if (bets.total > state.bankroll) {
    messages.warn("Not enough play money", [`The bets total ${formatMinor(bets.total, state.digits)}; the balance is ${formatMinor(state.bankroll, state.digits)}`]);
    return false;
  }
  return true;
}

async function deal() {
  messages.clear();
  if (!state.table || !readyToDeal()) return;
  await busyWith(async () => {
    if (!dealer.shoe) await startShoe();
    const slip = bets.slip(state.digits);
    let answer;
    try {
      answer = await dealer.deal(page.clientSeed.value, slip);
    } catch (problem) {
      renderCurrent(page.shoeNow, dealer.shoe);
      messages.problem(problem, slip);
      return;
    }
    played(answer);
    const shoe = dealer.shoe;
    renderCurrent(page.shoeNow, shoe);
    if (shoe.ended) {
      if (shoe.mode === SHOE) messages.say(`${messages.status.textContent} The shoe is over: its server seed is shown under Fairness.`);
      await startShoe();
    }
    await roads.draw(state.session.results);
  });
}

/** Show a dealt round, and add its settlement to the balance. */
function played(answer) {
  const key = sessionKey();
  if (state.session.key !== key) state.session = { key, results: [], rounds: 0 };
  const session = state.session;
  session.rounds += 1;
  session.results.push({
    outcome: answer.outcome,
    player_pair: answer.player.pair,
    banker_pair: answer.banker.pair,
    natural: answer.natural,
  });
  let net = 0;
  if (answer.settlement) {
    const staked = toMinor(answer.settlement.staked, state.digits);
    const returned = toMinor(answer.settlement.returned, state.digits);
    state.bankroll += returned - staked;
    net = returned - staked;
  }
  bets.dealt();
  showBets();
  const shoe = dealer.shoe;
  const label = shoe.mode === SHOE ? `Round ${shoe.rounds} of shoe ${shoe.number}` : `Hand ${session.rounds}`;
  renderRound(page.roundTitle, page.roundBody, answer, label, state.digits);
  page.round.dataset.round = session.rounds;
  if (session.rounds === 1) fill(page.history);
  page.history.append(historyRow(session.rounds, answer, net, state.bankroll, state.digits));
  const money = answer.settlement ? ` Your bets: net ${signed(net, state.digits)}.` : "";
  const cut = shoe.mode === SHOE && answer.round.cut_card_out ? " The cut card is out: one more round." : "";
  messages.say(`${label}: ${outcomeWords(answer.outcome)}, Player ${answer.player.total}, Banker ${answer.banker.total}.${money} Balance ${formatMinor(state.bankroll, state.digits)}.${cut}`);
}

// --- wiring -----------------------------------------------------------------------

function start() {
  page.clientSeed.value = randomClientSeed();
  page.undo.addEventListener("click", () => {
    bets.undo();
    betsChanged("Undone.");
  });
  page.clear.addEventListener("click", () => {
    bets.clear();
    betsChanged("Bets cleared.");
  });
  page.rebet.addEventListener("click", () => {
    bets.rebet();
    betsChanged(`Last round's bets back: ${formatMinor(bets.total, state.digits)}.`);
  });
  page.deal.addEventListener("click", deal);
  byId("reset-bankroll").addEventListener("click", () => {
    state.bankroll = toMinor(BANKROLL, state.digits);
    betsChanged(`Play money reset to ${formatMinor(state.bankroll, state.digits)}.`);
  });
  byId("settings").addEventListener("submit", (event) => {
    event.preventDefault();
    messages.clear();
    newSession();
    busyWith(async () => {
      await startShoe();
      messages.say("New shoe: its commitment is under Fairness.");
    });
  });
  page.tableChoice.addEventListener("change", () => {
    messages.clear();
    chooseTable(page.tableChoice.value);
    newSession();
    busyWith(async () => {
      await startShoe();
      messages.say(`Table ${state.table.name}: place your bets and deal.`);
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
    messages.say(api.key ? "API key set for this page." : "No API key.");
    if (!state.table) busyWith(loadTables);
    else if (!dealer.shoe) busyWith(startShoe);
  });
  busyWith(loadTables);
}

start();
