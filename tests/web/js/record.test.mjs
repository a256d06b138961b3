// The hand record's pure parts: the auction and trick grids, a deal's end
// and the score sheet, from the data the server built.
import { test } from "node:test";
import assert from "node:assert/strict";
import { actionLine, auctionRows, dealSummary, sheetRows, signed, trickRows } from "../../../arena/web/static/record.js";

test("the auction is a grid by seat: a new round when a seat acts again", () => {
  const auction = [{ seat: 1, action: "bid 100" }, { seat: 2, action: "bid 110" }, { seat: 0, action: "pass" },
                   { seat: 1, action: "bid 120" }, { seat: 2, action: "pass" }];
  assert.deepEqual(auctionRows(auction, 3), [["pass", "bid 100", "bid 110"], ["", "bid 120", "pass"]]);
  assert.deepEqual(auctionRows([], 3), []);
});

test("tricks: leader, each seat's card in its column, winner", () => {
  const tricks = [{ leader: 2, cards: [{ seat: 2, card: "AS" }, { seat: 0, card: "9S" }, { seat: 1, card: "TS" }], winner: 2 }];
  assert.deepEqual(trickRows(tricks, 3), [{ n: 1, leader: 2, cards: ["9S", "TS", "AS"], winner: 2 }]);
});

test("a deal's end says the declarer's score against the contract", () => {
  const d = { deal_number: 3, dealer: 0, declarer: 1, bid: 110, contract: 120, made: false,
              deal_scores: [40, 95, 25], changes: [40, -120, 30], totals: [140, -20, 60], notes: [] };
  const s = dealSummary(d, ["a", "b", "c"]);
  assert.equal(s.headline, "deal 3: seat 1 (b) played 120, took 95 — failed");
  assert.deepEqual(s.rows.map((r) => [r.score, r.change, r.total, r.declarer]),
                   [[40, 40, 140, false], [95, -120, -20, true], [25, 30, 60, false]]);
  // A DealResult message leaves an unset declarer out; a DealRecord has null.
  assert.match(dealSummary({ ...d, declarer: undefined, notes: ["redeal_penalty"] }).headline, /nobody played it \(redeal_penalty\)/);
  assert.match(dealSummary({ ...d, made: true }).headline, /made$/);
});

test("the score sheet has a row per deal", () => {
  const deals = [{ deal_number: 1, declarer: null, contract: 100, made: false, changes: [0, -100, 0], totals: [0, -100, 0] },
                 { deal_number: 2, declarer: 0, contract: 100, made: true, changes: [100, 10, 20], totals: [100, -90, 20] }];
  const rows = sheetRows(deals, ["x", "y", "z"]);
  assert.deepEqual(rows.map((r) => [r.deal, r.declarer, r.contract, r.result]), [[1, "–", "–", "–"], [2, "seat 0 (x)", "100", "made"]]);
  assert.deepEqual(rows[1].totals, [100, -90, 20]);
  assert.equal(signed(-5), "-5");
  assert.equal(signed(5), "+5");
  assert.equal(signed(0), "0");
});

test("an action line names the seat", () => {
  assert.equal(actionLine(0, "give AH 1", ["greedy", "random"]), "seat 0 (greedy) gives A♥ to seat 1 (random)");
});
