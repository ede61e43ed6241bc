// Drafting Trios board: the pile (pick one, discard one), the hand, both players' 11
// categories, the power cards with their costs, the three playing-phase actions, and who has
// chosen in the current secret step. Every control comes from the server's legal actions
// (payload.legal): the page never decides what is allowed.

const { gettext, ngettext, interpolate } = window;
const _ = (text) => gettext(text);
const fmt = (text, params) => interpolate(text, params, true); // text already translated

const COLOUR_NAMES = { R: () => _("red"), G: () => _("green"), B: () => _("blue"), Y: () => _("yellow") };
// A shape per colour, so that colour is never the only cue (as in Color Clash).
const SYMBOLS = { R: "●", G: "◆", B: "■", Y: "▲" };
const CATEGORY_NAMES = {
  all_red: () => _("All Red"),
  all_blue: () => _("All Blue"),
  all_green: () => _("All Green"),
  all_yellow: () => _("All Yellow"),
  high_cards: () => _("High Cards"),
  low_cards: () => _("Low Cards"),
  double_trouble: () => _("DoubleTrouble"),
  triple_threat: () => _("TripleThreat"),
  low_straight: () => _("Low Straight"),
  high_straight: () => _("High Straight"),
  royal_flush: () => _("Royal Flush"),
};
const CATEGORY_RULES = {
  all_red: () => _("5 per red card, plus the highest value if all three are red"),
  all_blue: () => _("5 per blue card, plus the highest value if all three are blue"),
  all_green: () => _("5 per green card, plus the highest value if all three are green"),
  all_yellow: () => _("5 per yellow card, plus the highest value if all three are yellow"),
  high_cards: () => _("sum of the values; +3 for three different colours"),
  low_cards: () => _("20 minus the sum; +3 for three different colours"),
  double_trouble: () => _("20 if two share a value; +3 for three different colours"),
  triple_threat: () => _("35 if all three share a value; +3 three colours, +7 one colour"),
  low_straight: () => _("25 for three in a row up to 4; +3 for three different colours"),
  high_straight: () => _("25 for three in a row from 3; +3 for three different colours"),
  royal_flush: () => _("50 for 4, 5, 6 of one colour"),
};
const POWERS = {
  visible_zero: { name: () => _("VisibleZero"), cost: "0", effect: () => _("+30 points") },
  plus_one: { name: () => _("Plus One"), cost: "1", effect: () => _("draw a card now; your hand holds one more card for the rest of the game (once)") },
  mulligan: { name: () => _("Mulligan"), cost: "2–4", effect: () => _("two mulligan charges: redraw both piles instead of a later first pick (once)") },
  heart_of_the_cards: { name: () => _("Heart of the Cards"), cost: "5–6", effect: () => _("for the next two rounds, name a card to bring to the top of your deck") },
  conversion: { name: () => _("Conversion"), cost: "7", effect: () => _("one of your open categories scores by another rule (once)") },
  earthquake: { name: () => _("Earthquake"), cost: "7–9", effect: () => _("destroy a category that is open for both players") },
  bonus: { name: () => _("Bonus"), cost: "8–10", effect: () => _("one of your open categories scores ×1.5") },
  get_even: { name: () => _("Get Even"), cost: "2, 4, 6, 8, 10, 12", effect: () => _("at the end, each of your open categories scores 15 (once)") },
  burn: { name: () => _("Burn"), cost: "11–12", effect: () => _("this round and the next, your opponent discards the rest of their hand") },
};
const END_REASONS = {
  total: () => _("The higher total wins."),
  power_cards_activated: () => _("Tied on points: more power cards activated wins."),
  dmo: () => _("Tied on points and power cards: the DMO wins."),
  timeout: () => _("A reserve clock ran out: that player loses the Death Match."),
  timeout_tie_dmo: () => _("Both reserves ran out at the same moment: the DMO wins."),
};

const isPower = (card) => card in POWERS;
const categoryName = (id) => (CATEGORY_NAMES[id] ? CATEGORY_NAMES[id]() : id);
// Key order is not part of a payload's meaning (the database stores JSON with its own order).
const canonical = (value) => {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") return Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical(value[k])]));
  return value;
};
const same = (a, b) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
const sorted = (cards) => cards.slice().sort();

// The seats' roles in a Genius season's Death Match, said in words beside their badges.
const ROLE_NAMES = {
  EC: () => _("Elimination Candidate"),
  DMO: () => _("Death Match Opponent"),
};

function cardLabel(card) {
  if (isPower(card)) return fmt(_("%(name)s (power card)"), { name: POWERS[card].name() });
  return fmt(_("%(colour)s %(value)s"), { colour: COLOUR_NAMES[card[0]](), value: card.slice(1) });
}

function cardFace(ui, card, extra = {}) {
  const { el } = ui;
  if (isPower(card)) {
    return el("span", { class: "dt-card power", "data-card": card, ...extra },
      POWERS[card].cost.length <= 3 ? el("span", { class: "dt-corner", "aria-hidden": "true" }, POWERS[card].cost) : null,
      el("span", { class: "dt-symbol", "aria-hidden": "true" }, "★"),
      el("span", { class: "dt-name" }, POWERS[card].name()));
  }
  return el("span", { class: `dt-card c-${card[0]}`, "data-card": card, ...extra },
    el("span", { class: "dt-corner", "aria-hidden": "true" }, card.slice(1), el("span", { class: "dt-corner-shape" }, SYMBOLS[card[0]])),
    el("span", { class: "dt-value" }, card.slice(1), el("span", { class: "dt-symbol", "aria-hidden": "true" }, SYMBOLS[card[0]])),
    el("span", { class: "dt-colour" }, COLOUR_NAMES[card[0]]()));
}

function cardsText(cards) {
  return cards.map(cardLabel).join(", ");
}

// The seat's selection survives re-renders while its cards and step are unchanged.
let selection = { key: "", picks: [] };
const drawn = new Map(); // part of the board -> the signature it was last drawn from
let keyHandler = null;

function selectionFor(key) {
  if (selection.key !== key) selection = { key, picks: [] };
  return selection;
}

export default {
  word(key, value) {
    if (key === "category") return categoryName(value);
    if ((key === "card" || key === "power") && POWERS[value]) return POWERS[value].name();
    return undefined;
  },

  reserveFirst: true,
  simultaneous: true,

  toAct(payload) {
    return payload.view.to_act || [];
  },

  render(container, payload, ui) {
    const view = payload.view;
    const { el } = ui;
    const me = payload.seat;
    let board = container.querySelector(".dt");
    if (!board) {
      const slot = (name) => el("div", { "data-slot": name });
      board = el("div", { class: "dt" },
        el("div", { class: "dt-main" }, slot("status"), slot("mine"), slot("revealed"), slot("powers")), slot("sheets"));
      container.replaceChildren(board);
      drawn.clear();
    }
    const names = payload.seats.map((s) => ui.seatName(s.number));
    const mine = me !== null && view.hand !== undefined;
    const myState = mine ? view.seats[String(me)] : null;
    // Each part is redrawn only when what it shows changed: a button the player is about to
    // press is not replaced because the opponent chose.
    const parts = {
      status: [[view.round, view.stage, view.step, view.to_act, view.chosen, names], () => statusPanel(view, payload, ui)],
      mine: [
        mine ? [view.round, view.stage, view.step, view.hand, view.pile, view.picks, view.discards, view.my_choice,
          view.named_card, payload.legal, payload.status, myState.mulligan_charges, selection.key, selection.picks] : null,
        () => (mine ? myPanel(view, payload, ui) : ""),
      ],
      revealed: [[view.revealed, view.seats, names], () => revealedPanel(view, payload, ui)],
      powers: [[myState && myState.once_used], () => powersPanel(view, payload, ui)],
      sheets: [[view.seats, names, me], () => sheetPanel(view, payload, ui)],
    };
    const focusKey = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key : null;
    for (const [name, [deps, build]] of Object.entries(parts)) {
      const signature = JSON.stringify(canonical(deps));
      if (drawn.get(name) === signature) continue;
      drawn.set(name, signature);
      const slot = board.querySelector(`[data-slot="${name}"]`);
      const wasOpen = slot.querySelector("details[open]") !== null;
      if (name === "mine") installKeys(0, null, null, null);
      slot.replaceChildren(build());
      if (wasOpen) slot.querySelector("details")?.setAttribute("open", "");
    }
    if (focusKey && !container.contains(document.activeElement)) {
      const again = container.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
      if (again) again.focus();
    }
  },

  describe(previous, payload, ui) {
    const before = previous.view;
    const view = payload.view;
    const lines = [];
    const name = (seat) => (seat === payload.seat ? _("You") : ui.seatName(seat));
    if (!same(before.revealed, view.revealed) && view.revealed.length) {
      // An Earthquake chosen again adds to the round's revealed plays: log only what is new.
      const known = before.revealed.length <= view.revealed.length
        && same(before.revealed, view.revealed.slice(0, before.revealed.length)) ? before.revealed.length : 0;
      for (const action of view.revealed.slice(known)) lines.push(revealedLine(action, view, name));
    }
    if (view.round !== before.round && view.stage === "draft") {
      lines.push(fmt(_("Round %(n)s: drafting begins."), { n: view.round }));
    } else if (view.stage === "draft" && view.step !== before.step && before.stage === "draft") {
      lines.push(fmt(_("Drafting step %(n)s is done; the piles were swapped."), { n: before.step + 1 }));
    }
    if (view.stage === "play" && before.stage !== "play") lines.push(_("Drafting is over: both players choose their play in secret."));
    if (view.stage === "name" && before.stage !== "name") lines.push(_("Heart of the Cards: a card is being named in secret."));
    if (view.stage === "quake" && before.stage !== "quake") lines.push(_("An Earthquake's target was filled: its player chooses again."));
    if (["play", "quake", "name"].includes(view.stage) && view.stage === before.stage) {
      for (const seat of ["0", "1"]) {
        if (view.chosen[seat] && !before.chosen[seat]) lines.push(fmt(_("%(name)s has chosen."), { name: name(Number(seat)) }));
      }
    }
    if (view.result && !before.result) {
      const reason = END_REASONS[view.result.decided_by];
      lines.push(fmt(_("%(name)s wins the Death Match."), { name: ui.seatName(view.result.winner) }) + (reason ? ` ${reason()}` : ""));
    }
    return lines;
  },

  /** A seat's hidden cards, for the replay after the end (when every hand may be shown). */
  hidden(own, ui) {
    const { el } = ui;
    const zone = (title, cards) => el("div", { class: "dt-hidden-zone" }, el("h4", {}, title),
      cards && cards.length ? el("ol", { class: "dt-cards static" }, cards.map((card) => el("li", {}, cardFace(ui, card)))) : el("p", { class: "muted" }, _("none")));
    return el("div", { class: "dt-hidden" }, zone(_("Hand"), own.hand), zone(_("Pile"), own.pile));
  },

  endReason(payload) {
    const result = payload.view && payload.view.result;
    const reason = result && END_REASONS[result.decided_by];
    return reason ? reason() : "";
  },
};

function revealedLine(action, view, name) {
  const who = name(action.seat);
  if (action.type === "trio") {
    const entry = view.seats[String(action.seat)].categories[action.category];
    const scored = entry ? entry.score : 0;
    return fmt(ngettext("%(name)s scored %(points)s point in %(category)s with %(cards)s.", "%(name)s scored %(points)s points in %(category)s with %(cards)s.", scored), {
      name: who, points: entry ? entry.score : 0, category: categoryName(action.category), cards: cardsText(action.cards),
    });
  }
  if (action.type === "power") {
    const power = POWERS[action.card] ? POWERS[action.card].name() : action.card;
    let target = "";
    if (action.rule) target = fmt(_(" on %(category)s, now scored as %(rule)s"), { category: categoryName(action.category), rule: categoryName(action.rule) });
    else if (action.category) target = fmt(_(" on %(category)s"), { category: categoryName(action.category) });
    return fmt(_("%(name)s activated %(power)s%(target)s, paying with %(cards)s."), { name: who, power, target, cards: cardsText(action.cost) });
  }
  if (action.type === "discard") {
    const points = action.cards.every(isPower) ? 10 : 5;
    return fmt(ngettext("%(name)s discarded %(cards)s for %(points)s point.", "%(name)s discarded %(cards)s for %(points)s points.", points), { name: who, cards: cardsText(action.cards), points });
  }
  if (action.type === "earthquake") {
    return fmt(_("%(name)s's Earthquake destroyed %(category)s."), { name: who, category: categoryName(action.category) });
  }
  return fmt(_("%(name)s passed."), { name: who });
}

// -- the status of the current step ---------------------------------------------------------
function statusPanel(view, payload, ui) {
  const { el } = ui;
  const stage = {
    draft: () => fmt(_("Round %(round)s · drafting, step %(step)s"), { round: view.round, step: view.step + 1 }),
    play: () => fmt(_("Round %(round)s · playing"), { round: view.round }),
    name: () => fmt(_("Round %(round)s · naming a card (Heart of the Cards)"), { round: view.round }),
    quake: () => fmt(_("Round %(round)s · choosing an Earthquake target again"), { round: view.round }),
    over: () => _("The Death Match is over"),
  }[view.stage];
  const chosen = ["0", "1"].map((seat) => {
    const number = Number(seat);
    const owes = view.to_act.includes(number);
    const done = view.chosen[seat];
    const who = number === payload.seat ? _("You") : ui.seatName(number);
    const role = view.roles[seat];
    let state;
    if (view.stage === "over") state = "";
    else if (done) state = _("chosen, secret until both have chosen");
    else if (owes) state = _("choosing…");
    else state = _("nothing to choose");
    return el("li", { class: done ? "chosen" : owes ? "choosing" : "" },
      el("strong", {}, who), " ", el("span", { class: "badge" }, role), state ? `: ${state}` : "",
      ROLE_NAMES[role] ? el("span", { class: "dt-role-name" }, ` (${ROLE_NAMES[role]()})`) : null);
  });
  return el("section", { class: "panel dt-status", "aria-label": _("This step") },
    el("p", { class: "dt-aim" }, _("Aim: outscore your opponent. A tie goes to more power cards activated, then to the DMO.")),
    el("p", { class: "dt-stage" }, stage ? stage() : view.stage),
    el("ul", { class: "dt-chosen" }, chosen));
}

// -- the seat's own pile, hand and choices --------------------------------------------------
function myPanel(view, payload, ui) {
  const { el } = ui;
  const legal = payload.status === "running" ? payload.legal || [] : [];
  const section = el("section", { class: "panel dt-mine", "aria-labelledby": "dt-mine-title" },
    el("h2", { id: "dt-mine-title" }, _("Your cards")));
  if (view.my_choice) {
    section.append(el("p", { class: "dt-locked", role: "status" }, fmt(_("Your choice is locked in: %(choice)s. Waiting for your opponent."), { choice: choiceText(view.my_choice) })));
  }
  if (view.stage === "draft") section.append(pileBlock(view, legal, ui));
  section.append(handBlock(view, legal, ui));
  if (view.stage === "name" && legal.length) section.append(nameBlock(legal, ui));
  if (view.stage === "quake" && legal.length) section.append(quakeBlock(legal, ui));
  if (view.picks.length || view.discards.length) {
    section.append(el("p", { class: "muted dt-drafted" },
      view.picks.length ? fmt(_("Drafted this round: %(cards)s."), { cards: cardsText(view.picks) }) : "",
      " ",
      view.discards.length ? fmt(_("Discarded while drafting: %(cards)s."), { cards: cardsText(view.discards) }) : ""));
  }
  if (view.named_card) {
    section.append(el("p", { class: "muted" }, fmt(_("You named %(card)s for Heart of the Cards."), { card: cardLabel(view.named_card) })));
  }
  return section;
}

function choiceText(choice) {
  if (choice.type === "draft") {
    return choice.discard ? fmt(_("take %(pick)s, discard %(discard)s"), { pick: cardLabel(choice.pick), discard: cardLabel(choice.discard) }) : fmt(_("take %(pick)s"), { pick: cardLabel(choice.pick) });
  }
  if (choice.type === "mulligan") return _("spend a mulligan charge");
  if (choice.type === "trio") return fmt(_("a trio for %(category)s"), { category: categoryName(choice.category) });
  if (choice.type === "power") return fmt(_("activate %(power)s"), { power: POWERS[choice.card].name() });
  if (choice.type === "discard") return _("discard three cards");
  if (choice.type === "name") return fmt(_("name %(card)s"), { card: cardLabel(choice.card) });
  if (choice.type === "earthquake") return fmt(_("destroy %(category)s"), { category: categoryName(choice.category) });
  return _("pass");
}

function cardButtons(cards, chosenRoles, onToggle, ui, zone) {
  const { el } = ui;
  return el("ol", { class: "dt-cards", "data-zone": zone },
    cards.map((card, index) => {
      const role = chosenRoles[index];
      return el("li", {},
        el("button", {
          type: "button", class: `dt-pick${role ? " selected" : ""}`, "aria-pressed": role ? "true" : "false",
          "data-key": `${zone}-${index}`, onclick: () => onToggle(index),
        }, el("span", { class: "visually-hidden" }, `${index + 1}.`), cardFace(ui, card), role ? el("span", { class: "dt-role" }, role) : null));
    }));
}

function pileBlock(view, legal, ui) {
  const { el } = ui;
  const pile = view.pile;
  const block = el("div", { class: "dt-pile-block" });
  const drafts = legal.filter((a) => a.type === "draft");
  block.append(el("h3", {}, fmt(ngettext("Your pile (%(n)s card)", "Your pile (%(n)s cards)", pile.length), { n: pile.length })));
  if (!pile.length) {
    block.append(el("p", { class: "muted" }, _("Your pile is empty until the next step.")));
    return block;
  }
  if (!drafts.length) {
    block.append(cardButtons(pile, {}, () => {}, ui, "pile"));
    return block;
  }
  if (pile.length === 1) {
    block.append(cardButtons(pile, {}, () => {}, ui, "pile"),
      el("button", { type: "button", "data-key": "take-last", onclick: () => ui.act(drafts[0]) }, fmt(_("Take %(card)s"), { card: cardLabel(pile[0]) })));
    return block;
  }
  const sel = selectionFor(`draft:${view.round}:${view.step}:${pile.join()}`);
  const [pick, discard] = sel.picks;
  const roles = {};
  if (pick !== undefined) roles[pick] = _("pick");
  if (discard !== undefined) roles[discard] = _("discard");
  const toggle = (index) => {
    const at = sel.picks.indexOf(index);
    if (at >= 0) sel.picks.splice(at, 1);
    else if (sel.picks.length < 2) sel.picks.push(index);
    ui.redraw();
  };
  block.append(el("p", { class: "dt-hint" }, _("Choose the card to take into your hand, then the card to discard.")));
  block.append(cardButtons(pile, roles, toggle, ui, "pile"));
  const action = sel.picks.length === 2 ? drafts.find((a) => a.pick === pile[pick] && a.discard === pile[discard]) : null;
  const confirm = el("button", {
    type: "button", class: "dt-confirm", "data-key": "confirm-draft", disabled: !action,
    onclick: async () => { if (action && (await ui.act(action))) sel.picks = []; },
  }, action ? fmt(_("Take %(pick)s, discard %(discard)s"), { pick: cardLabel(action.pick), discard: cardLabel(action.discard) }) : _("Confirm the draft"));
  const actions = el("div", { class: "dt-actions" }, confirm);
  if (sel.picks.length) actions.append(el("button", { type: "button", class: "secondary", "data-key": "clear", onclick: () => { sel.picks = []; ui.redraw(); } }, _("Clear")));
  const mulligan = legal.find((a) => a.type === "mulligan");
  if (mulligan) {
    actions.append(el("button", { type: "button", class: "secondary", "data-key": "mulligan", onclick: () => ui.act(mulligan) },
      fmt(_("Spend a mulligan charge (%(n)s left): both piles are redrawn"), { n: view.seats[String(view.you)].mulligan_charges })));
  }
  block.append(actions);
  installKeys(pile.length, toggle, () => action && confirm.click(), () => { sel.picks = []; ui.redraw(); });
  return block;
}

function handBlock(view, legal, ui) {
  const { el } = ui;
  const hand = view.hand;
  const block = el("div", { class: "dt-hand-block" }, el("h3", {}, fmt(ngettext("Your hand (%(n)s card)", "Your hand (%(n)s cards)", hand.length), { n: hand.length })));
  const plays = legal.filter((a) => ["trio", "power", "discard", "pass"].includes(a.type));
  if (view.stage !== "play" || !plays.length) {
    block.append(hand.length ? el("ol", { class: "dt-cards static", "data-zone": "hand" }, hand.map((card) => el("li", {}, cardFace(ui, card)))) : el("p", { class: "muted" }, _("No cards in your hand yet.")));
    return block;
  }
  const pass = plays.find((a) => a.type === "pass");
  if (pass) {
    block.append(el("ol", { class: "dt-cards static", "data-zone": "hand" }, hand.map((card) => el("li", {}, cardFace(ui, card)))),
      el("p", {}, _("You hold fewer than three cards: you can only pass.")),
      el("button", { type: "button", "data-key": "pass", onclick: () => ui.act(pass) }, _("Pass")));
    return block;
  }
  const sel = selectionFor(`play:${view.round}:${view.stage}:${hand.join()}`);
  const toggle = (index) => {
    const at = sel.picks.indexOf(index);
    if (at >= 0) sel.picks.splice(at, 1);
    else if (sel.picks.length < 3) sel.picks.push(index);
    ui.redraw();
  };
  const roles = {};
  for (const index of sel.picks) roles[index] = _("selected");
  block.append(el("p", { class: "dt-hint" }, _("Select three cards: a trio for one of your open categories, a power card with two cards paying its cost, or three cards to discard for 5 points.")));
  block.append(cardButtons(hand, roles, toggle, ui, "hand"));
  const chosen = sorted(sel.picks.map((i) => hand[i]));
  const options = el("div", { class: "dt-options", "aria-live": "polite" });
  if (chosen.length === 3) {
    const trios = plays.filter((a) => a.type === "trio" && same(a.cards, chosen));
    const discard = plays.find((a) => a.type === "discard" && same(a.cards, chosen));
    const powers = plays.filter((a) => a.type === "power" && same(sorted([a.card, ...a.cost]), chosen));
    if (trios.length) {
      options.append(el("h4", {}, _("Score a trio in")),
        el("div", { class: "dt-option-row" }, trios.map((a) =>
          el("button", { type: "button", "data-key": `trio-${a.category}`, onclick: () => ui.act(a) }, categoryName(a.category)))));
    }
    for (const [power, group] of groupBy(powers, (a) => a.card)) options.append(powerChoice(power, group, ui));
    if (discard) {
      const points = discard.cards.every(isPower) ? 10 : 5;
      options.append(el("div", { class: "dt-option-row" },
        el("button", { type: "button", class: "secondary", "data-key": "discard", onclick: () => ui.act(discard) }, fmt(ngettext("Discard these three for %(points)s point", "Discard these three for %(points)s points", points), { points }))));
    }
    if (!trios.length && !powers.length && !discard) options.append(el("p", { class: "muted" }, _("These three cards make no legal play.")));
  } else {
    options.append(el("p", { class: "muted" }, fmt(_("Cards selected: %(n)s of 3."), { n: chosen.length })));
  }
  block.append(options);
  const first = options.querySelector("button");
  installKeys(hand.length, toggle, () => first && first.click(), () => { sel.picks = []; ui.redraw(); });
  return block;
}

function powerChoice(power, group, ui) {
  const { el } = ui;
  const name = POWERS[power].name();
  const row = el("div", { class: "dt-option-row" });
  const label = (a) => {
    if (a.rule) return fmt(_("%(category)s → scored as %(rule)s"), { category: categoryName(a.category), rule: categoryName(a.rule) });
    if (a.category) return categoryName(a.category);
    return fmt(_("Activate %(power)s"), { power: name });
  };
  if (group.length <= 11) {
    if (group[0].category) row.append(el("h4", {}, fmt(_("Activate %(power)s on"), { power: name })));
    row.append(...group.map((a, i) => el("button", { type: "button", "data-key": `power-${power}-${i}`, onclick: () => ui.act(a) }, label(a))));
    return row;
  }
  const id = `power-target-${power}`;
  const select = el("select", { id }, group.map((a, i) => el("option", { value: String(i) }, label(a))));
  row.append(el("label", { for: id }, fmt(_("Activate %(power)s on"), { power: name })), select,
    el("button", { type: "button", "data-key": `power-${power}`, onclick: () => ui.act(group[Number(select.value)]) }, fmt(_("Activate %(power)s"), { power: name })));
  return row;
}

function nameBlock(legal, ui) {
  const { el } = ui;
  const select = el("select", { id: "dt-name-card" }, legal.map((a, i) => el("option", { value: String(i) }, cardLabel(a.card))));
  return el("div", { class: "dt-option-row" },
    el("label", { for: "dt-name-card" }, _("Name a card to bring to the top of your deck")), select,
    el("button", { type: "button", "data-key": "name", onclick: () => ui.act(legal[Number(select.value)]) }, _("Name this card")));
}

function quakeBlock(legal, ui) {
  const { el } = ui;
  return el("div", { class: "dt-option-row" }, el("h4", {}, _("Choose the category your Earthquake destroys")),
    legal.map((a) => el("button", { type: "button", "data-key": `quake-${a.category}`, onclick: () => ui.act(a) }, categoryName(a.category))));
}

function groupBy(items, key) {
  const groups = new Map();
  for (const item of items) {
    const k = key(item);
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(item);
  }
  return groups;
}

function installKeys(count, toggle, confirm, clear) {
  if (keyHandler) document.removeEventListener("keydown", keyHandler);
  keyHandler = null;
  if (!count) return;
  keyHandler = (event) => {
    const target = event.target;
    if (target && ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName)) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const digit = Number(event.key);
    if (digit >= 1 && digit <= Math.min(9, count)) {
      event.preventDefault();
      toggle(digit - 1);
    } else if (event.key === "Enter" && target === document.body) {
      event.preventDefault();
      confirm();
    } else if (event.key === "Escape") {
      clear();
    }
  };
  document.addEventListener("keydown", keyHandler);
}

// -- both scoresheets -------------------------------------------------------------------------
function sheetPanel(view, payload, ui) {
  const { el } = ui;
  const seats = ["0", "1"];
  const order = payload.seat === 1 ? ["1", "0"] : seats;
  const header = el("tr", {}, el("th", { scope: "col" }, _("Category")),
    order.map((seat) => el("th", { scope: "col" }, Number(seat) === payload.seat ? _("You") : ui.seatName(Number(seat)))));
  const rows = Object.keys(CATEGORY_NAMES).map((category) =>
    el("tr", {},
      el("th", { scope: "row" }, el("span", { class: "dt-cat" }, categoryName(category)),
        el("span", { class: "dt-rule muted" }, CATEGORY_RULES[category]())),
      order.map((seat) => sheetCell(category, view.seats[seat].categories[category], ui))));
  const totals = el("tr", { class: "dt-total" }, el("th", { scope: "row" }, _("Total")),
    order.map((seat) => {
      const s = view.seats[seat];
      return el("td", {}, el("strong", { class: "dt-total-score", "data-score-key": `dt-${seat}` }, String(s.total)),
        s.extra_points ? el("span", { class: "muted" }, " ", fmt(_("(extra points: %(n)s)"), { n: s.extra_points })) : null);
    }));
  const zones = el("tr", {}, el("th", { scope: "row" }, _("Cards")),
    order.map((seat) => {
      const s = view.seats[seat];
      return el("td", { class: "muted" }, fmt(_("hand %(hand)s · pile %(pile)s · deck %(deck)s · discards %(discards)s"), {
        hand: s.hand_count, pile: s.pile_count, deck: s.deck_count, discards: s.discard_count,
      }), effects(s, ui));
    }));
  return el("section", { class: "panel dt-sheets", "aria-labelledby": "dt-sheet-title" },
    el("h2", { id: "dt-sheet-title" }, _("Scoresheets")),
    el("div", { class: "table-wrap" }, el("table", { class: "dt-sheet" }, el("thead", {}, header), el("tbody", {}, rows, totals, zones))));
}

function sheetCell(category, entry, ui) {
  const { el } = ui;
  const bonus = entry.bonus ? el("span", { class: "badge" }, _("Bonus ×1.5")) : null;
  const rule = entry.rule !== category
    ? el("span", { class: "dt-converted" }, fmt(_("scores as %(rule)s (Conversion)"), { rule: categoryName(entry.rule) }))
    : null;
  if (entry.state === "filled") {
    return el("td", { class: "dt-filled" }, el("span", { class: "dt-score" }, String(entry.score)), " ", bonus, rule,
      el("span", { class: "dt-trio" }, (entry.trio || []).map((card) => cardFace(ui, card, { class: `dt-card mini ${isPower(card) ? "power" : `c-${card[0]}`}` }))));
  }
  if (entry.state === "destroyed") return el("td", { class: "dt-destroyed" }, _("Destroyed"));
  return el("td", { class: "dt-open" }, _("Open"), " ", bonus, rule);
}

function effects(s, ui) {
  const { el } = ui;
  const parts = [];
  if (s.mulligan_charges) parts.push(fmt(ngettext("%(n)s mulligan charge", "%(n)s mulligan charges", s.mulligan_charges), { n: s.mulligan_charges }));
  if (s.heart_rounds) parts.push(fmt(ngettext("Heart of the Cards for %(n)s more round", "Heart of the Cards for %(n)s more rounds", s.heart_rounds), { n: s.heart_rounds }));
  if (s.burn_rounds) parts.push(fmt(ngettext("burned for %(n)s more round", "burned for %(n)s more rounds", s.burn_rounds), { n: s.burn_rounds }));
  if (s.get_even) parts.push(_("Get Even in force"));
  parts.push(fmt(ngettext("%(n)s power card activated", "%(n)s power cards activated", s.power_cards_activated), { n: s.power_cards_activated }));
  return el("div", { class: "dt-effects" }, parts.join(" · "));
}

// -- the last resolution ------------------------------------------------------------------------
function revealedPanel(view, payload, ui) {
  const { el } = ui;
  const name = (seat) => (seat === payload.seat ? _("You") : ui.seatName(seat));
  const lines = view.revealed.map((action) => el("li", {}, revealedLine(action, view, name)));
  return el("section", { class: "panel dt-revealed", "aria-labelledby": "dt-revealed-title" },
    el("h2", { id: "dt-revealed-title" }, _("Last round revealed")),
    lines.length ? el("ul", {}, lines) : el("p", { class: "muted" }, _("Both players' plays are shown here once both have chosen.")));
}

// -- the power cards ------------------------------------------------------------------------------
function powersPanel(view, payload, ui) {
  const { el } = ui;
  const used = payload.seat !== null ? view.seats[String(payload.seat)].once_used : [];
  return el("details", { class: "panel dt-powers" },
    el("summary", {}, _("Power cards: what they cost and do")),
    el("p", { class: "muted" }, _("Play a power card with two other cards whose values add up to its cost; power cards count as 0.")),
    el("dl", {}, Object.entries(POWERS).flatMap(([id, power]) => [
      el("dt", {}, power.name(), " ", el("span", { class: "badge" }, fmt(_("cost %(cost)s"), { cost: power.cost })),
        used.includes(id) ? el("span", { class: "badge warn" }, _("used")) : null),
      el("dd", {}, power.effect()),
    ])));
}
