// The replay player: steps through the views the server built (player.py) and
// draws each with table.js. It never computes what a seat may see: switching
// the view loads the data the engine made for that viewer.
import { drawTable } from "./table.js";
import { actionLine, dealEndBox, handRecordBox } from "./record.js";

const root = document.getElementById("player");
const params = new URLSearchParams(location.search);
const state = { data: null, views: [], step: 0, timer: null, view: params.get("view") || root.dataset.view || "all" };

function inlineData(view) {
  const node = document.getElementById(`data-${view}`);
  return node ? JSON.parse(node.textContent) : null;
}

async function load(view) {
  const inline = inlineData(view);
  if (inline) return inline;
  const url = root.dataset.url.replace("{view}", encodeURIComponent(view));
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${response.status}: ${await response.text()}`);
  return response.json();
}

// Steps are delta-encoded: each holds the view keys that changed.
function expand(steps, from = {}) {
  const views = [];
  let current = from;
  for (const s of steps) {
    current = { ...current, ...s.v };
    views.push(current);
  }
  return views;
}

// A long match comes in parts (arena/web/chunks.py): the page holds its
// first deals, `more` names the next deal to ask for. Parts are appended in
// order, so a step's number is the same however many are loaded.
let loading = null;
function loadMore() {
  if (state.data.more === null || state.data.more === undefined) return Promise.resolve(false);
  if (loading) return loading;
  const view = state.view;
  const url = root.dataset.dealsUrl.replace("{view}", encodeURIComponent(view)).replace("{deal}", String(state.data.more));
  loading = fetch(url).then(async (response) => {
    if (!response.ok) throw new Error(`${response.status}: ${await response.text()}`);
    const part = await response.json();
    if (state.view !== view || part.from !== state.data.more) return false;  // switched meanwhile
    const before = state.views[state.views.length - 1] || {};
    state.data.steps.push(...part.steps);
    state.views.push(...expand(part.steps, before));
    state.data.more = part.more;
    document.getElementById("slider").max = String(state.data.steps.length - 1);
    stepLabel();
    return true;
  }).finally(() => { loading = null; });
  return loading;
}

async function ensure(done) {
  while (!done() && state.data.more !== null && state.data.more !== undefined) {
    if (!(await loadMore())) break;
  }
}

function stepLabel() {
  const more = state.data.more !== null && state.data.more !== undefined;
  document.getElementById("stepno").textContent =
    `step ${state.step} / ${state.data.steps.length - 1}${more ? "+ (deals " + state.data.more + "… load as you go)" : ""}`;
}

function showWhenLoaded(step) {
  ensure(() => state.data.steps.length > step).then(() => show(step));
}

function names() {
  return state.data.match.bots.map((b) => b.name);
}

function show(step) {
  const steps = state.data.steps;
  if (step > steps.length - 1 && state.data.more !== null && state.data.more !== undefined) {
    showWhenLoaded(step);
  }
  state.step = Math.max(0, Math.min(step, steps.length - 1));
  const s = steps[state.step];
  const view = state.views[state.step];
  const tableBox = document.getElementById("table");
  const ended = s.r !== null && s.r !== undefined ? state.data.deals[s.r] : null;
  if (ended && !state.nextDeal) {
    // The last card of a deal: its end (the last trick, the deal scores
    // against the contract, the changes), not yet the next deal's cards.
    const box = dealEndBox(ended, s.t, names());
    box.id = "deal-end";
    if (state.step < steps.length - 1) {
      const next = document.createElement("button");
      next.type = "button"; next.id = "b-next-deal"; next.textContent = "show the next deal's cards";
      next.addEventListener("click", () => { state.nextDeal = true; show(state.step); state.nextDeal = false; });
      box.append(next);
    }
    tableBox.replaceChildren(box);
  } else {
    drawTable(tableBox, view, { names: names(), completedTrick: s.t, lastAction: s.a });
  }
  drawRecord(view, s);
  drawBotsEye();
  document.getElementById("slider").value = String(state.step);
  stepLabel();
  // The next part before it is needed: when this step is in the last deal loaded.
  const lastView = state.views[state.views.length - 1];
  if (lastView && lastView.deal_number <= view.deal_number + 1) loadMore().catch(() => {});
  const last = document.getElementById("lastaction");
  last.replaceChildren();
  if (s.a) {
    let text = `seat ${s.a.seat}: ${s.a.text}`;
    if (s.a.time !== null) text += ` (${(s.a.time * 1000).toFixed(1)} ms)`;
    last.textContent = text;
    if (s.a.fault) {
      const f = document.createElement("span");
      f.className = "fault";
      f.textContent = ` fault: ${s.a.fault}${s.a.note ? " — " + s.a.note : ""}`;
      last.appendChild(f);
    }
  }
  if (s.r !== null && s.r !== undefined) {
    const d = state.data.deals[s.r];
    const r = document.createElement("span");
    r.className = "dealresult";
    r.textContent = ` · deal ${d.deal_number} scored: ${dealText(d)}`;
    last.appendChild(r);
  }
  markDeal(view.deal_number);
  const url = new URL(location.href);
  url.searchParams.set("view", state.view);
  url.searchParams.set("step", String(state.step));
  history.replaceState(null, "", url);
}

// The hand record of the deal shown: the auction and tricks grids, the deal's
// actions in words up to this step, the last trick on demand.
function drawRecord(view, s) {
  const box = document.getElementById("record");
  if (!box) return;
  const ended = s.r !== null && s.r !== undefined;
  // At a deal's last card, the record is still that deal's (the view is the next one's).
  const at = ended && state.step > 0 ? state.step - 1 : state.step;
  const deal = state.views[at].deal_number;
  let first = at;
  while (first > 0 && state.views[first - 1].deal_number === deal) first--;
  // The deal's last trick is in no view of the deal (the next deal is dealt
  // with it): added from the step that took it.
  const panel = handRecordBox(state.views[at], names(), { lastTrick: s.t, finalTrick: ended ? s.t : null });
  const words = document.createElement("ol");
  words.className = "action-words";
  for (let k = first + 1; k <= state.step; k++) {
    const a = state.data.steps[k].a;
    if (a) { const li = document.createElement("li"); li.dataset.n = String(a.n); li.textContent = actionLine(a.seat, a.text, names()); words.appendChild(li); }
  }
  for (const li of words.children) {
    const d = analysis.byN.get(Number(li.dataset.n));
    if (d && d.label) li.appendChild(flagNote(d));
  }
  const h = document.createElement("h3"); h.textContent = "what was done";
  panel.append(h, words);
  box.replaceChildren(panel);
  words.scrollTop = words.scrollHeight;  // the latest action in sight
}

// The bot's-eye view (seat views only): the last decision of the viewed
// seat up to this step, as the server re-built it from the engine
// (referee/botseye.py): the observation and legal actions its request
// carried, the reply, the clock, and the bot's output between that request
// and the next. Asked for only while the box is open; kept per decision.
const botsEye = { cache: new Map(), shown: null };

function ownDecision() {
  const seat = Number(state.view);
  for (let k = state.step; k >= 0; k--) {
    const a = state.data.steps[k].a;
    if (a && a.seat === seat) return a.n;
  }
  return null;
}

async function drawBotsEye() {
  const box = document.getElementById("botseye-box");
  const url = root.dataset.decisionUrl || "";
  box.hidden = !url || state.view === "all";
  if (box.hidden || !box.open) return;
  const out = document.getElementById("botseye");
  const n = ownDecision();
  if (n === null) {
    botsEye.shown = null;
    out.replaceChildren(para(`seat ${state.view} has made no decision yet at this step`, "muted"));
    return;
  }
  const key = `${state.view}/${n}`;
  if (botsEye.shown === key) return;
  botsEye.shown = key;
  let data = botsEye.cache.get(key);
  if (!data) {
    out.replaceChildren(para("loading…", "muted"));
    try {
      const response = await fetch(url.replace("{view}", encodeURIComponent(state.view)).replace("{n}", String(n)));
      data = response.ok ? await response.json() : { error: `${response.status}: ${await response.text()}` };
    } catch (err) {
      data = { error: String(err) };
    }
    if (!data.error) botsEye.cache.set(key, data);
    if (botsEye.shown !== key) return;  // moved on meanwhile
  }
  out.replaceChildren(...botsEyeParts(data));
}

function para(text, cls) {
  const p = document.createElement("p");
  if (cls) p.className = cls;
  p.textContent = text;
  return p;
}

function block(title, text, id) {
  const h = document.createElement("h3");
  h.textContent = title;
  const pre = document.createElement("pre");
  pre.className = "botseye-text";
  if (id) pre.id = id;
  pre.textContent = text;
  return [h, pre];
}

function secs(v) {
  return v === null || v === undefined ? "?" : `${Number(v).toFixed(3)} s`;
}

function botsEyeParts(d) {
  if (d.error) return [para(`cannot load this decision: ${d.error}`, "fault")];
  const parts = [];
  const head = para(`decision ${d.n} of seat ${d.seat}` + (d.seq !== null ? ` (its request ${d.seq})` : "")
    + ` · deal ${d.deal} · ${d.phase}`, "botseye-head");
  head.id = "botseye-head";
  parts.push(head);
  if (d.sent === false) parts.push(para("no request went out: the seat had forfeited, its default action played", "fault"));
  const reply = para(`reply: ${d.reply}` + (d.fault ? ` — fault: ${d.fault}${d.note ? " (" + d.note + ")" : ""}` : ""), d.fault ? "fault" : "");
  reply.id = "botseye-reply";
  parts.push(reply);
  let clock = `time used ${secs(d.time)}`;
  if (d.limit !== null) clock += ` of its limit ${secs(d.limit)} (per move ${secs(d.per_move)} + bank ${secs(d.bank)})`;
  else if (d.per_move !== null && d.per_move !== undefined) clock += ` (per move ${secs(d.per_move)}; the bank is in the decision marks, not kept here)`;
  if (d.cpu !== null && d.cpu !== undefined) clock += ` · CPU ${secs(d.cpu)}`;
  const c = para(clock);
  c.id = "botseye-clock";
  parts.push(c);
  const legal = document.createElement("ul");
  legal.className = "botseye-legal";
  legal.id = "botseye-legal";
  for (const a of d.legal) {
    const li = document.createElement("li");
    li.textContent = a;
    if (a === d.reply) li.className = "chosen";
    legal.appendChild(li);
  }
  const lh = document.createElement("h3");
  lh.textContent = `legal actions sent (${d.legal.length})`;
  parts.push(lh, legal);
  if (d.lines !== null) {
    parts.push(...block("what the bot printed, from this request to its next"
      + (d.relayed ? " (relayed by docker: a line may fall one decision late)" : ""),
      (d.lines || "(nothing)") + (d.cut ? "\n[past the log's cap: the rest was discarded]" : ""), "botseye-lines"));
  } else {
    parts.push(para(d.log_note || "no log kept", "muted"));
  }
  parts.push(...block("observation sent (arena.v1.Observation)", JSON.stringify(d.observation, null, 1), "botseye-obs"));
  return parts;
}

function dealText(d) {
  const who = d.declarer === null ? "no declarer" : `seat ${d.declarer} ${d.contract} ${d.made ? "made" : "failed"}`;
  return `${who}; changes ${d.changes.join(" / ")}; totals ${d.totals.join(" / ")}`;
}

function markDeal(number) {
  for (const row of document.querySelectorAll("#deals tr[data-deal]")) {
    row.classList.toggle("current", Number(row.dataset.deal) === number);
  }
}

function drawDeals() {
  const deals = state.data.deals;
  const box = document.getElementById("deals");
  const table = document.createElement("table");
  table.className = "plain deals";
  const travellers = root.dataset.travellers || "";  // a tournament's match: its table's other seat orders
  const labels = ["deal", "declarer", "contract", "result", "changes", "totals", "notes"];
  if (travellers) labels.push("same cards");
  const thead = document.createElement("thead");
  const head = document.createElement("tr");
  for (const h of labels) {
    const th = document.createElement("th"); th.textContent = h; head.appendChild(th);
  }
  thead.appendChild(head);
  table.appendChild(thead);
  for (const d of deals) {
    const tr = document.createElement("tr");
    tr.dataset.deal = String(d.deal_number);
    const cells = [d.deal_number, d.declarer === null ? "–" : `seat ${d.declarer}`, d.declarer === null ? "–" : d.contract,
      d.declarer === null ? "–" : (d.made ? "made" : "failed"), d.changes.join(" / "), d.totals.join(" / "), (d.notes || []).join(", ")];
    cells.forEach((c, i) => { const td = document.createElement("td"); td.textContent = String(c); td.dataset.label = labels[i]; tr.appendChild(td); });
    if (travellers) {
      const td = document.createElement("td"); td.dataset.label = "same cards";
      const a = document.createElement("a"); a.className = "traveller";
      a.href = travellers.replace("{deal}", String(d.deal_number)); a.textContent = "compare";
      a.addEventListener("click", (e) => e.stopPropagation());
      td.appendChild(a); tr.appendChild(td);
    }
    tr.addEventListener("click", () => jumpToDeal(d.deal_number));
    table.appendChild(tr);
  }
  box.replaceChildren(table);
}

// Round tick values from lo to hi, at most `most` of them, with 0 among them.
function ticks(lo, hi, most) {
  const span = hi - lo;
  const raw = span / Math.max(1, Math.floor(most));
  const mag = 10 ** Math.floor(Math.log10(raw || 1));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((m) => m >= raw) || 10 * mag;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) out.push(Math.round(v));
  return out;
}

function drawTotalsChart() {
  const deals = state.data.deals;
  const box = document.getElementById("totals-chart");
  if (!deals.length) { box.textContent = "no finished deal"; return; }
  const n = state.data.match.players;
  // Room on the left for a label such as "-1200"; ticks at round values,
  // none closer than a label's height to another (they overlapped).
  const W = 360, H = 180, L = 52, R = 8, T = 10, B = 22;
  const all = deals.flatMap((d) => d.totals).concat([0]);
  const lo = Math.min(...all), hi = Math.max(...all, lo + 1);
  const x = (i) => L + (W - L - R) * (i / deals.length);
  const y = (v) => T + (H - T - B) * (1 - (v - lo) / (hi - lo));
  const colors = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e"];
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("class", "totals");
  const add = (tag, attrs, text) => {
    const e = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    if (text !== undefined) e.textContent = text;
    svg.appendChild(e);
    return e;
  };
  add("line", { x1: L, y1: y(0), x2: W - R, y2: y(0), class: "grid" });
  for (const v of ticks(lo, hi, (H - T - B) / 14)) add("text", { x: L - 4, y: y(v) + 4, "text-anchor": "end", class: "tick" }, String(v));
  add("text", { x: (L + W) / 2, y: H - 4, "text-anchor": "middle", class: "tick" }, `deals (${deals.length})`);
  for (let s = 0; s < n; s++) {
    const pts = [[0, 0], ...deals.map((d, i) => [i + 1, d.totals[s]])];
    add("polyline", { fill: "none", stroke: colors[s % 4], "stroke-width": 1.5, points: pts.map(([i, v]) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ") });
    for (const [i, v] of pts.slice(1)) {
      const c = add("circle", { cx: x(i).toFixed(1), cy: y(v).toFixed(1), r: 2.5, fill: colors[s % 4] });
      const title = document.createElementNS(ns, "title"); title.textContent = `seat ${s} after deal ${i}: ${v}`; c.appendChild(title);
    }
  }
  const legend = document.createElement("p");
  legend.className = "legend";
  legend.textContent = names().map((name, s) => `${["blue", "red", "green", "orange"][s]}: seat ${s} ${name}`).join(" · ");
  box.replaceChildren(svg, legend);
}

// The analysis of this view (`arena analyze DIR --bot NAME`, cached in the
// tournament's folder; web/analysis.py): the points each analysed seat lost,
// decision by decision, drawn under the table (a click goes to that
// decision's step), and each labelled decision marked in the hand record
// with the better action. A seat's view gets that seat's analysis only.
const analysis = { seats: [], byN: new Map() };
const LABEL_COLORS = { inaccuracy: "#c9a100", mistake: "#e07000", blunder: "#c00000" };

async function loadAnalysis(view) {
  analysis.seats = [];
  analysis.byN = new Map();
  const box = document.getElementById("analysis");
  const url = root.dataset.analysisUrl;
  if (url) {
    try {
      const response = await fetch(url.replace("{view}", encodeURIComponent(view)));
      if (response.ok) analysis.seats = (await response.json()).seats || [];
    } catch (err) {
      analysis.seats = [];
    }
  }
  for (const s of analysis.seats) for (const d of s.decisions) analysis.byN.set(d.n, { ...d, seat: s.seat });
  box.hidden = analysis.seats.length === 0;
  if (!box.hidden) drawAnalysis();
}

function flagNote(d) {
  const span = document.createElement("span");
  span.className = `flag ${d.label}`;
  span.textContent = ` ${d.label}: lost ${d.loss.toFixed(1)} ± ${d.se.toFixed(1)}, better ${d.best.replace(/^play /, "")}`;
  return span;
}

async function goToAction(n) {
  pause();
  await ensure(() => state.data.steps.some((s) => s.a && s.a.n >= n));
  const k = state.data.steps.findIndex((s) => s.a && s.a.n === n);
  if (k >= 0) show(k);
}

function drawAnalysis() {
  const W = 720, H = 170, L = 52, R = 8, T = 10, B = 22;
  const colors = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e"];
  const lines = analysis.seats.map((s) => {
    let lost = 0;
    return s.decisions.map((d) => { lost -= d.loss; return { d, y: lost }; });
  });
  const maxN = Math.max(1, ...analysis.seats.flatMap((s) => s.decisions.map((d) => d.n)));
  const lo = Math.min(-1, ...lines.flat().map((p) => p.y));
  const x = (n) => L + (W - L - R) * (n / maxN);
  const y = (v) => T + (H - T - B) * (v / lo);
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("class", "evalgraph");
  const add = (parent, tag, attrs, text) => {
    const e = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    if (text !== undefined) e.textContent = text;
    parent.appendChild(e);
    return e;
  };
  add(svg, "line", { x1: L, y1: y(0), x2: W - R, y2: y(0), class: "grid" });
  for (const v of ticks(lo, 0, (H - T - B) / 14)) add(svg, "text", { x: L - 4, y: y(v) + 4, "text-anchor": "end", class: "tick" }, String(v));
  add(svg, "text", { x: (L + W) / 2, y: H - 4, "text-anchor": "middle", class: "tick" }, "points lost so far, by decision (click: go to it)");
  analysis.seats.forEach((s, i) => {
    const color = colors[s.seat % 4];
    add(svg, "polyline", { fill: "none", stroke: color, "stroke-width": 1.5,
      points: [[0, 0], ...lines[i].map((p) => [p.d.n, p.y])].map(([n, v]) => `${x(n).toFixed(1)},${y(v).toFixed(1)}`).join(" ") });
    for (const p of lines[i]) {
      const c = add(svg, "circle", { cx: x(p.d.n).toFixed(1), cy: y(p.y).toFixed(1), r: p.d.label ? 5 : 2.5,
        fill: p.d.label ? LABEL_COLORS[p.d.label] : color, class: p.d.label ? `point flag-${p.d.label}` : "point", "data-n": p.d.n });
      add(c, "title", {}, `seat ${s.seat}, deal ${p.d.deal} ${p.d.phase}: ${p.d.taken}${p.d.label ? " — " + p.d.label : ""}, lost ${p.d.loss.toFixed(1)} ± ${p.d.se.toFixed(1)} (best ${p.d.best})`);
      c.addEventListener("click", () => goToAction(p.d.n));
    }
  });
  document.getElementById("analysis-graph").replaceChildren(svg);
  document.getElementById("analysis-legend").textContent = analysis.seats.map((s) => {
    const a = s.summary.all;
    const parts = ["bidding", "exchange", "contract", "play"].filter((p) => s.summary[p].decisions)
      .map((p) => `${p} ${s.summary[p].accuracy}%`).join(", ");
    return `seat ${s.seat} ${s.bot ? s.bot.name : ""}: accuracy ${a.accuracy}% (${parts}); ${a.blunder} blunders, ${a.mistake} mistakes, ${a.inaccuracy} inaccuracies; ${s.settings.policy} reference, ${s.settings.work} deals per decision`;
  }).join(" · ");
}

function drawResult() {
  const r = state.data.result;
  const box = document.getElementById("result");
  if (!r) { box.textContent = "no result: the match did not finish"; return; }
  const ul = document.createElement("ul");
  names().forEach((name, s) => {
    const li = document.createElement("li");
    const faults = r.faults && r.faults[s] ? Object.entries(r.faults[s]).filter(([, n]) => n).map(([k, n]) => `${k} ${n}`).join(", ") : "";
    li.textContent = `${r.places ? r.places[s] + "." : ""} seat ${s} ${name}: ${r.totals ? r.totals[s] : "?"} [${r.statuses ? r.statuses[s] : ""}]${faults ? " — faults: " + faults : ""}`;
    for (const line of (r.fault_log || [])[s] || []) { const d = document.createElement("div"); d.className = "fault"; d.textContent = line; li.appendChild(d); }
    ul.appendChild(li);
  });
  const reason = document.createElement("p");
  reason.textContent = `ended: ${r.reason}`;
  box.replaceChildren(ul, reason);
}

async function jumpToDeal(number) {
  pause();
  await ensure(() => state.views.some((v) => v.deal_number > number));
  const i = state.views.findIndex((v) => v.deal_number === number);
  if (i >= 0) show(i);
}

async function showEnd() {
  pause();
  await ensure(() => false);
  show(state.data.steps.length - 1);
}

function isTrickEnd(i) {
  const s = state.data.steps[i];
  return s && (s.t || s.r !== null);
}

async function move(kind, dir) {
  pause();
  if (dir > 0 && kind !== "action") {
    const d = state.views[state.step].deal_number;
    await ensure(() => state.views.some((v, k) => k > state.step && v.deal_number > d));
  }
  const last = state.data.steps.length - 1;
  let i = state.step;
  if (kind === "action") i += dir;
  else if (kind === "trick") {
    i += dir;
    while (i > 0 && i < last && !isTrickEnd(i)) i += dir;
  } else if (kind === "deal") {
    const d = state.views[state.step].deal_number;
    if (dir > 0) { while (i < last && state.views[i].deal_number === d) i++; }
    else {
      while (i > 0 && state.views[i - 1].deal_number === d) i--;
      if (i === state.step && i > 0) { const p = state.views[i - 1].deal_number; i--; while (i > 0 && state.views[i - 1].deal_number === p) i--; }
    }
  }
  show(i);
}

function pause() {
  if (state.timer) { clearInterval(state.timer); state.timer = null; }
  document.getElementById("b-play").textContent = "▶ play";
}

function play() {
  if (state.timer) { pause(); return; }
  const delay = Number(document.getElementById("speed").value);
  document.getElementById("b-play").textContent = "⏸ pause";
  state.timer = setInterval(() => {
    if (state.step >= state.data.steps.length - 1) {
      if (state.data.more === null || state.data.more === undefined) pause();
      return;  // the next part is on its way (show asked for it)
    }
    show(state.step + 1);
  }, delay);
}

// The step of the k-th faulty action of a seat (links from a bot's faults).
function faultStep(seat) {
  return state.data.steps.findIndex((s) => s.a && s.a.seat === seat && s.a.fault);
}

async function setView(view, step) {
  pause();
  const previous = state.data;
  const targetN = previous && state.views.length ? stepActionNumber(state.step) : null;
  state.view = view;
  document.getElementById("view").value = view;
  try {
    state.data = await load(view);
  } catch (err) {
    document.getElementById("table").textContent = `cannot load this view: ${err.message}`;
    return;
  }
  state.views = expand(state.data.steps);
  if (state.data.more === undefined) state.data.more = null;  // a short match: every step is here
  document.getElementById("slider").max = String(state.data.steps.length - 1);
  drawDeals();
  drawTotalsChart();
  drawResult();
  await loadAnalysis(view);
  // Keep the moment when switching views: the same recorded action (a seat's
  // view may skip another seat's declined private offers).
  let i = step;
  if (i !== undefined) await ensure(() => state.data.steps.length > i);
  if (i === undefined && targetN !== null) {
    await ensure(() => state.data.steps.some((s) => s.a && s.a.n >= targetN));
    i = 0;
    state.data.steps.forEach((s, k) => { if (s.a && s.a.n <= targetN) i = k; });
  }
  show(i || 0);
}

function stepActionNumber(i) {
  for (let k = i; k >= 0; k--) { const a = state.data.steps[k].a; if (a) return a.n; }
  return -1;
}

function bind() {
  const on = (id, fn) => document.getElementById(id).addEventListener("click", fn);
  document.getElementById("botseye-box").addEventListener("toggle", () => { botsEye.shown = null; drawBotsEye(); });
  on("b-start", () => { pause(); show(0); });
  on("b-end", () => { showEnd(); });
  on("b-back", () => move("action", -1));
  on("b-fwd", () => move("action", 1));
  on("b-trick-back", () => move("trick", -1));
  on("b-trick-fwd", () => move("trick", 1));
  on("b-deal-back", () => move("deal", -1));
  on("b-deal-fwd", () => move("deal", 1));
  on("b-play", play);
  document.getElementById("speed").addEventListener("change", () => { if (state.timer) { pause(); play(); } });
  document.getElementById("slider").addEventListener("input", (e) => { pause(); show(Number(e.target.value)); });
  document.getElementById("view").addEventListener("change", (e) => setView(e.target.value));
  document.addEventListener("keydown", (e) => {
    if (e.target && ["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName) && e.target.type !== "range") return;
    const kind = e.shiftKey ? "deal" : (e.ctrlKey || e.altKey ? "trick" : "action");
    if (e.key === "ArrowLeft") { move(kind, -1); e.preventDefault(); }
    else if (e.key === "ArrowRight") { move(kind, 1); e.preventDefault(); }
    else if (e.key === " ") { play(); e.preventDefault(); }
    else if (e.key === "Home") { pause(); show(0); }
    else if (e.key === "End") { showEnd(); }
    else if (e.key === "a") setView("all");
    else if (/^[0-9]$/.test(e.key) && Number(e.key) < Number(root.dataset.seats)) setView(e.key);
  });
}

bind();
const startStep = params.has("step") ? Number(params.get("step")) : undefined;
setView(state.view, startStep).then(async () => {
  if (params.has("n")) await goToAction(Number(params.get("n")));  // a decision (the bot page's links)
  if (params.has("fault")) {
    const seat = Number(params.get("fault"));
    await ensure(() => faultStep(seat) >= 0);
    const i = faultStep(Number(params.get("fault")));
    if (i >= 0) show(i);
  }
  root.dataset.ready = "1";
});
window.arenaPlayer = { show, setView, state, ensure, loadMore, analysis, botsEye };
