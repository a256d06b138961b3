// The tournament page's live part: on every `update` event of the server's
// event stream (live.py), fetch the freshly rendered part and swap it in.
const box = document.getElementById("live");
if (box && box.dataset.events && window.EventSource) {
  const source = new EventSource(box.dataset.events);
  let busy = false;
  // The server stops (its streams end): no reconnecting to it every 2 s.
  source.addEventListener("closed", () => source.close());
  source.addEventListener("update", async () => {
    if (busy) return;
    busy = true;
    try {
      const response = await fetch(box.dataset.live, { cache: "no-store" });
      if (response.ok) {
        box.innerHTML = await response.text();
        box.dataset.updates = String(Number(box.dataset.updates || "0") + 1);
      }
    } finally {
      busy = false;
    }
  });
}
