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

if (root) window.setTimeout(loop, POLL_MS);
