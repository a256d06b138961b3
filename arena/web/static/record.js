// The hand record of a deal and its end, for the replay player and a
// person's seat page: the auction as a grid by seat, the tricks as a grid,
// the deal's end (deal scores against the contract, the changes) and a
// match's score sheet. Everything drawn comes from a view or a deal result
// the server built (views.py, DealRecord / DealResult): nothing here decides
// what a seat may see. The `...Rows` / `dealSummary` functions are pure (no
// DOM; tests/web/js/record.test.mjs); the `...Box` ones build elements.
import { actionWords, cardText } from "./cards.js";

const none = (v) => v === null || v === undefined;

function seatName(seat, names) {
  return names && names[seat] ? `seat ${seat} (${names[seat]})` : `seat ${seat}`;
}

// The auction as rounds, one column per seat: a new row starts when a seat
// acts again (a seat that passed stays blank afterwards):
// [{seat, action}] -> [[text | ""] per seat].
export function auctionRows(auction, players) {
  const rows = [];
  let row = null;
  for (const { seat, action } of auction || []) {
    if (row === null || row[seat] !== "") { row = Array(players).fill(""); rows.push(row); }
    row[seat] = action;
  }
  return rows;
}

// The deal's tricks as rows: number, leader, the card of each seat, winner.
// `tricks` as views.py lists them ([{leader, cards: [{seat, card}], winner}]).
export function trickRows(tricks, players) {
  return (tricks || []).map((t, i) => {
    const cards = Array(players).fill("");
    for (const { seat, card } of t.cards) cards[seat] = card;
    return { n: i + 1, leader: t.leader, cards, winner: t.winner };
  });
}

// One finished deal in words, from its record (DealRecord.to_dict() or a
// DealResult message): the headline and one row per seat.
export function dealSummary(d, names = []) {
  const n = (d.totals || []).length;
  let headline;
  if (none(d.declarer)) {
    headline = `deal ${d.deal_number}: nobody played it${(d.notes || []).length ? " (" + d.notes.join(", ") + ")" : ""}`;
  } else {
    const score = (d.deal_scores || [])[d.declarer];
    const conceded = (d.notes || []).some((x) => /bomb|concede/.test(x));
    headline = `deal ${d.deal_number}: ${seatName(d.declarer, names)} played ${d.contract}` +
      (conceded ? " and conceded" : `, took ${score} — ${d.made ? "made" : "failed"}`);
  }
  const rows = [];
  for (let s = 0; s < n; s++) {
    rows.push({ seat: s, name: seatName(s, names), score: (d.deal_scores || [])[s] ?? 0,
                change: (d.changes || [])[s] ?? 0, total: (d.totals || [])[s] ?? 0,
                declarer: d.declarer === s });
  }
  return { headline, rows, notes: [...(d.notes || [])] };
}

// A match's score sheet: one row per deal (declarer, contract, made, the
// changes and totals by seat).
export function sheetRows(deals, names = []) {
  return (deals || []).map((d) => ({
    deal: d.deal_number,
    declarer: none(d.declarer) ? "–" : seatName(d.declarer, names),
    contract: none(d.declarer) ? "–" : String(d.contract),
    result: none(d.declarer) ? "–" : (d.made ? "made" : "failed"),
    changes: [...(d.changes || [])], totals: [...(d.totals || [])],
    notes: (d.notes || []).join(", "),
  }));
}

// An action's words with the acting seat: "seat 0 (greedy) gives A♥ to seat 1".
export function actionLine(seat, text, names = []) {
  return `${seatName(seat, names)} ${actionWords(text, names)}`;
}

export const signed = (v) => (v > 0 ? `+${v}` : String(v));

// ------------------------------------------------------------------ DOM

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (!none(text)) e.textContent = String(text);
  return e;
}

function table(cls, head, rows, labels = head) {
  const wrap = el("div", "scroll-x");
  const t = el("table", `plain ${cls}`);
  const tr = el("tr");
  for (const h of head) tr.append(el("th", "", h));
  const thead = el("thead"); thead.append(tr); t.append(thead);
  const body = el("tbody");
  for (const r of rows) {
    const row = el("tr");
    r.forEach((c, i) => { const td = el("td", "", c); td.dataset.label = labels[i]; row.append(td); });
    body.append(row);
  }
  t.append(body);
  wrap.append(t);
  return wrap;
}

function trickText(trick) {
  if (!trick) return "";
  const cards = trick.cards.map((c) => (typeof c === "string" ? cardText(c) : `${cardText(c.card)} (seat ${c.seat})`));
  return `last trick: ${cards.join(" ")} — to seat ${trick.winner}`;
}

// The deal-end frame: headline, the last trick, one row per seat.
export function dealEndBox(d, trick, names = []) {
  const sum = dealSummary(d, names);
  const box = el("div", "deal-end");
  box.dataset.deal = String(d.deal_number);
  box.append(el("h3", "", sum.headline));
  if (trick) box.append(el("p", "last-trick", trickText(trick)));
  const rows = sum.rows.map((r) => [r.name + (r.declarer ? " — declarer" : ""), String(r.score), signed(r.change), String(r.total)]);
  box.append(table("deal-end-seats", ["seat", "deal score (cards + marriages)", "change", "total"], rows,
                   ["seat", "deal score", "change", "total"]));
  if (sum.notes.length) box.append(el("p", "muted", `notes: ${sum.notes.join(", ")}`));
  return box;
}

export function scoreSheet(deals, names = []) {
  const n = names.length || ((deals[0] || {}).totals || []).length;
  const head = ["deal", "declarer", "contract", "result"];
  for (let s = 0; s < n; s++) head.push(`${names[s] || "seat " + s} (change / total)`);
  const labels = ["deal", "declarer", "contract", "result", ...Array.from({ length: n }, (_, s) => names[s] || `seat ${s}`)];
  const rows = sheetRows(deals, names).map((r) => [String(r.deal), r.declarer, r.contract, r.result,
    ...r.changes.map((c, s) => `${signed(c)} / ${r.totals[s]}`)]);
  const box = table("score-sheet", head, rows, labels);
  box.id = "score-sheet";
  return box;
}

// The hand record of the deal a view is in: the auction grid, the tricks
// grid and, on demand, the last trick (a <details>).
export function handRecordBox(view, names = [], opts = {}) {
  const box = el("div", "hand-record");
  box.dataset.deal = String(view.deal_number);
  const n = view.players;
  const seats = Array.from({ length: n }, (_, s) => names[s] ? `${s}: ${names[s]}` : `seat ${s}`);
  box.append(el("h3", "", `deal ${view.deal_number}: the auction`));
  const auction = auctionRows(view.auction, n);
  box.append(auction.length ? table("auction-grid", seats, auction) : el("p", "muted", "no bid yet"));
  box.append(el("h3", "", "tricks"));
  const all = [...(view.tricks || [])];
  if (opts.finalTrick) all.push({ leader: opts.finalTrick.cards[0].seat, ...opts.finalTrick });
  const tricks = trickRows(all, n);
  const head = ["#", "led by", ...seats, "won by"];
  box.append(tricks.length
    ? table("tricks-grid", head,
            tricks.map((t) => [String(t.n), `seat ${t.leader}`, ...t.cards.map((c) => (c ? cardText(c) : "")), `seat ${t.winner}`]))
    : el("p", "muted", "no trick taken yet"));
  const last = opts.lastTrick || all[all.length - 1];
  const details = el("details", "last-trick-box");
  details.append(el("summary", "", "show the last trick"));
  details.append(el("p", "last-trick", last ? trickText(last) : "no trick taken yet this deal"));
  box.append(details);
  return box;
}
