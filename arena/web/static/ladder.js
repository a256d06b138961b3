// The ladder's pages: the live table refreshes itself, the upload form
// posts the archive itself (the CSRF token in a header: no multipart).
const live = document.getElementById("live");
if (live) {
  setInterval(async () => {
    try {
      const response = await fetch(live.dataset.url, { cache: "no-store" });
      if (response.ok) live.innerHTML = await response.text();
    } catch (_) { /* the server is away for a moment: try again later */ }
  }, 5000);
}

const form = document.getElementById("upload");
if (form) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const file = document.getElementById("archive").files[0];
    const shown = document.getElementById("upload-error");
    shown.hidden = true;
    if (!file) return;
    const response = await fetch("/ladder/upload", {
      method: "POST", body: file, credentials: "same-origin",
      headers: { "X-CSRF-Token": form.dataset.csrf, "Content-Type": "application/octet-stream" },
    });
    if (response.status === 201) {
      const made = await response.json();
      window.location.assign(made.url);
      return;
    }
    const page = await response.text();
    const found = new DOMParser().parseFromString(page, "text/html").getElementById("error-message");
    shown.textContent = `${response.status}: ${found ? found.textContent : page}`;
    shown.hidden = false;
  });
}
