// A person's seat: frames from the seat's bridge in, actions out.
// Every frame of type "referee" is a message of the seat's gRPC stream as
// JSON; the page draws the observation it carries and offers exactly the
// legal actions listed in it. The referee judges every action sent.
// The table is drawn by the replay player's module (arena/web/static/table.js)
// from the `view` the bridge reshaped from this seat's observation.
// Cards and the action notation are read by the shared /static/cards.js.
import { drawTable } from "/static/table.js";
import { amounts, cardText, giveSeats, marriageCards, parseAction } from "/static/cards.js";
import { dealEndBox, handRecordBox, scoreSheet } from "/static/record.js";

const page = document.getElementById("seat-page");
const $ = id => document.getElementById(id);
const LABELS = {
  pass: "Pass", redeal: "Ask for a redeal", blind: "Bid blind", concede: "Concede (bomb)",
  lottery: "Run the lottery", "guess red": "Guess red", "guess black": "Guess black",
};

let state;
function reset() {
  state = { names: [], start: null, obs: null, view: null, decision: null, deadline: null, answered: null,
            end: null, deals: [], log: [], selected: new Set(), choice: null, amount: null, closed: "",
            last: null, turn: null, trick: null, dealEnd: null, dealEndShown: 0 };
}
reset();

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}${page.dataset.socket}`);
  ws.onopen = () => { reset(); render(); };
  ws.onmessage = ev => { handle(JSON.parse(ev.data)); render(); };
  ws.onclose = () => {
    if (!state.closed) state.closed = "the connection to the table was lost: reload the page to rejoin";
    state.decision = null;
    render();
  };
  page.socket = ws;
}

function send(action) {
  const d = state.decision;
  if (!d || state.answered) return;
  state.answered = action;
  page.dataset.sent = String(Number(page.dataset.sent || 0) + 1);
  page.socket.send(JSON.stringify({ type: "act", seq: d.seq, action }));
  render();
}

function handle(frame) {
  if (frame.type === "referee") {
    const m = frame.message;
    if (m.match_start) {
      state.start = m.match_start;
      state.names = m.match_start.seats.map(s => s.name);
    } else if (m.decision) {
      for (const ev of m.decision.events) addEvent(ev);
      state.obs = m.decision.observation;
      state.view = frame.view;
      state.decision = m.decision;
      state.deadline = performance.now() + m.decision.time_limit_s * 1000;
      state.answered = null; state.selected = new Set(); state.choice = null; state.amount = null;
      state.turn = null;
    } else if (m.turn) {
      // Another seat decides now (a Turn notice: this seat's Hello asked for
      // them): its events, this seat's own observation now, and that seat's
      // per-move time, counted down from here (its bank may add to it).
      for (const ev of m.turn.events) addEvent(ev);
      state.obs = m.turn.observation;
      state.view = frame.view;
      state.decision = null; state.answered = null;
      state.turn = { seat: Number(m.turn.seat || 0), phase: m.turn.phase,
                     deadline: performance.now() + m.turn.per_move_s * 1000 };
    } else if (m.deal_result) {
      state.turn = null;
      for (const ev of m.deal_result.events) addEvent(ev);
      state.deals.push(m.deal_result);
      // The deal's end, drawn until the person closes it or the next deal ends:
      // the next deal's first request follows at once.
      state.dealEnd = { result: m.deal_result, trick: state.trick };
      state.log.push(`deal ${m.deal_result.deal_number}: totals ${m.deal_result.totals.join(" / ")}`);
      state.decision = null;
    } else if (m.match_end) {
      for (const ev of m.match_end.events) addEvent(ev);
      state.end = m.match_end; state.decision = null; state.turn = null;
    } else if (m.event) {
      addEvent(m.event);
    } else if (m.refused) {
      notice(`the referee refused this seat: ${m.refused}`, "error");
    }
  } else if (frame.type === "notice") {
    notice(frame.text, frame.level);
  } else if (frame.type === "clock") {
    if (state.decision && String(state.decision.seq) === String(frame.seq))
      state.deadline = performance.now() + frame.left_s * 1000;
  } else if (frame.type === "turn_clock") {
    if (state.turn && state.turn.seat === frame.seat)
      state.turn.deadline = performance.now() + frame.left_s * 1000;
  } else if (frame.type === "closed") {
    state.closed = frame.why; state.decision = null; state.turn = null;
  }
}

function addEvent(ev) {
  // The latest action the stream reported: who acted last, for the status line.
  if (ev.kind === "action" && ev.seat !== undefined && ev.seat !== null) state.last = ev;
  if (ev.kind === "trick") state.trick = { cards: [...(ev.cards || [])], winner: Number(ev.seat || 0) };
  if (ev.text) state.log.push(ev.text);
  else if (ev.cards && ev.cards.length) state.log.push(`${ev.kind}: ${ev.cards.join(" ")}`);
}

function notice(textContent, level) {
  const p = document.createElement("p");
  p.textContent = textContent;
  p.className = level || "info";
  $("notices").append(p);
  while ($("notices").children.length > 4) $("notices").firstChild.remove();
}

function button(label, action, cls) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = label;
  if (action !== null) b.dataset.action = action;
  if (cls) b.className = cls;
  return b;
}

function giveTo(legal) {
  return giveSeats(legal).map(s => state.names[s] || `seat ${s}`).join(" or ");
}

function stepper(verb, values) {
  if (state.amount === null || !values.includes(state.amount)) state.amount = values[0];
  const i = values.indexOf(state.amount);
  const minus = button("−", null); minus.id = `${verb}-minus`; minus.disabled = i <= 0;
  minus.onclick = () => { state.amount = values[i - 1]; render(); };
  const out = document.createElement("output"); out.id = `${verb}-amount`; out.textContent = String(state.amount);
  const plus = button("+", null); plus.id = `${verb}-plus`; plus.disabled = i >= values.length - 1;
  plus.onclick = () => { state.amount = values[i + 1]; render(); };
  const go = button(`${verb === "bid" ? "Bid" : "Contract"} ${state.amount}`, `${verb} ${state.amount}`, "primary");
  go.id = `${verb}-go`;
  return [minus, out, plus, go];
}

function renderControls() {
  const box = $("actions");
  box.replaceChildren();
  delete box.dataset.choice;
  const d = state.decision;
  const playable = new Map();  // card -> the legal texts that use it (play / give / pick)
  if (!d || state.answered) return { playable, discards: [] };
  const legal = d.legal_texts;
  const rest = [];
  for (const t of legal) {
    const { verb, card } = parseAction(t);
    if (["play", "give", "pick"].includes(verb) && card) {
      if (!playable.has(card)) playable.set(card, []);
      playable.get(card).push(t);
    } else if (verb !== "bid" && verb !== "contract" && verb !== "discard") {
      rest.push(t);
    }
  }
  if (state.choice) {  // one card, several legal actions (play KH / play KH marriage)
    box.dataset.choice = state.choice;
    box.append(document.createTextNode(`${cardText(state.choice)}: `));
    for (const t of playable.get(state.choice) || []) box.append(button(t.replace(/^play \S+/, "play").replace("marriage", "+ marriage"), t, "primary"));
    box.append(button("back", null));
    box.lastChild.onclick = () => { state.choice = null; render(); };
  }
  const verbs = new Set(legal.map(t => parseAction(t).verb));
  const hint = verbs.has("give") ? `click a card to give it to ${giveTo(legal)}`
    : verbs.has("play") ? "click a card to play it"
    : verbs.has("discard") ? "choose three cards to lay face down" : "";
  if (hint) { const h = document.createElement("span"); h.className = "hint"; h.textContent = hint; box.append(h); }
  const bids = amounts(legal, "bid");
  if (bids.length) box.append(...stepper("bid", bids));
  const contracts = amounts(legal, "contract");
  if (contracts.length) box.append(...stepper("contract", contracts));
  const discards = legal.filter(t => parseAction(t).verb === "discard");
  if (discards.length) {
    const want = [...state.selected].sort().join(" ");
    const match = discards.find(t => parseAction(t).cards.sort().join(" ") === want);
    const b = button(`Discard ${[...state.selected].map(cardText).join(" ") || "(choose 3 cards)"}`, match || null, "primary");
    b.id = "discard-go"; b.disabled = !match;
    box.append(b);
  }
  for (const t of rest) box.append(button(LABELS[t] || t, t, t === "pass" ? "" : "primary"));
  for (const b of box.querySelectorAll("button[data-action]")) b.onclick = () => send(b.dataset.action);
  return { playable, discards };
}

// The seat's own hand, as drawTable drew it: the cards the referee listed
// in a legal action are buttons (highlighted), the rest dimmed; marriage
// cards get a gold dot. The hand row gets id="hand".
function markHand(obs, controls) {
  const me = obs.seat;
  const row = $("table").querySelector(`.seat[data-seat="${me}"] .hand`);
  if (!row) return;
  row.id = "hand";
  const marks = marriageCards(obs.hand);
  const playable = controls.playable || new Map();
  for (const c of row.querySelectorAll(".card[data-card]")) {
    const card = c.dataset.card;
    if (!card) continue;
    if (marks.has(card)) {
      const dot = document.createElement("i"); dot.className = "dot"; dot.title = "marriage";
      c.append(dot); c.classList.add("marriage");
    }
    if (c.tagName !== "BUTTON") c.classList.add("dimmed");
    else if (state.selected.has(card)) c.classList.add("selected");
  }
  // Actions naming a card not in the hand (none today): buttons beside the others.
  for (const [card, uses] of playable) {
    if (obs.hand.includes(card)) continue;
    for (const t of uses) $("actions").append(button(t, t, "primary"));
  }
  for (const b of $("actions").querySelectorAll("button[data-action]")) b.onclick = () => send(b.dataset.action);
}

function onCard(card, controls) {
  if (controls.discards && controls.discards.length) {
    state.selected.has(card) ? state.selected.delete(card) : state.selected.add(card);
    render();
    return;
  }
  const uses = controls.playable.get(card) || [];
  if (uses.length === 1) send(uses[0]);
  else if (uses.length > 1) { state.choice = card; render(); }
}

function renderResult() {
  const box = $("result");
  if (!state.end) { box.hidden = true; return; }
  box.hidden = false;
  box.replaceChildren();
  const h = document.createElement("h2"); h.textContent = "Result"; box.append(h);
  const t = document.createElement("table");
  t.innerHTML = "<tr><th>place</th><th>seat</th><th>total</th><th>status</th></tr>";
  const order = state.end.places.map((p, s) => [p, s]).sort((a, b) => a[0] - b[0]);
  for (const [p, s] of order) {
    const tr = document.createElement("tr");
    tr.dataset.seat = String(s);
    for (const v of [p, state.names[s] || `seat ${s}`, state.end.totals[s], state.end.statuses[s]]) {
      const td = document.createElement("td"); td.textContent = String(v); tr.append(td);
    }
    t.append(tr);
  }
  box.append(t);
  const p = document.createElement("p");
  p.textContent = `${state.end.reason}: you finished ${ordinal(state.end.places[Number(page.dataset.seat)])}.`;
  box.append(p);
  const sheet = document.createElement("h3"); sheet.textContent = "Score sheet"; box.append(sheet);
  box.append(scoreSheet(state.deals, state.names));
  const links = JSON.parse(page.dataset.links || "[]");
  if (links.length) {
    const ul = document.createElement("ul"); ul.id = "end-links";
    for (const [label, href] of links) {
      const li = document.createElement("li"); const a = document.createElement("a");
      a.href = href; a.textContent = label; li.append(a); ul.append(li);
    }
    box.append(ul);
  } else if (page.dataset.after) {
    const after = document.createElement("p"); after.className = "muted"; after.textContent = page.dataset.after; box.append(after);
  }
  if (page.dataset.rematch) {  // arena play human --rematch: the same options, new cards
    box.append(postButton("rematch", page.dataset.rematch, "Rematch", "the same options and seats, new cards"));
  }
  // "Review this game": where this seat lost points (docs/analysis.md); the
  // analysis covers the 3- and 4-seat games, not the 2-player forms.
  if (page.dataset.review && (state.names || []).length !== 2) {
    box.append(postButton("review", page.dataset.review, "Review this game",
      "where you lost points, decision by decision, from what you knew"));
  }
}

// A form of one button that posts to `action` (button #ID in form #ID-form), with a line on what it does.
function postButton(id, action, label, what) {
  const form = document.createElement("form");
  form.method = "post"; form.action = action; form.id = `${id}-form`;
  const go = document.createElement("button"); go.type = "submit"; go.id = id; go.textContent = label;
  const why = document.createElement("span"); why.className = "muted"; why.textContent = ` ${what}`;
  form.append(go, why);
  return form;
}

function renderDealEnd() {
  const box = $("deal-end");
  const d = state.dealEnd;
  if (!d || state.dealEndShown >= d.result.deal_number) { box.hidden = true; box.replaceChildren(); return; }
  box.hidden = false;
  const close = button("close", null); close.id = "deal-end-close";
  close.onclick = () => { state.dealEndShown = d.result.deal_number; render(); };
  box.replaceChildren(dealEndBox(d.result, d.trick, state.names), close);
}

function seatName(s) { return `seat ${s} (${state.names[s] || "?"})`; }

function ordinal(n) { return n === 1 ? "first" : n === 2 ? "second" : n === 3 ? "third" : `${n}th`; }

function render() {
  const d = state.decision;
  const mine = d && !state.answered;
  // For scripts and tests: the decision waiting and its legal actions, as the referee sent them.
  page.dataset.seq = mine ? String(d.seq) : "";
  page.dataset.legal = mine ? d.legal_texts.join("|") : "";
  const status = $("status");
  status.className = mine ? "turn" : "";
  // Who acts, as this seat's stream says: a decision's observation names
  // the seat to act (this one); a Turn notice names the other seat deciding
  // now. Where neither is waiting (a deal just scored, a private offer
  // being decided elsewhere, for which no notice is sent) the page names
  // the last seat whose action it was told of, never a guess.
  const turn = !mine && !state.end && !state.closed ? state.turn : null;
  const toAct = mine && d.observation.to_act !== undefined ? Number(d.observation.to_act)
    : turn ? turn.seat : null;
  page.dataset.toAct = toAct === null ? "" : String(toAct);
  const last = state.last ? `last: ${seatName(state.last.seat)} — ${state.last.text.replace(/^seat \d+: /, "")}` : "";
  status.textContent = state.end ? "the match is over"
    : state.closed ? state.closed
    : mine ? `${seatName(toAct === null ? Number(page.dataset.seat) : toAct)} to act: your turn${last ? " (" + last + ")" : ""}`
    : turn ? `${seatName(turn.seat)} to act (${turn.phase})${last ? " (" + last + ")" : ""}`
    : state.answered ? `sent: ${state.answered} — the other players act`
    : state.start ? `the other players act${last ? " (" + last + ")" : ""}` : "waiting for the match to start";
  const controls = renderControls();
  if (state.view) {
    const view = { ...state.view };
    const last = state.deals[state.deals.length - 1];
    if (last && last.deal_number >= view.deal_number) view.totals = last.totals;  // scored since
    const discarding = controls.discards && controls.discards.length;
    const clickable = state.decision && !state.answered
      ? (discarding ? view.hands[view.viewer] : [...controls.playable.keys()]) : [];
    // The trick just taken, while the next one has no card yet (the person
    // may lead): the last of the deal's tricks, as the observation lists them.
    const tricks = view.tricks || [];
    const completedTrick = !(view.trick || []).length && tricks.length ? tricks[tricks.length - 1] : null;
    drawTable($("table"), view, { names: state.names, bottom: view.viewer, clickable, completedTrick,
                                  onCard: card => onCard(card, controls) });
    markHand(state.obs, controls);
    // The hand record of the deal, from the same view: the auction and the
    // tricks as grids, the last trick on demand (kept open or shut as chosen).
    const box = $("record");
    const open = box.querySelector("details.last-trick-box")?.open || false;
    box.replaceChildren(handRecordBox(view, state.names));
    const shut = box.querySelector("details.last-trick-box");
    if (shut) shut.open = open;
  }
  renderDealEnd();
  renderResult();
  const log = $("log");
  log.replaceChildren(...state.log.slice(-200).map(t => { const li = document.createElement("li"); li.textContent = t; return li; }));
  tick();
}

function minutes(left) {
  return `${Math.floor(left / 60)}:${String(Math.floor(left % 60)).padStart(2, "0")}`;
}

function tick() {
  const clock = $("clock");
  const mine = state.decision && !state.answered && state.deadline !== null;
  const turn = !mine && !state.end && !state.closed ? state.turn : null;
  clock.dataset.seat = mine ? page.dataset.seat : turn ? String(turn.seat) : "";
  if (!mine && !turn) { clock.hidden = true; return; }
  const left = Math.max(0, ((mine ? state.deadline : turn.deadline) - performance.now()) / 1000);
  clock.hidden = false;
  // Another seat's clock: its per-move time only (its bank is not told, see
  // docs/protocol.md#turn-notices). Past it the page knows only that: the
  // seat may be on its bank, or may not have been asked yet while a seat
  // decides a private offer, of which no seat is told (the notice of the
  // turn after it comes first). It says no more than it knows.
  clock.textContent = mine ? `${minutes(left)} left`
    : left > 0 ? `${seatName(turn.seat)}: ${minutes(Math.ceil(left))} left`
    : `${seatName(turn.seat)}: past its per-move time`;
  clock.classList.toggle("low", mine && left < 10);
  clock.classList.toggle("other", !mine);
}
setInterval(tick, 250);
connect();
// For scripts and tests: what the page was told, as it holds it.
window.arenaSeat = { get state() { return state; } };
