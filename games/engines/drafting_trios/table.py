"""The game state: its shape, and the small moves of cards between zones.

The state is one JSON dict. Per-seat zones are lists indexed by seat (0, 1); every deck is a
list whose end is the top. Stages: ``name`` (Heart of the Cards names a card), ``draft``,
``play``, ``quake`` (an Earthquake target is chosen again), ``over``. ``waiting`` lists the
seats that still owe their choice in the current simultaneous step, ``pending`` holds the
choices received (secret until resolved) and ``order`` the seats in the order they arrived
(the server order the Mulligan rule needs).
"""

from __future__ import annotations

from typing import Any

from games.engines.base import Event, Rng, State
from games.engines.drafting_trios.cards import new_deck
from games.engines.drafting_trios.scoring import CATEGORIES

SEATS = (0, 1)

NAME = "name"
DRAFT = "draft"
PLAY = "play"
QUAKE = "quake"
OVER = "over"
PHASE_OF_STAGE = {NAME: "choice", DRAFT: "draft", PLAY: "play", QUAKE: "choice"}

OPEN = "open"
FILLED = "filled"
DESTROYED = "destroyed"

FIRST_PILE = 10
LATER_PILE = 6


def new_state(config: dict[str, Any], rng: Rng) -> State:
    decks = []
    for _ in SEATS:
        deck = new_deck()
        rng.shuffle(deck)
        decks.append(deck)
    return {
        "config": config,
        "round": 0,
        "stage": DRAFT,
        "step": 0,
        "serial": 0,
        "waiting": [],
        "pending": [None, None],
        "order": [],
        "decks": decks,
        "discard_piles": [[], []],
        "hands": [[], []],
        "piles": [[], []],
        "picks": [[], []],
        "tossed": [[], []],
        "categories": [new_categories(), new_categories()],
        "extra_points": [0, 0],
        "activated": [0, 0],
        "used": [[], []],
        "mulligans": [0, 0],
        "heart_rounds": [0, 0],
        "named": [None, None],
        "heart_found": [None, None],
        "burn_rounds": [0, 0],
        "burn_draw": [0, 0],
        "get_even": [False, False],
        "last_round": False,
        "revealed": [],
        "result": None,
    }


def new_categories() -> dict[str, dict[str, Any]]:
    """Each category: its state, the rule it scores by (Conversion changes it), the raw
    score and trio once filled, and whether a Bonus lies on it."""
    return {
        category: {"state": OPEN, "rule": category, "score": 0, "trio": None, "bonus": False}
        for category in CATEGORIES
    }


def open_categories(state: State, seat: int) -> list[str]:
    sheet = state["categories"][seat]
    return [category for category in CATEGORIES if sheet[category]["state"] == OPEN]


def open_for_both(state: State) -> list[str]:
    first, second = state["categories"]
    return [
        category
        for category in CATEGORIES
        if first[category]["state"] == OPEN and second[category]["state"] == OPEN
    ]


def begin_step(state: State, stage: str, seats: list[int]) -> None:
    """A new simultaneous step: fresh allowances for ``seats``, nothing received yet."""
    state["stage"] = stage
    state["waiting"] = list(seats)
    state["pending"] = [None, None]
    state["order"] = []
    state["serial"] += 1


def draw(state: State, seat: int, count: int, rng: Rng, events: list[Event]) -> list[str]:
    """Up to ``count`` cards from the top of ``seat``'s deck. When the deck runs short the
    discard pile is shuffled into a new deck; if that is still too few, what exists."""
    deck = state["decks"][seat]
    drawn = [deck.pop() for _ in range(min(count, len(deck)))]
    if len(drawn) < count and state["discard_piles"][seat]:
        fresh = state["discard_piles"][seat]
        state["discard_piles"][seat] = []
        rng.shuffle(fresh)
        deck.extend(fresh)
        events.append({"type": "reshuffled", "seat": seat, "deck": len(deck)})
        drawn.extend(deck.pop() for _ in range(min(count - len(drawn), len(deck))))
    return drawn


def remove_cards(hand: list[str], cards: list[str]) -> None:
    for card in cards:
        hand.remove(card)


def without(hand: list[str], cards: list[str]) -> list[str] | None:
    """``hand`` minus ``cards`` as a multiset, or ``None`` if it does not hold them all."""
    rest = list(hand)
    for card in cards:
        if card not in rest:
            return None
        rest.remove(card)
    return rest
