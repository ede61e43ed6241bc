// On a room's game page (the hooks of games/templatetags/room_links.py):
// - the "Leave the game" button goes once the game is over (the board's end panel shows);
// - a seat whose person dropped out is marked "reconnecting…" while its 90 s run. A closed
//   stream makes no new version of the game, so the board would only learn of it at the next
//   move: the room's presence is polled instead, and the mark put back after each redraw.
const POLL_MS = 2000;
const leave = document.querySelector(".room-leave");
const end = document.getElementById("end");
const presence = document.getElementById("room-presence");
const clocks = document.getElementById("clocks");
let away = [];

const over = () => Boolean(end && !end.hidden);

function mark() {
  if (!clocks || !presence) return;
  for (const item of clocks.querySelectorAll("li[data-seat]")) {
    const shown = item.querySelector(".room-reconnecting");
    const wanted = !over() && away.includes(Number(item.dataset.seat));
    if (wanted && !shown) {
      const badge = document.createElement("span");
      badge.className = "badge warn room-reconnecting";
      badge.textContent = presence.dataset.label;
      const name = item.querySelector(".clock-name") || item;
      name.append(" ", badge);
    } else if (!wanted && shown) {
      shown.remove();
    }
  }
}

async function poll() {
  if (over()) return;
  try {
    const response = await fetch(presence.dataset.url, { headers: { Accept: "application/json" } });
    if (response.ok) {
      away = (await response.json()).reconnecting || [];
      mark();
    }
  } catch {
    // offline for a moment: the next poll tries again
  }
  window.setTimeout(poll, POLL_MS);
}

if (leave && end) {
  const update = () => {
    leave.hidden = over();
    mark();
  };
  new MutationObserver(update).observe(end, { attributes: true, attributeFilter: ["hidden"] });
  update();
}
if (presence && clocks) {
  new MutationObserver(mark).observe(clocks, { childList: true });
  poll();
}
