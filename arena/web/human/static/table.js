// The table from one seat's view, drawn from the observation the referee
// sent that seat (protobuf JSON field names). Nothing here decides what the
// seat may see: it draws what the observation holds, and face-down cards
// only as counts. (A seat page can switch to the replay player's table
// module by importing its drawing function in place of this one.)

const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };

export function cardText(card) {
  const rank = card.slice(0, -1) === "T" ? "10" : card.slice(0, -1);
  return rank + (SUITS[card.slice(-1)] || card.slice(-1));
}

export function cardElement(card, { tag = "span", small = false } = {}) {
  const el = document.createElement(tag);
  el.className = "card" + (small ? " small" : "");
  if (card) {
    el.textContent = cardText(card);
    el.dataset.card = card;
    if ("DH".includes(card.slice(-1))) el.classList.add("red");
    el.setAttribute("aria-label", card);
  } else {
    el.classList.add("back");
    el.setAttribute("aria-label", "face down");
  }
  return el;
}

function row(cards, opts) {
  const div = document.createElement("div");
  div.className = "cards";
  for (const c of cards) div.append(cardElement(c, opts));
  return div;
}

function text(tag, content, cls) {
  const el = document.createElement(tag);
  el.textContent = content;
  if (cls) el.className = cls;
  return el;
}

// obs: the observation; names: seat names; opts.acting: seat to act (or null).
export function drawTable(el, obs, names, opts = {}) {
  el.replaceChildren();
  if (!obs) return;
  const me = obs.seat;
  const n = obs.players;
  const active = new Set(obs.active_seats || []);
  const trickBySeat = new Map((obs.trick || []).map(t => [t.seat, t.card]));
  for (let k = 0; k < n; k++) {
    const s = (me + k) % n;  // me first, then clockwise
    const box = document.createElement("div");
    box.className = "seat-box" + (s === me ? " me" : "") + (opts.acting === s ? " acting" : "");
    box.dataset.seat = String(s);
    const head = text("div", "");
    head.append(text("span", `${names[s] || "seat " + s}${s === me ? " (you)" : ""}`, "name"),
                text("span", String((obs.totals || [])[s] ?? 0), "total"));
    box.append(head);
    const tags = [];
    if (s === obs.dealer) tags.push("dealer");
    if (!active.has(s)) tags.push("sits out");
    if (obs.declarer === s) tags.push(`declarer${obs.contract != null ? " · contract " + obs.contract : ""}`);
    else if (obs.bidder === s && obs.bid != null && obs.phase === "bidding") tags.push(`bid ${obs.bid}`);
    const st = (obs.seat_states || []).find(x => x.seat === s);
    if (st) {
      if (st.on_barrel) tags.push("on the barrel");
      if (st.bolts) tags.push(`${st.bolts} bolt${st.bolts > 1 ? "s" : ""}`);
      if (st.blind) tags.push("blind");
    }
    const won = (obs.tricks_won || [])[s];
    if (won) tags.push(`${won} trick${won > 1 ? "s" : ""}, ${(obs.points_won || [])[s]} points`);
    box.append(text("div", tags.join(" · ") || " ", "tags"));
    if (s !== me) {
      const size = (obs.hand_sizes || [])[s] || 0;
      box.append(row(Array(size).fill(""), { small: true }));
    }
    const played = trickBySeat.get(s);
    const slot = text("div", "", "cards played");
    if (played) slot.append(cardElement(played));
    box.append(slot);
    el.append(box);
  }
  const center = document.createElement("div");
  center.className = "center";
  const info = text("div", "", "info");
  info.append(text("span", `deal ${obs.deal_number}`),
              text("span", `phase: ${obs.phase}`, "phase"),
              text("span", obs.trump ? `trump: ${SUITS[obs.trump]} ${SUIT_NAMES[obs.trump]}` : "no trump", "trump"));
  if (obs.contract != null) info.append(text("span", `contract ${obs.contract}`));
  else if (obs.bid != null) info.append(text("span", `bid ${obs.bid}`));
  center.append(info);
  const talon = text("div", "", "talon");
  if ((obs.talon || []).length) {
    talon.append(text("span", "talon "), row(obs.talon, { small: true }));
  } else if (obs.talon_count) {
    talon.append(text("span", "talon "), row(Array(obs.talon_count).fill(""), { small: true }));
  }
  center.append(talon);
  if ((obs.given || []).length) {
    const g = text("div", "given: ");
    for (const x of obs.given) {
      g.append(text("span", ` ${names[x.from_seat] || x.from_seat} → ${names[x.to_seat] || x.to_seat} `));
      g.append(cardElement(x.card || "", { small: true }));
    }
    center.append(g);
  }
  if ((obs.marriages || []).length) {
    center.append(text("div", "marriages: " + obs.marriages.map(
      m => `${names[m.seat] || m.seat} ${SUITS[m.suit] || m.suit} ${m.value}`).join(", "), "marriages"));
  }
  const tricks = obs.tricks || [];
  if (tricks.length) {
    const last = tricks[tricks.length - 1];
    const t = text("div", `last trick (won by ${names[last.winner] || last.winner}): `, "last-trick");
    t.append(row(last.cards.map(c => c.card), { small: true }));
    center.append(t);
  }
  if (obs.auction && obs.auction.length && obs.phase === "bidding") {
    center.append(text("div", "auction: " + obs.auction.map(
      a => `${names[a.seat] || a.seat} ${a.action}`).join(", "), "auction"));
  }
  el.append(center);
}
