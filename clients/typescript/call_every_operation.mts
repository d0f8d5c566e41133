// Call every operation of a running service through openapi-fetch, typed by
// the `schema.d.ts` that openapi-typescript generates from openapi.yaml with
// its default options (docs/clients.md), and check what comes back.
//
//   npx openapi-typescript openapi.yaml -o clients/typescript/schema.d.ts
//   npx tsc -p clients/typescript && node clients/typescript/out/call_every_operation.mjs http://127.0.0.1:8000 [API_KEY]
//
// The README's request bodies are written here as they are there: under
// `tsc --strict` each must be a valid request of its operation. With an
// API_KEY (which the service must hold) every call carries it, and a call
// without it must come back as a 401 problem. The language and the trace
// context go through the generated header parameters (`Accept-Language`,
// `traceparent`), and the rules and a pay table are written in this
// program's own words from their codes alone. Prints the operation ids
// called and the bodies sent, as JSON.

import createClient from "openapi-fetch";
import type { components, paths } from "./schema.js";

type Schemas = components["schemas"];

const [baseUrl, apiKey] = process.argv.slice(2);
const headers: Record<string, string> = apiKey === undefined ? {} : { Authorization: `Bearer ${apiKey}` };
const client = createClient<paths>({ baseUrl, headers });
const called = new Set<string>();
// The caller's span (W3C Trace Context), sent as the generated `traceparent` parameter.
const TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
const sent: unknown[] = [];

function expect(condition: boolean, message: string): asserts condition {
  if (!condition) {
    throw new Error(message);
  }
}

/** The answer of `operation`: its data when the status is 200, else a failure naming the problem. */
function answered<T>(operation: string, result: { data?: T; error?: unknown; response: Response }): T {
  called.add(operation);
  const { data, error, response } = result;
  expect(response.status === 200 && data !== undefined, `${operation}: ${response.status} ${JSON.stringify(error)}`);
  return data;
}

/** The JSON answer of an operation that can also answer a picture (`Accept:
 * image/svg+xml`): without that header it is JSON, never the picture's text. */
function json<T>(operation: string, data: T | string): T {
  expect(typeof data !== "string", `${operation}: a picture, not JSON`);
  return data;
}

/** The problem `operation` answered with `status`. */
function problem(operation: string, result: { error?: Schemas["Problem"]; response: Response }, status: number) {
  called.add(operation);
  const { error, response } = result;
  expect(response.status === status && error !== undefined, `${operation}: ${response.status}, not ${status}`);
  expect(response.headers.get("Content-Type") === "application/problem+json", `${operation}: not a problem`);
  return error;
}

/** The full answer of an operation that may answer minimal (`Prefer: return=minimal`), which it was not asked for. */
function full<T extends object>(operation: string, answer: T): Exclude<T, { minimal: true }> {
  expect(!("minimal" in answer), `${operation}: the minimal answer, unasked`);
  return answer as Exclude<T, { minimal: true }>;
}

async function playRound(body: Schemas["RoundRequest"]): Promise<Schemas["RoundResponse"]> {
  sent.push(body);
  return full("playRound", answered("playRound", await client.POST("/v1/rounds", { body })));
}

// POST /v1/rounds: the README's bodies, and the net each slip makes.
const rounds: [Schemas["RoundRequest"], string | undefined][] = [
  [
    {
      cards: ["9S", "KH", "2D", "7C", "5H"],
      bets: [{ id: "b1", type: "banker", amount: "25.00" }, { type: "tie", amount: "5" }],
    },
    "18.75",
  ],
  [{ seed: "table-7/shoe-1" }, undefined],
  [{}, undefined],
  [
    {
      cards: ["2S", "AH", "3D", "KC", "KH", "5D"],
      table: "tiger",
      rules: { pay_tables: { lucky_6: "lucky_6_12_or_23" } },
      bets: [
        { type: "lucky_6", amount: "5" },
        { type: "big_tiger", amount: "2" },
        { type: "small_tiger", amount: "2" },
      ],
    },
    "213.00",
  ],
  [
    {
      cards: ["2S", "KH", "2D", "KC", "4H", "TC"],
      bets: [
        { type: "player", amount: "10" },
        { type: "player_pair", amount: "5" },
        { type: "either_pair", amount: "5" },
        { type: "dragon_bonus_player", amount: "5" },
        { type: "big", amount: "10" },
        { type: "small", amount: "5" },
      ],
    },
    "140.40",
  ],
  [
    {
      cards: ["2S", "3H", "3D", "3C", "KH"],
      table: "no_commission",
      bets: [
        { type: "banker", amount: "20" },
        { type: "super_6", amount: "5" },
        { type: "banker_pair", amount: "5" },
        { type: "player_pair", amount: "5" },
      ],
    },
    "120.00",
  ],
  [
    {
      cards: ["2S", "AH", "4D", "AC", "5D"],
      table: "ez",
      bets: [
        { type: "banker", amount: "25" },
        { type: "dragon_7", amount: "5" },
        { type: "panda_8", amount: "5" },
      ],
    },
    "195.00",
  ],
  [
    {
      server_seed: "8a1f3c0e9b7d4a2f6e5c1b0a9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e",
      client_seed: "lucky-7",
      nonce: 1,
      round: 3,
    },
    undefined,
  ],
];
for (const [body, net] of rounds) {
  const round = await playRound(body);
  expect(round.settlement?.net === net, `playRound: net ${round.settlement?.net}, not ${net}`);
}

// A Lightning round (the README's): the studio's lightning card 8H x8 lights the Banker's natural.
{
  const round = await playRound({
    cards: ["2S", "8H", "5D", "KC"],
    rules: { multipliers: "lightning" },
    multiplier_cards: [{ card: "8H", multiplier: 8 }],
    bets: [{ type: "banker", amount: "10.00" }, { type: "tie", amount: "5.00" }],
  });
  const slip = round.multiplier_settlement;
  expect(slip?.bets[0].multiplier === 8 && slip.bets[0].win === "79.50", "playRound: Lightning's banker bet");
  expect(slip?.fees === "3.00" && slip.net === "71.50", `playRound: Lightning's net ${slip?.net}`);
}

// The same round in Traditional Chinese: the same codes (typed ReasonCode), other words.
{
  const [body] = rounds[0];
  const english = await playRound(body);
  // The language and the caller's span go through the generated header parameters.
  const header = { "Accept-Language": "zh-TW", traceparent: TRACEPARENT };
  const result = await client.POST("/v1/rounds", { body, params: { header } });
  expect(result.response.headers.get("Content-Language") === "zh-Hant", "playRound: not answered in zh-Hant");
  const chinese = full("playRound", answered("playRound", result));
  const codes = (round: Schemas["RoundResponse"]): Schemas["ReasonCode"][] =>
    [...round.draws, ...round.stands, round.outcome_reason].map((reason) => reason.code);
  expect(JSON.stringify(codes(chinese)) === JSON.stringify(codes(english)), "playRound: other codes in Chinese");
  expect(chinese.outcome_reason.reason !== english.outcome_reason.reason, "playRound: no Chinese reason");
}

// The same round's minimal answer (Prefer: return=minimal): codes and amounts, the rules by id.
{
  const [body, net] = rounds[0];
  const result = await client.POST("/v1/rounds", { body, params: { header: { Prefer: "return=minimal" } } });
  expect(result.response.headers.get("Preference-Applied") === "return=minimal", "playRound: not minimal");
  const minimal = answered("playRound", result);
  expect("minimal" in minimal && minimal.minimal, "playRound: the full answer to return=minimal");
  expect(minimal.settlement?.net === net && minimal.rules_id.length > 0, "playRound: the minimal answer's net");
}

const tooFew: Schemas["RoundRequest"] = { cards: ["9S", "KH", "2D", "7C"] };
sent.push(tooFew);
const missing = problem("playRound", await client.POST("/v1/rounds", { body: tooFew }), 422);
expect(missing.errors?.[0]?.pointer === "/cards/4", `playRound: ${JSON.stringify(missing.errors)}`);

// POST /v1/rounds/live: the README's round dealt card by card; the answer is
// the round so far until it is complete (`complete` tells the two apart).
const banker25: Schemas["Bet"][] = [{ id: "b1", type: "banker", amount: "25.00" }];
const liveBodies: Schemas["LiveRoundRequest"][] = [
  { cards: ["2S", "KH", "3D", "4C"], bets: banker25 },
  { cards: ["2S", "KH", "3D", "4C", "5H"], bets: banker25 },
  { cards: ["2S", "KH", "3D", "4C", "5H", "6D"], bets: banker25 },
];
for (const body of liveBodies) {
  sent.push(body);
  const live = answered("dealLiveRound", await client.POST("/v1/rounds/live", { body }));
  if (live.complete) {
    expect(live.outcome === "tie" && live.settlement?.net === "0.00", `dealLiveRound: ${live.outcome}`);
  } else {
    const place: Schemas["Place"] = live.next.place;
    expect(live.next.position === body.cards?.length, `dealLiveRound: the next card at ${live.next.position}, ${place}`);
  }
}
const misdealt: Schemas["LiveRoundRequest"] = { cards: ["9S", { card: "KH", hand: "player" }] };
sent.push(misdealt);
const misdeal = problem("dealLiveRound", await client.POST("/v1/rounds/live", { body: misdealt }), 422);
expect(misdeal.type === "urn:baccarat:problem:misdeal", `dealLiveRound: ${misdeal.type}`);

// POST /v1/rounds/peek: the README's calls; the first shows the card shown
// and no other (at a live table, from the four cards dealt so far), the
// second settles the tripled bet (`complete` tells them apart).
const peekFirst: Schemas["PeekRequest"] = {
  cards: ["9S", "KH", "2D", "7C", "5H"],
  shown: ["banker_first"],
  bets: [{ id: "b1", type: "banker", amount: "10" }],
};
const peekLive: Schemas["PeekRequest"] = { ...peekFirst, cards: ["9S", "KH", "2D", "7C"] };
for (const body of [peekFirst, peekLive, { ...peekFirst, decision: { banker: "triple" as const } }]) {
  sent.push(body);
  const peek = answered("playPeekRound", await client.POST("/v1/rounds/peek", { body }));
  if (peek.complete) {
    expect(peek.peek.net === "26.50" && peek.peek.fee === "2.00", `playPeekRound: ${JSON.stringify(peek.peek)}`);
  } else {
    const shown: Schemas["PeekPosition"][] = peek.shown.map((card) => card.position);
    expect(shown.join() === "banker_first" && peek.cost === "12.00", `playPeekRound: ${shown}, ${peek.cost}`);
  }
}
// Peek at a plain table in whole units: its 20% fee on a stake of 1 is no whole
// unit, so the rules are refused, at the setting that makes it (docs/guides/peek.md).
const wholeUnits: Schemas["PeekRequest"] = {
  table: "ez",
  rules: { minor_unit: 0 },
  server_seed: "a".repeat(64),
  client_seed: "c",
  nonce: 1,
};
sent.push(wholeUnits);
const feeRefused = problem("playPeekRound", await client.POST("/v1/rounds/peek", { body: wholeUnits }), 422);
const feeErrors = feeRefused.errors ?? [];
expect(
  feeErrors.length > 0 && feeErrors.every((error) => error.code === "fee_finer_than_minor_unit"),
  `playPeekRound: ${JSON.stringify(feeErrors)}`,
);

// POST /v1/settlements
const slips: Schemas["SettlementRequest"] = {
  cards: ["9S", "KH", "2D", "7C", "5H"],
  slips: [
    { id: "seat-1", bets: [{ type: "banker", amount: "25.00" }] },
    { id: "seat-2", bets: [{ type: "player", amount: "10" }, { type: "tie", amount: "2.50" }] },
  ],
};
sent.push(slips);
const settled = answered("settleSlips", await client.POST("/v1/settlements", { body: slips }));
expect(settled.totals.net === "11.25", `settleSlips: net ${settled.totals.net}`);
expect(settled.slips?.length === 2 && settled.multiplier_slips === undefined, "settleSlips: a plain table's slips");

// A Lightning table's slips (the README's): each settled by the rule, the fees in the totals.
const lightningSlips: Schemas["SettlementRequest"] = {
  cards: ["2S", "8H", "5D", "KC"],
  rules: { multipliers: "lightning" },
  multiplier_cards: [{ card: "8H", multiplier: 8 }],
  slips: [
    { id: "seat-1", bets: [{ type: "banker", amount: "10.00" }] },
    { id: "seat-2", bets: [{ type: "player", amount: "5.00" }, { type: "tie", amount: "5.00" }] },
  ],
};
sent.push(lightningSlips);
const multiplied = answered("settleSlips", await client.POST("/v1/settlements", { body: lightningSlips }));
const seat1 = multiplied.multiplier_slips?.[0];
expect(seat1?.id === "seat-1" && seat1.bets[0].multiplier === 8, "settleSlips: Lightning's seat-1");
expect(multiplied.totals.fees === "4.00" && multiplied.totals.net === "65.50", "settleSlips: Lightning's totals");

// POST /v1/seeds and POST /v1/shoes
const noSettings: Schemas["NewSeedRequest"] = {};
sent.push(noSettings);
const seed = answered("newSeed", await client.POST("/v1/seeds", { body: noSettings }));
expect(/^[0-9a-f]{64}$/.test(seed.server_seed_hash), "newSeed: not a SHA-256");
const shoes: Schemas["ShoeRequest"][] = [
  {
    server_seed: "8a1f3c0e9b7d4a2f6e5c1b0a9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e",
    server_seed_hash: "cea08e41cb29d1d45ca46e3a177b6eb97e0a41f61222aecff9f45c446016a967",
    client_seed: "lucky-7",
    nonce: 1,
    from_round: 1,
    to_round: 3,
    bets: [{ type: "banker", amount: "10.00" }],
  },
  { server_seed: "abc", client_seed: "lucky-7", nonce: 1 },
];
for (const body of shoes) {
  sent.push(body);
  const shoe = json("dealShoe", answered("dealShoe", await client.POST("/v1/shoes", { body })));
  expect(shoe.rounds.length > 0 && shoe.rounds[0].number === 1, "dealShoe: no first round");
}
// A seeded Lightning shoe: round 3 shows the multiplier cards POST /v1/rounds draws for round 3.
const lightningShoe: Schemas["ShoeRequest"] = {
  seed: "table-7/lightning-1",
  rules: { multipliers: "lightning" },
  to_round: 3,
  bets: [{ type: "banker", amount: "10.00" }],
};
sent.push(lightningShoe);
const lit = json("dealShoe", answered("dealShoe", await client.POST("/v1/shoes", { body: lightningShoe })));
expect(lit.multiplier_algorithm === "hmac-sha256-multiplier-cards/v1", "dealShoe: multiplier_algorithm");
expect(lit.totals?.fees === "6.00", `dealShoe: Lightning's fees ${lit.totals?.fees}`);
const lightningRound3 = await playRound({
  seed: "table-7/lightning-1",
  round: 3,
  rules: { multipliers: "lightning" },
});
expect(
  JSON.stringify(lit.rounds[2].multiplier_cards) === JSON.stringify(lightningRound3.multiplier_cards),
  "dealShoe: round 3's multiplier cards differ from POST /v1/rounds' round 3",
);

// GET /v1/rules, asked in Thai: the whole tableau written in this program's
// own words from its codes and values alone (docs/integration.md, "Reasons in
// your own words"), never from the service's sentences.
const thai = { "Accept-Language": "th-TH", traceparent: TRACEPARENT };
const rules = await client.GET("/v1/rules", { params: { header: thai } });
expect(rules.response.headers.get("Content-Language") === "th", "getRules: not answered in Thai");
const tableau = answered("getRules", rules);
expect(tableau.naturals.includes(9), "getRules: 9 is not a natural");
const RULES: Partial<Record<Schemas["ReasonCode"], string>> = {
  player_natural: "Player natural {player_total}",
  banker_natural: "Banker natural {banker_total}",
  player_draws_on_0_5: "Player {player_total}: draws",
  player_stands_on_6_7: "Player {player_total}: stands",
  banker_draws_on_0_5_player_stood: "Banker {banker_total}, Player stood: draws",
  banker_stands_on_6_7_player_stood: "Banker {banker_total}, Player stood: stands",
  banker_draws_on_0_2: "draws",
  banker_stands_on_7: "stands",
  banker_draws_on_player_third: "draws",
  banker_stands_on_player_third: "stands",
};
const said = (rule: { code: Schemas["ReasonCode"]; values: Schemas["ReasonValues"] }): string =>
  (RULES[rule.code] ?? rule.code).replace(/\{(\w+)\}/g, (_, name: keyof Schemas["ReasonValues"]) =>
    String(rule.values[name]),
  );
const NOTES: Record<Schemas["NoteCode"], string> = {
  dealing_order: "P, B, P, B",
  naturals_end_the_round: "naturals {naturals}",
  player_acts_first: "Player first",
  higher_total_wins: "higher total wins",
};
const noted = (note: Schemas["TableauNote"]): string =>
  NOTES[note.code].replace("{naturals}", (note.values.naturals ?? []).join(" or "));
const tableauLines = [
  ...tableau.note_codes.map(noted),
  ...tableau.natural_rules.map(said),
  ...tableau.player.map(said),
  ...tableau.banker.map(
    (row) =>
      `${said(row.player_stood)}; after its third card ` +
      row.player_drew.map((rule) => `${rule.player_third}: ${said(rule)}`).join(", "),
  ),
];
expect(tableauLines.length === 24 && tableauLines[1] === "naturals 8 or 9", `getRules: ${tableauLines[1]}`);
expect(tableauLines[7] === "Banker natural 9" && tableauLines[8] === "Player 0: draws", `getRules: ${tableauLines[8]}`);
expect(tableauLines[19].endsWith("7: draws, 8: stands, 9: draws"), `getRules: Banker 3 is ${tableauLines[19]}`);
const listed = await client.GET("/v1/tables", { params: { header: thai } });
expect(listed.response.headers.get("Content-Language") === "th", "getTables: not answered in Thai");
const tables = answered("getTables", listed);
// A preset's description in the program's words, from its code and the figures it states.
const PRESETS: Partial<Record<Schemas["TablePreset"], (v: Schemas["TableFigures"]) => string>> = {
  standard: (v) => `${v.decks} decks, Banker ${v.banker_pays}:1, tie ${v.tie_pays}:1`,
  lightning: (v) => `Lightning, tie ${v.tie_pays}:1, fee ${v.fee ?? "none"}`,
};
const presetLines = tables.tables.flatMap((table) => {
  const words = PRESETS[table.description_code];
  return words === undefined ? [] : [words(table.description_values)];
});
expect(
  presetLines.join("; ") === "8 decks, Banker 0.95:1, tie 8:1; Lightning, tie 5:1, fee 0.2",
  `getTables: ${presetLines.join("; ")}`,
);
const preset: Schemas["TablePreset"] = tables.tables[1].name;
const atPreset = await playRound({ cards: ["9S", "KH", "2D", "7C", "5H"], table: preset });
expect(atPreset.rules.variant === tables.tables[1].rules.variant, "playRound: not the preset's rules");

// GET /v1/paytables: an id from the catalogue is a request's pay table.
const payTables = await client.GET("/v1/paytables", { params: { query: { decks: 6 }, header: thai } });
expect(payTables.response.headers.get("Content-Language") === "th", "getPayTables: not answered in Thai");
const catalogue = answered("getPayTables", payTables);
expect(catalogue.decks === 6 && catalogue.pay_tables.length > 20, "getPayTables: not the catalogue");
// A pay table from its lines' codes (typed PayLineCode) and pays.
const dragon = catalogue.pay_tables.find((table) => table.bet === "dragon_bonus_player");
const payLines = (dragon?.lines ?? []).map(
  (line) => `${line.code}: ${line.result === "push" ? "push" : `${line.odds}:1`}`,
);
expect(
  payLines[0] === "player_wins_with_a_natural: 1:1" && payLines[1] === "a_tie_between_two_naturals: push",
  `getPayTables: ${payLines.slice(0, 2)}`,
);
const pairs: Schemas["PayTableId"] = catalogue.pay_tables.filter((table) => table.bet === "player_pair")[1].id;
const paid = await playRound({
  cards: ["5S", "2H", "5D", "3C", "4S", "KC"],
  rules: { pay_tables: { player_pair: pairs } },
  bets: [{ type: "player_pair", amount: "10" }],
});
expect(paid.rules.pay_tables["player_pair"] === pairs, "playRound: not the chosen pay table");
expect(paid.settlement?.bets[0].win === "120.00", "playRound: not paid 12:1");

// POST /v1/roads: an outcome from an answer is a result of a request.
const results: Schemas["RoadsRequest"] = {
  results: ["tie", "tie", "banker", "banker", "player", "tie", "banker", "banker", "banker", "player", "player", "banker", "tie"],
};
sent.push(results);
const roads = json("drawRoads", answered("drawRoads", await client.POST("/v1/roads", { body: results })));
expect(roads.big_road.cells[0].ties === 2, "drawRoads: the leading ties are not on the first cell");
const next: Schemas["RoadsRequest"] = {
  results: [atPreset.outcome, { outcome: atPreset.outcome, player_pair: true }, atPreset],
};
sent.push(next);
const asked = json("drawRoads", answered("drawRoads", await client.POST("/v1/roads", { body: next })));
const ask: Schemas["Mark"] = asked.ask.banker.big_eye_boy;
expect(ask === null || ask === "red" || ask === "blue", `drawRoads: ask mark ${ask}`);

// The same operation answers the roads as a picture when asked for one (the README's body).
const pictured: Schemas["RoadsRequest"] = {
  results: ["tie", "tie", "banker", "banker", "player", "tie", "banker", "banker", "banker", "player"],
};
sent.push(pictured);
const picture = await client.POST("/v1/roads", {
  body: pictured,
  headers: { Accept: "image/svg+xml" },
  parseAs: "text",
});
expect(picture.response.headers.get("Content-Type")?.startsWith("image/svg+xml") === true, "drawRoads: not SVG");
expect((picture.data ?? "").startsWith("<svg"), "drawRoads: not a picture");

// POST /v1/odds
const odds: Schemas["OddsRequest"][] = [
  { table: "standard" },
  { table: "ez", removed: ["9S", "KH", "2D", "7C", "5H", "7D"] },
  { table: "ez", counts: { A: 8, "2": 8, "3": 8, "4": 6, "5": 6, "6": 6, "7": 6, "8": 2, "9": 2, T: 8, J: 8, Q: 8, K: 8 } },
];
for (const body of odds) {
  sent.push(body);
  const answer = answered("getOdds", await client.POST("/v1/odds", { body }));
  expect(Object.keys(answer.shoe.ranks).length === 13, "getOdds: not every rank");
}

// POST /v1/rules-sheets and GET /v1/tables/{table}/rules-sheet
const sheetBody: Schemas["RulesSheetRequest"] = { table: "tie_9", malfunction: "under_review" };
sent.push(sheetBody);
const sheet = json("writeRulesSheet", answered("writeRulesSheet", await client.POST("/v1/rules-sheets", { body: sheetBody })));
expect(sheet.dealing === "reshuffle_each_hand", "writeRulesSheet: not reshuffled after each hand");
const tieSheet = sheet.sections.find((section) => section.values.bet === "tie");
expect(tieSheet?.values.rtp === "95.16", "writeRulesSheet: the tie's return to player");
const presetSheet = json(
  "getRulesSheet",
  answered("getRulesSheet", await client.GET("/v1/tables/{table}/rules-sheet", { params: { path: { table: "tie_9" } } })),
);
expect(presetSheet.rules.id === sheet.rules.id, "getRulesSheet: other rules");

// Signed answers: the published keys, and a signed round stored as a platform
// stores it (the exact bytes sent and received), replayed.
const jwks = answered("getJwks", await client.GET("/.well-known/jwks.json"));
const signedBody: Schemas["RoundRequest"] = {
  cards: ["9S", "KH", "2D", "7C", "5H"],
  bets: [{ type: "banker", amount: "25.00" }],
};
sent.push(signedBody);
const signed = await client.POST("/v1/rounds", { body: signedBody, parseAs: "text" });
const signatureInput = signed.response.headers.get("Signature-Input") ?? "";
expect(signatureInput.includes(`keyid="${jwks.keys[0].kid}"`), "playRound: not signed by the published key");
const stored: Schemas["ReplayRequest"] = {
  // openapi-fetch sends a body as JSON.stringify writes it: those are the bytes signed.
  request: { method: "POST", url: signed.response.url, body: JSON.stringify(signedBody) },
  response: {
    status: signed.response.status,
    headers: Object.fromEntries(signed.response.headers),
    body: signed.data ?? "",
  },
};
const verdict = answered("replayExchange", await client.POST("/v1/replays", { body: stored }));
expect(verdict.signature.verified, `replayExchange: ${verdict.signature.reason}`);
expect(verdict.replay.identical === true, `replayExchange: ${verdict.replay.reason}`);
// The README's record that claims the Player won: unsigned, and the replay differs at /outcome.
const claimed: Schemas["ReplayRequest"] = {
  request: {
    method: "POST",
    url: "http://127.0.0.1:8000/v1/rounds",
    body: '{"cards": ["9S", "KH", "2D", "7C", "5H"]}',
  },
  response: { status: 200, headers: { "Content-Type": "application/json" }, body: '{"outcome": "player"}' },
};
sent.push(claimed);
const disputed = answered("replayExchange", await client.POST("/v1/replays", { body: claimed }));
expect(!disputed.signature.verified && disputed.replay.differences[0]?.pointer === "/outcome", "replayExchange");

// The probes and the document.
expect(answered("getLivez", await client.GET("/livez")).status === "ok", "getLivez");
expect(answered("getReadyz", await client.GET("/readyz")).status === "ok", "getReadyz");
const document = await client.GET("/openapi.yaml", { parseAs: "text" });
called.add("getOpenapiYaml");
expect(document.response.status === 200 && (document.data ?? "").includes("operationId: playRound"), "getOpenapiYaml");

// Without the key, an operation behind it answers a 401 problem.
if (apiKey !== undefined) {
  const open = createClient<paths>({ baseUrl });
  const refused = problem("getTables", await open.GET("/v1/tables"), 401);
  expect(refused.status === 401, "getTables: not a 401 problem");
}

console.log(JSON.stringify({ operations: [...called].sort(), bodies: sent }));
