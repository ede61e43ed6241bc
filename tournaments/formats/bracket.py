"""Brackets as data: matches whose slots are seeds, byes or references to earlier matches.

A slot is an ``int`` seed (1 = top seed), ``None`` for a bye, or a ``Ref`` to the winner or
loser of another match. Generators build the full power-of-two structure first and then call
``resolve_byes``, which settles every match a bye decides before anyone plays: the loser of a
bye match does not exist (``None``) and its winner is the other slot. After that no reference
points at a bye match, so the host only ever waits on matches that are really played.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal

Outcome = Literal["winner", "loser"]


@dataclass(frozen=True)
class Ref:
    """The winner or loser of an earlier match, printed as ``"W1.1:winner"``."""

    match: str
    outcome: Outcome

    def __str__(self) -> str:
        return f"{self.match}:{self.outcome}"


Slot = int | Ref | None


@dataclass(frozen=True)
class Match:
    id: str
    slots: tuple[Slot, Slot]
    # Extra JSON keys for the host, e.g. the bracket-reset condition of a grand final.
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def is_bye(self) -> bool:
        return None in self.slots


@dataclass(frozen=True)
class Round:
    number: int
    matches: tuple[Match, ...]


@dataclass(frozen=True)
class Bracket:
    name: str
    rounds: tuple[Round, ...]


def next_power_of_two(n: int) -> int:
    size = 1
    while size < n:
        size *= 2
    return size


def standard_seed_order(size: int) -> list[int]:
    """Seeds in bracket-line order so that seeds 1 and 2 can only meet in the final.

    Each step splits every line ``s`` into ``s`` and ``2k+1-s``: for 8 this gives
    1, 8, 4, 5, 2, 7, 3, 6, i.e. first-round matches 1-8, 4-5, 2-7, 3-6.
    """
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for s in order for seed in (s, total - s)]
    return order


def resolve_byes(brackets: list[Bracket]) -> list[Bracket]:
    """Replace references to bye matches by what the bye decides (see module docstring)."""
    decided: dict[str, Slot] = {}

    def settle(slot: Slot) -> Slot:
        if isinstance(slot, Ref) and slot.match in decided:
            return decided[slot.match] if slot.outcome == "winner" else None
        return slot

    resolved = []
    for bracket in brackets:
        rounds = []
        for round_ in bracket.rounds:
            matches = []
            for match in round_.matches:
                slots = (settle(match.slots[0]), settle(match.slots[1]))
                match = replace(match, slots=slots)
                if match.is_bye:
                    decided[match.id] = slots[0] if slots[1] is None else slots[1]
                matches.append(match)
            rounds.append(Round(round_.number, tuple(matches)))
        resolved.append(Bracket(bracket.name, tuple(rounds)))
    return resolved


def slot_json(slot: Slot) -> int | str | None:
    return str(slot) if isinstance(slot, Ref) else slot


def bracket_to_json(bracket: Bracket) -> dict[str, Any]:
    return {
        "name": bracket.name,
        "rounds": [
            {
                "number": round_.number,
                "matches": [
                    {
                        "id": match.id,
                        "slots": [slot_json(slot) for slot in match.slots],
                        "bye": match.is_bye,
                        **match.extra,
                    }
                    for match in round_.matches
                ],
            }
            for round_ in bracket.rounds
        ],
    }
