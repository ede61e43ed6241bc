// Tournament pages: the board follows the tournament's live stream, copy buttons, countdowns.
// The stream only says "changed"; the board is then fetched as this viewer may see it.
import { startCountdowns } from "./countdown.js";

const board = document.getElementById("board");

function scrollers(root) {
  return [...root.querySelectorAll(".bracket-scroll, .table-scroll")];
}

// The entrants list beside the board (registrations, check-ins, withdrawals) follows too.
async function refreshEntrants() {
  const list = document.getElementById("t-entrants");
  if (!list || !list.dataset.entrantsUrl) return;
  const response = await fetch(list.dataset.entrantsUrl, { credentials: "same-origin" });
  if (!response.ok) return;
  const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
  const replacement = fresh.getElementById("t-entrants");
  if (replacement) document.getElementById("t-entrants").replaceWith(replacement);
}

// A player's own match card (where players report their results) follows too: the opponent's
// report or confirmation shows without a reload. Never within a few seconds of the player's
// own answer, which stays readable beside the button pressed; it is refreshed after that.
const QUIET_AFTER_ACTING_MS = 4000;
let actedAt = 0;
let myCardTimer = null;
document.body.addEventListener("htmx:afterSettle", () => {
  actedAt = Date.now();
});

async function refreshMyCard() {
  if (!document.getElementById("report-form")) return;
  const wait = actedAt + QUIET_AFTER_ACTING_MS - Date.now();
  if (wait > 0) {
    clearTimeout(myCardTimer);
    myCardTimer = setTimeout(refreshMyCard, wait);
    return;
  }
  const response = await fetch(window.location.href, { credentials: "same-origin" });
  if (!response.ok) return;
  const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
  const panel = fresh.querySelector(".player-panel");
  const current = document.querySelector(".player-panel");
  if (panel && current) current.replaceWith(panel);
}

function follow(element) {
  let fetching = false;
  let again = false;
  let refreshes = 0;

  async function refresh() {
    if (fetching) {
      again = true;
      return;
    }
    fetching = true;
    try {
      const response = await fetch(element.dataset.boardUrl, { credentials: "same-origin" });
      if (response.ok) {
        const html = await response.text();
        const offsets = scrollers(element).map((e) => [e.scrollLeft, e.scrollTop]);
        element.innerHTML = html;
        scrollers(element).forEach((e, i) => {
          if (offsets[i]) [e.scrollLeft, e.scrollTop] = offsets[i];
        });
        refreshes += 1;
        element.dataset.refreshes = String(refreshes);
        const status = document.getElementById("board-status");
        if (status) status.textContent = `${status.dataset.updated} (${refreshes})`;
        element.dispatchEvent(new CustomEvent("board:updated", { bubbles: true }));
      }
      await refreshEntrants();
      await refreshMyCard();
    } catch {
      // A failed fetch is retried at the next change or reconnect.
    } finally {
      fetching = false;
      if (again) {
        again = false;
        refresh();
      }
    }
  }

  const source = new EventSource(element.dataset.liveUrl);
  let greeted = false;
  // "hello" opens every connection: after a reconnect, fetch what was missed meanwhile.
  source.addEventListener("hello", () => {
    if (greeted) refresh();
    greeted = true;
    element.dataset.live = "connected";
  });
  source.addEventListener("changed", refresh);
  source.addEventListener("error", () => {
    element.dataset.live = "reconnecting";
  });
}

if (board && board.dataset.liveUrl && "EventSource" in window) follow(board);

for (const button of document.querySelectorAll("[data-copy]")) {
  button.addEventListener("click", async () => {
    const field = document.getElementById(button.dataset.copy);
    field.select();
    try {
      await navigator.clipboard.writeText(field.value);
    } catch {
      document.execCommand("copy");
    }
    const label = button.textContent;
    button.textContent = button.dataset.copied;
    setTimeout(() => (button.textContent = label), 2000);
  });
}

startCountdowns(document);
