// The live game page: what every board shares. It renders the payload the page embeds, follows
// the game's Server-Sent Events (resuming with Last-Event-ID after a drop), ticks the clocks
// locally between messages, shows the public log (the whole game's, embedded in the page, then
// each commit's entries as they come; a gap is filled from the public-log API), posts moves
// with a client action id and the CSRF token, says refusals and log lines in the page's
// language from their codes (the server's sentences, embedded), and announces turns, moves
// and low time to screen readers (at most every 10 s).
// Each engine's board is its own module (games/<engine>.js) with this interface:
//   render(container, payload, ui)   draw the board and the seat's controls (ui.act posts)
//   word(key, value, payload, ui)    a log or refusal value in words (a card's name...), or
//                                    undefined for the shared wording (optional)
//   describe(previous, payload, ui)  what changed between two steps (the replay's caption)
//   toAct(payload) -> [seat, ...]    who may act now (optional; view.to_act otherwise)
//   tick(container, payload)         count its own timers down between messages (optional)
//   reserveFirst                     true when the reserve decides games (Death Matches)

import { withClientSeed } from "./client_seed.js";

const { gettext, ngettext, interpolate } = window;
const _ = (text) => (gettext ? gettext(text) : text);
const fmt = (text, params) => interpolate(text, params, true); // text already translated

const ANNOUNCE_EVERY_MS = 10_000;
const LOW_TIME_SECONDS = 10;
// The tab's title as the page came; a seated player's own turn marks it, so another tab shows it.
const PAGE_TITLE = document.title;
const SEAT_KEYS = new Set(["seat", "target", "dealer", "winner"]);
const KIND_SUFFIX = { computer: " (Computer)", substitute: " (Computer, substitute)" };

export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** A server sentence (a log line, a refusal) with its {placeholders} written in words: the
 * board's own words first (card names...), then seat names, lists and shared words. */
export function say(template, params, payload, board, wording, ui) {
  const word = (key, value) => {
    const own = board && board.word ? board.word(key, value, payload, ui) : undefined;
    if (own !== undefined) return own;
    if (SEAT_KEYS.has(key) && Number.isInteger(value)) return seatName(payload, value);
    if (key === "seats" && Array.isArray(value)) return value.map((n) => seatName(payload, n)).join(", ");
    if (Array.isArray(value)) return value.join(", ");
    if (typeof value === "string" && wording.words[value]) return wording.words[value];
    return String(value);
  };
  return template.replace(/\{(\w+)\}/g, (whole, key) => (key in params ? word(key, params[key]) : whole));
}

/** The plural form index of ``count`` in the page's language (the JavaScript catalogue's rule). */
export function pluralIndex(count) {
  return window.pluralidx ? Number(window.pluralidx(count)) : Number(count !== 1);
}

/** An event's sentence: a counted line in the form its count takes, else the plain line. */
function lineFor(event, wording) {
  const plural = wording.plurals && wording.plurals[event.line];
  if (plural && event[plural.key] !== undefined) {
    const value = event[plural.key];
    const count = Array.isArray(value) ? value.length : Number(value);
    const form = plural.forms[pluralIndex(count)];
    if (form) return form;
  }
  return wording.lines[event.line];
}

/** The lines of a public log entry, in the page's language. */
export function entryLines(entry, payload, board, wording, ui) {
  const lines = [];
  for (const event of entry.events || []) {
    const template = lineFor(event, wording);
    if (template) lines.push(say(template, event, payload, board, wording, ui));
  }
  return lines;
}

export function clockText(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  const minutes = Math.floor(whole / 60);
  return `${minutes}:${String(whole % 60).padStart(2, "0")}`;
}

/** A seat's name as people read it: computers labelled in the page's language. */
export function seatName(payload, number) {
  const seat = (payload.seats || []).find((s) => s.number === number);
  if (!seat) return fmt(_("Seat %(n)s"), { n: number + 1 });
  let name = seat.name;
  const suffix = KIND_SUFFIX[seat.kind];
  if (suffix && name.endsWith(suffix)) name = name.slice(0, -suffix.length);
  // A seat without a display name is "Seat N" in the server's English: said in the page's language.
  if (name === `Seat ${number + 1}`) name = fmt(_("Seat %(n)s"), { n: number + 1 });
  if (seat.kind === "computer") return fmt(_("%(name)s (Computer)"), { name });
  if (seat.kind === "substitute") return fmt(_("%(name)s (Computer, substitute)"), { name });
  return name;
}

function csrfToken(root) {
  const cookie = document.cookie.split("; ").find((c) => c.startsWith("csrftoken="));
  return cookie ? decodeURIComponent(cookie.split("=")[1]) : root.dataset.csrf;
}

function actionId() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}

// Refusals by the API's stable error codes (docs/api.md), in the page's language.
const REFUSALS = {
  stale_version: () => _("The game moved on before your move arrived: look again and choose."),
  conflict: () => _("That cannot be done at this moment of the game."),
  forbidden: () => _("You hold no seat in this game."),
  permission_denied: () => _("You may not do that: this seat or action is not yours."),
  not_authenticated: () => _("Please sign in first."),
  not_found: () => _("This game no longer exists."),
  throttled: () => _("Too many requests: wait a moment and try again."),
  invalid: () => _("The server could not read that move."),
  parse_error: () => _("The server could not read that move."),
};

class Game {
  constructor(root, board) {
    this.root = root;
    this.board = board;
    this.gameId = Number(root.dataset.game);
    this.container = root.querySelector("#board");
    this.payload = null;
    this.receivedAt = 0;
    this.wording = readJson(root.ownerDocument, "game-wording", { lines: {}, refusals: {}, words: {} });
    this.logSeq = 0;
    this.logFetching = false;
    this.lastAnnounce = 0;
    this.pendingAnnouncements = [];
    this.announceTimer = null;
    this.warnedLow = new Set();
    this.sending = false;
    this.ui = {
      act: (action) => this.act(action),
      seatName: (n) => seatName(this.payload, n),
      say: (template, params) => this.say(template, params),
      refusal: (code, params) => {
        const template = this.wording.refusals[code];
        return template ? this.say(template, params || {}) : _("The rules do not allow that move now.");
      },
      words: this.wording.words,
      el,
      _,
      toast: (text, kind) => this.toast(text, kind),
      announce: (text) => this.announce(text),
      busy: () => this.sending,
      redraw: () => this.board.render(this.container, this.payload, this.ui),
    };
  }

  start() {
    const embedded = this.root.ownerDocument.getElementById("game-state");
    this.payload = JSON.parse(embedded.textContent);
    this.renderLog(readJson(this.root.ownerDocument, "game-log", []));
    this.payload = null;
    this.update(JSON.parse(embedded.textContent), { initial: true });
    this.setUpLobby();
    if (!isOver(this.payload)) this.connect();
    this.ticker = setInterval(() => this.tick(), 250);
  }

  // -- the stream --------------------------------------------------------------------------
  connect() {
    const stream = new EventSource(this.root.dataset.stream);
    this.stream = stream;
    const banner = this.root.querySelector("#connection");
    stream.addEventListener("open", () => {
      banner.hidden = true;
    });
    stream.addEventListener("error", () => {
      if (stream.readyState === EventSource.CLOSED || isOver(this.payload)) return;
      banner.hidden = false; // EventSource retries by itself, sending Last-Event-ID
    });
    stream.addEventListener("state", (event) => {
      banner.hidden = true;
      const payload = JSON.parse(event.data);
      const reseated = this.payload && payload.seat !== this.payload.seat;
      this.update(payload);
      if (isOver(payload)) stream.close();
      if (reseated) window.location.reload(); // the session's seat changed (a claim elsewhere)
    });
  }

  // -- state -------------------------------------------------------------------------------
  // Each payload shown, for the page's other modules (seed_window.js).
  shown() {
    this.root.dispatchEvent(new CustomEvent("game-payload", { detail: this.payload }));
  }

  update(payload, { initial = false } = {}) {
    const previous = this.payload;
    if (previous && payload.status === previous.status) {
      if (payload.version < previous.version) return; // an older answer overtaken by the stream
      if (payload.version === previous.version && !initial) {
        // The same version again (the move's answer, then the stream): only the clocks move.
        this.payload = { ...previous, clocks: payload.clocks, seats: payload.seats };
        this.receivedAt = performance.now();
        this.renderClocks();
        this.shown();
        return;
      }
    }
    this.payload = payload;
    this.receivedAt = performance.now();
    this.root.dataset.version = payload.version;
    this.root.dataset.status = payload.status;
    if (previous) this.logChanges(previous, payload);
    this.mergeLog(payload);
    this.renderTurn();
    this.renderClocks();
    this.renderLobby();
    if (payload.view) {
      // A score that changed pops briefly (CSS, none under prefers-reduced-motion).
      const scores = new Map([...this.container.querySelectorAll("[data-score-key]")].map((n) => [n.dataset.scoreKey, n.textContent]));
      this.board.render(this.container, payload, this.ui);
      for (const node of this.container.querySelectorAll("[data-score-key]")) {
        const before = scores.get(node.dataset.scoreKey);
        if (before !== undefined && before !== node.textContent) node.classList.add("scored");
      }
    }
    this.renderEnd();
    this.shown();
    if (!initial) this.announceTurn(previous, payload);
  }

  toAct(payload) {
    if (!payload.view || payload.status !== "running") return [];
    if (this.board.toAct) return this.board.toAct(payload);
    return payload.view.to_act || [];
  }

  // -- moves -------------------------------------------------------------------------------
  async act(action) {
    if (this.sending) return false;
    this.sending = true;
    this.root.classList.add("sending");
    try {
      // In simultaneous steps another seat's choice moves the version on without changing
      // what this seat may do: only turn-based boards send the version they saw.
      const body = { action, client_action_id: actionId() };
      if (!this.board.simultaneous) body.expected_version = this.payload.version;
      const answer = await this.post(this.root.dataset.actions, body);
      if (answer.ok) {
        const data = await answer.json();
        if (data.state && data.state.version >= this.payload.version) this.update(data.state);
        return true;
      }
      await this.refused(answer);
      return false;
    } catch (error) {
      this.toast(_("Your move could not be sent: check your connection and try again."), "error");
      return false;
    } finally {
      this.sending = false;
      this.root.classList.remove("sending");
    }
  }

  post(url, body) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json",
        "X-CSRFToken": csrfToken(this.root),
      },
      body: JSON.stringify(body || {}),
    });
  }

  async refused(answer) {
    let data = {};
    try {
      data = await answer.json();
    } catch (error) {
      data = {};
    }
    const code = data.error || "";
    let text;
    if (code === "illegal_action") {
      // Said from the refusal's code and params in the page's language, never from the
      // English sentence the API also sends.
      const template = this.wording.refusals[data.refusal];
      text = template ? this.say(template, data.params || {}) : _("The rules do not allow that move now.");
    } else {
      text = REFUSALS[code] ? REFUSALS[code]() : _("The server refused that request.");
    }
    this.toast(text, "error");
  }

  // -- lobby: taking a seat, starting ------------------------------------------------------
  setUpLobby() {
    const start = this.root.querySelector("#start-game");
    start.addEventListener("click", async () => {
      start.disabled = true;
      const answer = await this.post(this.root.dataset.start, {});
      if (answer.ok) this.update(await answer.json());
      else await this.refused(answer);
      start.disabled = false;
    });
  }

  async claim(number) {
    const url = this.root.dataset.claim.replace(/\/seats\/0\/claim$/, `/seats/${number}/claim`);
    const invite = this.root.dataset.invite;
    const answer = await this.post(url, withClientSeed(invite ? { invite } : {}));
    if (answer.ok) {
      window.location.replace(this.root.dataset.page);
      return;
    }
    await this.refused(answer);
  }

  renderLobby() {
    const lobby = this.root.querySelector("#lobby");
    const payload = this.payload;
    lobby.hidden = payload.status !== "waiting";
    if (lobby.hidden) return;
    const mayClaim = this.root.dataset.mayClaim === "1" && payload.seat === null;
    const list = lobby.querySelector("#lobby-seats");
    list.replaceChildren(
      ...payload.seats.map((seat) => {
        const name = seatName(payload, seat.number);
        const taken = seat.claimed;
        const label = taken
          ? fmt(_("%(name)s: taken"), { name })
          : fmt(_("Seat %(n)s: free"), { n: seat.number + 1 });
        const item = el("li", { class: taken ? "taken" : "free" }, label);
        if (!taken && mayClaim && seat.kind === "human") {
          const take = fmt(_("Take seat %(n)s"), { n: seat.number + 1 });
          item.append(" ", el("button", { type: "button", onclick: () => this.claim(seat.number) }, take));
        }
        return item;
      }),
    );
    const free = payload.seats.filter((s) => !s.claimed).length;
    const note = lobby.querySelector("#lobby-note");
    note.textContent = free
      ? interpolate(ngettext("%(n)s seat is still free.", "%(n)s seats are still free.", free), { n: free }, true)
      : _("Every seat is taken.");
    const start = lobby.querySelector("#start-game");
    start.hidden = !(this.root.dataset.mayStart === "1" && free === 0);
  }

  // -- turn, clocks, end -------------------------------------------------------------------
  renderTurn() {
    const payload = this.payload;
    const turn = this.root.querySelector("#turn");
    const myTurn = payload.seat !== null && this.toAct(payload).includes(payload.seat);
    document.title = myTurn ? fmt(_("(●) Your turn — %(title)s"), { title: PAGE_TITLE }) : PAGE_TITLE;
    if (payload.status === "waiting") {
      turn.textContent = _("The game has not started yet.");
      return;
    }
    if (isOver(payload)) {
      turn.textContent = payload.status === "aborted" ? _("The game was aborted.") : _("The game is over.");
      return;
    }
    const acting = this.toAct(payload);
    const mine = payload.seat !== null && acting.includes(payload.seat);
    const names = acting.map((n) => (n === payload.seat ? _("you") : seatName(payload, n)));
    turn.classList.toggle("mine", mine);
    if (!names.length) turn.textContent = _("Resolving…");
    else if (acting.length > 1) turn.textContent = fmt(_("Acting at the same time: %(names)s"), { names: names.join(", ") });
    else if (mine) turn.textContent = _("Your turn.");
    else turn.textContent = fmt(_("%(name)s to act."), { name: names[0] });
  }

  renderClocks() {
    const payload = this.payload;
    const list = this.root.querySelector("#clocks");
    const clocks = payload.clocks || {};
    list.classList.toggle("reserve-first", Boolean(this.board.reserveFirst));
    list.replaceChildren(
      ...payload.seats.map((seat) => {
        const clock = clocks[String(seat.number)];
        const mine = seat.number === payload.seat;
        const item = el("li", { class: `clock${mine ? " mine" : ""}`, "data-seat": seat.number });
        const who = el("span", { class: "clock-name" }, seatName(payload, seat.number));
        if (seat.role) who.append(" ", el("span", { class: "badge" }, seat.role));
        if (seat.away && seat.claimed && payload.status === "running") {
          who.append(" ", el("span", { class: "badge warn" }, _("away")));
        }
        item.append(who);
        if (clock) {
          item.append(el("span", { class: "allowance" }, el("span", { class: "label" }, _("Move")), " ", el("span", { class: "time", "data-part": "allowance" })));
          // A time control without a reserve (most casual games) shows the move timer alone.
          const reserve = el("span", { class: "reserve" }, el("span", { class: "label" }, _("Reserve")), " ", el("span", { class: "time", "data-part": "reserve" }));
          if (!(payload.time_control && payload.time_control.reserve > 0)) reserve.hidden = true;
          item.append(reserve);
        }
        return item;
      }),
    );
    this.tick();
  }

  /** Local ticking between messages; every message corrects it (the server is the clock). */
  tick() {
    const payload = this.payload;
    if (!payload || !payload.clocks) return;
    if (this.board.tick) this.board.tick(this.container, payload);
    const elapsed = payload.status === "running" ? (performance.now() - this.receivedAt) / 1000 : 0;
    for (const item of this.root.querySelectorAll("#clocks .clock")) {
      const clock = payload.clocks[item.dataset.seat];
      if (!clock) continue;
      let allowance = clock.allowance;
      let reserve = clock.reserve;
      if (clock.running && allowance !== null) {
        const over = Math.max(0, elapsed - allowance);
        allowance = Math.max(0, allowance - elapsed);
        reserve = Math.max(0, reserve - over);
      }
      const left = (allowance || 0) + reserve;
      item.classList.toggle("running", Boolean(clock.running));
      item.classList.toggle("draining", Boolean(clock.running) && allowance === 0);
      item.classList.toggle("low", Boolean(clock.running) && left <= LOW_TIME_SECONDS);
      item.querySelector('[data-part="allowance"]').textContent = clock.running && allowance !== null ? clockText(allowance) : "–";
      item.querySelector('[data-part="reserve"]').textContent = clockText(reserve);
      const seat = Number(item.dataset.seat);
      if (clock.running && seat === payload.seat && left <= LOW_TIME_SECONDS) {
        const key = `${payload.version}`;
        if (!this.warnedLow.has(key)) {
          this.warnedLow.add(key);
          this.announce(_("Less than 10 seconds left."));
        }
      }
    }
  }

  renderEnd() {
    const payload = this.payload;
    const end = this.root.querySelector("#end");
    end.hidden = !isOver(payload) || !payload.outcome;
    if (end.hidden) return;
    const outcome = payload.outcome;
    const winners = (outcome.winners || []).map((n) => (n === payload.seat ? _("You") : seatName(payload, n)));
    let text;
    if (payload.seat !== null && (outcome.winners || []).includes(payload.seat)) text = _("You won!");
    else if (!winners.length) text = _("Nobody won.");
    else text = fmt(_("Winner: %(names)s."), { names: winners.join(", ") });
    end.classList.toggle("won", payload.seat !== null && (outcome.winners || []).includes(payload.seat));
    end.querySelector("#end-outcome").textContent = text;
    // What decided it: the board's words for the outcome's reason (a tie-break, a target...).
    const reason = this.board.endReason ? this.board.endReason(payload, this.ui) : "";
    const because = end.querySelector("#end-reason");
    because.textContent = reason;
    because.hidden = !reason;
    // Placings, best first; a shared place lists every seat in it.
    const scores = outcome.scores || {};
    const ranking = outcome.ranking && outcome.ranking.length ? outcome.ranking : [Object.keys(scores).map(Number)];
    end.querySelector("#end-placings").replaceChildren(
      ...ranking.flatMap((place, index) => place.map((seat) =>
        el("li", { class: `placing${index === 0 ? " first" : ""}${seat === payload.seat ? " mine" : ""}` },
          el("span", { class: "placing-place" }, fmt(_("Place %(n)s"), { n: index + 1 })),
          el("span", { class: "placing-name" }, seat === payload.seat ? fmt(_("%(name)s (you)"), { name: seatName(payload, seat) }) : seatName(payload, seat)),
          el("span", { class: "placing-score" }, scoreText(scores[String(seat)]))))),
    );
    end.querySelector("#end-seed").textContent = payload.seed || "";
  }

  // -- log ---------------------------------------------------------------------------------
  say(template, params) {
    return say(template, params, this.payload, this.board, this.wording, this.ui);
  }

  entryLines(entry) {
    return entryLines(entry, this.payload, this.board, this.wording, this.ui);
  }

  renderLog(entries) {
    const log = this.root.querySelector("#log");
    log.replaceChildren();
    this.logSeq = 0;
    this.addEntries(entries);
    if (!log.children.length) log.append(el("li", { class: "muted", "data-empty": "" }, _("Moves appear here as they happen.")));
  }

  /** Newest first; returns the new lines. */
  addEntries(entries) {
    const log = this.root.querySelector("#log");
    const added = [];
    for (const entry of entries) {
      if (entry.seq <= this.logSeq) continue;
      this.logSeq = entry.seq;
      for (const line of this.entryLines(entry)) {
        added.push(line);
        log.prepend(el("li", { "data-seq": entry.seq }, line));
      }
    }
    if (added.length) log.querySelector("[data-empty]")?.remove();
    return added;
  }

  /** A commit's entries from the stream; a gap (a dropped stream, a first message) is filled
   * from the public log, so the page always shows every move from the start. */
  mergeLog(payload) {
    const fresh = (payload.log || []).filter((entry) => entry.seq > this.logSeq);
    if (fresh.length && fresh[0].seq === this.logSeq + 1) {
      const lines = this.addEntries(fresh);
      if (lines.length) this.announce(lines.slice(-2).join(" "));
    }
    if (payload.version > this.logSeq) this.fetchLog();
  }

  async fetchLog() {
    if (this.logFetching) return;
    this.logFetching = true;
    try {
      const answer = await fetch(this.root.querySelector("#log").dataset.publicLog, { credentials: "same-origin", headers: { Accept: "application/json" } });
      if (answer.ok) {
        const data = await answer.json();
        const lines = this.addEntries(data.log);
        if (lines.length) this.announce(lines.slice(-2).join(" "));
      }
    } catch (error) {
      /* offline: the next message tries again */
    } finally {
      this.logFetching = false;
    }
  }

  /** What the host changes besides the moves: said locally, with the next entries. */
  logChanges(previous, payload) {
    const lines = [];
    if (previous.status === "waiting" && payload.status === "running") lines.push(_("The game has started."));
    for (const seat of payload.seats) {
      const before = previous.seats.find((s) => s.number === seat.number);
      // Said here only when the engine logged nothing of it (no new version): Color Clash's
      // own log line says it otherwise, and the line would read twice.
      const unlogged = payload.version === previous.version;
      if (before && before.kind === "human" && seat.kind === "substitute" && unlogged) {
        lines.push(fmt(_("%(name)s is now played by a computer substitute."), { name: seatName(payload, seat.number) }));
      }
    }
    if (!lines.length) return;
    const log = this.root.querySelector("#log");
    log.querySelector("[data-empty]")?.remove();
    for (const line of lines) log.prepend(el("li", { class: "host-line" }, line));
    this.announce(lines.join(" "));
  }

  // -- announcements and toasts ------------------------------------------------------------
  announceTurn(previous, payload) {
    if (payload.seat === null || !previous) return;
    const was = this.toAct(previous).includes(payload.seat);
    const now = this.toAct(payload).includes(payload.seat);
    if (now && (!was || previous.version !== payload.version)) this.announce(_("Your turn."));
  }

  /** Polite announcements, at most one every 10 s: later ones wait and are read together. */
  announce(text) {
    if (!text) return;
    this.pendingAnnouncements.push(text);
    const wait = this.lastAnnounce + ANNOUNCE_EVERY_MS - Date.now();
    if (wait <= 0) this.flushAnnouncements();
    else if (!this.announceTimer) this.announceTimer = setTimeout(() => this.flushAnnouncements(), wait);
  }

  flushAnnouncements() {
    this.announceTimer = null;
    if (!this.pendingAnnouncements.length) return;
    const texts = [...new Set(this.pendingAnnouncements)].slice(-3);
    this.pendingAnnouncements = [];
    this.lastAnnounce = Date.now();
    this.root.querySelector("#announcer").textContent = texts.join(" ");
  }

  toast(text, kind = "info") {
    const box = this.root.querySelector("#toasts");
    const toast = el("div", { class: `toast ${kind}` }, text);
    box.append(toast);
    setTimeout(() => toast.remove(), 6000);
  }
}

export function readJson(doc, id, fallback) {
  const node = doc.getElementById(id);
  return node ? JSON.parse(node.textContent) : fallback;
}

function scoreText(score) {
  if (score === undefined || score === null) return "";
  return interpolate(ngettext("%(n)s point", "%(n)s points", score), { n: score }, true);
}

function isOver(payload) {
  return payload.status === "finished" || payload.status === "aborted";
}

// A board for engines without a module of their own: the view's public numbers and the
// server's legal actions as buttons.
const genericBoard = {
  render(container, payload, ui) {
    const actions = payload.legal || [];
    container.replaceChildren(
      el("div", { class: "panel" },
        el("h2", {}, ui._("Your choices")),
        actions.length
          ? el("ul", { class: "choices" }, actions.map((action) =>
              el("li", {}, el("button", { type: "button", onclick: () => ui.act(action) }, describeAction(action)))))
          : el("p", { class: "muted" }, ui._("Nothing to choose right now."))),
    );
  },
  describe() {
    return [];
  },
};

function describeAction(action) {
  return Object.entries(action).map(([key, value]) => (key === "type" ? value : `${key}: ${value}`)).join(" · ");
}

async function boot() {
  const root = document.getElementById("game");
  if (!root) return;
  let board = genericBoard;
  if (root.dataset.engineModule) board = (await import(root.dataset.engineModule)).default;
  const game = new Game(root, board);
  game.start();
}

boot();
