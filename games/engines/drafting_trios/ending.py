"""Totals, the end of the game and the winner.

A category counts its score (x1.5 with a Bonus, halves kept exactly). At the end, open
categories score 0, or 15 (x1.5 with a Bonus) for a player who activated Get Even. Points of
discards and VisibleZero belong to no category. The higher total wins; a tie goes to the
player who activated more power cards, and then to the DMO.
"""

from __future__ import annotations

from typing import Any

from games.engines.base import Event, Outcome, State
from games.engines.drafting_trios.config import DMO
from games.engines.drafting_trios.scoring import CATEGORIES
from games.engines.drafting_trios.table import FILLED, OPEN, OVER, SEATS

GET_EVEN_POINTS = 15
BONUS_FACTOR = 1.5


def exact(points: float) -> int | float:
    """Whole points as an int, half points (31.5) as they are."""
    return int(points) if points == int(points) else points


def category_points(entry: dict[str, Any], get_even: bool, final: bool) -> int | float:
    if entry["state"] == FILLED:
        points = entry["score"]
    elif entry["state"] == OPEN and final and get_even:
        points = GET_EVEN_POINTS
    else:
        return 0
    return exact(points * BONUS_FACTOR) if entry["bonus"] else points


def total(state: State, seat: int, final: bool) -> int | float:
    sheet = state["categories"][seat]
    get_even = state["get_even"][seat]
    points = sum(category_points(sheet[category], get_even, final) for category in CATEGORIES)
    return exact(points + state["extra_points"][seat])


def dmo_seat(state: State) -> int:
    return int(next(seat for seat, role in state["config"]["roles"].items() if role == DMO))


def end_game(state: State, reason: str, events: list[Event]) -> None:
    """Close the game by the rules: totals, then power cards activated, then the DMO."""
    totals = [total(state, seat, final=True) for seat in SEATS]
    activated = state["activated"]
    if totals[0] != totals[1]:
        winner, decided_by = (0 if totals[0] > totals[1] else 1), "total"
    elif activated[0] != activated[1]:
        winner, decided_by = (0 if activated[0] > activated[1] else 1), "power_cards_activated"
    else:
        winner, decided_by = dmo_seat(state), "dmo"
    _close(state, winner, reason, decided_by, events)


def time_out(state: State, seats: list[int], events: list[Event]) -> None:
    """A reserve at zero loses; two at the same instant: the DMO wins."""
    if len(seats) == 1:
        winner, decided_by = 1 - seats[0], "timeout"
    else:
        winner, decided_by = dmo_seat(state), "timeout_tie_dmo"
    _close(state, winner, "timeout", decided_by, events)


def _close(state: State, winner: int, reason: str, decided_by: str, events: list[Event]) -> None:
    state["stage"] = OVER
    state["waiting"] = []
    state["pending"] = [None, None]
    state["order"] = []
    state["result"] = {"winner": winner, "reason": reason, "decided_by": decided_by}
    events.append({"type": "game_over", "winner": winner, "reason": reason, "by": decided_by})


def outcome(state: State) -> Outcome | None:
    result = state["result"]
    if result is None:
        return None
    winner = result["winner"]
    dmo = dmo_seat(state)
    scores = {seat: total(state, seat, final=True) for seat in SEATS}
    activated = {seat: state["activated"][seat] for seat in SEATS}
    categories = {
        str(seat): {
            category: {
                **entry,
                "points": category_points(entry, state["get_even"][seat], final=True),
            }
            for category, entry in state["categories"][seat].items()
        }
        for seat in SEATS
    }
    return Outcome(
        winners=[winner],
        ranking=[[winner], [1 - winner]],
        scores=scores,
        reason=result["reason"],
        metrics={
            "power_cards_activated": activated,
            "dmo": {seat: seat == dmo for seat in SEATS},
        },
        details={
            "decided_by": result["decided_by"],
            "tie_break": {
                "power_cards_activated": {str(seat): n for seat, n in activated.items()},
                "dmo": dmo,
            },
            "categories": categories,
            "extra_points": {str(seat): state["extra_points"][seat] for seat in SEATS},
            "get_even": {str(seat): state["get_even"][seat] for seat in SEATS},
            "rounds": state["round"],
        },
    )
