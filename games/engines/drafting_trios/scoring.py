"""The 11 categories and what a trio scores in each.

``score_trio`` is the public entry point: a category id and three cards in the notation.
Power cards score as value 0 with no colour (whether a trio may hold them at all is the
engine's ``power_cards_in_trios`` flag, not a scoring question). The +3 / +7 colour bonuses
apply only when the category's own condition is met, unless ``colour_bonus_on_failed_trio``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from games.engines.drafting_trios.cards import COLOUR, VALUE

ALL_RED = "all_red"
ALL_BLUE = "all_blue"
ALL_GREEN = "all_green"
ALL_YELLOW = "all_yellow"
HIGH_CARDS = "high_cards"
LOW_CARDS = "low_cards"
DOUBLE_TROUBLE = "double_trouble"
TRIPLE_THREAT = "triple_threat"
LOW_STRAIGHT = "low_straight"
HIGH_STRAIGHT = "high_straight"
ROYAL_FLUSH = "royal_flush"
CATEGORIES = (
    ALL_RED,
    ALL_BLUE,
    ALL_GREEN,
    ALL_YELLOW,
    HIGH_CARDS,
    LOW_CARDS,
    DOUBLE_TROUBLE,
    TRIPLE_THREAT,
    LOW_STRAIGHT,
    HIGH_STRAIGHT,
    ROYAL_FLUSH,
)


class InvalidTrio(ValueError):
    """``score_trio`` was given something that is not a category and three cards."""


Rule = Callable[[list[int], list[str | None], bool], int]


def _different_colours(colours: list[str | None]) -> bool:
    return None not in colours and len(set(colours)) == 3


def _one_colour(colours: list[str | None]) -> bool:
    return colours[0] is not None and colours[0] == colours[1] == colours[2]


def _consecutive(values: list[int]) -> bool:
    low, middle, high = sorted(values)
    return middle == low + 1 and high == middle + 1


def _all_of(colour: str) -> Rule:
    def rule(values: list[int], colours: list[str | None], _failed_bonus: bool) -> int:
        count = colours.count(colour)
        return 5 * count + (max(values) if count == 3 else 0)

    return rule


def _with_bonus(points: int, met: bool, colours: list[str | None], failed_bonus: bool) -> int:
    if not met:
        return 3 if failed_bonus and _different_colours(colours) else 0
    return points + (3 if _different_colours(colours) else 0)


def _high_cards(values: list[int], colours: list[str | None], failed_bonus: bool) -> int:
    return _with_bonus(sum(values), True, colours, failed_bonus)


def _low_cards(values: list[int], colours: list[str | None], failed_bonus: bool) -> int:
    return _with_bonus(20 - sum(values), True, colours, failed_bonus)


def _double_trouble(values: list[int], colours: list[str | None], failed_bonus: bool) -> int:
    return _with_bonus(20, len(set(values)) < 3, colours, failed_bonus)


def _triple_threat(values: list[int], colours: list[str | None], failed_bonus: bool) -> int:
    met = values[0] == values[1] == values[2]
    bonus = 0
    if met or failed_bonus:
        bonus = 3 if _different_colours(colours) else 7 if _one_colour(colours) else 0
    return (35 if met else 0) + bonus


def _low_straight(values: list[int], colours: list[str | None], failed_bonus: bool) -> int:
    return _with_bonus(25, _consecutive(values) and max(values) <= 4, colours, failed_bonus)


def _high_straight(values: list[int], colours: list[str | None], failed_bonus: bool) -> int:
    return _with_bonus(25, _consecutive(values) and min(values) >= 3, colours, failed_bonus)


def _royal_flush(values: list[int], colours: list[str | None], _failed_bonus: bool) -> int:
    return 50 if sorted(values) == [4, 5, 6] and _one_colour(colours) else 0


RULES: dict[str, Rule] = {
    ALL_RED: _all_of("R"),
    ALL_BLUE: _all_of("B"),
    ALL_GREEN: _all_of("G"),
    ALL_YELLOW: _all_of("Y"),
    HIGH_CARDS: _high_cards,
    LOW_CARDS: _low_cards,
    DOUBLE_TROUBLE: _double_trouble,
    TRIPLE_THREAT: _triple_threat,
    LOW_STRAIGHT: _low_straight,
    HIGH_STRAIGHT: _high_straight,
    ROYAL_FLUSH: _royal_flush,
}


def score(rule: str, cards: Sequence[str], colour_bonus_on_failed_trio: bool = False) -> int:
    """The points of three known cards under ``rule``; the engine's unchecked fast path."""
    values = [VALUE[card] for card in cards]
    colours = [COLOUR[card] for card in cards]
    return RULES[rule](values, colours, colour_bonus_on_failed_trio)


def score_trio(
    category: str, cards: Sequence[str], *, colour_bonus_on_failed_trio: bool = False
) -> int:
    """Points of the trio ``cards`` (e.g. ``["R4", "R5", "R6"]``) in ``category``.

    Raises ``InvalidTrio`` for an unknown category, a card outside the notation, or anything
    but exactly three cards.
    """
    if category not in RULES:
        raise InvalidTrio(f"unknown category {category!r}; categories: {', '.join(CATEGORIES)}")
    if isinstance(cards, str) or len(cards) != 3:
        raise InvalidTrio(f"a trio is exactly three cards, not {cards!r}")
    for card in cards:
        if card not in VALUE:
            raise InvalidTrio(f"{card!r} is not a card (numbers are R1..Y6, or a power card id)")
    return score(category, cards, colour_bonus_on_failed_trio)
