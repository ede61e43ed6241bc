// The replay page: step through a finished game (first, previous, next, last, a slider and the
// arrow keys), drawing each step with the engine's own board, every seat's hidden cards and
// the clocks as they stood after that step; each step's caption is its public log entry, in
// the page's language.
import { clockText, el, entryLines, readJson, seatName } from "./game.js";

const { gettext, interpolate } = window;
const _ = (text) => gettext(text);
const fmt = (text, params) => interpolate(text, params, true); // text already translated

async function boot() {
  const root = document.getElementById("replay");
  if (!root) return;
  const data = JSON.parse(document.getElementById("replay-data").textContent);
  const wording = readJson(document, "game-wording", { lines: {}, refusals: {}, words: {} });
  const board = root.dataset.engineModule ? (await import(root.dataset.engineModule)).default : null;
  const last = data.steps.length - 1;
  const slider = root.querySelector("#replay-step");
  const container = root.querySelector("#board");
  let current = 0;
  const seats = data.seats.map((s) => ({ ...s, claimed: true, connected: true }));
  // A time control without a reserve (most casual games) has nothing to show under "Reserve".
  const hasReserve = data.steps.some((step) => Object.values(step.clocks || {}).some((clock) => clock && clock.reserve > 0));

  const payloadAt = (index) => ({
    status: index === last ? "finished" : "running",
    version: index,
    seat: null,
    seats,
    view: data.steps[index].view,
    legal: [],
  });
  const ui = {
    act: async () => false,
    seatName: (n) => seatName({ seats }, n),
    el,
    _,
    toast: () => {},
    announce: () => {},
    busy: () => false,
    redraw: () => show(current),
    refusal: () => "",
  };

  function describeStep(index) {
    if (index === 0) return _("The deal, before any move.");
    const step = data.steps[index];
    const logged = step.log ? entryLines(step.log, payloadAt(index), board, wording, ui) : [];
    if (logged.length) return logged.join(" ");
    const lines = board ? board.describe(payloadAt(index - 1), payloadAt(index), ui) : [];
    if (lines.length) return lines.join(" ");
    const action = step.action || {};
    if (action.type === "timeout") return _("The server applied a timeout: a clock ran out.");
    if (action.type === "window_closed") return _("The server closed a timed window.");
    if (step.seat !== null) return fmt(_("%(name)s made a choice."), { name: ui.seatName(step.seat) });
    return _("The server applied an action.");
  }

  function show(index) {
    current = Math.max(0, Math.min(last, index));
    slider.value = String(current);
    const step = data.steps[current];
    if (board) board.render(container, payloadAt(current), ui);
    root.querySelector("#replay-position").textContent = `${fmt(_("Step %(n)s of %(total)s"), { n: current, total: last })}: ${describeStep(current)}`;
    root.querySelector("#replay-clocks").replaceChildren(
      ...seats.map((seat) => {
        const clock = step.clocks[String(seat.number)];
        return el("li", { class: `clock${clock && clock.owes ? " running" : ""}` },
          el("span", { class: "clock-name" }, ui.seatName(seat.number)),
          hasReserve ? el("span", { class: "reserve" }, el("span", { class: "label" }, _("Reserve")), " ", el("span", { class: "time" }, clock ? clockText(clock.reserve) : "–")) : null,
          clock && clock.owes ? el("span", { class: "badge" }, _("to act")) : null);
      }),
    );
    root.querySelector("#replay-hands-body").replaceChildren(
      ...seats.map((seat) => {
        const own = step.own[String(seat.number)] || {};
        return el("div", { class: "replay-hand", "data-seat": seat.number },
          el("h3", {}, ui.seatName(seat.number)),
          board && board.hidden ? board.hidden(own, ui) : el("pre", {}, JSON.stringify(own, null, 1)));
      }),
    );
    for (const button of root.querySelectorAll("[data-go]")) {
      const go = button.dataset.go;
      button.disabled = (go === "first" || go === "previous") ? current === 0 : current === last;
    }
  }

  const moves = { first: () => 0, previous: () => current - 1, next: () => current + 1, last: () => last };
  for (const button of root.querySelectorAll("[data-go]")) {
    button.addEventListener("click", () => show(moves[button.dataset.go]()));
  }
  slider.addEventListener("input", () => show(Number(slider.value)));
  document.addEventListener("keydown", (event) => {
    if (event.target === slider || ["INPUT", "SELECT", "TEXTAREA"].includes(event.target.tagName)) return;
    const go = { ArrowLeft: "previous", ArrowRight: "next", Home: "first", End: "last" }[event.key];
    if (!go || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    show(moves[go]());
  });
  show(0);
}

boot();
