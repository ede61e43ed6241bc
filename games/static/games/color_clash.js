// Color Clash board: the top card and the colour in force, every seat's card count, places
// and "Last card!" calls, the seat's hand with the plays the server allows, draw then play or
// pass, the colour picker after a Wild, the "Last card!" toggle and the Catch button with the
// 3-second window. Cards show their colour as a word and a shape, and their symbol as text.

const { gettext, interpolate } = window;
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

function cardFace(ui, card, extra = {}) {
  const { el } = ui;
  if (card === "W" || card === "W4") {
    return el("span", { class: "cc-card wild", "data-card": card, ...extra },
      el("span", { class: "cc-rank" }, card === "W" ? "W" : "+4"),
      el("span", { class: "cc-shapes", "aria-hidden": "true" }, "●■▲◆"),
      el("span", { class: "cc-word" }, cardName(card)));
  }
  const colour = COLOURS[card[0]];
  const rank = card.slice(1);
  const symbol = SYMBOLS[rank];
  return el("span", { class: `cc-card c-${colour.id}`, "data-card": card, ...extra },
    el("span", { class: "cc-rank" }, symbol ? symbol.text : rank),
    el("span", { class: "cc-shape", "aria-hidden": "true" }, colour.shape),
    el("span", { class: "cc-word" }, symbol ? `${colour.name()} ${symbol.name()}` : colour.name()));
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
    const parts = [tablePanel(view, payload, ui)];
    const windowPanel = lastCardPanel(view, payload, legal, ui);
    if (windowPanel) parts.push(windowPanel);
    if (payload.seat !== null && view.hand) parts.push(handPanel(view, payload, legal, ui));
    parts.push(seatsPanel(view, payload, ui));
    container.replaceChildren(el("div", { class: "cc" }, parts));
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

  endReason(payload) {
    const reason = payload.outcome && END_REASONS[payload.outcome.reason];
    return reason ? reason() : "";
  },
};

function tablePanel(view, payload, ui) {
  const { el } = ui;
  const colour = view.color ? COLOURS[BY_ID[view.color]] : null;
  const direction = view.direction === 1 ? _("Play goes clockwise ↻") : _("Play goes counter-clockwise ↺");
  return el("section", { class: "panel cc-table", "aria-labelledby": "cc-table-title" },
    el("h2", { id: "cc-table-title" }, fmt(_("Round %(n)s"), { n: view.round })),
    el("div", { class: "cc-pile" },
      el("div", {}, el("span", { class: "muted" }, _("Top card")), cardFace(ui, view.top, { class: `cc-card big ${view.top.startsWith("W") ? "wild" : `c-${COLOURS[view.top[0]].id}`}` })),
      el("div", { class: "cc-facts" },
        colour ? el("p", { class: `cc-in-force c-${colour.id}` }, fmt(_("Colour to match: %(colour)s %(shape)s"), { colour: colour.name(), shape: colour.shape })) : null,
        view.choosing_color ? el("p", {}, _("A colour is being chosen.")) : null,
        el("p", {}, direction),
        el("p", { class: "muted" }, fmt(_("Draw pile: %(n)s · discard pile: %(m)s"), { n: view.draw_pile, m: view.discard_pile })))));
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
  const section = el("section", { class: "panel cc-hand", "aria-labelledby": "cc-hand-title" },
    el("h2", { id: "cc-hand-title" }, fmt(_("Your hand (%(n)s)"), { n: view.hand.length })));
  if (view.drawn) section.append(el("p", { class: "cc-drawn" }, fmt(_("You drew %(card)s: play it or pass."), { card: cardName(view.drawn) })));
  const seen = new Set();
  const cards = view.hand.map((card, index) => {
    const options = plays.filter((a) => a.card === card);
    const playable = options.length > 0 && !(view.drawn && card !== view.drawn);
    const first = !seen.has(card);
    seen.add(card);
    const onclick = () => {
      if (!playable) return;
      if (options.length === 1 && !options[0].color) ui.act(options[0]);
      else {
        picking = { card, actions: options, key: `${payload.version}` };
        ui.redraw();
      }
    };
    return el("li", {}, el("button", {
      type: "button", class: `cc-play${playable && first ? " playable" : ""}`, "data-key": `hand-${index}`,
      "aria-disabled": playable ? "false" : "true", onclick,
    }, cardFace(ui, card)));
  });
  section.append(el("ol", { class: "cc-cards", "data-zone": "hand" }, cards));
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

function seatsPanel(view, payload, ui) {
  const { el } = ui;
  const rows = payload.seats.map((seat) => {
    const key = String(seat.number);
    const place = view.places.indexOf(seat.number);
    const badges = [];
    if (view.turn === seat.number) badges.push(el("span", { class: "badge ok" }, _("to play")));
    if (view.last_card_called.includes(seat.number)) badges.push(el("span", { class: "badge warn" }, _("Last card!")));
    if (place >= 0) badges.push(el("span", { class: "badge" }, fmt(_("place %(n)s"), { n: place + 1 })));
    return el("tr", {},
      el("th", { scope: "row" }, seat.number === payload.seat ? _("You") : ui.seatName(seat.number), " ", badges),
      el("td", {}, String(view.hand_counts[key])),
      el("td", {}, String(view.scores[key])));
  });
  return el("section", { class: "panel cc-seats", "aria-labelledby": "cc-seats-title" },
    el("h2", { id: "cc-seats-title" }, _("Players")),
    el("div", { class: "table-wrap" }, el("table", { class: "list" },
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, _("Player")), el("th", { scope: "col" }, _("Cards")), el("th", { scope: "col" }, _("Score")))),
      el("tbody", {}, rows))));
}
