"""A round from start to end: naming, drafting steps, the playing phase and its resolution.

Every step is simultaneous: ``submit`` stores a seat's checked choice secretly, and once the
last seat owing a choice has sent it, the step resolves and the next one begins. The order of
a round:

1. Seats with Heart of the Cards rounds left name a card (stage ``name``); each named card's
   first copy from the top of its owner's deck goes to the top.
2. Each player draws a pile from their own deck (10 in round 1, then 6). A player who cannot
   draw a single card makes this round the last one.
3. Drafting steps until both piles are empty: each seat with a non-empty pile picks one card
   into its hand and discards another into its own discard pile (the last card of an odd pile
   is just picked); then the piles are swapped. A Mulligan replaces a later round's first pick.
4. Burned seats draw what Burn made them discard; then the playing phase.
5. Resolution: trios and discards, power abilities, Earthquakes (re-chosen in stage ``quake``
   when the opponent filled the target this round), Burn discards, the end-of-game check.
"""

from __future__ import annotations

from games.engines.base import Action, Event, Rng, State
from games.engines.drafting_trios.cards import EARTHQUAKE, is_power
from games.engines.drafting_trios.config import SHORT_HAND_END_GAME
from games.engines.drafting_trios.ending import end_game
from games.engines.drafting_trios.powers import activate
from games.engines.drafting_trios.scoring import score
from games.engines.drafting_trios.table import (
    DESTROYED,
    DRAFT,
    FILLED,
    FIRST_PILE,
    LATER_PILE,
    NAME,
    OPEN,
    PLAY,
    QUAKE,
    SEATS,
    begin_step,
    draw,
    open_categories,
    open_for_both,
    remove_cards,
)

DISCARD_POINTS = 5
POWER_DISCARD_POINTS = 10


def start_round(state: State, rng: Rng, events: list[Event]) -> None:
    state["round"] += 1
    state["step"] = 0
    state["picks"] = [[], []]
    state["tossed"] = [[], []]
    state["named"] = [None, None]
    state["heart_found"] = [None, None]
    events.append({"type": "round_started", "round": state["round"]})
    namers = [seat for seat in SEATS if state["heart_rounds"][seat] > 0]
    if namers:
        begin_step(state, NAME, namers)
    else:
        _deal_piles(state, rng, events)


def submit(state: State, seat: int, action: Action, rng: Rng) -> list[Event]:
    """Store ``seat``'s checked choice; resolve the step once nobody owes one."""
    state["pending"][seat] = action
    state["waiting"].remove(seat)
    state["order"].append(seat)
    events: list[Event] = [{"type": "chosen", "seat": seat}]
    if not state["waiting"]:
        _RESOLVERS[state["stage"]](state, rng, events)
    return events


def _resolve_names(state: State, rng: Rng, events: list[Event]) -> None:
    for seat in state["order"]:
        state["named"][seat] = state["pending"][seat]["card"]
        state["heart_rounds"][seat] -= 1
        events.append({"type": "card_named", "seat": seat})
    _deal_piles(state, rng, events)


def _deal_piles(state: State, rng: Rng, events: list[Event]) -> None:
    for seat in SEATS:
        named = state["named"][seat]
        if named is not None:
            state["heart_found"][seat] = _move_to_top(state["decks"][seat], named)
    _draw_piles(state, rng, events)


def _move_to_top(deck: list[str], card: str) -> bool:
    """Heart of the Cards: the first copy of ``card`` from the top goes to the top."""
    for index in range(len(deck) - 1, -1, -1):
        if deck[index] == card:
            deck.append(deck.pop(index))
            return True
    return False


def _draw_piles(state: State, rng: Rng, events: list[Event]) -> None:
    size = FIRST_PILE if state["round"] == 1 else LATER_PILE
    for seat in SEATS:
        pile = draw(state, seat, size, rng, events)
        if not pile:
            state["last_round"] = True
            events.append({"type": "no_pile", "seat": seat})
        state["piles"][seat] = pile
    _next_draft_step(state, rng, events)


def _next_draft_step(state: State, rng: Rng, events: list[Event]) -> None:
    drafters = [seat for seat in SEATS if state["piles"][seat]]
    if drafters:
        begin_step(state, DRAFT, drafters)
        return
    for seat in SEATS:
        owed = state["burn_draw"][seat]
        if owed:
            state["hands"][seat].extend(draw(state, seat, owed, rng, events))
            state["burn_draw"][seat] = 0
            events.append({"type": "burn_drawn", "seat": seat, "cards": owed})
    begin_step(state, PLAY, list(SEATS))


def _resolve_draft(state: State, rng: Rng, events: list[Event]) -> None:
    pending = state["pending"]
    spender = next((seat for seat in state["order"] if pending[seat]["type"] == "mulligan"), None)
    if spender is not None:
        _mulligan(state, spender, rng, events)
        return
    for seat in state["order"]:
        choice = pending[seat]
        pile = state["piles"][seat]
        pile.remove(choice["pick"])
        state["hands"][seat].append(choice["pick"])
        state["picks"][seat].append(choice["pick"])
        if choice["discard"] is not None:
            pile.remove(choice["discard"])
            state["discard_piles"][seat].append(choice["discard"])
            state["tossed"][seat].append(choice["discard"])
    state["piles"].reverse()
    state["step"] += 1
    events.append({"type": "piles_swapped", "step": state["step"]})
    _next_draft_step(state, rng, events)


def _mulligan(state: State, spender: int, rng: Rng, events: list[Event]) -> None:
    """Both piles are discarded, both players draw again, the drafting restarts. Only the
    first charge received is spent; the other seat's choice of this step lapses."""
    state["mulligans"][spender] -= 1
    events.append({"type": "mulligan", "seat": spender})
    for seat in SEATS:
        state["discard_piles"][seat].extend(state["piles"][seat])
    _draw_piles(state, rng, events)


def _resolve_play(state: State, rng: Rng, events: list[Event]) -> None:
    actions = state["pending"]
    state["revealed"] = [{"seat": seat, **actions[seat]} for seat in SEATS]
    filled_now: list[set[str]] = [set(), set()]
    for seat in SEATS:
        _play_cards(state, seat, actions[seat], filled_now[seat], events)
    for seat in SEATS:
        if actions[seat]["type"] == "power":
            activate(state, seat, actions[seat], rng, events)
    rechoosers = []
    for seat in SEATS:
        action = actions[seat]
        if action["type"] == "power" and action["card"] == EARTHQUAKE:
            target = action["category"]
            if target in open_for_both(state):
                _destroy(state, seat, target, events)
            elif target in filled_now[1 - seat]:
                rechoosers.append(seat)
    rechoosers = [seat for seat in rechoosers if _may_rechoose(state, seat, events)]
    if rechoosers:
        begin_step(state, QUAKE, rechoosers)
    else:
        _finish_round(state, rng, events)


def _play_cards(
    state: State, seat: int, action: Action, filled_now: set[str], events: list[Event]
) -> None:
    kind = action["type"]
    hand = state["hands"][seat]
    if kind == "trio":
        entry = state["categories"][seat][action["category"]]
        remove_cards(hand, action["cards"])
        entry["state"] = FILLED
        entry["trio"] = list(action["cards"])
        entry["score"] = score(
            entry["rule"], action["cards"], state["config"]["colour_bonus_on_failed_trio"]
        )
        filled_now.add(action["category"])
        events.append(
            {"type": "trio", "seat": seat, "category": action["category"], "score": entry["score"]}
        )
    elif kind == "discard":
        remove_cards(hand, action["cards"])
        state["discard_piles"][seat].extend(action["cards"])
        all_power = all(is_power(card) for card in action["cards"])
        points = POWER_DISCARD_POINTS if all_power else DISCARD_POINTS
        state["extra_points"][seat] += points
        events.append({"type": "discarded", "seat": seat, "points": points})
    elif kind == "power":
        paid = [action["card"], *action["cost"]]
        remove_cards(hand, paid)
        state["discard_piles"][seat].extend(paid)
        events.append({"type": "power", "seat": seat, "card": action["card"]})
    elif state["config"]["short_hand"] == SHORT_HAND_END_GAME:
        state["last_round"] = True


def _may_rechoose(state: State, seat: int, events: list[Event]) -> bool:
    if open_for_both(state):
        events.append({"type": "earthquake_rechoice", "seat": seat})
        return True
    events.append({"type": "earthquake_without_target", "seat": seat})
    return False


def _destroy(state: State, seat: int, category: str, events: list[Event]) -> None:
    for sheet in state["categories"]:
        sheet[category]["state"] = DESTROYED
    events.append({"type": "destroyed", "seat": seat, "category": category})


def _resolve_quake(state: State, rng: Rng, events: list[Event]) -> None:
    for seat in state["order"]:
        category = state["pending"][seat]["category"]
        state["revealed"].append({"seat": seat, "type": "earthquake", "category": category})
        if state["categories"][0][category]["state"] == OPEN:
            _destroy(state, seat, category, events)
    _finish_round(state, rng, events)


def _finish_round(state: State, rng: Rng, events: list[Event]) -> None:
    for seat in SEATS:
        if state["burn_rounds"][seat] > 0:
            hand = state["hands"][seat]
            state["discard_piles"][seat].extend(hand)
            state["burn_draw"][seat] = len(hand)
            state["burn_rounds"][seat] -= 1
            events.append({"type": "burned", "seat": seat, "cards": len(hand)})
            hand.clear()
    closed = [seat for seat in SEATS if not open_categories(state, seat)]
    if closed:
        end_game(state, "categories_closed", events)
    elif state["last_round"]:
        end_game(state, "no_pile", events)
    else:
        start_round(state, rng, events)


_RESOLVERS = {
    NAME: _resolve_names,
    DRAFT: _resolve_draft,
    PLAY: _resolve_play,
    QUAKE: _resolve_quake,
}
