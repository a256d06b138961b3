// Cards and actions as text, shared by the replay player (table.js,
// record.js, player.js) and a person's seat page (human/static/seat.js):
// one reading of the action notation (docs/protocol.md#action-notation)
// and one way of writing a card. Pure functions, no DOM: tested with
// `node --test tests/web/js` (tests/web/test_js.py runs it in pytest).

export const SUIT_SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠", A: "A" };
export const RANK_TEXT = { A: "A", T: "10", K: "K", Q: "Q", J: "J", "9": "9" };
export const SUIT_NAME = { C: "clubs", D: "diamonds", H: "hearts", S: "spades", A: "aces" };

// "TH" -> "10♥"; "" (a face-down card) -> "a face-down card".
export function cardText(card) {
  if (!card) return "a face-down card";
  const rank = card.slice(0, -1);
  const suit = card.slice(-1);
  return (RANK_TEXT[rank] || rank) + (SUIT_SYMBOL[suit] || suit);
}

export function isRed(card) {
  const suit = card ? card.slice(-1) : "";
  return suit === "D" || suit === "H";
}

// One action text -> {verb, amount, card, seat, cards, color, bank, marriage}.
// Unknown words are kept in `verb`; a page never decides legality from this
// (the referee lists the legal actions), it only reads them.
export function parseAction(text) {
  const words = String(text || "").trim().split(/\s+/).filter((w) => w);
  const out = { verb: words[0] || "", amount: null, card: null, seat: null, cards: [], color: null,
                bank: null, marriage: false };
  const num = (w) => (w !== undefined && /^-?\d+$/.test(w) ? Number(w) : null);
  switch (out.verb) {
    case "bid": case "contract": case "blind":
      out.amount = num(words[1]);
      break;
    case "take":
      out.bank = num(words[1]);
      break;
    case "give":
      out.card = words[1] || null;
      out.seat = num(words[2]);
      break;
    case "play":
      out.card = words[1] || null;
      out.marriage = words[2] === "marriage";
      break;
    case "pick":
      out.card = words[1] || null;
      break;
    case "discard":
      out.cards = words.slice(1);
      break;
    case "guess":
      out.color = words[1] || null;
      break;
    default:
      break;
  }
  return out;
}

// The legal amounts of one verb ("bid", "contract"), ascending.
export function amounts(legal, verb) {
  return legal.map(parseAction).filter((a) => a.verb === verb && a.amount !== null)
    .map((a) => a.amount).sort((a, b) => a - b);
}

// The seats the legal "give" actions pass a card to, in order of first mention.
export function giveSeats(legal) {
  return [...new Set(legal.map(parseAction).filter((a) => a.verb === "give" && a.seat !== null)
    .map((a) => a.seat))];
}

// An action in words, for the hand record and the seat page's log:
// "gives A♥ to seat 1" (`names` by seat, optional: "to seat 1 (greedy)").
const CARD = /^[AKQJT9][CDHS]$/;
const THIRD_PERSON = { guess: "guesses", pass: "passes" };

export function isCard(text) {
  return CARD.test(String(text || ""));
}

export function actionWords(text, names = []) {
  const a = parseAction(text);
  if (/ face down/.test(String(text))) {
    // The referee's words for what this viewer may not see ("give a card
    // face down to seat 2", "discard 3 cards face down", "guess face down").
    const rest = String(text).trim().split(/\s+/).slice(1).join(" ");
    return `${THIRD_PERSON[a.verb] || a.verb + "s"} ${rest}`;
  }
  const seat = (s) => (names[s] ? `seat ${s} (${names[s]})` : `seat ${s}`);
  switch (a.verb) {
    case "bid": return `bids ${a.amount}`;
    case "pass": return "passes";
    case "contract": return `names the contract ${a.amount}`;
    case "blind": return a.amount === null ? "bids blind" : `bids ${a.amount} blind`;
    case "redeal": return "asks for a redeal";
    case "concede": return "concedes (bomb)";
    case "lottery": return "runs the lottery";
    case "guess": return a.color ? `guesses ${a.color}` : "guesses (face down)";
    case "pick": return `picks ${cardText(a.card)}`;
    case "take": return `takes bank ${a.bank}`;
    case "give": return `gives ${a.card ? cardText(a.card) : "a card face down"} to ${seat(a.seat)}`;
    case "discard": return a.cards.length ? `discards ${a.cards.map(cardText).join(" ")}` : "discards three cards face down";
    case "play": return `plays ${cardText(a.card)}${a.marriage ? " and declares the marriage" : ""}`;
    default: return String(text || "");
  }
}

// The marriages (K and Q of one suit) in a hand: marked on the page, never judged.
export function marriageCards(hand) {
  const out = new Set();
  for (const s of "CDHS") if (hand.includes("K" + s) && hand.includes("Q" + s)) { out.add("K" + s); out.add("Q" + s); }
  return out;
}
