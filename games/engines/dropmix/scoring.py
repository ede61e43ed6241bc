"""Points: a move's gains and losses are tallied, then settled in the order the rules fix.

The acting side's gains land first and a side reaching the target wins at once, so a loss
that follows in the same move can no longer stop it. Scores never go below the configured
``score_floor`` (0 by default; ``None``: no floor).
"""

from __future__ import annotations

from typing import Any

State = dict[str, Any]


class Tally:
    """Points one move gives and takes, per side (0 and 1)."""

    __slots__ = ("gains", "losses")

    def __init__(self) -> None:
        self.gains = [0, 0]
        self.losses = [0, 0]

    def gain(self, side: int, points: int) -> None:
        self.gains[side] += points

    def lose(self, side: int, points: int) -> None:
        self.losses[side] += points

    def add(self, side: int, delta: int) -> None:
        if delta >= 0:
            self.gain(side, delta)
        else:
            self.lose(side, -delta)


def settle(state: State, tally: Tally, acting: int) -> list[dict[str, Any]]:
    """Apply a tally: acting side's gains, then the other's, then losses (down to the floor)."""
    events = []
    for side in (acting, 1 - acting):
        if tally.gains[side]:
            state["scores"][side] += tally.gains[side]
            events.append({"type": "scored", "side": side, "points": tally.gains[side]})
        if state["winner"] is None and state["scores"][side] >= state["target"]:
            state["winner"] = side
            events.append({"type": "won", "side": side, "score": state["scores"][side]})
    if state["winner"] is not None:
        return events
    for side in (acting, 1 - acting):
        if tally.losses[side]:
            lost = tally.losses[side]
            floor = state.get("score_floor", 0)  # games set up before it was configurable: 0
            if floor is not None:
                lost = max(0, min(lost, state["scores"][side] - floor))
            state["scores"][side] -= lost
            events.append({"type": "lost", "side": side, "points": lost})
    return events
