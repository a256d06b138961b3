// A lobby game watched live (arena/web/lobby/watch.py): each frame is the
// engine's public view of the table, drawn by the replay player's own
// table code. Nothing here knows a hidden card: the server never sends one.

import { drawTable } from "/static/table.js";

const page = document.getElementById("watch-page");
const table = document.getElementById("table");
const status = document.getElementById("status");
const over = document.getElementById("over");
let names = JSON.parse(page.dataset.names || "[]");  // as the page was served; each frame's win
const source = new EventSource(page.dataset.stream);

function draw(frame) {
  const view = frame.view;
  if (frame.names && frame.names.length) names = frame.names;
  const tricks = view.tricks || [];
  // Between tricks, the last trick taken stays in the middle (it is public).
  const last = !(view.trick || []).length && tricks.length ? tricks[tricks.length - 1] : null;
  const drawn = drawTable(table, view, { names, bottom: 0, completedTrick: last });
  drawn.setAttribute("data-frame", String(frame.n));
  const who = view.to_act === null || view.to_act === undefined ? "" : ` · ${names[view.to_act] || "seat " + view.to_act} to act`;
  status.textContent = `deal ${view.deal_number}${who}`;
}

function link(href, text, id) {
  const a = document.createElement("a");
  a.href = href;
  a.id = id;
  a.textContent = text;
  return a;
}

function finish(frame) {
  source.close();  // the stream ends here: no reconnecting
  page.setAttribute("data-over", frame.status);
  status.textContent = frame.status === "finished" ? "the game is over" : `the game ${frame.status}${frame.error ? ": " + frame.error : ""}`;
  const p = document.createElement("p");
  if (frame.player) {
    p.append(link(frame.player, "every card, in the replay player", "player"), " · ");
  }
  if (frame.replay) p.append(link(frame.replay, "the replay file", "replay"), " · ");
  p.append(link(frame.page, "the game's page: result and seats", "game-page"));
  over.replaceChildren(p);
  over.hidden = false;
}

source.onmessage = (event) => {
  const frame = JSON.parse(event.data);
  if (frame.type === "view") draw(frame);
  else if (frame.type === "over") finish(frame);
  else if (frame.type === "closed") {
    source.close();
    page.setAttribute("data-over", "closed");
    status.textContent = "the server was stopped: the game's page says how the game ended";
  }
};
source.onerror = () => {
  if (page.getAttribute("data-over") === null) status.textContent = "connection lost; trying again…";
};
