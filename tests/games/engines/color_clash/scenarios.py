"""Scenario builders: a fixed table written in card notation, for known-value tests."""

from __future__ import annotations

import random
from typing import Any

from games.engines.base import State
from games.engines.color_clash import ENGINE
from games.engines.color_clash.cards import COLOR_INDEX, DECK_SIZE, IDS_BY_NOTATION, NOTATION


def table(
    hands: list[list[str]],
    top: str,
    *,
    color: str | None = None,
    draw: list[str] = (),
    rest: str | None = "discard",
    turn: int = 0,
    direction: int = 1,
    config: dict[str, Any] | None = None,
    **fields: Any,
) -> State:
    """A state with these hands and this top card. ``draw`` lists the draw pile from its top.
    The other cards go under the top card (``rest="discard"``), to the bottom of the draw pile
    (``"draw"``), or nowhere (``None``: an unreachable table, to test a guard)."""
    seats = len(hands)
    state = ENGINE.setup(ENGINE.validate_config(config or {}, seats), seats, random.Random(0))
    pool = list(range(DECK_SIZE))

    def take(name: str) -> int:
        card = next(card for card in IDS_BY_NOTATION[name] if card in pool)
        pool.remove(card)
        return card

    state["hands"] = [[take(name) for name in hand] for hand in hands]
    top_card = take(top)
    pile = [take(name) for name in reversed(draw)]
    if rest == "discard":
        state["discard_pile"] = [*pool, top_card]
        state["draw_pile"] = pile
    elif rest == "draw":
        state["discard_pile"] = [top_card]
        state["draw_pile"] = pool + pile
    else:
        state["discard_pile"] = [top_card]
        state["draw_pile"] = pile
    in_force = color or {"R": "red", "B": "blue", "Y": "yellow", "G": "green"}[top[0]]
    state.update(
        color=COLOR_INDEX[in_force],
        turn=turn,
        direction=direction,
        drawn=None,
        choosing_color=False,
        called=[False] * seats,
        window=None,
        places=[],
        stuck=0,
        round_points=None,
    )
    state.update(fields)
    return state


def hand(state: State, seat: int) -> list[str]:
    return sorted(NOTATION[card] for card in state["hands"][seat])


def act(state: State, seat: int | None, action: dict[str, Any], seed: int = 0) -> list[dict]:
    return ENGINE.apply(state, seat, action, random.Random(seed))


def play(card: str, color: str | None = None) -> dict[str, Any]:
    return (
        {"type": "play", "card": card}
        if color is None
        else {
            "type": "play",
            "card": card,
            "color": color,
        }
    )


class ArrangedDeck:
    """An rng whose first shuffle lays the deck out as given (top of the draw pile last):
    tests of dealing and the first card choose what is turned."""

    def __init__(self, order: list[int], positions: list[int] = ()) -> None:
        self.order = list(order)
        self.positions = list(positions)
        self.fallback = random.Random(1)

    def shuffle(self, cards: list[int]) -> None:
        if self.order:
            cards[:] = self.order
            self.order = []
        else:
            self.fallback.shuffle(cards)

    def randrange(self, start: int, stop: int | None = None) -> int:
        return self.positions.pop(0) if self.positions else self.fallback.randrange(start, stop)

    def random(self) -> float:
        return self.fallback.random()

    def choice(self, seq):
        return self.fallback.choice(seq)

    def sample(self, population, k):
        return self.fallback.sample(population, k)


def deck_turning(*turned: str, seats: int = 2) -> list[int]:
    """A deck order whose first cards turned (after dealing ``seats`` hands) are ``turned``."""
    pool = list(range(DECK_SIZE))
    chosen = []
    for name in turned:
        card = next(card for card in IDS_BY_NOTATION[name] if card in pool)
        pool.remove(card)
        chosen.append(card)
    # the pile is popped from the end, so the first card turned goes last
    return pool + list(reversed(chosen))
