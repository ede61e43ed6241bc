"""Builders of fixed game states for known-value tests: hands, piles and decks as given."""

from __future__ import annotations

from typing import Any

from games.engines.base import Event, State, StepRng, seed_bytes
from games.engines.drafting_trios import ENGINE
from games.engines.drafting_trios.table import DRAFT, FILLED, PLAY, begin_step

SEED = seed_bytes("drafting trios scenarios")
FILLER = "Y1"


def rng(step: int = 1) -> StepRng:
    return StepRng(SEED, step)


def new_game(config: dict[str, Any] | None = None) -> State:
    return ENGINE.setup(ENGINE.validate_config(dict(config or {}), 2), 2, rng(0))


def filler_deck(size: int = 60) -> list[str]:
    return [FILLER] * size


def at_play(
    hands: list[list[str]],
    *,
    round_number: int = 2,
    decks: list[list[str]] | None = None,
    config: dict[str, Any] | None = None,
) -> State:
    """The playing phase of ``round_number`` with these hands; decks top last."""
    state = new_game(config)
    state["round"] = round_number
    state["hands"] = [list(hand) for hand in hands]
    state["piles"] = [[], []]
    state["decks"] = [list(deck) for deck in decks] if decks else [filler_deck(), filler_deck()]
    state["discard_piles"] = [[], []]
    begin_step(state, PLAY, [0, 1])
    return state


def at_draft(
    piles: list[list[str]],
    *,
    hands: list[list[str]] | None = None,
    round_number: int = 2,
    decks: list[list[str]] | None = None,
) -> State:
    """The first drafting step of ``round_number`` with these piles already drawn."""
    state = at_play(hands or [["R1", "R2"], ["G1", "G2"]], round_number=round_number, decks=decks)
    state["piles"] = [list(pile) for pile in piles]
    state["step"] = 0
    begin_step(state, DRAFT, [seat for seat in (0, 1) if piles[seat]])
    return state


def fill(state: State, seat: int, categories: list[str], score: int = 0) -> None:
    for category in categories:
        entry = state["categories"][seat][category]
        entry.update(state=FILLED, score=score, trio=["R1", "R1", "R1"])


def both(state: State, first: dict, second: dict, step: int = 1) -> list[Event]:
    """Seat 0 then seat 1 send their choices of one simultaneous step."""
    events = ENGINE.apply(state, 0, first, rng(step))
    return events + ENGINE.apply(state, 1, second, rng(step + 1))


def draft_through(state: State) -> None:
    """Finish the drafting phase with each seat's first listed pick."""
    step = 10
    while state["stage"] == DRAFT:
        for seat in list(state["waiting"]):
            first = next(a for a in ENGINE.legal_actions(state, seat) if a["type"] == "draft")
            ENGINE.apply(state, seat, first, rng(step))
            step += 1


def discard_three(state: State, seat: int) -> dict:
    return {"type": "discard", "cards": sorted(state["hands"][seat])[:3]}
