// A tournament game's seed window (games/services.py game_open_seed_window): the deal waits
// for every player's client seed until a time the server fixed. On opening the page a player
// who holds a seat sends their seed at once; everyone sees when the game starts at the latest,
// and a countdown. The start itself comes over the live stream (games/game.js dispatches each
// payload it shows as a "game-payload" event), which hides the panel.

import { clientSeed } from "./client_seed.js";

const { gettext: _, interpolate } = window;

function fmt(text, values) {
  return interpolate(text, values, true);
}

function mySeat(payload) {
  return payload.seat === null ? null : payload.seats.find((s) => s.number === payload.seat);
}

function people(payload) {
  return payload.seats.filter((s) => s.kind === "human").length;
}

class SeedWindow {
  constructor(root, panel) {
    this.root = root;
    this.panel = panel;
    this.payload = null;
    this.sent = false;
  }

  show(payload) {
    this.payload = payload;
    const open = payload.status === "waiting" && typeof payload.seed_window_ends === "number";
    this.panel.hidden = !open;
    if (!open) {
      clearInterval(this.ticker);
      this.ticker = null;
      return;
    }
    const ends = new Date(payload.seed_window_ends * 1000);
    const time = ends.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false });
    const text = people(payload) === 2
      ? _("Waiting for both players: the game starts when both are here, or at %(time)s at the latest.")
      : _("Waiting for every player: the game starts when all are here, or at %(time)s at the latest.");
    this.panel.querySelector("#seed-window-text").textContent = fmt(text, { time });
    this.panel.querySelector("#seed-window-end").dateTime = ends.toISOString();
    const seat = mySeat(payload);
    const note = this.panel.querySelector("#seed-window-you");
    note.hidden = !seat;
    if (seat && seat.client_seed) note.textContent = _("Your part of the shuffle is sent: you are here.");
    if (seat && !seat.client_seed && !this.sent) this.send();
    this.tick();
    if (!this.ticker) this.ticker = setInterval(() => this.tick(), 250);
  }

  tick() {
    const left = Math.max(0, Math.ceil(this.payload.seed_window_ends - Date.now() / 1000));
    this.panel.querySelector("#seed-window-end").textContent = left
      ? fmt(_("Starts in %(seconds)s s"), { seconds: left })
      : _("Starting…");
  }

  // The seat's client seed: the server keeps it and deals once every player's has come.
  async send() {
    this.sent = true;
    const note = this.panel.querySelector("#seed-window-you");
    note.textContent = _("Sending your part of the shuffle…");
    const answer = await fetch(this.root.dataset.clientSeed, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRFToken": this.root.dataset.csrf },
      credentials: "same-origin",
      body: JSON.stringify({ client_seed: clientSeed() }),
    });
    if (answer.ok) {
      // The last seed awaited deals: the live stream brings the started game.
      note.textContent = _("Your part of the shuffle is sent: you are here.");
      return;
    }
    // 409 deal_fixed: the window ended first. The stream brings the started game.
    const body = await answer.json().catch(() => ({}));
    note.textContent = body.detail || _("Your part of the shuffle could not be sent.");
  }
}

function boot() {
  const root = document.getElementById("game");
  const panel = document.getElementById("seed-window");
  if (!root || !panel) return;
  const seedWindow = new SeedWindow(root, panel);
  seedWindow.show(JSON.parse(document.getElementById("game-state").textContent));
  root.addEventListener("game-payload", (event) => seedWindow.show(event.detail));
}

boot();
