// The room's lobby keeps itself current: it fetches its own fragment every POLL_MS and swaps
// it in, and goes to the table once the game has started. (Polling: a lobby changes a few
// times a minute, and a plain GET needs nothing beyond the server's own page.)
const POLL_MS = 1500;
const root = document.getElementById("room");

async function refresh() {
  const response = await fetch(root.dataset.lobby, { headers: { Accept: "text/html" } });
  if (response.status === 204) {
    window.location.reload(); // no longer a member: the page says why
    return;
  }
  if (!response.ok) return;
  const holder = document.createElement("div");
  holder.innerHTML = await response.text();
  const lobby = holder.querySelector("#lobby");
  if (!lobby) return;
  if (lobby.dataset.gameUrl && lobby.dataset.status === "playing") {
    window.location.assign(lobby.dataset.gameUrl);
    return;
  }
  const current = document.getElementById("lobby");
  // Keep the focused control focused: only swap when nothing is being typed or chosen.
  if (current && !current.contains(document.activeElement)) current.replaceWith(lobby);
  else if (current) current.querySelector("#members").replaceWith(lobby.querySelector("#members"));
}

async function loop() {
  try {
    await refresh();
  } catch {
    // offline for a moment: the next poll tries again
  }
  window.setTimeout(loop, POLL_MS);
}

// "Copy link": the share link to the clipboard (the button shows only where the browser can).
// Delegated from the root, since each poll may swap the lobby (and its button) for a new one.
if (root && navigator.clipboard) {
  const reveal = () => {
    const button = document.getElementById("copy-link");
    if (button) button.hidden = false;
  };
  reveal();
  new MutationObserver(reveal).observe(root, { childList: true, subtree: true });
  root.addEventListener("click", async (event) => {
    const button = event.target.closest("#copy-link");
    if (!button) return;
    const status = document.getElementById("copy-status");
    try {
      await navigator.clipboard.writeText(document.getElementById("share-url").value);
      status.textContent = button.dataset.copied;
    } catch {
      status.textContent = button.dataset.failed;
    }
  });
}

if (root) window.setTimeout(loop, POLL_MS);
