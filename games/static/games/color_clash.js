// Color Clash board: the top card and the colour in force, every seat's card count, places
// and "Last card!" calls, the seat's hand with the plays the server allows, draw then play or
// pass, the colour picker after a Wild, the "Last card!" toggle and the Catch button with the
// 3-second window. Cards show their colour as a word and a shape, and their symbol as text.

const { gettext, ngettext, interpolate } = window;
const _ = (text) => gettext(text);
const fmt = (text, params) => interpolate(text, params, true); // text already translated

const COLOURS = {
  R: { id: "red", name: () => _("red"), shape: "●", shapeName: () => _("circle") },
  B: { id: "blue", name: () => _("blue"), shape: "■", shapeName: () => _("square") },
  Y: { id: "yellow", name: () => _("yellow"), shape: "▲", shapeName: () => _("triangle") },
  G: { id: "green", name: () => _("green"), shape: "◆", shapeName: () => _("diamond") },
};
const BY_ID = Object.fromEntries(Object.entries(COLOURS).map(([letter, c]) => [c.id, letter]));
const SYMBOLS = {
  S: { text: "⊘", name: () => _("Skip") },
  R: { text: "⇄", name: () => _("Reverse") },
  D: { text: "+2", name: () => _("Draw Two") },
};
const END_REASONS = {
  target: () => _("A player reached the target score."),
  rounds: () => _("All the match's rounds were played."),
  one_round: () => _("The round is over."),
  stalled: () => _("Nobody could play or draw: the round ended without a winner."),
};

/** A card's words: "blue 7", "red Skip", "Wild", "Wild Draw Four". */
export function cardName(card) {
  if (card === "W") return _("Wild");
  if (card === "W4") return _("Wild Draw Four");
  const colour = COLOURS[card[0]].name();
  const rank = card.slice(1);
  const symbol = SYMBOLS[rank];
  return fmt(_("%(colour)s %(rank)s"), { colour, rank: symbol ? symbol.name() : rank });
}

const SVG = "http://www.w3.org/2000/svg";
const FIELD = { red: "#c62828", blue: "#1565c0", yellow: "#e2a400", green: "#2e7d32" };
// Each colour's shape, drawn around (0, 0) in a 20-unit box: colour is never the only cue.
const SHAPES = {
  red: ["circle", { r: 9 }],
  blue: ["rect", { x: -8, y: -8, width: 16, height: 16 }],
  yellow: ["polygon", { points: "0,-10 9.5,8 -9.5,8" }],
  green: ["polygon", { points: "0,-10 9,0 0,10 -9,0" }],
};

function svg(tag, attributes = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  for (const child of children) if (child) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return node;
}

function shape(colour, x, y, scale, fill, stroke) {
  const [tag, geometry] = SHAPES[colour];
  return svg("g", { transform: `translate(${x} ${y}) scale(${scale})` },
    svg(tag, { ...geometry, fill, stroke: stroke || "none", "stroke-width": 2 }));
}

/** The index a card shows in its corners and centre: its number or its action's symbol. */
function glyph(card) {
  if (card === "W") return "W";
  if (card === "W4") return "+4";
  const rank = card.slice(1);
  return SYMBOLS[rank] ? SYMBOLS[rank].text : rank;
}

/** A card drawn as a card (100 × 150): the colour field, a tilted white oval with the big
 * symbol, the corner indices with the colour's shape under each; a Wild is black with the
 * four colours (and their shapes) in its oval. */
export function cardSvg(card) {
  const wild = card === "W" || card === "W4";
  const colour = wild ? null : COLOURS[card[0]].id;
  const field = wild ? "#1d1f24" : FIELD[colour];
  const mark = glyph(card);
  const small = mark.length > 1 ? 22 : 28;
  const art = svg("svg", { viewBox: "0 0 100 150", class: "cc-svg", "aria-hidden": "true", focusable: "false" },
    svg("rect", { x: 1, y: 1, width: 98, height: 148, rx: 11, fill: "#fff", stroke: "#00000033" }),
    svg("rect", { x: 6, y: 6, width: 88, height: 138, rx: 8, fill: field }));
  if (wild) {
    const quarters = [["red", -1, -1], ["blue", 1, -1], ["yellow", -1, 1], ["green", 1, 1]];
    const oval = svg("g", { transform: "rotate(28 50 75)" },
      svg("ellipse", { cx: 50, cy: 75, rx: 34, ry: 54, fill: "#fff" }));
    for (const [id, dx, dy] of quarters) {
      oval.append(svg("path", { d: `M50 75 L${50 + dx * 31} 75 A31 50 0 0 ${dx * dy > 0 ? 1 : 0} 50 ${75 + dy * 50} Z`, fill: FIELD[id] }));
      oval.append(shape(id, 50 + dx * 15, 75 + dy * 24, 0.7, "#fff"));
    }
    art.append(oval);
    if (card === "W4") art.append(svg("text", { x: 50, y: 88, class: "cc-svg-big wild", "font-size": 36 }, "+4"));
  } else {
    art.append(svg("ellipse", { cx: 50, cy: 75, rx: 34, ry: 54, fill: "#fff", transform: "rotate(28 50 75)" }));
    art.append(shape(colour, 50, 36, 0.75, field));
    const big = svg("text", { x: 50, y: 96, fill: field, class: "cc-svg-big", "font-size": mark.length > 1 ? 44 : 58 }, mark);
    art.append(big);
    if (mark === "6" || mark === "9") art.append(svg("rect", { x: 38, y: 101, width: 24, height: 4, fill: field }));
  }
  const corner = (transform) => svg("g", { transform },
    svg("text", { x: 19, y: 32, class: "cc-svg-index", "font-size": small }, mark),
    colour ? shape(colour, 19, 45, 0.55, "#fff") : null);
  art.append(corner(""), corner("rotate(180 50 75)"));
  return art;
}

/** The back of a card: the draw pile and the other players' hands. */
export function cardBack() {
  return svg("svg", { viewBox: "0 0 100 150", class: "cc-svg", "aria-hidden": "true", focusable: "false" },
    svg("rect", { x: 1, y: 1, width: 98, height: 148, rx: 11, fill: "#fff", stroke: "#00000033" }),
    svg("rect", { x: 6, y: 6, width: 88, height: 138, rx: 8, fill: "#2b2350" }),
    svg("ellipse", { cx: 50, cy: 75, rx: 30, ry: 50, fill: "#c62828", transform: "rotate(28 50 75)" }),
    shape("red", 40, 62, 0.6, "#fff"), shape("blue", 60, 62, 0.6, "#fff"),
    shape("yellow", 40, 90, 0.6, "#fff"), shape("green", 60, 90, 0.6, "#fff"));
}

function cardFace(ui, card, extra = {}, label = cardName(card)) {
  const { el } = ui;
  const wild = card === "W" || card === "W4";
  const kind = wild ? "wild" : `c-${COLOURS[card[0]].id}`;
  const { class: size = "", ...rest } = extra;
  return el("span", { class: `cc-card ${kind} ${size}`.trim(), "data-card": card, ...rest },
    cardSvg(card), el("span", { class: "visually-hidden" }, label));
}

let picking = null; // the Wild whose colour is being picked: {card, actions, key}

export default {
  word(key, value) {
    const known = typeof value === "string" && (value === "W" || value === "W4" || COLOURS[value[0]]);
    if ((key === "card" || key === "top") && known) return cardName(value);
    if ((key === "color" || key === "colour") && BY_ID[value]) return COLOURS[BY_ID[value]].name();
    return undefined;
  },

  toAct(payload) {
    return payload.view.to_act || [];
  },

  render(container, payload, ui) {
    const { el } = ui;
    const view = payload.view;
    const legal = payload.status === "running" ? payload.legal || [] : [];
    const focusKey = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key : null;
    if (picking && picking.key !== `${payload.version}`) picking = null;
    const previousTop = container.querySelector(".cc-table [data-card]");
    const previousHand = new Set([...container.querySelectorAll('[data-zone="hand"] [data-card]')].map((n) => n.dataset.key));
    const parts = [seatsPanel(view, payload, ui), tablePanel(view, payload, ui)];
    const windowPanel = lastCardPanel(view, payload, legal, ui);
    if (windowPanel) parts.push(windowPanel);
    if (payload.seat !== null && view.hand) parts.push(handPanel(view, payload, legal, ui));
    container.replaceChildren(el("div", { class: "cc" }, parts));
    // Motion (CSS, off under prefers-reduced-motion): a new top card lands, new cards are dealt.
    const top = container.querySelector(".cc-table .cc-card");
    if (previousTop && top && (previousTop.dataset.card !== top.dataset.card || previousTop.dataset.count !== top.dataset.count)) top.classList.add("landed");
    if (previousTop) {
      for (const card of container.querySelectorAll('[data-zone="hand"] [data-card]')) {
        if (!previousHand.has(card.dataset.key)) card.classList.add("dealt");
      }
    }
    if (focusKey) {
      const again = container.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
      if (again) again.focus();
    }
  },

  describe(previous, payload, ui) {
    const before = previous.view;
    const view = payload.view;
    const lines = [];
    const name = (seat) => (seat === payload.seat ? _("You") : ui.seatName(seat));
    const mover = before.turn;
    if (view.round !== before.round) lines.push(fmt(_("Round %(n)s is dealt."), { n: view.round }));
    else if (view.top !== before.top || view.discard_pile > before.discard_pile) {
      if (mover !== null && mover !== undefined) {
        let line = fmt(_("%(name)s played %(card)s."), { name: name(mover), card: cardName(view.top) });
        if ((view.top === "W" || view.top === "W4") && view.color) line += ` ${fmt(_("The colour is now %(colour)s."), { colour: COLOURS[BY_ID[view.color]].name() })}`;
        lines.push(line);
      }
    } else if (view.drew && !before.drew && mover !== null) {
      lines.push(fmt(_("%(name)s drew a card."), { name: name(mover) }));
    }
    if (before.choosing_color && !view.choosing_color && view.color) {
      lines.push(fmt(_("The colour is now %(colour)s."), { colour: COLOURS[BY_ID[view.color]].name() }));
    }
    for (const seat of view.last_card_called) {
      if (!before.last_card_called.includes(seat)) lines.push(fmt(_("%(name)s called “Last card!”"), { name: name(seat) }));
    }
    for (const [seat, count] of Object.entries(view.hand_counts)) {
      const earlier = before.hand_counts[seat];
      if (before.window && before.window.seat === Number(seat) && !view.window && count === earlier + 2) {
        lines.push(fmt(_("%(name)s was caught without calling “Last card!” and draws two."), { name: name(Number(seat)) }));
      }
    }
    for (const seat of view.places) {
      if (!before.places.includes(seat)) lines.push(fmt(_("%(name)s is out in place %(place)s."), { name: name(seat), place: view.places.indexOf(seat) + 1 }));
    }
    if (view.over && !before.over) lines.push(_("The match is over."));
    return lines;
  },

  /** A seat's hidden hand on the replay page, drawn as cards. */
  hidden(own, ui) {
    const hand = own.hand || [];
    if (!hand.length) return ui.el("p", { class: "muted" }, _("No cards."));
    return ui.el("ol", { class: "cc-cards cc-small", "aria-label": fmt(ngettext("%(n)s card", "%(n)s cards", hand.length), { n: hand.length }) },
      hand.map((card) => ui.el("li", {}, cardFace(ui, card))));
  },

  /** What decided the match, from the rounds it played: each round's winner and points. */
  endReason(payload, ui) {
    const reason = payload.outcome && END_REASONS[payload.outcome.reason];
    if (reason) return reason();
    const rounds = (payload.view && payload.view.rounds) || [];
    const name = (seat) => (seat === payload.seat ? _("you") : ui.seatName(seat));
    const said = rounds.map((round) => {
      if (round.winner === null || round.winner === undefined) return fmt(_("Round %(n)s: no winner."), { n: round.round });
      const points = Number((round.points || {})[String(round.winner)] || 0);
      return fmt(ngettext("Round %(n)s: %(name)s went out first, %(points)s point.", "Round %(n)s: %(name)s went out first, %(points)s points.", points), { n: round.round, name: name(round.winner), points });
    });
    if (rounds.length > 1) said.push(_("The highest total wins."));
    return said.join(" ");
  },
};

function tablePanel(view, payload, ui) {
  const { el } = ui;
  const colour = view.color ? COLOURS[BY_ID[view.color]] : null;
  const clockwise = view.direction === 1;
  const direction = clockwise ? _("Play goes clockwise") : _("Play goes counter-clockwise");
  return el("section", { class: "panel cc-table", "aria-labelledby": "cc-table-title" },
    el("h2", { id: "cc-table-title", class: "cc-round" }, fmt(_("Round %(n)s"), { n: view.round })),
    el("div", { class: "cc-pile" },
      el("div", { class: "cc-stack" },
        el("span", { class: "cc-card back" }, cardBack()),
        el("span", { class: "cc-stack-count" }, fmt(ngettext("%(n)s card to draw", "%(n)s cards to draw", view.draw_pile), { n: view.draw_pile }))),
      el("div", { class: "cc-stack" },
        cardFace(ui, view.top, { class: "big", "data-count": String(view.discard_pile) }),
        el("span", { class: "cc-stack-count" }, _("Top card"))),
      el("div", { class: "cc-facts" },
        colour ? el("p", { class: `cc-in-force c-${colour.id}` },
          fmt(_("Colour to match: %(colour)s %(shape)s"), { colour: colour.name(), shape: colour.shape })) : null,
        view.choosing_color ? el("p", {}, _("A colour is being chosen.")) : null,
        el("p", { class: "cc-direction" }, el("span", { class: `cc-arrow${clockwise ? "" : " ccw"}`, "aria-hidden": "true" }, clockwise ? "↻" : "↺"), " ", direction))));
}

function lastCardPanel(view, payload, legal, ui) {
  const { el } = ui;
  const window = view.window;
  if (!window) return null;
  const timed = (payload.windows || []).find((w) => w.name === "last_card");
  const left = timed ? timed.remaining : window.seconds;
  const who = window.seat === payload.seat ? _("You") : ui.seatName(window.seat);
  const panel = el("section", { class: "panel cc-window", role: "status", "aria-labelledby": "cc-window-title" },
    el("h2", { id: "cc-window-title" }, fmt(_("“Last card!” window for %(name)s"), { name: who })),
    el("p", {}, el("span", { class: "cc-countdown", "data-deadline": String(performance.now() + left * 1000) }, `${left.toFixed(1)} s`)));
  const call = legal.find((a) => a.type === "call_last_card");
  const catchIt = legal.find((a) => a.type === "catch");
  if (call) panel.append(el("button", { type: "button", class: "cc-call", "data-key": "call", onclick: () => ui.act(call) }, _("Last card!")));
  if (catchIt) panel.append(el("button", { type: "button", class: "cc-catch", "data-key": "catch", onclick: () => ui.act(catchIt) }, fmt(_("Catch %(name)s!"), { name: ui.seatName(catchIt.target) })));
  const held = window.held || [];
  if (payload.seat !== null && held.includes(payload.seat)) {
    panel.append(el("p", { class: "cc-held" }, fmt(_("Your Catch is pending: it counts if %(name)s has not called within the first second."), { name: ui.seatName(window.seat) })));
  } else if (window.seat === payload.seat && held.length) {
    panel.append(el("p", { class: "cc-held" }, _("You are being caught: call now, within the first second, and it does not count.")));
  }
  tickCountdown(panel);
  return panel;
}

function tickCountdown(panel) {
  const span = panel.querySelector(".cc-countdown");
  const deadline = Number(span.dataset.deadline);
  const step = () => {
    if (!span.isConnected) return;
    const left = Math.max(0, (deadline - performance.now()) / 1000);
    span.textContent = `${left.toFixed(1)} s`;
    if (left > 0) setTimeout(step, 100);
  };
  setTimeout(step, 100);
}

function handPanel(view, payload, legal, ui) {
  const { el } = ui;
  const plays = legal.filter((a) => a.type === "play");
  const refusals = view.refusals || {};
  const section = el("section", { class: "panel cc-hand", "aria-labelledby": "cc-hand-title" },
    el("h2", { id: "cc-hand-title" }, fmt(ngettext("Your hand: %(n)s card", "Your hand: %(n)s cards", view.hand.length), { n: view.hand.length })));
  if (view.drawn) section.append(el("p", { class: "cc-drawn" }, fmt(_("You drew %(card)s: play it or pass."), { card: cardName(view.drawn) })));
  const seen = new Map();
  const cards = view.hand.map((card, index) => {
    const options = plays.filter((a) => a.card === card);
    const playable = options.length > 0 && !(view.drawn && card !== view.drawn);
    const copy = seen.get(card) || 0;
    seen.set(card, copy + 1);
    const why = () => {
      const refusal = refusals[card];
      if (refusal) return ui.refusal(refusal.refusal, refusal.params || {});
      return payload.status === "running" ? _("You cannot play this card now.") : _("The game is over.");
    };
    const onclick = () => {
      if (!playable) {
        ui.toast(why(), "info");
        return;
      }
      if (options.length === 1 && !options[0].color) ui.act(options[0]);
      else {
        picking = { card, actions: options, key: `${payload.version}` };
        ui.redraw();
      }
    };
    const label = playable ? cardName(card) : fmt(_("%(card)s (cannot be played now)"), { card: cardName(card) });
    return el("li", {}, el("button", {
      type: "button", class: `cc-play${playable ? " playable" : ""}`, "data-key": `hand-${card}-${copy}`,
      "aria-disabled": playable ? "false" : "true", onclick,
    }, cardFace(ui, card, { "data-key": `${card}-${copy}` }, label)));
  });
  section.append(el("ol", { class: `cc-cards${view.hand.length > 12 ? " many" : ""}`, "data-zone": "hand" }, cards));
  if (picking) {
    section.append(el("div", { class: "cc-picker", role: "group", "aria-labelledby": "cc-picker-title" },
      el("h3", { id: "cc-picker-title" }, fmt(_("Choose the colour for your %(card)s"), { card: cardName(picking.card) })),
      picking.actions.map((a) => {
        const colour = COLOURS[BY_ID[a.color]];
        return el("button", { type: "button", class: `cc-colour c-${colour.id}`, "data-key": `colour-${a.color}`, onclick: () => { picking = null; ui.act(a); } },
          el("span", { "aria-hidden": "true" }, colour.shape), " ", colour.name());
      }),
      el("button", { type: "button", class: "secondary", "data-key": "cancel-colour", onclick: () => { picking = null; ui.redraw(); } }, _("Cancel"))));
  }
  const chooseColour = legal.filter((a) => a.type === "choose_color");
  if (chooseColour.length) {
    section.append(el("div", { class: "cc-picker", role: "group", "aria-labelledby": "cc-choose-title" },
      el("h3", { id: "cc-choose-title" }, _("Choose the colour to play")),
      chooseColour.map((a) => {
        const colour = COLOURS[BY_ID[a.color]];
        return el("button", { type: "button", class: `cc-colour c-${colour.id}`, "data-key": `colour-${a.color}`, onclick: () => ui.act(a) },
          el("span", { "aria-hidden": "true" }, colour.shape), " ", colour.name());
      })));
  }
  const actions = el("div", { class: "cc-actions" });
  const draw = legal.find((a) => a.type === "draw");
  const pass = legal.find((a) => a.type === "pass");
  const call = !view.window && legal.find((a) => a.type === "call_last_card");
  if (draw) actions.append(el("button", { type: "button", "data-key": "draw", onclick: () => ui.act(draw) }, _("Draw a card")));
  if (pass) actions.append(el("button", { type: "button", class: "secondary", "data-key": "pass", onclick: () => ui.act(pass) }, _("Pass")));
  if (call || view.last_card_called.includes(payload.seat)) {
    const called = view.last_card_called.includes(payload.seat);
    actions.append(el("button", {
      type: "button", class: "cc-call", "aria-pressed": called ? "true" : "false", "data-key": "call-early",
      disabled: called || !call, onclick: () => call && ui.act(call),
    }, called ? _("“Last card!” called") : _("Last card!")));
  }
  if (actions.childNodes.length) section.append(actions);
  if (!legal.length && payload.status === "running") section.append(el("p", { class: "muted" }, _("Wait for your turn.")));
  return section;
}

/** The other players round the table, above the pile: cards left, score, turn and calls. */
function seatsPanel(view, payload, ui) {
  const { el } = ui;
  const rows = payload.seats.map((seat) => {
    const key = String(seat.number);
    const place = view.places.indexOf(seat.number);
    const count = view.hand_counts[key];
    const badges = [];
    if (view.last_card_called.includes(seat.number)) badges.push(el("span", { class: "badge warn" }, _("Last card!")));
    if (place >= 0) badges.push(el("span", { class: "badge" }, fmt(_("place %(n)s"), { n: place + 1 })));
    const mine = seat.number === payload.seat;
    return el("li", { class: `cc-seat${view.turn === seat.number ? " turn" : ""}${mine ? " mine" : ""}`, "data-seat": seat.number },
      el("span", { class: "cc-seat-name" }, mine ? _("You") : ui.seatName(seat.number)),
      el("span", { class: "cc-seat-cards" }, el("span", { class: "cc-mini-back", "aria-hidden": "true" }), fmt(ngettext("%(n)s card", "%(n)s cards", count), { n: count })),
      el("span", { class: "cc-seat-score", "data-score-key": `cc-${key}` }, fmt(ngettext("%(n)s point", "%(n)s points", view.scores[key]), { n: view.scores[key] })),
      view.turn === seat.number ? el("span", { class: "badge ok" }, _("to play")) : null,
      badges);
  });
  return el("section", { class: "cc-seats", "aria-labelledby": "cc-seats-title" },
    el("h2", { id: "cc-seats-title", class: "visually-hidden" }, _("Players")),
    el("ol", { class: "cc-seat-list" }, rows));
}
