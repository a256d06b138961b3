// Unit tests of the pure JS of the pages (node --test, no dependencies):
// the shared reading of the action notation and the writing of cards.
import { test } from "node:test";
import assert from "node:assert/strict";
import { actionWords, amounts, cardText, giveSeats, isCard, marriageCards, parseAction } from "../../../arena/web/static/cards.js";

test("cards are written rank then suit symbol, the ten as 10", () => {
  assert.equal(cardText("TH"), "10♥");
  assert.equal(cardText("AS"), "A♠");
  assert.equal(cardText("9C"), "9♣");
  assert.equal(cardText(""), "a face-down card");
  assert.ok(isCard("QD") && !isCard("a") && !isCard("1H"));
});

test("every form of the action notation is read", () => {
  assert.deepEqual(parseAction("bid 110"), { verb: "bid", amount: 110, card: null, seat: null, cards: [], color: null, bank: null, marriage: false });
  assert.equal(parseAction("contract 120").amount, 120);
  assert.equal(parseAction("blind 120").amount, 120);
  assert.equal(parseAction("blind").amount, null);
  assert.deepEqual([parseAction("give QH 2").card, parseAction("give QH 2").seat], ["QH", 2]);
  assert.deepEqual([parseAction("play KH marriage").card, parseAction("play KH marriage").marriage], ["KH", true]);
  assert.equal(parseAction("play KH").marriage, false);
  assert.deepEqual(parseAction("discard 9C 9D JS").cards, ["9C", "9D", "JS"]);
  assert.equal(parseAction("guess red").color, "red");
  assert.equal(parseAction("take 1").bank, 1);
  assert.equal(parseAction("pick 9H").card, "9H");
  assert.equal(parseAction("").verb, "");
});

test("legal amounts and give seats are read from the referee's list", () => {
  const legal = ["pass", "bid 130", "bid 110", "bid 120", "give QH 2", "give QH 1", "give 9C 2"];
  assert.deepEqual(amounts(legal, "bid"), [110, 120, 130]);
  assert.deepEqual(amounts(legal, "contract"), []);
  assert.deepEqual(giveSeats(legal), [2, 1]);
});

test("actions in words, hidden cards as the referee redacted them", () => {
  assert.equal(actionWords("give AH 1"), "gives A♥ to seat 1");
  assert.equal(actionWords("give AH 1", ["a", "greedy"]), "gives A♥ to seat 1 (greedy)");
  assert.equal(actionWords("play KH marriage"), "plays K♥ and declares the marriage");
  assert.equal(actionWords("bid 120"), "bids 120");
  assert.equal(actionWords("pass"), "passes");
  assert.equal(actionWords("contract 130"), "names the contract 130");
  assert.equal(actionWords("give a card face down to seat 2"), "gives a card face down to seat 2");
  assert.equal(actionWords("discard 3 cards face down"), "discards 3 cards face down");
  assert.equal(actionWords("guess face down"), "guesses face down");
  assert.equal(actionWords("discard 9C 9D JS"), "discards 9♣ 9♦ J♠");
});

test("marriages are the king and queen of one suit", () => {
  assert.deepEqual([...marriageCards(["KH", "QH", "KS", "AS"])].sort(), ["KH", "QH"]);
  assert.equal(marriageCards(["KH", "QS"]).size, 0);
});
