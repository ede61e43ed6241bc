// DropMix Clash's board: the five slots with the colours they accept, each stack's top card
// (its colour, level and owner, in team colours with a team mark so colour is never the only
// cue), the scores towards the target, the moves left this turn, the retract window, the
// Equalizer as a wheel that lands where the server says (no motion when the reader prefers
// none) and FX cards' effects in words. The card data comes with the view, for the board's
// cards and the seat's own only. Moves are the server's legal actions: choose a card, then a
// slot (keys 1 to 5 once a card is chosen).

const { gettext, ngettext, interpolate } = window;
const _ = (text) => gettext(text);
const fmt = (text, params) => interpolate(text, params, true);

const COLOURS = {
  yellow: { name: () => _("yellow"), shape: "▲" },
  red: { name: () => _("red"), shape: "●" },
  blue: { name: () => _("blue"), shape: "■" },
  green: { name: () => _("green"), shape: "◆" },
};
const TEAM_MARKS = ["◆", "✚"];
const colourName = (colour) => (COLOURS[colour] ? COLOURS[colour].name() : colour);

let selected = null; // the hand card chosen, waiting for its slot
let wheelAngle = 0; // where the wheel was last drawn, so a new spin turns on from there
let lastSpinKey; // the spin the wheel last showed; undefined until the board is first drawn
let keysFor = null; // the payload the slot keys act on

const spinKey = (view) => (view.last_spin ? String(view.last_spin.number ?? JSON.stringify(view.last_spin)) : null);
const reducedMotion = () => window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

// -- words -------------------------------------------------------------------------------
function sideLabel(view, payload, side, ui) {
  const names = (view.sides[side] || []).map((seat) => ui.seatName(seat));
  if (view.sides[side] && view.sides[side].length === 1) return names[0];
  return fmt(_("Team %(n)s (%(names)s)"), { n: side + 1, names: names.join(" & ") });
}

function cardTitle(view, id) {
  const card = view.cards && view.cards[id];
  if (!card) return id;
  return card.kind === "fx" ? card.name : card.title;
}

// The catalogue's instruments (data, in English), said in the page's language; an organiser's
// own catalogue may name others, shown as written.
const INSTRUMENTS = {
  drums: () => _("drums"),
  bass: () => _("bass"),
  vocals: () => _("vocals"),
  synth: () => _("synth"),
  "drum machine": () => _("drum machine"),
  keys: () => _("keys"),
  horns: () => _("horns"),
  rap: () => _("rap"),
  "synth bass": () => _("synth bass"),
  choir: () => _("choir"),
  percussion: () => _("percussion"),
  guitar: () => _("guitar"),
  "upright bass": () => _("upright bass"),
  strings: () => _("strings"),
};

function instrumentName(instrument) {
  return INSTRUMENTS[instrument] ? INSTRUMENTS[instrument]() : instrument;
}

function filterText(filter) {
  const parts = [];
  if (filter.level) parts.push(fmt(_("level %(n)s"), { n: filter.level }));
  if (filter.colour) parts.push(colourName(filter.colour));
  if (filter.instrument) parts.push(instrumentName(filter.instrument));
  if (filter.same_song) parts.push(_("of a song in play"));
  return parts.join(" ");
}

const whoText = (who) => ({ self: _("your side"), opponent: _("the other side"), both: _("both sides") })[who] || who;

/** One FX effect in words. */
export function effectText(effect) {
  const n = effect.n || effect.count || 1;
  switch (effect.form) {
    case "extra_move":
      return effect.filter ? fmt(_("one extra move with a card: %(filter)s"), { filter: filterText(effect.filter) }) : _("one extra move");
    case "extra_spin":
      return _("one extra Equalizer spin");
    case "score_sets":
      return fmt(ngettext("%(n)s point for each set of %(sets)s in your mix", "%(n)s points for each set of %(sets)s in your mix", n), { n, sets: effect.filters.map(filterText).join(" + ") });
    case "score_song_pairs":
      return fmt(ngettext("%(n)s point for each two cards of one song in play", "%(n)s points for each two cards of one song in play", n), { n });
    case "draw":
      if (effect.mode === "redraw") return fmt(_("%(who)s: discard the hand and draw a new one"), { who: whoText(effect.who) });
      if (effect.mode === "choose") return fmt(ngettext("%(who)s: choose %(n)s card from the deck", "%(who)s: choose %(n)s cards from the deck", n), { who: whoText(effect.who), n });
      return fmt(ngettext("%(who)s: draw %(n)s card", "%(who)s: draw %(n)s cards", n), { who: whoText(effect.who), n });
    case "clear": {
      let text;
      if (effect.target === "adjacent") text = fmt(_("clear the slots next to this one (%(who)s)"), { who: whoText(effect.who) });
      else if (effect.target === "random") text = fmt(_("clear a random slot of %(who)s"), { who: whoText(effect.who) });
      else text = fmt(_("clear the cards of %(who)s that are %(filters)s"), { who: whoText(effect.who), filters: effect.target.any.map(filterText).join(_(" or ")) });
      return effect.costs_points ? `${text} ${_("(each costs a point)")}` : text;
    }
    case "score":
      return fmt(_("%(who)s: %(delta)s points"), { who: whoText(effect.who), delta: effect.delta > 0 ? `+${effect.delta}` : String(effect.delta) });
    case "on_cover": {
      const when = effect.covers === "empty" ? _("played on an empty slot") : fmt(_("covering %(colour)s"), { colour: colourName(effect.covers.colour) });
      return fmt(_("when %(when)s: %(then)s"), { when, then: effect.then.map(effectText).join("; ") });
    }
    case "block":
      return fmt(_("no card %(filter)s may be played while this is in play"), { filter: filterText(effect.filter) });
    default:
      return effect.form;
  }
}

function fxText(card) {
  const effects = (card.effects || []).map(effectText).join("; ");
  if (!card.conditions || !card.conditions.length) return effects;
  return `${fmt(_("If the mix holds %(cards)s:"), { cards: card.conditions.map(filterText).join(" + ") })} ${effects}`;
}

// -- pieces -----------------------------------------------------------------------------
function colourChip(el, colour) {
  return el("span", { class: `dm-chip c-${colour}` }, el("span", { "aria-hidden": "true" }, COLOURS[colour] ? COLOURS[colour].shape : ""), " ", colourName(colour));
}

function teamMark(el, side) {
  return el("span", { class: `dm-team t-${side}`, "aria-hidden": "true" }, TEAM_MARKS[side]);
}

/** A card as drawn on the board or in the hand; ``entry`` is its stack entry on the board. */
function cardFace(view, payload, ui, id, entry = null) {
  const { el } = ui;
  const card = (view.cards && view.cards[id]) || { kind: "part", level: "?" };
  const colour = entry ? entry.colour : card.colour;
  const kind = card.kind === "fx" ? "fx" : colour || (card.kind === "wild" ? "wild" : "none");
  const face = el("div", { class: `dm-card c-${kind}`, "data-card-id": id },
    el("span", { class: "dm-corner", "aria-hidden": "true" }, String(card.level)));
  const kindText = card.kind === "fx" ? _("FX") : colour ? colourName(colour) : _("Wild");
  face.append(
    el("p", { class: "dm-card-head" },
      el("span", { class: "dm-level" }, fmt(_("Level %(n)s"), { n: card.level })), " ",
      el("span", { class: "dm-kind" }, el("span", { "aria-hidden": "true" }, COLOURS[colour] ? COLOURS[colour].shape : card.kind === "fx" ? "✦" : "✱"), " ", kindText)),
    el("p", { class: "dm-title" }, cardTitle(view, id)),
  );
  if (card.kind === "fx") face.append(el("p", { class: "dm-fx" }, fxText(card)));
  else {
    const instrument = card.kind === "wild" ? (colour && card.instruments ? instrumentName(card.instruments[colour]) : _("any colour")) : instrumentName(card.instrument);
    face.append(el("p", { class: "dm-meta" }, [card.artist, instrument].filter(Boolean).join(" · ")));
  }
  if (entry) {
    const side = view.players[entry.seat] ? view.players[entry.seat].side : 0;
    face.append(el("p", { class: `dm-owner t-${side}` }, teamMark(el, side), " ", fmt(_("played by %(name)s"), { name: entry.seat === payload.seat ? _("you") : ui.seatName(entry.seat) })));
  }
  return face;
}

function legalOf(payload) {
  return payload.legal || [];
}

function dropsFor(payload, card) {
  return legalOf(payload).filter((action) => action.type === "drop" && action.card === card);
}

// -- panels -----------------------------------------------------------------------------
function scoresPanel(view, payload, ui) {
  const { el } = ui;
  return el("section", { class: "panel dm-scores", "aria-labelledby": "dm-scores-title" },
    el("h2", { id: "dm-scores-title" }, fmt(_("Scores · first to %(n)s"), { n: view.target })),
    el("ul", { class: "dm-sides" }, view.sides.map((seats, side) => {
      const active = view.active_side === side && view.winner === null;
      return el("li", { class: `dm-side t-${side}${active ? " active" : ""}`, "data-side": side },
        el("p", { class: "dm-side-name" }, teamMark(el, side), " ", sideLabel(view, payload, side, ui),
          active ? el("span", { class: "badge" }, _("to play")) : null,
          view.winner === side ? el("span", { class: "badge ok" }, _("winner")) : null),
        el("p", { class: "dm-score" },
          el("meter", { min: 0, max: view.target, value: Math.min(view.scores[side], view.target), "aria-label": fmt(ngettext("%(side)s: %(score)s of %(target)s point", "%(side)s: %(score)s of %(target)s points", view.target), { side: sideLabel(view, payload, side, ui), score: view.scores[side], target: view.target }) }),
          " ", el("strong", { "data-score-key": `dm-${side}` }, `${view.scores[side]} / ${view.target}`)));
    })));
}

function movesPanel(view, payload, ui) {
  const { el } = ui;
  const left = view.moves_left;
  const items = [];
  items.push(el("li", {}, fmt(ngettext("%(n)s move left this turn", "%(n)s moves left this turn", left.base), { n: left.base })));
  if (left.base && left.base_movers.length && view.sides[view.active_side].length > 1) {
    items.push(el("li", {}, fmt(_("Who may make it: %(names)s"), { names: left.base_movers.map((seat) => (seat === payload.seat ? _("you") : ui.seatName(seat))).join(", ") })));
  }
  for (const extra of left.extras) {
    const text = extra.kind === "spin" ? _("an extra Equalizer spin") : extra.filter ? fmt(_("an extra move with a card: %(filter)s"), { filter: filterText(extra.filter) }) : _("an extra move");
    items.push(el("li", {}, text));
  }
  if (view.missing_colours.length) {
    items.push(el("li", {}, fmt(_("Missing from the mix (a bonus point): %(colours)s"), { colours: view.missing_colours.map(colourName).join(", ") })));
  }
  return el("section", { class: "panel dm-moves", "aria-labelledby": "dm-moves-title" },
    el("h2", { id: "dm-moves-title" }, fmt(_("Turn %(n)s · %(side)s"), { n: view.turn, side: sideLabel(view, payload, view.active_side, ui) })),
    el("ul", { class: "dm-moves-list" }, items),
    windowPanel(view, payload, ui));
}

function windowPanel(view, payload, ui) {
  const { el } = ui;
  const pending = view.pending;
  if (!pending) return null;
  const window = (payload.windows || []).find((w) => w.name === "retract" || w.name === "spin");
  const retract = legalOf(payload).find((action) => action.type === "retract");
  const who = pending.seat === payload.seat ? _("You") : ui.seatName(pending.seat);
  const what = pending.kind === "spin"
    ? fmt(_("%(name)s spun the Equalizer: it may still be taken back."), { name: who })
    : fmt(_("%(name)s played %(card)s on slot %(slot)s: it may still be taken back."), { name: who, card: cardTitle(view, pending.card), slot: pending.slot });
  const box = el("div", { class: "dm-window", role: "group", "aria-label": _("Retract window") },
    el("p", {}, what),
    window ? el("p", { class: "dm-countdown", "data-deadline": String(performance.now() + window.remaining * 1000) }, fmt(_("%(s)s s left"), { s: Math.ceil(window.remaining) })) : null);
  if (retract) {
    box.append(el("button", { type: "button", class: "dm-retract", "data-key": "retract", onclick: () => ui.act(retract) }, pending.kind === "spin" ? _("Take the spin back") : _("Take the move back")));
  }
  return box;
}

function slotsPanel(view, payload, ui) {
  const { el } = ui;
  const drops = selected ? dropsFor(payload, selected) : [];
  return el("section", { class: "panel dm-mix", "aria-labelledby": "dm-mix-title" },
    el("h2", { id: "dm-mix-title" }, _("The mix")),
    selected ? el("p", { class: "dm-hint" }, fmt(_("Choose a slot for %(card)s (keys 1 to 5), or Escape."), { card: cardTitle(view, selected) })) : null,
    el("ol", { class: "dm-slots" }, view.board.map((slot) => {
      const top = slot.stack.length ? slot.stack[slot.stack.length - 1] : null;
      const controller = slot.controller;
      const pendingHere = view.pending && view.pending.kind === "drop" && view.pending.slot === slot.slot;
      const item = el("li", { class: `dm-slot${controller !== null ? ` t-${controller}` : ""}`, "data-slot": slot.slot },
        el("h3", { class: "dm-slot-head" }, fmt(_("Slot %(n)s"), { n: slot.slot })),
        el("p", { class: "dm-accepts" }, el("span", { class: "visually-hidden" }, _("accepts")), slot.accepts.map((colour) => colourChip(el, colour))),
        slot.highlighted.length ? el("p", { class: "badge warn" }, _("missing colour")) : null,
        top ? cardFace(view, payload, ui, top.card, top) : el("p", { class: "dm-empty muted" }, _("empty")),
        slot.stack.length > 1 ? el("p", { class: "muted dm-under" }, fmt(ngettext("%(n)s card beneath", "%(n)s cards beneath", slot.stack.length - 1), { n: slot.stack.length - 1 })) : null,
        pendingHere ? el("p", { class: "badge" }, _("pending")) : null);
      for (const action of drops.filter((a) => a.slot === slot.slot)) {
        const label = action.colour ? fmt(_("Play here as %(colour)s"), { colour: colourName(action.colour) }) : _("Play here");
        item.append(el("button", { type: "button", class: "dm-drop", "data-slot": slot.slot, "data-key": `drop-${slot.slot}-${action.colour || ""}`, onclick: () => play(action, ui) }, label));
      }
      return item;
    })));
}

function play(action, ui) {
  selected = null;
  ui.act(action);
}

function wheelPanel(view, payload, ui) {
  const { el } = ui;
  const spinning = view.pending && view.pending.kind === "spin";
  const last = view.last_spin;
  if (!spinning && !last) return null;
  const { labels, weights } = view.wheel;
  const total = weights.reduce((a, b) => a + b, 0);
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "-50 -50 100 100");
  svg.setAttribute("class", "dm-wheel-svg");
  svg.setAttribute("aria-hidden", "true");
  const disc = document.createElementNS(ns, "g");
  disc.setAttribute("class", "dm-wheel-disc");
  let start = 0;
  const centres = {};
  labels.forEach((label, index) => {
    const sweep = (weights[index] / total) * 360;
    const a0 = ((start - 90) * Math.PI) / 180;
    const a1 = ((start + sweep - 90) * Math.PI) / 180;
    const path = document.createElementNS(ns, "path");
    const large = sweep > 180 ? 1 : 0;
    path.setAttribute("d", `M0 0 L${46 * Math.cos(a0)} ${46 * Math.sin(a0)} A46 46 0 ${large} 1 ${46 * Math.cos(a1)} ${46 * Math.sin(a1)} Z`);
    path.setAttribute("class", `seg s-${index % 4}`);
    disc.append(path);
    const mid = ((start + sweep / 2 - 90) * Math.PI) / 180;
    const text = document.createElementNS(ns, "text");
    text.setAttribute("x", String(30 * Math.cos(mid)));
    text.setAttribute("y", String(30 * Math.sin(mid) + 4));
    text.setAttribute("text-anchor", "middle");
    text.setAttribute("class", "dm-label");
    text.textContent = label;
    disc.append(text);
    centres[label] = start + sweep / 2;
    start += sweep;
  });
  svg.append(disc);
  const pointer = document.createElementNS(ns, "path");
  pointer.setAttribute("d", "M-5 -50 L5 -50 L0 -40 Z");
  pointer.setAttribute("class", "pointer");
  svg.append(pointer);
  const key = spinKey(view);
  let caption;
  const box = el("section", { class: "panel dm-wheel", "aria-labelledby": "dm-wheel-title", "data-result": spinning ? "" : last.result },
    el("h2", { id: "dm-wheel-title" }, _("The Equalizer")));
  if (spinning) {
    box.classList.add("spinning");
    caption = _("The Equalizer is spinning: it lands when the window closes.");
  } else {
    caption = last.cleared && last.cleared.length
      ? fmt(ngettext("It landed on %(result)s and cleared slot %(slots)s.", "It landed on %(result)s and cleared slots %(slots)s.", last.cleared.length), { result: last.result, slots: last.cleared.join(", ") })
      : fmt(_("It landed on %(result)s."), { result: last.result });
    // The pointer sits at the top: turn the disc so the result's segment centre meets it,
    // always forwards by whole turns, from where the last spin left it.
    const target = 360 - centres[last.result];
    const from = wheelAngle;
    let to = from - (from % 360) + target;
    if (to < from) to += 360;
    if (key !== lastSpinKey) to += 3 * 360; // a spin made while the page watched: it turns
    else wheelAngle = to; // the spin the page opened on, or drawn again: no motion
    lastSpinKey = key;
    // Each number turns back by as much as the disc turns, about its own centre and on the
    // same timing: the numbers stay upright while the wheel turns under them.
    const turn = (angle) => {
      disc.style.transform = `rotate(${angle}deg)`;
      for (const label of disc.querySelectorAll(".dm-label")) label.style.transform = `rotate(${-angle}deg)`;
    };
    turn(wheelAngle);
    if (to !== wheelAngle && !reducedMotion()) {
      requestAnimationFrame(() => requestAnimationFrame(() => turn(to)));
    } else turn(to);
    wheelAngle = to;
  }
  box.append(svg, el("p", { class: "dm-wheel-caption" }, caption));
  return box;
}

function handPanel(view, payload, ui) {
  const { el } = ui;
  const legal = legalOf(payload);
  const spin = legal.find((action) => action.type === "spin");
  const pass = legal.find((action) => action.type === "pass");
  const chooses = legal.filter((action) => action.type === "choose");
  const playable = new Set(legal.filter((a) => a.type === "drop").map((a) => a.card));
  if (selected && !playable.has(selected)) selected = null;
  const panel = el("section", { class: "panel dm-hand", "aria-labelledby": "dm-hand-title" },
    el("h2", { id: "dm-hand-title" }, _("Your hand")));
  if (chooses.length) {
    panel.append(el("p", {}, _("Choose a card from your deck:")),
      el("ul", { class: "dm-cards" }, chooses.map((action) => el("li", {},
        el("button", { type: "button", class: "dm-choose", "data-card": action.card, "data-key": `choose-${action.card}`, onclick: () => ui.act(action) }, cardFace(view, payload, ui, action.card))))));
  }
  panel.append(el("ul", { class: "dm-cards", "data-zone": "hand" }, view.hand.map((id) => {
    const can = playable.has(id);
    return el("li", {}, el("button", {
      type: "button",
      class: `dm-hand-card${selected === id ? " selected" : ""}`,
      "data-card": id,
      "data-key": `hand-${id}`,
      "aria-pressed": selected === id ? "true" : "false",
      "aria-disabled": can ? null : "true",
      onclick: () => {
        if (!can) {
          ui.toast(_("That card cannot be played now."));
          return;
        }
        selected = selected === id ? null : id;
        ui.redraw();
      },
    }, cardFace(view, payload, ui, id)));
  })));
  if (!view.hand.length) panel.append(el("p", { class: "muted" }, _("Your hand is empty.")));
  const buttons = [];
  if (spin) buttons.push(el("button", { type: "button", class: "dm-spin", "data-key": "spin", onclick: () => ui.act(spin) }, _("Spin the Equalizer")));
  if (pass) buttons.push(el("button", { type: "button", class: "dm-pass secondary", "data-key": "pass", onclick: () => ui.act(pass) }, _("Pass the extra moves")));
  if (buttons.length) panel.append(el("p", { class: "dm-actions" }, buttons));
  return panel;
}

function playersPanel(view, payload, ui) {
  const { el } = ui;
  return el("section", { class: "panel dm-players", "aria-labelledby": "dm-players-title" },
    el("h2", { id: "dm-players-title" }, _("Players")),
    el("ul", { class: "dm-player-list" }, view.players.map((player) => el("li", { class: `t-${player.side}` },
      teamMark(el, player.side), " ",
      el("strong", {}, player.seat === payload.seat ? fmt(_("%(name)s (you)"), { name: ui.seatName(player.seat) }) : ui.seatName(player.seat)),
      " · ", fmt(_("hand %(hand)s · deck %(deck)s · discards %(discards)s"), { hand: player.hand_count, deck: player.deck_count, discards: player.discard_count })))));
}

function installKeys(payload, ui) {
  keysFor = { payload, ui };
  if (installKeys.done) return;
  installKeys.done = true;
  document.addEventListener("keydown", (event) => {
    if (!keysFor || event.altKey || event.ctrlKey || event.metaKey) return;
    if (["INPUT", "SELECT", "TEXTAREA"].includes(event.target.tagName)) return;
    const { payload: current, ui: currentUi } = keysFor;
    if (event.key === "Escape" && selected) {
      selected = null;
      currentUi.redraw();
      return;
    }
    if (!selected || !/^[1-5]$/.test(event.key)) return;
    const action = dropsFor(current, selected).find((a) => a.slot === Number(event.key));
    if (!action) return;
    event.preventDefault();
    play(action, currentUi);
  });
}

export default {
  /** Who may act now, from the public view alone: the one choosing, the one who may take a
   * move back, or the side to play (its base movers, or all of it for extra moves). */
  toAct(payload) {
    const view = payload.view;
    if (view.winner !== null) return [];
    if (view.choosing) return [view.choosing.seat];
    if (view.pending && (view.pending.kind === "spin" || !view.moves_left.base)) return [view.pending.seat];
    if (view.moves_left.base) return view.moves_left.base_movers;
    return view.sides[view.active_side];
  },

  word(key, value, payload, ui) {
    const view = payload && payload.view;
    if (!view) return undefined;
    if (key === "side" && Number.isInteger(value)) return sideLabel(view, payload, value, ui);
    if (key === "card" && typeof value === "string") return cardTitle(view, value);
    if (key === "colour" && COLOURS[value]) return colourName(value);
    // the colours a slot accepts, sent as "red, blue" (a list said without an English "or")
    if (key === "accepts" && typeof value === "string") return value.split(", ").map(colourName).join(", ");
    return undefined;
  },

  render(container, payload, ui) {
    const view = payload.view;
    if (lastSpinKey === undefined) lastSpinKey = spinKey(view);
    const active = document.activeElement;
    const focusKey = active && container.contains(active) ? active.dataset.key : null;
    const parts = [scoresPanel(view, payload, ui), movesPanel(view, payload, ui), slotsPanel(view, payload, ui)];
    const wheel = wheelPanel(view, payload, ui);
    if (wheel) parts.push(wheel);
    if (payload.seat !== null && view.hand) parts.push(handPanel(view, payload, ui));
    parts.push(playersPanel(view, payload, ui));
    container.replaceChildren(ui.el("div", { class: `dm dm-${view.format}` }, parts));
    if (payload.seat !== null) installKeys(payload, ui);
    if (focusKey) {
      const again = container.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
      if (again) again.focus();
    }
  },

  tick(container) {
    for (const node of container.querySelectorAll(".dm-countdown")) {
      const left = Math.max(0, (Number(node.dataset.deadline) - performance.now()) / 1000);
      node.textContent = fmt(_("%(s)s s left"), { s: Math.ceil(left) });
    }
  },

  describe() {
    return [];
  },

  /** A seat's hand, for the replay after the end (when every hand may be shown). */
  hidden(own, ui) {
    const view = { cards: own.cards || {}, players: [] };
    const hand = own.hand || [];
    return hand.length
      ? ui.el("ul", { class: "dm-cards" }, hand.map((id) => ui.el("li", {}, cardFace(view, { seat: null }, ui, id))))
      : ui.el("p", { class: "muted" }, _("none"));
  },

  endReason(payload) {
    const view = payload.view;
    return view ? fmt(ngettext("A side reached %(n)s point.", "A side reached %(n)s points.", view.target), { n: view.target }) : "";
  },
};
