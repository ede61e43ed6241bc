"""Decks: the pre-built playlists, and the limits on custom decks for each role.

A single player plays alone on a side; a team member shares a side with a partner. The limits
(cards, points, copies) come from the rules file; Wild and FX cards cost 4 points.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from games.engines.dropmix.catalogue import Catalogue
from games.engines.messages import Message, gettext_noop

SINGLE = "single"
TEAM = "team"


@dataclass(frozen=True)
class DeckRules:
    min_cards: int
    max_points: int
    max_copies: int
    playlists: int
    opening_hand: int
    hand_limit: int
    draw_per_turn: int


ROLE_RULES = {
    SINGLE: DeckRules(30, 80, 2, playlists=2, opening_hand=5, hand_limit=7, draw_per_turn=2),
    TEAM: DeckRules(15, 40, 1, playlists=1, opening_hand=3, hand_limit=5, draw_per_turn=1),
}


def validate_deck(catalogue: Catalogue, cards: Any, role: str) -> list[str]:
    """Every reason a custom deck is refused for ``role``; empty when it is legal."""
    if not isinstance(cards, list) or not all(isinstance(card, str) for card in cards):
        return [Message(gettext_noop("a deck must be a list of card ids"))]
    rules = ROLE_RULES[role]
    who = Message(
        gettext_noop("a single player") if role == SINGLE else gettext_noop("a team member")
    )
    unknown = sorted({card for card in cards if card not in catalogue.cards})
    problems = [Message(gettext_noop("unknown card {card!r}"), card=card) for card in unknown]
    if len(cards) < rules.min_cards:
        problems.append(
            Message(
                gettext_noop("{who} needs at least {min_cards} cards, this deck has {count}"),
                who=who,
                min_cards=rules.min_cards,
                count=len(cards),
            )
        )
    points = sum(catalogue.cards[card].cost for card in cards if card in catalogue.cards)
    if points > rules.max_points:
        problems.append(
            Message(
                gettext_noop(
                    "{who} may spend at most {max_points} points, this deck costs {points}"
                ),
                who=who,
                max_points=rules.max_points,
                points=points,
            )
        )
    for card, copies in sorted(Counter(cards).items()):
        if copies > rules.max_copies:
            if rules.max_copies == 1:
                template = gettext_noop(
                    "{who} may hold no duplicates of a card: {card} appears {copies} times"
                )
            else:
                template = gettext_noop(
                    "{who} may hold at most {most} of a card: {card} appears {copies} times"
                )
            problems.append(
                Message(template, who=who, most=rules.max_copies, card=card, copies=copies)
            )
    return problems


def prebuilt_decks(catalogue: Catalogue, roles: list[str]) -> list[list[str]]:
    """Distinct starter playlists for each seat in order: two per single player, one per team
    member. ``ValueError`` when the catalogue has too few starters."""
    needed = sum(ROLE_RULES[role].playlists for role in roles)
    if len(catalogue.starters) < needed:
        raise ValueError(
            Message(
                gettext_noop(
                    "the pre-built decks need {needed} starter playlists, the catalogue has "
                    "{starters}; give every seat a deck instead"
                ),
                needed=needed,
                starters=len(catalogue.starters),
            )
        )
    starters = iter(catalogue.starters)
    decks = []
    for role in roles:
        chosen = [next(starters) for _ in range(ROLE_RULES[role].playlists)]
        decks.append([card for playlist in chosen for card in catalogue.playlists[playlist]])
    return decks
