"""The nine power cards: what each costs, which targets it takes, and what it does.

A power card is played with two other cards whose values add up to a value of its cost set
(cost cards may be power cards, worth 0, their ability unused). Earthquake's destruction is
not here: it resolves after every other ability, in ``rounds``.
"""

from __future__ import annotations

from typing import Any

from games.engines.base import Action, Event, Rng, State
from games.engines.drafting_trios.cards import (
    BONUS,
    BURN,
    CONVERSION,
    EARTHQUAKE,
    GET_EVEN,
    HEART_OF_THE_CARDS,
    MULLIGAN,
    PLUS_ONE,
    VISIBLE_ZERO,
)
from games.engines.drafting_trios.scoring import CATEGORIES
from games.engines.drafting_trios.table import draw, open_categories, open_for_both

COST: dict[str, frozenset[int]] = {
    VISIBLE_ZERO: frozenset({0}),
    PLUS_ONE: frozenset({1}),
    MULLIGAN: frozenset({2, 3, 4}),
    HEART_OF_THE_CARDS: frozenset({5, 6}),
    CONVERSION: frozenset({7}),
    EARTHQUAKE: frozenset({7, 8, 9}),
    BONUS: frozenset({8, 9, 10}),
    GET_EVEN: frozenset({2, 4, 6, 8, 10, 12}),
    BURN: frozenset({11, 12}),
}
ONCE_PER_PLAYER = frozenset({PLUS_ONE, MULLIGAN, CONVERSION, GET_EVEN})

VISIBLE_ZERO_POINTS = 30
MULLIGAN_CHARGES = 2
HEART_ROUNDS = 2
BURN_ROUNDS = 2

TARGET_KEYS: dict[str, tuple[str, ...]] = {
    CONVERSION: ("category", "rule"),
    EARTHQUAKE: ("category",),
    BONUS: ("category",),
}


def may_activate(state: State, seat: int, power: str) -> bool:
    return power not in ONCE_PER_PLAYER or power not in state["used"][seat]


def targets(state: State, seat: int, power: str) -> list[dict[str, Any]]:
    """Every target choice ``power`` allows now (``[{}]`` for a card without targets)."""
    if power == EARTHQUAKE:
        return [{"category": category} for category in open_for_both(state)]
    if power == BONUS:
        sheet = state["categories"][seat]
        return [
            {"category": category}
            for category in open_categories(state, seat)
            if not sheet[category]["bonus"]
        ]
    if power == CONVERSION:
        sheet = state["categories"][seat]
        return [
            {"category": category, "rule": rule}
            for category in open_categories(state, seat)
            for rule in CATEGORIES
            if rule != sheet[category]["rule"]
        ]
    return [{}]


def activate(state: State, seat: int, action: Action, rng: Rng, events: list[Event]) -> None:
    """The ability of ``action``'s power card, already paid for."""
    power = action["card"]
    state["activated"][seat] += 1
    if power in ONCE_PER_PLAYER:
        state["used"][seat].append(power)
    if power == VISIBLE_ZERO:
        state["extra_points"][seat] += VISIBLE_ZERO_POINTS
    elif power == PLUS_ONE:
        state["hands"][seat].extend(draw(state, seat, 1, rng, events))
    elif power == MULLIGAN:
        state["mulligans"][seat] += MULLIGAN_CHARGES
    elif power == HEART_OF_THE_CARDS:
        state["heart_rounds"][seat] = HEART_ROUNDS
    elif power == CONVERSION:
        state["categories"][seat][action["category"]]["rule"] = action["rule"]
    elif power == BONUS:
        state["categories"][seat][action["category"]]["bonus"] = True
    elif power == GET_EVEN:
        state["get_even"][seat] = True
    elif power == BURN:
        state["burn_rounds"][1 - seat] = BURN_ROUNDS
