// Draws a 1000 table (2, 3 or 4 seats) from one view object (arena/web/views.py
// documents its keys). It only draws: what a seat may see and which cards are
// legal come from the server, built by the engine.
//
//   import { drawTable } from "./table.js";
//   drawTable(element, view, { names: ["greedy", "random", "js"] });
//
// Options (all optional):
//   names           seat names, by seat
//   bottom          the seat drawn at the bottom (default: view.viewer, else 0)
//   completedTrick  {cards: [{seat, card}], winner}: a trick just taken, shown in the middle
//   lastAction      {seat, text}: shown as a bubble beside that seat
//   clickable       card texts of the bottom seat's hand to make buttons (a human's
//                   legal plays, as the referee listed them); onCard(card) is called
//   onCard          callback for a clicked card
//   clocks          per seat text to show under the name (a human table's clocks)

import { SUIT_SYMBOL, RANK_TEXT, cardText, isRed } from "./cards.js";

const PHASE_TEXT = {
  lottery: "lottery", redeal: "redeal offer", blind: "blind bidding", bidding: "auction",
  bank: "choosing a bank", exchange: "exchange", contract: "naming the contract",
  play: "play", game_over: "game over",
};

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

// One card: "AS" face up, "" face down. Face-up cards carry data-card.
export function cardEl(text, opts = {}) {
  const c = el(opts.clickable ? "button" : "span", "card");
  if (!text) {
    c.classList.add("back");
    c.setAttribute("data-card", "");
    c.setAttribute("aria-label", "face-down card");
    return c;
  }
  const rank = text.slice(0, -1);
  const suit = text.slice(-1);
  c.classList.add(`s-${suit}`);
  if (isRed(text)) c.classList.add("red");
  c.setAttribute("data-card", text);
  c.setAttribute("aria-label", text);
  c.title = text;
  c.appendChild(el("span", "rank", RANK_TEXT[rank] || rank));
  c.appendChild(el("span", "suit", SUIT_SYMBOL[suit] || suit));
  if (opts.faceDownForOthers) c.classList.add("secret");
  return c;
}

function cardRow(cards, cls, opts = {}) {
  const row = el("div", `cards ${cls || ""}`);
  for (const text of cards) {
    const clickable = opts.clickable && text && opts.clickable.includes(text);
    const c = cardEl(text, { clickable, faceDownForOthers: opts.secret });
    if (clickable) {
      c.classList.add("legal");
      c.addEventListener("click", () => opts.onCard(text));
    }
    row.appendChild(c);
  }
  return row;
}

// Seat positions around the table, clockwise from the bottom seat.
const PLACES = { 2: ["bottom", "top"], 3: ["bottom", "left", "right"], 4: ["bottom", "left", "top", "right"] };

export function placeOf(seat, bottom, players) {
  const places = PLACES[players] || PLACES[3];
  return places[(seat - bottom + players) % players];
}

function seatBox(view, seat, opts) {
  const names = opts.names || [];
  const st = (view.seat_states || [])[seat] || {};
  const box = el("section", "seat");
  box.setAttribute("data-seat", String(seat));
  box.classList.add(`at-${placeOf(seat, opts.bottom, view.players)}`);
  if (view.to_act === seat) box.classList.add("to-act");
  const active = (view.active_seats || []).includes(seat);
  if (!active) box.classList.add("sitting-out");

  const head = el("header", "seat-head");
  head.appendChild(el("span", "seat-name", `${seat}: ${names[seat] || "seat " + seat}`));
  const badges = el("span", "badges");
  const badge = (text, cls, title) => { const b = el("span", `badge ${cls}`, text); b.title = title; badges.appendChild(b); };
  if (view.dealer === seat) badge("D", "dealer", "dealer");
  if (view.declarer === seat) badge("declarer", "declarer", "declarer of this deal");
  else if (view.bidder === seat && view.declarer === null) badge("high bid", "bidder", "highest bid so far");
  if (st.blind) badge("blind", "blind", "bid blind (without looking)");
  if (st.on_barrel) badge(`barrel ${st.barrel_deals}/3`, "barrel", "sits on the barrel: as an opponent it gains nothing; it has three deals to reach the target as a declarer (deals on it so far)");
  if ((view.locked || [])[seat]) badge("locked", "locked", `barrel lock: at or above ${view.lock_threshold}, it gains points only as a declarer that makes its contract`);
  if (st.bolts) badge(`bolts ${st.bolts}`, "bolts", "bolts: deals it won no trick as an opponent");
  if (st.bombs_used) badge(`bombs ${st.bombs_used}`, "bombs", "bombs used");
  if (!active) badge("sits out", "out", "the dealer sits this deal out");
  if (view.forced_seat === seat) badge("must make 100", "forced", "must make the contract (2 players)");
  head.appendChild(badges);
  box.appendChild(head);

  const score = el("div", "seat-score");
  score.appendChild(el("span", "total", `total ${(view.totals || [])[seat]}`));
  score.appendChild(el("span", "won", `tricks ${(view.tricks_won || [])[seat] || 0} · points ${(view.points_won || [])[seat] || 0}`));
  if (opts.clocks && opts.clocks[seat]) score.appendChild(el("span", "clock", opts.clocks[seat]));
  box.appendChild(score);

  const bids = (view.auction || []).filter((a) => a.seat === seat).map((a) => a.action);
  if (bids.length) box.appendChild(el("div", "bids", bids.join(", ")));
  if (opts.lastAction && opts.lastAction.seat === seat) box.appendChild(el("div", "said", opts.lastAction.text));

  const hand = (view.hands || [])[seat];
  const size = (view.hand_sizes || [])[seat] || 0;
  if (hand === null || hand === undefined) {
    box.appendChild(cardRow(Array(size).fill(""), "hand hidden-hand"));
  } else if (hand.length === 0 && size > 0) {
    // A seat that has not looked at its cards (blind): backs, even to itself.
    box.appendChild(cardRow(Array(size).fill(""), "hand unlooked"));
  } else {
    const clickable = seat === opts.bottom ? opts.clickable : null;
    box.appendChild(cardRow(hand, "hand", { clickable, onCard: opts.onCard }));
  }

  const gave = (view.given || []).filter((g) => g.from_seat === seat);
  const got = (view.given || []).filter((g) => g.to_seat === seat);
  if (gave.length || got.length) {
    const ex = el("div", "exchange");
    // As text, not a card: the card is in the receiver's hand (or on the
    // table once played), and a card is drawn once.
    for (const g of got) {
      const line = el("span", "got", `got from ${g.from_seat}: ${g.card ? cardText(g.card) : "a card face down"}`);
      line.setAttribute("data-given", g.card);
      ex.appendChild(line);
    }
    box.appendChild(ex);
  }
  return box;
}

function centre(view, opts) {
  const mid = el("div", "centre");
  const info = el("div", "info");
  const line = (label, value, cls) => {
    const p = el("p", cls || "");
    p.appendChild(el("b", "", label + " "));
    p.appendChild(el("span", "", value));
    info.appendChild(p);
  };
  line("deal", `${view.deal_number} · ${PHASE_TEXT[view.phase] || view.phase}`, "phase");
  if (view.contract !== null && view.contract !== undefined) line("contract", `${view.contract} by seat ${view.declarer}`, "contract");
  else if (view.bid !== null && view.bid !== undefined) line("bid", `${view.bid} by seat ${view.bidder}`, "bid");
  const trump = el("p", "trump");
  trump.appendChild(el("b", "", "trump "));
  const t = el("span", view.trump ? `suit s-${view.trump} ${view.trump === "D" || view.trump === "H" ? "red" : ""}` : "", view.trump ? SUIT_SYMBOL[view.trump] : "none");
  t.setAttribute("data-trump", view.trump || "");
  trump.appendChild(t);
  info.appendChild(trump);
  if ((view.marriages || []).length) {
    line("marriages", view.marriages.map((m) => `${SUIT_SYMBOL[m.suit] || m.suit} ${m.value} (seat ${m.seat})`).join(", "), "marriages");
  }
  if (view.lottery) {
    const lot = view.lottery;
    const guesses = (lot.guesses || []).map((g) => `seat ${g.seat} ${g.color}`).join(", ") || "no guesses seen";
    line("lottery", `by seat ${lot.organiser}: ${guesses}${lot.picked ? `; picked ${lot.picked}` : ""}`, "lottery");
  }
  if (view.stock_size) line("stock", `${view.stock_size} cards`, "stock");
  if ((view.bank_sizes || []).some((n) => n)) line("banks", view.bank_sizes.join(" + ") + " cards", "banks");
  mid.appendChild(info);

  const talonBox = el("div", "talon");
  const taken = (view.talon || []).length && !view.talon_size && !view.talon_face_down;
  talonBox.appendChild(el("span", "label", view.talon_face_down ? "talon (no seat has seen it)"
    : taken ? `talon, taken by ${view.declarer === null ? "the declarer" : "seat " + view.declarer}:` : "talon"));
  if (taken) {
    // The declarer holds these cards now: named as text, not drawn a second time.
    const names = el("span", "talon-taken", view.talon.map(cardText).join(" "));
    names.setAttribute("data-talon-taken", view.talon.join(" "));
    talonBox.appendChild(names);
  } else if ((view.talon || []).length) {
    talonBox.appendChild(cardRow(view.talon, "talon-cards", { secret: view.talon_face_down }));
  } else if (view.talon_size) {
    talonBox.appendChild(cardRow(Array(view.talon_size).fill(""), "talon-cards"));
  } else {
    talonBox.appendChild(el("span", "muted", "—"));
  }
  mid.appendChild(talonBox);
  if ((view.discarded || []).length) {
    const d = el("div", "discard");
    d.appendChild(el("span", "label", "discarded"));
    d.appendChild(cardRow(view.discarded, "discard-cards"));
    mid.appendChild(d);
  }

  const trickBox = el("div", "trick");
  const shown = (view.trick || []).length ? view.trick : (opts.completedTrick ? opts.completedTrick.cards : []);
  if (!(view.trick || []).length && opts.completedTrick) {
    trickBox.classList.add("taken");
    trickBox.appendChild(el("span", "label", `trick to seat ${opts.completedTrick.winner}`));
  }
  for (const tc of shown) {
    const slot = el("div", `slot at-${placeOf(tc.seat, opts.bottom, view.players)}`);
    slot.setAttribute("data-seat", String(tc.seat));
    slot.appendChild(cardEl(tc.card));
    trickBox.appendChild(slot);
  }
  mid.appendChild(trickBox);
  return mid;
}

export function drawTable(container, view, opts = {}) {
  const o = { ...opts };
  if (o.bottom === undefined || o.bottom === null) o.bottom = view.viewer === null || view.viewer === undefined ? 0 : view.viewer;
  const table = el("div", `table players-${view.players}`);
  table.setAttribute("data-phase", view.phase);
  table.setAttribute("data-viewer", view.viewer === null || view.viewer === undefined ? "all" : String(view.viewer));
  for (let s = 0; s < view.players; s++) table.appendChild(seatBox(view, s, o));
  table.appendChild(centre(view, o));
  container.replaceChildren(table);
  return table;
}
