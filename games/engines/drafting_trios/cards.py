"""The cards and their notation: ``R1``..``Y6`` for numbers, ids for power cards.

Each player owns a deck of 154: numbers 1-6 in four colours, five copies each, and 34 power
cards (four of each kind, two VisibleZero). Power cards have value 0 and no colour. A deck is
a list whose end is its top, so drawing is a ``pop``.
"""

from __future__ import annotations

COLOURS = ("R", "G", "B", "Y")
NUMBER_CARDS = tuple(f"{colour}{value}" for colour in COLOURS for value in range(1, 7))
NUMBER_COPIES = 5

VISIBLE_ZERO = "visible_zero"
PLUS_ONE = "plus_one"
MULLIGAN = "mulligan"
HEART_OF_THE_CARDS = "heart_of_the_cards"
CONVERSION = "conversion"
EARTHQUAKE = "earthquake"
BONUS = "bonus"
GET_EVEN = "get_even"
BURN = "burn"
POWER_CARDS = (
    VISIBLE_ZERO,
    PLUS_ONE,
    MULLIGAN,
    HEART_OF_THE_CARDS,
    CONVERSION,
    EARTHQUAKE,
    BONUS,
    GET_EVEN,
    BURN,
)
POWER_COPIES = {power: 2 if power == VISIBLE_ZERO else 4 for power in POWER_CARDS}
POWER_SET = frozenset(POWER_CARDS)

ALL_CARDS = NUMBER_CARDS + POWER_CARDS
VALUE: dict[str, int] = {card: int(card[1]) for card in NUMBER_CARDS} | dict.fromkeys(
    POWER_CARDS, 0
)
COLOUR: dict[str, str | None] = {card: card[0] for card in NUMBER_CARDS} | dict.fromkeys(
    POWER_CARDS, None
)


def new_deck() -> list[str]:
    """An unshuffled deck of 154 cards."""
    deck = [card for card in NUMBER_CARDS for _ in range(NUMBER_COPIES)]
    for power, copies in POWER_COPIES.items():
        deck.extend([power] * copies)
    return deck


def is_power(card: str) -> bool:
    return card in POWER_SET
