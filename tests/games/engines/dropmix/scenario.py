"""Scripted DropMix positions: a real set-up, then the hands, board and scores a test names."""

from __future__ import annotations

from typing import Any

from games.engines.base import StepRng, seed_bytes
from games.engines.dropmix import ENGINE, board


class ScriptedRng:
    """Randomness a test dictates: ``randrange`` and ``choice`` answer from a queue (a choice
    takes an index), ``shuffle`` keeps the order so decks stay predictable."""

    def __init__(self, *values: int) -> None:
        self.values = list(values)

    def randrange(self, start: int, stop: int | None = None) -> int:
        return self.values.pop(0)

    def choice(self, seq: Any) -> Any:
        return seq[self.values.pop(0)]

    def shuffle(self, x: list[Any]) -> None:
        """Keep the order."""

    def random(self) -> float:
        raise AssertionError("DropMix never asks for a float")

    def sample(self, population: Any, k: int) -> list[Any]:
        raise AssertionError("DropMix never samples")


class NoRandomness:
    """For moves that must not draw anything (a pending spin, a plain drop)."""

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"this move drew randomness ({name})")


def game(
    seats: int = 2,
    *,
    active: int = 0,
    turn: int = 2,
    hands: dict[int, list[str]] | None = None,
    decks: dict[int, list[str]] | None = None,
    on_board: dict[int, list[tuple[str, int, str | None]]] | None = None,
    scores: tuple[int, int] = (0, 0),
    **config: Any,
) -> dict[str, Any]:
    """A game of ``seats`` seats whose side ``active`` is to make its first move of ``turn``.

    ``on_board`` maps a slot (1..5) to its stack, bottom first, as (card, seat, colour).
    """
    full = ENGINE.validate_config(config, seats)
    state = ENGINE.setup(full, seats, StepRng(seed_bytes("scenario"), 0))
    state["active"] = active
    state["turn"] = turn
    for seat, cards in (hands or {}).items():
        state["hands"][seat] = list(cards)
    for seat, cards in (decks or {}).items():
        state["decks"][seat] = list(cards)
    for slot, entries in (on_board or {}).items():
        state["stacks"][slot - 1] = [list(entry) for entry in entries]
    state["scores"] = list(scores)
    state["full_mix"] = board.full_mix_side(state)
    return state


def act(state: dict[str, Any], seat: int | None, rng: Any = None, **action: Any) -> list:
    return ENGINE.apply(state, seat, action, rng if rng is not None else NoRandomness())


def drop(state: dict[str, Any], seat: int, card: str, slot: int, rng: Any = None, **extra: Any):
    return act(state, seat, rng, type="drop", card=card, slot=slot, **extra)


def close(state: dict[str, Any], name: str, rng: Any = None) -> list:
    return act(
        state, None, rng if rng is not None else ScriptedRng(), type="window_closed", name=name
    )
