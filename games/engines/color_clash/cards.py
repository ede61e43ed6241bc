"""The 108 cards as ints 0..107, with tables for their colour, rank, notation and points.

Ids 0..99 are the coloured cards, 25 per colour in the order red, blue, yellow, green: one 0,
two each of 1..9, two Skip, two Reverse, two Draw Two. Ids 100..103 are the Wilds and
104..107 the Wild Draw Fours. Notation is what logs, tests, views and actions use: ``R5``,
``BS`` (skip), ``YR`` (reverse), ``GD`` (draw two), ``W`` and ``W4``.
"""

from __future__ import annotations

COLORS = ("red", "blue", "yellow", "green")
COLOR_INDEX = {name: index for index, name in enumerate(COLORS)}
COLOR_LETTERS = "RBYG"
NO_COLOR = -1

SKIP, REVERSE, DRAW_TWO, WILD, WILD_DRAW_FOUR = 10, 11, 12, 13, 14
"""Ranks: 0..9 are the numbers, then the symbols. Two cards match by rank when equal."""

DECK_SIZE = 108
HAND_SIZE = 7

_SYMBOL = {SKIP: "S", REVERSE: "R", DRAW_TWO: "D"}
_COLOR_RANKS = [0, *(value for value in range(1, 10) for _ in range(2))] + [
    rank for rank in (SKIP, REVERSE, DRAW_TWO) for _ in range(2)
]


def _build() -> tuple[tuple[int, ...], tuple[int, ...], tuple[str, ...], tuple[int, ...]]:
    colors, ranks, notations, points = [], [], [], []
    for color, letter in enumerate(COLOR_LETTERS):
        for rank in _COLOR_RANKS:
            colors.append(color)
            ranks.append(rank)
            notations.append(letter + (str(rank) if rank < 10 else _SYMBOL[rank]))
            points.append(rank if rank < 10 else 20)
    for rank, name in ((WILD, "W"), (WILD_DRAW_FOUR, "W4")):
        for _ in range(4):
            colors.append(NO_COLOR)
            ranks.append(rank)
            notations.append(name)
            points.append(50)
    return tuple(colors), tuple(ranks), tuple(notations), tuple(points)


COLOR, RANK, NOTATION, POINTS = _build()
"""Indexed by card id: colour index (or ``NO_COLOR``), rank, notation, points left in a hand."""

IDS_BY_NOTATION: dict[str, tuple[int, ...]] = {}
for _card, _name in enumerate(NOTATION):
    IDS_BY_NOTATION[_name] = (*IDS_BY_NOTATION.get(_name, ()), _card)


def hand_points(hand: list[int]) -> int:
    """What a hand is worth to the round winner: numbers their value, symbols 20, Wilds 50."""
    return sum(POINTS[card] for card in hand)
