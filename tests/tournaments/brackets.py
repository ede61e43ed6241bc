"""Plays a bracket JSON to the end with a chosen rule for who wins, as the host would."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Winner = Callable[[str, int, int], int]


def matches_in_order(bracket_json: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        match
        for bracket in bracket_json["brackets"]
        for round_ in bracket["rounds"]
        for match in round_["matches"]
    ]


def play(bracket_json: dict[str, Any], pick: Winner) -> dict[str, tuple[int | None, int | None]]:
    """(winner, loser) of every match; ``pick(match_id, a, b)`` chooses a winner of a real match.

    A bye match's winner is its only entrant; a grand-final reset that is not needed is
    closed and recorded as ``(None, None)``.
    """
    results: dict[str, tuple[int | None, int | None]] = {}

    def entrant(slot: int | str | None) -> int | None:
        if isinstance(slot, str):
            match_id, outcome = slot.split(":")
            winner, loser = results[match_id]
            return winner if outcome == "winner" else loser
        return slot

    for match in matches_in_order(bracket_json):
        if "played_if_won_by_slot" in match:
            first_final = match["slots"][0].split(":")[0]
            first_winner = results[first_final][0]
            first_slots = next(m for m in matches_in_order(bracket_json) if m["id"] == first_final)
            needed_slot = first_slots["slots"][match["played_if_won_by_slot"] - 1]
            if entrant(needed_slot) != first_winner:
                results[match["id"]] = (None, None)
                continue
        a, b = (entrant(slot) for slot in match["slots"])
        if a is None or b is None:
            results[match["id"]] = (a if b is None else b, None)
            continue
        winner = pick(match["id"], a, b)
        results[match["id"]] = (winner, b if winner == a else a)
    return results
